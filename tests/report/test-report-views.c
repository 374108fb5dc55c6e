/* The threads view on a JFR trace whose threads have no OS thread id (virtual threads, keyed
 * "v<javaId>" in the index): each gets a row, named in its tooltip, and the filter finds it by
 * name and by folder name. The trace is written byte by byte (jfr-gen.c). Needs a display
 * (xvfb-run). */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "jvms-session.h"
#include "jvms-threads-view.h"
#include "jvms-timeline.h"
#include "report-fixture.h"

#define MS G_GINT64_CONSTANT (1000000)
#define WIDTH 800
#define HEIGHT 400

static const JfrGenThread threads[] = {
  { 0, 17, "vsleeper" },
  { 0, 18, "vparker" },
  { 4242, 21, "platform" },
};
static const char * const classes[] = { "java/lang/Object" };
static const JfrGenEvent events[] = {
  { JFR_GEN_THREAD_START, 0, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 1, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 2, 1 * MS, 0, 0, 0 },
  { JFR_GEN_SLEEP, 0, 10 * MS, 50 * MS, 0, 0 },
  { JFR_GEN_PARK, 1, 10 * MS, 30 * MS, 0, 0 },
  { JFR_GEN_THREAD_END, 0, 90 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 1, 90 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 2, 90 * MS, 0, 0, 0 },
};

static void
render (GtkWidget *view)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  jvms_timeline_render (JVMS_TIMELINE (view), cr, WIDTH, HEIGHT, FALSE);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_virtual_threads_named (void)
{
  ReportFixture f = { 0 };
  report_fixture_open (&f, threads, G_N_ELEMENTS (threads), events, G_N_ELEMENTS (events), classes,
                       G_N_ELEMENTS (classes));
  JvmsHistory *history = f.history;
  JvmsSession *session = jvms_session_new ();
  jvms_session_set_history (session, history);
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (session));
  JvmsThreadsView *tv = JVMS_THREADS_VIEW (view);

  render (view);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      gint64 tid = threads[i].os_tid > 0 ? threads[i].os_tid : -threads[i].java_id;
      int row = jvms_threads_view_get_row_y (tv, tid);
      g_assert_cmpint (row, >=, 0);
      int y = jvms_timeline_get_legend_height (JVMS_TIMELINE (view), WIDTH) + row +
              JVMS_THREADS_VIEW_USER_LANE_Y + 2;
      g_autofree char *text = jvms_timeline_get_tooltip_text_at (JVMS_TIMELINE (view),
                                                                 JVMS_TIMELINE_GUTTER + WIDTH / 4, y);
      g_assert_nonnull (text);
      g_assert_nonnull (strstr (text, threads[i].name));
    }

  /* By name, and by folder name. */
  jvms_threads_view_set_filter (tv, "vparker");
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, -18), >=, 0);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, -17), ==, -1);
  jvms_threads_view_set_filter (tv, "v17");
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, -17), >=, 0);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, -18), ==, -1);

  g_assert_finalize_object (view);
  g_assert_finalize_object (session);
  report_fixture_close (&f);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/views/virtual-threads-named", test_virtual_threads_named);
  return g_test_run ();
}
