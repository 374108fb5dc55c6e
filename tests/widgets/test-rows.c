/* test-rows: views of very many rows in a small window query and draw only the rows that show,
 * and their images are as tall as the screen, not as the rows (docs/views.md, "Any number of
 * rows"). */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "jvms-palette.h"
#include "jvms-row-cells.h"
#include "jvms-state-names.h"
#include "jvms-threads-view.h"

#define SECOND G_GINT64_CONSTANT (1000000000)
#define T0 G_GINT64_CONSTANT (1700000000000000000)
#define N_THREADS 100000
#define FIRST_TID 1000
#define WINDOW_WIDTH 900
#define WINDOW_HEIGHT 400

typedef struct
{
  char        *dir;
  char        *path;
  JvmsHistory *history;
  JvmsSession *session;
} Fixture;

/* Thread FIRST_TID + i runs (even i) or sleeps (odd i) from T0 to the end; its user state is
 * its only attribute, so that 100,000 threads build quickly. Their kind is unknown: one group. */
static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistoryBuilder) b = NULL;

  f->dir = g_dir_make_tmp ("test-rows-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "rows.jvmsidx", NULL);
  b = jvms_history_builder_new (f->path, T0, NULL, &error);
  g_assert_no_error (error);
  for (int i = 0; i < N_THREADS; i++)
    {
      char name[64];
      g_snprintf (name, sizeof name, "Threads/%d/user-state", FIRST_TID + i);
      g_assert_true (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, name), T0,
                                                      i % 2 ? JVMS_USER_STATE_SLEEPING
                                                            : JVMS_USER_STATE_RUNNING,
                                                      &error));
    }
  g_assert_true (jvms_history_builder_close (b, T0 + 10 * SECOND, &error));
  g_assert_no_error (error);
  f->history = jvms_history_open (f->path, 0, &error);
  g_assert_no_error (error);
  f->session = jvms_session_new ();
  jvms_session_set_history (f->session, f->history);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_assert_finalize_object (f->session);
  jvms_history_unref (f->history);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static gboolean
count_frame (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       data)
{
  (*(guint *) data)++;
  return G_SOURCE_CONTINUE;
}

/* Iterates the main loop until @widget has been through two more frames. */
static void
wait_frames (GtkWidget *widget,
             guint     *frames)
{
  guint until = *frames + 2;

  while (*frames < until)
    g_main_context_iteration (NULL, TRUE);
}

/* What the view draws now, as its own snapshot() makes it: the node and its bounds. */
static GskRenderNode *
view_node (GtkWidget       *view,
           graphene_rect_t *bounds)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;

  GTK_WIDGET_GET_CLASS (view)->snapshot (view, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  gsk_render_node_get_bounds (node, bounds);
  return node;
}

/* The colour the node paints at widget point (@x, @y), as 0xRRGGBB. */
static guint32
node_pixel (GskRenderNode *node,
            int            x,
            int            y)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  guint32 px;

  cairo_translate (cr, -x, -y);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  px = *(guint32 *) (gpointer) cairo_image_surface_get_data (surface) & 0xFFFFFF;
  cairo_surface_destroy (surface);
  return px;
}

static guint32
rgb (JvmsColor c)
{
  /* The state colours are opaque. */
  g_assert_cmpfloat (c.a, ==, 1.0);
  return (guint32) lround (c.r * 255) << 16 | (guint32) lround (c.g * 255) << 8 |
         (guint32) lround (c.b * 255);
}

static guint32
state_rgb (int i)
{
  return rgb (jvms_palette_user_state (jvms_palette_get (FALSE),
                                       i % 2 ? JVMS_USER_STATE_SLEEPING : JVMS_USER_STATE_RUNNING));
}

/* Lanes a view may query for one frame of a window @page pixels high: two lanes a row, for the
 * rows on screen and a margin of a few hundred pixels each side, whatever the number of rows. */
static guint64
lanes_bound (double page)
{
  return 2 * (guint64) ceil ((page + 4 * 512.0) / JVMS_THREADS_VIEW_ROW_HEIGHT);
}

/* 100,000 threads in a scrolled window 400 pixels high, as the window stacks its views: the
 * first frame, a scroll to the last thread and a zoom each query the lanes of a screenful of
 * rows, the view's image covers the screen and not its 2 million pixels, and the last thread is
 * drawn in its colour. */
static void
test_threads_small_window (Fixture       *f,
                           gconstpointer  data)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *viewport = gtk_viewport_new (NULL, NULL);
  GtkWidget *view = jvms_threads_view_new (f->session);
  JvmsThreadsView *tv = JVMS_THREADS_VIEW (view);
  GtkAdjustment *adjustment;
  GskRenderNode *node;
  graphene_rect_t bounds, in_scroller;
  guint frames = 0;
  guint64 before;
  int row_y, last_y, legend, x = JVMS_TIMELINE_GUTTER + 300;
  gint64 v0, v1;

  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, N_THREADS + 1);
  gtk_scrollable_set_vscroll_policy (GTK_SCROLLABLE (viewport), GTK_SCROLL_NATURAL);
  gtk_viewport_set_child (GTK_VIEWPORT (viewport), view);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), viewport);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  gtk_window_set_default_size (GTK_WINDOW (window), WINDOW_WIDTH, WINDOW_HEIGHT);
  gtk_widget_add_tick_callback (view, count_frame, &frames, NULL);

  before = jvms_lane_cells_get_n_queried ();
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (view, &frames);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, 100.0 * WINDOW_HEIGHT);
  g_assert_cmpuint (jvms_lane_cells_get_n_queried () - before, >, 0);
  g_assert_cmpuint (jvms_lane_cells_get_n_queried () - before, <=,
                    lanes_bound (gtk_adjustment_get_page_size (adjustment)));

  /* The first rows, drawn in an image no taller than the screen and its margins. */
  node = view_node (view, &bounds);
  g_assert_cmpfloat (bounds.size.height, <=, gtk_adjustment_get_page_size (adjustment) + 4 * 512);
  /* The legend wraps at the view's width: the rows start below its lines. */
  legend = jvms_timeline_get_legend_height (JVMS_TIMELINE (view), gtk_widget_get_width (view));
  row_y = legend + jvms_threads_view_get_row_y (tv, FIRST_TID + 1);
  g_assert_cmphex (node_pixel (node, x, row_y + JVMS_THREADS_VIEW_USER_LANE_Y + 2), ==,
                   state_rgb (1));
  gsk_render_node_unref (node);

  /* The last thread, scrolled into view as Ctrl+End does: the keyboard row moves there and the
   * enclosing window scrolls to its end. */
  before = jvms_lane_cells_get_n_queried ();
  jvms_timeline_set_cursor_row (JVMS_TIMELINE (view), G_MAXUINT);
  g_assert_cmpuint (jvms_timeline_get_cursor_row (JVMS_TIMELINE (view)), ==, N_THREADS);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==,
                     gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
  wait_frames (view, &frames);
  g_assert_cmpuint (jvms_lane_cells_get_n_queried () - before, >, 0);
  g_assert_cmpuint (jvms_lane_cells_get_n_queried () - before, <=,
                    lanes_bound (gtk_adjustment_get_page_size (adjustment)));
  node = view_node (view, &bounds);
  g_assert_true (gtk_widget_compute_bounds (view, scroller, &in_scroller));
  last_y = legend + jvms_threads_view_get_row_y (tv, FIRST_TID + N_THREADS - 1);
  g_assert_cmpfloat (last_y + in_scroller.origin.y, <, gtk_adjustment_get_page_size (adjustment));
  g_assert_cmpfloat (bounds.origin.y, <=, last_y);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, >=, last_y + JVMS_THREADS_VIEW_ROW_HEIGHT);
  g_assert_cmpfloat (bounds.size.height, <=, gtk_adjustment_get_page_size (adjustment) + 4 * 512);
  g_assert_cmphex (node_pixel (node, x, last_y + JVMS_THREADS_VIEW_USER_LANE_Y + 2), ==,
                   state_rgb (N_THREADS - 1));
  gsk_render_node_unref (node);

  /* Zooming there asks the index again for the same rows only. */
  before = jvms_lane_cells_get_n_queried ();
  jvms_session_get_visible (f->session, &v0, &v1);
  jvms_session_zoom_at (f->session, v0 + (v1 - v0) / 2, 0.5);
  wait_frames (view, &frames);
  g_assert_cmpuint (jvms_lane_cells_get_n_queried () - before, >, 0);
  g_assert_cmpuint (jvms_lane_cells_get_n_queried () - before, <=,
                    lanes_bound (gtk_adjustment_get_page_size (adjustment)));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The rows of a command-line render or an export tile: the last ten of 100,000 into an image of
 * ten rows, querying those rows only. */
static void
test_render_rows (Fixture       *f,
                  gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (f->session));
  JvmsTimeline *timeline = JVMS_TIMELINE (view);
  guint n = jvms_timeline_get_n_rows (timeline);
  int height = 10 * JVMS_THREADS_VIEW_ROW_HEIGHT, y, h;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WINDOW_WIDTH, height);
  cairo_t *cr = cairo_create (surface);
  guint64 before = jvms_lane_cells_get_n_queried ();
  const guint8 *px;
  int stride;

  g_assert_cmpuint (n, ==, N_THREADS + 1);
  g_assert_true (jvms_timeline_get_row_bounds (timeline, n - 1, &y, &h));
  g_assert_cmpint (h, ==, JVMS_THREADS_VIEW_ROW_HEIGHT);
  g_assert_cmpint (y, ==, jvms_threads_view_get_row_y (JVMS_THREADS_VIEW (view),
                                                       FIRST_TID + N_THREADS - 1));
  jvms_timeline_render_rows (timeline, cr, WINDOW_WIDTH, n - 10, n, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  /* Their user-state lanes: the history has no kernel states. */
  g_assert_cmpuint (jvms_lane_cells_get_n_queried () - before, ==, 10);

  px = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int r = 0; r < 10; r++)
    {
      int i = N_THREADS - 10 + r;
      int py = r * JVMS_THREADS_VIEW_ROW_HEIGHT + JVMS_THREADS_VIEW_USER_LANE_Y + 2;
      guint32 got = ((const guint32 *) (gconstpointer) (px + (gsize) py * stride))[JVMS_TIMELINE_GUTTER + 300];
      g_assert_cmphex (got & 0xFFFFFF, ==, state_rgb (i));
    }
  cairo_surface_destroy (surface);
  g_assert_finalize_object (view);
}

/* A pool of 100 threads named worker-0 … worker-99 (Java), of which 10 run and 90 sleep over
 * the first half, and all sleep in the second: the kind grouping folds the pool into one row
 * whose summary lanes say so, pixel by pixel. */
#define POOL 100
#define POOL_RUNNING 10

static void
write_pool_history (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistoryBuilder) b = jvms_history_builder_new (path, T0, NULL, &error);

  g_assert_no_error (error);
  for (int i = 0; i < POOL; i++)
    {
      char attr[64], name[32];
      JvmsAttribute user;

      g_snprintf (attr, sizeof attr, "Threads/%d/name", FIRST_TID + i);
      g_snprintf (name, sizeof name, "worker-%d", i);
      g_assert_true (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, attr), T0, name, &error));
      g_snprintf (attr, sizeof attr, "Threads/%d/kind", FIRST_TID + i);
      g_assert_true (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, attr), T0, JVMS_THREAD_KIND_JAVA, &error));
      g_snprintf (attr, sizeof attr, "Threads/%d/user-state", FIRST_TID + i);
      user = jvms_history_builder_attribute (b, attr);
      g_assert_true (jvms_history_builder_modify_int (b, user, T0, i < POOL_RUNNING ? JVMS_USER_STATE_RUNNING
                                                                                  : JVMS_USER_STATE_SLEEPING, &error));
    }
  for (int i = 0; i < POOL_RUNNING; i++)
    {
      char attr[64];
      g_snprintf (attr, sizeof attr, "Threads/%d/user-state", FIRST_TID + i);
      g_assert_true (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, attr), T0 + 5 * SECOND,
                                                      JVMS_USER_STATE_SLEEPING, &error));
    }
  g_assert_true (jvms_history_builder_close (b, T0 + 10 * SECOND, &error));
  g_assert_no_error (error);
}

/* Draws @view into @surface (cleared) as a frame on screen or as an export. */
static void
render_as (GtkWidget       *view,
           cairo_surface_t *surface,
           int              height,
           gboolean         frame)
{
  cairo_t *cr = cairo_create (surface);

  cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
  cairo_paint (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
  if (frame)
    jvms_timeline_render_frame (JVMS_TIMELINE (view), cr, WINDOW_WIDTH, height, FALSE);
  else
    jvms_timeline_render (JVMS_TIMELINE (view), cr, WINDOW_WIDTH, height, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
}

static void
test_folded_pool_summary (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-rows-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "pool.jvmsidx", NULL);
  g_autoptr(JvmsHistory) history = NULL;
  JvmsSession *session = jvms_session_new ();
  GtkWidget *view;
  JvmsThreadsView *tv;
  int height, y, h, legend, lane_bottom;
  cairo_surface_t *surface;
  cairo_t *cr;
  guint32 running = state_rgb (0), sleeping = state_rgb (1);
  int early = JVMS_TIMELINE_GUTTER + 100, late = WINDOW_WIDTH - 100;
  /* 10 of 100 threads of a 15-pixel lane: 1.5 pixels, rounded to 2. */
  int running_px = (int) lround (JVMS_THREADS_VIEW_SUMMARY_HEIGHT * (double) POOL_RUNNING / POOL);

  g_assert_no_error (error);
  write_pool_history (path);
  history = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  jvms_session_set_history (session, history);
  view = g_object_ref_sink (jvms_threads_view_new (session));
  tv = JVMS_THREADS_VIEW (view);

  /* The Java group, and in it the pool, folded: two rows. */
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 2);
  g_assert_true (jvms_threads_view_get_group_folded (tv, "kind:java/pool:worker-#"));
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, FIRST_TID), ==, -1);
  g_assert_true (jvms_timeline_get_row_bounds (JVMS_TIMELINE (view), 1, &y, &h));
  g_assert_cmpint (h, ==, JVMS_THREADS_VIEW_FOLDED_HEIGHT);

  legend = jvms_timeline_get_legend_height (JVMS_TIMELINE (view), WINDOW_WIDTH);
  height = legend + y + h;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WINDOW_WIDTH, height);
  cr = cairo_create (surface);
  jvms_timeline_render (JVMS_TIMELINE (view), cr, WINDOW_WIDTH, height, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  lane_bottom = legend + y + JVMS_THREADS_VIEW_SUMMARY_USER_Y +
                JVMS_THREADS_VIEW_SUMMARY_HEIGHT;
  for (int r = 1; r <= JVMS_THREADS_VIEW_SUMMARY_HEIGHT; r++)
    {
      const guint8 *row = cairo_image_surface_get_data (surface) +
                          (gsize) (lane_bottom - r) * cairo_image_surface_get_stride (surface);
      guint32 first = ((const guint32 *) (gconstpointer) row)[early] & 0xFFFFFF;
      guint32 second = ((const guint32 *) (gconstpointer) row)[late] & 0xFFFFFF;

      /* Running threads at the bottom of the first half, sleeping above; all asleep after. */
      g_assert_cmphex (first, ==, r <= running_px ? running : sleeping);
      g_assert_cmphex (second, ==, sleeping);
    }

  /* On screen a frame counts the pool for a while and the ticks after it go on (here one step of
   * 4 threads each): the frame shows part of the counts, and once the ticks have counted every
   * thread the frame drawn from the cache is the export's, pixel for pixel. An export right after
   * a partial frame, whose range the cache holds, finishes the counts before drawing. */
  {
    int stride = cairo_image_surface_get_stride (surface);
    gsize bytes = (gsize) stride * height;
    g_autofree guint8 *full = g_memdup2 (cairo_image_surface_get_data (surface), bytes);
    cairo_surface_t *after = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WINDOW_WIDTH, height);
    cairo_surface_t *fresh = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WINDOW_WIDTH, height);
    gint64 t0, t1;
    guint ticks = 0;

    jvms_session_get_visible (session, &t0, &t1);
    jvms_threads_view_set_summary_time (tv, 0);
    jvms_session_set_visible (session, t0 + SECOND, t1, FALSE);
    render_as (view, after, height, TRUE);
    render_as (view, after, height, FALSE);
    jvms_session_set_visible (session, t0, t1, FALSE);
    render_as (view, surface, height, TRUE);
    g_assert_true (memcmp (cairo_image_surface_get_data (surface), full, bytes) != 0);
    /* 100 threads, 4 a step, one step in the frame: 23 ticks say more is left, the 24th ends. */
    while (jvms_threads_view_step_summaries (tv) && ticks < POOL)
      ticks++;
    g_assert_cmpuint (ticks, ==, (POOL + 3) / 4 - 2);
    render_as (view, surface, height, TRUE);
    g_assert_cmpmem (cairo_image_surface_get_data (surface), bytes, full, bytes);
    jvms_session_set_visible (session, t0 + SECOND, t1, FALSE);
    render_as (view, fresh, height, FALSE);
    g_assert_cmpmem (cairo_image_surface_get_data (after), bytes,
                     cairo_image_surface_get_data (fresh), bytes);
    cairo_surface_destroy (after);
    cairo_surface_destroy (fresh);
  }
  cairo_surface_destroy (surface);

  /* Unfolded: the pool's header and its hundred threads. */
  g_assert_true (jvms_threads_view_set_group_folded (tv, "kind:java/pool:worker-#", FALSE));
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 2 + POOL);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, FIRST_TID + POOL - 1), >, 0);

  g_assert_finalize_object (view);
  g_assert_finalize_object (session);
  g_clear_pointer (&history, jvms_history_unref);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_test_add ("/Rows/threads/hundred-thousand-in-a-small-window", Fixture, NULL, fixture_setup,
              test_threads_small_window, fixture_teardown);
  g_test_add ("/Rows/threads/render-rows", Fixture, NULL, fixture_setup, test_render_rows,
              fixture_teardown);
  g_test_add_func ("/Rows/threads/folded-pool-summary", test_folded_pool_summary);
  return g_test_run ();
}
