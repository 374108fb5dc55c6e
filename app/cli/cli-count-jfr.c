/* cli-count-jfr.c: events per type of a JFR file, for `jvmscope-cli summary`.
 *
 * Like `jfr summary`, every event type that some chunk's metadata declares is listed, with 0
 * when no event of it was recorded.
 *
 * `event_counts` counts by type name, as the events really are. `jfr summary` keys its
 * table by type id instead, naming each id after the first chunk that declared it; in a file
 * whose chunks come from different JVMs or profilers (ids differ per writer) it attributes
 * events to the wrong name and lists some names twice. The JSON member `jfr_summary_rows`
 * reproduces that table ({id, name, count} per id) so tests can compare with the JDK tool
 * exactly on such files too. */
#include "config.h"

#include "cli-count.h"
#include "jvms-jfr.h"

gboolean
jvms_cli_count_jfr (const char *path, JvmsCliCounts *out, GError **error)
{
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open (path, error);
  if (file == NULL)
    return FALSE;

  /* per type object first: one pointer hash per event instead of a string hash */
  g_autoptr(GHashTable) per_type = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autoptr(GHashTable) per_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  {
    g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_FILE);
    const JvmsJfrEvent *event;
    while ((event = jvms_jfr_reader_next (reader)) != NULL)
      {
        const JvmsJfrType *type = jvms_jfr_event_get_type (event);
        guint64 *n = g_hash_table_lookup (per_type, type);
        if (n == NULL)
          {
            n = g_new0 (guint64, 1);
            g_hash_table_insert (per_type, (gpointer) type, n);
          }
        (*n)++;
        guint64 id = jvms_jfr_type_get_id (type);
        guint64 *m = g_hash_table_lookup (per_id, &id);
        if (m == NULL)
          {
            guint64 *k = g_new (guint64, 1);
            *k = id;
            m = g_new0 (guint64, 1);
            g_hash_table_insert (per_id, k, m);
          }
        (*m)++;
      }
  }

  guint n_chunks = jvms_jfr_file_get_n_chunks (file);
  gint64 duration = 0;
  for (guint c = 0; c < n_chunks; c++)
    {
      const JvmsJfrChunkInfo *info = jvms_jfr_file_get_chunk (file, c);
      duration += info->duration_nanos;
    }
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, per_type);
  while (g_hash_table_iter_next (&iter, &key, &value))
    jvms_cli_counts_add (out, jvms_jfr_type_get_name (key), *(guint64 *) value);

  g_autoptr(GHashTable) id_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) id_order = g_array_new (FALSE, FALSE, sizeof (const JvmsJfrType *));
  for (guint ch = 0; ch < n_chunks; ch++)
    for (guint i = 0; i < jvms_jfr_file_get_n_types (file, ch); i++)
      {
        const JvmsJfrType *type = jvms_jfr_file_get_type (file, ch, i);
        if (!jvms_jfr_type_is_event (type))
          continue;
        jvms_cli_counts_add (out, jvms_jfr_type_get_name (type), 0);
        guint64 id = jvms_jfr_type_get_id (type);
        if (!g_hash_table_contains (id_names, &id))
          {
            g_hash_table_add (id_names, g_memdup2 (&id, sizeof id));
            g_array_append_val (id_order, type);
          }
      }
  JsonArray *rows = json_array_new ();
  for (guint i = 0; i < id_order->len; i++)
    {
      const JvmsJfrType *type = g_array_index (id_order, const JvmsJfrType *, i);
      guint64 id = jvms_jfr_type_get_id (type);
      guint64 *n = g_hash_table_lookup (per_id, &id);
      JsonObject *row = json_object_new ();
      json_object_set_int_member (row, "id", (gint64) id);
      json_object_set_string_member (row, "name", jvms_jfr_type_get_name (type));
      json_object_set_int_member (row, "count", n ? (gint64) *n : 0);
      json_array_add_object_element (rows, row);
    }
  json_object_set_array_member (out->extra, "jfr_summary_rows", rows);

  const JvmsJfrChunkInfo *first = jvms_jfr_file_get_chunk (file, 0);
  json_object_set_int_member (out->extra, "chunks", n_chunks);
  g_autofree char *version = g_strdup_printf ("%u.%u", first->major, first->minor);
  json_object_set_string_member (out->extra, "version", version);
  json_object_set_int_member (out->extra, "start_time_ns", first->start_nanos);
  json_object_set_int_member (out->extra, "duration_ns", duration);

  const GPtrArray *warnings = jvms_jfr_file_get_warnings (file);
  for (guint i = 0; i < warnings->len; i++)
    {
      const JvmsJfrWarning *w = g_ptr_array_index (warnings, i);
      jvms_cli_counts_warn (out, "%s", w->message);
    }
  return TRUE;
}
