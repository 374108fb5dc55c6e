/* test-widgets: the views drawn offscreen over small histories whose intervals are known,
 * checked pixel by pixel, plus the session's navigation rules. */
#include "config.h"

#include <adwaita.h>
#include <cairo-svg.h>
#include <glib/gstdio.h>
#include <math.h>

#include "jvms-allocation-view.h"
#include "jvms-counters-view.h"
#include "jvms-cpus-view.h"
#include "jvms-event-writer.h"
#include "jvms-events-view.h"
#include "jvms-gc-view.h"
#include "jvms-lane.h"
#include "jvms-locks-view.h"
#include "jvms-object-age-view.h"
#include "jvms-palette.h"
#include "jvms-row-cells.h"
#include "jvms-state-names.h"
#include "jvms-synthetic-history.h"
#include "jvms-threads-view.h"
#include "jvms-time-ruler.h"
#include "jvms-view-render.h"

#define SECOND G_GINT64_CONSTANT (1000000000)
#define T0 G_GINT64_CONSTANT (1700000000000000000)
#define WIDTH (JVMS_TIMELINE_GUTTER + 1000)
#define HEIGHT 300
#define TID 100
#define OTHER_TID 200
#define LOCK_ADDR G_GINT64_CONSTANT (0x7f0000001000)

typedef struct
{
  char        *dir;
  char        *path;
  JvmsHistory *history;
  JvmsSession *session;
} Fixture;

/* Thread 100 (Java) runs for 10 s except one BLOCKED microsecond at 5 s on monitor LOCK_ADDR
 * held by thread 200; thread 200 (another process) sleeps, and runs on CPU 1 from 2 s to 4 s
 * while thread 100 runs on CPU 0 throughout. */
static void
write_known_history (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistoryBuilder) b = jvms_history_builder_new (path, T0, NULL, &error);
  JvmsAttribute user, kernel, monitor, owner, detail;

  g_assert_no_error (error);
#define OK(x) G_STMT_START { g_assert_true (x); g_assert_no_error (error); } G_STMT_END
  OK (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, "Threads/100/name"), T0, "main", &error));
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "Threads/100/kind"), T0, JVMS_THREAD_KIND_JAVA, &error));
  OK (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, "Threads/200/name"), T0, "sshd", &error));
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "Threads/200/kind"), T0, JVMS_THREAD_KIND_OTHER_PROCESS, &error));
  user = jvms_history_builder_attribute (b, "Threads/100/user-state");
  kernel = jvms_history_builder_attribute (b, "Threads/100/kernel-state");
  monitor = jvms_history_builder_attribute (b, "Threads/100/user-state/monitor");
  owner = jvms_history_builder_attribute (b, "Threads/100/user-state/owner");
  detail = jvms_history_builder_attribute (b, "Threads/100/user-state/detail");
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "Threads/200/kernel-state"), T0, JVMS_KERNEL_STATE_BLOCKED, &error));
  OK (jvms_history_builder_modify_int (b, user, T0, JVMS_USER_STATE_RUNNING, &error));
  OK (jvms_history_builder_modify_int (b, kernel, T0, JVMS_KERNEL_STATE_RUNNING, &error));
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "CPUs/0/current-thread"), T0, TID, &error));
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "CPUs/1/current-thread"), T0 + 2 * SECOND, OTHER_TID, &error));
  OK (jvms_history_builder_modify_null (b, jvms_history_builder_attribute (b, "CPUs/1/current-thread"), T0 + 4 * SECOND, &error));
  OK (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, "Locks/0x7f0000001000/class"), T0, "java.lang.Object", &error));
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "Locks/0x7f0000001000/owner"), T0 + 5 * SECOND, OTHER_TID, &error));
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "Locks/0x7f0000001000/waiters"), T0 + 5 * SECOND, 1, &error));
  OK (jvms_history_builder_modify_int (b, user, T0 + 5 * SECOND, JVMS_USER_STATE_BLOCKED, &error));
  OK (jvms_history_builder_modify_int (b, monitor, T0 + 5 * SECOND, LOCK_ADDR, &error));
  OK (jvms_history_builder_modify_int (b, owner, T0 + 5 * SECOND, OTHER_TID, &error));
  OK (jvms_history_builder_modify_string (b, detail, T0 + 5 * SECOND, "java.lang.Object", &error));
  OK (jvms_history_builder_modify_int (b, user, T0 + 5 * SECOND + 1000, JVMS_USER_STATE_RUNNING, &error));
  OK (jvms_history_builder_modify_null (b, monitor, T0 + 5 * SECOND + 1000, &error));
  OK (jvms_history_builder_modify_null (b, owner, T0 + 5 * SECOND + 1000, &error));
  OK (jvms_history_builder_modify_null (b, detail, T0 + 5 * SECOND + 1000, &error));
  OK (jvms_history_builder_modify_null (b, jvms_history_builder_attribute (b, "Locks/0x7f0000001000/owner"), T0 + 5 * SECOND + 1000, &error));
  OK (jvms_history_builder_modify_null (b, jvms_history_builder_attribute (b, "Locks/0x7f0000001000/waiters"), T0 + 5 * SECOND + 1000, &error));
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "Memory/heap-committed"), T0, 100 << 20, &error));
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "Memory/heap-used"), T0, 10 << 20, &error));
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "Memory/heap-used"), T0 + 5 * SECOND, 90 << 20, &error));
  OK (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "Memory/heap-used"), T0 + 5 * SECOND + 1000, 20 << 20, &error));
  OK (jvms_history_builder_close (b, T0 + 10 * SECOND, &error));
#undef OK
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("test-widgets-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "known.jvmsidx", NULL);
  write_known_history (f->path);
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

typedef struct
{
  cairo_surface_t *surface;
} Image;

static cairo_surface_t *
render (GtkWidget *view,
        int        width,
        int        height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  if (JVMS_IS_TIMELINE (view))
    jvms_timeline_render (JVMS_TIMELINE (view), cr, width, height, FALSE);
  else
    jvms_time_ruler_render (JVMS_TIME_RULER (view), cr, width, height, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* Pixel as 0xRRGGBB (surfaces here are opaque: the background is painted). */
static guint32
pixel (cairo_surface_t *surface,
       int              x,
       int              y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  return ((const guint32 *) (data + (gsize) y * stride))[x] & 0xFFFFFF;
}

/* The colour a state paints over the light background, as cairo composes it. */
static guint32
expected (JvmsColor c)
{
  const JvmsPalette *p = jvms_palette_get (FALSE);
  int r = (int) round ((c.r * c.a + p->background.r * (1 - c.a)) * 255);
  int g = (int) round ((c.g * c.a + p->background.g * (1 - c.a)) * 255);
  int b = (int) round ((c.b * c.a + p->background.b * (1 - c.a)) * 255);
  return (guint32) (r << 16 | g << 8 | b);
}

/* @c composed over opaque 0xRRGGBB @under. */
static guint32
expected_over (JvmsColor c,
               guint32   under)
{
  double ur = (under >> 16 & 0xFF) / 255.0, ug = (under >> 8 & 0xFF) / 255.0, ub = (under & 0xFF) / 255.0;
  int r = (int) round ((c.r * c.a + ur * (1 - c.a)) * 255);
  int g = (int) round ((c.g * c.a + ug * (1 - c.a)) * 255);
  int b = (int) round ((c.b * c.a + ub * (1 - c.a)) * 255);
  return (guint32) (r << 16 | g << 8 | b);
}

static gboolean
close_color (guint32 a,
             guint32 b)
{
  for (int shift = 0; shift < 24; shift += 8)
    if (ABS ((int) ((a >> shift) & 0xFF) - (int) ((b >> shift) & 0xFF)) > 2)
      return FALSE;
  return TRUE;
}

static int
lane_y (JvmsThreadsView *view,
        gint64           tid,
        gboolean         kernel)
{
  int row = jvms_threads_view_get_row_y (view, tid);
  g_assert_cmpint (row, >=, 0);
  return jvms_timeline_get_legend_height (JVMS_TIMELINE (view), WIDTH) + row +
         (kernel ? JVMS_THREADS_VIEW_KERNEL_LANE_Y : JVMS_THREADS_VIEW_USER_LANE_Y);
}

static void
test_threads_short_state_survives (Fixture       *f,
                                   gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (f->session));
  const JvmsPalette *p = jvms_palette_get (FALSE);
  cairo_surface_t *s;
  int y, x_blocked, x_other;
  guint32 running = expected (jvms_palette_user_state (p, JVMS_USER_STATE_RUNNING));
  guint32 blocked = expected (jvms_palette_user_state (p, JVMS_USER_STATE_BLOCKED));

  /* 10 s over 1000 columns: the blocked microsecond is 1/10000 of its column. */
  s = render (view, WIDTH, HEIGHT);
  y = lane_y (JVMS_THREADS_VIEW (view), TID, FALSE);
  x_blocked = JVMS_TIMELINE_GUTTER + 500;
  x_other = JVMS_TIMELINE_GUTTER + 250;
  /* Top of the lane: the dominant state, Running, in both columns. */
  g_assert_true (close_color (pixel (s, x_other, y + 1), running));
  g_assert_true (close_color (pixel (s, x_blocked, y + 1), running));
  /* Bottom of the lane: the mixed mark in the blocked column only. */
  g_assert_true (close_color (pixel (s, x_blocked, y + JVMS_THREADS_VIEW_LANE_HEIGHT - 1),
                              expected_over (p->mixed_mark, running)));
  g_assert_true (close_color (pixel (s, x_other, y + JVMS_THREADS_VIEW_LANE_HEIGHT - 1), running));
  g_assert_true (close_color (pixel (s, x_blocked + 1, y + JVMS_THREADS_VIEW_LANE_HEIGHT - 1),
                              running));
  cairo_surface_destroy (s);

  /* Zoomed to 10 µs around it, the state itself fills its 100 columns. */
  jvms_session_set_visible (f->session, T0 + 5 * SECOND - 5000, T0 + 5 * SECOND + 5000, TRUE);
  s = render (view, WIDTH, HEIGHT);
  g_assert_true (close_color (pixel (s, JVMS_TIMELINE_GUTTER + 550, y + 1), blocked));
  g_assert_true (close_color (pixel (s, JVMS_TIMELINE_GUTTER + 450, y + 1), running));
  g_assert_true (close_color (pixel (s, JVMS_TIMELINE_GUTTER + 650, y + 1), running));
  cairo_surface_destroy (s);
  g_assert_finalize_object (view);
}

static void
test_threads_groups_and_filter (Fixture       *f,
                                gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (f->session));
  JvmsThreadsView *tv = JVMS_THREADS_VIEW (view);

  /* Java group + main; other processes folded by default (header only). */
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 3);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, OTHER_TID), ==, -1);
  jvms_threads_view_set_group_collapsed (tv, JVMS_THREAD_KIND_OTHER_PROCESS, FALSE);
  /* ... which holds its processes, folded too (thread 200's pid is unknown). */
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 4);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, OTHER_TID), ==, -1);
  g_assert_true (jvms_threads_view_get_group_folded (tv, "kind:other-process/pid:unknown"));
  g_assert_true (jvms_threads_view_set_group_folded (tv, "kind:other-process/pid:unknown", FALSE));
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 5);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, OTHER_TID), >, jvms_threads_view_get_row_y (tv, TID));
  g_object_set (view, "filter", "SSH", NULL);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, TID), ==, -1);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, OTHER_TID), >=, 0);
  g_object_set (view, "filter", "100", NULL);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, TID), >=, 0);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, OTHER_TID), ==, -1);
  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (view)), ==,
                   GTK_ACCESSIBLE_ROLE_GROUP);
  g_assert_finalize_object (view);
}

static void
test_threads_tooltip (Fixture       *f,
                      gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (f->session));
  cairo_surface_t *s;
  g_autofree char *text = NULL;
  g_autofree char *overview = NULL;
  int y;

  jvms_session_set_visible (f->session, T0 + 5 * SECOND - 5000, T0 + 5 * SECOND + 5000, TRUE);
  s = render (view, WIDTH, HEIGHT);
  cairo_surface_destroy (s);
  y = lane_y (JVMS_THREADS_VIEW (view), TID, FALSE) + 2;
  text = jvms_timeline_get_tooltip_text_at (JVMS_TIMELINE (view), JVMS_TIMELINE_GUTTER + 550, y);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "main"));
  g_assert_nonnull (strstr (text, jvms_user_state_display_name (JVMS_USER_STATE_BLOCKED)));
  g_assert_nonnull (strstr (text, "1.000 µs"));
  g_assert_nonnull (strstr (text, "java.lang.Object"));
  g_assert_nonnull (strstr (text, "0x7f0000001000"));

  /* Zoomed out, the running interval is under the pointer, and the tooltip names the blocked
   * microsecond hiding in the same pixel. */
  jvms_session_zoom_all (f->session);
  s = render (view, WIDTH, HEIGHT);
  cairo_surface_destroy (s);
  overview = jvms_timeline_get_tooltip_text_at (JVMS_TIMELINE (view), JVMS_TIMELINE_GUTTER + 500, y);
  g_assert_nonnull (overview);
  g_assert_nonnull (strstr (overview, jvms_user_state_display_name (JVMS_USER_STATE_RUNNING)));
  g_assert_nonnull (strstr (overview, jvms_user_state_display_name (JVMS_USER_STATE_BLOCKED)));
  g_assert_nonnull (strstr (overview, "1.000 µs"));
  g_assert_finalize_object (view);
}

static void
test_selection_band (Fixture       *f,
                     gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_cpus_view_new (f->session));
  GtkWidget *ruler = g_object_ref_sink (jvms_time_ruler_new (f->session));
  cairo_surface_t *before, *after, *ruler_before, *ruler_after;
  int x_in = JVMS_TIMELINE_GUTTER + 150, x_out = JVMS_TIMELINE_GUTTER + 700;
  int y = JVMS_TIMELINE_LEGEND_HEIGHT + 2 * JVMS_CPUS_VIEW_ROW_HEIGHT + 4; /* below the CPUs */
  /* The ruler's row between the labels and the ticks: only the band may paint there. */
  int ruler_y = 19;

  before = render (view, WIDTH, HEIGHT);
  ruler_before = render (ruler, WIDTH, 30);
  jvms_session_set_selection (f->session, T0 + 2 * SECOND, T0 + 1 * SECOND);
  g_assert_true (jvms_session_get_has_selection (f->session));
  after = render (view, WIDTH, HEIGHT);
  ruler_after = render (ruler, WIDTH, 30);
  g_assert_cmphex (pixel (before, x_in, y), ==, pixel (before, x_out, y));
  g_assert_cmphex (pixel (after, x_in, y), !=, pixel (before, x_in, y));
  g_assert_cmphex (pixel (after, x_out, y), ==, pixel (before, x_out, y));
  /* The same ruler pixels with and without the selection: the band, and only inside it. */
  g_assert_cmphex (pixel (ruler_before, x_in, ruler_y), ==, pixel (ruler_before, x_out, ruler_y));
  g_assert_cmphex (pixel (ruler_after, x_in, ruler_y), !=, pixel (ruler_before, x_in, ruler_y));
  g_assert_cmphex (pixel (ruler_after, x_out, ruler_y), ==, pixel (ruler_before, x_out, ruler_y));
  cairo_surface_destroy (before);
  cairo_surface_destroy (after);
  cairo_surface_destroy (ruler_before);
  cairo_surface_destroy (ruler_after);
  g_assert_finalize_object (view);
  g_assert_finalize_object (ruler);
}

static void
test_cpus_colours (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_cpus_view_new (f->session));
  const JvmsPalette *p = jvms_palette_get (FALSE);
  cairo_surface_t *s = render (view, WIDTH, HEIGHT);
  int y0 = JVMS_TIMELINE_LEGEND_HEIGHT + JVMS_CPUS_VIEW_LANE_Y + 1;
  int y1 = y0 + JVMS_CPUS_VIEW_ROW_HEIGHT;

  g_assert_cmpuint (jvms_cpus_view_get_n_cpus (JVMS_CPUS_VIEW (view)), ==, 2);
  g_assert_true (close_color (pixel (s, JVMS_TIMELINE_GUTTER + 300, y0),
                              expected (jvms_palette_thread (p, TID, FALSE))));
  g_assert_true (close_color (pixel (s, JVMS_TIMELINE_GUTTER + 300, y1),
                              expected (jvms_palette_thread (p, OTHER_TID, TRUE))));
  /* CPU 1 is idle before 2 s: background. */
  g_assert_true (close_color (pixel (s, JVMS_TIMELINE_GUTTER + 100, y1), expected (p->background)));
  cairo_surface_destroy (s);
  g_assert_finalize_object (view);
}

/* A CPU running 40 threads one after the other (more colours than a lane fills in batches)
 * and 30 CPUs of one thread each, scrolled: every column of every row on screen must show the
 * colour of the thread the history says held it (the oracle: a thread per CPU and per 250 ms). */
#define MANY_THREADS 40
#define MANY_CPUS 30

static void
write_many_threads_history (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistoryBuilder) b = jvms_history_builder_new (path, T0, NULL, &error);
  JvmsAttribute busy;

  g_assert_no_error (error);
  busy = jvms_history_builder_attribute (b, "CPUs/0/current-thread");
  for (int i = 0; i < MANY_THREADS; i++)
    g_assert_true (jvms_history_builder_modify_int (b, busy, T0 + i * (10 * SECOND / MANY_THREADS),
                                                    1000 + i, &error));
  for (int k = 1; k < MANY_CPUS; k++)
    {
      g_autofree char *name = g_strdup_printf ("CPUs/%d/current-thread", k);
      g_assert_true (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, name),
                                                      T0, 2000 + k, &error));
    }
  g_assert_true (jvms_history_builder_close (b, T0 + 10 * SECOND, &error));
  g_assert_no_error (error);
}

static void
test_cpus_many_threads_and_scroll (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-widgets-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "many.jvmsidx", NULL);
  g_autoptr(JvmsHistory) history = NULL;
  JvmsSession *session = jvms_session_new ();
  GtkWidget *view;
  const JvmsPalette *p = jvms_palette_get (FALSE);
  int columns_per_thread = (WIDTH - JVMS_TIMELINE_GUTTER) / MANY_THREADS;
  int rows_shown = 6, first_shown = 12;
  int height = JVMS_TIMELINE_LEGEND_HEIGHT + rows_shown * JVMS_CPUS_VIEW_ROW_HEIGHT;
  cairo_surface_t *s;

  g_assert_no_error (error);
  write_many_threads_history (path);
  history = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  jvms_session_set_history (session, history);
  view = g_object_ref_sink (jvms_cpus_view_new (session));
  g_assert_cmpuint (jvms_cpus_view_get_n_cpus (JVMS_CPUS_VIEW (view)), ==, MANY_CPUS);

  /* CPU 0: each thread's columns in its own colour (away from the edges of its span). */
  s = render (view, WIDTH, HEIGHT);
  for (int i = 0; i < MANY_THREADS; i++)
    for (int c = 2; c < columns_per_thread - 2; c++)
      {
        int x = JVMS_TIMELINE_GUTTER + i * columns_per_thread + c;
        int y = JVMS_TIMELINE_LEGEND_HEIGHT + JVMS_CPUS_VIEW_LANE_Y + 1;
        if (!close_color (pixel (s, x, y), expected (jvms_palette_thread (p, 1000 + i, TRUE))))
          g_error ("CPU 0, thread %d, column %d: 0x%06x", 1000 + i, x, pixel (s, x, y));
      }
  cairo_surface_destroy (s);

  /* Scrolled to row 12 in a view six rows high: the rows on screen are CPUs 12 to 17. */
  s = render (view, WIDTH, height);
  jvms_timeline_set_v_offset (JVMS_TIMELINE (view), first_shown * JVMS_CPUS_VIEW_ROW_HEIGHT);
  cairo_surface_destroy (s);
  s = render (view, WIDTH, height);
  for (int r = 0; r < rows_shown; r++)
    {
      int k = first_shown + r;
      int y = JVMS_TIMELINE_LEGEND_HEIGHT + r * JVMS_CPUS_VIEW_ROW_HEIGHT + JVMS_CPUS_VIEW_LANE_Y + 1;
      JvmsColor c = jvms_palette_thread (p, 2000 + k, TRUE);
      for (int x = JVMS_TIMELINE_GUTTER + 1; x < WIDTH; x += 97)
        if (!close_color (pixel (s, x, y), expected (c)))
          g_error ("row %d (CPU %d), column %d: 0x%06x", r, k, x, pixel (s, x, y));
    }
  cairo_surface_destroy (s);

  g_assert_finalize_object (view);
  g_assert_finalize_object (session);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_locks_highlight (Fixture       *f,
                      gconstpointer  data)
{
  GtkWidget *locks = g_object_ref_sink (jvms_locks_view_new (f->session));
  GtkWidget *threads = g_object_ref_sink (jvms_threads_view_new (f->session));
  cairo_surface_t *plain, *highlighted;
  int y = lane_y (JVMS_THREADS_VIEW (threads), TID, FALSE);

  g_assert_cmpuint (jvms_locks_view_get_n_locks (JVMS_LOCKS_VIEW (locks)), ==, 1);
  plain = render (threads, WIDTH, HEIGHT);
  jvms_locks_view_select (JVMS_LOCKS_VIEW (locks), LOCK_ADDR);
  g_assert_cmpint (jvms_session_get_highlighted_monitor (f->session), ==, LOCK_ADDR);
  /* The waiter (100) and the owner (200). */
  g_assert_true (jvms_session_is_thread_highlighted (f->session, TID));
  g_assert_true (jvms_session_is_thread_highlighted (f->session, OTHER_TID));
  g_assert_cmpuint (jvms_session_get_highlighted_threads (f->session)->len, ==, 2);
  /* The highlighted thread gets a mark at the left edge of its row. */
  highlighted = render (threads, WIDTH, HEIGHT);
  g_assert_cmphex (pixel (highlighted, 1, y + 2), !=, pixel (plain, 1, y + 2));
  cairo_surface_destroy (plain);
  cairo_surface_destroy (highlighted);
  g_assert_finalize_object (locks);
  g_assert_finalize_object (threads);
}

static void
test_gc_heap_peak (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_gc_view_new (f->session));
  const JvmsPalette *p = jvms_palette_get (FALSE);
  cairo_surface_t *s = render (view, WIDTH, HEIGHT);
  int x = JVMS_TIMELINE_GUTTER + 500;
  int top = -1, top_elsewhere = -1;

  /* The 1 µs peak to 90 MiB survives at 10 ms a pixel: its column rises far above its
   * neighbours (20 MiB). Find the highest pixel of the used line in each column. */
  for (int y = JVMS_TIMELINE_LEGEND_HEIGHT; y < HEIGHT && (top < 0 || top_elsewhere < 0); y++)
    {
      if (top < 0 && close_color (pixel (s, x, y), expected (p->line_a)))
        top = y;
      if (top_elsewhere < 0 && close_color (pixel (s, x + 100, y), expected (p->line_a)))
        top_elsewhere = y;
    }
  g_assert_cmpint (top, >=, 0);
  g_assert_cmpint (top_elsewhere, >=, 0);
  g_assert_cmpint (top_elsewhere - top, >, 30);
  cairo_surface_destroy (s);
  g_assert_finalize_object (view);
}

/* The centre of the ink of column @x over rows [@y0, @y1): where an antialiased line is. */
static double
ink_centre (cairo_surface_t *s, int x, int y0, int y1, guint32 bg)
{
  double ink = 0, sum = 0;
  for (int y = y0; y < y1; y++)
    {
      guint32 px = pixel (s, x, y);
      double w = ABS ((int) (px >> 16 & 0xFF) - (int) (bg >> 16 & 0xFF)) +
                 ABS ((int) (px >> 8 & 0xFF) - (int) (bg >> 8 & 0xFF)) +
                 ABS ((int) (px & 0xFF) - (int) (bg & 0xFF));
      ink += w;
      sum += w * (y + 0.5);
    }
  g_assert_cmpfloat (ink, >, 0);
  return sum / ink;
}

/* Heap used is recorded before and after each collection (jdk.GCHeapSummary): 10 MiB at 1.005 s,
 * a collection from 70 down to 10 MiB at 4.005-4.006 s, another at 7.005-7.006 s. The chart
 * draws straight lines between the recorded points (it held each value flat until the next),
 * and marks the points with hollow squares. */
static void
test_gc_heap_line (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-widgets-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "heap.jvmsidx", NULL);
  g_autoptr(JvmsHistoryBuilder) b = jvms_history_builder_new (path, T0, NULL, &error);
  const gint64 ms = 1000000;
  static const struct { gint64 ms_x1000; int mib; } points[] = {
    { 1005000, 10 }, { 4005000, 70 }, { 4006000, 10 }, { 7005000, 70 }, { 7006000, 10 },
  };
  const JvmsPalette *p = jvms_palette_get (FALSE);
  JvmsAttribute used;
  JvmsHistory *history;
  JvmsSession *session;
  GtkWidget *view;
  cairo_surface_t *s;
  int top, chart_top, chart_h = 80 - 8, x, n = 0;
  double want;

  g_assert_no_error (error);
  used = jvms_history_builder_attribute (b, "Memory/heap-used");
  for (guint i = 0; i < G_N_ELEMENTS (points); i++)
    {
      g_assert_true (jvms_history_builder_modify_int (b, used, T0 + points[i].ms_x1000 * ms / 1000,
                                                      (gint64) points[i].mib << 20, &error));
      g_assert_no_error (error);
    }
  g_assert_true (jvms_history_builder_close (b, T0 + 10 * SECOND, &error));
  history = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  session = jvms_session_new ();
  jvms_session_set_history (session, history);
  view = g_object_ref_sink (jvms_gc_view_new (session));
  s = render (view, WIDTH, HEIGHT);
  top = jvms_timeline_get_legend_height (JVMS_TIMELINE (view), WIDTH);
  /* The heap is the only row: its chart spans [top + 4, top + 4 + 72) for 0 to 70 MiB. */
  chart_top = top + 4;

  /* At 2.505 s, halfway between 10 MiB (1.005 s) and 70 MiB (4.005 s): 40 MiB. Drawn as a
   * step it would be at 10 MiB, 31 pixels lower. */
  x = JVMS_TIMELINE_GUTTER + 250;
  /* Where the antialiased line is: the centre of the column's ink. */
  want = chart_top + chart_h - 40.0 / 70.0 * chart_h;
  g_assert_cmpfloat (fabs (ink_centre (s, x, chart_top - 2, chart_top + chart_h + 2,
                                       expected (p->background)) - want), <, 2.0);

  /* The point at 1.005 s (column 100) is marked: a hollow square, the background inside and the
   * line colour around. */
  {
    int cy = (int) floor (chart_top + chart_h - 10.0 / 70.0 * chart_h);
    int cx = JVMS_TIMELINE_GUTTER + 100;
    g_assert_cmphex (pixel (s, cx, cy), ==, expected (p->background));
    g_assert_true (close_color (pixel (s, cx - 2, cy), expected (p->line_a)));
    g_assert_true (close_color (pixel (s, cx + 2, cy), expected (p->line_a)));
  }

  /* The collection at 4.005 s: a stroke from 70 down to 10 MiB in its column. */
  x = JVMS_TIMELINE_GUTTER + 400;
  n = 0;
  for (int y = chart_top; y < chart_top + chart_h; y++)
    n += close_color (pixel (s, x, y), expected (p->line_a));
  g_assert_cmpint (n, >=, 60.0 / 70.0 * chart_h - 2);

  cairo_surface_destroy (s);
  g_assert_finalize_object (view);
  g_assert_finalize_object (session);
  jvms_history_unref (history);
  g_unlink (path);
  g_rmdir (dir);
}

/* jdk.CPULoad in the GC view (issue 24: the only CPU figure of a profiler's recording): the JVM's
 * user CPU 10 % of all CPUs for [0, 5 s) and 40 % for [5, 10 s), the machine's 80 % throughout.
 * The rows share one scale (80 % rounds up to 100 %): each value is drawn at its height, and the
 * tooltip gives it. */
static void
test_gc_cpu_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-widgets-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "load.jvmsidx", NULL);
  g_autoptr(JvmsHistoryBuilder) b = jvms_history_builder_new (path, T0, NULL, &error);
  const JvmsPalette *p = jvms_palette_get (FALSE);

  g_assert_no_error (error);
  JvmsAttribute user = jvms_history_builder_attribute (b, "Load/jvm-user");
  JvmsAttribute machine = jvms_history_builder_attribute (b, "Load/machine-total");
  g_assert_true (jvms_history_builder_modify_double (b, user, T0, 0.10, &error));
  g_assert_true (jvms_history_builder_modify_double (b, machine, T0, 0.80, &error));
  g_assert_true (jvms_history_builder_modify_double (b, user, T0 + 5 * SECOND, 0.40, &error));
  g_assert_true (jvms_history_builder_close (b, T0 + 10 * SECOND, &error));
  g_assert_no_error (error);
  JvmsHistory *history = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  JvmsSession *session = jvms_session_new ();
  jvms_session_set_history (session, history);
  GtkWidget *view = g_object_ref_sink (jvms_gc_view_new (session));
  cairo_surface_t *s = render (view, WIDTH, HEIGHT);
  int top = jvms_timeline_get_legend_height (JVMS_TIMELINE (view), WIDTH);
  /* Two rows of 32 pixels (JVM user, machine), each a chart in [y + 2, y + 30). */
  const int row_h = 32, chart_h = row_h - 4;
  guint32 bg = expected (p->background);
  double user_early = top + 2 + chart_h - 0.10 * chart_h;
  double user_late = top + 2 + chart_h - 0.40 * chart_h;
  double machine_y = top + row_h + 2 + chart_h - 0.80 * chart_h;

  int x = JVMS_TIMELINE_GUTTER;

  g_assert_cmpfloat (fabs (ink_centre (s, x + 250, top + 3, top + row_h, bg) - user_early), <, 1.5);
  g_assert_cmpfloat (fabs (ink_centre (s, x + 750, top + 3, top + row_h, bg) - user_late), <, 1.5);
  g_assert_cmpfloat (fabs (ink_centre (s, x + 500, top + row_h + 3, top + 2 * row_h, bg) - machine_y),
                     <, 1.5);
  g_autofree char *tip = jvms_timeline_get_tooltip_text_at (JVMS_TIMELINE (view), x + 750, top + 10);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "40.0 %"));

  cairo_surface_destroy (s);
  g_assert_finalize_object (view);
  g_assert_finalize_object (session);
  jvms_history_unref (history);
  g_unlink (path);
  g_rmdir (dir);
}

/* The kernel lane is as tall as the Java lane above it (it was 2 pixels of marks on a thin
 * lane): thread 100 runs in both lanes for the whole trace. */
static void
test_threads_kernel_lane_height (Fixture       *f,
                                 gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (f->session));
  const JvmsPalette *p = jvms_palette_get (FALSE);
  cairo_surface_t *s = render (view, WIDTH, HEIGHT);
  int row = jvms_timeline_get_legend_height (JVMS_TIMELINE (view), WIDTH) +
            jvms_threads_view_get_row_y (JVMS_THREADS_VIEW (view), TID);
  guint32 user = expected (jvms_palette_user_state (p, JVMS_USER_STATE_RUNNING));
  guint32 kernel = expected (jvms_palette_kernel_state (p, JVMS_KERNEL_STATE_RUNNING));
  int x = JVMS_TIMELINE_GUTTER + 200, user_px = 0, kernel_px = 0;

  for (int y = row + JVMS_THREADS_VIEW_USER_LANE_Y; y < row + JVMS_THREADS_VIEW_KERNEL_LANE_Y; y++)
    user_px += close_color (pixel (s, x, y), user);
  for (int y = row + JVMS_THREADS_VIEW_KERNEL_LANE_Y; y < row + JVMS_THREADS_VIEW_ROW_HEIGHT; y++)
    kernel_px += close_color (pixel (s, x, y), kernel);
  g_assert_cmpint (user_px, >=, 10);
  g_assert_cmpint (kernel_px, ==, user_px);
  cairo_surface_destroy (s);
  g_assert_finalize_object (view);
}

static gboolean
press_key (GtkWidget *view,
           guint      keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (view);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_EVENT_CONTROLLER_KEY (c))
        g_signal_emit_by_name (c, "key-pressed", keyval, 0, (GdkModifierType) 0, &handled);
    }
  return handled;
}

static void
test_keys_zoom_and_pan (Fixture       *f,
                        gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (f->session));
  gint64 s, e;

  cairo_surface_destroy (render (view, WIDTH, HEIGHT));
  g_assert_true (press_key (view, GDK_KEY_w));
  jvms_session_get_visible (f->session, &s, &e);
  /* W zooms in by 0.7 around the middle (no pointer). */
  g_assert_cmpint (e - s, ==, (gint64) (10 * SECOND * 0.7));
  g_assert_cmpint (s + (e - s) / 2, >=, T0 + 5 * SECOND - 1);
  g_assert_cmpint (s + (e - s) / 2, <=, T0 + 5 * SECOND + 1);
  g_assert_true (press_key (view, GDK_KEY_d));
  jvms_session_get_visible (f->session, &s, &e);
  g_assert_cmpint (e - s, ==, (gint64) (10 * SECOND * 0.7));
  /* D pans by a fifth of the 7 s span: from 1.5 s to 2.9 s. */
  g_assert_cmpint (s, ==, T0 + 29 * SECOND / 10);
  g_assert_true (press_key (view, GDK_KEY_s));
  g_assert_true (jvms_session_can_go_back (f->session));
  jvms_session_go_back (f->session);
  jvms_session_go_back (f->session);
  jvms_session_get_visible (f->session, &s, &e);
  g_assert_cmpint (s, ==, T0);
  g_assert_cmpint (e, ==, T0 + 10 * SECOND);
  g_assert_true (jvms_session_can_go_forward (f->session));
  g_assert_finalize_object (view);
}

static guint notifications;

static void
count_notify (void)
{
  notifications++;
}

static void
test_session_rules (Fixture       *f,
                    gconstpointer  data)
{
  JvmsSession *session = f->session;
  gint64 s, e, tids[] = { 5, 3, 5, 9 };

  /* Zoom keeps the anchor at the same place on screen. */
  jvms_session_zoom_at (session, T0 + 2 * SECOND, 0.5);
  jvms_session_get_visible (session, &s, &e);
  g_assert_cmpint (s, ==, T0 + 1 * SECOND);
  g_assert_cmpint (e, ==, T0 + 6 * SECOND);
  /* Pans stop at the end without shrinking. */
  jvms_session_pan (session, 10);
  jvms_session_get_visible (session, &s, &e);
  g_assert_cmpint (e, ==, T0 + 10 * SECOND);
  g_assert_cmpint (e - s, ==, 5 * SECOND);
  /* The narrowest zoom. */
  jvms_session_set_visible (session, T0 + 10, T0 + 11, TRUE);
  jvms_session_get_visible (session, &s, &e);
  g_assert_cmpint (e - s, ==, JVMS_SESSION_MIN_SPAN_NS);
  /* Zoom to selection, back. */
  jvms_session_set_selection (session, T0 + 3 * SECOND, T0 + 4 * SECOND);
  jvms_session_zoom_to_selection (session);
  jvms_session_get_visible (session, &s, &e);
  g_assert_cmpint (s, ==, T0 + 3 * SECOND);
  g_assert_cmpint (e, ==, T0 + 4 * SECOND);
  jvms_session_go_back (session);
  jvms_session_get_visible (session, &s, &e);
  g_assert_cmpint (e - s, ==, JVMS_SESSION_MIN_SPAN_NS);
  /* Selection clamps to the trace; an empty one clears. */
  jvms_session_set_selection (session, T0 - SECOND, T0 + SECOND);
  g_assert_true (jvms_session_get_selection (session, &s, &e));
  g_assert_cmpint (s, ==, T0);
  jvms_session_set_selection (session, T0 + 5, T0 + 5);
  g_assert_false (jvms_session_get_has_selection (session));
  /* Highlights: sorted, deduplicated, notified only on change. */
  g_signal_connect_swapped (session, "notify::highlighted-threads", G_CALLBACK (count_notify), NULL);
  notifications = 0;
  jvms_session_set_highlighted_threads (session, tids, G_N_ELEMENTS (tids));
  jvms_session_set_highlighted_threads (session, (gint64[]) { 9, 3, 5 }, 3);
  g_assert_cmpuint (notifications, ==, 1);
  g_assert_cmpuint (jvms_session_get_highlighted_threads (session)->len, ==, 3);
  g_assert_true (jvms_session_is_thread_highlighted (session, 9));
  g_assert_false (jvms_session_is_thread_highlighted (session, 4));
}

static void
count_grouping_notify (GObject    *object,
                       GParamSpec *pspec,
                       guint      *n)
{
  (*n)++;
}

static char *
describe_view (GtkWidget *view)
{
  return JVMS_TIMELINE_GET_CLASS (view)->describe (JVMS_TIMELINE (view));
}

/* Five threads of two processes, two of them one pool: the "grouping" property reorders the
 * rows and names the groups by kind, process, pool or none. */
static void
test_threads_grouping (void)
{
  static const struct { gint64 tid; const char *name; gint64 kind; gint64 pid; } threads[] = {
    { 10, "pool-1-thread-2", JVMS_THREAD_KIND_JAVA, 1000 },
    { 11, "pool-1-thread-1", JVMS_THREAD_KIND_JAVA, 1000 },
    { 20, "GC Thread#0", JVMS_THREAD_KIND_GC, 1000 },
    { 30, "sshd", JVMS_THREAD_KIND_OTHER_PROCESS, 77 },
    { 40, "main", JVMS_THREAD_KIND_JAVA, 1000 },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-widgets-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "grouping.jvmsidx", NULL);
  g_autoptr(JvmsHistoryBuilder) b = jvms_history_builder_new (path, T0, NULL, &error);
  g_autoptr(JvmsHistory) history = NULL;
  g_autoptr(JvmsSession) session = jvms_session_new ();
  GtkWidget *view;
  JvmsThreadsView *tv;
  g_autofree char *by_kind = NULL, *by_process = NULL, *by_pool = NULL, *flat = NULL;
  guint notified = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autofree char *name = g_strdup_printf ("Threads/%" G_GINT64_FORMAT "/name", threads[i].tid);
      g_autofree char *kind = g_strdup_printf ("Threads/%" G_GINT64_FORMAT "/kind", threads[i].tid);
      g_autofree char *pid = g_strdup_printf ("Threads/%" G_GINT64_FORMAT "/pid", threads[i].tid);
      g_autofree char *state = g_strdup_printf ("Threads/%" G_GINT64_FORMAT "/user-state", threads[i].tid);

      g_assert_true (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, name), T0, threads[i].name, &error));
      g_assert_true (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, kind), T0, threads[i].kind, &error));
      g_assert_true (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, pid), T0, threads[i].pid, &error));
      g_assert_true (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, state), T0, JVMS_USER_STATE_RUNNING, &error));
    }
  jvms_history_builder_set_metadata (b, "jvm-pid", "1000");
  g_assert_true (jvms_history_builder_close (b, T0 + 10 * SECOND, &error));
  g_assert_no_error (error);
  history = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  jvms_session_set_history (session, history);
  view = g_object_ref_sink (jvms_threads_view_new (session));
  tv = JVMS_THREADS_VIEW (view);
  g_signal_connect (view, "notify::grouping", G_CALLBACK (count_grouping_notify), &notified);

  /* Kind (the default): Java (3 threads), GC (1), other processes folded (header only). */
  g_assert_cmpstr (jvms_threads_view_get_grouping (tv), ==, "kind");
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 4 + 2 + 1);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, 30), ==, -1);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, 40), <, jvms_threads_view_get_row_y (tv, 20));
  by_kind = describe_view (view);
  g_assert_nonnull (strstr (by_kind, jvms_thread_kind_display_name (JVMS_THREAD_KIND_JAVA)));

  /* Process: the JVM (1000, the history's jvm-pid) before 77, which starts folded. */
  g_object_set (view, "grouping", "process", NULL);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 2 + 4);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, 30), ==, -1);
  g_assert_true (jvms_threads_view_set_group_folded (tv, "pid:77", FALSE));
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 2 + 5);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, 30), ==,
                   2 * JVMS_THREADS_VIEW_GROUP_HEIGHT + 4 * JVMS_THREADS_VIEW_ROW_HEIGHT);
  g_assert_cmpint (jvms_threads_view_get_row_y (tv, 20), <, jvms_threads_view_get_row_y (tv, 30));
  by_process = describe_view (view);
  g_assert_nonnull (strstr (by_process, "; Process 1000: 4; Process 77: 1"));

  /* Pool: the two pool threads one group, named with their numbers folded, one under the
   * other, in the table's order. */
  g_object_set (view, "grouping", "pool", NULL);
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 4 + 5);
  g_assert_cmpint (ABS (jvms_threads_view_get_row_y (tv, 10) - jvms_threads_view_get_row_y (tv, 11)),
                   ==, JVMS_THREADS_VIEW_ROW_HEIGHT);
  by_pool = describe_view (view);
  g_assert_nonnull (strstr (by_pool, "pool-#-thread-#: 2"));
  g_assert_nonnull (strstr (by_pool, "GC Thread#: 1"));
  g_assert_null (strstr (by_pool, "Process"));

  /* None: five rows, no header, nothing folded. */
  g_object_set (view, "grouping", "none", NULL);
  g_object_set (view, "grouping", "none", NULL);
  g_assert_cmpuint (notified, ==, 3);
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 5);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      int y = jvms_threads_view_get_row_y (tv, threads[i].tid);
      g_assert_cmpint (y, >=, 0);
      g_assert_cmpint (y % JVMS_THREADS_VIEW_ROW_HEIGHT, ==, 0);
      g_assert_cmpint (y, <, 5 * JVMS_THREADS_VIEW_ROW_HEIGHT);
    }
  flat = describe_view (view);
  g_assert_null (strchr (flat, ':'));

  g_object_set (view, "grouping", "kind", NULL);
  g_assert_cmpuint (jvms_threads_view_get_n_rows (tv), ==, 4 + 2 + 1);
  g_assert_finalize_object (view);
  g_clear_object (&session);
  g_clear_pointer (&history, jvms_history_unref);
  g_unlink (path);
  g_rmdir (dir);
}

/* The ruler's labels and the tooltips follow the session's time-origin and time-unit. */
static void
test_time_origin_and_unit (Fixture       *f,
                           gconstpointer  data)
{
  GtkWidget *ruler = g_object_ref_sink (jvms_time_ruler_new (f->session));
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (f->session));
  JvmsTimeRuler *r = JVMS_TIME_RULER (ruler);
  g_autoptr(GDateTime) at3 = g_date_time_new_from_unix_local (T0 / SECOND + 3);
  g_autoptr(GDateTime) at5 = g_date_time_new_from_unix_local (T0 / SECOND + 5);
  g_autofree char *hms3 = g_date_time_format (at3, "%H:%M:%S");
  g_autofree char *hms5 = g_date_time_format (at5, "%H:%M:%S.000000000");
  g_autofree char *rel = NULL, *wall = NULL, *wall_ms = NULL, *ms = NULL, *tip_ms = NULL;
  g_autofree char *tip_wall = NULL;
  cairo_surface_t *s;
  int y;

  rel = jvms_time_ruler_format_tick (r, T0 + 3 * SECOND, SECOND);
  g_assert_cmpstr (rel, ==, "3 s");
  jvms_session_set_time_unit (f->session, JVMS_TIME_UNIT_MILLISECONDS);
  ms = jvms_time_ruler_format_tick (r, T0 + 3 * SECOND, SECOND);
  g_assert_cmpstr (ms, ==, "3000 ms");
  jvms_session_set_time_origin (f->session, JVMS_TIME_ORIGIN_WALL_CLOCK);
  wall = jvms_time_ruler_format_tick (r, T0 + 3 * SECOND, SECOND);
  g_assert_cmpstr (wall, ==, hms3);
  wall_ms = jvms_time_ruler_format_tick (r, T0 + 3 * SECOND + 250000000, 250000000);
  g_assert_true (g_str_has_prefix (wall_ms, hms3));
  g_assert_cmpstr (wall_ms + strlen (hms3), ==, ".25");

  /* Tooltips read the session's too: the BLOCKED microsecond at 5 s. */
  jvms_session_set_time_origin (f->session, JVMS_TIME_ORIGIN_TRACE_START);
  jvms_session_set_visible (f->session, T0 + 5 * SECOND - 5000, T0 + 5 * SECOND + 5000, TRUE);
  s = render (view, WIDTH, HEIGHT);
  cairo_surface_destroy (s);
  y = lane_y (JVMS_THREADS_VIEW (view), TID, FALSE) + 2;
  tip_ms = jvms_timeline_get_tooltip_text_at (JVMS_TIMELINE (view), JVMS_TIMELINE_GUTTER + 550, y);
  g_assert_nonnull (tip_ms);
  g_assert_nonnull (strstr (tip_ms, "5000.000000 ms"));
  jvms_session_set_time_origin (f->session, JVMS_TIME_ORIGIN_WALL_CLOCK);
  tip_wall = jvms_timeline_get_tooltip_text_at (JVMS_TIMELINE (view), JVMS_TIMELINE_GUTTER + 550, y);
  g_assert_nonnull (tip_wall);
  g_assert_nonnull (strstr (tip_wall, hms5));
  g_assert_finalize_object (view);
  g_assert_finalize_object (ruler);
}

static void
test_ruler_units (void)
{
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

  /* 10 s over 1000 px, ticks >= 90 px apart: 1 s. */
  g_assert_cmpint (jvms_time_ruler_tick_step (10 * SECOND, 1000, 90), ==, SECOND);
  g_assert_cmpint (jvms_time_ruler_tick_step (10000, 1000, 90), ==, 1000);
  g_assert_cmpint (jvms_time_ruler_tick_step (2500000, 1000, 90), ==, 250000 * 2);
  a = jvms_time_ruler_tick_label (3 * SECOND, SECOND);
  b = jvms_time_ruler_tick_label (1500000, 500000);
  c = jvms_time_ruler_tick_label (250, 50);
  d = jvms_time_ruler_tick_label (2500000, 2500000);
  g_assert_cmpstr (a, ==, "3 s");
  g_assert_cmpstr (b, ==, "1500 µs");
  g_assert_cmpstr (c, ==, "250 ns");
  g_assert_cmpstr (d, ==, "2.5 ms");
}

static void
test_object_age (Fixture       *f,
                 gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_object_age_view_new (f->session));
  const JvmsPalette *p = jvms_palette_get (FALSE);
  JvmsObjectAgeSample samples[] = {
    { T0 + 2 * SECOND, T0 + 1 * SECOND, 1000, "com.example.A", "A.make", 4 },
    { T0 + 8 * SECOND, T0 + 8 * SECOND - 1000, 10, "com.example.B", "B.make", 1 },
  };
  cairo_surface_t *s;
  int found_a = -1, found_b = -1;

  jvms_object_age_view_set_samples (JVMS_OBJECT_AGE_VIEW (view), samples, 2);
  s = render (view, WIDTH, HEIGHT);
  /* The old object's dot is high (log scale of age), the young one's low. */
  for (int y = JVMS_TIMELINE_LEGEND_HEIGHT; y < HEIGHT; y++)
    {
      if (found_a < 0 && pixel (s, JVMS_TIMELINE_GUTTER + 200, y) != (expected (p->background)))
        found_a = y;
      if (found_b < 0 && pixel (s, JVMS_TIMELINE_GUTTER + 800, y) != (expected (p->background)))
        found_b = y;
    }
  g_assert_cmpint (found_a, >=, 0);
  g_assert_cmpint (found_b, >, found_a + 50);
  cairo_surface_destroy (s);
  g_assert_finalize_object (view);
}

/* While indexing, the window calls history_changed: the end grows, a view showing the whole
 * trace keeps showing it, and rows that appeared are listed. */
static void
test_growing_history (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-widgets-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "growing.jvmsidx", NULL);
  JvmsHistoryBuilder *b = jvms_history_builder_new (path, T0, NULL, &error);
  JvmsHistory *history;
  JvmsSession *session;
  GtkWidget *view;
  JvmsAttribute a;

  g_assert_no_error (error);
  a = jvms_history_builder_attribute (b, "Threads/100/user-state");
  g_assert_true (jvms_history_builder_modify_int (b, a, T0 + SECOND, JVMS_USER_STATE_RUNNING, &error));
  g_assert_true (jvms_history_builder_modify_int (b, a, T0 + 2 * SECOND, JVMS_USER_STATE_BLOCKED, &error));
  history = jvms_history_builder_get_history (b);
  session = jvms_session_new ();
  jvms_session_set_history (session, history);
  view = g_object_ref_sink (jvms_threads_view_new (session));
  g_assert_cmpint (jvms_session_get_end_time (session), ==, T0 + 2 * SECOND);
  g_assert_cmpuint (jvms_threads_view_get_n_rows (JVMS_THREADS_VIEW (view)), ==, 2);

  a = jvms_history_builder_attribute (b, "Threads/101/user-state");
  g_assert_true (jvms_history_builder_modify_int (b, a, T0 + 3 * SECOND, JVMS_USER_STATE_PARKED, &error));
  g_assert_true (jvms_history_builder_modify_int (b, a, T0 + 4 * SECOND, JVMS_USER_STATE_RUNNING, &error));
  jvms_session_history_changed (session);
  g_assert_cmpint (jvms_session_get_end_time (session), ==, T0 + 4 * SECOND);
  g_assert_cmpint (jvms_session_get_visible_end (session), ==, T0 + 4 * SECOND);
  g_assert_cmpuint (jvms_threads_view_get_n_rows (JVMS_THREADS_VIEW (view)), ==, 3);
  cairo_surface_destroy (render (view, WIDTH, HEIGHT));

  g_assert_true (jvms_history_builder_close (b, T0 + 5 * SECOND, &error));
  g_assert_no_error (error);
  jvms_session_history_changed (session);
  g_assert_cmpint (jvms_session_get_end_time (session), ==, T0 + 5 * SECOND);
  g_assert_finalize_object (view);
  g_assert_finalize_object (session);
  jvms_history_unref (history);
  jvms_history_builder_free (b);
  g_unlink (path);
  g_rmdir (dir);
}

/* Export: any view renders into an SVG surface without a window. */
static void
test_export_svg (Fixture       *f,
                 gconstpointer  data)
{
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (f->session));
  g_autofree char *svg_path = g_build_filename (f->dir, "threads.svg", NULL);
  g_autofree char *contents = NULL;
  cairo_surface_t *surface = cairo_svg_surface_create (svg_path, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  gsize length = 0;

  jvms_view_render (view, cr, WIDTH, HEIGHT);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (surface);
  g_assert_true (g_file_get_contents (svg_path, &contents, &length, NULL));
  g_assert_nonnull (strstr (contents, "<svg"));
  /* The lanes are filled shapes: more than a background and a legend. */
  g_assert_cmpuint (length, >, 4096);
  g_unlink (svg_path);
  g_assert_finalize_object (view);
}

/* A synthetic history of 50,000 intervals and the five timeline views on it. */
typedef struct
{
  char        *dir;
  char        *path;
  JvmsHistory *history;
  JvmsSession *session;
  GtkWidget   *views[5];
} SyntheticViews;

static void
synthetic_views_init (SyntheticViews *sv)
{
  g_autoptr(GError) error = NULL;
  JvmsSyntheticOptions options;

  sv->dir = g_dir_make_tmp ("test-widgets-XXXXXX", &error);
  g_assert_no_error (error);
  sv->path = g_build_filename (sv->dir, "synthetic.jvmsidx", NULL);
  jvms_synthetic_options_init (&options);
  options.n_intervals = 50000;
  g_assert_true (jvms_synthetic_history_write (sv->path, &options, &error));
  g_assert_no_error (error);
  sv->history = jvms_history_open (sv->path, 0, &error);
  g_assert_no_error (error);
  sv->session = jvms_session_new ();
  jvms_session_set_history (sv->session, sv->history);
  sv->views[0] = g_object_ref_sink (jvms_threads_view_new (sv->session));
  sv->views[1] = g_object_ref_sink (jvms_cpus_view_new (sv->session));
  sv->views[2] = g_object_ref_sink (jvms_locks_view_new (sv->session));
  sv->views[3] = g_object_ref_sink (jvms_gc_view_new (sv->session));
  sv->views[4] = g_object_ref_sink (jvms_counters_view_new (sv->session));
  g_assert_cmpuint (jvms_counters_view_get_n_rows (JVMS_COUNTERS_VIEW (sv->views[4])), ==,
                    8 + options.n_cpus);
}

static void
synthetic_views_clear (SyntheticViews *sv)
{
  for (guint i = 0; i < G_N_ELEMENTS (sv->views); i++)
    g_assert_finalize_object (sv->views[i]);
  g_assert_finalize_object (sv->session);
  jvms_history_unref (sv->history);
  g_unlink (sv->path);
  g_rmdir (sv->dir);
  g_free (sv->path);
  g_free (sv->dir);
}

static void
test_synthetic_all_views (void)
{
  SyntheticViews sv;

  synthetic_views_init (&sv);
  for (guint i = 0; i < G_N_ELEMENTS (sv.views); i++)
    {
      cairo_surface_t *s = render (sv.views[i], 1920, 400);
      guint differing = 0;
      /* Something was drawn in the data area: not all one colour. */
      for (int x = JVMS_TIMELINE_GUTTER; x < 1920; x += 7)
        differing += pixel (s, x, 60) != pixel (s, JVMS_TIMELINE_GUTTER + 3, 60);
      g_assert_cmpuint (differing, >, 10);
      cairo_surface_destroy (s);
    }
  synthetic_views_clear (&sv);
}

/* The allocation view's frame draws a bound of each row's range where a column cuts a summary
 * bucket, and its ticks ask the rows exactly: once they are done, the frame drawn again from
 * the cache is the export's (exact) pixel for pixel, and an export after a frame whose rows were
 * still bounds is exact as well. */
static void
test_allocation_bound_then_exact (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-widgets-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "synthetic.jvmsidx", NULL);
  JvmsSyntheticOptions options;
  /* 20 columns (a third of the width is the gutter then) and a few threads of hundreds of
   * rate changes each: columns wider than the rate's finest summary level, read from the
   * levels, so that column edges cut buckets. */
  const int width = 30, height = 200;
  gint64 start, end;

  jvms_synthetic_options_init (&options);
  options.n_threads = 11; /* 8 of the JVM's own, 3 Java threads */
  options.n_intervals = 80000;
  options.new_views = TRUE;
  g_assert_true (jvms_synthetic_history_write (path, &options, &error));
  g_assert_no_error (error);
  JvmsHistory *history = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  JvmsSession *session = jvms_session_new ();
  jvms_session_set_history (session, history);
  start = jvms_session_get_start_time (session);
  end = jvms_session_get_end_time (session);
  GtkWidget *view = g_object_ref_sink (jvms_allocation_view_new (session));
  GtkWidget *other = g_object_ref_sink (jvms_allocation_view_new (session));
  JvmsAllocationView *alloc = JVMS_ALLOCATION_VIEW (view);
  g_assert_cmpuint (jvms_allocation_view_get_n_threads (alloc), >, 0);

  for (guint pass = 0; pass < 2; pass++)
    {
      /* The whole trace, then a part of it. */
      jvms_session_set_visible (session, start + pass * (end - start) / 8, end, FALSE);
      cairo_surface_t *exact = render (other, width, height);
      cairo_surface_t *frame = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      cairo_t *cr = cairo_create (frame);
      guint differing = 0;

      jvms_timeline_render_frame (JVMS_TIMELINE (view), cr, width, height, FALSE);
      cairo_destroy (cr);
      cairo_surface_flush (frame);
      /* Some rows were drawn with a bound (else the rest proves nothing), and said so. */
      g_assert_cmpuint (jvms_allocation_view_get_n_bound_rows (alloc), >, 0);
      for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
          differing += pixel (frame, x, y) != pixel (exact, x, y);
      g_assert_cmpuint (differing, >, 0);
      cairo_surface_destroy (frame);

      cairo_surface_t *after;
      if (pass == 0)
        {
          /* The ticks, then the frame again from the cache. */
          while (jvms_allocation_view_step_refinement (alloc))
            ;
          g_assert_cmpuint (jvms_allocation_view_get_n_bound_rows (alloc), ==, 0);
          after = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
          cr = cairo_create (after);
          jvms_timeline_render_frame (JVMS_TIMELINE (view), cr, width, height, FALSE);
          cairo_destroy (cr);
          cairo_surface_flush (after);
          g_assert_cmpuint (jvms_allocation_view_get_n_bound_rows (alloc), ==, 0);
        }
      else
        {
          /* An export right after a frame whose rows were bounds. */
          after = render (view, width, height);
          g_assert_cmpuint (jvms_allocation_view_get_n_bound_rows (alloc), ==, 0);
        }
      for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
          if (pixel (after, x, y) != pixel (exact, x, y))
            g_error ("allocation view, pass %u: pixel (%d, %d) is %06x after the ticks, %06x in "
                     "the export", pass, x, y, pixel (after, x, y), pixel (exact, x, y));
      cairo_surface_destroy (after);
      cairo_surface_destroy (exact);
    }
  g_assert_finalize_object (view);
  g_assert_finalize_object (other);
  g_assert_finalize_object (session);
  jvms_history_unref (history);
  g_unlink (path);
  g_rmdir (dir);
}

/* Lanes and charts drawn as pixels (image surfaces, GTK's recording surfaces) must look as the
 * shapes drawn for SVG do: every view rendered both ways, pixel by pixel, at a zoom where
 * nearly every column differs from the next and at the whole trace. */
static void
test_pixels_as_shapes (void)
{
  SyntheticViews sv;
  gint64 start, end;

  synthetic_views_init (&sv);
  start = jvms_session_get_start_time (sv.session);
  end = jvms_session_get_end_time (sv.session);
  for (guint zoom = 0; zoom < 2; zoom++)
    {
      if (zoom == 1)
        jvms_session_set_visible (sv.session, start + (end - start) / 3,
                                  start + (end - start) / 3 + (end - start) / 40, FALSE);
      for (guint i = 0; i < G_N_ELEMENTS (sv.views); i++)
        {
          cairo_surface_t *pixels, *shapes;
          guint compared = 0, colored = 0;

          jvms_lane_set_shapes_only (FALSE);
          pixels = render (sv.views[i], 1920, 400);
          jvms_lane_set_shapes_only (TRUE);
          shapes = render (sv.views[i], 1920, 400);
          jvms_lane_set_shapes_only (FALSE);
          for (int y = 0; y < 400; y++)
            for (int x = JVMS_TIMELINE_GUTTER; x < 1920; x++)
              {
                guint32 a = pixel (pixels, x, y), b = pixel (shapes, x, y);
                for (int shift = 0; shift < 32; shift += 8)
                  {
                    int ca = (a >> shift) & 0xff, cb = (b >> shift) & 0xff;
                    if (ABS (ca - cb) > 2)
                      g_error ("view %u, zoom %u: pixel (%d, %d) is %08x drawn as pixels, %08x "
                               "drawn as shapes", i, zoom, x, y, a, b);
                  }
                colored += a != pixel (pixels, JVMS_TIMELINE_GUTTER, 0);
                compared++;
              }
          /* The comparison saw lanes, not an empty view. */
          g_assert_cmpuint (colored, >, compared / 20);
          cairo_surface_destroy (pixels);
          cairo_surface_destroy (shapes);
        }
    }
  synthetic_views_clear (&sv);
}

/* Lanes asked with and without min/max in one JvmsLaneCells (one query, flags per row)
 * hold what a query of each lane alone with its own flag gives. */
static void
test_lane_cells_mixed_flags (void)
{
  SyntheticViews sv;
  JvmsLaneCells cells;
  JvmsTimelineGeometry g = { 0 };
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  const char *const paths[] = { "Threads/1008/user-state", "Locks", "Threads/1008/kernel-state",
                                "Memory/heap-used", "Threads/1009/user-state" };

  synthetic_views_init (&sv);
  g.n_columns = 700;
  g.t0 = jvms_session_get_start_time (sv.session);
  g.t1 = g.t0 + (jvms_session_get_end_time (sv.session) - g.t0) / 2;
  jvms_lane_cells_init (&cells, "test");
  for (guint round = 0; round < 2; round++)
    {
      jvms_lane_cells_reset (&cells);
      g_array_set_size (ids, 0);
      for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
        {
          JvmsAttribute a = jvms_history_lookup (sv.history, paths[i]);
          g_array_append_val (ids, a);
          /* Round 0: every other lane without min/max; round 1: the others. */
          jvms_lane_cells_add_full (&cells, a, (i + round) % 2 == 0);
        }
      g_assert_true (jvms_lane_cells_query (&cells, sv.history, &g));
      for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
        {
          JvmsAttribute a = g_array_index (ids, JvmsAttribute, i);
          gboolean values_only = (i + round) % 2 == 0;
          const JvmsSummaryCell *got = jvms_lane_cells_get (&cells, &g, i);
          g_autofree JvmsSummaryCell *want = g_new0 (JvmsSummaryCell, g.n_columns);
          g_autoptr(GError) error = NULL;

          if (a == JVMS_ATTRIBUTE_INVALID)
            {
              g_assert_null (got);
              continue;
            }
          g_assert_nonnull (got);
          g_assert_true (jvms_history_query_summary_full (sv.history, g.t0, g.t1, &a, 1, g.n_columns,
                                                          values_only ? JVMS_SUMMARY_QUERY_NO_RANGE
                                                                      : JVMS_SUMMARY_QUERY_DEFAULT,
                                                          want, &error));
          g_assert_no_error (error);
          for (int c = 0; c < g.n_columns; c++)
            {
              g_assert_cmpint (got[c].flags, ==, want[c].flags);
              g_assert_true (jvms_value_equal (&got[c].dominant, &want[c].dominant));
              g_assert_true ((isnan (got[c].max) && isnan (want[c].max)) || got[c].max == want[c].max);
              g_assert_true ((isnan (got[c].min) && isnan (want[c].min)) || got[c].min == want[c].min);
              if (values_only)
                g_assert_true (isnan (got[c].max));
            }
        }
    }
  jvms_lane_cells_clear (&cells);
  synthetic_views_clear (&sv);
}

/* Bars and charts with edges inside a pixel (heights in thirds, fractional tops) drawn both
 * ways onto a white image: the pixels' coverage of an edge must be cairo's. */
static void
test_pixels_as_shapes_fractional (void)
{
  JvmsTimelineGeometry g = { 0 };
  JvmsSummaryCell cells[240];
  JvmsColor bar = { 0xD5 / 255.0, 0x5E / 255.0, 0, 1 };
  cairo_surface_t *out[2];

  g.width = 260;
  g.height = 60;
  g.gutter = 20;
  g.n_columns = G_N_ELEMENTS (cells);
  g.palette = jvms_palette_get (FALSE);
  for (guint c = 0; c < G_N_ELEMENTS (cells); c++)
    {
      cells[c].dominant = (JvmsValue) JVMS_VALUE_INIT_NULL;
      cells[c].flags = 0;
      cells[c].max = (double) (c % 7);
      cells[c].min = (double) (c % 7) / 2;
    }
  for (guint mode = 0; mode < 2; mode++)
    {
      cairo_t *cr;

      out[mode] = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, g.width, g.height);
      cr = cairo_create (out[mode]);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      jvms_lane_set_shapes_only (mode == 1);
      jvms_lane_draw_bars (cr, &g, cells, 22.5, 10.25, 6, &bar);
      jvms_lane_draw_numeric (cr, &g, cells, 30.3, 25.6, 0, 6, &bar);
      jvms_lane_set_shapes_only (FALSE);
      cairo_destroy (cr);
      cairo_surface_flush (out[mode]);
    }
  for (int y = 0; y < g.height; y++)
    for (int x = 0; x < g.width; x++)
      {
        guint32 a = pixel (out[0], x, y), b = pixel (out[1], x, y);
        for (int shift = 0; shift < 32; shift += 8)
          if (ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > 2)
            g_error ("pixel (%d, %d) is %08x drawn as pixels, %08x drawn as shapes", x, y, a, b);
      }
  cairo_surface_destroy (out[0]);
  cairo_surface_destroy (out[1]);
}

static gboolean
keep_ticking (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* The events view over a store whose rows come in bursts: 40,000 rows of one type, a burst of
 * 200 every 0.25 ms for 10 s, in 1,000 columns of 10 ms each. Every block (1,024 rows) spans
 * columns with more rows per column than it is worth reading, so a frame counts from the
 * store's index and spreads the counts; the lanes say so, and the exact counts, read off the
 * main thread, replace them: the naive count's, column for column. An export counts exactly at
 * once. */
static void
test_events_view_exact (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "bursts.events", NULL);
  g_autoptr(JvmsEventWriter) w = jvms_event_writer_new (path, &error);
  guint want[WIDTH - JVMS_TIMELINE_GUTTER] = { 0 };
  const guint n_columns = WIDTH - JVMS_TIMELINE_GUTTER;

  g_assert_no_error (error);
  jvms_event_writer_add_type (w, "app.Burst", NULL, 0);
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  for (guint i = 0; i < 40000; i++)
    {
      /* Bursts of 200 rows within 2 µs, one every 2.5 columns. */
      gint64 t = T0 + (gint64) (i / 200) * 25000000 + g_rand_int_range (rand, 0, 2000);
      jvms_event_writer_begin (w, t, 0, 0, TID, JVMS_EVENT_NONE);
      jvms_event_writer_commit (w);
      want[(guint) ((double) (t - T0) / (10 * SECOND) * n_columns)]++;
    }
  g_assert_true (jvms_event_writer_close (w, &error));
  g_assert_no_error (error);
  g_autoptr(JvmsEventStore) store = jvms_event_store_open (path, &error);
  g_assert_no_error (error);

  GtkWidget *view = g_object_ref_sink (jvms_events_view_new (f->session));
  jvms_events_view_set_event_store (JVMS_EVENTS_VIEW (view), store);
  g_assert_cmpuint (jvms_events_view_get_n_lanes (JVMS_EVENTS_VIEW (view)), ==, 1);
  jvms_session_set_visible (f->session, T0, T0 + 10 * SECOND, FALSE);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);

  /* A frame: shares of counts, said so; some columns between bursts get a tick they should
   * not have. */
  jvms_timeline_render_frame (JVMS_TIMELINE (view), cr, WIDTH, HEIGHT, FALSE);
  guint n;
  const JvmsEventColumn *got = jvms_events_view_get_columns (JVMS_EVENTS_VIEW (view), 0, &n);
  g_assert_cmpuint (n, ==, n_columns);
  g_assert_cmpuint (jvms_events_view_get_n_approximate (JVMS_EVENTS_VIEW (view)), ==, 1);
  guint wrong = 0;
  for (guint c = 0; c < n; c++)
    wrong += (got[c].starts > 0) != (want[c] > 0);
  g_assert_cmpuint (wrong, >, 0);

  /* Then the exact counts arrive (a tick wakes the loop to look at the deadline). */
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  guint tick = g_timeout_add (50, keep_ticking, NULL);
  while (jvms_events_view_get_n_approximate (JVMS_EVENTS_VIEW (view)) > 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  g_assert_cmpuint (jvms_events_view_get_n_approximate (JVMS_EVENTS_VIEW (view)), ==, 0);
  got = jvms_events_view_get_columns (JVMS_EVENTS_VIEW (view), 0, &n);
  for (guint c = 0; c < n; c++)
    {
      g_assert_false (got[c].approximate);
      g_assert_cmpuint (got[c].starts, ==, want[c]);
    }

  /* An export: exact at once. */
  jvms_session_set_visible (f->session, T0 + 1, T0 + 10 * SECOND, FALSE);
  jvms_session_set_visible (f->session, T0, T0 + 10 * SECOND, FALSE);
  jvms_view_render (view, cr, WIDTH, HEIGHT);
  g_assert_cmpuint (jvms_events_view_get_n_approximate (JVMS_EVENTS_VIEW (view)), ==, 0);
  got = jvms_events_view_get_columns (JVMS_EVENTS_VIEW (view), 0, &n);
  for (guint c = 0; c < n; c++)
    g_assert_cmpuint (got[c].starts, ==, want[c]);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  /* The exact count's task lets the view go once its thread has returned it. */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (G_OBJECT (view)->ref_count > 1 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_finalize_object (view);
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_printerr ("test-widgets: no display (run under xvfb-run -a)\n");
      return 1;
    }
  adw_init ();
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_LIGHT);

#define ADD(name, fn) g_test_add ("/Widgets/" name, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("threads/short-state-survives", test_threads_short_state_survives);
  ADD ("threads/groups-and-filter", test_threads_groups_and_filter);
  ADD ("threads/tooltip", test_threads_tooltip);
  ADD ("selection/band", test_selection_band);
  ADD ("cpus/colours", test_cpus_colours);
  ADD ("locks/highlight", test_locks_highlight);
  ADD ("gc/heap-peak", test_gc_heap_peak);
  ADD ("threads/kernel-lane-height", test_threads_kernel_lane_height);
  ADD ("navigation/keys", test_keys_zoom_and_pan);
  ADD ("session/rules", test_session_rules);
  ADD ("object-age/dots", test_object_age);
  ADD ("export/svg", test_export_svg);
  ADD ("events/exact", test_events_view_exact);
#undef ADD
  g_test_add_func ("/Widgets/ruler/units", test_ruler_units);
  g_test_add_func ("/Widgets/gc/heap-line-between-points", test_gc_heap_line);
  g_test_add_func ("/Widgets/gc/cpu-load", test_gc_cpu_load);
  g_test_add_func ("/Widgets/threads/grouping", test_threads_grouping);
  g_test_add ("/Widgets/ruler/time-origin-and-unit", Fixture, NULL, fixture_setup,
              test_time_origin_and_unit, fixture_teardown);
  g_test_add_func ("/Widgets/cpus/many-threads-and-scroll", test_cpus_many_threads_and_scroll);
  g_test_add_func ("/Widgets/synthetic/all-views", test_synthetic_all_views);
  g_test_add_func ("/Widgets/allocation/bound-then-exact", test_allocation_bound_then_exact);
  g_test_add_func ("/Widgets/synthetic/pixels-as-shapes", test_pixels_as_shapes);
  g_test_add_func ("/Widgets/lane/pixels-as-shapes-fractional", test_pixels_as_shapes_fractional);
  g_test_add_func ("/Widgets/lane/cells-mixed-flags", test_lane_cells_mixed_flags);
  g_test_add_func ("/Widgets/session/growing-history", test_growing_history);
  return g_test_run ();
}
