/* jvms-evidence.c: see jvms-evidence.h. */
#include "jvms-evidence.h"

#include <stdlib.h>
#include <string.h>

static void
item_clear (gpointer data)
{
  JvmsEvidenceItem *item = data;
  g_clear_pointer (&item->threads, g_array_unref);
}

static void
monitor_clear (gpointer data)
{
  JvmsEvidenceMonitor *monitor = data;
  g_clear_pointer (&monitor->blocked_threads, g_array_unref);
  g_clear_pointer (&monitor->holders, g_array_unref);
  g_clear_pointer (&monitor->holder_states, g_array_unref);
  g_clear_pointer (&monitor->preempted_by, g_array_unref);
  g_clear_pointer (&monitor->holder_stacks, g_array_unref);
}

static void
straggler_clear (gpointer data)
{
  JvmsEvidenceStraggler *s = data;
  g_clear_pointer (&s->stack, g_ptr_array_unref);
}

static void
safepoint_clear (gpointer data)
{
  JvmsEvidenceSafepoint *sp = data;
  g_clear_pointer (&sp->stragglers, g_array_unref);
}

static void
stack_clear (gpointer data)
{
  JvmsEvidenceStack *s = data;
  g_clear_pointer (&s->frames, g_ptr_array_unref);
}

GArray *
jvms_evidence_stragglers_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceStraggler));
  g_array_set_clear_func (a, straggler_clear);
  return a;
}

GArray *
jvms_evidence_safepoints_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceSafepoint));
  g_array_set_clear_func (a, safepoint_clear);
  return a;
}

GArray *
jvms_evidence_stacks_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceStack));
  g_array_set_clear_func (a, stack_clear);
  return a;
}

static void
thread_ref_clear (gpointer data)
{
  JvmsThreadRef *ref = data;
  g_clear_pointer (&ref->intervals, g_array_unref);
}

GArray *
jvms_thread_refs_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (JvmsThreadRef));
  g_array_set_clear_func (a, thread_ref_clear);
  return a;
}

GArray *
jvms_evidence_amounts_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceAmount));
}

GArray *
jvms_evidence_items_new (void)
{
  GArray *items = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceItem));
  g_array_set_clear_func (items, item_clear);
  return items;
}

GArray *
jvms_evidence_monitors_new (void)
{
  GArray *monitors = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceMonitor));
  g_array_set_clear_func (monitors, monitor_clear);
  return monitors;
}

void
jvms_evidence_clear (JvmsEvidence *self)
{
  g_clear_pointer (&self->monitors, g_array_unref);
  g_clear_pointer (&self->cpu_holders, g_array_unref);
  g_clear_pointer (&self->collectors, g_array_unref);
  g_clear_pointer (&self->pauses, g_array_unref);
  g_clear_pointer (&self->allocated_classes, g_array_unref);
  g_clear_pointer (&self->allocation_sites, g_array_unref);
  g_clear_pointer (&self->hot_methods, g_array_unref);
  g_clear_pointer (&self->items, g_array_unref);
  g_clear_pointer (&self->stragglers, g_array_unref);
  g_clear_pointer (&self->safepoints, g_array_unref);
  g_clear_pointer (&self->stacks, g_array_unref);
  *self = (JvmsEvidence) { 0 };
}

GHashTable *
jvms_evidence_spans_new (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);
}

void
jvms_evidence_add_span (GHashTable *spans, gint64 tid, gint64 from, gint64 to, guint max)
{
  if (to <= from)
    return;
  GArray *a = g_hash_table_lookup (spans, &tid);
  if (a == NULL)
    {
      a = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (spans, g_memdup2 (&tid, sizeof tid), a);
    }
  if (jvms_evidence_span_merge_last (a->len > 0 ? &g_array_index (a, gint64, a->len - 2) : NULL, from, to))
    return;
  if (max > 0 && a->len / 2 >= max)
    return;
  gint64 pair[2] = { from, to };
  g_array_append_vals (a, pair, 2);
}

static gint
compare_starts (gconstpointer a, gconstpointer b)
{
  const gint64 *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

static gint
compare_longest (gconstpointer a, gconstpointer b)
{
  const JvmsEvidenceInterval *x = a, *y = b;
  gint64 lx = x->to - x->from, ly = y->to - y->from;
  if (lx != ly)
    return lx > ly ? -1 : 1;
  return (x->from > y->from) - (x->from < y->from);
}

static void
pair_swap (gint64 *v, guint i, guint j)
{
  gint64 f = v[2 * i], t = v[2 * i + 1];
  v[2 * i] = v[2 * j];
  v[2 * i + 1] = v[2 * j + 1];
  v[2 * j] = f;
  v[2 * j + 1] = t;
}

/* Sorts the @n spans of @v by start. Spans mostly come in time order, or in reverse (a walk
 * back, the critical path's), with some out of place (its nested walks, a preempter's spans
 * added forward within a wait): reversed when more go down than up, then the spans out of
 * place are taken out, sorted alone and merged back, O(n + m log m) for m of them. Sorting all
 * of a long path's spans was an eighth of its instructions (docs/benchmarks.md). */
static void
sort_by_start (gint64 *v, guint n)
{
  guint up = 0, down = 0;
  for (guint k = 1; k < n; k++)
    {
      up += v[2 * k] > v[2 * k - 2];
      down += v[2 * k] < v[2 * k - 2];
    }
  if (down == 0)
    return;
  if (down > up)
    {
      for (guint i = 0, j = n - 1; i < j; i++, j--)
        pair_swap (v, i, j);
      if (up == 0)
        return;
    }
  /* In order kept in place (v[0, kept)), the others into rest. A span below the last kept
   * that the one before it would take means the last kept was a spike: that one goes. */
  g_autofree gint64 *rest = g_new (gint64, 2 * (gsize) n);
  guint kept = 0, m = 0;
  for (guint k = 0; k < n; k++)
    {
      gint64 f = v[2 * k], t = v[2 * k + 1];
      if (kept > 0 && f < v[2 * kept - 2])
        {
          if (kept >= 2 && f >= v[2 * kept - 4])
            {
              rest[2 * m] = v[2 * kept - 2];
              rest[2 * m + 1] = v[2 * kept - 1];
              m++;
              kept--;
            }
          else
            {
              rest[2 * m] = f;
              rest[2 * m + 1] = t;
              m++;
              continue;
            }
        }
      v[2 * kept] = f;
      v[2 * kept + 1] = t;
      kept++;
    }
  qsort (rest, m, 2 * sizeof (gint64), compare_starts);
  /* Merged from the end, into the room the spans taken out left. */
  for (guint i = kept, j = m, o = n; j > 0; o--)
    if (i > 0 && v[2 * i - 2] > rest[2 * j - 2])
      {
        v[2 * o - 2] = v[2 * i - 2];
        v[2 * o - 1] = v[2 * i - 1];
        i--;
      }
    else
      {
        v[2 * o - 2] = rest[2 * j - 2];
        v[2 * o - 1] = rest[2 * j - 1];
        j--;
      }
}

void
jvms_evidence_longest_add (JvmsEvidenceInterval *best, guint *n_best, JvmsEvidenceInterval cur)
{
  guint at = *n_best;
  while (at > 0 && compare_longest (&cur, &best[at - 1]) < 0)
    at--;
  if (at < JVMS_EVIDENCE_MAX_INTERVALS)
    {
      guint keep = MIN (*n_best, JVMS_EVIDENCE_MAX_INTERVALS - 1);
      memmove (best + at + 1, best + at, (keep - at) * sizeof *best);
      best[at] = cur;
      *n_best = keep + 1;
    }
}

GArray *
jvms_evidence_longest_intervals (const gint64 *pairs, guint n_pairs, gint64 *union_ns)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceInterval));
  if (union_ns != NULL)
    *union_ns = 0;
  if (n_pairs == 0)
    return out;
  /* The union of the spans, in time order, then the longest, picked as the union goes (a path
   * over seconds has hundreds of thousands of spans: sorting them all for 8 was a sixth of its
   * time, docs/benchmarks.md). */
  /* Spans in order, or in reverse order (the critical path adds them walking back), are read
   * where they lie, forwards or backwards, as sort_by_start would leave them; only others are
   * copied and sorted (the copy of a long path's 1.6 M spans was 2 % of its CPU time). */
  guint up = 0, down = 0;
  for (guint k = 1; k < n_pairs; k++)
    {
      up += pairs[2 * k] > pairs[2 * k - 2];
      down += pairs[2 * k] < pairs[2 * k - 2];
    }
  g_autofree gint64 *copy = NULL;
  const gint64 *sorted = pairs;
  gssize step = 2;
  if (down > 0 && up == 0)
    {
      sorted = pairs + 2 * ((gsize) n_pairs - 1);
      step = -2;
    }
  else if (down > 0)
    {
      copy = g_memdup2 (pairs, (gsize) n_pairs * 2 * sizeof (gint64));
      sort_by_start (copy, n_pairs);
      sorted = copy;
    }
  /* The longest so far, in compare_longest's order (a total order: merged intervals are
   * disjoint, so no two start together). */
  JvmsEvidenceInterval best[JVMS_EVIDENCE_MAX_INTERVALS];
  guint n_best = 0;
  JvmsEvidenceInterval cur = { sorted[0], sorted[1] };
  for (guint k = 1; k <= n_pairs; k++)
    {
      const gint64 *at_k = k < n_pairs ? sorted + step * (gssize) k : NULL;
      if (at_k != NULL && at_k[0] <= cur.to)
        {
          cur.to = MAX (cur.to, at_k[1]);
          continue;
        }
      if (union_ns != NULL)
        *union_ns += cur.to - cur.from;
      jvms_evidence_longest_add (best, &n_best, cur);
      if (at_k != NULL)
        cur = (JvmsEvidenceInterval) { at_k[0], at_k[1] };
    }
  g_array_append_vals (out, best, n_best);
  return out;
}
