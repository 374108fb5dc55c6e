/* jvms-report-samples.c: the evidence of program-logic (hot methods: the top frames of
 * execution samples) and of gc (allocated classes and sites, by sampled weight), from the point
 * samples beside the index, for the analysed application threads over the range. */
#include "jvms-report-private.h"

#include "jvms-samples.h"

/* Execution samples' top frames and allocation samples' classes over the range and threads. */
gboolean
jvms_report_read_samples (JvmsReportWork *r, const char *path, GError **error)
{
  GHashTable *methods = r->methods, *classes = r->classes, *sites = r->sites;
  gint64 *n_exec = &r->n_exec;
  *n_exec = 0;
  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_autoptr(JvmsSamplesReader) reader = jvms_samples_reader_open (path, error);
  if (reader == NULL)
    return FALSE;
  g_autoptr(GHashTable) ours = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < r->threads->len; i++)
    {
      JvmsReportWalked *t = g_ptr_array_index (r->threads, i);
      if (t->kind == JVMS_THREAD_KIND_JAVA)
        g_hash_table_add (ours, &t->tid);
    }
  JvmsSample s;
  g_autoptr(GError) local_error = NULL;
  while (jvms_samples_reader_next (reader, &s, &local_error))
    {
      jvms_report_safepoints_sample (r, &s);
      jvms_report_monitors_sample (r, &s);
      if (s.time < r->from || s.time >= r->to || !g_hash_table_contains (ours, &s.tid))
        continue;
      /* A profiler's wall-clock samples of idle threads are no hot methods; JDK 25's CPU-time
       * samples are, and then the execution samples beside them are not (counted once). */
      gboolean execution = s.kind == JVMS_SAMPLE_EXECUTION || g_strcmp0 (s.type_name, "jdk.CPUTimeSample") == 0;
      if (execution && s.n_frames > 0
          && jvms_report_sample_on_cpu (r, s.type_name, s.state))
        {
          (*n_exec)++;
          gint64 *n = g_hash_table_lookup (methods, s.frames[0].method);
          if (n == NULL)
            g_hash_table_insert (methods, g_strdup (s.frames[0].method), jvms_report_int64_dup (1));
          else
            (*n)++;
        }
      else if (s.kind == JVMS_SAMPLE_ALLOCATION && s.class_name != NULL)
        {
          gint64 *n = g_hash_table_lookup (classes, s.class_name);
          if (n == NULL)
            g_hash_table_insert (classes, g_strdup (s.class_name), jvms_report_int64_dup ((gint64) s.weight));
          else
            *n += (gint64) s.weight;
          if (s.n_frames > 0)
            {
              n = g_hash_table_lookup (sites, s.frames[0].method);
              if (n == NULL)
                g_hash_table_insert (sites, g_strdup (s.frames[0].method), jvms_report_int64_dup ((gint64) s.weight));
              else
                *n += (gint64) s.weight;
            }
        }
    }
  if (local_error != NULL)
    {
      /* A damaged sample store still gives what was read before the damage. */
      g_warning ("%s", local_error->message);
    }
  return TRUE;
}

