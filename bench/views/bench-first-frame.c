/* bench-first-frame.c: the time from launch to the first frame drawn from the live history,
 * as the window gets there: the views built, JvmsTraceIndex's async load, its live history
 * looked at whenever the index notifies (the window follows its "history" and "fraction"
 * notifications the same way), and every view rendered once offscreen. */
#include "config.h"

#include <glib/gstdio.h>
#include <time.h>
#include <unistd.h>

#include "bench-first-frame.h"
#include "jvms-counters-view.h"
#include "jvms-cpus-view.h"
#include "jvms-gc-view.h"
#include "jvms-locks-view.h"
#include "jvms-object-age-view.h"
#include "jvms-threads-view.h"
#include "jvms-time-ruler.h"
#include "jvms-trace-index.h"
#include "jvms-view-render.h"

/* Seconds since this process was started (exec), from the kernel's start time: what a user
 * waits counts from launch, dynamic linking and GTK's start included. */
double
jvms_bench_seconds_since_launch (void)
{
  g_autofree char *stat = NULL;
  struct timespec now;
  const char *p;
  guint64 start_ticks = 0;

  clock_gettime (CLOCK_BOOTTIME, &now);
  if (!g_file_get_contents ("/proc/self/stat", &stat, NULL, NULL) ||
      (p = strrchr (stat, ')')) == NULL)
    return -1;
  /* Field 22 (starttime): the command (field 2) ends at the last ')', and each space after it
   * begins the next field. */
  for (int field = 2; field < 22 && p != NULL; field++)
    p = strchr (p + 1, ' ');
  if (p == NULL)
    return -1;
  start_ticks = g_ascii_strtoull (p + 1, NULL, 10);
  return now.tv_sec + now.tv_nsec / 1e9 - (double) start_ticks / sysconf (_SC_CLK_TCK);
}

void
jvms_bench_new_views (JvmsSession *session,
                      GtkWidget   *views[JVMS_BENCH_N_VIEWS])
{
  views[0] = jvms_threads_view_new (session);
  views[1] = jvms_cpus_view_new (session);
  views[2] = jvms_locks_view_new (session);
  views[3] = jvms_gc_view_new (session);
  views[4] = jvms_counters_view_new (session);
  views[5] = jvms_object_age_view_new (session);
  views[6] = jvms_time_ruler_new (session);
  for (guint v = 0; v < JVMS_BENCH_N_VIEWS; v++)
    g_object_ref_sink (views[v]);
}

static void
run (const char *const *argv)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                     &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("bench-views: %s: %s", argv[0], error->message);
}

static guint64
trace_bytes (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;
  GStatBuf st;
  guint64 total = 0;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return g_stat (path, &st) == 0 ? (guint64) st.st_size : 0;
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_stat (child, &st) == 0 && S_ISREG (st.st_mode))
        total += (guint64) st.st_size;
    }
  return total;
}

char *
jvms_bench_recorded_trace (const char *cache_dir,
                           int         seconds)
{
  g_autofree char *base = g_build_filename (cache_dir, "jvmscope-bench-views", NULL);
  g_autofree char *name = g_strdup_printf ("handoff-%ds.jvmtrace", seconds);
  g_autofree char *bundle = g_build_filename (base, name, NULL);
  g_autofree char *json = g_build_filename (bundle, "bundle.json", NULL);
  g_autofree char *classes = g_build_filename (base, "classes", NULL);
  g_autofree char *secs = g_strdup_printf ("%d", seconds);

  if (g_file_test (json, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&bundle);
  g_mkdir_with_parents (base, 0700);
  g_printerr ("bench-views: recording %d s of Handoff (JFR and perf) into %s\n", seconds, bundle);
  {
    const char *javac[] = { "javac", "-d", classes, BENCH_INDEX_SRCDIR "/Handoff.java", NULL };
    const char *record[] = { "nice", "-n", "10", JVMS_CLI, "record", "-o", bundle, "--",
                             "java", "-cp", classes, "Handoff", secs, NULL };
    run (javac);
    run (record);
  }
  return g_steal_pointer (&bundle);
}

static void
load_done (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  gboolean *done = data;
  g_autoptr(GError) error = NULL;

  if (!jvms_trace_index_load_finish (JVMS_TRACE_INDEX (source), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_printerr ("bench-views: %s\n", error->message);
  *done = TRUE;
}

gboolean
jvms_bench_first_frame (const char *trace,
                        int         width,
                        int         height)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsTraceIndex) index = NULL;
  g_autoptr(JvmsSession) session = jvms_session_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *tmp = g_dir_make_tmp ("jvmscope-first-frame-XXXXXX", &error);
  g_autoptr(JvmsHistory) history = NULL;
  GtkWidget *views[JVMS_BENCH_N_VIEWS];
  cairo_surface_t *surface;
  gboolean done = FALSE;
  double seconds;

  if (tmp == NULL)
    {
      g_printerr ("bench-views: %s\n", error->message);
      return FALSE;
    }
  index = jvms_trace_index_new (trace, &error);
  if (index == NULL)
    {
      g_printerr ("bench-views: %s\n", error->message);
      return FALSE;
    }
  /* A fresh index in a folder of our own: the first launch on this trace. */
  jvms_trace_index_set_cache_dir (index, tmp);
  jvms_trace_index_set_force_rebuild (index, TRUE);
  /* As the window does (jvms-window.c), the views are built before indexing begins. */
  jvms_bench_new_views (session, views);
  g_print ("# first frame: views built %.3f s after launch\n", jvms_bench_seconds_since_launch ());
  g_print ("# first frame: indexing starts %.3f s after launch\n",
           jvms_bench_seconds_since_launch ());
  jvms_trace_index_load_async (index, cancellable, load_done, &done);

  /* The window shows its views, empty, while the worker reads the first events: fonts and
   * glyphs are loaded then, not in the first frame with data. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  for (guint v = 0; v < JVMS_BENCH_N_VIEWS; v++)
    {
      cairo_t *cr = cairo_create (surface);
      jvms_view_render (views[v], cr, width, height);
      cairo_destroy (cr);
    }
  cairo_surface_destroy (surface);
  g_print ("# first frame: empty views drawn %.3f s after launch\n",
           jvms_bench_seconds_since_launch ());

  /* Each notification of the index (fraction, history, phase) is a source in this context:
   * the loop wakes with it. */
  while (!done)
    {
      g_main_context_iteration (NULL, TRUE);
      history = jvms_trace_index_dup_history (index);
      if (history != NULL && jvms_history_get_n_intervals (history) > 0)
        break;
      g_clear_pointer (&history, jvms_history_unref);
    }

  if (history != NULL)
    {
      g_print ("# first frame: live history with intervals %.3f s after launch\n",
               jvms_bench_seconds_since_launch ());
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(GString) each = g_string_new (NULL);

      jvms_session_set_history (session, history);
      g_string_append_printf (each, " set_history %.0f", (g_get_monotonic_time () - t0) / 1e3);
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      for (guint v = 0; v < G_N_ELEMENTS (views); v++)
        {
          cairo_t *cr = cairo_create (surface);
          gint64 t1 = g_get_monotonic_time ();
          jvms_view_render (views[v], cr, width, height);
          cairo_destroy (cr);
          g_string_append_printf (each, " %s %.0f", G_OBJECT_TYPE_NAME (views[v]),
                                  (g_get_monotonic_time () - t1) / 1e3);
        }
      g_print ("# first frame: ms spent in%s\n", each->str);
      cairo_surface_flush (surface);
      seconds = jvms_bench_seconds_since_launch ();
      {
        struct timespec cpu;
        clock_gettime (CLOCK_THREAD_CPUTIME_ID, &cpu);
        /* What the path to the first frame cost the main thread, whatever else the machine
         * runs: a loaded machine inflates the wall time above. */
        g_print ("figure first_frame_main_cpu %.3f s\n", cpu.tv_sec + cpu.tv_nsec / 1e9);
      }
      cairo_surface_destroy (surface);
      g_print ("# first frame: %.1f MB trace %s, %" G_GUINT64_FORMAT " intervals indexed so far, "
               "indexing %s\n", trace_bytes (trace) / 1e6, trace,
               jvms_history_get_n_intervals (history), done ? "finished" : "still going on");
      g_print ("figure first_frame_trace_mb %.1f MB\n", trace_bytes (trace) / 1e6);
      g_print ("figure first_frame %.3f s\n", seconds);
    }
  else
    g_printerr ("bench-views: indexing %s ended with no interval to draw\n", trace);

  /* Stop the build: the bench goes on with the other figures on a quiet machine. */
  g_cancellable_cancel (cancellable);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  jvms_session_set_history (session, NULL);
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    g_object_unref (views[v]);
  g_clear_object (&index);
  {
    g_autoptr(GDir) dir = g_dir_open (tmp, 0, NULL);
    const char *name;
    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (tmp, name, NULL);
        g_unlink (child);
      }
    g_rmdir (tmp);
  }
  return history != NULL;
}
