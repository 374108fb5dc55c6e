/* jvms-view-values.c: see jvms-view-values.h. */
#include "jvms-view-values.h"

/* Times at which classes are looked up: the end first (the last class seen), then points
 * through the trace for monitors whose lifetime ended before it. Each is one query_full: one
 * path down the tree, whatever the number of attributes, where a summary over the whole history
 * would walk every node for attributes that changed too rarely to have summary levels. */
#define N_PROBES 5

void
jvms_view_attribute_values (JvmsHistory         *history,
                            const JvmsAttribute *attributes,
                            guint                n_attributes,
                            JvmsValue           *out,
                            gboolean            *found)
{
  static const double probes[N_PROBES] = { 1.0, 0.0, 0.5, 0.25, 0.75 };
  g_autoptr(GArray) full = g_array_new (FALSE, TRUE, sizeof (JvmsInterval));
  gint64 start = jvms_history_get_start_time (history);
  gint64 end = jvms_history_get_end_time (history);
  guint missing = 0;

  for (guint i = 0; i < n_attributes; i++)
    {
      found[i] = FALSE;
      out[i] = JVMS_VALUE_INIT_NULL;
      missing += attributes[i] != JVMS_ATTRIBUTE_INVALID;
    }
  for (guint p = 0; p < N_PROBES && missing > 0 && end >= start; p++)
    {
      gint64 t = start + (gint64) (probes[p] * (double) (end - start));

      if (!jvms_history_query_full (history, t, full, NULL))
        continue;
      for (guint i = 0; i < n_attributes; i++)
        {
          const JvmsInterval *iv;
          if (found[i] || attributes[i] == JVMS_ATTRIBUTE_INVALID || attributes[i] >= full->len)
            continue;
          iv = &g_array_index (full, JvmsInterval, attributes[i]);
          if (iv->value.type == JVMS_VALUE_NULL)
            continue;
          out[i] = iv->value;
          found[i] = TRUE;
          missing--;
        }
    }
}

