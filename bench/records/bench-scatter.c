/* bench-scatter: the Explorer's scatter plot at 10 M points (issue 22, "Speed"; docs/records.md,
 * "The Explorer pane"), in a window of the size the pane gives it.
 *
 *   bench-scatter [--points N] [--frames N] [--width W] [--height H]
 *
 * N points (default 10 M) of two correlated metrics with a long tail, as durations and counters
 * are, are given to a JvmsScatterPlot shown in a W x H window (default 400 x 300). A frame is the
 * widget's snapshot (its class's snapshot, as GTK calls it when the widget is drawn) drawn into
 * an image with cairo (gsk_render_node_draw): what a frame of the window costs apart from the
 * compositor.
 *
 * Prints:
 *   figure scatter_points        N
 *   figure scatter_frame_p50/p99 ms of a frame once the points are binned (a hover, a drag of the
 *                                selection, another view's change): wall time
 *   figure scatter_frame_cpu_p99 the same in CPU time of the process
 *   figure scatter_bin_p50/p99   ms of the frame after new points (or a new size), wall time:
 *                                it starts the worker that bins every point into the plot's
 *                                pixels and draws the last picture meanwhile
 *   figure scatter_bin_cpu_p50   the same in CPU time of the main thread
 *   figure scatter_picture_p50   ms from the new points until their picture is in (the worker
 *                                binned them and the main loop swapped it in), wall time
 *   figure scatter_picture_cpu_p50 CPU time of the process meanwhile (the worker's binning)
 *   figure scatter_identical     1 when the picture drawn is, pixel for pixel, the points binned
 *                                on the main thread (jvms_scatter_plot_bin_now)
 *   figure scatter_marked        pixels marked by the last binning
 *
 * Needs a display (run under xvfb-run -a).
 */
#include <gtk/gtk.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench-common.h"
#include "jvms-scatter-plot.h"

static gint64 n_points = 10000000;
static int n_frames = 60;
static int width = 400, height = 300;

/* One frame: the widget's picture as GTK would take it, drawn into @target. */
static double
frame (GtkWidget *plot, cairo_surface_t *target, double *cpu)
{
  gint64 t0 = g_get_monotonic_time ();
  /* The main thread's CPU: a frame's cost on it, the worker's apart. */
  double c0 = jvms_bench_thread_cpu_ms ();
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (plot)->snapshot (plot, snapshot);
  GskRenderNode *node = gtk_snapshot_free_to_node (snapshot);
  cairo_t *cr = cairo_create (target);
  if (node != NULL)
    {
      gsk_render_node_draw (node, cr);
      gsk_render_node_unref (node);
    }
  cairo_destroy (cr);
  cairo_surface_flush (target);
  *cpu = jvms_bench_thread_cpu_ms () - c0;
  return (g_get_monotonic_time () - t0) / 1000.0;
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    { "points", 0, 0, G_OPTION_ARG_INT64, &n_points, "Points", "N" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames measured", "N" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "Width of the plot", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, "Height of the plot", "H" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error) || n_points < 1 || n_frames < 1)
    {
      g_printerr ("bench-scatter: %s\n", error != NULL ? error->message : "bad option");
      return 2;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("bench-scatter: no display (run under xvfb-run -a)\n");
      return 1;
    }
  /* Durations with a long tail and a counter nearly proportional to them. */
  GRand *rand = g_rand_new_with_seed (22);
  double *x = g_new (double, n_points), *y = g_new (double, n_points);
  for (gint64 i = 0; i < n_points; i++)
    {
      x[i] = exp (g_rand_double_range (rand, log (1e3), log (1e8)));
      y[i] = x[i] * g_rand_double_range (rand, 0.5, 1.5);
    }
  GtkWidget *window = gtk_window_new ();
  GtkWidget *plot = jvms_scatter_plot_new ();
  gtk_window_set_child (GTK_WINDOW (window), plot);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  /* Laid out and shown once before measuring. */
  for (int i = 0; i < 200 && (gtk_widget_get_width (plot) <= 1 || !gtk_widget_get_mapped (plot)); i++)
    g_main_context_iteration (NULL, TRUE);
  width = gtk_widget_get_width (plot);
  height = gtk_widget_get_height (plot);
  cairo_surface_t *target = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);

  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) frames_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) bins = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) bins_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) pictures = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) pictures_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  double cpu;
  for (int f = 0; f < MAX (n_frames / 10, 3); f++)
    {
      /* New points (the same): every one binned again from the next frame on. */
      jvms_scatter_plot_set_points (JVMS_SCATTER_PLOT (plot), x, y, (gsize) n_points);
      gint64 t0 = g_get_monotonic_time ();
      double c0 = jvms_bench_process_cpu_ms ();
      double ms = frame (plot, target, &cpu);
      g_array_append_val (bins, ms);
      g_array_append_val (bins_cpu, cpu);
      while (jvms_scatter_plot_is_binning (JVMS_SCATTER_PLOT (plot)))
        g_main_context_iteration (NULL, TRUE);
      double picture = (g_get_monotonic_time () - t0) / 1000.0;
      double picture_cpu = jvms_bench_process_cpu_ms () - c0;
      g_array_append_val (pictures, picture);
      g_array_append_val (pictures_cpu, picture_cpu);
    }
  for (int f = 0; f < n_frames; f++)
    {
      double ms = frame (plot, target, &cpu);
      g_array_append_val (frames, ms);
      g_array_append_val (frames_cpu, cpu);
    }
  printf ("figure scatter_points %" G_GINT64_FORMAT " points (%d x %d px)\n", n_points, width, height);
  printf ("figure scatter_frame_p50 %.2f ms\n", jvms_bench_percentile_of (frames, 0.5));
  printf ("figure scatter_frame_p99 %.2f ms\n", jvms_bench_percentile_of (frames, 0.99));
  printf ("figure scatter_frame_cpu_p99 %.2f ms\n", jvms_bench_percentile_of (frames_cpu, 0.99));
  printf ("figure scatter_bin_p50 %.2f ms\n", jvms_bench_percentile_of (bins, 0.5));
  printf ("figure scatter_bin_p99 %.2f ms\n", jvms_bench_percentile_of (bins, 0.99));
  printf ("figure scatter_bin_cpu_p50 %.2f ms\n", jvms_bench_percentile_of (bins_cpu, 0.5));
  printf ("figure scatter_picture_p50 %.2f ms\n", jvms_bench_percentile_of (pictures, 0.5));
  printf ("figure scatter_picture_cpu_p50 %.2f ms\n", jvms_bench_percentile_of (pictures_cpu, 0.5));
  /* The picture drawn against the points binned here, pixel for pixel. */
  int area[4];
  jvms_scatter_plot_get_area (JVMS_SCATTER_PLOT (plot), area);
  gsize marked = 0;
  cairo_surface_t *sync = jvms_scatter_plot_bin_now (JVMS_SCATTER_PLOT (plot), area[2], area[3], &marked);
  cairo_t *clear = cairo_create (target);
  cairo_set_operator (clear, CAIRO_OPERATOR_CLEAR);
  cairo_paint (clear);
  cairo_destroy (clear);
  frame (plot, target, &cpu);
  gboolean same = marked == jvms_scatter_plot_get_n_marked (JVMS_SCATTER_PLOT (plot));
  for (int r = 0; same && r < area[3]; r++)
    same = memcmp (cairo_image_surface_get_data (target) + (gsize) (area[1] + r) * cairo_image_surface_get_stride (target) + 4 * area[0],
                   cairo_image_surface_get_data (sync) + (gsize) r * cairo_image_surface_get_stride (sync),
                   4 * (gsize) area[2]) == 0;
  cairo_surface_destroy (sync);
  printf ("figure scatter_identical %d\n", same);
  printf ("figure scatter_marked %" G_GSIZE_FORMAT " px\n", jvms_scatter_plot_get_n_marked (JVMS_SCATTER_PLOT (plot)));
  cairo_surface_destroy (target);
  gtk_window_destroy (GTK_WINDOW (window));
  g_free (x);
  g_free (y);
  g_rand_free (rand);
  return 0;
}
