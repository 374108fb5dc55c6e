/* jvmscope-cli profile: where in the code the time went, for a range, threads and kind
 * (docs/profile.md): a method table for people, folded stacks, JSON or CSV. */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-jvm.h"
#include "cli-time.h"
#include "jvms-flame-paint.h"
#include "jvms-profile.h"
#include "jvms-recording-info.h"
#include "jvms-report.h"
#include "jvms-trace-index.h"

#define USAGE N_("Usage: jvmscope-cli profile TRACE [--from T] [--to T] [--thread TID|NAME]... " \
                 "[--kind cpu|cpu-waiting|alloc|lock|wait|park|sleep|io|exception|wall|EVENT-TYPE] " \
                 "[--folded | --json | --csv] [--top N] [--flame OUT.svg|OUT.png [--width PX] [--dark] [--colors MODE]] [--pid PID]")

/* "123" and "-7" are thread keys; anything else a thread name. */
static gboolean
parse_tid (const char *text, gint64 *out)
{
  char *end = NULL;
  gint64 v = g_ascii_strtoll (text, &end, 10);
  if (end == text || *end != '\0')
    return FALSE;
  *out = v;
  return TRUE;
}

/* The keys of the threads @args name: a key as given, a name matched against every thread that
 * has samples (several threads may share a name). */
static GArray *
resolve_threads (JvmsProfile *profile, char **args, GError **error)
{
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      gint64 tid;
      if (parse_tid (args[i], &tid))
        {
          g_array_append_val (tids, tid);
          continue;
        }
      gboolean found = FALSE;
      for (guint t = 0; t < jvms_profile_get_n_threads (profile); t++)
        if (g_strcmp0 (jvms_profile_get_thread_name (profile, t), args[i]) == 0)
          {
            tid = jvms_profile_get_thread_tid (profile, t);
            g_array_append_val (tids, tid);
            found = TRUE;
          }
      if (!found)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("no thread named “%s” has samples in this trace"), args[i]);
          g_array_unref (tids);
          return NULL;
        }
    }
  return tids;
}

static void
print_share (const char *label, guint64 part, guint64 whole, gboolean *first)
{
  printf ("%s%s %.1f %%", *first ? " [" : ", ", label, whole > 0 ? 100.0 * part / whole : 0.0);
  *first = FALSE;
}

static void
print_text (const char *path, JvmsCallTree *tree, const JvmsRecordingInfo *recording, gint64 start,
            guint n_threads, guint top)
{
  const char *unit = jvms_call_tree_get_unit (tree);
  g_autofree char *threads_text = n_threads == 0
    ? g_strdup (_("all threads"))
    : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads", n_threads), n_threads);
  /* The path and method names come from the user and the trace: control characters escaped. */
  g_autofree char *shown_path = jvms_report_escape_text (path);
  printf (_("Profile of %s: %s (%s), %.3f s to %.3f s, %s\n"), shown_path, jvms_call_tree_get_kind_name (tree),
          unit, (jvms_call_tree_get_from (tree) - start) / 1e9, (jvms_call_tree_get_to (tree) - start) / 1e9,
          threads_text);
  if (recording != NULL)
    {
      /* What the writer recorded and what it did not, as analyze says it. */
      g_autofree char *kind = jvms_recording_info_describe (recording, TRUE);
      g_autofree char *escaped = jvms_report_escape_text (kind);
      printf (_("  recording: %s\n"), escaped);
    }
  guint64 total = jvms_call_tree_get_total (tree);
  g_autofree char *total_text = g_strdup_printf ("%" G_GUINT64_FORMAT, total);
  g_autofree char *samples_text = g_strdup_printf ("%" G_GUINT64_FORMAT, jvms_call_tree_get_samples (tree));
  printf (_("  total %s %s in %s samples"), total_text, unit, samples_text);
  if (jvms_call_tree_has_kernel_states (tree))
    {
      const JvmsCallTreeNode *root = jvms_call_tree_get_node (tree, 0);
      gboolean first = TRUE;
      print_share (_("on CPU"), root->total_states[JVMS_CPU_STATE_ON_CPU], root->total_samples, &first);
      print_share (_("waiting for a CPU"), root->total_states[JVMS_CPU_STATE_WAITING], root->total_samples, &first);
      print_share (_("unknown"), root->total_states[JVMS_CPU_STATE_UNKNOWN], root->total_samples, &first);
      printf ("]");
    }
  /* xgettext:no-c-format */
  const char *self_share = _("self %");
  /* xgettext:no-c-format */
  const char *total_share = _("total %");
  printf ("\n\n  %7s %7s %14s %14s  %s\n", self_share, total_share, _("self"), _("total"), _("method"));
  guint n = jvms_call_tree_get_n_methods (tree);
  for (guint i = 0; i < n && i < top; i++)
    {
      const JvmsCallTreeMethod *m = jvms_call_tree_get_method_row (tree, i);
      g_autofree char *method = jvms_report_escape_text (jvms_call_tree_get_method_name (tree, m->method));
      printf ("  %6.2f%% %6.2f%% %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "  %s\n",
              total > 0 ? 100.0 * m->self / total : 0.0, total > 0 ? 100.0 * m->total / total : 0.0,
              m->self, m->total, method);
    }
  if (n > top)
    printf (g_dngettext (GETTEXT_PACKAGE, "  … and %u more method (--top N, --csv)\n",
                         "  … and %u more methods (--top N, --csv)\n", n - top), n - top);
}

/* A kind without samples in the range: say what the recording holds instead (a profiler's file
 * may have wall-clock or native allocation samples and no CPU sample), each event type with
 * stack traces and its samples over the whole recording, to be asked for with --kind TYPE. */
static void
note_other_types (JvmsSamplesStore *store)
{
  guint n = jvms_samples_store_get_n_types (store);
  if (n == 0)
    {
      g_printerr ("%s\n", _("note: this trace has no sample with a stack trace"));
      return;
    }
  g_autoptr(GString) types = g_string_new (NULL);
  gboolean wall = FALSE;
  for (guint t = 0; t < n; t++)
    {
      const char *name;
      guint64 n_samples = 0;
      JvmsSampleTypeFlags flags;
      jvms_samples_store_get_type (store, t, &name, NULL, &flags, &n_samples, NULL);
      wall |= (flags & JVMS_SAMPLE_TYPE_WALL) != 0 && n_samples > 0;
      /* A type's wall-clock samples are a second type of its name: one entry with both. */
      if (jvms_samples_store_find_type (store, name) != t)
        continue;
      for (guint u = t + 1; u < n; u++)
        {
          const char *other;
          guint64 more = 0;
          jvms_samples_store_get_type (store, u, &other, NULL, NULL, &more, NULL);
          n_samples += g_strcmp0 (other, name) == 0 ? more : 0;
        }
      g_autofree char *escaped = jvms_report_escape_text (name);
      g_string_append_printf (types, "%s%s (%" G_GUINT64_FORMAT ")", t > 0 ? ", " : "", escaped,
                              n_samples);
    }
  /* TRANSLATORS: %s lists event types and their samples: "profiler.Malloc (57), ..." */
  g_printerr (_("note: no sample of this kind here; the trace's samples with stack traces are "
                "(--kind TYPE): %s\n"), types->str);
  if (wall)
    g_printerr ("%s\n", _("note: the trace has wall-clock samples: --kind wall weighs them"));
}

int
jvms_cli_profile (int argc, char **argv)
{
  gboolean folded = FALSE, json = FALSE, csv = FALSE;
  g_autofree char *from = NULL, *to = NULL, *kind_text = NULL, *cache_dir = NULL;
  g_auto(GStrv) threads = NULL;
  g_auto(GStrv) files = NULL;
  gint top = -1;
  /* The flame graph into a file, drawn as the window draws it (docs/profile.md). */
  g_autofree char *flame_path = NULL, *colors = NULL;
  gint width = 1200;
  gboolean dark = FALSE;
  gint64 pid = 0;
  GOptionEntry entries[] = {
    /* Bytes as given (FILENAME): the time parser names the option whatever they are. */
    { "from", 0, 0, G_OPTION_ARG_FILENAME, &from, N_("Start of the range, from the trace start (1.5, 200ms, 40us)"), N_("T") },
    { "to", 0, 0, G_OPTION_ARG_FILENAME, &to, N_("End of the range, from the trace start"), N_("T") },
    { "thread", 0, 0, G_OPTION_ARG_STRING_ARRAY, &threads, N_("Only these threads (tid or name; repeat for more)"), N_("TID|NAME") },
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind_text, N_("What to weigh: cpu (default), cpu-waiting, alloc, lock, wait, park, sleep, io, exception, wall, or an event type"), N_("KIND") },
    { "folded", 0, 0, G_OPTION_ARG_NONE, &folded, N_("Print folded stacks (flamegraph.pl, speedscope)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the call tree as JSON (docs/profile.md)"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print the method table as CSV"), NULL },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, N_("Only the N heaviest lines, methods or children per node"), N_("N") },
    { "flame", 0, 0, G_OPTION_ARG_FILENAME, &flame_path, N_("Also write the flame graph to FILE (.svg or .png)"), N_("FILE") },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, N_("Width of the flame graph in pixels (1200)"), N_("PX") },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, N_("Draw the flame graph with the dark style"), NULL },
    { "colors", 0, 0, G_OPTION_ARG_STRING, &colors, N_("Colour the flame graph by package (default), frame-kind or kernel-state"), N_("MODE") },
    { "pid", 0, 0, G_OPTION_ARG_INT64, &pid, JVMS_CLI_PID_HELP, N_("PID") },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, N_("Keep indexes in DIR instead of the user cache folder"), N_("DIR") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("TRACE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("TRACE — where in the code did the time go?"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("jvmscope-cli profile: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL || folded + json + csv > 1 || top == 0 || top < -1)
    {
      g_printerr ("%s\n", _(USAGE));
      return 2;
    }
  g_autoptr(GEnumClass) color_modes = g_type_class_ref (JVMS_TYPE_FLAME_COLOR_MODE);
  const GEnumValue *color_mode = g_enum_get_value_by_nick (color_modes, colors != NULL ? colors : "package");
  if (flame_path != NULL && (width < 100 || width > 16384 || color_mode == NULL))
    {
      g_printerr (_("jvmscope-cli profile: --width from 100 to 16384 pixels; --colors package, frame-kind or kernel-state\n"));
      return 2;
    }
  gint64 from_offset, to_offset;
  if (!jvms_cli_time_range_parse (from, to, &from_offset, &to_offset, &error))
    {
      g_printerr ("jvmscope-cli profile: %s\n", error->message);
      return 2;
    }
  JvmsProfileKind kind = JVMS_PROFILE_KIND_CPU;
  const char *event_type = NULL;
  if (kind_text != NULL)
    jvms_profile_kind_parse (kind_text, &kind, &event_type);

  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (files[0], &error);
  if (index == NULL)
    {
      g_printerr ("jvmscope-cli profile: %s\n", error->message);
      return 1;
    }
  jvms_trace_index_set_cache_dir (index, cache_dir);
  if (!jvms_trace_index_load (index, NULL, &error))
    {
      g_printerr ("jvmscope-cli profile: %s\n", error->message);
      return 1;
    }
  g_autoptr(JvmsHistory) history = jvms_trace_index_dup_history (index);
  g_autoptr(JvmsRecordingInfo) recording =
    jvms_recording_info_from_metadata (jvms_history_get_metadata (history, "recording"));
  g_autoptr(JvmsProfile) profile = jvms_profile_open (jvms_trace_index_get_samples_path (index), &error);
  if (profile == NULL)
    {
      g_printerr ("jvmscope-cli profile: %s\n", error->message);
      return 1;
    }
  JvmsSamplesStore *store = jvms_profile_get_store (profile);
  /* Stacks come from a flight recording, whose JVM is the recorded one: the choice matters
   * only where there are samples (a kernel-only trace has none: no JVM to ask for), and a pid
   * that is not the recorded JVM is refused as analyze refuses it. */
  gint64 jvm_pid;
  if (!jvms_cli_choose_jvm ("profile", history, files[0], pid, jvms_samples_store_get_n_samples (store) > 0, &jvm_pid))
    return 2;
  if (kind == JVMS_PROFILE_KIND_EVENT_TYPE && jvms_samples_store_find_type (store, event_type) == JVMS_SAMPLES_NONE)
    {
      g_printerr (_("jvmscope-cli profile: “%s” is neither a kind nor an event type with stack traces in this trace; its event types with stack traces are:"),
                  event_type);
      for (guint t = 0; t < jvms_samples_store_get_n_types (store); t++)
        {
          const char *name;
          jvms_samples_store_get_type (store, t, &name, NULL, NULL, NULL, NULL);
          g_printerr (" %s", name);
        }
      g_printerr ("\n");
      return 2;
    }
  g_autoptr(GArray) tids = resolve_threads (profile, threads, &error);
  if (tids == NULL)
    {
      g_printerr ("jvmscope-cli profile: %s\n", error->message);
      return 1;
    }

  /* The whole trace by default: samples of events that began before the first chunk's start
   * (a sleep spanning a rotation) belong to it too. */
  gint64 start = jvms_history_get_start_time (history);
  gint64 first = jvms_samples_store_get_n_samples (store) > 0 ? jvms_samples_store_get_first_time (store) : start;
  gint64 last = jvms_samples_store_get_n_samples (store) > 0 ? jvms_samples_store_get_last_time (store) + 1 : start;
  JvmsProfileQuery query = {
    .from = from != NULL ? jvms_cli_time_at (start, from_offset) : MIN (start, first),
    .to = to != NULL ? jvms_cli_time_at (start, to_offset) : MAX (jvms_history_get_end_time (history), last),
    .tids = threads != NULL ? (const gint64 *) tids->data : NULL,
    .n_tids = tids->len,
    .kind = kind,
    .event_type = event_type,
  };
  g_autoptr(JvmsCallTree) tree = jvms_profile_query (profile, &query, NULL, &error);
  if (tree == NULL)
    {
      g_printerr ("jvmscope-cli profile: %s\n", error->message);
      return 1;
    }

  if (flame_path != NULL)
    {
      g_autoptr(GFile) flame_file = g_file_new_for_commandline_arg (flame_path);
      JvmsFlamePaint paint = { tree, 0, color_mode->value, NULL };
      if (!jvms_flame_paint_write (&paint, width, dark, flame_file, &error))
        {
          g_printerr ("jvmscope-cli profile: %s\n", error->message);
          return 1;
        }
    }

  guint limit = top > 0 ? (guint) top : 0;
  if (flame_path != NULL && !folded && !json && !csv)
    ; /* the file is the answer */
  else if (folded)
    {
      g_autofree char *text = jvms_call_tree_to_folded (tree, limit);
      fputs (text, stdout);
    }
  else if (csv)
    {
      g_autofree char *text = jvms_call_tree_to_csv (tree, limit);
      fputs (text, stdout);
    }
  else if (json)
    {
      g_autoptr(JsonNode) root = jvms_call_tree_to_json (tree, start, limit);
      JsonObject *o = json_node_get_object (root);
      json_object_set_string_member (o, "trace", files[0]);
      JsonArray *ts = json_array_new ();
      for (guint i = 0; threads != NULL && i < tids->len; i++)
        json_array_add_int_element (ts, g_array_index (tids, gint64, i));
      json_object_set_array_member (o, "threads", ts);
      if (recording != NULL)
        {
          g_autoptr(JsonBuilder) b = json_builder_new ();
          jvms_recording_info_add_json (recording, b);
          json_object_set_member (o, "recording", json_builder_get_root (b));
        }
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      json_generator_set_pretty (gen, TRUE);
      json_generator_set_root (gen, root);
      g_autofree char *text = json_generator_to_data (gen, NULL);
      printf ("%s\n", text);
    }
  else
    print_text (files[0], tree, recording, start, threads != NULL ? tids->len : 0,
                top > 0 ? (guint) top : 20);

  g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (index);
  for (guint i = 0; warnings[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), warnings[i]);
  g_auto(GStrv) notes = jvms_trace_index_dup_notes (index);
  for (guint i = 0; notes[i] != NULL; i++)
    g_printerr (_("note: %s\n"), notes[i]);
  if (jvms_call_tree_get_samples (tree) == 0)
    note_other_types (store);
  if ((kind == JVMS_PROFILE_KIND_CPU_WAITING) && !jvms_samples_store_has_kernel_states (store))
    g_printerr ("%s\n", _("note: this trace has no kernel layer: no CPU sample is known to have waited for a CPU (record with jvmscope-cli record)"));
  return 0;
}
