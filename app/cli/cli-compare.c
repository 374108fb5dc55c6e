/* jvmscope-cli compare: what changed between two traces of the same program
 * (analysis/jvms-compare.h, docs/compare.md), as text for people or JSON. */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-time.h"
#include "jvms-compare.h"
#include "jvms-compare-profile.h"
#include "jvms-json.h"
#include "jvms-profile.h"
#include "jvms-report.h"
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

/* A side's profile of @kind over its range, every thread (as `jvmscope-cli profile` without
 * --thread); NULL with the error printed and *status set. */
static JvmsCallTree *
side_profile (const JvmsCompareSide *side, const char *path, JvmsProfileKind kind,
              const char *event_type, int *status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsProfile) profile = side->samples_path != NULL ? jvms_profile_open (side->samples_path, &error) : NULL;
  *status = 1;
  if (profile == NULL)
    {
      g_autofree char *shown = g_filename_display_name (path);
      g_printerr ("jvmscope-cli compare: %s: %s\n", shown,
                  error != NULL ? error->message : _("the trace has no sample store"));
      return NULL;
    }
  if (kind == JVMS_PROFILE_KIND_EVENT_TYPE
      && jvms_samples_store_find_type (jvms_profile_get_store (profile), event_type) == JVMS_SAMPLES_NONE)
    {
      g_autofree char *shown = g_filename_display_name (path);
      g_printerr (_("jvmscope-cli compare: %s: “%s” is neither a kind nor an event type with stack traces in this trace\n"),
                  shown, event_type);
      *status = 2;
      return NULL;
    }
  JvmsProfileQuery query = { .from = side->from, .to = side->to, .kind = kind, .event_type = event_type };
  JvmsCallTree *tree = jvms_profile_query (profile, &query, NULL, &error);
  if (tree == NULL)
    g_printerr ("jvmscope-cli compare: %s\n", error->message);
  return tree;
}

static void
add_profile_side (JsonBuilder *b, const char *name, const char *trace, JvmsCallTree *tree, gint64 start)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "trace");
  jvms_json_add_path (b, trace);
  json_builder_set_member_name (b, "range");
  json_builder_begin_object (b);
  gint64 from = jvms_call_tree_get_from (tree), to = jvms_call_tree_get_to (tree);
  jvms_json_member_int (b, "from_ns", from);
  jvms_json_member_int (b, "to_ns", to);
  jvms_json_member_int (b, "from_offset_ns", from - start);
  jvms_json_member_int (b, "to_offset_ns", to - start);
  jvms_json_member_int (b, "duration_ns", to - from);
  json_builder_end_object (b);
  jvms_json_member_int (b, "total", (gint64) jvms_call_tree_get_total (tree));
  jvms_json_member_int (b, "samples", (gint64) jvms_call_tree_get_samples (tree));
  json_builder_end_object (b);
}

/* --profile: the differential profile (docs/compare.md, "The differential flame graph"). */
static int
print_profile (const JvmsCompareSide *sides, char **files, const char *kind_text, gboolean json, int limit)
{
  JvmsProfileKind kind = JVMS_PROFILE_KIND_CPU;
  const char *event_type = NULL;
  if (kind_text != NULL)
    jvms_profile_kind_parse (kind_text, &kind, &event_type);
  int status;
  g_autoptr(JvmsCallTree) baseline = side_profile (&sides[0], files[0], kind, event_type, &status);
  if (baseline == NULL)
    return status;
  g_autoptr(JvmsCallTree) other = side_profile (&sides[1], files[1], kind, event_type, &status);
  if (other == NULL)
    return status;
  g_autoptr(JvmsProfileDiff) diff = jvms_profile_diff_new (baseline, other);
  guint rows = limit >= 0 ? (guint) limit : json ? 0 : 20;
  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      jvms_json_member_int (b, "schema_version", 1);
      jvms_json_member_text (b, "kind", jvms_call_tree_get_kind_name (other));
      jvms_json_member_text (b, "unit", jvms_call_tree_get_unit (other));
      add_profile_side (b, "baseline", files[0], baseline, jvms_history_get_start_time (sides[0].history));
      add_profile_side (b, "other", files[1], other, jvms_history_get_start_time (sides[1].history));
      json_builder_set_member_name (b, "frames");
      json_builder_add_value (b, jvms_profile_diff_to_json (diff, rows));
      json_builder_end_object (b);
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      json_generator_set_pretty (gen, TRUE);
      g_autoptr(JsonNode) root = json_builder_get_root (b);
      json_generator_set_root (gen, root);
      g_autofree char *text = json_generator_to_data (gen, NULL);
      printf ("%s\n", text);
      return 0;
    }
  g_autofree char *baseline_total = g_strdup_printf ("%" G_GUINT64_FORMAT " %s", jvms_call_tree_get_total (baseline),
                                                     jvms_call_tree_get_unit (baseline));
  g_autofree char *other_total = g_strdup_printf ("%" G_GUINT64_FORMAT " %s", jvms_call_tree_get_total (other),
                                                  jvms_call_tree_get_unit (other));
  /* Translators: the header of compare --profile's text: the kind, each side's total. */
  printf (_("Differential profile (%s): baseline %s, other %s\n"), jvms_call_tree_get_kind_name (other),
          baseline_total, other_total);
  printf ("%s\n", _("Share of each side's total with the frame on the stack; largest change first."));
  g_autoptr(GArray) order = jvms_profile_diff_sorted (diff);
  for (guint i = 0; i < order->len && (rows == 0 || i < rows); i++)
    {
      guint32 f = g_array_index (order, guint32, i);
      const JvmsProfileDiffFrame *frame = jvms_profile_diff_get_frame (diff, f);
      /* The frame and its two callers: whole paths run to hundreds of characters (--json has
       * them whole). */
      g_autofree char *path = jvms_profile_diff_dup_path (diff, f);
      const char *shown = path;
      for (guint k = 3; k < frame->depth && strchr (shown, ';') != NULL; k++)
        shown = strchr (shown, ';') + 1;
      g_autofree char *escaped = jvms_report_escape_text (shown);
      g_autofree char *before = jvms_compare_format_share (frame->baseline_share);
      g_autofree char *after = jvms_compare_format_share (frame->other_share);
      printf ("  %+6.1f %%  %s → %s  %s%s\n", frame->change * 100, before, after, shown != path ? "…;" : "",
              escaped);
    }
  if (rows > 0 && order->len > rows)
    printf (g_dngettext (GETTEXT_PACKAGE, "    and %u more\n", "    and %u more\n", order->len - rows),
            order->len - rows);
  return 0;
}

int
jvms_cli_compare (int argc, char **argv)
{
  gboolean json = FALSE, profile = FALSE;
  g_autofree char *kind = NULL;
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
    { "profile", 0, 0, G_OPTION_ARG_NONE, &profile, N_("The differential profile: each frame's share of the samples on each side"), NULL },
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind, N_("With --profile: the kind of samples, as for profile (default: cpu)"), N_("KIND") },
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
      g_printerr ("%s\n", _("Usage: jvmscope-cli compare BASELINE OTHER [--json] [--profile [--kind KIND]] [--baseline-from T] [--baseline-to T] [--other-from T] [--other-to T]"));
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
  if (profile)
    {
      JvmsCompareSide sides[2] = { bside, oside };
      status = print_profile (sides, files, kind, json, limit);
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
