/* jvms-quanta.c: scheduling quanta from the kernel states of an index (jvms-quanta.h). */
#include "jvms-quanta.h"

#include <math.h>

#include "jvms-states.h"
#include "jvms-thread-list.h"

#define QUANTA_BASIS "estimated: each counter sample's events spread over the thread's on-CPU time since its previous sample"
#define QUANTA_EXACT "exact: the CPU's count between the switch-in and the switch-out, read by perf at each sched_switch"

typedef struct
{
  gint64      start, end;
  gint32      cpu;
  gboolean    switched_in;
  const char *end_kind;   /* "preempted", "blocked", "blocked-io", "exited", "unknown" */
  const char *method;     /* in the history's string table */
} Quantum;

static gboolean
on_cpu (const JvmsInterval *iv)
{
  return iv->value.type == JVMS_VALUE_INT
         && (iv->value.i == JVMS_KERNEL_STATE_RUNNING || iv->value.i == JVMS_KERNEL_STATE_SYSCALL);
}

/* The states only a switch-in ends. */
static gboolean
waits_for_switch_in (const JvmsInterval *iv)
{
  return iv->value.type == JVMS_VALUE_INT
         && (iv->value.i == JVMS_KERNEL_STATE_RUNNABLE || iv->value.i == JVMS_KERNEL_STATE_BLOCKED
             || iv->value.i == JVMS_KERNEL_STATE_BLOCKED_IO);
}

static const char *
end_kind_after (const JvmsInterval *next)
{
  if (next == NULL || next->value.type != JVMS_VALUE_INT)
    return "unknown";
  switch (next->value.i)
    {
    case JVMS_KERNEL_STATE_RUNNABLE:
      return "preempted";
    case JVMS_KERNEL_STATE_BLOCKED:
      return "blocked";
    case JVMS_KERNEL_STATE_BLOCKED_IO:
      return "blocked-io";
    case JVMS_KERNEL_STATE_EXITED:
      return "exited";
    default:
      return "unknown";
    }
}

/* The value of a sorted, non-overlapping list of intervals at @t, moving *@at forward. */
static const JvmsInterval *
interval_at (GArray *list, guint *at, gint64 t)
{
  while (*at < list->len && g_array_index (list, JvmsInterval, *at).end <= t)
    (*at)++;
  if (*at < list->len && g_array_index (list, JvmsInterval, *at).start <= t)
    return &g_array_index (list, JvmsInterval, *at);
  return NULL;
}

/* A stretch of one kernel state on one CPU: the kernel machine moves a thread to another CPU
 * without a state change when it finds a switch missing (the state is written once, the cpu
 * attribute changes), so state intervals are cut at the cpu attribute's changes. */
typedef struct
{
  gint64              start, end;
  gint32              cpu;
  const JvmsInterval *state;
} Segment;

static GArray *
segments_of (GArray *states, GArray *cpus)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Segment));
  guint c = 0;
  for (guint i = 0; i < states->len; i++)
    {
      const JvmsInterval *iv = &g_array_index (states, JvmsInterval, i);
      gint64 t = iv->start;
      while (t < iv->end)
        {
          const JvmsInterval *ci = interval_at (cpus, &c, t);
          gint64 end = ci != NULL ? MIN (ci->end, iv->end) : iv->end;
          if (ci == NULL && c < cpus->len)
            end = MIN (end, MAX (g_array_index (cpus, JvmsInterval, c).start, t + 1));
          Segment seg = {
            .start = t,
            .end = end,
            .cpu = ci != NULL && ci->value.type == JVMS_VALUE_INT ? (gint32) ci->value.i : -1,
            .state = iv,
          };
          g_array_append_val (out, seg);
          t = end;
        }
    }
  return out;
}

/* The quanta of one thread from its kernel-state and cpu intervals. */
static GArray *
thread_quanta (GArray *states, GArray *cpus)
{
  GArray *quanta = g_array_new (FALSE, FALSE, sizeof (Quantum));
  g_autoptr(GArray) segs = segments_of (states, cpus);
  for (guint i = 0; i < segs->len; i++)
    {
      const Segment *sg = &g_array_index (segs, Segment, i);
      if (!on_cpu (sg->state))
        continue;
      const Segment *prev = i > 0 ? &g_array_index (segs, Segment, i - 1) : NULL;
      Quantum q = {
        .start = sg->start,
        .end = sg->end,
        .cpu = sg->cpu,
        .switched_in = prev != NULL && prev->end == sg->start && waits_for_switch_in (prev->state),
      };
      /* The run goes on through system calls on the same CPU. */
      guint j = i + 1;
      while (j < segs->len)
        {
          const Segment *n = &g_array_index (segs, Segment, j);
          if (!on_cpu (n->state) || n->start != q.end || n->cpu != q.cpu)
            break;
          q.end = n->end;
          j++;
        }
      const Segment *next = j < segs->len ? &g_array_index (segs, Segment, j) : NULL;
      /* A state that begins where the run ends, and not merely the cpu attribute's change. */
      q.end_kind = next != NULL && next->start == q.end && next->state->start == q.end
                     ? end_kind_after (next->state) : "unknown";
      g_array_append_val (quanta, q);
      i = j - 1;
    }
  return quanta;
}

/* The top method at the switch-out: the method attribute at the last nanosecond, else the
 * latest sample's within the quantum. */
static void
attach_methods (GArray *quanta, GArray *methods)
{
  guint at = 0;
  for (guint i = 0; i < quanta->len; i++)
    {
      Quantum *q = &g_array_index (quanta, Quantum, i);
      /* interval_at moves forward: look at the quantum's start first, then walk to its end. */
      const char *latest = NULL;
      while (at < methods->len && g_array_index (methods, JvmsInterval, at).start < q->end)
        {
          const JvmsInterval *m = &g_array_index (methods, JvmsInterval, at);
          if (m->end > q->start && m->value.type == JVMS_VALUE_STRING)
            latest = m->value.s;
          if (m->end >= q->end)
            break;
          at++;
        }
      q->method = latest;
    }
}

/* Spreads each rate interval's events over the on-CPU time of the quanta it overlaps: @out[i]
 * is quantum i's estimate, NaN where no sample reaches it. */
static void
estimate_counter (GArray *quanta, GArray *rates, double *out)
{
  for (guint i = 0; i < quanta->len; i++)
    out[i] = NAN;
  guint first = 0;
  for (guint r = 0; r < rates->len; r++)
    {
      const JvmsInterval *iv = &g_array_index (rates, JvmsInterval, r);
      if (iv->value.type != JVMS_VALUE_DOUBLE && iv->value.type != JVMS_VALUE_INT)
        continue;
      double rate = iv->value.type == JVMS_VALUE_DOUBLE ? iv->value.d : (double) iv->value.i;
      double events = rate * (double) (iv->end - iv->start) / 1e9;
      while (first < quanta->len && g_array_index (quanta, Quantum, first).end <= iv->start)
        first++;
      gint64 on = 0;
      for (guint i = first; i < quanta->len; i++)
        {
          const Quantum *q = &g_array_index (quanta, Quantum, i);
          if (q->start >= iv->end)
            break;
          on += MIN (q->end, iv->end) - MAX (q->start, iv->start);
        }
      if (on <= 0)
        continue;
      for (guint i = first; i < quanta->len; i++)
        {
          const Quantum *q = &g_array_index (quanta, Quantum, i);
          if (q->start >= iv->end)
            break;
          gint64 part = MIN (q->end, iv->end) - MAX (q->start, iv->start);
          double share = events * (double) part / (double) on;
          out[i] = isnan (out[i]) ? share : out[i] + share;
        }
    }
}

/* The count of each quantum whose ends are the two switch reads of a run the kernel machine
 * wrote (Threads/<tid>/switch-counters/<name>: the count over [switch-in, switch-out), null
 * after): @out[i] is quantum i's count, NaN when no read run has exactly its ends (lost events,
 * a quantum cut at the trace's ends, a trace recorded without reads at switches). */
static void
exact_counter (GArray *quanta, GArray *runs, double *out)
{
  guint r = 0;
  for (guint i = 0; i < quanta->len; i++)
    {
      const Quantum *q = &g_array_index (quanta, Quantum, i);
      out[i] = NAN;
      while (r < runs->len && g_array_index (runs, JvmsInterval, r).start < q->start)
        r++;
      if (r == runs->len)
        continue;
      const JvmsInterval *iv = &g_array_index (runs, JvmsInterval, r);
      if (iv->start == q->start && iv->end == q->end && iv->value.type == JVMS_VALUE_INT)
        out[i] = (double) iv->value.i;
    }
}

/* A run whose context-switches count is above 1 held a switch perf did not record (the kernel
 * does not always give the recording a sched_switch; docs/analysis.md, "Missing switch
 * records"): its counts are shared with another thread's run, so none of them is exact.
 * @values holds @n_reads counters' values for @n quanta each. */
static void
drop_shared_runs (JvmsHistory *history, const JvmsAttribute *reads, guint n_reads, guint n, double *values)
{
  int cs = -1;
  for (guint k = 0; k < n_reads; k++)
    if (g_strcmp0 (jvms_history_get_name (history, reads[k]), "context-switches") == 0)
      cs = (int) k;
  if (cs < 0)
    return;
  for (guint i = 0; i < n; i++)
    if (values[(gsize) cs * n + i] > 1)
      for (guint k = 0; k < n_reads; k++)
        values[(gsize) k * n + i] = NAN;
}

typedef struct
{
  guint start, epoch, duration, tid, thread, cpu, method, preempted, end, complete;
  GHashTable *exact;   /* the names of the counters read at switches in any thread */
} Columns;

static gboolean
read_intervals (JvmsHistory *history, const JvmsAttribute *attrs, guint n, GArray **out,
                GError **error)
{
  for (guint i = 0; i < n; i++)
    out[i] = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
  g_autoptr(GArray) valid = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autoptr(GArray) slot = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < n; i++)
    if (attrs[i] != JVMS_ATTRIBUTE_INVALID)
      {
        g_array_append_val (valid, attrs[i]);
        g_array_append_val (slot, i);
      }
  if (valid->len == 0)
    return TRUE;
  g_autoptr(JvmsHistoryRange) range =
    jvms_history_query_range (history, jvms_history_get_start_time (history),
                              jvms_history_get_end_time (history),
                              (const JvmsAttribute *) valid->data, valid->len, error);
  if (range == NULL)
    return FALSE;
  JvmsInterval iv;
  GError *local = NULL;
  while (jvms_history_range_next (range, &iv, &local))
    for (guint k = 0; k < valid->len; k++)
      if (g_array_index (valid, JvmsAttribute, k) == iv.attribute)
        {
          g_array_append_val (out[g_array_index (slot, guint, k)], iv);
          break;
        }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/* The attributes under @folder's child @name, none when it has no such child. */
static GArray *
children_of (JvmsHistory *history, JvmsAttribute folder, const char *name)
{
  JvmsAttribute parent = jvms_history_lookup_child (history, folder, name);
  return parent != JVMS_ATTRIBUTE_INVALID ? jvms_history_list_children (history, parent)
                                          : g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
}

static gboolean
add_thread (JvmsRecordTable *table, const Columns *c, JvmsHistory *history,
            const JvmsThreadInfo *t, gint64 from, gint64 to, GError **error)
{
  if (t->kernel_state == JVMS_ATTRIBUTE_INVALID)
    return TRUE;
  g_autoptr(GArray) counters = children_of (history, t->folder, "counters");
  g_autoptr(GArray) reads = children_of (history, t->folder, "switch-counters");
  /* A counter read at switches is not also estimated: the estimate of the same name goes. */
  for (guint k = counters->len; k-- > 0;)
    if (g_hash_table_contains (c->exact, jvms_history_get_name (history, g_array_index (counters, JvmsAttribute, k))))
      g_array_remove_index (counters, k);
  guint n = 3 + counters->len + reads->len;
  g_autofree JvmsAttribute *attrs = g_new (JvmsAttribute, n);
  attrs[0] = t->kernel_state;
  attrs[1] = jvms_history_lookup_child (history, t->kernel_state, "cpu");
  attrs[2] = jvms_history_lookup_child (history, t->folder, "method");
  for (guint i = 0; i < counters->len; i++)
    attrs[3 + i] = g_array_index (counters, JvmsAttribute, i);
  for (guint i = 0; i < reads->len; i++)
    attrs[3 + counters->len + i] = g_array_index (reads, JvmsAttribute, i);
  guint n_counters = counters->len + reads->len;
  g_autofree GArray **lists = g_new0 (GArray *, n);
  gboolean ok = read_intervals (history, attrs, n, lists, error);
  if (ok)
    {
      g_autoptr(GArray) quanta = thread_quanta (lists[0], lists[1]);
      attach_methods (quanta, lists[2]);
      g_autofree double *estimates = g_new (double, (gsize) MAX (quanta->len, 1) * MAX (n_counters, 1));
      g_autofree guint *counter_columns = g_new (guint, MAX (n_counters, 1));
      for (guint k = 0; k < n_counters; k++)
        {
          gboolean exact = k >= counters->len;
          if (exact)
            exact_counter (quanta, lists[3 + k], estimates + (gsize) k * quanta->len);
          else
            estimate_counter (quanta, lists[3 + k], estimates + (gsize) k * quanta->len);
          const char *name = jvms_history_get_name (history, attrs[3 + k]);
          int col = jvms_record_table_lookup (table, name);
          if (col < 0)
            {
              col = (int) jvms_record_table_add_column (table, name, JVMS_RECORD_COLUMN_DOUBLE, TRUE);
              if (exact)
                jvms_record_table_set_exact (table, (guint) col, QUANTA_EXACT);
              else
                jvms_record_table_set_basis (table, (guint) col, QUANTA_BASIS);
            }
          counter_columns[k] = (guint) col;
        }
      drop_shared_runs (history, attrs + 3 + counters->len, reads->len, quanta->len,
                        estimates + (gsize) counters->len * quanta->len);
      gint64 origin = jvms_history_get_start_time (history);
      for (guint i = 0; i < quanta->len; i++)
        {
          const Quantum *q = &g_array_index (quanta, Quantum, i);
          if (q->start < from || q->start >= to)
            continue;
          guint64 row = jvms_record_table_add_row (table);
          gboolean switched_out = g_strcmp0 (q->end_kind, "unknown") != 0;
          jvms_record_table_set_int (table, c->start, row, q->start - origin);
          jvms_record_table_set_int (table, c->epoch, row, q->start);
          jvms_record_table_set_int (table, c->duration, row, q->end - q->start);
          jvms_record_table_set_int (table, c->tid, row, t->tid);
          jvms_record_table_set_string (table, c->thread, row, t->name);
          if (q->cpu >= 0)
            jvms_record_table_set_int (table, c->cpu, row, q->cpu);
          jvms_record_table_set_string (table, c->method, row, q->method);
          /* An exiting thread's switch-out is EXITED in the index whatever its prev_state (it
           * may still be preempted on its way out): whether it was is not known. */
          if (switched_out && g_strcmp0 (q->end_kind, "exited") != 0)
            jvms_record_table_set_int (table, c->preempted, row, g_strcmp0 (q->end_kind, "preempted") == 0);
          jvms_record_table_set_string (table, c->end, row, q->end_kind);
          jvms_record_table_set_int (table, c->complete, row, q->switched_in && switched_out);
          for (guint k = 0; k < n_counters; k++)
            jvms_record_table_set_double (table, counter_columns[k], row,
                                          estimates[(gsize) k * quanta->len + i]);
        }
    }
  for (guint i = 0; i < n; i++)
    if (lists[i] != NULL)
      g_array_unref (lists[i]);
  return ok;
}

JvmsRecordTable *
jvms_quanta_read (JvmsHistory *history, gint64 from, gint64 to, GError **error)
{
  g_return_val_if_fail (history != NULL, NULL);
  g_autoptr(JvmsRecordTable) table = jvms_record_table_new ();
  Columns c = {
    .start = jvms_record_table_add_column (table, "start", JVMS_RECORD_COLUMN_INT, FALSE),
    .epoch = jvms_record_table_add_column (table, "epoch_ns", JVMS_RECORD_COLUMN_INT, FALSE),
    .duration = jvms_record_table_add_column (table, "duration", JVMS_RECORD_COLUMN_INT, TRUE),
    .tid = jvms_record_table_add_column (table, "tid", JVMS_RECORD_COLUMN_INT, FALSE),
    .thread = jvms_record_table_add_column (table, "thread", JVMS_RECORD_COLUMN_STRING, FALSE),
    .cpu = jvms_record_table_add_column (table, "cpu", JVMS_RECORD_COLUMN_INT, FALSE),
    .method = jvms_record_table_add_column (table, "method", JVMS_RECORD_COLUMN_STRING, FALSE),
    .preempted = jvms_record_table_add_column (table, "preempted", JVMS_RECORD_COLUMN_INT, FALSE),
    .end = jvms_record_table_add_column (table, "end", JVMS_RECORD_COLUMN_STRING, FALSE),
    .complete = jvms_record_table_add_column (table, "complete", JVMS_RECORD_COLUMN_INT, FALSE),
  };
  JvmsThreadList *threads = jvms_thread_list_read (history);
  g_autoptr(GHashTable) exact = g_hash_table_new (g_str_hash, g_str_equal);
  c.exact = exact;
  for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      if (t->kind == JVMS_THREAD_KIND_OTHER_PROCESS || t->tid <= 0)
        continue;
      g_autoptr(GArray) reads = children_of (history, t->folder, "switch-counters");
      for (guint k = 0; k < reads->len; k++)
        g_hash_table_add (exact, (gpointer) jvms_history_get_name (history, g_array_index (reads, JvmsAttribute, k)));
    }
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      if (t->kind == JVMS_THREAD_KIND_OTHER_PROCESS || t->tid <= 0)
        continue;
      ok = add_thread (table, &c, history, t, from, to, error);
    }
  jvms_thread_list_free (threads);
  return ok ? g_steal_pointer (&table) : NULL;
}
