/* bench-views: what issue 7 asks of the drawing: each view rendered offscreen (1920 px wide) at
 * random zoom levels over a synthetic history of 100 M intervals, and the time from launch to
 * the first frame on a large recorded trace while it is still being indexed.
 *
 *   bench-views [--intervals N] [--frames N] [--view NAME] [--cache-dir DIR]
 *               [--trace PATH | --trace-seconds S] [--no-first-frame] [--cache-mib MIB]
 *               [--per-frame] [--zoom-steps] [--png PREFIX]
 *
 * --frames 0 measures first_frame alone.
 *
 * first_frame runs first, while the process is new: the trace (PATH, or a Handoff run of S
 * seconds, default 100, recorded once with jvmscope-cli record into DIR/jvmscope-bench-views/)
 * is indexed from scratch into a temporary folder by JvmsTraceIndex's async load, as the window
 * does; the figure is the time from exec to every view drawn once from the live history. The
 * build is then cancelled.
 *
 * The synthetic history is built once (niced) and kept in the cache folder (default /tmp)
 * under a name that carries N, so later runs only open it. Each frame sets a new visible range,
 * so every frame queries the index (summary query) and draws: the cost of a zoom or a scroll,
 * not of a repaint from cache. GTK needs a display: run under xvfb-run -a when there is none.
 *
 * The views are issue 7's (threads, cpus, locks, gc, counters, object_age, ruler) and issue 19's
 * drawn from the history (jit, gc_workers, vm_operations, disk, allocation: the history has
 * their families, JvmsSyntheticOptions.new_views; the events view draws from the event store and
 * is measured by bench/events).
 *
 * Prints: figure build_seconds (when built), figure intervals, figure frame_p50_<view> /
 * frame_p99_<view> (ms: query and draw, wall time; frame_cpu_p50/p99_<view> in CPU time), redraw_p99_<view> (ms: draw from the cache
 * only), and figure frame_p50 / frame_p99 over all views; frame_cpu_* the same in CPU time of
 * the process (every thread), which a busy shared machine inflates less; draw_cpu_p99_* the
 * CPU time of the drawing alone (the frame less its summary query); the frame figures over
 * issue 19's views apart (frame_p50/p99_issue19_views, frame_cpu_p99_issue19_views).
 *
 * Frames are computed as the window computes a frame (jvms_timeline_render_frame), not as an
 * export: the threads view counts its folded groups' threads for a few ms in the frame and goes
 * on at the frame clock's ticks. Those ticks are measured after each frame until the counts
 * are complete: summary_tick_p99_threads / summary_tick_cpu_p99_threads (ms per tick: the
 * counting and a draw from the cache) and summary_ticks_p50/p99_threads (ticks per frame). The
 * allocation view draws its rows' ranges with a bound where a column cuts a summary bucket and
 * asks them exactly at the ticks after: refine_tick_p99_allocation / refine_tick_cpu_p99_allocation
 * and refine_ticks_p50/p99_allocation, over the frames that drew a bound. */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench-common.h"
#include "bench-first-frame.h"
#include "jvms-allocation-view.h"
#include "jvms-counters-view.h"
#include "jvms-cpus-view.h"
#include "jvms-disk-view.h"
#include "jvms-gc-view.h"
#include "jvms-gc-workers-view.h"
#include "jvms-jit-view.h"
#include "jvms-locks-view.h"
#include "jvms-vm-operations-view.h"
#include "jvms-object-age-view.h"
#include "jvms-palette.h"
#include "jvms-synthetic-history.h"
#include "jvms-threads-view.h"
#include "jvms-time-ruler.h"
#include "jvms-timeline.h"
#include "jvms-view-render.h"

#define WIDTH 1920
#define HEIGHT 600
/* jvms_bench_new_views' and issue 19's five. */
#define N_VIEWS (JVMS_BENCH_N_VIEWS + 5)

static gint64 n_intervals = 100000000;
static int n_frames = 50;
static char *cache_dir;
static char *only_view;
static char *trace_path;
static int trace_seconds = 100;
static gboolean no_first_frame;
/* The window's default index cache (cache-budget-mib in data/org.jvmscope.Jvmscope.gschema.xml):
 * frames are measured with the memory the application gives the index, not the library's
 * minimum. */
static int cache_mib = 512;
static gboolean per_frame;
static gboolean zoom_steps;
static char *png_prefix;

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

  /* On Linux a thread's niceness is its own: the generation yields to the other users of a
   * shared machine, and the frames measured afterwards in the main thread keep theirs. */
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 19);
  return GINT_TO_POINTER (jvms_synthetic_history_write (job->path, job->options, &job->error));
}

static gboolean
write_niced (const char                 *path,
             const JvmsSyntheticOptions *options,
             GError                    **error)
{
  WriteJob job = { path, options, NULL };
  gboolean ok = GPOINTER_TO_INT (g_thread_join (g_thread_new ("generate", write_thread, &job)));

  if (!ok)
    g_propagate_error (error, job.error);
  return ok;
}

/* The work a view spreads over the ticks after a frame: the threads view counts its folded
 * groups, the allocation view asks the rows it drew with a bound of their range exactly. FALSE
 * for a view without such work or when it is done. */
static gboolean
step_view (GtkWidget *view)
{
  if (JVMS_IS_THREADS_VIEW (view))
    return jvms_threads_view_step_summaries (JVMS_THREADS_VIEW (view));
  if (JVMS_IS_ALLOCATION_VIEW (view))
    return jvms_allocation_view_step_refinement (JVMS_ALLOCATION_VIEW (view));
  return FALSE;
}

/* A frame as the window computes it: the threads view's folded groups are counted for a few
 * ms, then at the ticks after (jvms_threads_view_step_summaries), not all in the frame as an
 * export does. */
static void
render_view (GtkWidget *view,
             cairo_t   *cr)
{
  if (JVMS_IS_TIMELINE (view))
    jvms_timeline_render_frame (JVMS_TIMELINE (view), cr, WIDTH, HEIGHT,
                                jvms_palette_system_is_dark ());
  else
    jvms_view_render (view, cr, WIDTH, HEIGHT);
}

int
main (int   argc,
      char *argv[])
{
  const GOptionEntry entries[] = {
    { "intervals", 0, 0, G_OPTION_ARG_INT64, &n_intervals, "Intervals in the history", "N" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Zoom levels per view", "N" },
    { "view", 0, 0, G_OPTION_ARG_STRING, &only_view, "Only this view (threads, cpus ...)", "NAME" },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, "Where the history and the recorded trace are kept", "DIR" },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, "Trace for first_frame (default: a recorded Handoff run)", "PATH" },
    { "trace-seconds", 0, 0, G_OPTION_ARG_INT, &trace_seconds, "Length of the recorded run", "S" },
    { "no-first-frame", 0, 0, G_OPTION_ARG_NONE, &no_first_frame, "Skip first_frame", NULL },
    { "cache-mib", 0, 0, G_OPTION_ARG_INT, &cache_mib, "Index cache budget (default 512, as the window)", "MIB" },
    { "zoom-steps", 0, 0, G_OPTION_ARG_NONE, &zoom_steps, "Frames zoom in step by step (x1/1.15 at a random point, as Ctrl+wheel does) instead of jumping to random ranges", NULL },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &png_prefix, "Write each view's first frame (the whole trace, as a frame on screen computes it, before its ticks) to PREFIX-VIEW.png, to look at", "PREFIX" },
    { "per-frame", 0, 0, G_OPTION_ARG_NONE, &per_frame, "Also print each frame (span, wall, CPU, redraw CPU, CPU of the frame again with the blobs it read cached) as a # line", NULL },
    G_OPTION_ENTRY_NULL
  };
  static const char *const names[N_VIEWS] = { "threads", "cpus", "locks", "gc", "counters",
                                              "object_age", "ruler", "jit", "gc_workers",
                                              "vm_operations", "disk", "allocation" };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistory) history = NULL;
  g_autoptr(JvmsSession) session = NULL;
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) all_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) all_draw = g_array_new (FALSE, FALSE, sizeof (double));
  /* Issue 19's views apart: frame_p99 stays the figure over issue 7's, as logged before. */
  g_autoptr(GArray) new_all = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) new_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) samples = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (1234);
  g_autofree char *path = NULL;
  GtkWidget *views[N_VIEWS];
  cairo_surface_t *surface;
  gint64 start, end;

  /* Figures as they come: a run at 100 M intervals is long, and may be cut short. */
  setvbuf (stdout, NULL, _IOLBF, 0);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-views: %s\n", error->message);
      return 2;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("bench-views: GTK needs a display; run under xvfb-run -a\n");
      return 1;
    }
  adw_init ();
  g_print ("# GTK and libadwaita initialised %.3f s after launch\n",
           jvms_bench_seconds_since_launch ());
  if (cache_dir == NULL)
    cache_dir = g_strdup (g_get_tmp_dir ());

  if (!no_first_frame)
    {
      if (trace_path == NULL)
        trace_path = jvms_bench_recorded_trace (cache_dir, trace_seconds);
      if (!jvms_bench_first_frame (trace_path, WIDTH, HEIGHT))
        return 1;
    }

  if (n_frames <= 0)
    {
      g_free (cache_dir);
      g_free (trace_path);
      g_free (png_prefix);
      return 0;
    }
  /* v2: with the families of issue 19's views. */
  path = g_strdup_printf ("%s/jvmscope-bench-views-%" G_GINT64_FORMAT "-v2.jvmsidx",
                          cache_dir, n_intervals);
  history = jvms_history_open (path, (gsize) cache_mib << 20, NULL);
  if (history == NULL)
    {
      JvmsSyntheticOptions options;
      gint64 t0 = g_get_monotonic_time ();

      jvms_synthetic_options_init (&options);
      /* The generator counts changes, some of which set a value already held (no new
       * interval): ask for more so that the history holds about N. */
      options.n_intervals = (guint64) (n_intervals * 2.1);
      options.n_threads = 200;
      options.n_cpus = 16;
      options.n_locks = 24;
      options.mean_gap_ns = 100000;
      options.new_views = TRUE;
      g_printerr ("bench-views: building a history of about %" G_GINT64_FORMAT
                  " intervals into %s (niced; once)\n", n_intervals, path);
      if (!write_niced (path, &options, &error))
        {
          g_printerr ("bench-views: %s\n", error->message);
          return 1;
        }
      g_print ("figure build_seconds %.1f s\n", (g_get_monotonic_time () - t0) / 1e6);
      history = jvms_history_open (path, (gsize) cache_mib << 20, &error);
      if (history == NULL)
        {
          g_printerr ("bench-views: %s\n", error->message);
          return 1;
        }
    }
  else
    g_print ("# history %s reused\n", path);
  g_print ("figure intervals %" G_GUINT64_FORMAT " intervals\n",
           jvms_history_get_n_intervals (history));

  session = jvms_session_new ();
  jvms_session_set_history (session, history);
  start = jvms_session_get_start_time (session);
  end = jvms_session_get_end_time (session);
  jvms_bench_new_views (session, views);
  views[JVMS_BENCH_N_VIEWS] = jvms_jit_view_new (session);
  views[JVMS_BENCH_N_VIEWS + 1] = jvms_gc_workers_view_new (session);
  views[JVMS_BENCH_N_VIEWS + 2] = jvms_vm_operations_view_new (session);
  views[JVMS_BENCH_N_VIEWS + 3] = jvms_disk_view_new (session);
  views[JVMS_BENCH_N_VIEWS + 4] = jvms_allocation_view_new (session);
  for (guint v = JVMS_BENCH_N_VIEWS; v < N_VIEWS; v++)
    g_object_ref_sink (views[v]);
  /* What they draw: a row per thread folder of their families in the history. */
  g_print ("# rows: jit %u, gc_workers %u, vm_operations %u, disk %u, allocation %u\n",
           jvms_jit_view_get_n_compilers (JVMS_JIT_VIEW (views[JVMS_BENCH_N_VIEWS])),
           jvms_gc_workers_view_get_n_workers (JVMS_GC_WORKERS_VIEW (views[JVMS_BENCH_N_VIEWS + 1])),
           jvms_vm_operations_view_get_n_rows (JVMS_VM_OPERATIONS_VIEW (views[JVMS_BENCH_N_VIEWS + 2])),
           jvms_disk_view_get_n_rows (JVMS_DISK_VIEW (views[JVMS_BENCH_N_VIEWS + 3])),
           jvms_allocation_view_get_n_threads (JVMS_ALLOCATION_VIEW (views[JVMS_BENCH_N_VIEWS + 4])));
  samples = jvms_synthetic_object_samples (start, end, 100000, 9);
  jvms_object_age_view_set_samples (JVMS_OBJECT_AGE_VIEW (views[5]),
                                    (JvmsObjectAgeSample *) samples->data, samples->len);
  /* Expand every thread group, other processes included: the worst case for the view. */
  jvms_threads_view_set_group_collapsed (JVMS_THREADS_VIEW (views[0]), 5, FALSE);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  for (guint v = 0; v < G_N_ELEMENTS (names); v++)
    {
      g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) redraws = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) draws = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) tick_cpu = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) n_ticks = g_array_new (FALSE, FALSE, sizeof (double));

      if (only_view != NULL && g_strcmp0 (only_view, names[v]) != 0)
        {
          g_object_unref (views[v]);
          continue;
        }
      /* One untimed frame first: font and glyph caches, as a window has them warm. */
      {
        cairo_t *cr = cairo_create (surface);
        jvms_session_set_visible (session, start, end, FALSE);
        render_view (views[v], cr);
        cairo_destroy (cr);
        if (png_prefix != NULL)
          {
            g_autofree char *png = g_strdup_printf ("%s-%s.png", png_prefix, names[v]);
            cairo_surface_flush (surface);
            if (cairo_surface_write_to_png (surface, png) != CAIRO_STATUS_SUCCESS)
              g_printerr ("bench-views: cannot write %s\n", png);
          }
      }
      gint64 step_span = 0;
      double step_anchor = 0;
      for (int f = 0; f < n_frames; f++)
        {
          gint64 span, s;
          if (!zoom_steps)
            {
              /* Log-uniform span from 10 µs to the whole trace, at a random place. */
              double lo = log (10000.0), hi = log ((double) (end - start));
              span = (gint64) exp (g_rand_double_range (rand, lo, hi));
              s = start + (gint64) (g_rand_double (rand) * (double) (end - start - span));
            }
          else
            {
              /* A descent from the whole trace towards a point kept for the descent, each frame
               * 1/1.15 of the one before (a Ctrl+wheel step), anchored at the point. */
              if (step_span < 10000)
                {
                  step_span = end - start;
                  step_anchor = g_rand_double (rand);
                }
              else
                step_span = (gint64) ((double) step_span / 1.15);
              span = step_span;
              s = start + (gint64) (step_anchor * (double) (end - start - span));
            }
          cairo_t *cr;
          gint64 t0, t1;
          double ms, c0, cms;

          jvms_session_set_visible (session, s, s + span, FALSE);
          cr = cairo_create (surface);
          t0 = g_get_monotonic_time ();
          c0 = jvms_bench_process_cpu_ms ();
          render_view (views[v], cr);
          cairo_surface_flush (surface);
          cms = jvms_bench_process_cpu_ms () - c0;
          t1 = g_get_monotonic_time ();
          g_array_append_val (cpu, cms);
          g_array_append_val (v < JVMS_BENCH_N_VIEWS ? all_cpu : new_cpu, cms);
          ms = (t1 - t0) / 1000.0;
          g_array_append_val (times, ms);
          g_array_append_val (v < JVMS_BENCH_N_VIEWS ? all : new_all, ms);
          /* The same range again: drawing from the cache alone (hover, selection). */
          t0 = g_get_monotonic_time ();
          c0 = jvms_bench_process_cpu_ms ();
          render_view (views[v], cr);
          cairo_surface_flush (surface);
          cms = jvms_bench_process_cpu_ms () - c0;
          ms = (g_get_monotonic_time () - t0) / 1000.0;
          g_array_append_val (redraws, ms);
          g_array_append_val (draws, cms);
          if (v < JVMS_BENCH_N_VIEWS)
            g_array_append_val (all_draw, cms);
          /* The ticks after the frame, until the folded groups are counted or the ranges
           * refined: each steps and draws from the cache, as the views' ticks do on screen. */
          if (JVMS_IS_THREADS_VIEW (views[v]) ||
              (JVMS_IS_ALLOCATION_VIEW (views[v]) &&
               jvms_allocation_view_get_n_bound_rows (JVMS_ALLOCATION_VIEW (views[v])) > 0))
            {
              double n = 0;
              gboolean left = TRUE;

              while (left)
                {
                  t0 = g_get_monotonic_time ();
                  c0 = jvms_bench_process_cpu_ms ();
                  left = step_view (views[v]);
                  render_view (views[v], cr);
                  cairo_surface_flush (surface);
                  cms = jvms_bench_process_cpu_ms () - c0;
                  ms = (g_get_monotonic_time () - t0) / 1000.0;
                  g_array_append_val (ticks, ms);
                  g_array_append_val (tick_cpu, cms);
                  n++;
                }
              g_array_append_val (n_ticks, n);
            }
          if (per_frame)
            {
              /* The range moved by a nanosecond: queried again with every blob it needs in the
               * cache, which tells the reading of blobs from the work on what they hold. */
              double warm;
              jvms_session_set_visible (session, s + 1, s + span + 1, FALSE);
              c0 = jvms_bench_process_cpu_ms ();
              render_view (views[v], cr);
              cairo_surface_flush (surface);
              warm = jvms_bench_process_cpu_ms () - c0;
              g_print ("# frame %s %d span_ns=%" G_GINT64_FORMAT " wall_ms=%.2f cpu_ms=%.2f "
                       "draw_cpu_ms=%.2f warm_cpu_ms=%.2f\n",
                       names[v], f, span, g_array_index (times, double, times->len - 1),
                       g_array_index (cpu, double, cpu->len - 1), cms, warm);
            }
          cairo_destroy (cr);
        }
      g_print ("figure frame_cpu_p50_%s %.2f ms\n", names[v], jvms_bench_percentile_above_of (cpu, 0.5));
      g_print ("figure frame_cpu_p99_%s %.2f ms\n", names[v], jvms_bench_percentile_above_of (cpu, 0.99));
      g_print ("figure draw_cpu_p99_%s %.2f ms\n", names[v], jvms_bench_percentile_above_of (draws, 0.99));
      g_print ("figure redraw_p99_%s %.2f ms\n", names[v], jvms_bench_percentile_above_of (redraws, 0.99));
      g_print ("figure frame_p50_%s %.2f ms\n", names[v], jvms_bench_percentile_above_of (times, 0.5));
      g_print ("figure frame_p99_%s %.2f ms\n", names[v], jvms_bench_percentile_above_of (times, 0.99));
      if (n_ticks->len > 0)
        {
          /* summary_*: the threads view's counts; refine_*: the allocation view's exact ranges
           * (its ticks per frame over the frames that drew a bound). */
          const char *work = JVMS_IS_THREADS_VIEW (views[v]) ? "summary" : "refine";
          g_print ("figure %s_tick_p99_%s %.2f ms\n", work, names[v], jvms_bench_percentile_above_of (ticks, 0.99));
          g_print ("figure %s_tick_cpu_p99_%s %.2f ms\n", work, names[v], jvms_bench_percentile_above_of (tick_cpu, 0.99));
          g_print ("figure %s_ticks_p50_%s %.0f ticks\n", work, names[v], jvms_bench_percentile_above_of (n_ticks, 0.5));
          g_print ("figure %s_ticks_p99_%s %.0f ticks\n", work, names[v], jvms_bench_percentile_above_of (n_ticks, 0.99));
        }
      g_object_unref (views[v]);
    }
  g_print ("figure frame_p50 %.2f ms\n", jvms_bench_percentile_above_of (all, 0.5));
  g_print ("figure frame_p99 %.2f ms\n", jvms_bench_percentile_above_of (all, 0.99));
  g_print ("figure frame_cpu_p50 %.2f ms\n", jvms_bench_percentile_above_of (all_cpu, 0.5));
  g_print ("figure frame_cpu_p99 %.2f ms\n", jvms_bench_percentile_above_of (all_cpu, 0.99));
  g_print ("figure draw_cpu_p50 %.2f ms\n", jvms_bench_percentile_above_of (all_draw, 0.5));
  g_print ("figure draw_cpu_p99 %.2f ms\n", jvms_bench_percentile_above_of (all_draw, 0.99));
  if (new_all->len > 0)
    {
      g_print ("figure frame_p50_issue19_views %.2f ms\n", jvms_bench_percentile_above_of (new_all, 0.5));
      g_print ("figure frame_p99_issue19_views %.2f ms\n", jvms_bench_percentile_above_of (new_all, 0.99));
      g_print ("figure frame_cpu_p99_issue19_views %.2f ms\n", jvms_bench_percentile_above_of (new_cpu, 0.99));
    }
  cairo_surface_destroy (surface);
  g_free (cache_dir);
  g_free (trace_path);
  g_free (png_prefix);
  return 0;
}
