/* test-scatter-plot.c: the Explorer's scatter plot bins its points in a worker thread
 * (widgets/jvms-scatter-plot.h); the picture it swaps in must be the one binning them on the
 * main thread gave. Checked against a naive binning written here from the plot's rules (a
 * point's pixel is its fraction of the data's span times the pixels less one, rounded half up,
 * the rows from the top; a pixel with n points has ink 0.35 + 0.65 log1p(n) / log1p(most), blue
 * #1c71d8 premultiplied), pixel for pixel:
 *
 *   /Widgets/scatter/async-picture     after the worker is done, the plot area is the naive
 *                                      picture, and the plot marks as many pixels;
 *   /Widgets/scatter/last-picture      new points: the frame that starts their worker still
 *                                      draws the old picture;
 *   /Widgets/scatter/stale-dropped     points replaced while their worker runs: once no worker
 *                                      is left, the picture is the last points', never the
 *                                      replaced ones'.
 *
 * Run under xvfb-run -a (GTK needs a display to make a window).
 */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "jvms-scatter-plot.h"

typedef struct
{
  double *x, *y;
  gsize   n;
} Data;

static Data
make_data (guint32 seed, gsize n)
{
  GRand *rand = g_rand_new_with_seed (seed);
  Data d = { g_new (double, n), g_new (double, n), n };
  for (gsize i = 0; i < n; i++)
    {
      d.x[i] = exp (g_rand_double_range (rand, 0, 12));
      d.y[i] = d.x[i] * g_rand_double_range (rand, 0.2, 3.0) + seed;
    }
  /* Pairs that are left out, and a point repeated: its pixel counts it every time. */
  d.x[0] = NAN;
  d.y[1] = INFINITY;
  for (gsize i = 2; i < MIN (n, 2000); i++)
    {
      d.x[i] = d.x[2];
      d.y[i] = d.y[2];
    }
  g_rand_free (rand);
  return d;
}

static void
data_free (Data *d)
{
  g_free (d->x);
  g_free (d->y);
}

/* The plot's picture of @d at @w x @h, binned naively: ARGB words, row after row. */
static guint32 *
naive_picture (const Data *d, int w, int h, gsize *marked)
{
  double r[4] = { 0 };
  gboolean any = FALSE;
  for (gsize i = 0; i < d->n; i++)
    {
      if (!isfinite (d->x[i]) || !isfinite (d->y[i]))
        continue;
      if (!any)
        {
          r[0] = r[1] = d->x[i];
          r[2] = r[3] = d->y[i];
          any = TRUE;
        }
      r[0] = MIN (r[0], d->x[i]);
      r[1] = MAX (r[1], d->x[i]);
      r[2] = MIN (r[2], d->y[i]);
      r[3] = MAX (r[3], d->y[i]);
    }
  guint32 *counts = g_new0 (guint32, (gsize) w * h), most = 0;
  for (gsize i = 0; i < d->n; i++)
    {
      if (!isfinite (d->x[i]) || !isfinite (d->y[i]))
        continue;
      long c = lround ((d->x[i] - r[0]) / (r[1] - r[0]) * (w - 1));
      long row = h - 1 - lround ((d->y[i] - r[2]) / (r[3] - r[2]) * (h - 1));
      counts[row * w + c]++;
    }
  *marked = 0;
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      most = MAX (most, counts[i]);
      *marked += counts[i] > 0;
    }
  guint32 *px = g_new0 (guint32, (gsize) w * h);
  for (gsize i = 0; i < (gsize) w * h; i++)
    if (counts[i] > 0)
      {
        double ink = 0.35 + 0.65 * (most > 1 ? log1p (counts[i]) / log1p (most) : 1.0);
        guint32 a = (guint32) lround (255 * MIN (ink, 1.0));
        px[i] = a << 24 | (0x1c * a / 255) << 16 | (0x71 * a / 255) << 8 | (0xd8 * a / 255);
      }
  g_free (counts);
  return px;
}

typedef struct
{
  GtkWidget *window;
  GtkWidget *plot;
  int        area[4];
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->window = gtk_window_new ();
  f->plot = jvms_scatter_plot_new ();
  gtk_window_set_child (GTK_WINDOW (f->window), f->plot);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 420, 300);
  gtk_window_present (GTK_WINDOW (f->window));
  for (int i = 0; i < 2000 && (!gtk_widget_get_mapped (f->plot) || gtk_widget_get_width (f->plot) <= 1); i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gtk_widget_get_mapped (f->plot));
  jvms_scatter_plot_get_area (JVMS_SCATTER_PLOT (f->plot), f->area);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* One frame of the plot (what GTK asks of it when it draws) into a new transparent image. */
static cairo_surface_t *
draw (Fixture *f)
{
  int w = gtk_widget_get_width (f->plot), h = gtk_widget_get_height (f->plot);
  cairo_surface_t *target = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (f->plot)->snapshot (f->plot, snapshot);
  GskRenderNode *node = gtk_snapshot_free_to_node (snapshot);
  cairo_t *cr = cairo_create (target);
  if (node != NULL)
    {
      gsk_render_node_draw (node, cr);
      gsk_render_node_unref (node);
    }
  cairo_destroy (cr);
  cairo_surface_flush (target);
  return target;
}

/* Pixels of the plot area of @image that differ from @want. */
static gsize
differing (Fixture *f, cairo_surface_t *image, const guint32 *want)
{
  const guchar *data = cairo_image_surface_get_data (image);
  int stride = cairo_image_surface_get_stride (image);
  gsize bad = 0;
  for (int r = 0; r < f->area[3]; r++)
    {
      const guint32 *line = (const guint32 *) (gconstpointer) (data + (gsize) (f->area[1] + r) * stride) + f->area[0];
      for (int c = 0; c < f->area[2]; c++)
        bad += line[c] != want[(gsize) r * f->area[2] + c];
    }
  return bad;
}

static void
wait_for_picture (Fixture *f)
{
  for (int i = 0; i < 100000 && jvms_scatter_plot_is_binning (JVMS_SCATTER_PLOT (f->plot)); i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (jvms_scatter_plot_is_binning (JVMS_SCATTER_PLOT (f->plot)));
}

static void
test_async_picture (Fixture *f, gconstpointer data)
{
  Data d = make_data (7, 300000);
  gsize marked;
  g_autofree guint32 *want = naive_picture (&d, f->area[2], f->area[3], &marked);
  jvms_scatter_plot_set_points (JVMS_SCATTER_PLOT (f->plot), d.x, d.y, d.n);
  cairo_surface_destroy (draw (f));
  g_assert_true (jvms_scatter_plot_is_binning (JVMS_SCATTER_PLOT (f->plot)));
  wait_for_picture (f);
  cairo_surface_t *image = draw (f);
  g_assert_cmpuint (differing (f, image, want), ==, 0);
  g_assert_cmpuint (jvms_scatter_plot_get_n_marked (JVMS_SCATTER_PLOT (f->plot)), ==, marked);
  g_assert_cmpuint (marked, >, 1000);
  cairo_surface_destroy (image);
  data_free (&d);
}

static void
test_last_picture (Fixture *f, gconstpointer data)
{
  Data a = make_data (11, 100000), b = make_data (12, 100000);
  gsize marked_a, marked_b;
  g_autofree guint32 *want_a = naive_picture (&a, f->area[2], f->area[3], &marked_a);
  g_autofree guint32 *want_b = naive_picture (&b, f->area[2], f->area[3], &marked_b);
  jvms_scatter_plot_set_points (JVMS_SCATTER_PLOT (f->plot), a.x, a.y, a.n);
  cairo_surface_destroy (draw (f));
  wait_for_picture (f);
  jvms_scatter_plot_set_points (JVMS_SCATTER_PLOT (f->plot), b.x, b.y, b.n);
  /* The frame that starts b's worker: a's picture still. */
  cairo_surface_t *image = draw (f);
  g_assert_cmpuint (differing (f, image, want_a), ==, 0);
  g_assert_cmpuint (differing (f, image, want_b), >, 0);
  cairo_surface_destroy (image);
  wait_for_picture (f);
  image = draw (f);
  g_assert_cmpuint (differing (f, image, want_b), ==, 0);
  cairo_surface_destroy (image);
  data_free (&a);
  data_free (&b);
}

static void
test_stale_dropped (Fixture *f, gconstpointer data)
{
  /* a's worker (few points: it ends before it looks at its cancellation) starts, then b
   * replaces a before any result is in. */
  Data a = make_data (21, 20000), b = make_data (22, 1500000);
  gsize marked_b;
  g_autofree guint32 *want_b = naive_picture (&b, f->area[2], f->area[3], &marked_b);
  jvms_scatter_plot_set_points (JVMS_SCATTER_PLOT (f->plot), a.x, a.y, a.n);
  cairo_surface_destroy (draw (f));
  jvms_scatter_plot_set_points (JVMS_SCATTER_PLOT (f->plot), b.x, b.y, b.n);
  cairo_surface_destroy (draw (f));
  wait_for_picture (f);
  cairo_surface_t *image = draw (f);
  g_assert_cmpuint (differing (f, image, want_b), ==, 0);
  g_assert_cmpuint (jvms_scatter_plot_get_n_marked (JVMS_SCATTER_PLOT (f->plot)), ==, marked_b);
  cairo_surface_destroy (image);
  data_free (&a);
  data_free (&b);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add ("/Widgets/scatter/async-picture", Fixture, NULL, fixture_set_up, test_async_picture, fixture_tear_down);
  g_test_add ("/Widgets/scatter/last-picture", Fixture, NULL, fixture_set_up, test_last_picture, fixture_tear_down);
  g_test_add ("/Widgets/scatter/stale-dropped", Fixture, NULL, fixture_set_up, test_stale_dropped, fixture_tear_down);
  return g_test_run ();
}
