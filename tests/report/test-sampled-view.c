/* The threads view of a recording without thread states, rendered offscreen: in each thread's
 * Java lane the columns holding one of its samples are drawn in the sample's colour, every other
 * column in the "not recorded" colour — never a state stretched between samples.
 *
 *   /report/sampled/view-between-samples  async-profiler's shape written byte by byte
 *                                         (sampled-fixture.c), at one millisecond a column, the
 *                                         model's samples (batches expanded) as the oracle;
 *   /report/sampled/view-testdata         every profiler's file of ../shared/testdata/jfr, the
 *                                         samples read by the JFR reader alone as the oracle;
 *   /report/sampled/view-spans            a profiler's spans: outside async-profiler's profiling
 *                                         windows (profiler.Window) the lane is hatched, and
 *                                         dd-trace's endpoints (datadog.Endpoint) are a band under
 *                                         the lane in their colours; both types are rows of the
 *                                         event store (the event table, jvmscope-cli events);
 *   test-sampled-view --check FILE        the same on any file (the JDK recording that
 *                                         test-sampled-files.py makes);
 *   test-sampled-view --write-spans DIR   writes the two files of view-spans into DIR (to look at
 *                                         them in the window).
 *
 * Needs a display (xvfb-run). */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "jvms-event-store.h"
#include "jvms-jfr.h"
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
      int y = jvms_timeline_get_legend_height (JVMS_TIMELINE (view), WIDTH) + row
              + JVMS_THREADS_VIEW_USER_LANE_Y
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
    int y = jvms_timeline_get_legend_height (JVMS_TIMELINE (view), WIDTH) + row
            + JVMS_THREADS_VIEW_USER_LANE_Y + JVMS_THREADS_VIEW_LANE_HEIGHT / 2;
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

/* ------------------------------------------------------------------------------------------ */
/* A profiler's spans: profiling windows and endpoints */

static const ProfilerGenStack span_stacks[] = { { { "app.Work.run", NULL } } };

/* Profiling windows [0, 400) and [600, 1000) ms (none between), the worker's wall-clock samples
 * every 10 ms inside them; or, dd-trace's, its endpoints [100, 300) "GET /orders" and
 * [500, 700) "POST /pay" over samples every 10 ms. */
static GBytes *
spans_build (gboolean dd_trace)
{
  g_autoptr(GArray) events = g_array_new (FALSE, TRUE, sizeof (ProfilerGenSample));
  for (gint64 ms = 0; ms < 1000; ms += 10)
    {
      ProfilerGenSample e = { .kind = dd_trace ? PROFILER_GEN_ENDPOINT : PROFILER_GEN_WINDOW,
                              .time = ms * SAMPLED_MS };
      if (!dd_trace && (ms == 0 || ms == 600))
        {
          e.duration = 400 * SAMPLED_MS;
          g_array_append_val (events, e);
        }
      if (dd_trace && (ms == 100 || ms == 500))
        {
          e.duration = 200 * SAMPLED_MS;
          e.endpoint = ms == 100 ? "GET /orders" : "POST /pay";
          g_array_append_val (events, e);
        }
      if (!dd_trace && ms >= 400 && ms < 600)
        continue;
      ProfilerGenSample w = { .kind = PROFILER_GEN_WALL, .time = ms * SAMPLED_MS + 5 * SAMPLED_MS,
                              .state = "STATE_RUNNABLE" };
      g_array_append_val (events, w);
    }
  ProfilerGenSettings settings = { .version = "4.0", .event = "wall", .interval = "10000000",
                                   .dd_trace = dd_trace, .dd_wall_interval_ms = 10 };
  return profiler_gen_build (&settings, sampled_threads, 1, span_stacks, G_N_ELEMENTS (span_stacks),
                             (const ProfilerGenSample *) events->data, events->len, 1000 * SAMPLED_MS);
}

/* The worker's rows of the rendered view: its Java lane's first row, the band's row. */
static cairo_surface_t *
render_spans (ReportFixture *f, GtkWidget **view_out, JvmsSession **session_out, int *lane_y)
{
  JvmsSession *session = jvms_session_new ();
  jvms_session_set_history (session, f->history);
  gint64 start = jvms_history_get_start_time (f->history);
  jvms_session_set_visible (session, start, start + COLUMNS * SAMPLED_MS, FALSE);
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (session));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  jvms_timeline_render (JVMS_TIMELINE (view), cr, WIDTH, HEIGHT, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  int row = jvms_threads_view_get_row_y (JVMS_THREADS_VIEW (view), sampled_threads[0].os_tid);
  g_assert_cmpint (row, >=, 0);
  *lane_y = jvms_timeline_get_legend_height (JVMS_TIMELINE (view), WIDTH) + row + JVMS_THREADS_VIEW_USER_LANE_Y;
  g_assert_cmpint (*lane_y + JVMS_THREADS_VIEW_LANE_HEIGHT + 2, <, HEIGHT);
  *view_out = view;
  *session_out = session;
  return surface;
}

static guint64
store_rows (ReportFixture *f, const char *type)
{
  g_autoptr(GError) error = NULL;
  JvmsEventStore *store = jvms_event_store_open (jvms_trace_index_get_events_path (f->index), &error);
  g_assert_no_error (error);
  guint32 t = jvms_event_store_find_type (store, type);
  guint64 n = t != JVMS_EVENT_NONE ? jvms_event_store_get_type (store, t)->n_rows : 0;
  jvms_event_store_unref (store);
  return n;
}

static void
test_spans (void)
{
  guint8 not_recorded[3], running[3];
  over_background (jvms_palette_get (FALSE)->not_recorded, not_recorded);
  over_background (jvms_sample_layer_color (jvms_palette_get (FALSE), JVMS_SAMPLED_RUNNING), running);

  /* async-profiler: hatched outside its windows, plain "not recorded" between samples inside. */
  {
    g_autoptr(GBytes) bytes = spans_build (FALSE);
    ReportFixture f = { 0 };
    report_fixture_open_bytes (&f, bytes);
    g_assert_cmpuint (store_rows (&f, "profiler.Window"), ==, 2);
    JvmsAttribute window = jvms_history_lookup (f.history, "Profiler/window");
    g_assert_cmpuint (window, !=, JVMS_ATTRIBUTE_INVALID);
    GtkWidget *view;
    JvmsSession *session;
    int y;
    cairo_surface_t *surface = render_spans (&f, &view, &session, &y);
    guint hatched_outside = 0, hatched_inside = 0, n_outside = 0, n_inside = 0;
    for (int c = 2; c < COLUMNS - 2; c++)
      {
        if ((c % 10) >= 3 && (c % 10) <= 7)
          continue;    /* a sample's column (at 5 ms past each 10) and its neighbours */
        if (ABS (c - 400) <= 2 || ABS (c - 600) <= 2)
          continue;    /* a window's edge */
        gboolean outside = c > 400 && c < 600;
        gboolean hatched = FALSE;
        for (int dy = 0; dy < JVMS_THREADS_VIEW_LANE_HEIGHT; dy++)
          {
            guint8 rgb[3];
            pixel (surface, JVMS_TIMELINE_GUTTER + c, y + dy, rgb);
            hatched |= !near (rgb, not_recorded) && !near (rgb, running);
          }
        if (outside)
          {
            n_outside++;
            hatched_outside += hatched;
          }
        else
          {
            n_inside++;
            hatched_inside += hatched;
            if (hatched)
              g_test_message ("column %d inside a window looks hatched", c);
          }
      }
    g_test_message ("windows: %u of %u columns outside hatched, %u of %u inside", hatched_outside,
                    n_outside, hatched_inside, n_inside);
    g_assert_cmpuint (hatched_outside, ==, n_outside);
    g_assert_cmpuint (hatched_inside, ==, 0);
    cairo_surface_destroy (surface);
    g_assert_finalize_object (view);
    g_assert_finalize_object (session);
    report_fixture_close (&f);
  }

  /* dd-trace: each endpoint a band under the lane in its colour, nothing where none was served. */
  {
    g_autoptr(GBytes) bytes = spans_build (TRUE);
    ReportFixture f = { 0 };
    report_fixture_open_bytes (&f, bytes);
    g_assert_cmpuint (store_rows (&f, "datadog.Endpoint"), ==, 2);
    GtkWidget *view;
    JvmsSession *session;
    int y;
    cairo_surface_t *surface = render_spans (&f, &view, &session, &y);
    guint8 orders[3], pay[3];
    over_background (jvms_sample_layer_endpoint_color (jvms_palette_get (FALSE), "GET /orders"), orders);
    over_background (jvms_sample_layer_endpoint_color (jvms_palette_get (FALSE), "POST /pay"), pay);
    g_assert_false (near (orders, pay));
    int band = y + JVMS_THREADS_VIEW_LANE_HEIGHT;
    guint n_orders = 0, n_pay = 0, n_none = 0;
    for (int c = 0; c < COLUMNS; c++)
      {
        if (c % 100 == 0 || c % 100 == 99)
          continue;    /* a span's edge column */
        guint8 rgb[3];
        pixel (surface, JVMS_TIMELINE_GUTTER + c, band, rgb);
        if (c > 100 && c < 300)
          n_orders += near (rgb, orders);
        else if (c > 500 && c < 700)
          n_pay += near (rgb, pay);
        else
          n_none += !near (rgb, orders) && !near (rgb, pay);
      }
    g_test_message ("endpoints: %u columns GET /orders, %u POST /pay, %u neither", n_orders, n_pay, n_none);
    g_assert_cmpuint (n_orders, ==, 196);    /* 101 to 298 but for the edges at 199 and 200 */
    g_assert_cmpuint (n_pay, ==, 196);
    g_assert_cmpuint (n_none, ==, 1000 - 20 - 2 * 196);
    cairo_surface_destroy (surface);
    g_assert_finalize_object (view);
    g_assert_finalize_object (session);
    report_fixture_close (&f);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Any file: the oracle is the JFR reader's events alone */

#define FILE_COLUMNS 1200
#define FILE_HEIGHT  2400
/* async-profiler's wall-clock default (docs/writers.md): a batch's samples lie at most this far
 * apart when the file's settings say no more. */
#define BATCH_SPACING_DEFAULT (50 * SAMPLED_MS)

static GBytes *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GInputStream) in = G_INPUT_STREAM (g_file_read (file, NULL, &error));
  g_assert_no_error (error);
  g_autoptr(GInputStream) stream = NULL;
  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr(GZlibDecompressor) gz = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      stream = g_converter_input_stream_new (in, G_CONVERTER (gz));
    }
  else
    stream = g_object_ref (in);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_output_stream_splice (out, stream, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* The samplers of time (docs/writers.md): their events are bars in the lane. */
static gboolean
is_time_sampler (const char *type)
{
  static const char * const types[] = {
    "jdk.ExecutionSample", "jdk.NativeMethodSample", "profiler.WallClockSample",
    "profiler.WallClockSleeping", "datadog.ExecutionSample", "datadog.MethodSample",
  };
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (g_strcmp0 (type, types[i]) == 0)
      return TRUE;
  return FALSE;
}

typedef struct
{
  gint64 tid;
  gint64 from, to;   /* a sample, or a batch's span */
  gint64 n;          /* samples it stands for */
} Span;

/* Every span of the file's time samples, per thread, from the reader alone; the longest interval
 * the file's settings name (for a batch's spacing). */
static GArray *
file_spans (GBytes *bytes, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, name, &error);
  g_assert_no_error (error);
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (Span));
  gint64 spacing = BATCH_SPACING_DEFAULT;
  g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_FILE);
  const JvmsJfrEvent *ev;
  while ((ev = jvms_jfr_reader_next (reader)) != NULL)
    {
      const char *type = jvms_jfr_event_get_type_name (ev);
      const JvmsJfrType *t = jvms_jfr_event_get_type (ev);
      if (g_strcmp0 (type, "jdk.ActiveSetting") == 0)
        {
          const char *key = NULL, *value = NULL;
          jvms_jfr_event_get_string (ev, jvms_jfr_type_find_field (t, "name"), &key);
          jvms_jfr_event_get_string (ev, jvms_jfr_type_find_field (t, "value"), &value);
          if (value != NULL && (g_strcmp0 (key, "interval") == 0 || g_strcmp0 (key, "wall") == 0))
            spacing = MAX (spacing, g_ascii_strtoll (value, NULL, 10));
          continue;
        }
      if (!is_time_sampler (type))
        continue;
      const JvmsJfrField *tf = jvms_jfr_type_find_field (t, "sampledThread");
      if (tf == NULL)
        tf = jvms_jfr_type_find_field (t, "eventThread");
      const JvmsJfrThread *thread = NULL;
      if (tf == NULL || !jvms_jfr_event_get_thread_field (ev, tf, &thread) || thread == NULL)
        continue;
      gint64 n = 1;
      const char *counts[] = { "samples", "samplesCount", "weight" };
      for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
        {
          const JvmsJfrField *cf = jvms_jfr_type_find_field (t, counts[i]);
          if (cf != NULL && jvms_jfr_event_get_int64 (ev, cf, &n))
            break;
        }
      Span sp = { thread->os_thread_id > 0 ? thread->os_thread_id : -thread->java_thread_id,
                  jvms_jfr_event_get_start_ns (ev), jvms_jfr_event_get_end_ns (ev), MAX (n, 1) };
      g_array_append_val (spans, sp);
    }
  /* A batch: N samples from its start, the longest interval the settings name apart at most
   * (they may come after the samples in the file). */
  for (guint i = 0; i < spans->len; i++)
    {
      Span *sp = &g_array_index (spans, Span, i);
      sp->to = MAX (sp->to, sp->from + (sp->n - 1) * spacing);
    }
  return spans;
}

/* The column of time @t (the summary query's boundaries: t0 + (t1 - t0) c / n). */
static int
column_of (gint64 t0, gint64 t1, int n, gint64 t)
{
  if (t < t0 || t >= t1)
    return -1;
  int c = (int) (((__int128) (t - t0) * n) / (t1 - t0));
  while (c > 0 && t0 + (gint64) (((__int128) (t1 - t0) * c) / n) > t)
    c--;
  while (c + 1 < n && t0 + (gint64) (((__int128) (t1 - t0) * (c + 1)) / n) <= t)
    c++;
  return c;
}

/* Indexes @bytes, renders its threads view over the whole trace and checks every thread shown:
 * each column farther than one from its samples is "not recorded"; each column holding one is
 * not. Returns the columns checked between samples. */
static guint
check_file (GBytes *bytes, const char *name)
{
  g_autoptr(GArray) spans = file_spans (bytes, name);
  ReportFixture f = { 0 };
  report_fixture_open_bytes (&f, bytes);
  JvmsSession *session = jvms_session_new ();
  jvms_session_set_history (session, f.history);
  gint64 t0 = jvms_history_get_start_time (f.history), t1 = jvms_history_get_end_time (f.history);
  jvms_session_set_visible (session, t0, t1, FALSE);
  GtkWidget *view = g_object_ref_sink (jvms_threads_view_new (session));
  int width = JVMS_TIMELINE_GUTTER + FILE_COLUMNS;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, FILE_HEIGHT);
  cairo_t *cr = cairo_create (surface);
  jvms_timeline_render (JVMS_TIMELINE (view), cr, width, FILE_HEIGHT, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  /* The view's columns: what jvms_timeline_render laid out. */
  t0 = jvms_session_get_visible_start (session);
  t1 = jvms_session_get_visible_end (session);

  guint8 not_recorded[3];
  over_background (jvms_palette_get (FALSE)->not_recorded, not_recorded);
  g_autoptr(GHashTable) tids = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < spans->len; i++)
    g_hash_table_add (tids, &g_array_index (spans, Span, i).tid);
  guint n_threads = 0, n_between = 0, n_sampled = 0;
  GHashTableIter iter;
  gpointer key;
  g_hash_table_iter_init (&iter, tids);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      gint64 tid = *(gint64 *) key;
      int row = jvms_threads_view_get_row_y (JVMS_THREADS_VIEW (view), tid);
      /* The lane's bottom row: bars stand on it (marks lie along the top). */
      int y = jvms_timeline_get_legend_height (JVMS_TIMELINE (view), width) + row
              + JVMS_THREADS_VIEW_USER_LANE_Y
              + JVMS_THREADS_VIEW_LANE_HEIGHT - 1;
      if (row < 0 || y >= FILE_HEIGHT)
        continue;
      n_threads++;
      g_autofree guint8 *near_sample = g_new0 (guint8, FILE_COLUMNS);
      g_autofree guint8 *holds = g_new0 (guint8, FILE_COLUMNS);
      for (guint i = 0; i < spans->len; i++)
        {
          const Span *sp = &g_array_index (spans, Span, i);
          if (sp->tid != tid)
            continue;
          int a = column_of (t0, t1, FILE_COLUMNS, MAX (sp->from, t0));
          int b = column_of (t0, t1, FILE_COLUMNS, MIN (sp->to, t1 - 1));
          if (a < 0 || b < 0)
            continue;
          if (sp->n == 1 && sp->to == sp->from)
            holds[a] = 1;
          for (int c = MAX (a - 1, 0); c <= MIN (b + 1, FILE_COLUMNS - 1); c++)
            near_sample[c] = 1;
        }
      for (int c = 0; c < FILE_COLUMNS; c++)
        {
          guint8 rgb[3];
          pixel (surface, JVMS_TIMELINE_GUTTER + c, y, rgb);
          if (holds[c])
            {
              if (near (rgb, not_recorded))
                g_error ("%s: thread %" G_GINT64_FORMAT ", column %d holds a sample drawn as not recorded",
                         name, tid, c);
              n_sampled++;
            }
          else if (!near_sample[c])
            {
              if (!near (rgb, not_recorded))
                g_error ("%s: thread %" G_GINT64_FORMAT ", column %d: %02x%02x%02x between samples, "
                         "not the not-recorded colour", name, tid, c, rgb[0], rgb[1], rgb[2]);
              n_between++;
            }
        }
    }
  g_test_message ("%s: %u threads shown, %u columns with samples, %u between them", name, n_threads,
                  n_sampled, n_between);
  cairo_surface_destroy (surface);
  g_assert_finalize_object (view);
  g_assert_finalize_object (session);
  report_fixture_close (&f);
  return n_between;
}

static void
test_testdata (void)
{
  /* Every file of ../shared/testdata/jfr written by a profiler; nativemem.jfr holds no sample of
   * time (native allocations only) and has nothing to draw. */
  static const char * const files[] = {
    "cortex-dev-01__kafka-0__cpu__0.jfr.gz", "wall.jfr.gz", "example.jfr.gz",
    "FastSlow_2024_01_16_180855.jfr.gz", "async-profiler.jfr.gz",
  };
  const char *shared = g_getenv ("JVMS_SHARED_DIR");
  g_assert_nonnull (shared);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (shared, "testdata", "jfr", files[i], NULL);
      g_autoptr(GBytes) bytes = load (path);
      guint n = check_file (bytes, files[i]);
      g_assert_cmpuint (n, >, 0);
    }
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--check") == 0)
    {
      gtk_init ();
      g_autoptr(GBytes) bytes = load (argv[2]);
      guint n = check_file (bytes, argv[2]);
      g_print ("%s: %u columns between samples are not recorded\n", argv[2], n);
      return n > 0 ? 0 : 1;
    }
  if (argc == 3 && strcmp (argv[1], "--write-spans") == 0)
    {
      for (int dd = 0; dd < 2; dd++)
        {
          g_autoptr(GBytes) bytes = spans_build (dd);
          g_autofree char *path = g_build_filename (argv[2], dd ? "dd-endpoints.jfr" : "ap-windows.jfr", NULL);
          g_autoptr(GError) error = NULL;
          if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error))
            {
              g_printerr ("%s\n", error->message);
              return 1;
            }
          g_print ("%s\n", path);
        }
      return 0;
    }
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/sampled/view-between-samples", test_between_samples_not_recorded);
  g_test_add_func ("/report/sampled/view-testdata", test_testdata);
  g_test_add_func ("/report/sampled/view-spans", test_spans);
  return g_test_run ();
}
