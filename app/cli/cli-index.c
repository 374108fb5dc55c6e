/* jvmscope-cli index: builds the index of a trace, or reuses it, and says what it holds. */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "cli-commands.h"
#include "jvms-json.h"
#include "jvms-report.h"
#include "jvms-scope.h"
#include "jvms-trace-index.h"

typedef struct
{
  const char          *path;
  JvmsTraceIndex      *index;
  JvmsHistory         *history;
  JvmsTraceIndexStats  stats;
  char               **warnings;
  char               **notes;
} IndexReport;

static double
mb_per_s (const JvmsTraceIndexStats *s)
{
  return s->build_seconds > 0 ? s->input_bytes / 1e6 / s->build_seconds : 0;
}

static double
events_per_s (const JvmsTraceIndexStats *s)
{
  return s->build_seconds > 0 ? s->n_events / s->build_seconds : 0;
}

static void
add_string (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  jvms_json_add_text (b, value);
}

static void
add_path (JsonBuilder *b, const char *name, const char *path)
{
  json_builder_set_member_name (b, name);
  jvms_json_add_path (b, path);
}

static void
add_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* Top-level folders of the attribute tree with how many attributes each holds. */
static guint
count_subtree (JvmsHistory *h, JvmsAttribute a)
{
  g_autoptr(GArray) children = jvms_history_list_children (h, a);
  guint n = 1;
  for (guint i = 0; i < children->len; i++)
    n += count_subtree (h, g_array_index (children, JvmsAttribute, i));
  return n;
}

static void
print_json (IndexReport *r)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  JvmsHistory *h = r->history;
  json_builder_begin_object (b);
  add_path (b, "trace", jvms_trace_index_get_trace_path (r->index));
  add_string (b, "kind", jvms_trace_kind_name (jvms_trace_index_get_kind (r->index)));
  add_path (b, "index", jvms_trace_index_get_index_path (r->index));
  add_path (b, "samples", jvms_trace_index_get_samples_path (r->index));
  json_builder_set_member_name (b, "reused");
  json_builder_add_boolean_value (b, jvms_trace_index_get_reused (r->index));
  add_string (b, "layers", jvms_trace_layers_name (jvms_trace_index_get_layers (r->index)));
  add_int (b, "start_ns", jvms_history_get_start_time (h));
  add_int (b, "end_ns", jvms_history_get_end_time (h));
  add_int (b, "duration_ns", jvms_history_get_end_time (h) - jvms_history_get_start_time (h));
  add_int (b, "attributes", jvms_history_get_n_attributes (h));
  add_int (b, "intervals", (gint64) jvms_history_get_n_intervals (h));
  add_int (b, "index_bytes", (gint64) r->stats.index_bytes);
  add_int (b, "input_bytes", (gint64) r->stats.input_bytes);
  add_int (b, "events", (gint64) r->stats.n_events);
  jvms_json_member_double (b, "seconds", r->stats.build_seconds);
  jvms_json_member_double (b, "mb_per_s", mb_per_s (&r->stats));
  jvms_json_member_double (b, "events_per_s", events_per_s (&r->stats));
  const char *keys[] = { "clock-method", "clock-uncertainty-ns", "clock-offset-ns", "jvm-pid", "analysis-version" };
  json_builder_set_member_name (b, "metadata");
  json_builder_begin_object (b);
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    add_string (b, keys[i], jvms_history_get_metadata (h, keys[i]));
  json_builder_end_object (b);
  json_builder_set_member_name (b, "folders");
  json_builder_begin_object (b);
  g_autoptr(GArray) top = jvms_history_list_children (h, JVMS_ATTRIBUTE_ROOT);
  for (guint i = 0; i < top->len; i++)
    {
      JvmsAttribute a = g_array_index (top, JvmsAttribute, i);
      add_int (b, jvms_history_get_name (h, a), count_subtree (h, a));
    }
  json_builder_end_object (b);
  /* Every JVM the trace shows (processes running HotSpot's threads), the recorded one first
   * marked: what analyze --pid chooses among. */
  json_builder_set_member_name (b, "jvms");
  json_builder_begin_array (b);
  g_autoptr(GPtrArray) jvms = jvms_scope_list_jvms (h);
  const char *recorded = jvms_history_get_metadata (h, "jvm-pid");
  for (guint i = 0; i < jvms->len; i++)
    {
      JvmsJvmEntry *e = g_ptr_array_index (jvms, i);
      json_builder_begin_object (b);
      add_int (b, "pid", e->pid);
      add_string (b, "name", e->name);
      add_string (b, "command", e->command);
      add_int (b, "threads", e->n_threads);
      json_builder_set_member_name (b, "recorded");
      json_builder_add_boolean_value (b, recorded != NULL && g_ascii_strtoll (recorded, NULL, 10) == e->pid);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "warnings");
  json_builder_begin_array (b);
  for (gsize i = 0; r->warnings[i] != NULL; i++)
    jvms_json_add_text (b, r->warnings[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (gsize i = 0; r->notes[i] != NULL; i++)
    jvms_json_add_text (b, r->notes[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);

  g_autoptr(JsonNode) root = json_builder_get_root (b);
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  g_autofree char *text = json_generator_to_data (gen, NULL);
  printf ("%s\n", text);
}

static void
print_text (IndexReport *r)
{
  JvmsHistory *h = r->history;
  gboolean reused = jvms_trace_index_get_reused (r->index);
  /* Paths and process names come from the trace or the user: control characters escaped. */
  g_autofree char *trace = jvms_report_escape_text (jvms_trace_index_get_trace_path (r->index));
  g_autofree char *index = jvms_report_escape_text (jvms_trace_index_get_index_path (r->index));
  printf ("%s (%s)\n", trace, jvms_trace_kind_name (jvms_trace_index_get_kind (r->index)));
  printf ("  %-14s %s\n", _("index:"), index);
  printf ("  %-14s %s\n", _("status:"), reused ? _("reused") : _("built"));
  printf ("  %-14s %s\n", _("layers:"), jvms_trace_layers_name (jvms_trace_index_get_layers (r->index)));
  gint64 start = jvms_history_get_start_time (h), end = jvms_history_get_end_time (h);
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (start / 1000000000);
  g_autofree char *when = dt != NULL ? g_date_time_format (dt, "%Y-%m-%d %H:%M:%S UTC") : g_strdup ("?");
  printf ("  %-14s %s, %.3f s\n", _("time range:"), when, (end - start) / 1e9);
  printf ("  %-14s %u\n", _("attributes:"), jvms_history_get_n_attributes (h));
  printf ("  %-14s %" G_GUINT64_FORMAT "\n", _("intervals:"), jvms_history_get_n_intervals (h));
  printf ("  %-14s %.1f MB\n", _("index size:"), r->stats.index_bytes / 1e6);
  printf ("  %-14s %s (%s ns)\n", _("clock:"),
          jvms_history_get_metadata (h, "clock-method") ?: "?",
          jvms_history_get_metadata (h, "clock-uncertainty-ns") ?: "?");
  g_autoptr(GArray) top = jvms_history_list_children (h, JVMS_ATTRIBUTE_ROOT);
  for (guint i = 0; i < top->len; i++)
    {
      JvmsAttribute a = g_array_index (top, JvmsAttribute, i);
      g_autoptr(GArray) children = jvms_history_list_children (h, a);
      printf ("    %-12s %u\n", jvms_history_get_name (h, a), children->len);
    }
  g_autoptr(GPtrArray) jvms = jvms_scope_list_jvms (h);
  const char *recorded = jvms_history_get_metadata (h, "jvm-pid");
  for (guint i = 0; i < jvms->len; i++)
    {
      JvmsJvmEntry *e = g_ptr_array_index (jvms, i);
      g_autofree char *name = jvms_report_escape_text (e->name[0] ? e->name : "?");
      g_autofree char *command = jvms_report_escape_text (e->command);
      printf ("  %-14s %" G_GINT64_FORMAT " %s%s%s, ", i == 0 ? _("JVMs:") : "", e->pid, name,
              command[0] ? " " : "", command);
      printf (g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads", e->n_threads), e->n_threads);
      if (recorded != NULL && g_ascii_strtoll (recorded, NULL, 10) == e->pid)
        printf ("%s", _(" (the recorded JVM)"));
      printf ("\n");
    }
  if (reused)
    printf ("  %-14s %.3f s\n", _("opened in:"), r->stats.build_seconds);
  else
    printf ("  %-14s %.3f s, %.1f MB/s, %.0f events/s (%" G_GUINT64_FORMAT " events, %.1f MB)\n",
            _("built in:"), r->stats.build_seconds, mb_per_s (&r->stats), events_per_s (&r->stats),
            r->stats.n_events, r->stats.input_bytes / 1e6);
}

int
jvms_cli_index (int argc, char **argv)
{
  gboolean json = FALSE, force = FALSE;
  g_autofree char *cache_dir = NULL;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object"), NULL },
    { "force", 0, 0, G_OPTION_ARG_NONE, &force, N_("Rebuild the index even if it is up to date"), NULL },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, N_("Keep indexes in DIR instead of the user cache folder"), N_("DIR") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("TRACE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("TRACE — build or reuse the index of a trace"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("jvmscope-cli index: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      g_printerr ("%s\n", _("Usage: jvmscope-cli index TRACE [--json] [--force] [--cache-dir DIR]"));
      return 2;
    }

  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (files[0], &error);
  if (index == NULL)
    {
      g_printerr ("jvmscope-cli index: %s\n", error->message);
      return 1;
    }
  jvms_trace_index_set_cache_dir (index, cache_dir);
  jvms_trace_index_set_force_rebuild (index, force);
  if (!jvms_trace_index_load (index, NULL, &error))
    {
      g_printerr ("jvmscope-cli index: %s\n", error->message);
      return 1;
    }

  IndexReport r = { .path = files[0], .index = index };
  r.history = jvms_trace_index_dup_history (index);
  jvms_trace_index_get_stats (index, &r.stats);
  r.warnings = jvms_trace_index_dup_warnings (index);
  r.notes = jvms_trace_index_dup_notes (index);
  if (json)
    print_json (&r);
  else
    print_text (&r);
  fflush (stdout);
  for (gsize i = 0; r.warnings[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), r.warnings[i]);
  /* Remarks on a trace read in full: they never make the command fail. */
  for (gsize i = 0; r.notes[i] != NULL; i++)
    g_printerr (_("note: %s\n"), r.notes[i]);
  g_strfreev (r.warnings);
  g_strfreev (r.notes);
  jvms_history_unref (r.history);
  return 0;
}
