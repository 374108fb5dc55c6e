/* jvms-report.c: the root-cause report's computation in order (jvms-report.h explains the
 * charging rules), and the report's lifetime. */
#include "jvms-report-private.h"

JvmsReport *
jvms_report_compute (JvmsHistory             *history,
                     const JvmsReportOptions *options,
                     GError                 **error)
{
  g_return_val_if_fail (history != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  JvmsReportWork w;
  jvms_report_work_init (&w, history, options);
  JvmsReport *report = NULL;
  w.gc_pauses = jvms_report_intervals (&w, jvms_history_lookup (history, "GC/pause"), error);
  if (w.gc_pauses == NULL || !jvms_report_safepoints_load (&w, error))
    goto out;
  jvms_report_load_threads (&w, options->thread);
  if (!jvms_report_walk_threads (&w, error) ||
      !jvms_report_estimate_samples (&w, error))
    goto out;
  jvms_report_safepoints_rank (&w);
  if (!jvms_report_monitors_blame (&w, error))
    goto out;
  if (!jvms_report_cpu_holders (&w, error) ||
      !jvms_report_gc_summary (&w, error) ||
      !jvms_report_read_samples (&w, options->samples_path, error))
    goto out;

  report = g_new0 (JvmsReport, 1);
  report->strings = g_string_chunk_new (4096);
  report->findings = g_ptr_array_new_with_free_func ((GDestroyNotify) jvms_finding_free);
  report->threads = g_array_new (FALSE, TRUE, sizeof (JvmsReportThread));
  const char *layers = jvms_history_get_metadata (history, "layers");
  report->layers = g_strdup (layers ? layers : "");
  report->start = jvms_history_get_start_time (history);
  report->range_why = g_strdup (options->range_why);
  jvms_report_build (&w, report);
  {
    g_autoptr(GError) stacks_error = NULL;
    if (!jvms_report_cite_stacks (report, options->samples_path, &stacks_error))
      {
        /* A damaged sample store: the report without (the rest of) its stacks, as
         * jvms_report_read_samples keeps what it read. */
        g_warning ("%s", stacks_error->message);
      }
  }

out:
  jvms_report_work_clear (&w);
  return report;
}

void
jvms_report_free (JvmsReport *self)
{
  if (self == NULL)
    return;
  g_free (self->layers);
  g_free (self->range_why);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->top_classes, g_array_unref);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_clear_pointer (&self->recording, jvms_recording_info_free);
  g_free (self);
}
