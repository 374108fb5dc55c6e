/* jvms-report-safepoints.c: the safepoints over the report's range, with their phases
 * (VM/safepoint/phase: synchronisation, operation, resume) and operation, for the walk (which
 * charges a Java thread during the synchronisation by what the kernel says it did, and measures
 * how long each thread took to arrive) and for the evidence of gc and safepoint. */
#include "jvms-report-private.h"

#include <string.h>

#include "jvms-jfr-safepoints.h"
#include "jvms-samples.h"

gboolean
jvms_report_is_gc_operation (const char *op)
{
  static const char * const gc_words[] = { "GC", "Collect", "G1", "Shenandoah", "ZMark", "ZRelocate", "Remark", "Cleanup" };
  if (op == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (gc_words); i++)
    if (strstr (op, gc_words[i]) != NULL)
      return TRUE;
  return FALSE;
}

static void
straggle_free (gpointer data)
{
  JvmsReportStraggle *s = data;
  g_clear_pointer (&s->stack, g_ptr_array_unref);
  g_free (s);
}

static void
safepoint_clear (gpointer data)
{
  JvmsReportSafepoint *sp = data;
  g_clear_pointer (&sp->stragglers, g_hash_table_unref);
}

void
jvms_report_safepoints_clear (JvmsReportWork *w)
{
  g_clear_pointer (&w->stack_wanted, g_hash_table_unref);
  g_clear_pointer (&w->safepoints, g_array_unref);
  g_clear_pointer (&w->vm_operations, g_array_unref);
  g_clear_pointer (&w->sync_bounds, g_array_unref);
}

static gboolean
overlaps_pause (JvmsReportWork *w, JvmsReportCursor *pauses, gint64 start, gint64 end)
{
  while (pauses->pos < pauses->ivs->len && g_array_index (pauses->ivs, JvmsInterval, pauses->pos).end <= start)
    pauses->pos++;
  for (guint i = pauses->pos; i < pauses->ivs->len; i++)
    {
      JvmsInterval *iv = &g_array_index (pauses->ivs, JvmsInterval, i);
      if (iv->start >= end)
        break;
      if (iv->value.type != JVMS_VALUE_NULL)
        return TRUE;
    }
  (void) w;
  return FALSE;
}

gboolean
jvms_report_safepoints_load (JvmsReportWork *w, GError **error)
{
  JvmsHistory *h = w->history;
  w->safepoints = g_array_new (FALSE, TRUE, sizeof (JvmsReportSafepoint));
  g_array_set_clear_func (w->safepoints, safepoint_clear);
  w->vm_operations = jvms_report_intervals (w, jvms_history_lookup (h, "VM/operation"), error);
  if (w->vm_operations == NULL)
    return FALSE;
  g_autoptr(GArray) ids = jvms_report_intervals (w, jvms_history_lookup (h, "VM/safepoint"), error);
  if (ids == NULL)
    return FALSE;
  g_autoptr(GArray) phases = jvms_report_intervals (w, jvms_history_lookup (h, "VM/safepoint/phase"), error);
  if (phases == NULL)
    return FALSE;

  for (guint i = 0; i < ids->len; i++)
    {
      JvmsInterval *iv = &g_array_index (ids, JvmsInterval, i);
      if (iv->value.type != JVMS_VALUE_INT)
        continue;
      JvmsReportSafepoint sp = {
        .id = iv->value.i, .start = iv->start, .end = iv->end,
        .sync_start = iv->start, .sync_end = iv->start,
        .stragglers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, straggle_free),
      };
      g_array_append_val (w->safepoints, sp);
    }

  JvmsReportCursor ops = { w->vm_operations, 0 };
  JvmsReportCursor pauses = { w->gc_pauses, 0 };
  guint s = 0;
  for (guint i = 0; i < phases->len; i++)
    {
      JvmsInterval *iv = &g_array_index (phases, JvmsInterval, i);
      if (iv->value.type != JVMS_VALUE_STRING)
        continue;
      while (s < w->safepoints->len && g_array_index (w->safepoints, JvmsReportSafepoint, s).end <= iv->start)
        s++;
      if (s == w->safepoints->len)
        break;
      JvmsReportSafepoint *sp = &g_array_index (w->safepoints, JvmsReportSafepoint, s);
      if (iv->start < sp->start)
        continue;
      if (strcmp (iv->value.s, JVMS_SAFEPOINT_PHASE_SYNCHRONIZING) == 0)
        {
          sp->sync_start = iv->start;
          sp->sync_end = iv->end;
        }
      else if (strcmp (iv->value.s, JVMS_SAFEPOINT_PHASE_OPERATION) == 0)
        {
          sp->operation_ns += iv->end - iv->start;
          const JvmsValue *op = jvms_report_cursor_at (&ops, iv->start);
          if (sp->operation == NULL && op->type == JVMS_VALUE_STRING)
            sp->operation = op->s;
        }
      else if (strcmp (iv->value.s, JVMS_SAFEPOINT_PHASE_RESUMING) == 0)
        sp->resume_ns += iv->end - iv->start;
    }
  w->sync_bounds = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < w->safepoints->len; i++)
    {
      JvmsReportSafepoint *sp = &g_array_index (w->safepoints, JvmsReportSafepoint, i);
      sp->is_gc = jvms_report_is_gc_operation (sp->operation) || overlaps_pause (w, &pauses, sp->start, sp->end);
      /* The walk cuts segments there: a thread's way to a safepoint lies inside. */
      g_array_append_val (w->sync_bounds, sp->sync_start);
      g_array_append_val (w->sync_bounds, sp->sync_end);
    }
  return TRUE;
}

/* ------------------------------------------------------------------------------------------ */
/* Stragglers: ranked, given stacks, and shown */

/* The evidence lists this many safepoints per finding and this many stragglers per safepoint. */
#define STRAGGLERS_PER_SAFEPOINT 3
/* A sample this long before a synchronisation began still shows what the thread was running
 * (HotSpot's sampler waits for the Threads_lock the VM thread holds during a safepoint). */
#define STACK_LOOKBACK_NS G_GINT64_CONSTANT (1000000000)

static const char * const straggle_state_names[JVMS_STRAGGLE_N] = { "running", "runnable", "syscall" };

static const char *
straggle_state_name (const JvmsReportStraggle *s)
{
  guint best = 0;
  for (guint i = 1; i < JVMS_STRAGGLE_N; i++)
    if (s->state_ns[i] > s->state_ns[best])
      best = i;
  return straggle_state_names[best];
}

typedef struct
{
  gint64              tid;
  JvmsReportStraggle *s;
} Ranked;

static gint
compare_ranked (gconstpointer a, gconstpointer b)
{
  const Ranked *x = a, *y = b;
  if (x->s->ns != y->s->ns)
    return x->s->ns > y->s->ns ? -1 : 1;
  return (x->tid > y->tid) - (x->tid < y->tid);
}

/* @sp's stragglers, longest first. */
static GArray *
ranked_stragglers (const JvmsReportSafepoint *sp)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Ranked));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, sp->stragglers);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      Ranked r = { *(gint64 *) k, v };
      g_array_append_val (out, r);
    }
  g_array_sort (out, compare_ranked);
  return out;
}

static gint
compare_sync (gconstpointer a, gconstpointer b)
{
  const JvmsReportSafepoint *x = *(JvmsReportSafepoint * const *) a, *y = *(JvmsReportSafepoint * const *) b;
  gint64 dx = x->sync_end - x->sync_start, dy = y->sync_end - y->sync_start;
  if (dx != dy)
    return dx > dy ? -1 : 1;
  return (x->start > y->start) - (x->start < y->start);
}

/* The safepoints of one kind (GC or not), the longest synchronisations first, at most @limit. */
static GPtrArray *
shown_safepoints (JvmsReportWork *w, gboolean gc, guint limit)
{
  GPtrArray *out = g_ptr_array_new ();
  for (guint i = 0; i < w->safepoints->len; i++)
    {
      JvmsReportSafepoint *sp = &g_array_index (w->safepoints, JvmsReportSafepoint, i);
      if (sp->is_gc == gc)
        g_ptr_array_add (out, sp);
    }
  g_ptr_array_sort (out, compare_sync);
  if (out->len > limit)
    g_ptr_array_set_size (out, limit);
  return out;
}

static void
want_stack (JvmsReportWork *w, gint64 tid, JvmsReportStraggle *s)
{
  GPtrArray *list = g_hash_table_lookup (w->stack_wanted, &tid);
  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (w->stack_wanted, jvms_report_int64_dup (tid), list);
    }
  if (list->len < 4096 && !s->wanted)
    {
      s->wanted = TRUE;
      g_ptr_array_add (list, s);
    }
}

void
jvms_report_safepoints_rank (JvmsReportWork *w)
{
  w->stack_wanted = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                           (GDestroyNotify) g_ptr_array_unref);
  /* The shown safepoints' last arrivals first, then every other straggle (a thread's summary
   * shows the stack of its longest straggle that has one: HotSpot's sampler cannot sample
   * during a safepoint, and samples are few where threads wait for a CPU). */
  for (guint gc = 0; gc < 2; gc++)
    {
      g_autoptr(GPtrArray) shown = shown_safepoints (w, gc, w->limit);
      for (guint i = 0; i < shown->len; i++)
        {
          g_autoptr(GArray) ranked = ranked_stragglers (g_ptr_array_index (shown, i));
          for (guint k = 0; k < ranked->len && k < STRAGGLERS_PER_SAFEPOINT; k++)
            want_stack (w, g_array_index (ranked, Ranked, k).tid, g_array_index (ranked, Ranked, k).s);
        }
    }
  for (guint i = 0; i < w->safepoints->len; i++)
    {
      JvmsReportSafepoint *sp = &g_array_index (w->safepoints, JvmsReportSafepoint, i);
      GHashTableIter it;
      gpointer k, v;
      g_hash_table_iter_init (&it, sp->stragglers);
      while (g_hash_table_iter_next (&it, &k, &v))
        if (!((JvmsReportStraggle *) v)->wanted)
          want_stack (w, *(gint64 *) k, v);
    }
}

void
jvms_report_safepoints_sample (JvmsReportWork *w, const JvmsSample *sample)
{
  if (w->stack_wanted == NULL || sample->kind != JVMS_SAMPLE_EXECUTION || sample->n_frames == 0)
    return;
  GPtrArray *list = g_hash_table_lookup (w->stack_wanted, &sample->tid);
  for (guint i = 0; list != NULL && i < list->len; i++)
    {
      JvmsReportStraggle *s = g_ptr_array_index (list, i);
      /* Samples come in time order: the last one in the window wins. */
      if (sample->time < s->from - STACK_LOOKBACK_NS || sample->time > s->arrival
          || (s->stack != NULL && sample->time < s->stack_time))
        continue;
      g_clear_pointer (&s->stack, g_ptr_array_unref);
      s->stack = g_ptr_array_new_full (sample->n_frames, g_free);
      for (guint f = 0; f < sample->n_frames; f++)
        g_ptr_array_add (s->stack, g_strdup (sample->frames[f].method));
      s->stack_time = sample->time;
    }
}

static JvmsEvidenceStraggler
straggler (JvmsReportWork *w, JvmsReport *report, gint64 tid, gint64 ns, const JvmsReportStraggle *s)
{
  JvmsEvidenceStraggler out = {
    .tid = tid,
    .name = jvms_report_store (report, jvms_report_thread_name (w, tid)),
    .ns = ns,
    .state = straggle_state_name (s),
    .stack = g_ptr_array_new (),
  };
  for (guint f = 0; s->stack != NULL && f < s->stack->len; f++)
    g_ptr_array_add (out.stack, (gpointer) jvms_report_store (report, g_ptr_array_index (s->stack, f)));
  return out;
}

typedef struct
{
  gint64             tid;
  JvmsReportStraggle sum;      /* ns and states summed over the safepoints */
  JvmsReportStraggle *longest; /* the longest with a stack, or NULL */
} Summed;

static gint
compare_summed (gconstpointer a, gconstpointer b)
{
  const Summed *x = a, *y = b;
  if (x->sum.ns != y->sum.ns)
    return x->sum.ns > y->sum.ns ? -1 : 1;
  return (x->tid > y->tid) - (x->tid < y->tid);
}

void
jvms_report_safepoints_evidence (JvmsReportWork *w, JvmsReport *report, gboolean gc, JvmsEvidence *e)
{
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  for (guint i = 0; i < w->safepoints->len; i++)
    {
      JvmsReportSafepoint *sp = &g_array_index (w->safepoints, JvmsReportSafepoint, i);
      if (sp->is_gc != gc)
        continue;
      e->n_safepoints++;
      e->time_to_safepoint_ns += sp->sync_end - sp->sync_start;
      e->operation_ns += sp->operation_ns;
      e->resume_ns += sp->resume_ns;
      GHashTableIter it;
      gpointer k, v;
      g_hash_table_iter_init (&it, sp->stragglers);
      while (g_hash_table_iter_next (&it, &k, &v))
        {
          JvmsReportStraggle *s = v;
          Summed *sum = g_hash_table_lookup (sums, k);
          if (sum == NULL)
            {
              sum = g_new0 (Summed, 1);
              sum->tid = *(gint64 *) k;
              g_hash_table_insert (sums, &sum->tid, sum);
            }
          sum->sum.ns += s->ns;
          for (guint st = 0; st < JVMS_STRAGGLE_N; st++)
            sum->sum.state_ns[st] += s->state_ns[st];
          if (s->stack != NULL && (sum->longest == NULL || s->ns > sum->longest->ns))
            sum->longest = s;
        }
    }

  g_autoptr(GArray) ranked = g_array_new (FALSE, FALSE, sizeof (Summed));
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init (&it, sums);
  while (g_hash_table_iter_next (&it, NULL, &v))
    g_array_append_vals (ranked, v, 1);
  g_array_sort (ranked, compare_summed);
  e->stragglers = jvms_evidence_stragglers_new ();
  for (guint i = 0; i < ranked->len && i < w->limit; i++)
    {
      Summed *sum = &g_array_index (ranked, Summed, i);
      JvmsEvidenceStraggler s = straggler (w, report, sum->tid, sum->sum.ns, &sum->sum);
      /* The state of the whole, the stack of its longest straggle that has one. */
      for (guint f = 0; sum->longest != NULL && f < sum->longest->stack->len; f++)
        g_ptr_array_add (s.stack, (gpointer) jvms_report_store (report, g_ptr_array_index (sum->longest->stack, f)));
      g_array_append_val (e->stragglers, s);
    }

  e->safepoints = jvms_evidence_safepoints_new ();
  g_autoptr(GPtrArray) shown = shown_safepoints (w, gc, w->limit);
  for (guint i = 0; i < shown->len; i++)
    {
      JvmsReportSafepoint *sp = g_ptr_array_index (shown, i);
      JvmsEvidenceSafepoint out = {
        .id = sp->id,
        .operation = jvms_report_store (report, sp->operation),
        .start = sp->start,
        .sync_start = sp->sync_start,
        .sync_ns = sp->sync_end - sp->sync_start,
        .operation_ns = sp->operation_ns,
        .resume_ns = sp->resume_ns,
        .stragglers = jvms_evidence_stragglers_new (),
      };
      g_autoptr(GArray) stragglers = ranked_stragglers (sp);
      for (guint k = 0; k < stragglers->len && k < STRAGGLERS_PER_SAFEPOINT; k++)
        {
          Ranked *r = &g_array_index (stragglers, Ranked, k);
          JvmsEvidenceStraggler s = straggler (w, report, r->tid, r->s->ns, r->s);
          g_array_append_val (out.stragglers, s);
        }
      g_array_append_val (e->safepoints, out);
    }
}
