/* jvms-report.c: the root-cause report (jvms-report.h explains the charging rules). */
#include "jvms-report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jvms-samples.h"
#include "jvms-states.h"
#include "jvms-thread-list.h"

static const char * const finding_names[JVMS_FINDING_N] = {
  "monitor-contention", "cpu-contention", "gc", "jit", "safepoint",
  "sleeping", "parking", "io", "allocation", "program-logic",
};

const char *
jvms_finding_kind_name (JvmsFindingKind kind)
{
  return (guint) kind < JVMS_FINDING_N ? finding_names[kind] : NULL;
}

/* One piece of evidence: a key (monitor, class, method, thread ...) with the time charged to it
 * and the threads involved. */
typedef struct
{
  char       *key;
  gint64      address;  /* monitors: their address; 0 otherwise */
  gint64      ns;
  guint64     count;
  GHashTable *threads;  /* tid -> GINT_TO_POINTER (1): threads that waited */
  GHashTable *holders;  /* tid -> ns: monitors: the threads that held it */
} Evidence;

static void
evidence_free (gpointer data)
{
  Evidence *e = data;
  g_free (e->key);
  g_clear_pointer (&e->threads, g_hash_table_unref);
  g_clear_pointer (&e->holders, g_hash_table_unref);
  g_free (e);
}

typedef struct
{
  gint64      ns;
  GHashTable *thread_ns; /* tid (gint64*) -> gint64* */
  GHashTable *evidence;  /* key -> Evidence */
} Finding;

typedef struct
{
  const JvmsThreadInfo *info; /* in Report.list */
  gint64      tid;
  char       *name;
  gint64      pid;
  JvmsThreadKind kind;
  gint64      total_ns;
  gint64      user_ns[JVMS_USER_STATE_N];
  gint64      kernel_ns[JVMS_KERNEL_STATE_N];
  gint64      charged[JVMS_FINDING_N];
} ThreadReport;

typedef struct
{
  JvmsHistory *history;
  gint64       from, to;
  gint64       jvm_pid;
  gboolean     has_jfr, has_kernel;
  Finding      findings[JVMS_FINDING_N];
  JvmsThreadList *list;       /* every thread of the history */
  GPtrArray   *threads;        /* ThreadReport*, analysed threads */
  GHashTable  *names;          /* tid -> name (every thread seen, for evidence) */
  GHashTable  *pids;           /* tid -> pid */
  GArray      *runnable;       /* gint64 pairs [start, end): our threads waiting for a CPU */
  GArray      *gc_pauses;      /* GC/pause intervals over the range: the world stopped by GC */
  gint64       unknown_running_ns; /* JFR RUNNING with no kernel layer */
  gint64       unknown_blocked_ns; /* kernel BLOCKED with no JFR layer */
  gint64       analysed_ns;
} Report;

static gint64 *
int64_dup (gint64 v)
{
  gint64 *p = g_new (gint64, 1);
  *p = v;
  return p;
}

static void
add_thread_ns (GHashTable *table, gint64 tid, gint64 ns)
{
  gint64 *v = g_hash_table_lookup (table, &tid);
  if (v == NULL)
    g_hash_table_insert (table, int64_dup (tid), int64_dup (ns));
  else
    *v += ns;
}

static Evidence *
finding_evidence (Finding *f, const char *key)
{
  Evidence *e = g_hash_table_lookup (f->evidence, key);
  if (e == NULL)
    {
      e = g_new0 (Evidence, 1);
      e->key = g_strdup (key);
      e->threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      e->holders = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      g_hash_table_insert (f->evidence, e->key, e);
    }
  return e;
}

static void
charge (Report *r, ThreadReport *t, JvmsFindingKind kind, gint64 ns, const char *key)
{
  Finding *f = &r->findings[kind];
  f->ns += ns;
  t->charged[kind] += ns;
  add_thread_ns (f->thread_ns, t->tid, ns);
  if (key != NULL)
    {
      Evidence *e = finding_evidence (f, key);
      e->ns += ns;
      g_hash_table_replace (e->threads, int64_dup (t->tid), GINT_TO_POINTER (1));
    }
}

/* Every interval of @a clipped to [from, to), in time order. */
static GArray *
intervals_of (Report *r, JvmsAttribute a, GError **error)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
  if (a == JVMS_ATTRIBUTE_INVALID)
    return out;
  g_autoptr(JvmsHistoryRange) range = jvms_history_query_range (r->history, r->from, r->to, &a, 1, error);
  if (range == NULL)
    {
      g_array_unref (out);
      return NULL;
    }
  JvmsInterval iv;
  g_autoptr(GError) local_error = NULL;
  while (jvms_history_range_next (range, &iv, &local_error))
    {
      iv.start = MAX (iv.start, r->from);
      iv.end = MIN (iv.end, r->to);
      if (iv.end > iv.start)
        g_array_append_val (out, iv);
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      g_array_unref (out);
      return NULL;
    }
  return out;
}

/* A cursor over one attribute's intervals during the sweep of a thread's time. */
typedef struct
{
  GArray *ivs;
  guint   pos;
} Cursor;

static const JvmsValue *
cursor_at (Cursor *c, gint64 t)
{
  static const JvmsValue null_value = { .type = JVMS_VALUE_NULL };
  while (c->pos < c->ivs->len && g_array_index (c->ivs, JvmsInterval, c->pos).end <= t)
    c->pos++;
  if (c->pos < c->ivs->len)
    {
      JvmsInterval *iv = &g_array_index (c->ivs, JvmsInterval, c->pos);
      if (iv->start <= t)
        return &iv->value;
    }
  return &null_value;
}

/* The next time after @t at which the cursor's value may change. */
static gint64
cursor_next_change (Cursor *c, gint64 t)
{
  for (guint i = c->pos; i < c->ivs->len; i++)
    {
      JvmsInterval *iv = &g_array_index (c->ivs, JvmsInterval, i);
      if (iv->start > t)
        return iv->start;
      if (iv->end > t)
        return iv->end;
    }
  return G_MAXINT64;
}

static gboolean
is_gc_operation (const char *op)
{
  static const char * const gc_words[] = { "GC", "Collect", "G1", "Shenandoah", "ZMark", "ZRelocate", "Remark", "Cleanup" };
  if (op == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (gc_words); i++)
    if (strstr (op, gc_words[i]) != NULL)
      return TRUE;
  return FALSE;
}

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

static const char *
thread_name (Report *r, gint64 tid)
{
  const char *name = g_hash_table_lookup (r->names, &tid);
  return name != NULL ? name : "?";
}

/* Walks one thread's time over the range and charges every segment to one cause. */
static gboolean
walk_thread (Report *r, ThreadReport *t, GError **error)
{
  const JvmsThreadInfo *info = t->info;
  const JvmsAttribute leaves[] = { info->user_state, info->user_detail, info->user_monitor,
                                   info->user_owner, info->kernel_state, info->kernel_syscall };
  enum { USER, DETAIL, MONITOR, OWNER, KERNEL, SYSCALL, N_LEAVES };
  Cursor cursors[N_LEAVES] = { { 0 } };
  gboolean ok = TRUE;

  for (guint i = 0; i < N_LEAVES; i++)
    {
      cursors[i].ivs = intervals_of (r, leaves[i], error);
      if (cursors[i].ivs == NULL)
        {
          ok = FALSE;
          goto out;
        }
    }

  gboolean is_app = t->kind == JVMS_THREAD_KIND_JAVA;
  Cursor pause_cursor = { r->gc_pauses, 0 };
  gint64 t_now = r->from;
  while (t_now < r->to)
    {
      gint64 next = r->to;
      for (guint i = 0; i < N_LEAVES; i++)
        next = MIN (next, cursor_next_change (&cursors[i], t_now));
      next = MIN (next, cursor_next_change (&pause_cursor, t_now));
      if (next <= t_now)
        next = t_now + 1;
      gint64 ns = next - t_now;

      const JvmsValue *user = cursor_at (&cursors[USER], t_now);
      const JvmsValue *detail = cursor_at (&cursors[DETAIL], t_now);
      const JvmsValue *monitor = cursor_at (&cursors[MONITOR], t_now);
      const JvmsValue *owner = cursor_at (&cursors[OWNER], t_now);
      const JvmsValue *kernel = cursor_at (&cursors[KERNEL], t_now);
      const JvmsValue *syscall = cursor_at (&cursors[SYSCALL], t_now);
      const char *detail_s = detail->type == JVMS_VALUE_STRING ? detail->s : NULL;
      const char *sys_s = syscall->type == JVMS_VALUE_STRING ? syscall->s : NULL;
      /* Inside a GC pause, a stopped thread waits for the collector, whatever VM operation
       * stopped it, and the VM thread (which runs Serial and some G1 work) collects. */
      gboolean in_gc_pause = cursor_at (&pause_cursor, t_now)->type != JVMS_VALUE_NULL;
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
          if (busy && t->kind == JVMS_THREAD_KIND_JIT)
            charge (r, t, JVMS_FINDING_JIT, ns, t->name);
          else if (busy && (t->kind == JVMS_THREAD_KIND_GC || (t->kind == JVMS_THREAD_KIND_VM && in_gc_pause)))
            charge (r, t, JVMS_FINDING_GC, ns, NULL);
          else if (busy && t->kind == JVMS_THREAD_KIND_VM)
            charge (r, t, JVMS_FINDING_SAFEPOINT, ns, t->name);
          if (busy && t->kind != JVMS_THREAD_KIND_JFR)
            t->total_ns += ns;
          t_now = next;
          continue;
        }

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
            Evidence *e = finding_evidence (&r->findings[JVMS_FINDING_MONITOR_CONTENTION], key);
            e->address = monitor->type == JVMS_VALUE_INT ? monitor->i : 0;
            /* A virtual thread's tid is negative (jvms-thread-list.h). */
            if (owner->type == JVMS_VALUE_INT && owner->i != 0)
              add_thread_ns (e->holders, owner->i, ns);
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
          charge (r, t, in_gc_pause || is_gc_operation (detail_s) ? JVMS_FINDING_GC : JVMS_FINDING_SAFEPOINT,
                  ns, detail_s ? detail_s : "?");
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
          else if (kernel->i == JVMS_KERNEL_STATE_RUNNABLE)
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
          break;
        }
      t_now = next;
    }

out:
  for (guint i = 0; i < N_LEAVES; i++)
    g_clear_pointer (&cursors[i].ivs, g_array_unref);
  return ok;
}

static gint
compare_spans (gconstpointer a, gconstpointer b)
{
  const gint64 *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Who held the CPUs while our threads waited for one: the union of our runnable spans against
 * every CPU's current thread. */
static gboolean
cpu_holders (Report *r, GHashTable *held, GError **error)
{
  guint n = r->runnable->len / 2;
  if (n == 0)
    return TRUE;
  gint64 *spans = (gint64 *) r->runnable->data;
  qsort (spans, n, 2 * sizeof (gint64), compare_spans);
  /* Merge into a union, in place. */
  guint m = 0;
  for (guint i = 0; i < n; i++)
    {
      if (m > 0 && spans[2 * i] <= spans[2 * (m - 1) + 1])
        spans[2 * (m - 1) + 1] = MAX (spans[2 * (m - 1) + 1], spans[2 * i + 1]);
      else
        {
          spans[2 * m] = spans[2 * i];
          spans[2 * m + 1] = spans[2 * i + 1];
          m++;
        }
    }

  JvmsAttribute cpus = jvms_history_lookup (r->history, "CPUs");
  if (cpus == JVMS_ATTRIBUTE_INVALID)
    return TRUE;
  g_autoptr(GArray) children = jvms_history_list_children (r->history, cpus);
  for (guint c = 0; c < children->len; c++)
    {
      JvmsAttribute cur = jvms_history_lookup_child (r->history, g_array_index (children, JvmsAttribute, c),
                                                     "current-thread");
      g_autoptr(GArray) ivs = intervals_of (r, cur, error);
      if (ivs == NULL)
        return FALSE;
      guint s = 0;
      for (guint i = 0; i < ivs->len; i++)
        {
          JvmsInterval *iv = &g_array_index (ivs, JvmsInterval, i);
          if (iv->value.type != JVMS_VALUE_INT || iv->value.i <= 0)
            continue;
          while (s < m && spans[2 * s + 1] <= iv->start)
            s++;
          for (guint k = s; k < m && spans[2 * k] < iv->end; k++)
            {
              gint64 overlap = MIN (iv->end, spans[2 * k + 1]) - MAX (iv->start, spans[2 * k]);
              if (overlap > 0)
                add_thread_ns (held, iv->value.i, overlap);
            }
        }
    }
  return TRUE;
}

typedef struct
{
  const char *key;
  gint64      ns;
  gpointer    data;
} Ranked;

static gint
compare_ranked (gconstpointer a, gconstpointer b)
{
  const Ranked *x = a, *y = b;
  if (x->ns != y->ns)
    return x->ns > y->ns ? -1 : 1;
  return g_strcmp0 (x->key, y->key);
}

/* A table of key -> gint64* (ns or counts), ranked largest first. */
static GArray *
rank_table (GHashTable *table, gboolean keys_are_tids)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Ranked));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      Ranked rk = { keys_are_tids ? NULL : k, *(gint64 *) v, k };
      g_array_append_val (out, rk);
    }
  g_array_sort (out, compare_ranked);
  return out;
}

static void
add_threads_array (JsonBuilder *b, Report *r, GHashTable *thread_ns, guint limit, gboolean with_ns)
{
  g_autoptr(GArray) ranked = rank_table (thread_ns, TRUE);
  json_builder_begin_array (b);
  for (guint i = 0; i < ranked->len && (limit == 0 || i < limit); i++)
    {
      Ranked *rk = &g_array_index (ranked, Ranked, i);
      gint64 tid = *(gint64 *) rk->data;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, tid);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, thread_name (r, tid));
      if (with_ns)
        {
          json_builder_set_member_name (b, "ns");
          json_builder_add_int_value (b, rk->ns);
          gint64 *pid = g_hash_table_lookup (r->pids, &tid);
          json_builder_set_member_name (b, "pid");
          if (pid != NULL)
            json_builder_add_int_value (b, *pid);
          else
            json_builder_add_null_value (b);
          json_builder_set_member_name (b, "ours");
          json_builder_add_boolean_value (b, pid != NULL && *pid == r->jvm_pid);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static GArray *
rank_evidence (Finding *f)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Ranked));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, f->evidence);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      Evidence *e = v;
      Ranked rk = { e->key, e->ns, e };
      g_array_append_val (out, rk);
    }
  g_array_sort (out, compare_ranked);
  return out;
}

static void
add_member_int (JsonBuilder *b, const char *name, gint64 v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static void
add_member_string (JsonBuilder *b, const char *name, const char *v)
{
  json_builder_set_member_name (b, name);
  if (v != NULL)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
add_member_double (JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, isfinite (v) ? v : 0);
}

/* Generic evidence: keys with their time and the threads charged. */
static void
add_keyed_evidence (JsonBuilder *b, Report *r, Finding *f, const char *key_name, guint limit)
{
  g_autoptr(GArray) ranked = rank_evidence (f);
  json_builder_begin_array (b);
  for (guint i = 0; i < ranked->len && i < limit; i++)
    {
      Evidence *e = g_array_index (ranked, Ranked, i).data;
      json_builder_begin_object (b);
      add_member_string (b, key_name, e->key);
      add_member_int (b, "ns", e->ns);
      json_builder_set_member_name (b, "threads");
      g_autoptr(GHashTable) tns = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      GHashTableIter it;
      gpointer k;
      g_hash_table_iter_init (&it, e->threads);
      while (g_hash_table_iter_next (&it, &k, NULL))
        {
          gint64 *ns = g_hash_table_lookup (f->thread_ns, k);
          add_thread_ns (tns, *(gint64 *) k, ns ? *ns : 0);
        }
      add_threads_array (b, r, tns, 0, FALSE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_monitor_evidence (JsonBuilder *b, Report *r, Finding *f, guint limit)
{
  g_autoptr(GArray) ranked = rank_evidence (f);
  json_builder_begin_array (b);
  for (guint i = 0; i < ranked->len && i < limit; i++)
    {
      Evidence *e = g_array_index (ranked, Ranked, i).data;
      const char *at = strrchr (e->key, '@');
      g_autofree char *cls = at ? g_strndup (e->key, at - e->key) : g_strdup (e->key);
      g_autofree char *address = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", e->address);
      json_builder_begin_object (b);
      add_member_string (b, "class", cls);
      add_member_string (b, "address", address);
      add_member_int (b, "blocked_ns", e->ns);
      json_builder_set_member_name (b, "blocked_threads");
      g_autoptr(GHashTable) tns = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      GHashTableIter it;
      gpointer k;
      g_hash_table_iter_init (&it, e->threads);
      while (g_hash_table_iter_next (&it, &k, NULL))
        add_thread_ns (tns, *(gint64 *) k, 1);
      add_threads_array (b, r, tns, 0, FALSE);
      json_builder_set_member_name (b, "holders");
      add_threads_array (b, r, e->holders, 0, TRUE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* GC collections and pauses over the range: every collection id seen counts once. */
static gboolean
gc_summary (Report *r, gint64 *collections, gint64 *pause_ns, GHashTable *by_name,
            GHashTable *pause_by_name, GError **error)
{
  *collections = 0;
  *pause_ns = 0;
  JvmsHistory *h = r->history;
  g_autoptr(GArray) ids = intervals_of (r, jvms_history_lookup (h, "GC/collection"), error);
  g_autoptr(GArray) names = ids ? intervals_of (r, jvms_history_lookup (h, "GC/collection/name"), error) : NULL;
  g_autoptr(GArray) pauses = names ? intervals_of (r, jvms_history_lookup (h, "GC/pause"), error) : NULL;
  if (pauses == NULL)
    return FALSE;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  Cursor name_cursor = { names, 0 };
  for (guint i = 0; i < ids->len; i++)
    {
      JvmsInterval *iv = &g_array_index (ids, JvmsInterval, i);
      if (iv->value.type != JVMS_VALUE_INT || g_hash_table_contains (seen, &iv->value.i))
        continue;
      g_hash_table_add (seen, int64_dup (iv->value.i));
      (*collections)++;
      const JvmsValue *name = cursor_at (&name_cursor, iv->start);
      const char *key = name->type == JVMS_VALUE_STRING ? name->s : "?";
      gint64 *n = g_hash_table_lookup (by_name, key);
      if (n == NULL)
        g_hash_table_insert (by_name, g_strdup (key), int64_dup (1));
      else
        (*n)++;
    }
  for (guint i = 0; i < pauses->len; i++)
    {
      JvmsInterval *iv = &g_array_index (pauses, JvmsInterval, i);
      if (iv->value.type != JVMS_VALUE_STRING)
        continue;
      *pause_ns += iv->end - iv->start;
      gint64 *n = g_hash_table_lookup (pause_by_name, iv->value.s);
      if (n == NULL)
        g_hash_table_insert (pause_by_name, g_strdup (iv->value.s), int64_dup (iv->end - iv->start));
      else
        *n += iv->end - iv->start;
    }
  return TRUE;
}

/* Execution samples' top frames and allocation samples' classes over the range and threads. */
static gboolean
read_samples (Report *r, const char *path, GHashTable *methods, gint64 *n_exec,
              GHashTable *classes, GHashTable *sites, GError **error)
{
  *n_exec = 0;
  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_autoptr(JvmsSamplesReader) reader = jvms_samples_reader_open (path, error);
  if (reader == NULL)
    return FALSE;
  g_autoptr(GHashTable) ours = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < r->threads->len; i++)
    {
      ThreadReport *t = g_ptr_array_index (r->threads, i);
      if (t->kind == JVMS_THREAD_KIND_JAVA)
        g_hash_table_add (ours, &t->tid);
    }
  JvmsSample s;
  g_autoptr(GError) local_error = NULL;
  while (jvms_samples_reader_next (reader, &s, &local_error))
    {
      if (s.time < r->from || s.time >= r->to || !g_hash_table_contains (ours, &s.tid))
        continue;
      if (s.kind == JVMS_SAMPLE_EXECUTION && s.n_frames > 0)
        {
          (*n_exec)++;
          gint64 *n = g_hash_table_lookup (methods, s.frames[0].method);
          if (n == NULL)
            g_hash_table_insert (methods, g_strdup (s.frames[0].method), int64_dup (1));
          else
            (*n)++;
        }
      else if (s.kind == JVMS_SAMPLE_ALLOCATION && s.class_name != NULL)
        {
          gint64 *n = g_hash_table_lookup (classes, s.class_name);
          if (n == NULL)
            g_hash_table_insert (classes, g_strdup (s.class_name), int64_dup ((gint64) s.weight));
          else
            *n += (gint64) s.weight;
          if (s.n_frames > 0)
            {
              n = g_hash_table_lookup (sites, s.frames[0].method);
              if (n == NULL)
                g_hash_table_insert (sites, g_strdup (s.frames[0].method), int64_dup ((gint64) s.weight));
              else
                *n += (gint64) s.weight;
            }
        }
    }
  if (local_error != NULL)
    {
      /* A damaged sample store still gives what was read before the damage. */
      g_warning ("%s", local_error->message);
    }
  return TRUE;
}

static void
add_name_ns_array (JsonBuilder *b, GHashTable *table, const char *key_name, const char *value_name,
                   guint limit, gint64 total)
{
  g_autoptr(GArray) ranked = rank_table (table, FALSE);
  json_builder_begin_array (b);
  for (guint i = 0; i < ranked->len && i < limit; i++)
    {
      Ranked *rk = &g_array_index (ranked, Ranked, i);
      json_builder_begin_object (b);
      add_member_string (b, key_name, rk->key);
      add_member_int (b, value_name, rk->ns);
      if (total > 0)
        add_member_double (b, "share", (double) rk->ns / total);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* The threads of the JVM (those the filter names, when one is given), and every thread's name
 * and process for the evidence. */
static void
load_threads (Report *r, const char *filter)
{
  r->list = jvms_thread_list_read (r->history);
  for (guint i = 0; i < jvms_thread_list_get_len (r->list); i++)
    {
      const JvmsThreadInfo *info = jvms_thread_list_get (r->list, i);
      g_hash_table_insert (r->names, int64_dup (info->tid), info->name);
      if (info->pid >= 0)
        g_hash_table_insert (r->pids, int64_dup (info->tid), int64_dup (info->pid));

      JvmsThreadKind k = info->kind >= 0 ? (JvmsThreadKind) info->kind : JVMS_THREAD_KIND_OTHER_PROCESS;
      gboolean in_jvm = k != JVMS_THREAD_KIND_OTHER_PROCESS ||
                        (r->jvm_pid > 0 && info->pid >= 0 && info->pid == r->jvm_pid);
      if (!in_jvm)
        continue;
      if (filter != NULL && g_strcmp0 (filter, info->key) != 0 && g_strcmp0 (filter, info->name) != 0)
        continue;
      ThreadReport *tr = g_new0 (ThreadReport, 1);
      tr->info = info;
      tr->tid = info->tid;
      tr->name = g_strdup (info->name);
      tr->pid = info->pid;
      tr->kind = k == JVMS_THREAD_KIND_OTHER_PROCESS ? JVMS_THREAD_KIND_JAVA : k;
      /* The launcher's thread (tid == pid) only waits for the JVM to end: its idle time is not
       * the application's. */
      if (tr->tid == r->jvm_pid && tr->kind == JVMS_THREAD_KIND_JAVA)
        tr->kind = JVMS_THREAD_KIND_VM;
      g_ptr_array_add (r->threads, tr);
    }
}

static void
thread_report_free (gpointer data)
{
  ThreadReport *t = data;
  g_free (t->name);
  g_free (t);
}

static const char *
finding_summary (JvmsFindingKind kind)
{
  switch (kind)
    {
    case JVMS_FINDING_MONITOR_CONTENTION: return "threads blocked entering contended monitors";
    case JVMS_FINDING_CPU_CONTENTION: return "threads runnable but waiting for a CPU held by other threads";
    case JVMS_FINDING_GC: return "threads stopped by garbage collection, and GC threads' CPU time";
    case JVMS_FINDING_JIT: return "CPU time of the JIT compiler threads";
    case JVMS_FINDING_SAFEPOINT: return "threads stopped at safepoints for VM operations other than GC";
    case JVMS_FINDING_SLEEPING: return "threads sleeping (Thread.sleep)";
    case JVMS_FINDING_PARKING: return "threads parked or waiting for another thread (LockSupport.park, Object.wait)";
    case JVMS_FINDING_IO: return "threads waiting for file or socket I/O";
    case JVMS_FINDING_ALLOCATION: return "allocation";
    case JVMS_FINDING_PROGRAM_LOGIC: return "threads running their own code on a CPU";
    default: return "";
    }
}

JsonNode *
jvms_report_compute (JvmsHistory             *history,
                     const JvmsReportOptions *options,
                     GError                 **error)
{
  g_return_val_if_fail (history != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  Report r = { 0 };
  r.history = history;
  gint64 hs = jvms_history_get_start_time (history), he = jvms_history_get_end_time (history);
  r.from = CLAMP (options->from, hs, he);
  r.to = CLAMP (options->to, r.from, he);
  guint limit = options->max_evidence ? options->max_evidence : 10;
  const char *layers = jvms_history_get_metadata (history, "layers");
  r.has_jfr = layers == NULL || strstr (layers, "jfr") != NULL;
  r.has_kernel = layers != NULL && strstr (layers, "kernel") != NULL;
  const char *jvm_pid = jvms_history_get_metadata (history, "jvm-pid");
  r.jvm_pid = jvm_pid && *jvm_pid ? g_ascii_strtoll (jvm_pid, NULL, 10) : -1;
  for (guint k = 0; k < JVMS_FINDING_N; k++)
    {
      r.findings[k].thread_ns = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      r.findings[k].evidence = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, evidence_free);
    }
  r.threads = g_ptr_array_new_with_free_func (thread_report_free);
  r.names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  r.pids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  r.runnable = g_array_new (FALSE, FALSE, sizeof (gint64));

  JsonNode *result = NULL;
  g_autoptr(JsonBuilder) b = NULL;
  g_autoptr(GHashTable) held = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(GHashTable) gc_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) pause_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) methods = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) classes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) sites = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gint64 collections = 0, pause_ns = 0, n_exec = 0;

  r.gc_pauses = intervals_of (&r, jvms_history_lookup (history, "GC/pause"), error);
  if (r.gc_pauses == NULL)
    goto out;
  load_threads (&r, options->thread);
  for (guint i = 0; i < r.threads->len; i++)
    if (!walk_thread (&r, g_ptr_array_index (r.threads, i), error))
      goto out;
  if (!cpu_holders (&r, held, error) ||
      !gc_summary (&r, &collections, &pause_ns, gc_by_name, pause_by_name, error) ||
      !read_samples (&r, options->samples_path, methods, &n_exec, classes, sites, error))
    goto out;

  for (guint i = 0; i < r.threads->len; i++)
    r.analysed_ns += ((ThreadReport *) g_ptr_array_index (r.threads, i))->total_ns;

  b = json_builder_new ();
  json_builder_begin_object (b);
  add_member_int (b, "schema_version", 1);
  add_member_string (b, "layers", layers ? layers : "");
  json_builder_set_member_name (b, "range");
  json_builder_begin_object (b);
  add_member_int (b, "from_ns", r.from);
  add_member_int (b, "to_ns", r.to);
  add_member_int (b, "from_offset_ns", r.from - hs);
  add_member_int (b, "to_offset_ns", r.to - hs);
  add_member_int (b, "duration_ns", r.to - r.from);
  json_builder_end_object (b);
  add_member_int (b, "jvm_pid", r.jvm_pid);
  add_member_int (b, "analysed_ns", r.analysed_ns);

  /* Findings, largest lost time first. */
  Ranked order[JVMS_FINDING_N];
  guint n_order = 0;
  for (guint k = 0; k < JVMS_FINDING_N; k++)
    if (r.findings[k].ns > 0)
      order[n_order++] = (Ranked) { finding_names[k], r.findings[k].ns, GUINT_TO_POINTER (k) };
  qsort (order, n_order, sizeof (Ranked), compare_ranked);

  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_order; i++)
    {
      JvmsFindingKind k = GPOINTER_TO_UINT (order[i].data);
      Finding *f = &r.findings[k];
      json_builder_begin_object (b);
      add_member_string (b, "kind", finding_names[k]);
      add_member_string (b, "summary", finding_summary (k));
      add_member_int (b, "lost_ns", f->ns);
      add_member_double (b, "share", r.analysed_ns > 0 ? (double) f->ns / r.analysed_ns : 0);
      json_builder_set_member_name (b, "threads");
      add_threads_array (b, &r, f->thread_ns, 0, FALSE);
      json_builder_set_member_name (b, "evidence");
      json_builder_begin_object (b);
      switch (k)
        {
        case JVMS_FINDING_MONITOR_CONTENTION:
          json_builder_set_member_name (b, "monitors");
          add_monitor_evidence (b, &r, f, limit);
          break;
        case JVMS_FINDING_CPU_CONTENTION:
          json_builder_set_member_name (b, "cpu_holders");
          add_threads_array (b, &r, held, limit, TRUE);
          break;
        case JVMS_FINDING_GC:
          add_member_int (b, "collections", collections);
          add_member_int (b, "pause_ns", pause_ns);
          json_builder_set_member_name (b, "collectors");
          add_name_ns_array (b, gc_by_name, "name", "count", limit, 0);
          json_builder_set_member_name (b, "pauses");
          add_name_ns_array (b, pause_by_name, "name", "ns", limit, 0);
          json_builder_set_member_name (b, "allocated_classes");
          add_name_ns_array (b, classes, "class", "bytes", limit, 0);
          json_builder_set_member_name (b, "allocation_sites");
          add_name_ns_array (b, sites, "method", "bytes", limit, 0);
          break;
        case JVMS_FINDING_PROGRAM_LOGIC:
          add_member_int (b, "execution_samples", n_exec);
          json_builder_set_member_name (b, "hot_methods");
          add_name_ns_array (b, methods, "method", "samples", limit, n_exec);
          break;
        case JVMS_FINDING_PARKING:
          json_builder_set_member_name (b, "waits");
          add_keyed_evidence (b, &r, f, "on", limit);
          break;
        case JVMS_FINDING_IO:
          json_builder_set_member_name (b, "targets");
          add_keyed_evidence (b, &r, f, "target", limit);
          break;
        case JVMS_FINDING_SAFEPOINT:
          json_builder_set_member_name (b, "operations");
          add_keyed_evidence (b, &r, f, "operation", limit);
          break;
        case JVMS_FINDING_SLEEPING:
        case JVMS_FINDING_JIT:
        case JVMS_FINDING_ALLOCATION:
        default:
          json_builder_set_member_name (b, "items");
          add_keyed_evidence (b, &r, f, "what", limit);
          break;
        }
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "gc");
  json_builder_begin_object (b);
  add_member_int (b, "collections", collections);
  add_member_int (b, "pause_ns", pause_ns);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "allocation");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "top_classes");
  add_name_ns_array (b, classes, "class", "bytes", limit, 0);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "threads");
  json_builder_begin_array (b);
  for (guint i = 0; i < r.threads->len; i++)
    {
      ThreadReport *t = g_ptr_array_index (r.threads, i);
      json_builder_begin_object (b);
      add_member_int (b, "tid", t->tid);
      add_member_string (b, "name", t->name);
      add_member_string (b, "kind", jvms_thread_kind_name (t->kind));
      add_member_int (b, "analysed_ns", t->total_ns);
      json_builder_set_member_name (b, "user_states");
      json_builder_begin_object (b);
      for (guint s = 0; s < JVMS_USER_STATE_N; s++)
        if (t->user_ns[s] > 0)
          add_member_int (b, jvms_user_state_name (s), t->user_ns[s]);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "kernel_states");
      json_builder_begin_object (b);
      for (guint s = 0; s < JVMS_KERNEL_STATE_N; s++)
        if (t->kernel_ns[s] > 0)
          add_member_int (b, jvms_kernel_state_name (s), t->kernel_ns[s]);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "lost");
      json_builder_begin_object (b);
      for (guint k = 0; k < JVMS_FINDING_N; k++)
        if (t->charged[k] > 0)
          add_member_int (b, finding_names[k], t->charged[k]);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "unknowns");
  json_builder_begin_array (b);
  if (!r.has_kernel)
    json_builder_add_string_value (b, "no kernel layer: time the JVM reports as running cannot be split into "
                                      "running on a CPU and waiting for one, so cpu-contention is unknown "
                                      "and that time is counted as program-logic; the CPU time of the JVM's own "
                                      "threads (GC, JIT, VM) is unknown and not counted");
  if (!r.has_jfr)
    json_builder_add_string_value (b, "no JFR layer: why a thread was blocked (monitor, park, sleep, I/O) is "
                                      "inferred from its system call only; GC, JIT and safepoint causes and "
                                      "hot methods are unknown");
  json_builder_end_array (b);
  add_member_int (b, "unknown_running_ns", r.unknown_running_ns);
  add_member_int (b, "unknown_blocked_ns", r.unknown_blocked_ns);
  json_builder_end_object (b);
  result = json_builder_get_root (b);

out:
  for (guint k = 0; k < JVMS_FINDING_N; k++)
    {
      g_clear_pointer (&r.findings[k].thread_ns, g_hash_table_unref);
      g_clear_pointer (&r.findings[k].evidence, g_hash_table_unref);
    }
  g_clear_pointer (&r.threads, g_ptr_array_unref);
  g_clear_pointer (&r.list, jvms_thread_list_free);
  g_clear_pointer (&r.names, g_hash_table_unref);
  g_clear_pointer (&r.pids, g_hash_table_unref);
  g_clear_pointer (&r.runnable, g_array_unref);
  g_clear_pointer (&r.gc_pauses, g_array_unref);
  return result;
}
