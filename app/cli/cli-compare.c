/* jvmscope-cli compare: what changed between two traces of the same program
 * (analysis/jvms-compare.h, docs/compare.md), as text for people or JSON. */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cli-commands.h"
#include "cli-time.h"
#include "jvms-compare.h"
#include "jvms-scope.h"
#include "jvms-trace-index.h"

/* One trace of the two, opened and its range and JVM chosen as `analyze` chooses them. */
typedef struct
{
  JvmsTraceIndex *index;
  JvmsHistory    *history;
  char           *range_why;
} Side;

static void
side_clear (Side *side)
{
  g_clear_object (&side->index);
  g_clear_pointer (&side->history, jvms_history_unref);
  g_clear_pointer (&side->range_why, g_free);
}

/* 0 when @side is open and @out filled; else the exit status, the error printed. */
static int
side_open (Side *side, const char *path, const char *cache_dir, const char *which, const char *from,
           const char *to, gint64 pid, JvmsCompareSide *out)
{
  g_autoptr(GError) error = NULL;
  gint64 from_offset, to_offset;
  g_autofree char *from_option = g_strdup_printf ("--%s-from", which);
  g_autofree char *to_option = g_strdup_printf ("--%s-to", which);
  if (!jvms_cli_time_range_parse_named (from_option, from, to_option, to, &from_offset, &to_offset,
                                        &error))
    {
      g_printerr ("jvmscope-cli compare: %s\n", error->message);
      return 2;
    }
  side->index = jvms_trace_index_new (path, &error);
  if (side->index == NULL)
    {
      g_printerr ("jvmscope-cli compare: %s\n", error->message);
      return 1;
    }
  jvms_trace_index_set_cache_dir (side->index, cache_dir);
  if (!jvms_trace_index_load (side->index, NULL, &error))
    {
      g_printerr ("jvmscope-cli compare: %s\n", error->message);
      return 1;
    }
  side->history = jvms_trace_index_dup_history (side->index);
  gint64 jvm_pid;
  if (!jvms_scope_choose_jvm (side->history, path, pid, &jvm_pid, &error))
    {
      g_printerr ("jvmscope-cli compare: %s\n", error->message);
      return 2;
    }
  if (jvm_pid > 0)
    jvms_scope_set_subject (side->history, jvm_pid);
  gint64 start = jvms_history_get_start_time (side->history);
  gint64 default_from, default_to;
  gboolean default_range = from == NULL && to == NULL
                           && jvms_scope_default_range (side->history, &default_from, &default_to,
                                                        &side->range_why);
  *out = (JvmsCompareSide) {
    .history = side->history,
    .samples_path = jvms_trace_index_get_samples_path (side->index),
    .from = default_range ? default_from : jvms_cli_time_at (start, from_offset),
    .to = default_range ? default_to
                        : to != NULL ? jvms_cli_time_at (start, to_offset)
                                     : jvms_history_get_end_time (side->history),
    .pid = jvm_pid,
    .range_why = side->range_why,
  };
  /* Warnings say that a side could only partly be read: its numbers are what was read. */
  g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (side->index);
  for (guint i = 0; warnings[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), warnings[i]);
  return 0;
}

int
jvms_cli_compare (int argc, char **argv)
{
  gboolean json = FALSE;
  g_autofree char *bfrom = NULL, *bto = NULL, *ofrom = NULL, *oto = NULL, *cache_dir = NULL;
  gint64 bpid = 0, opid = 0;
  int limit = -1;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "baseline-from", 0, 0, G_OPTION_ARG_FILENAME, &bfrom, N_("Start of the baseline's range, from its start (1.5, 200ms)"), N_("T") },
    { "baseline-to", 0, 0, G_OPTION_ARG_FILENAME, &bto, N_("End of the baseline's range, from its start"), N_("T") },
    { "other-from", 0, 0, G_OPTION_ARG_FILENAME, &ofrom, N_("Start of the other trace's range, from its start"), N_("T") },
    { "other-to", 0, 0, G_OPTION_ARG_FILENAME, &oto, N_("End of the other trace's range, from its start"), N_("T") },
    { "baseline-pid", 0, 0, G_OPTION_ARG_INT64, &bpid, N_("The baseline's JVM, when its trace shows several"), N_("PID") },
    { "other-pid", 0, 0, G_OPTION_ARG_INT64, &opid, N_("The other trace's JVM, when it shows several"), N_("PID") },
    { "limit", 0, 0, G_OPTION_ARG_INT, &limit, N_("Rows per table (0: all; default: 10 in text, all in JSON)"), N_("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object (docs/compare.md)"), NULL },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, N_("Keep indexes in DIR instead of the user cache folder"), N_("DIR") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("BASELINE OTHER") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("BASELINE OTHER — what changed between two traces?"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("jvmscope-cli compare: %s\n", error->message);
      return 2;
    }
  if (files == NULL || g_strv_length (files) != 2 || limit < -1)
    {
      g_printerr ("%s\n", _("Usage: jvmscope-cli compare BASELINE OTHER [--json] [--baseline-from T] [--baseline-to T] [--other-from T] [--other-to T]"));
      return 2;
    }

  Side b = { 0 }, o = { 0 };
  JvmsCompareSide bside, oside;
  int status = side_open (&b, files[0], cache_dir, "baseline", bfrom, bto, bpid, &bside);
  if (status == 0)
    status = side_open (&o, files[1], cache_dir, "other", ofrom, oto, opid, &oside);
  if (status != 0)
    {
      side_clear (&b);
      side_clear (&o);
      return status;
    }
  g_autoptr(JvmsComparison) comparison = jvms_compare_compute (&bside, &oside, NULL, &error);
  if (comparison == NULL)
    {
      g_printerr ("jvmscope-cli compare: %s\n", error->message);
      side_clear (&b);
      side_clear (&o);
      return 1;
    }
  guint rows = limit >= 0 ? (guint) limit : json ? 0 : 10;
  g_autofree char *text = json ? jvms_comparison_to_json (comparison, files[0], files[1], rows)
                               : jvms_comparison_to_text (comparison, files[0], files[1], rows);
  fputs (text, stdout);
  if (json)
    fputs ("\n", stdout);
  side_clear (&b);
  side_clear (&o);
  return 0;
}
