/* jvms-history-summary-query.c: jvms_history_query_summary and its variants. Checks the
 * arguments, cuts the window into columns, picks the coarsest level whose buckets fit in a
 * column, and hands the rows to the pool (a complete history) or reads them from the intervals
 * in one walk of the tree (a history still being built). */
#include "jvms-history-summary-private.h"

/* Intervals of the rows read directly, gathered in one walk of the tree. */
typedef struct
{
  const guint32 *row_of; /* attribute -> row + 1 */
  GArray        *out;    /* RowIv */
} Gather;

static void
gather_one (gpointer data, guint32 attr, gint64 s, gint64 e, guint8 type, guint64 bits)
{
  Gather *g = data;
  RowIv r = { s, e, bits, g->row_of[attr] - 1, type };
  g_array_append_val (g->out, r);
}

gboolean
jvms_history_query_summary (JvmsHistory         *self,
                            gint64               t0,
                            gint64               t1,
                            const JvmsAttribute *attributes,
                            guint                n_attributes,
                            guint                n_columns,
                            JvmsSummaryCell     *cells,
                            GError             **error)
{
  return jvms_history_query_summary_full (self, t0, t1, attributes, n_attributes, n_columns,
                                          JVMS_SUMMARY_QUERY_DEFAULT, cells, error);
}

/* Rows with @row_flags[i], or all with @flags when @row_flags is NULL. */
static gboolean
summary_query (JvmsHistory *self, gint64 t0, gint64 t1, const JvmsAttribute *attributes,
               const JvmsSummaryQueryFlags *row_flags, JvmsSummaryQueryFlags flags,
               guint n_attributes, guint n_columns, JvmsSummaryCell *cells, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (attributes != NULL || n_attributes == 0, FALSE);
  g_return_val_if_fail (cells != NULL || n_attributes == 0 || n_columns == 0, FALSE);
  if (t1 <= t0 || n_columns == 0)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: summary of [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") in %u columns: "
                   "the window must be non-empty and the columns at least one",
                   self->path, t0, t1, n_columns);
      return FALSE;
    }
  gboolean locked = jvms_history_lock_if_live (self);
  gboolean ok = TRUE;
  guint n_attrs = jvms_attr_tree_size (self->attrs);
  for (guint i = 0; i < n_attributes; i++)
    if (attributes[i] >= n_attrs)
      {
        g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                     "%s: unknown attribute %u", self->path, attributes[i]);
        jvms_history_unlock_if (self, locked);
        return FALSE;
      }
  g_autofree gint64 *cs = g_new (gint64, n_columns + 1);
  for (guint c = 0; c <= n_columns; c++)
    cs[c] = t0 + (gint64) (((__int128) t1 - t0) * c / n_columns);
  Cols k = { t0, t1, n_columns, cs };
  gint64 width = (gint64) (((__int128) t1 - t0) / n_columns);
  /* The coarsest level whose buckets fit in a column. */
  gint level = -1;
  while (level + 1 < (gint) N_LEVELS && width >= ((gint64) 1 << level_shift ((guint) level + 1)))
    level++;
  /* Complete histories: rows from the levels, or from the change list when columns are finer
   * than the attribute's finest level. While building, rows from the intervals, which share
   * one walk of the tree. */
  if (self->open == NULL && self->summary != NULL)
    {
      /* What the rows keep goes into memory touched ahead of use, from the first query on. */
      jvms_node_memory_prepare ();
      ok = jvms_summary_complete_rows (self, &k, attributes, n_attributes, level, row_flags,
                                       flags, cells, error);
      jvms_history_unlock_if (self, locked);
      return ok;
    }
  g_autofree guint8 *want = g_new0 (guint8, MAX (n_attrs, 1));
  g_autofree Col *cols = g_new0 (Col, n_columns); /* zero durations, as col_reset expects */
  for (guint i = 0; i < n_attributes; i++)
    want[attributes[i]] = 1;
  /* Grouped by row with a counting sort: order within a row does not matter to columns. */
  g_autoptr (GArray) batch = g_array_new (FALSE, FALSE, sizeof (RowIv));
  g_autoptr (GArray) sorted = g_array_new (FALSE, FALSE, sizeof (RowIv));
  g_autofree guint *row_first = g_new0 (guint, n_attributes + 1);
  if (n_attributes > 0)
    {
      g_autofree guint32 *row_of = g_new0 (guint32, MAX (n_attrs, 1));
      for (guint i = n_attributes; i-- > 0;)
        row_of[attributes[i]] = i + 1;
      Gather g = { row_of, batch };
      guint n_set = 0;
      g_autofree guint32 *set = jvms_attribute_set (attributes, n_attributes, &n_set);
      ok = jvms_history_visit_set (self, t0, col_end (&k, n_columns - 1) - 1, want, set, n_set,
                                   gather_one, &g, error);
      memset (want, 0, MAX (n_attrs, 1));
      const RowIv *b = (const RowIv *) batch->data;
      for (guint j = 0; j < batch->len; j++)
        row_first[b[j].row + 1]++;
      for (guint i = 0; i < n_attributes; i++)
        row_first[i + 1] += row_first[i];
      g_array_set_size (sorted, batch->len);
      g_autofree guint *pos = g_memdup2 (row_first, sizeof (guint) * (n_attributes + 1));
      for (guint j = 0; j < batch->len; j++)
        g_array_index (sorted, RowIv, pos[b[j].row]++) = b[j];
    }
  for (guint i = 0; i < n_attributes && ok; i++)
    {
      JvmsSummaryCell *row = cells + (gsize) i * n_columns;
      /* A repeated attribute was gathered for its first row only. */
      guint j = i;
      for (guint p = 0; p < i; p++)
        if (attributes[p] == attributes[i])
          {
            j = p;
            break;
          }
      const RowIv *v = (const RowIv *) sorted->data;
      jvms_summary_row_from_intervals (self, &k, v + row_first[j], row_first[j + 1] - row_first[j],
                                       cols, row);
      /* The same answer whichever way the row was read. */
      jvms_summary_row_strip (row, n_columns, row_flags ? row_flags[i] : flags);
    }
  jvms_history_unlock_if (self, locked);
  return ok;
}

gboolean
jvms_history_query_summary_full (JvmsHistory              *self,
                                 gint64                    t0,
                                 gint64                    t1,
                                 const JvmsAttribute      *attributes,
                                 guint                     n_attributes,
                                 guint                     n_columns,
                                 JvmsSummaryQueryFlags     flags,
                                 JvmsSummaryCell          *cells,
                                 GError                  **error)
{
  return summary_query (self, t0, t1, attributes, NULL, flags, n_attributes, n_columns, cells,
                        error);
}

gboolean
jvms_history_query_summary_rows (JvmsHistory                 *self,
                                 gint64                       t0,
                                 gint64                       t1,
                                 const JvmsAttribute         *attributes,
                                 const JvmsSummaryQueryFlags *row_flags,
                                 guint                        n_attributes,
                                 guint                        n_columns,
                                 JvmsSummaryCell             *cells,
                                 GError                     **error)
{
  g_return_val_if_fail (row_flags != NULL || n_attributes == 0, FALSE);
  return summary_query (self, t0, t1, attributes, row_flags, JVMS_SUMMARY_QUERY_DEFAULT,
                        n_attributes, n_columns, cells, error);
}
