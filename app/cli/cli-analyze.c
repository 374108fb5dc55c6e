/* jvmscope-cli analyze: the root-cause report of a trace, as text for people or JSON. */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-jvm.h"
#include "cli-time.h"
#include "jvms-report.h"
#include "jvms-thread-list.h"
#include "jvms-scope.h"
#include "jvms-trace-index.h"

int
jvms_cli_analyze (int argc, char **argv)
{
  gboolean json = FALSE;
  g_autofree char *from = NULL, *to = NULL, *thread = NULL, *cache_dir = NULL;
  gint64 pid = 0;
  gint evidence = 0;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    /* Bytes as given (FILENAME): the time parser names the option whatever they are. */
    { "from", 0, 0, G_OPTION_ARG_FILENAME, &from, N_("Start of the range, from the trace start (1.5, 200ms, 40us)"), N_("T") },
    { "to", 0, 0, G_OPTION_ARG_FILENAME, &to, N_("End of the range, from the trace start"), N_("T") },
    { "thread", 0, 0, G_OPTION_ARG_STRING, &thread, N_("Only this thread (tid or name)"), N_("TID|NAME") },
    { "pid", 0, 0, G_OPTION_ARG_INT64, &pid, JVMS_CLI_PID_HELP, N_("PID") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object (docs/report.md)"), NULL },
    { "evidence", 0, 0, G_OPTION_ARG_INT, &evidence, N_("Items of evidence per finding: CPU holders, monitors, classes, methods, files (1 to 1000; default 10)"), N_("N") },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, N_("Keep indexes in DIR instead of the user cache folder"), N_("DIR") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("TRACE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("TRACE — why were the JVM's threads slow?"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("jvmscope-cli analyze: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      g_printerr ("%s\n", _("Usage: jvmscope-cli analyze TRACE [--from T] [--to T] [--thread TID|NAME] [--pid PID] [--json] [--evidence N]"));
      return 2;
    }
  /* Bounded: each item is a row of every finding's lists, and the lists are built in memory. */
  if (evidence < 0 || evidence > 1000)
    {
      g_printerr (_("jvmscope-cli analyze: --evidence %d: give a count from 1 to 1000 (0 or none: 10)\n"), evidence);
      return 2;
    }
  gint64 from_offset, to_offset;
  if (!jvms_cli_time_range_parse (from, to, &from_offset, &to_offset, &error))
    {
      g_printerr ("jvmscope-cli analyze: %s\n", error->message);
      return 2;
    }

  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (files[0], &error);
  if (index == NULL)
    {
      g_printerr ("jvmscope-cli analyze: %s\n", error->message);
      return 1;
    }
  jvms_trace_index_set_cache_dir (index, cache_dir);
  if (!jvms_trace_index_load (index, NULL, &error))
    {
      g_printerr ("jvmscope-cli analyze: %s\n", error->message);
      return 1;
    }
  g_autoptr(JvmsHistory) history = jvms_trace_index_dup_history (index);
  gint64 jvm_pid;
  /* Several JVMs and none recorded: the user chooses (status 2, as for a usage error). */
  if (!jvms_cli_choose_jvm ("analyze", history, files[0], pid, TRUE, &jvm_pid))
    return 2;
  gint64 start = jvms_history_get_start_time (history);
  gint64 default_from, default_to;
  g_autofree char *range_why = NULL;
  gboolean default_range = from == NULL && to == NULL
                           && jvms_scope_default_range (history, &default_from, &default_to, &range_why);
  JvmsReportOptions options = {
    .from = default_range ? default_from : jvms_cli_time_at (start, from_offset),
    .to = default_range ? default_to : to != NULL ? jvms_cli_time_at (start, to_offset) : jvms_history_get_end_time (history),
    .thread = thread,
    .samples_path = jvms_trace_index_get_samples_path (index),
    .pid = jvm_pid,
    .range_why = range_why,
    .max_evidence = (guint) evidence,
  };
  g_autoptr(JvmsReport) report = jvms_report_compute (history, &options, &error);
  if (report == NULL)
    {
      g_printerr ("jvmscope-cli analyze: %s\n", error->message);
      return 1;
    }
  if (thread != NULL && report->threads->len == 0)
    {
      /* Not "no thread time in this range": the name is wrong, or names a thread the report
       * does not analyse. */
      g_autoptr(JvmsThreadList) list = jvms_thread_list_read (history);
      g_autofree char *shown = jvms_report_escape_text (thread);
      if (jvms_thread_list_find (list, thread) == NULL)
        g_printerr (_("jvmscope-cli analyze: no such thread: %s\n"), shown);
      else
        g_printerr (_("jvmscope-cli analyze: %s is not a thread of the traced JVM\n"), shown);
      return 2;
    }

  g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (index);
  g_auto(GStrv) notes = jvms_trace_index_dup_notes (index);
  g_autofree char *text = json
    ? jvms_report_to_json (report, files[0], (const char * const *) warnings, (const char * const *) notes)
    : jvms_report_to_text (report, files[0]);
  fputs (text, stdout);
  if (json)
    fputs ("\n", stdout);
  /* Warnings and notes carry file names and what the readers found: escaped like the text. */
  for (guint i = 0; warnings[i] != NULL; i++)
    {
      g_autofree char *warning = jvms_report_escape_text (warnings[i]);
      g_printerr (_("warning: %s\n"), warning);
    }
  /* Remarks on a trace read in full: they never make the command fail. */
  for (guint i = 0; notes[i] != NULL; i++)
    {
      g_autofree char *note = jvms_report_escape_text (notes[i]);
      g_printerr (_("note: %s\n"), note);
    }
  return 0;
}
