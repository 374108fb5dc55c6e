/* jvmscope-cli analyze: the root-cause report of a trace, as text for people or JSON. */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "jvms-report.h"
#include "jvms-thread-list.h"
#include "jvms-trace-index.h"

/* "1.5" (seconds), "250ms", "40us", "12ns", "2s": an offset from the trace start. */
static gboolean
parse_offset (const char *text, gint64 *out)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);
  if (end == text)
    return FALSE;
  double scale = 1e9;
  if (*end == '\0' || strcmp (end, "s") == 0)
    scale = 1e9;
  else if (strcmp (end, "ms") == 0)
    scale = 1e6;
  else if (strcmp (end, "us") == 0 || strcmp (end, "µs") == 0)
    scale = 1e3;
  else if (strcmp (end, "ns") == 0)
    scale = 1;
  else
    return FALSE;
  *out = (gint64) (v * scale);
  return TRUE;
}

static gint64
member_int (JsonObject *o, const char *name)
{
  return json_object_has_member (o, name) ? json_object_get_int_member (o, name) : 0;
}

static void
print_threads_line (JsonArray *threads, guint limit)
{
  guint n = json_array_get_length (threads);
  for (guint i = 0; i < n && i < limit; i++)
    {
      JsonObject *t = json_array_get_object_element (threads, i);
      /* The folder name ("v17" for a thread without an OS id): what --thread takes. */
      g_autofree char *key = jvms_thread_key (member_int (t, "tid"));
      printf ("%s%s (%s)", i ? ", " : "", json_object_get_string_member (t, "name"), key);
    }
  if (n > limit)
    printf (g_dngettext (GETTEXT_PACKAGE, " and %u more", " and %u more", n - limit), n - limit);
  printf ("\n");
}

static void
print_evidence (JsonObject *evidence)
{
  g_autoptr(GList) members = json_object_get_members (evidence);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (evidence, l->data);
      if (JSON_NODE_HOLDS_VALUE (node))
        {
          printf ("      %s: %" G_GINT64_FORMAT "\n", (const char *) l->data, json_node_get_int (node));
          continue;
        }
      if (!JSON_NODE_HOLDS_ARRAY (node))
        continue;
      JsonArray *items = json_node_get_array (node);
      if (json_array_get_length (items) == 0)
        continue;
      printf ("      %s:\n", (const char *) l->data);
      for (guint i = 0; i < json_array_get_length (items) && i < 5; i++)
        {
          JsonObject *item = json_array_get_object_element (items, i);
          g_autoptr(GString) line = g_string_new ("        ");
          g_autoptr(GList) fields = json_object_get_members (item);
          for (GList *f = fields; f != NULL; f = f->next)
            {
              JsonNode *v = json_object_get_member (item, f->data);
              if (JSON_NODE_HOLDS_ARRAY (v))
                {
                  JsonArray *ts = json_node_get_array (v);
                  g_string_append_printf (line, "%s=[", (const char *) f->data);
                  for (guint k = 0; k < json_array_get_length (ts) && k < 4; k++)
                    {
                      JsonObject *t = json_array_get_object_element (ts, k);
                      g_string_append_printf (line, "%s%s", k ? ", " : "",
                                              json_object_get_string_member (t, "name"));
                    }
                  if (json_array_get_length (ts) > 4)
                    g_string_append (line, ", …");
                  g_string_append (line, "] ");
                }
              else if (JSON_NODE_HOLDS_VALUE (v))
                {
                  GType type = json_node_get_value_type (v);
                  if (type == G_TYPE_STRING)
                    g_string_append_printf (line, "%s ", json_node_get_string (v));
                  else if (type == G_TYPE_DOUBLE)
                    g_string_append_printf (line, "%s=%.1f%% ", (const char *) f->data, 100 * json_node_get_double (v));
                  else if (g_str_has_suffix (f->data, "ns"))
                    g_string_append_printf (line, "%.3f ms ", json_node_get_int (v) / 1e6);
                  else
                    g_string_append_printf (line, "%s=%" G_GINT64_FORMAT " ", (const char *) f->data,
                                            json_node_get_int (v));
                }
            }
          printf ("%s\n", line->str);
        }
    }
}

static void
print_text (const char *path, JsonObject *report)
{
  JsonObject *range = json_object_get_object_member (report, "range");
  printf (_("Root-cause report for %s\n"), path);
  printf (_("  range: %.3f s to %.3f s (%.3f s); layers: %s; analysed thread time: %.3f s\n"),
          member_int (range, "from_offset_ns") / 1e9, member_int (range, "to_offset_ns") / 1e9,
          member_int (range, "duration_ns") / 1e9, json_object_get_string_member (report, "layers"),
          member_int (report, "analysed_ns") / 1e9);

  JsonArray *findings = json_object_get_array_member (report, "findings");
  if (json_array_get_length (findings) == 0)
    printf ("%s\n", _("  No thread time in this range."));
  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *f = json_array_get_object_element (findings, i);
      printf ("\n%u. %s — %.3f s (%.1f%%): %s\n", i + 1, json_object_get_string_member (f, "kind"),
              member_int (f, "lost_ns") / 1e9, 100 * json_object_get_double_member (f, "share"),
              json_object_get_string_member (f, "summary"));
      printf ("   %s ", _("threads:"));
      print_threads_line (json_object_get_array_member (f, "threads"), 6);
      print_evidence (json_object_get_object_member (f, "evidence"));
    }

  JsonObject *gc = json_object_get_object_member (report, "gc");
  printf (_("\nGC: %lld collections, %.3f ms of pauses\n"), (long long) member_int (gc, "collections"),
          member_int (gc, "pause_ns") / 1e6);
  JsonArray *unknowns = json_object_get_array_member (report, "unknowns");
  for (guint i = 0; i < json_array_get_length (unknowns); i++)
    printf (_("Cannot know: %s\n"), json_array_get_string_element (unknowns, i));
}

int
jvms_cli_analyze (int argc, char **argv)
{
  gboolean json = FALSE;
  g_autofree char *from = NULL, *to = NULL, *thread = NULL, *cache_dir = NULL;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("Start of the range, from the trace start (1.5, 200ms, 40us)"), N_("T") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("End of the range, from the trace start"), N_("T") },
    { "thread", 0, 0, G_OPTION_ARG_STRING, &thread, N_("Only this thread (tid or name)"), N_("TID|NAME") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object (docs/report.md)"), NULL },
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
      g_printerr ("%s\n", _("Usage: jvmscope-cli analyze TRACE [--from T] [--to T] [--thread TID|NAME] [--json]"));
      return 2;
    }
  gint64 from_offset = 0, to_offset = G_MAXINT64 / 2;
  if ((from != NULL && !parse_offset (from, &from_offset)) || (to != NULL && !parse_offset (to, &to_offset)))
    {
      g_printerr (_("jvmscope-cli analyze: a time is a number of seconds, or a number followed by s, ms, us or ns\n"));
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
  gint64 start = jvms_history_get_start_time (history);
  JvmsReportOptions options = {
    .from = start + from_offset,
    .to = to_offset >= G_MAXINT64 / 2 ? jvms_history_get_end_time (history) : start + to_offset,
    .thread = thread,
    .samples_path = jvms_trace_index_get_samples_path (index),
  };
  g_autoptr(JsonNode) report = jvms_report_compute (history, &options, &error);
  if (report == NULL)
    {
      g_printerr ("jvmscope-cli analyze: %s\n", error->message);
      return 1;
    }

  g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (index);
  g_auto(GStrv) notes = jvms_trace_index_dup_notes (index);
  if (json)
    {
      JsonObject *o = json_node_get_object (report);
      json_object_set_string_member (o, "trace", files[0]);
      JsonArray *w = json_array_new ();
      for (guint i = 0; warnings[i] != NULL; i++)
        json_array_add_string_element (w, warnings[i]);
      json_object_set_array_member (o, "warnings", w);
      JsonArray *nt = json_array_new ();
      for (guint i = 0; notes[i] != NULL; i++)
        json_array_add_string_element (nt, notes[i]);
      json_object_set_array_member (o, "notes", nt);
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      json_generator_set_pretty (gen, TRUE);
      json_generator_set_root (gen, report);
      g_autofree char *text = json_generator_to_data (gen, NULL);
      printf ("%s\n", text);
    }
  else
    print_text (files[0], json_node_get_object (report));
  for (guint i = 0; warnings[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), warnings[i]);
  /* Remarks on a trace read in full: they never make the command fail. */
  for (guint i = 0; notes[i] != NULL; i++)
    g_printerr (_("note: %s\n"), notes[i]);
  return 0;
}
