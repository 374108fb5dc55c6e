/* jvms-report-cpu.c: who held the CPUs while threads of the JVM waited for one: the evidence of
 * cpu-contention (application threads), and of gc and jit (GC workers and compiler threads
 * starved of a CPU). */
#include "jvms-report-private.h"

#include <stdlib.h>

static gint
compare_spans (gconstpointer a, gconstpointer b)
{
  const gint64 *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* @spans (gint64 pairs) sorted and merged into their union, in place: the number of spans. */
static guint
merge (GArray *spans_array)
{
  guint n = spans_array->len / 2;
  gint64 *spans = (gint64 *) spans_array->data;
  if (n == 0)
    return 0;
  qsort (spans, n, 2 * sizeof (gint64), compare_spans);
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
  return m;
}

/* Adds to @held (tid -> ns) the time each thread of @ivs (one CPU's current threads, in time
 * order) ran inside the union @spans of @m spans, and where to @held_spans. */
static void
overlap (GArray *ivs, const gint64 *spans, guint m, GHashTable *held, GHashTable *held_spans)
{
  guint s = 0;
  for (guint i = 0; i < ivs->len && m > 0; i++)
    {
      JvmsInterval *iv = &g_array_index (ivs, JvmsInterval, i);
      if (iv->value.type != JVMS_VALUE_INT || iv->value.i <= 0)
        continue;
      while (s < m && spans[2 * s + 1] <= iv->start)
        s++;
      for (guint k = s; k < m && spans[2 * k] < iv->end; k++)
        {
          gint64 a = MAX (iv->start, spans[2 * k]), b = MIN (iv->end, spans[2 * k + 1]);
          if (b > a)
            {
              jvms_report_add_ns (held, iv->value.i, b - a);
              jvms_report_add_span (held_spans, iv->value.i, a, b);
            }
        }
    }
}

/* Who held the CPUs while ours waited for one: the union of the runnable spans of each group
 * against every CPU's current thread, each CPU read once. */
gboolean
jvms_report_cpu_holders (JvmsReportWork *r, GError **error)
{
  GArray *spans[] = { r->runnable, r->gc_runnable, r->jit_runnable };
  GHashTable *held[] = { r->cpu_held, r->gc_cpu_held, r->jit_cpu_held };
  GHashTable *held_spans[] = { r->cpu_held_spans, r->gc_cpu_held_spans, r->jit_cpu_held_spans };
  guint m[G_N_ELEMENTS (spans)], total = 0;
  for (guint g = 0; g < G_N_ELEMENTS (spans); g++)
    total += m[g] = merge (spans[g]);
  if (total == 0)
    return TRUE;
  JvmsAttribute cpus = jvms_history_lookup (r->history, "CPUs");
  if (cpus == JVMS_ATTRIBUTE_INVALID)
    return TRUE;
  g_autoptr(GArray) children = jvms_history_list_children (r->history, cpus);
  for (guint c = 0; c < children->len; c++)
    {
      JvmsAttribute cur = jvms_history_lookup_child (r->history, g_array_index (children, JvmsAttribute, c),
                                                     "current-thread");
      g_autoptr(GArray) ivs = jvms_report_intervals (r, cur, error);
      if (ivs == NULL)
        return FALSE;
      for (guint g = 0; g < G_N_ELEMENTS (spans); g++)
        overlap (ivs, (const gint64 *) spans[g]->data, m[g], held[g], held_spans[g]);
    }
  return TRUE;
}
