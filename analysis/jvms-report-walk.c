/* jvms-report-walk.c: the charging rules (jvms-report.h's table): each analysed thread's time
 * over the range, segment by segment, charged to one kind. */
#include "jvms-report-private.h"

#include <string.h>

static JvmsFindingKind
kind_of_blocking_syscall (const char *sys)
{
  /* Without the system call (not recorded), an off-CPU wait JFR did not report is most often a
   * futex of the JVM's own locks: waiting for another thread. */
  if (sys == NULL)
    return JVMS_FINDING_PARKING;
  if (g_str_has_prefix (sys, "futex"))
    return JVMS_FINDING_PARKING;
  if (strstr (sys, "nanosleep") != NULL)
    return JVMS_FINDING_SLEEPING;
  return JVMS_FINDING_IO;
}

/* @tally's evidence for @key, created empty. */
static JvmsReportKey *
tally_key (JvmsReportTally *f, const char *key)
{
  JvmsReportKey *e = g_hash_table_lookup (f->keys, key);
  if (e == NULL)
    {
      e = g_new0 (JvmsReportKey, 1);
      e->key = g_strdup (key);
      e->threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      e->holders = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      g_hash_table_insert (f->keys, e->key, e);
    }
  return e;
}

/* Charges @ns of @t's time to @kind, and to @key's evidence when @key is not NULL. */
static void
charge (JvmsReportWork *r, JvmsReportWalked *t, JvmsFindingKind kind, gint64 ns, const char *key)
{
  JvmsReportTally *f = &r->tallies[kind];
  f->ns += ns;
  t->charged[kind] += ns;
  jvms_report_add_ns (f->thread_ns, t->tid, ns);
  if (key != NULL)
    {
      JvmsReportKey *e = tally_key (f, key);
      e->ns += ns;
      g_hash_table_replace (e->threads, jvms_report_int64_dup (t->tid), GINT_TO_POINTER (1));
    }
}

/* The attributes a thread's walk reads, in this order. */
enum { USER, DETAIL, MONITOR, OWNER, KERNEL, SYSCALL, N_LEAVES };

static void
thread_leaves (const JvmsThreadInfo *info, JvmsAttribute leaves[N_LEAVES])
{
  leaves[USER] = info->user_state;
  leaves[DETAIL] = info->user_detail;
  leaves[MONITOR] = info->user_monitor;
  leaves[OWNER] = info->user_owner;
  leaves[KERNEL] = info->kernel_state;
  leaves[SYSCALL] = info->kernel_syscall;
}

/* A Java thread not stopped by JFR's account, charged by what the kernel says it did. */
static void
charge_by_kernel (JvmsReportWork *r, JvmsReportWalked *t, const JvmsValue *kernel, const char *sys_s,
                  gint64 t_now, gint64 next)
{
  gint64 ns = next - t_now;
  if (kernel->i == JVMS_KERNEL_STATE_RUNNABLE)
    {
      charge (r, t, JVMS_FINDING_CPU_CONTENTION, ns, NULL);
      gint64 span[2] = { t_now, next };
      g_array_append_vals (r->runnable, span, 2);
    }
  else if (kernel->i == JVMS_KERNEL_STATE_BLOCKED_IO)
    charge (r, t, JVMS_FINDING_IO, ns, sys_s ? sys_s : "uninterruptible wait");
  else if (kernel->i == JVMS_KERNEL_STATE_BLOCKED)
    {
      JvmsFindingKind k = kind_of_blocking_syscall (sys_s);
      g_autofree char *key = sys_s ? g_strdup_printf ("%s (kernel)", sys_s)
                                   : g_strdup ("blocked in the kernel, not reported by JFR");
      charge (r, t, k, ns, key);
      if (!r->has_jfr)
        r->unknown_blocked_ns += ns;
    }
  else if (kernel->i == JVMS_KERNEL_STATE_UNKNOWN)
    t->total_ns -= ns; /* lost events: not charged anywhere */
  else
    charge (r, t, JVMS_FINDING_PROGRAM_LOGIC, ns, NULL);
}

/* The start (not clipped to the range) of the interval @c holds at @t; G_MININT64 if none. */
static gint64
cursor_start (JvmsReportCursor *c, gint64 t)
{
  if (jvms_report_cursor_at (c, t)->type == JVMS_VALUE_NULL || c->pos >= c->ivs->len)
    return G_MININT64;
  return g_array_index (c->ivs, JvmsInterval, c->pos).start;
}

/* A Java thread at a safepoint by JFR's account (from the arm to the end, docs/report.md): it is
 * stopped only once the kernel shows it blocked after the arm. Before that it runs to its poll
 * (or in native code), waits for a CPU, or is still blocked in what it was doing before. */
static void
charge_safepoint (JvmsReportWork *r, JvmsReportWalked *t, JvmsReportCursor *cursors,
                  gboolean in_gc_pause, const char *detail_s, const JvmsValue *kernel,
                  const char *sys_s, gint64 t_now, gint64 next)
{
  JvmsFindingKind stop = in_gc_pause || jvms_report_is_gc_operation (detail_s) ? JVMS_FINDING_GC
                                                                                : JVMS_FINDING_SAFEPOINT;
  const char *op = detail_s ? detail_s : "(operation not recorded)";
  gboolean stopped = TRUE;
  if (kernel->type == JVMS_VALUE_INT && kernel->i != JVMS_KERNEL_STATE_EXITED)
    {
      if (kernel->i == JVMS_KERNEL_STATE_BLOCKED || kernel->i == JVMS_KERNEL_STATE_BLOCKED_IO)
        stopped = cursor_start (&cursors[KERNEL], t_now) >= cursor_start (&cursors[USER], t_now);
      else
        stopped = FALSE;
    }
  if (stopped)
    charge (r, t, stop, next - t_now, op);
  else
    charge_by_kernel (r, t, kernel, sys_s, t_now, next);
}

/* Where a Java thread is during a safepoint's synchronisation: JVMS_STRAGGLE_N once it is safe
 * (blocked in the kernel, in a blocking JFR state or native code), else the state it straggles
 * in. Without the kernel layer nothing can be said (safe). */
static guint
straggle_state (const JvmsValue *user, const JvmsValue *kernel)
{
  if (user->type == JVMS_VALUE_INT && user->i != JVMS_USER_STATE_RUNNING && user->i != JVMS_USER_STATE_SAFEPOINT)
    return JVMS_STRAGGLE_N;
  if (kernel->type != JVMS_VALUE_INT)
    return JVMS_STRAGGLE_N;
  switch (kernel->i)
    {
    case JVMS_KERNEL_STATE_RUNNING:
      return JVMS_STRAGGLE_RUNNING;
    case JVMS_KERNEL_STATE_RUNNABLE:
      return JVMS_STRAGGLE_RUNNABLE;
    case JVMS_KERNEL_STATE_SYSCALL:
      return JVMS_STRAGGLE_SYSCALL;
    default:
      return JVMS_STRAGGLE_N;
    }
}

/* A thread's way to the safepoints whose synchronisation it is walked through. */
typedef struct
{
  guint               sp;       /* the first safepoint whose synchronisation has not ended */
  gboolean            arrived;  /* at safepoint sp */
  JvmsReportStraggle *straggle; /* at safepoint sp, once it straggled */
} Arrival;

static JvmsReportSafepoint *
arrival_safepoint (JvmsReportWork *r, Arrival *a, gint64 t)
{
  while (a->sp < r->safepoints->len && g_array_index (r->safepoints, JvmsReportSafepoint, a->sp).sync_end <= t)
    {
      if (a->straggle != NULL && !a->arrived)
        a->straggle->arrival = g_array_index (r->safepoints, JvmsReportSafepoint, a->sp).sync_end;
      a->sp++;
      a->arrived = FALSE;
      a->straggle = NULL;
    }
  return a->sp < r->safepoints->len ? &g_array_index (r->safepoints, JvmsReportSafepoint, a->sp) : NULL;
}

/* The next time after @t at which the thread's place in a synchronisation may change. */
static gint64
arrival_next (JvmsReportSafepoint *sp, gint64 t)
{
  if (sp == NULL)
    return G_MAXINT64;
  return sp->sync_start > t ? sp->sync_start : sp->sync_end;
}

static void
arrival_step (JvmsReportSafepoint *sp, Arrival *a, JvmsReportWalked *t, const JvmsValue *user,
              const JvmsValue *kernel, gint64 t_now, gint64 next)
{
  if (sp == NULL || a->arrived || t_now < sp->sync_start || t_now >= sp->sync_end)
    return;
  guint state = straggle_state (user, kernel);
  if (state == JVMS_STRAGGLE_N)
    {
      a->arrived = TRUE;
      if (a->straggle != NULL)
        a->straggle->arrival = t_now;
      return;
    }
  if (a->straggle == NULL)
    {
      a->straggle = g_new0 (JvmsReportStraggle, 1);
      a->straggle->from = sp->sync_start;
      g_hash_table_insert (sp->stragglers, jvms_report_int64_dup (t->tid), a->straggle);
    }
  a->straggle->ns += next - t_now;
  a->straggle->state_ns[state] += next - t_now;
  a->straggle->arrival = next;
}

/* Walks one thread's time over the range and charges every segment to one cause. @ivs: the
 * intervals of its leaves over the range in time order (the user and kernel states not clipped
 * to it: their starts say when a state began). */
static void
walk_thread (JvmsReportWork *r, JvmsReportWalked *t, GArray * const ivs[N_LEAVES])
{
  JvmsReportCursor cursors[N_LEAVES];
  for (guint i = 0; i < N_LEAVES; i++)
    cursors[i] = (JvmsReportCursor) { ivs[i], 0 };

  gboolean is_app = t->kind == JVMS_THREAD_KIND_JAVA;
  /* The VM thread runs the VM operations: its time is theirs. */
  gboolean is_vm_thread = t->kind == JVMS_THREAD_KIND_VM && g_str_has_prefix (t->name, "VM Thread");
  JvmsReportCursor pause_cursor = { r->gc_pauses, 0 };
  JvmsReportCursor op_cursor = { r->vm_operations, 0 };
  Arrival arrival = { 0 };
  gint64 t_now = r->from;
  while (t_now < r->to)
    {
      JvmsReportSafepoint *sp = is_app ? arrival_safepoint (r, &arrival, t_now) : NULL;
      gint64 next = MIN (r->to, arrival_next (sp, t_now));
      for (guint i = 0; i < N_LEAVES; i++)
        next = MIN (next, jvms_report_cursor_next (&cursors[i], t_now));
      next = MIN (next, jvms_report_cursor_next (&pause_cursor, t_now));
      if (is_vm_thread)
        next = MIN (next, jvms_report_cursor_next (&op_cursor, t_now));
      if (next <= t_now)
        next = t_now + 1;
      gint64 ns = next - t_now;

      const JvmsValue *user = jvms_report_cursor_at (&cursors[USER], t_now);
      const JvmsValue *detail = jvms_report_cursor_at (&cursors[DETAIL], t_now);
      const JvmsValue *monitor = jvms_report_cursor_at (&cursors[MONITOR], t_now);
      const JvmsValue *owner = jvms_report_cursor_at (&cursors[OWNER], t_now);
      const JvmsValue *kernel = jvms_report_cursor_at (&cursors[KERNEL], t_now);
      const JvmsValue *syscall = jvms_report_cursor_at (&cursors[SYSCALL], t_now);
      const char *detail_s = detail->type == JVMS_VALUE_STRING ? detail->s : NULL;
      const char *sys_s = syscall->type == JVMS_VALUE_STRING ? syscall->s : NULL;
      /* Inside a GC pause, a stopped thread waits for the collector, whatever VM operation
       * stopped it, and the VM thread (which runs Serial and some G1 work) collects. */
      gboolean in_gc_pause = jvms_report_cursor_at (&pause_cursor, t_now)->type != JVMS_VALUE_NULL;
      gboolean has_user = user->type == JVMS_VALUE_INT;
      gboolean has_kernel = kernel->type == JVMS_VALUE_INT;

      if ((!has_user && !has_kernel) || (has_kernel && kernel->i == JVMS_KERNEL_STATE_EXITED))
        {
          t_now = next;
          continue;
        }
      if (has_user && (guint64) user->i < JVMS_USER_STATE_N)
        t->user_ns[user->i] += ns;
      if (has_kernel && (guint64) kernel->i < JVMS_KERNEL_STATE_N)
        t->kernel_ns[kernel->i] += ns;

      gboolean on_cpu = has_kernel && (kernel->i == JVMS_KERNEL_STATE_RUNNING ||
                                       kernel->i == JVMS_KERNEL_STATE_SYSCALL);

      if (!is_app)
        {
          /* JVM-internal threads cost only what they run (or wait to run): their idle time is
           * not time the application lost. */
          /* JFR's RUNNING only says such a thread is alive: without the kernel its CPU time is
           * unknown, and not charged. */
          gboolean busy = on_cpu;
          /* Evidence names operations only: the VM thread's time in one is the operation's;
           * other VM threads are named as the finding's threads. */
          const JvmsValue *op_v = is_vm_thread ? jvms_report_cursor_at (&op_cursor, t_now) : NULL;
          const char *op = op_v != NULL && op_v->type == JVMS_VALUE_STRING ? op_v->s : NULL;
          if (busy && t->kind == JVMS_THREAD_KIND_JIT)
            charge (r, t, JVMS_FINDING_JIT, ns, t->name);
          else if (busy && (t->kind == JVMS_THREAD_KIND_GC
                            || (t->kind == JVMS_THREAD_KIND_VM && (in_gc_pause || jvms_report_is_gc_operation (op)))))
            charge (r, t, JVMS_FINDING_GC, ns, NULL);
          else if (busy && t->kind == JVMS_THREAD_KIND_VM)
            charge (r, t, JVMS_FINDING_SAFEPOINT, ns, op);
          if (busy && t->kind != JVMS_THREAD_KIND_JFR)
            t->total_ns += ns;
          t_now = next;
          continue;
        }

      arrival_step (sp, &arrival, t, user, kernel, t_now, next);
      t->total_ns += ns;
      JvmsUserState u = has_user ? (JvmsUserState) user->i : JVMS_USER_STATE_RUNNING;
      switch (u)
        {
        case JVMS_USER_STATE_SLEEPING:
          charge (r, t, JVMS_FINDING_SLEEPING, ns, t->name);
          break;
        case JVMS_USER_STATE_BLOCKED:
          {
            g_autofree char *key = g_strdup_printf ("%s@%" G_GINT64_MODIFIER "x",
                                                    detail_s ? detail_s : "?",
                                                    monitor->type == JVMS_VALUE_INT ? monitor->i : 0);
            charge (r, t, JVMS_FINDING_MONITOR_CONTENTION, ns, key);
            JvmsReportKey *e = tally_key (&r->tallies[JVMS_FINDING_MONITOR_CONTENTION], key);
            e->address = monitor->type == JVMS_VALUE_INT ? monitor->i : 0;
            /* A virtual thread's tid is negative (jvms-thread-list.h). */
            if (owner->type == JVMS_VALUE_INT && owner->i != 0)
              jvms_report_add_ns (e->holders, owner->i, ns);
          }
          break;
        case JVMS_USER_STATE_WAITING:
        case JVMS_USER_STATE_PARKED:
          charge (r, t, JVMS_FINDING_PARKING, ns, detail_s ? detail_s : (u == JVMS_USER_STATE_WAITING ? "Object.wait" : "?"));
          break;
        case JVMS_USER_STATE_SOCKET_IO:
        case JVMS_USER_STATE_FILE_IO:
          charge (r, t, JVMS_FINDING_IO, ns, detail_s ? detail_s : (u == JVMS_USER_STATE_FILE_IO ? "file" : "socket"));
          break;
        case JVMS_USER_STATE_SAFEPOINT:
          charge_safepoint (r, t, cursors, in_gc_pause, detail_s, kernel, sys_s, t_now, next);
          break;
        case JVMS_USER_STATE_RUNNING:
        case JVMS_USER_STATE_NATIVE:
        default:
          if (!has_kernel)
            {
              /* JFR alone cannot tell running from waiting for a CPU. */
              charge (r, t, JVMS_FINDING_PROGRAM_LOGIC, ns, NULL);
              r->unknown_running_ns += ns;
            }
          else
            charge_by_kernel (r, t, kernel, sys_s, t_now, next);
          break;
        }
      t_now = next;
    }
  arrival_safepoint (r, &arrival, G_MAXINT64);
}

/* The threads of the JVM (those the filter names, when one is given), and every thread's name
 * and process for the evidence. */
void
jvms_report_load_threads (JvmsReportWork *r, const char *filter)
{
  r->list = jvms_thread_list_read (r->history);
  r->n_queries++; /* the identity of every thread, in one */
  for (guint i = 0; i < jvms_thread_list_get_len (r->list); i++)
    {
      const JvmsThreadInfo *info = jvms_thread_list_get (r->list, i);
      g_hash_table_insert (r->names, jvms_report_int64_dup (info->tid), info->name);
      if (info->pid >= 0)
        g_hash_table_insert (r->pids, jvms_report_int64_dup (info->tid), jvms_report_int64_dup (info->pid));

      JvmsThreadKind k = info->kind >= 0 ? (JvmsThreadKind) info->kind : JVMS_THREAD_KIND_OTHER_PROCESS;
      /* A thread with a process is ours when that process is the JVM analysed (in a kernel-only
       * trace of several JVMs every JVM's threads have JVM kinds); one without (a JFR thread
       * with no OS thread) when it is not another process's. */
      gboolean in_jvm = r->jvm_pid > 0 && info->pid >= 0 ? info->pid == r->jvm_pid
                                                         : k != JVMS_THREAD_KIND_OTHER_PROCESS;
      if (!in_jvm)
        continue;
      if (filter != NULL && !jvms_thread_info_is (info, filter))
        continue;
      JvmsReportWalked *tr = g_new0 (JvmsReportWalked, 1);
      tr->info = info;
      tr->tid = info->tid;
      tr->name = info->name;
      tr->pid = info->pid;
      tr->kind = k == JVMS_THREAD_KIND_OTHER_PROCESS ? JVMS_THREAD_KIND_JAVA : k;
      /* The launcher's thread (tid == pid) only waits for the JVM to end: its idle time is not
       * the application's. */
      if (tr->tid == r->jvm_pid && tr->kind == JVMS_THREAD_KIND_JAVA)
        tr->kind = JVMS_THREAD_KIND_VM;
      g_ptr_array_add (r->threads, tr);
    }
}

/* Threads are walked in batches, each read by one range query over all their leaves: a query
 * is a pass over the nodes of the range whatever the attributes asked, so a query per thread
 * made 30,000 threads 180,000 passes. A batch doubles while the previous one held fewer than
 * BATCH_INTERVALS intervals and halves when it held more, so that memory stays near
 * BATCH_INTERVALS intervals (32 MiB) where threads hold many, while threads that hold few are
 * read MAX_BATCH at a time. */
#define BATCH_INTERVALS (1u << 20)
#define MAX_BATCH       8192u

static gboolean
walk_batch (JvmsReportWork *w, guint first, guint n, guint *n_intervals, GError **error)
{
  /* ivs[i * N_LEAVES + l]: leaf l of the batch's i-th thread; owner[k]: the slot of attrs[k]. */
  g_autoptr(GPtrArray) ivs = g_ptr_array_new_full (n * N_LEAVES, (GDestroyNotify) g_array_unref);
  g_autoptr(GArray) attrs = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autoptr(GArray) owner = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < n; i++)
    {
      JvmsReportWalked *t = g_ptr_array_index (w->threads, first + i);
      JvmsAttribute leaves[N_LEAVES];
      thread_leaves (t->info, leaves);
      for (guint l = 0; l < N_LEAVES; l++)
        {
          guint slot = ivs->len;
          g_ptr_array_add (ivs, g_array_new (FALSE, FALSE, sizeof (JvmsInterval)));
          if (leaves[l] == JVMS_ATTRIBUTE_INVALID)
            continue;
          g_array_append_val (attrs, leaves[l]);
          g_array_append_val (owner, slot);
        }
    }

  *n_intervals = 0;
  if (attrs->len > 0)
    {
      w->n_queries++;
      g_autoptr(JvmsHistoryRange) range =
        jvms_history_query_range (w->history, w->from, w->to, (const JvmsAttribute *) attrs->data,
                                  attrs->len, error);
      if (range == NULL)
        return FALSE;
      /* Intervals come in the order of @attrs, each attribute's in time order. */
      guint pos = 0;
      JvmsInterval iv;
      g_autoptr(GError) local_error = NULL;
      while (jvms_history_range_next (range, &iv, &local_error))
        {
          while (pos < attrs->len && g_array_index (attrs, JvmsAttribute, pos) != iv.attribute)
            pos++;
          if (pos == attrs->len)
            break;
          guint slot = g_array_index (owner, guint, pos);
          /* The user and kernel states keep their starts: when a state began matters. */
          if (slot % N_LEAVES != USER && slot % N_LEAVES != KERNEL)
            iv.start = MAX (iv.start, w->from);
          iv.end = MIN (iv.end, w->to);
          if (iv.end <= MAX (iv.start, w->from))
            continue;
          g_array_append_val (g_ptr_array_index (ivs, slot), iv);
          (*n_intervals)++;
        }
      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
    }
  for (guint i = 0; i < n; i++)
    walk_thread (w, g_ptr_array_index (w->threads, first + i),
                 (GArray * const *) &ivs->pdata[i * N_LEAVES]);
  return TRUE;
}

gboolean
jvms_report_walk_threads (JvmsReportWork *w, GError **error)
{
  guint batch = 1;
  for (guint first = 0; first < w->threads->len;)
    {
      guint n = MIN (batch, w->threads->len - first), n_intervals;
      if (!walk_batch (w, first, n, &n_intervals, error))
        return FALSE;
      first += n;
      if (n_intervals > BATCH_INTERVALS)
        batch = MAX (batch / 2, 1u);
      else if (n_intervals < BATCH_INTERVALS / 2 && n == batch)
        batch = MIN (batch * 2, MAX_BATCH);
    }
  return TRUE;
}
