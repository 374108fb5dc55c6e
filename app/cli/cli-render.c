/* cli-render.c: jvmscope-cli render — the window's views drawn into a PNG or SVG file by the
 * same widget code (docs/views.md, "Rendered from the command line"), every row of each view
 * with its legend, under the time ruler. GTK needs a display even to draw offscreen: without
 * one the command says so (run it under `xvfb-run -a`). */
#include "config.h"

#include <cairo-svg.h>
#include <string.h>
#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "cli-commands.h"
#include "cli-jvm.h"
#include "cli-time.h"
#include "jvms-allocation-view.h"
#include "jvms-events-view.h"
#include "jvms-counters-view.h"
#include "jvms-cpus-view.h"
#include "jvms-event-store.h"
#include "jvms-jit-view.h"
#include "jvms-object-age-samples.h"
#include "jvms-object-age-view.h"
#include "jvms-quantum-lane.h"
#include "jvms-quantum-scale.h"
#include "jvms-threads-view.h"
#include "jvms-states.h"
#include "jvms-thread-list.h"
#include "jvms-session.h"
#include "jvms-time-ruler.h"
#include "jvms-trace-index.h"
#include "jvms-view-catalog.h"

#define USAGE N_("Usage: jvmscope-cli render TRACE -o OUT.png|OUT.svg [--views LIST|all] [--from T] [--to T] [--width PX] [--dark] [--pid PID] [--event-type T]... [--colour-by state|cpu|thread] [--shade METRIC]")
/* Wider than any screen, and an image of at most 2^31 bytes a row. */
#define MAX_WIDTH 16384
/* Cairo's limit on an image surface's side. */
#define MAX_HEIGHT 32767


/* @list ("jit,gc" or "all") as a bit per entry of views[]. FALSE with an error naming the
 * first unknown name. */
static gboolean
parse_views (const char  *list,
             guint       *out,
             GError     **error)
{
  g_auto(GStrv) names = g_strsplit (list, ",", -1);

  *out = 0;
  for (guint i = 0; names[i] != NULL; i++)
    {
      const char *name = g_strstrip (names[i]);
      gboolean known = FALSE;
      if (g_str_equal (name, "all"))
        {
          *out = (1u << JVMS_N_VIEW_KINDS) - 1;
          continue;
        }
      for (guint v = 0; v < JVMS_N_VIEW_KINDS; v++)
        if (g_str_equal (name, jvms_view_kinds[v].name))
          {
            *out |= 1u << v;
            known = TRUE;
          }
      if (!known)
        {
          g_autoptr(GString) names_known = g_string_new (NULL);
          for (guint v = 0; v < JVMS_N_VIEW_KINDS; v++)
            g_string_append_printf (names_known, "%s, ", jvms_view_kinds[v].name);
          g_string_append (names_known, "all");
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--views: no view is called '%s' (the views: %s)"), name,
                       names_known->str);
          return FALSE;
        }
    }
  if (*out == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--views: no view named"));
      return FALSE;
    }
  return TRUE;
}

/* What the window hands a view beside the index: the old-object samples, the event store. */
static gboolean
feed_view (GtkWidget       *view,
           JvmsTraceIndex  *index,
           JvmsEventStore  *store,
           GStrv            event_types,
           GError         **error)
{
  if (JVMS_IS_OBJECT_AGE_VIEW (view) && jvms_trace_index_get_samples_path (index) != NULL)
    {
      g_autoptr(GArray) samples = jvms_object_age_samples_read (jvms_trace_index_get_samples_path (index),
                                                                NULL, error);
      if (samples == NULL)
        return FALSE;
      jvms_object_age_view_set_samples (JVMS_OBJECT_AGE_VIEW (view),
                                        (const JvmsObjectAgeSample *) samples->data, samples->len);
    }
  if (JVMS_IS_JIT_VIEW (view))
    jvms_jit_view_set_event_store (JVMS_JIT_VIEW (view), store);
  if (JVMS_IS_ALLOCATION_VIEW (view))
    jvms_allocation_view_set_event_store (JVMS_ALLOCATION_VIEW (view), store);
  if (JVMS_IS_EVENTS_VIEW (view))
    {
      jvms_events_view_set_types (JVMS_EVENTS_VIEW (view), (const char * const *) event_types);
      jvms_events_view_set_event_store (JVMS_EVENTS_VIEW (view), store);
    }
  return TRUE;
}

/* Where each thread's row of @view, drawn at @y, is in the image, as "TID:Y" separated by
 * spaces (the row's top; the threads of folded groups have none), after the data area's
 * first column: what a script needs to read a thread's lanes in the image. */
static void
threads_rows (GString    *out,
              GtkWidget  *view,
              JvmsHistory *history,
              int         width,
              int         y)
{
  g_autoptr(JvmsThreadList) threads = jvms_thread_list_read (history);
  int top = y + jvms_timeline_get_legend_height (JVMS_TIMELINE (view), width);
  /* Each shown thread's row top, read row by row: a search per thread
   * (jvms_threads_view_get_row_y) is quadratic at thousands of threads. */
  g_autoptr(GHashTable) row_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  gint64 tid;
  for (guint i = 0; jvms_threads_view_get_row_y_at (JVMS_THREADS_VIEW (view), i) >= 0; i++)
    if (jvms_threads_view_get_row_tid (JVMS_THREADS_VIEW (view), i, &tid) && !g_hash_table_contains (row_of, &tid))
      g_hash_table_insert (row_of, g_memdup2 (&tid, sizeof tid),
                           GINT_TO_POINTER (jvms_threads_view_get_row_y_at (JVMS_THREADS_VIEW (view), i) + 1));

  g_string_append_printf (out, "x0=%d", MIN (JVMS_TIMELINE_GUTTER, width / 3));
  for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      int row = GPOINTER_TO_INT (g_hash_table_lookup (row_of, &t->tid)) - 1;
      if (row >= 0 && t->kind != JVMS_THREAD_KIND_OTHER_PROCESS)
        g_string_append_printf (out, " %" G_GINT64_FORMAT ":%d", t->tid, top + row);
    }
}

/* Whether @shade names a shade of @trace's quanta; if not, says so with the names there are. */
static gboolean
shade_known (JvmsHistory *history,
             const char  *trace,
             const char  *shade)
{
  g_autoptr(JvmsThreadList) threads = jvms_thread_list_read (history);
  g_auto(GStrv) names = jvms_quantum_shade_names (history, threads);

  if (g_strv_contains ((const char * const *) names, shade))
    return TRUE;
  g_autofree char *list = g_strjoinv (", ", names);
  g_printerr (_("jvmscope-cli render: --shade %s: %s has no such shade; its shades are: %s\n"),
              shade, trace, list);
  return FALSE;
}

/* The natural height of @widget at @width: what the window gives it unscrolled. */
static int
height_for (GtkWidget *widget,
            int        width)
{
  int min = 0, nat = 0;
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, width, &min, &nat, NULL, NULL);
  return MAX (nat, min);
}

int
jvms_cli_render (int argc, char **argv)
{
  g_autofree char *from = NULL, *to = NULL, *out_path = NULL, *views_list = NULL;
  g_autofree char *cache_dir = NULL;
  gint64 pid = 0;
  gint width = 1600;
  gboolean dark = FALSE;
  g_auto(GStrv) files = NULL;
  g_auto(GStrv) event_types = NULL;
  g_autofree char *colour_by = NULL, *shade = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_path, N_("Write the image to FILE (.png or .svg)"), N_("FILE") },
    { "views", 0, 0, G_OPTION_ARG_STRING, &views_list, N_("The views to draw, separated by commas, or all (the default)"), N_("LIST") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("Start of the range, from the trace start (1.5, 200ms, 40us)"), N_("T") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("End of the range, from the trace start"), N_("T") },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, N_("Width of the image in pixels (1600)"), N_("PX") },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, N_("Draw with the dark style"), NULL },
    { "pid", 0, 0, G_OPTION_ARG_INT64, &pid, JVMS_CLI_PID_HELP, N_("PID") },
    { "event-type", 0, 0, G_OPTION_ARG_STRING_ARRAY, &event_types, N_("The events view's lanes: a type or a pattern (syscall:*); repeat for more (default: every type outside jdk.*)"), N_("T") },
    { "colour-by", 0, 0, G_OPTION_ARG_STRING, &colour_by, N_("The threads view's time on a CPU coloured by state (the default), cpu or thread, with a glyph where each quantum was preempted or yielded"), N_("WHAT") },
    { "shade", 0, 0, G_OPTION_ARG_STRING, &shade, N_("Shade each quantum of the threads view by a counter (task-clock, cycles, ...), ipc or miss-ratio"), N_("METRIC") },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, N_("Keep indexes in DIR instead of the user cache folder"), N_("DIR") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("TRACE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("TRACE — draw the views of a trace into an image"));
  g_autoptr(GError) error = NULL;
  guint chosen = 0;
  gint64 from_offset, to_offset;
  gboolean svg;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("jvmscope-cli render: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL || out_path == NULL)
    {
      g_printerr ("%s\n", _(USAGE));
      return 2;
    }
  svg = g_str_has_suffix (out_path, ".svg");
  if (!svg && !g_str_has_suffix (out_path, ".png"))
    {
      g_printerr (_("jvmscope-cli render: %s: the image is written as PNG or SVG, named .png or .svg\n"),
                  out_path);
      return 2;
    }
  if (width < 400 || width > MAX_WIDTH)
    {
      g_printerr (_("jvmscope-cli render: --width %d: from 400 to %d pixels\n"), width, MAX_WIDTH);
      return 2;
    }
  JvmsQuantumColour colour;
  if (colour_by != NULL && !jvms_quantum_colour_parse (colour_by, &colour))
    {
      g_printerr (_("jvmscope-cli render: --colour-by %s: state, cpu or thread\n"), colour_by);
      return 2;
    }
  if (!parse_views (views_list != NULL ? views_list : "all", &chosen, &error) ||
      !jvms_cli_time_range_parse (from, to, &from_offset, &to_offset, &error))
    {
      g_printerr ("jvmscope-cli render: %s\n", error->message);
      return 2;
    }
  /* A file has no reader of the accessibility tree: no session bus is asked for one. */
  g_setenv ("GTK_A11Y", "none", FALSE);
  /* Nor any use for GL: the views are drawn with cairo into an image. Without this, GDK on X11
   * opens EGL at start-up and loads the GPU driver for nothing (Mesa 22.3's, unloaded at exit,
   * also leaves 128 bytes that LeakSanitizer reports without a name). The switch moved from
   * GDK_DEBUG to GDK_DISABLE in GTK 4.16; a value the user set is kept. */
  if (gtk_get_major_version () == 4 && gtk_get_minor_version () < 16)
    g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  else
    g_setenv ("GDK_DISABLE", "gl", FALSE);
  if (!gtk_init_check ())
    {
      g_printerr (_("jvmscope-cli render: no display: GTK draws the views even into a file; run it "
                    "where a display is (or under xvfb-run -a)\n"));
      return 1;
    }

  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (files[0], &error);
  if (index == NULL)
    {
      g_printerr ("jvmscope-cli render: %s\n", error->message);
      return 1;
    }
  jvms_trace_index_set_cache_dir (index, cache_dir);
  if (!jvms_trace_index_load (index, NULL, &error))
    {
      g_printerr ("jvmscope-cli render: %s\n", error->message);
      return 1;
    }
  g_autoptr(JvmsHistory) history = jvms_trace_index_dup_history (index);
  /* The views draw the JVM chosen as the window's do once the user chose it. */
  gint64 jvm_pid;
  if (!jvms_cli_choose_jvm ("render", history, files[0], pid, TRUE, &jvm_pid))
    return 2;
  if (shade != NULL && !shade_known (history, files[0], shade))
    return 2;
  g_autoptr(JvmsEventStore) store = NULL;
  if (jvms_trace_index_get_events_path (index) != NULL)
    {
      store = jvms_event_store_open (jvms_trace_index_get_events_path (index), &error);
      if (store == NULL)
        {
          /* The views draw without it (the JIT view has no deoptimization row then). */
          g_printerr ("jvmscope-cli render: warning: %s\n", error->message);
          g_clear_error (&error);
        }
    }

  gint64 start = jvms_history_get_start_time (history), end = jvms_history_get_end_time (history);
  gint64 t0 = from != NULL ? jvms_cli_time_at (start, from_offset) : start;
  gint64 t1 = to != NULL ? MIN (jvms_cli_time_at (start, to_offset), end) : end;
  if (t0 >= t1)
    {
      g_printerr (_("jvmscope-cli render: %s: the range is outside the trace, which lasts %.3f s\n"),
                  files[0], (end - start) / 1e9);
      return 2;
    }

  g_autoptr(JvmsSession) session = jvms_session_new ();
  jvms_session_set_history (session, history);
  jvms_session_set_visible (session, t0, t1, FALSE);
  jvms_session_set_quantum_colour (session, colour_by);
  jvms_session_set_quantum_shade (session, shade);
  /* The shade's scale over the whole trace, before the views draw (the window finds it in a
   * worker). */
  if (shade != NULL)
    jvms_quantum_scale_prepare (history, shade);

  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (parts, g_object_ref_sink (jvms_time_ruler_new (session)));
  for (guint v = 0; v < JVMS_N_VIEW_KINDS; v++)
    if (chosen & (1u << v))
      {
        GtkWidget *view = g_object_ref_sink (jvms_view_kinds[v].create (session));
        g_ptr_array_add (parts, view);
        if (!feed_view (view, index, store, event_types, &error))
          {
            g_printerr ("jvmscope-cli render: %s\n", error->message);
            return 1;
          }
      }

  /* Each part at the height it asks for at this width: every row, unscrolled. */
  g_autofree int *heights = g_new (int, parts->len);
  int height = 0;
  for (guint i = 0; i < parts->len; i++)
    {
      heights[i] = height_for (parts->pdata[i], width);
      height += heights[i];
    }
  if (height > MAX_HEIGHT && !svg)
    {
      g_printerr (_("jvmscope-cli render: %s: the views are %d pixels high, more than a PNG image "
                    "can hold here (%d): choose fewer views, or write an SVG\n"),
                  out_path, height, MAX_HEIGHT);
      return 1;
    }

  cairo_surface_t *surface = svg ? cairo_svg_surface_create (out_path, width, height)
                                 : cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, MAX (height, 1));
  cairo_t *cr = cairo_create (surface);
  int y = 0;
  g_autoptr(GString) rows = g_string_new (NULL);
  g_autoptr(GString) cpu_rows = g_string_new (NULL);
  for (guint i = 0; i < parts->len; i++)
    {
      cairo_save (cr);
      cairo_translate (cr, 0, y);
      cairo_rectangle (cr, 0, 0, width, heights[i]);
      cairo_clip (cr);
      if (JVMS_IS_TIME_RULER (parts->pdata[i]))
        jvms_time_ruler_render (parts->pdata[i], cr, width, heights[i], dark);
      else
        jvms_timeline_render (parts->pdata[i], cr, width, heights[i], dark);
      cairo_restore (cr);
      if (JVMS_IS_THREADS_VIEW (parts->pdata[i]) && (colour_by != NULL || shade != NULL))
        threads_rows (rows, parts->pdata[i], history, width, y);
      if (JVMS_IS_CPUS_VIEW (parts->pdata[i]) && (colour_by != NULL || shade != NULL))
        {
          /* The data begin below the legend, or half-way down a view too short for all of it
           * (jvms-timeline.c's geometry): the CPUs view often is. */
          int top = y + MIN (jvms_timeline_get_legend_height (JVMS_TIMELINE (parts->pdata[i]), width),
                             heights[i] / 2);
          g_string_append_printf (cpu_rows, "x0=%d", MIN (JVMS_TIMELINE_GUTTER, width / 3));
          for (guint c = 0; c < jvms_cpus_view_get_n_cpus (parts->pdata[i]); c++)
            g_string_append_printf (cpu_rows, " %" G_GINT64_FORMAT ":%d",
                                    jvms_cpus_view_get_cpu (parts->pdata[i], c), top + (int) c * JVMS_CPUS_VIEW_ROW_HEIGHT);
        }
      y += heights[i];
    }
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cairo_status_t status = svg ? CAIRO_STATUS_SUCCESS
                                : cairo_surface_write_to_png (surface, out_path);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_printerr ("jvmscope-cli render: %s: %s\n", out_path, cairo_status_to_string (status));
      return 1;
    }
  g_print ("%s: %d x %d pixels, %u views\n", out_path, width, height, parts->len - 1);
  if (cpu_rows->len > 0)
    g_print ("cpus rows: %s\n", cpu_rows->str);
  /* What the quanta's shades mean, for a reader of the image without its legend. */
  for (guint i = 0; i < parts->len; i++)
    if (JVMS_IS_THREADS_VIEW (parts->pdata[i]) && (colour_by != NULL || shade != NULL))
      {
        g_autofree char *summary = jvms_threads_view_dup_quantum_summary (parts->pdata[i]);
        g_print ("threads: %s\n", summary);
        g_print ("threads rows: %s\n", rows->str);
        if (shade != NULL && strstr (summary, "(not recorded") != NULL)
          g_printerr (_("jvmscope-cli render: warning: --shade %s: no thread of %s has that counter "
                        "(the shades: a counter of `jvmscope-cli records`, ipc, miss-ratio)\n"),
                      shade, files[0]);
      }
  return 0;
}
