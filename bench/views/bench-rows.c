/* bench-rows: what issue 27 asks of the rows: frames of the threads view over 100 (the
 * baseline), 10,000 and 100,000 thread rows, scrolling and zooming in a window 600 pixels high,
 * in the same run.
 *
 *   bench-rows [--frames N] [--changes N] [--cache-dir DIR] [--rows N ...]
 *
 * Each history is synthetic (tests/common/jvms-synthetic-history.c): N threads, each changing
 * state about --changes times (default 40) over the trace, so that a row holds as much at every
 * row count and only the number of rows differs. Histories are built once (niced) and kept in
 * the cache folder (default /tmp) under a name that carries N.
 *
 * The view lists every thread (grouping "none"), each its own row. A frame either scrolls to a
 * random row at the zoom of the frame before or zooms to a random range (log-uniform span from
 * 10 µs to the whole trace) where it is, alternately, and renders what a frame on screen draws
 * there: the rows in sight rounded out to chunks of 512 pixels with a chunk each side
 * (narrow_to_screen() in widgets/jvms-timeline.c), queried and drawn from scratch.
 *
 * First frame: for each row count, --first times (default 5) from nothing to the first frame
 * on screen of an indexed recording of R threads: the index opened, a session on it, the threads
 * view made with the window's grouping (by kind: the workers one folded pool, whose summary lane
 * counts every thread's states) in a scrolled window 1920 x 600 pixels, shown, until the frame
 * clock's first paint with the view in it (as on screen, the pool's summary counts a budget of
 * threads in that frame and the rest in the frames after). Then the first complete frame: the
 * same drawn offscreen, as an export does, which counts every thread of the pool first. The
 * history is built before and its file is in the page cache, as when the window opens a
 * recording it indexed.
 *
 * Prints, for each row count R (100, 10k, 100k): figure first_frame_R_threads_ms,
 * first_frame_cpu_R_threads_ms, first_complete_frame_R_threads_ms and
 * first_complete_frame_cpu_R_threads_ms (medians), figure rows_R, frame_p50_R_rows,
 * frame_p99_R_rows (ms, wall: query and draw), frame_cpu_p50_R_rows, frame_cpu_p99_R_rows (ms
 * of CPU of the process), and ratio frame_p99_R_rows, first_frame_R_threads and
 * first_complete_frame_R_threads (over the baseline's, the first row count). GTK needs a display: run under xvfb-run -a when there is
 * none. */
#include "config.h"

#include <adwaita.h>
#include <math.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench-common.h"
#include "jvms-synthetic-history.h"
#include "jvms-threads-view.h"

#define WIDTH 1920
#define HEIGHT 600
/* As BAND_CHUNK in widgets/jvms-timeline.c: a frame draws the rows on screen rounded out to
 * these, one more each side. */
#define CHUNK 512

static int n_frames = 200;
static int n_first = 5;
static int n_changes = 40;
static char *cache_dir;
static char **row_counts;

/* "100", "10k", "100k": the figure's name for a row count. */
static char *
rows_label (guint n)
{
  return n % 1000 == 0 ? g_strdup_printf ("%uk", n / 1000) : g_strdup_printf ("%u", n);
}

typedef struct
{
  const char                 *path;
  const JvmsSyntheticOptions *options;
  GError                     *error;
} WriteJob;

static gpointer
write_thread (gpointer data)
{
  WriteJob *job = data;

  /* The generation yields to the other users of a shared machine; the frames measured later
   * in the main thread keep their priority. */
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 19);
  return GINT_TO_POINTER (jvms_synthetic_history_write (job->path, job->options, &job->error));
}

static char *
history_path (guint n)
{
  return g_strdup_printf ("%s/jvmscope-bench-rows-%u-%d-v1.jvmsidx", cache_dir, n, n_changes);
}

/* The history of @n threads, built unless the cache folder has it. */
static JvmsHistory *
open_history (guint    n,
              GError **error)
{
  g_autofree char *path = history_path (n);
  JvmsHistory *history = jvms_history_open (path, (gsize) 512 << 20, NULL);
  JvmsSyntheticOptions options;
  WriteJob job = { path, &options, NULL };
  gint64 t0;

  if (history != NULL)
    return history;
  jvms_synthetic_options_init (&options);
  options.n_threads = n;
  options.n_cpus = 2;
  options.n_locks = 1;
  options.mean_gap_ns = 1000000;
  options.n_intervals = (guint64) n * (guint64) n_changes;
  g_printerr ("bench-rows: building a history of %u threads into %s (niced; once)\n", n, path);
  t0 = g_get_monotonic_time ();
  if (!GPOINTER_TO_INT (g_thread_join (g_thread_new ("generate", write_thread, &job))))
    {
      g_propagate_error (error, job.error);
      return NULL;
    }
  g_print ("# built %u threads in %.1f s\n", n, (g_get_monotonic_time () - t0) / 1e6);
  return jvms_history_open (path, (gsize) 512 << 20, error);
}

/* Renders what a frame with content row @top at the top of a window HEIGHT pixels high draws:
 * the widget rows of the band narrow_to_screen() picks. */
static void
render_frame (GtkWidget       *view,
              cairo_surface_t *surface,
              int              total,
              double           top)
{
  double band_top = floor (top / CHUNK) * CHUNK - CHUNK;
  double band_bottom = ceil ((top + HEIGHT - JVMS_TIMELINE_LEGEND_HEIGHT) / CHUNK) * CHUNK + CHUNK;
  int y0 = band_top < 0 ? 0 : JVMS_TIMELINE_LEGEND_HEIGHT + (int) band_top;
  int y1 = MIN (total, JVMS_TIMELINE_LEGEND_HEIGHT + (int) band_bottom);
  cairo_t *cr = cairo_create (surface);

  jvms_timeline_render_part (JVMS_TIMELINE (view), cr, WIDTH, total, y0, y1, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
}

typedef struct
{
  GMainLoop *loop;
  GtkWidget *view;
  gboolean   painted;
} FirstPaint;

/* The frame clock painted a frame: the first with the view mapped and sized is the first frame. */
static void
after_paint (GdkFrameClock *clock,
             FirstPaint    *wait)
{
  if (!wait->painted && gtk_widget_get_mapped (wait->view) && gtk_widget_get_height (wait->view) > 0)
    {
      wait->painted = TRUE;
      g_main_loop_quit (wait->loop);
    }
}

static gboolean
window_realized (GtkWidget  *window,
                 FirstPaint *wait)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), wait);
  return FALSE;
}

/* A session on the history at @path, opened now (the session holds it); NULL, said, if not. */
static JvmsSession *
open_session (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistory) history = jvms_history_open (path, (gsize) 512 << 20, &error);
  if (history == NULL)
    {
      g_printerr ("bench-rows: %s\n", error->message);
      return NULL;
    }
  JvmsSession *session = jvms_session_new ();
  jvms_session_set_history (session, history);
  return session;
}

/* One first frame on screen of @path: wall and CPU ms into @wall and @cpu; the rows listed. */
static gboolean
first_frame_on_screen (const char *path,
                       GArray     *wall,
                       GArray     *cpu,
                       guint      *rows)
{
  double t0 = g_get_monotonic_time () / 1e3, c0 = jvms_bench_process_cpu_ms ();
  g_autoptr(JvmsSession) session = open_session (path);
  if (session == NULL)
    return FALSE;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  FirstPaint wait = { loop, jvms_threads_view_new (session), FALSE };
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), wait.view);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  g_signal_connect (window, "realize", G_CALLBACK (window_realized), &wait);
  gtk_window_present (GTK_WINDOW (window));
  g_main_loop_run (loop);
  double cms = jvms_bench_process_cpu_ms () - c0, ms = g_get_monotonic_time () / 1e3 - t0;
  *rows = jvms_timeline_get_n_rows (JVMS_TIMELINE (wait.view));
  g_signal_handlers_disconnect_by_data (gtk_widget_get_frame_clock (window), &wait);
  gtk_window_destroy (GTK_WINDOW (window));
  g_array_append_val (wall, ms);
  g_array_append_val (cpu, cms);
  return TRUE;
}

/* One first complete frame of @path: drawn offscreen, every summary counted. */
static gboolean
first_frame_complete (const char      *path,
                      cairo_surface_t *surface,
                      GArray          *wall,
                      GArray          *cpu)
{
  double t0 = g_get_monotonic_time () / 1e3, c0 = jvms_bench_process_cpu_ms ();
  g_autoptr(JvmsSession) session = open_session (path);
  if (session == NULL)
    return FALSE;
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (session));
  guint rows = jvms_timeline_get_n_rows (JVMS_TIMELINE (view));
  int last_y = 0, last_h = 0;
  if (rows > 0)
    jvms_timeline_get_row_bounds (JVMS_TIMELINE (view), rows - 1, &last_y, &last_h);
  render_frame (view, surface, JVMS_TIMELINE_LEGEND_HEIGHT + last_y + last_h, 0);
  double cms = jvms_bench_process_cpu_ms () - c0, ms = g_get_monotonic_time () / 1e3 - t0;
  g_object_unref (view);
  g_array_append_val (wall, ms);
  g_array_append_val (cpu, cms);
  return TRUE;
}

/* The first frame over @n threads, --first times from scratch, on screen and complete: the
 * medians printed, those on screen and complete (wall) stored in @ms[0], @ms[1]. */
static gboolean
bench_first_frame (guint    n,
                   double   ms[2])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistory) built = open_history (n, &error);
  g_autofree char *path = history_path (n);
  g_autofree char *label = rows_label (n);
  g_autoptr(GArray) wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) full_wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) full_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, 4 * CHUNK + HEIGHT);
  gboolean ok = built != NULL;
  guint rows = 0;

  if (built == NULL)
    g_printerr ("bench-rows: %s\n", error->message);
  g_clear_pointer (&built, jvms_history_unref);
  /* One untimed first: GTK's own first window (its renderer, fonts) is not the rows'. */
  g_autoptr(GArray) scratch = g_array_new (FALSE, FALSE, sizeof (double));
  ok = ok && first_frame_on_screen (path, scratch, scratch, &rows);
  for (int i = 0; ok && i < n_first; i++)
    ok = first_frame_on_screen (path, wall, cpu, &rows)
         && first_frame_complete (path, surface, full_wall, full_cpu);
  cairo_surface_destroy (surface);
  if (!ok)
    return FALSE;
  g_print ("# first frame of %s threads: %u rows (grouped by kind)\n", label, rows);
  ms[0] = jvms_bench_percentile_above_of (wall, 0.5);
  ms[1] = jvms_bench_percentile_above_of (full_wall, 0.5);
  g_print ("figure first_frame_%s_threads_ms %.2f ms\n", label, ms[0]);
  g_print ("figure first_frame_cpu_%s_threads_ms %.2f ms\n", label, jvms_bench_percentile_above_of (cpu, 0.5));
  g_print ("figure first_complete_frame_%s_threads_ms %.2f ms\n", label, ms[1]);
  g_print ("figure first_complete_frame_cpu_%s_threads_ms %.2f ms\n", label, jvms_bench_percentile_above_of (full_cpu, 0.5));
  return TRUE;
}

/* The frames over @n threads; FALSE when the history could not be had. Stores the p99 wall
 * time in @p99. */
static gboolean
bench_rows (guint    n,
            GRand   *rand,
            double  *p99)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistory) history = open_history (n, &error);
  g_autoptr(JvmsSession) session = NULL;
  g_autoptr(GArray) wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *label = rows_label (n);
  GtkWidget *view;
  cairo_surface_t *surface;
  gint64 start, end, s, span;
  double top = 0;
  int total, last_y, last_h;
  guint rows;

  if (history == NULL)
    {
      g_printerr ("bench-rows: %s\n", error->message);
      return FALSE;
    }
  session = jvms_session_new ();
  jvms_session_set_history (session, history);
  start = jvms_session_get_start_time (session);
  end = jvms_session_get_end_time (session);
  view = g_object_ref_sink (jvms_threads_view_new (session));
  jvms_threads_view_set_grouping (JVMS_THREADS_VIEW (view), "none");
  rows = jvms_timeline_get_n_rows (JVMS_TIMELINE (view));
  if (rows == 0 || !jvms_timeline_get_row_bounds (JVMS_TIMELINE (view), rows - 1, &last_y, &last_h))
    {
      g_printerr ("bench-rows: the view of %u threads has no rows\n", n);
      g_object_unref (view);
      return FALSE;
    }
  total = JVMS_TIMELINE_LEGEND_HEIGHT + last_y + last_h;
  g_print ("figure rows_%s %u rows\n", label, rows);
  g_print ("# %s: %" G_GUINT64_FORMAT " intervals, %d pixels of rows\n", label,
           jvms_history_get_n_intervals (history), total);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, 4 * CHUNK + HEIGHT);
  /* One untimed frame first: fonts and glyphs, as a window has them. */
  s = start, span = end - start;
  jvms_session_set_visible (session, s, s + span, FALSE);
  render_frame (view, surface, total, 0);
  for (int f = 0; f < n_frames; f++)
    {
      double t0, c0, ms, cms;

      if (f % 2 == 0)
        top = floor (g_rand_double (rand) * MAX (0, total - HEIGHT));
      else
        {
          double lo = log (10000.0), hi = log ((double) (end - start));
          span = (gint64) exp (g_rand_double_range (rand, lo, hi));
          s = start + (gint64) (g_rand_double (rand) * (double) (end - start - span));
          jvms_session_set_visible (session, s, s + span, FALSE);
        }
      t0 = g_get_monotonic_time () / 1e3;
      c0 = jvms_bench_process_cpu_ms ();
      render_frame (view, surface, total, top);
      cms = jvms_bench_process_cpu_ms () - c0;
      ms = g_get_monotonic_time () / 1e3 - t0;
      g_array_append_val (wall, ms);
      g_array_append_val (cpu, cms);
    }
  cairo_surface_destroy (surface);
  g_object_unref (view);

  *p99 = jvms_bench_percentile_above_of (wall, 0.99);
  g_print ("figure frame_p50_%s_rows %.2f ms\n", label, jvms_bench_percentile_above_of (wall, 0.5));
  g_print ("figure frame_p99_%s_rows %.2f ms\n", label, *p99);
  g_print ("figure frame_cpu_p50_%s_rows %.2f ms\n", label, jvms_bench_percentile_above_of (cpu, 0.5));
  g_print ("figure frame_cpu_p99_%s_rows %.2f ms\n", label, jvms_bench_percentile_above_of (cpu, 0.99));
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  const GOptionEntry entries[] = {
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames per row count (half scrolls, half zooms)", "N" },
    { "first", 0, 0, G_OPTION_ARG_INT, &n_first, "First frames per row count (the median is printed)", "N" },
    { "changes", 0, 0, G_OPTION_ARG_INT, &n_changes, "State changes of each thread", "N" },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, "Where the histories are kept", "DIR" },
    { "rows", 0, 0, G_OPTION_ARG_STRING_ARRAY, &row_counts, "Row counts, the first the baseline (default 100, 10000, 100000)", "N" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);
  const char *const defaults[] = { "100", "10000", "100000", NULL };
  double baseline = 0, first_baseline[2] = { 0, 0 };

  setvbuf (stdout, NULL, _IOLBF, 0);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-rows: %s\n", error->message);
      return 2;
    }
  if (n_frames <= 0 || n_changes <= 0 || n_first <= 0)
    {
      g_printerr ("bench-rows: --frames, --first and --changes must be positive\n");
      return 2;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("bench-rows: GTK needs a display; run under xvfb-run -a\n");
      return 1;
    }
  adw_init ();
  if (cache_dir == NULL)
    cache_dir = g_strdup (g_get_tmp_dir ());

  for (const char *const *c = row_counts != NULL ? (const char *const *) row_counts : defaults;
       *c != NULL; c++)
    {
      guint64 n = 0;
      double p99 = 0, first[2] = { 0, 0 };
      g_autofree char *label = NULL;

      if (!g_ascii_string_to_unsigned (*c, 10, 1, 1000000, &n, &error))
        {
          g_printerr ("bench-rows: --rows %s: %s\n", *c, error->message);
          return 2;
        }
      if (!bench_first_frame ((guint) n, first) || !bench_rows ((guint) n, rand, &p99))
        return 1;
      label = rows_label ((guint) n);
      if (baseline == 0)
        {
          baseline = p99;
          first_baseline[0] = first[0];
          first_baseline[1] = first[1];
        }
      else
        {
          g_print ("ratio frame_p99_%s_rows %.2f\n", label, p99 / MAX (baseline, 0.001));
          g_print ("ratio first_frame_%s_threads %.2f\n", label, first[0] / MAX (first_baseline[0], 0.001));
          g_print ("ratio first_complete_frame_%s_threads %.2f\n", label,
                   first[1] / MAX (first_baseline[1], 0.001));
        }
    }
  g_free (cache_dir);
  g_strfreev (row_counts);
  return 0;
}
