/* jvmscope-cli summary: events per type in a JFR file, a perf.data file, an LTTng trace
 * folder or a jvmscope bundle. */
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-count.h"
#include "jvms-bundle-manifest.h"
#include "jvms-json.h"
#include "jvms-report.h"
#include "jvms-trace-detect.h"

enum { EXIT_PARTIAL = 3 };

static gboolean
count_bundle (const char *dir, JvmsCliCounts *out, GError **error)
{
  gboolean any = FALSE;

  /* The counts do not need the manifest, but a damaged one means the index cannot align the
   * two clocks: say so here rather than let the summary look clean. */
  {
    g_autofree char *manifest = g_build_filename (dir, JVMS_BUNDLE_MANIFEST, NULL);
    JvmsBundleManifest m;
    g_autoptr(GError) local_error = NULL;
    if (!jvms_bundle_manifest_read (manifest, &m, &local_error))
      jvms_cli_counts_warn (out, "%s", local_error->message);
    jvms_bundle_manifest_clear (&m);
  }

  /* A part that is there, whatever it is, is read: its reader says what is wrong with it. */
  g_autofree char *jfr = jvms_trace_bundle_part (dir, JVMS_BUNDLE_JFR);
  g_autofree char *perf = jvms_trace_bundle_part (dir, JVMS_BUNDLE_KERNEL);
  if (jfr != NULL)
    {
      g_autoptr(GError) local_error = NULL;
      if (jvms_cli_count_jfr (jfr, out, &local_error))
        any = TRUE;
      else
        jvms_cli_counts_warn (out, "%s", local_error->message);
    }
  if (perf != NULL)
    {
      g_autoptr(GError) local_error = NULL;
      if (jvms_cli_count_perf (perf, out, &local_error))
        any = TRUE;
      else
        jvms_cli_counts_warn (out, "%s", local_error->message);
    }
  if (!any)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: the bundle holds no readable recording.jfr or kernel.perf.data", dir);
      return FALSE;
    }
  return TRUE;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
print_json (const char *path, JvmsTraceKind kind, JvmsCliCounts *counts)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "file");
  jvms_json_add_path (builder, path);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, jvms_trace_kind_name (kind));

  g_autofree const char **names = (const char **) g_hash_table_get_keys_as_array (counts->counts, NULL);
  guint n_names = g_hash_table_size (counts->counts);
  qsort (names, n_names, sizeof *names, compare_names);
  guint64 total = 0;
  json_builder_set_member_name (builder, "event_counts");
  json_builder_begin_object (builder);
  for (guint i = 0; i < n_names; i++)
    {
      guint64 *n = g_hash_table_lookup (counts->counts, names[i]);
      json_builder_set_member_name (builder, names[i]);
      json_builder_add_int_value (builder, (gint64) *n);
      total += *n;
    }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "total_events");
  json_builder_add_int_value (builder, (gint64) total);

  json_builder_set_member_name (builder, "warnings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < counts->warnings->len; i++)
    jvms_json_add_text (builder, g_ptr_array_index (counts->warnings, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  JsonObject *object = json_node_get_object (root);
  g_autoptr(GList) members = json_object_get_members (counts->extra);
  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (object, l->data,
                            json_node_copy (json_object_get_member (counts->extra, l->data)));

  g_autoptr(JsonGenerator) generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);
  g_autofree char *text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

static void
print_text (const char *path, JvmsTraceKind kind, JvmsCliCounts *counts)
{
  /* File names, the manifest's strings and event type names come from the trace: their control
   * characters are shown escaped, never sent to the terminal (jvms_report_escape_text). */
  g_autofree char *shown_path = jvms_report_escape_text (path);
  printf ("%s (%s)\n", shown_path, jvms_trace_kind_name (kind));
  g_autoptr(GList) members = json_object_get_members (counts->extra);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (counts->extra, l->data);
      if (JSON_NODE_HOLDS_VALUE (node))
        {
          GValue value = G_VALUE_INIT;
          json_node_get_value (node, &value);
          GValue as_string = G_VALUE_INIT;
          g_value_init (&as_string, G_TYPE_STRING);
          if (g_value_transform (&value, &as_string))
            {
              g_autofree char *key = jvms_report_escape_text (l->data);
              g_autofree char *text = jvms_report_escape_text (g_value_get_string (&as_string));
              printf ("  %s: %s\n", key, text);
            }
          g_value_unset (&as_string);
          g_value_unset (&value);
        }
    }

  g_autofree const char **names = (const char **) g_hash_table_get_keys_as_array (counts->counts, NULL);
  guint n_names = g_hash_table_size (counts->counts);
  qsort (names, n_names, sizeof *names, compare_names);
  guint64 total = 0;
  printf ("\n %-50s %12s\n", _("Event type"), _("Count"));
  printf (" %-50s %12s\n", "==========", "=====");
  for (guint i = 0; i < n_names; i++)
    {
      guint64 *n = g_hash_table_lookup (counts->counts, names[i]);
      g_autofree char *name = jvms_report_escape_text (names[i]);
      printf (" %-50s %12" G_GUINT64_FORMAT "\n", name, *n);
      total += *n;
    }
  printf (" %-50s %12" G_GUINT64_FORMAT "\n", _("total"), total);
}

int
jvms_cli_summary (int argc, char **argv)
{
  gboolean json = FALSE;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("TRACE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("TRACE — count the events of each type"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("jvmscope-cli summary: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      g_printerr ("%s\n", _("Usage: jvmscope-cli summary TRACE [--json]"));
      return 2;
    }

  const char *path = files[0];
  JvmsTraceKind kind;
  if (!jvms_trace_detect (path, &kind, &error))
    {
      g_printerr ("jvmscope-cli summary: %s\n", error->message);
      return 1;
    }

  JvmsCliCounts counts;
  jvms_cli_counts_init (&counts);
  gboolean ok = FALSE;
  switch (kind)
    {
    case JVMS_TRACE_KIND_JFR: ok = jvms_cli_count_jfr (path, &counts, &error); break;
    case JVMS_TRACE_KIND_PERF: ok = jvms_cli_count_perf (path, &counts, &error); break;
    case JVMS_TRACE_KIND_CTF: ok = jvms_cli_count_ctf (path, &counts, &error); break;
    case JVMS_TRACE_KIND_BUNDLE: ok = count_bundle (path, &counts, &error); break;
    default: g_assert_not_reached ();
    }
  if (!ok)
    {
      /* What made each part unreadable, then the verdict. */
      for (guint i = 0; i < counts.warnings->len; i++)
        g_printerr (_("warning: %s\n"), (const char *) g_ptr_array_index (counts.warnings, i));
      g_printerr ("jvmscope-cli summary: %s\n", error->message);
      jvms_cli_counts_clear (&counts);
      return 1;
    }

  if (json)
    print_json (path, kind, &counts);
  else
    print_text (path, kind, &counts);
  for (guint i = 0; i < counts.warnings->len; i++)
    g_printerr (_("warning: %s\n"), (const char *) g_ptr_array_index (counts.warnings, i));

  int status = counts.warnings->len > 0 ? EXIT_PARTIAL : 0;
  jvms_cli_counts_clear (&counts);
  return status;
}
