/* jvms-report-gc.c: the evidence of gc: collections by collector, pauses by name. */
#include "jvms-report-private.h"

/* GC collections and pauses over the range: every collection id seen counts once. */
gboolean
jvms_report_gc_summary (JvmsReportWork *r, GError **error)
{
  gint64 *collections = &r->collections, *pause_ns = &r->pause_ns;
  GHashTable *by_name = r->gc_by_name, *pause_by_name = r->pause_by_name;
  *collections = 0;
  *pause_ns = 0;
  JvmsHistory *h = r->history;
  g_autoptr(GArray) ids = jvms_report_intervals (r, jvms_history_lookup (h, "GC/collection"), error);
  g_autoptr(GArray) names = ids ? jvms_report_intervals (r, jvms_history_lookup (h, "GC/collection/name"), error) : NULL;
  /* The pauses over the range: read once, before the walk (which needs them too). */
  GArray *pauses = r->gc_pauses;
  if (names == NULL)
    return FALSE;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  JvmsReportCursor name_cursor = { names, 0 };
  for (guint i = 0; i < ids->len; i++)
    {
      JvmsInterval *iv = &g_array_index (ids, JvmsInterval, i);
      if (iv->value.type != JVMS_VALUE_INT || g_hash_table_contains (seen, &iv->value.i))
        continue;
      g_hash_table_add (seen, jvms_report_int64_dup (iv->value.i));
      (*collections)++;
      const JvmsValue *name = jvms_report_cursor_at (&name_cursor, iv->start);
      const char *key = name->type == JVMS_VALUE_STRING ? name->s : "?";
      gint64 *n = g_hash_table_lookup (by_name, key);
      if (n == NULL)
        g_hash_table_insert (by_name, g_strdup (key), jvms_report_int64_dup (1));
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
        g_hash_table_insert (pause_by_name, g_strdup (iv->value.s), jvms_report_int64_dup (iv->end - iv->start));
      else
        *n += iv->end - iv->start;
    }
  return TRUE;
}

