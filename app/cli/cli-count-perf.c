/* perf.data counts for `jvmscope-cli summary`: every event the reader delivers, by the name
 * `perf script` prints for it. Counting needs no payloads; it keeps the time merge because
 * group-read counters count only the reads that moved, in time order, as perf script does. */
#include "cli-count.h"

#include "jvms-perf.h"

gboolean
jvms_cli_count_perf (const char *path, JvmsCliCounts *out, GError **error)
{
  g_autoptr(JvmsPerfReader) reader =
    jvms_perf_reader_open (path, JVMS_PERF_READER_NAMES_ONLY, error);
  if (reader == NULL)
    return FALSE;

  /* Names are few and owned by the reader: count by pointer, then merge by name. */
  g_autoptr(GHashTable) by_name = g_hash_table_new (NULL, NULL);
  g_autoptr(GError) stop_error = NULL;
  JvmsKernelEvent event;
  gint64 first = 0, last = 0;
  while (jvms_perf_reader_next (reader, &event, &stop_error))
    {
      gpointer key = (gpointer) event.name;
      g_hash_table_insert (by_name, key,
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (by_name, key)) + 1));
      if (event.time > 0)
        {
          if (first == 0 || event.time < first)
            first = event.time;
          last = MAX (last, event.time);
        }
    }

  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, by_name);
  while (g_hash_table_iter_next (&iter, &key, &value))
    jvms_cli_counts_add (out, key, GPOINTER_TO_SIZE (value));

  GPtrArray *warnings = jvms_perf_reader_get_warnings (reader);
  for (guint i = 0; i < warnings->len; i++)
    jvms_cli_counts_warn (out, "%s", (const char *) g_ptr_array_index (warnings, i));
  if (stop_error != NULL)
    jvms_cli_counts_warn (out, "%s", stop_error->message);

  json_object_set_int_member (out->extra, "nr_cpus", jvms_perf_reader_get_n_cpus (reader));
  json_object_set_int_member (out->extra, "clockid", jvms_perf_reader_get_clockid (reader));
  json_object_set_int_member (out->extra, "start_time_ns", first);
  json_object_set_int_member (out->extra, "duration_ns", last - first);
  json_object_set_int_member (out->extra, "lost_events", (gint64) jvms_perf_reader_get_lost (reader));
  const JvmsPerfClockData *clock = jvms_perf_reader_get_clock_data (reader);
  if (clock->present)
    {
      json_object_set_int_member (out->extra, "clock_tod_ns", (gint64) clock->tod_ns);
      json_object_set_int_member (out->extra, "clock_clockid_ns", (gint64) clock->clockid_ns);
    }
  if (jvms_perf_reader_get_hostname (reader) != NULL)
    json_object_set_string_member (out->extra, "hostname", jvms_perf_reader_get_hostname (reader));
  if (jvms_perf_reader_get_perf_version (reader) != NULL)
    json_object_set_string_member (out->extra, "perf_version", jvms_perf_reader_get_perf_version (reader));
  return TRUE;
}
