/* jvms-report-walk.c: the charging rules (jvms-report.h's table): each analysed thread's time
 * over the range, segment by segment, charged to one kind. The same rules say what a lock's
 * holder was doing while others waited (jvms-report-monitors.c). */
#include "jvms-report-private.h"

#include <string.h>

/* How long before a collection's arm the thread that asked for it may have begun to wait: the
 * VM thread's wake-up, a CPU's wait included on a loaded machine. */
#define JVMS_REPORT_GC_REQUEST_NS (2 * 1000 * 1000)

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
      e->spans = g_array_new (FALSE, FALSE, sizeof (JvmsReportSpan));
      g_hash_table_insert (f->keys, e->key, e);
    }
  return e;
}

JvmsReportKey *
jvms_report_charge (JvmsReportWork *r, JvmsReportWalked *t, JvmsFindingKind kind, gint64 ns,
                    const char *key)
{
  JvmsReportTally *f = &r->tallies[kind];
  f->ns += ns;
  t->charged[kind] += ns;
  jvms_report_add_ns (f->thread_ns, t->tid, ns);
  if (key == NULL)
    return NULL;
  JvmsReportKey *e = tally_key (f, key);
  e->ns += ns;
  g_hash_table_replace (e->threads, jvms_report_int64_dup (t->tid), GINT_TO_POINTER (1));
  return e;
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

/* ------------------------------------------------------------------------------------------ */
/* What a segment is charged to */

/* A thread of the JVM that JFR does not say is stopped or blocked: what the kernel says. */
static void
classify_by_kernel (const JvmsReportSegment *s, JvmsReportCharge *out)
{
  const char *sys = s->syscall->type == JVMS_VALUE_STRING ? s->syscall->s : NULL;
  switch (s->kernel->i)
    {
    case JVMS_KERNEL_STATE_RUNNABLE:
      out->kind = JVMS_FINDING_CPU_CONTENTION;
      out->runnable = TRUE;
      break;
    case JVMS_KERNEL_STATE_BLOCKED_IO:
      out->kind = JVMS_FINDING_IO;
      out->key = g_strdup (sys ? sys : "uninterruptible wait");
      break;
    case JVMS_KERNEL_STATE_BLOCKED:
      out->kind = kind_of_blocking_syscall (sys);
      out->key = sys ? g_strdup_printf ("%s (kernel)", sys) : g_strdup ("blocked in the kernel, not reported by JFR");
      out->unknown_blocked = TRUE;
      break;
    case JVMS_KERNEL_STATE_UNKNOWN:
      /* Lost events: not charged anywhere. */
      out->kind = -1;
      out->counts = FALSE;
      break;
    default:
      out->kind = JVMS_FINDING_PROGRAM_LOGIC;
      break;
    }
}

/* A Java thread at a safepoint by JFR's account (from the arm to the end, docs/report.md): it is
 * stopped only once the kernel shows it blocked after the arm. Before that it runs to its poll
 * (or in native code), waits for a CPU, or is still blocked in what it was doing before. */
static void
classify_safepoint (const JvmsReportSegment *s, JvmsReportCharge *out)
{
  const char *detail = s->detail->type == JVMS_VALUE_STRING ? s->detail->s : NULL;
  gboolean gc = s->in_gc_pause || jvms_report_is_gc_operation (detail);
  gboolean stopped = TRUE;
  if (s->kernel->type == JVMS_VALUE_INT)
    {
      if (s->kernel->i == JVMS_KERNEL_STATE_BLOCKED || s->kernel->i == JVMS_KERNEL_STATE_BLOCKED_IO)
        /* A wait that began just before a collection's arm is the thread that asked for the
         * collection (its allocation failed; it waits for the VM thread to run it): stopped by
         * the GC, not parked. A wait begun earlier is what the thread was doing anyway. */
        stopped = s->kernel_start >= s->user_start
                  || (gc && s->kernel_start != G_MININT64 && s->user_start != G_MININT64
                      && s->user_start - s->kernel_start <= JVMS_REPORT_GC_REQUEST_NS);
      else
        stopped = FALSE;
    }
  if (!stopped)
    {
      classify_by_kernel (s, out);
      return;
    }
  out->kind = gc ? JVMS_FINDING_GC : JVMS_FINDING_SAFEPOINT;
  out->key = g_strdup (detail ? detail : "(operation not recorded)");
}

void
jvms_report_classify (JvmsThreadKind kind, const char *name, const JvmsReportSegment *s,
                      JvmsReportCharge *out)
{
  *out = (JvmsReportCharge) { .kind = -1, .counts = TRUE };
  gboolean has_user = s->user->type == JVMS_VALUE_INT;
  gboolean has_kernel = s->kernel->type == JVMS_VALUE_INT;
  /* Nothing recorded what the thread did (a profiler's samples only): the kernel says it, or
   * nothing is charged (its samples are, jvms-report-estimate.c). */
  if (has_user && s->user->i == JVMS_USER_STATE_NOT_RECORDED)
    {
      if (!has_kernel)
        {
          out->counts = FALSE;
          return;
        }
      has_user = FALSE;
    }
  gboolean on_cpu = has_kernel && (s->kernel->i == JVMS_KERNEL_STATE_RUNNING ||
                                   s->kernel->i == JVMS_KERNEL_STATE_SYSCALL);
  const char *detail = s->detail->type == JVMS_VALUE_STRING ? s->detail->s : NULL;

  if (kind != JVMS_THREAD_KIND_JAVA)
    {
      /* JVM-internal threads cost only what they run: their idle time is not time the
       * application lost. JFR's RUNNING only says such a thread is alive: without the kernel
       * its CPU time is unknown, and not charged. The VM thread's time in an operation is that
       * operation's (evidence names operations only; other VM threads are the finding's
       * threads). */
      out->counts = on_cpu && kind != JVMS_THREAD_KIND_JFR;
      if (!on_cpu)
        return;
      if (kind == JVMS_THREAD_KIND_JIT)
        {
          out->kind = JVMS_FINDING_JIT;
          out->key = g_strdup (name);
        }
      else if (kind == JVMS_THREAD_KIND_GC
               || (kind == JVMS_THREAD_KIND_VM && (s->in_gc_pause || jvms_report_is_gc_operation (s->operation))))
        out->kind = JVMS_FINDING_GC;
      else if (kind == JVMS_THREAD_KIND_VM)
        {
          out->kind = JVMS_FINDING_SAFEPOINT;
          out->key = g_strdup (s->operation);
        }
      return;
    }

  JvmsUserState u = has_user ? (JvmsUserState) s->user->i : JVMS_USER_STATE_RUNNING;
  switch (u)
    {
    case JVMS_USER_STATE_SLEEPING:
      out->kind = JVMS_FINDING_SLEEPING;
      out->key = g_strdup (name);
      break;
    case JVMS_USER_STATE_BLOCKED:
      out->kind = JVMS_FINDING_MONITOR_CONTENTION;
      out->key = g_strdup_printf ("%s@%" G_GINT64_MODIFIER "x", detail ? detail : "?",
                                  s->monitor->type == JVMS_VALUE_INT ? s->monitor->i : 0);
      break;
    case JVMS_USER_STATE_WAITING:
    case JVMS_USER_STATE_PARKED:
      out->kind = JVMS_FINDING_PARKING;
      out->key = g_strdup (detail ? detail : (u == JVMS_USER_STATE_WAITING ? "Object.wait" : "?"));
      break;
    case JVMS_USER_STATE_SOCKET_IO:
    case JVMS_USER_STATE_FILE_IO:
      out->kind = JVMS_FINDING_IO;
      out->key = g_strdup (detail ? detail : (u == JVMS_USER_STATE_FILE_IO ? "file" : "socket"));
      break;
    case JVMS_USER_STATE_SAFEPOINT:
      classify_safepoint (s, out);
      break;
    case JVMS_USER_STATE_RUNNING:
    case JVMS_USER_STATE_NATIVE:
    default:
      if (!has_kernel)
        {
          /* JFR alone cannot tell running from waiting for a CPU. */
          out->kind = JVMS_FINDING_PROGRAM_LOGIC;
          out->unknown_running = TRUE;
        }
      else
        classify_by_kernel (s, out);
      break;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Segments: the times where every leaf of a thread (and the GC pauses, the VM operation and the
 * extra bounds) hold one value */

static gint64
cursor_start (JvmsReportCursor *c, gint64 t)
{
  if (jvms_report_cursor_at (c, t)->type == JVMS_VALUE_NULL || c->pos >= c->ivs->len)
    return G_MININT64;
  return g_array_index (c->ivs, JvmsInterval, c->pos).start;
}

/* Calls @func on every segment of [from, to) where the thread has a state (JFR or kernel, and
 * not exited). @ivs: its leaves' intervals in time order (the user and kernel states with
 * their true starts). @bounds: more times at which segments are cut, sorted (or NULL). */
static void
iterate (JvmsReportWork *r, GArray * const ivs[N_LEAVES], gint64 from, gint64 to, const GArray *bounds,
         JvmsReportSegmentFunc func, gpointer data)
{
  JvmsReportCursor cursors[N_LEAVES];
  for (guint i = 0; i < N_LEAVES; i++)
    cursors[i] = (JvmsReportCursor) { ivs[i], 0 };
  JvmsReportCursor pause_cursor = { r->gc_pauses, 0 };
  JvmsReportCursor op_cursor = { r->vm_operations, 0 };
  guint b = 0;
  gint64 t_now = from;
  while (t_now < to)
    {
      gint64 next = to;
      while (bounds != NULL && b < bounds->len && g_array_index (bounds, gint64, b) <= t_now)
        b++;
      if (bounds != NULL && b < bounds->len)
        next = MIN (next, g_array_index (bounds, gint64, b));
      for (guint i = 0; i < N_LEAVES; i++)
        next = MIN (next, jvms_report_cursor_next (&cursors[i], t_now));
      next = MIN (next, jvms_report_cursor_next (&pause_cursor, t_now));
      next = MIN (next, jvms_report_cursor_next (&op_cursor, t_now));
      if (next <= t_now)
        next = t_now + 1;

      const JvmsValue *op = jvms_report_cursor_at (&op_cursor, t_now);
      JvmsReportSegment s = {
        .t0 = t_now, .t1 = next,
        .user = jvms_report_cursor_at (&cursors[USER], t_now),
        .detail = jvms_report_cursor_at (&cursors[DETAIL], t_now),
        .monitor = jvms_report_cursor_at (&cursors[MONITOR], t_now),
        .owner = jvms_report_cursor_at (&cursors[OWNER], t_now),
        .kernel = jvms_report_cursor_at (&cursors[KERNEL], t_now),
        .syscall = jvms_report_cursor_at (&cursors[SYSCALL], t_now),
        .user_start = cursor_start (&cursors[USER], t_now),
        .kernel_start = cursor_start (&cursors[KERNEL], t_now),
        /* Inside a GC pause, a stopped thread waits for the collector, whatever VM operation
         * stopped it, and the VM thread (which runs Serial and some G1 work) collects. */
        .in_gc_pause = jvms_report_cursor_at (&pause_cursor, t_now)->type != JVMS_VALUE_NULL,
        .operation = op->type == JVMS_VALUE_STRING ? op->s : NULL,
      };
      gboolean has_user = s.user->type == JVMS_VALUE_INT;
      gboolean has_kernel = s.kernel->type == JVMS_VALUE_INT;
      if ((has_user || has_kernel) && !(has_kernel && s.kernel->i == JVMS_KERNEL_STATE_EXITED))
        func (&s, data);
      t_now = next;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The way of a Java thread to each safepoint */

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
      a->sp++;
      a->arrived = FALSE;
      a->straggle = NULL;
    }
  return a->sp < r->safepoints->len ? &g_array_index (r->safepoints, JvmsReportSafepoint, a->sp) : NULL;
}

static void
arrival_step (JvmsReportWork *r, Arrival *a, JvmsReportWalked *t, const JvmsReportSegment *s)
{
  JvmsReportSafepoint *sp = arrival_safepoint (r, a, s->t0);
  if (sp == NULL || a->arrived || s->t0 < sp->sync_start || s->t0 >= sp->sync_end)
    return;
  guint state = straggle_state (s->user, s->kernel);
  if (state == JVMS_STRAGGLE_N)
    {
      a->arrived = TRUE;
      return;
    }
  if (a->straggle == NULL)
    {
      a->straggle = g_new0 (JvmsReportStraggle, 1);
      a->straggle->from = sp->sync_start;
      g_hash_table_insert (sp->stragglers, jvms_report_int64_dup (t->tid), a->straggle);
    }
  /* Segments are cut at the synchronisation's bounds: this one lies inside it. */
  a->straggle->ns += s->t1 - s->t0;
  a->straggle->state_ns[state] += s->t1 - s->t0;
  a->straggle->arrival = s->t1;
}

/* ------------------------------------------------------------------------------------------ */
/* The walk */

typedef struct
{
  JvmsReportWork   *r;
  JvmsReportWalked *t;
  Arrival           arrival;
} Walk;

static void
walk_segment (const JvmsReportSegment *s, gpointer data)
{
  Walk *walk = data;
  JvmsReportWork *r = walk->r;
  JvmsReportWalked *t = walk->t;
  gint64 ns = s->t1 - s->t0;
  if (s->user->type == JVMS_VALUE_INT && (guint64) s->user->i < JVMS_USER_STATE_N)
    t->user_ns[s->user->i] += ns;
  if (s->kernel->type == JVMS_VALUE_INT && (guint64) s->kernel->i < JVMS_KERNEL_STATE_N)
    t->kernel_ns[s->kernel->i] += ns;
  if (t->kind == JVMS_THREAD_KIND_JAVA)
    arrival_step (r, &walk->arrival, t, s);

  JvmsReportCharge c;
  jvms_report_classify (t->kind, t->name, s, &c);
  if (c.counts)
    t->total_ns += ns;
  if (c.kind >= 0)
    {
      JvmsReportKey *e = jvms_report_charge (r, t, c.kind, ns, c.key);
      if (c.kind == JVMS_FINDING_MONITOR_CONTENTION && e != NULL)
        {
          e->address = s->monitor->type == JVMS_VALUE_INT ? s->monitor->i : 0;
          /* A virtual thread's tid is negative (jvms-thread-list.h). */
          if (s->owner->type == JVMS_VALUE_INT && s->owner->i != 0)
            jvms_report_add_ns (e->holders, s->owner->i, ns);
          /* The waits, for what the holders did meanwhile (jvms-report-monitors.c). */
          if (e->spans->len < JVMS_REPORT_MAX_SPANS)
            {
              JvmsReportSpan span = { s->t0, s->t1, t->tid };
              g_array_append_val (e->spans, span);
            }
        }
    }
  gint64 span[2] = { s->t0, s->t1 };
  if (c.runnable && t->kind == JVMS_THREAD_KIND_JAVA)
    g_array_append_vals (r->runnable, span, 2);
  /* JVM threads starved of a CPU: charged nothing (their waiting is not the application's
   * time), but evidence of gc and jit. */
  gboolean runnable = s->kernel->type == JVMS_VALUE_INT && s->kernel->i == JVMS_KERNEL_STATE_RUNNABLE;
  if (runnable && (t->kind == JVMS_THREAD_KIND_GC || (t->kind == JVMS_THREAD_KIND_VM && s->in_gc_pause)))
    {
      r->gc_waiting_ns += ns;
      if (s->in_gc_pause)
        r->gc_pause_waiting_ns += ns;
      g_array_append_vals (r->gc_runnable, span, 2);
    }
  else if (runnable && t->kind == JVMS_THREAD_KIND_JIT)
    {
      r->jit_waiting_ns += ns;
      g_array_append_vals (r->jit_runnable, span, 2);
    }
  if (c.unknown_running)
    r->unknown_running_ns += ns;
  if (c.unknown_blocked && !r->has_jfr)
    r->unknown_blocked_ns += ns;
  g_free (c.key);
}

/* Walks one thread's time over the range and charges every segment to one cause. */
static void
walk_thread (JvmsReportWork *r, JvmsReportWalked *t, GArray * const ivs[N_LEAVES])
{
  Walk walk = { r, t, { 0 } };
  iterate (r, ivs, r->from, r->to, t->kind == JVMS_THREAD_KIND_JAVA ? r->sync_bounds : NULL,
           walk_segment, &walk);
}

/* Reads one thread's leaves over [from, to) (the user and kernel states with their true
 * starts) into @ivs (N_LEAVES arrays). */
static gboolean
read_leaves (JvmsReportWork *w, const JvmsThreadInfo *info, gint64 from, gint64 to, GPtrArray *ivs,
             GError **error)
{
  JvmsAttribute leaves[N_LEAVES], attrs[N_LEAVES];
  guint slots[N_LEAVES], n = 0;
  thread_leaves (info, leaves);
  for (guint l = 0; l < N_LEAVES; l++)
    {
      g_ptr_array_add (ivs, g_array_new (FALSE, FALSE, sizeof (JvmsInterval)));
      if (leaves[l] != JVMS_ATTRIBUTE_INVALID)
        {
          attrs[n] = leaves[l];
          slots[n++] = l;
        }
    }
  if (n == 0)
    return TRUE;
  w->n_queries++;
  g_autoptr(JvmsHistoryRange) range = jvms_history_query_range (w->history, from, to, attrs, n, error);
  if (range == NULL)
    return FALSE;
  guint pos = 0;
  JvmsInterval iv;
  g_autoptr(GError) local_error = NULL;
  while (jvms_history_range_next (range, &iv, &local_error))
    {
      while (pos < n && attrs[pos] != iv.attribute)
        pos++;
      if (pos == n)
        break;
      if (slots[pos] != USER && slots[pos] != KERNEL)
        iv.start = MAX (iv.start, from);
      iv.end = MIN (iv.end, to);
      if (iv.end <= MAX (iv.start, from))
        continue;
      g_array_append_val (g_ptr_array_index (ivs, slots[pos]), iv);
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

gboolean
jvms_report_thread_segments (JvmsReportWork *w, const JvmsThreadInfo *info, gint64 from, gint64 to,
                             const GArray *bounds, JvmsReportSegmentFunc func, gpointer data,
                             GError **error)
{
  g_autoptr(GPtrArray) ivs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  if (!read_leaves (w, info, from, to, ivs, error))
    return FALSE;
  iterate (w, (GArray * const *) ivs->pdata, from, to, bounds, func, data);
  return TRUE;
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
