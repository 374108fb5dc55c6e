/* jvms-report-cpu.c: the evidence of cpu-contention: which threads held the CPUs while ours
 * waited for one. */
#include "jvms-report-private.h"

#include <stdlib.h>

static gint
compare_spans (gconstpointer a, gconstpointer b)
{
  const gint64 *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Who held the CPUs while our threads waited for one: the union of our runnable spans against
 * every CPU's current thread. */
gboolean
jvms_report_cpu_holders (JvmsReportWork *r, GError **error)
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
      g_autoptr(GArray) ivs = jvms_report_intervals (r, cur, error);
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
                jvms_report_add_ns (r->cpu_held, iv->value.i, overlap);
            }
        }
    }
  return TRUE;
}

