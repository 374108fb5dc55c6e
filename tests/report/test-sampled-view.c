/* The threads view of a recording without thread states (async-profiler's, written byte by byte:
 * sampled-fixture.c), rendered offscreen at one millisecond a column: in each thread's Java lane
 * the columns holding one of its samples (batches expanded, the model's list) are drawn in the
 * sample's colour, every other column in the "not recorded" colour — never a state stretched
 * between samples. Needs a display (xvfb-run). */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>

#include "jvms-palette.h"
#include "jvms-sample-layer.h"
#include "jvms-session.h"
#include "jvms-threads-view.h"
#include "jvms-timeline.h"
#include "report-fixture.h"
#include "sampled-fixture.h"

#define COLUMNS 1000
#define WIDTH   (JVMS_TIMELINE_GUTTER + COLUMNS)
#define HEIGHT  160

/* @c drawn over the light background, as 8-bit RGB. */
static void
over_background (JvmsColor c, guint8 rgb[3])
{
  const JvmsPalette *p = jvms_palette_get (FALSE);
  double bg[3] = { p->background.r, p->background.g, p->background.b };
  double fg[3] = { c.r, c.g, c.b };
  for (guint i = 0; i < 3; i++)
    rgb[i] = (guint8) lround (255 * (c.a * fg[i] + (1 - c.a) * bg[i]));
}

static void
pixel (cairo_surface_t *s, int x, int y, guint8 rgb[3])
{
  const guint8 *data = cairo_image_surface_get_data (s);
  guint32 v = *(const guint32 *) (data + (gsize) y * cairo_image_surface_get_stride (s) + (gsize) x * 4);
  rgb[0] = (v >> 16) & 0xff;
  rgb[1] = (v >> 8) & 0xff;
  rgb[2] = v & 0xff;
}

static gboolean
near (const guint8 a[3], const guint8 b[3])
{
  for (guint i = 0; i < 3; i++)
    if (ABS ((int) a[i] - (int) b[i]) > 2)
      return FALSE;
  return TRUE;
}

static void
test_between_samples_not_recorded (void)
{
  g_autoptr(GArray) points = NULL;
  g_autoptr(GBytes) bytes = sampled_wall_build (&points);
  ReportFixture f = { 0 };
  report_fixture_open_bytes (&f, bytes);
  JvmsSession *session = jvms_session_new ();
  jvms_session_set_history (session, f.history);
  gint64 start = jvms_history_get_start_time (f.history);
  jvms_session_set_visible (session, start, start + COLUMNS * SAMPLED_MS, FALSE);
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (session));

  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  jvms_timeline_render (JVMS_TIMELINE (view), cr, WIDTH, HEIGHT, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  guint8 not_recorded[3];
  over_background (jvms_palette_get (FALSE)->not_recorded, not_recorded);
  for (guint t = 0; t < sampled_n_threads; t++)
    {
      int row = jvms_threads_view_get_row_y (JVMS_THREADS_VIEW (view), sampled_threads[t].os_tid);
      g_assert_cmpint (row, >=, 0);
      /* The middle of the Java lane: bars stand on its bottom, marks lie along its top. */
      int y = JVMS_TIMELINE_LEGEND_HEIGHT + row + JVMS_THREADS_VIEW_USER_LANE_Y
              + JVMS_THREADS_VIEW_LANE_HEIGHT / 2;
      g_assert_cmpint (y, <, HEIGHT);
      gboolean sampled[COLUMNS] = { FALSE };
      for (guint i = 0; i < points->len; i++)
        {
          const SampledPoint *p = &g_array_index (points, SampledPoint, i);
          if (p->thread == t && JVMS_SAMPLED_IS_TIME (p->kind) && p->time / SAMPLED_MS < COLUMNS)
            sampled[p->time / SAMPLED_MS] = TRUE;
        }
      guint n_sampled = 0, n_between = 0;
      for (int c = 0; c < COLUMNS; c++)
        {
          guint8 rgb[3];
          pixel (surface, JVMS_TIMELINE_GUTTER + c, y, rgb);
          if (sampled[c])
            {
              if (near (rgb, not_recorded))
                g_error ("thread %s, column %d (%d ms): a sample is drawn as not recorded",
                         sampled_threads[t].name, c, c);
              n_sampled++;
            }
          else
            {
              if (!near (rgb, not_recorded))
                g_error ("thread %s, column %d (%d ms): %02x%02x%02x between samples, not the "
                         "not-recorded %02x%02x%02x", sampled_threads[t].name, c, c, rgb[0], rgb[1],
                         rgb[2], not_recorded[0], not_recorded[1], not_recorded[2]);
              n_between++;
            }
        }
      g_test_message ("%s: %u columns with samples, %u between", sampled_threads[t].name,
                      n_sampled, n_between);
      g_assert_cmpuint (n_sampled, >, 50);
      g_assert_cmpuint (n_between, >, 500);
    }
  /* A running sample is drawn Running, a sleeping one Sleeping. */
  {
    int row = jvms_threads_view_get_row_y (JVMS_THREADS_VIEW (view), sampled_threads[0].os_tid);
    int y = JVMS_TIMELINE_LEGEND_HEIGHT + row + JVMS_THREADS_VIEW_USER_LANE_Y + JVMS_THREADS_VIEW_LANE_HEIGHT / 2;
    guint8 rgb[3], running[3], sleeping[3];
    over_background (jvms_sample_layer_color (jvms_palette_get (FALSE), JVMS_SAMPLED_RUNNING), running);
    over_background (jvms_sample_layer_color (jvms_palette_get (FALSE), JVMS_SAMPLED_SLEEPING), sleeping);
    pixel (surface, JVMS_TIMELINE_GUTTER + 5, y, rgb);
    g_assert_true (near (rgb, running));
    pixel (surface, JVMS_TIMELINE_GUTTER + 35, y, rgb);
    g_assert_true (near (rgb, sleeping));
  }
  cairo_surface_destroy (surface);
  g_assert_finalize_object (view);
  g_assert_finalize_object (session);
  report_fixture_close (&f);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/sampled/view-between-samples", test_between_samples_not_recorded);
  return g_test_run ();
}
