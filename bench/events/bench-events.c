/* bench-events: the event store and the event table at 10 M events (issue 19, "Speed").
 *
 *   bench-events [--events N] [--cache-dir DIR] [--pages N] [--frames N] [--no-table]
 *                [--view-only | --table-only] [--check] [--per-frame]
 *
 * A synthetic store of N events (default 10 M: 24 types, 64 threads, four fields each, times in
 * order, a tenth with durations ended late) is written once (niced) into DIR (default /tmp)
 * under a name that carries N, and only opened by later runs.
 *
 * Prints:
 *   figure build_seconds            when the store was written now
 *   figure events_select_p99        ms to make a selection: a random range with every type, one
 *                                   type, one thread or both (jvms_event_query_new)
 *   figure events_query_p50/p99     ms to read a page of 100 rows at a random position of such a
 *                                   selection (what the table reads when it scrolls or jumps)
 *   figure events_query_cpu_p99     the same in CPU time of the thread
 *   figure baseline_scan_to_page_p50  ms to reach the same pages by reading the selection from its
 *                                   start (a store without the stream directory), over 20 of them
 *   ratio  events_query_p50         ours over that baseline
 *   figure events_scan_s            seconds to read every row once (headers only)
 *   figure event_table_scroll_p50/p99  ms per frame (the frame clock's update to after-paint:
 *                                   layout, rows made and drawn) while the event table, showing
 *                                   all N rows, scrolls a page per frame to random places, once
 *                                   its statistics are shown (nothing else of the table runs)
 *   figure event_table_busy_scroll_p50/p99  the same from just after the table is shown until
 *                                   its statistics of the N rows are (they run meanwhile in a
 *                                   thread): what scrolling right after a new selection costs;
 *                                   event_table_busy_frames how many frames that was
 *   figure event_table_settled_s    seconds from the store given to the table to its statistics
 *                                   shown and no page pending (the busy frames included)
 *   With --per-frame, a "# table frame" line per frame: wall and CPU ms of GTK's layout (the
 *   frame's update to its layout's end), its paint (to the paint's end: the surface drawn and
 *   sent to the X server) and after (to after-paint), and the main thread's CPU between frames;
 *   and "# pass NAME from|to SECONDS" on the monotonic clock (perf record -k CLOCK_MONOTONIC,
 *   perf report --time) for the passes busy, table and baseline.
 *   figure event_table_scroll_cpu_p50/p99  the main thread's CPU ms per frame (the pages are read
 *                                   by the list's own thread, not counted here)
 *   figure event_table_interval_cpu_p50/p99  the main thread's CPU ms from one frame's end to the
 *                                   next's: the frame and all done between (the scroll and the rows
 *                                   bound with it, pages arriving and their rows filled in, GTK's own
 *                                   handlers run before the frame's update). The frame alone misses
 *                                   what GTK does before its update: with pages read on the main
 *                                   thread a jump's labels were measured there, 25 ms the frame
 *                                   figure never saw (docs/events.md)
 *   figure events_view_frame_p50/p99  ms to draw the events view (1920x600: a lane per type, 24,
 *                                   all outside jdk.*) at a random range (log-uniform span from
 *                                   10 µs to the whole store), offscreen as bench-views draws
 *                                   the other views: its column counts read from the store
 *                                   (jvms-event-ticks.c) and drawn; _cpu_p99 in CPU time of the
 *                                   process (issue 19's frame target, 16 ms)
 *                                   The frames are drawn as the window draws them
 *                                   (jvms_timeline_render_frame), not as an export (exact)
 *   figure events_view_frames_approximate  frames with some count spread (the window then counts
 *                                   them exactly off the main thread), and
 *   figure events_view_exact_cpu_p50/max  the CPU ms of those exact counts
 *   figure events_view_blocks_read_p99  blocks of the store read by a frame's counts (1,024 rows
 *                                   each; jvms-event-ticks.c reads at most 128 and the two at the
 *                                   range's ends)
 *   figure events_view_cells_differing  with --check: (lane, column) cells of the 100 frames whose
 *                                   picture (a tick where rows start; in a column where none
 *                                   starts, a bar where a duration covers it) differs from a
 *                                   naive count of every row of the range and of the 2^24 ns
 *                                   before it (the store's longest duration), and
 *                                   events_view_frames_differing the frames with any such cell;
 *                                   events_view_exact_cells_differing the same of the exact counts
 *   figure baseline_scroll_p99      the same GtkColumnView over a GtkStringList of 100,000
 *                                   strings in memory: GTK's own cost
 *   ratio  event_table_scroll_p99   ours over that baseline
 * The table needs a display: run under xvfb-run -a when there is none (--no-table skips it). It
 * draws with GTK's cairo renderer unless GSK_RENDERER says otherwise. */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench-common.h"
#include "jvms-event-query.h"
#include "jvms-event-table.h"
#include "jvms-event-writer.h"
#include "jvms-event-ticks.h"
#include "jvms-events-view.h"
#include "jvms-history.h"
#include "jvms-session.h"
#include "jvms-timeline.h"
#include "jvms-view-render.h"

#define N_TYPES   24
#define N_THREADS 64
#define PAGE      100

static gint64 n_events = 10000000;
static char *cache_dir;
static int n_pages = 400;
static int n_frames = 300;
static gboolean no_table;
static gboolean view_only;
static gboolean table_only;
static gboolean check;
static gboolean per_frame;

static void
build_store (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsEventWriter) w = jvms_event_writer_new (path, &error);
  if (w == NULL)
    g_error ("%s", error->message);
  guint fields[N_TYPES][4];
  for (guint t = 0; t < N_TYPES; t++)
    {
      g_autofree char *name = g_strdup_printf (t % 3 == 0 ? "syscall:call%u" : "app.Event%u", t);
      jvms_event_writer_add_type (w, name, NULL, t % 3 == 0 ? JVMS_EVENT_TYPE_SYSCALL : JVMS_EVENT_TYPE_DURATION);
      fields[t][0] = jvms_event_writer_add_field (w, t, "ret", NULL, JVMS_EVENT_UNIT_NONE);
      fields[t][1] = jvms_event_writer_add_field (w, t, "bytes", NULL, JVMS_EVENT_UNIT_BYTES);
      fields[t][2] = jvms_event_writer_add_field (w, t, "name", NULL, JVMS_EVENT_UNIT_NONE);
      fields[t][3] = jvms_event_writer_add_field (w, t, "ratio", NULL, JVMS_EVENT_UNIT_PERCENT);
    }
  static const char *names[] = { "orders", "payments", "inventory", "java.util.HashMap", "main" };
  GRand *rand = g_rand_new_with_seed (19);
  gint64 t = G_GINT64_CONSTANT (1700000000000000000);
  guint64 pending[N_THREADS];
  gboolean open[N_THREADS] = { FALSE };
  for (gint64 i = 0; i < n_events; i++)
    {
      t += g_rand_int_range (rand, 0, 2000);
      guint type = (guint) g_rand_int_range (rand, 0, N_TYPES);
      guint th = (guint) g_rand_int_range (rand, 0, N_THREADS);
      gboolean late = type % 3 == 0 && !open[th];
      jvms_event_writer_begin (w, t, late ? JVMS_EVENT_WRITER_PENDING : g_rand_int_range (rand, 0, 50000),
                               type, 1000 + th, JVMS_EVENT_NONE);
      if (late)
        jvms_event_writer_result (w, fields[type][0]);
      jvms_event_writer_int (w, fields[type][1], JVMS_EVENT_VALUE_INT, g_rand_int_range (rand, 0, 1 << 16));
      jvms_event_writer_string (w, fields[type][2], names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))]);
      jvms_event_writer_double (w, fields[type][3], g_rand_int_range (rand, 0, 1000) / 1000.0);
      guint64 row = jvms_event_writer_commit (w);
      if (late)
        {
          pending[th] = row;
          open[th] = TRUE;
        }
      /* Calls end after a while: most while their block is in memory, some much later. */
      guint other = (guint) g_rand_int_range (rand, 0, N_THREADS);
      if (open[other] && g_rand_int_range (rand, 0, 40) == 0)
        {
          jvms_event_writer_end_row (w, pending[other], g_rand_int_range (rand, 0, 1 << 24), TRUE,
                                     g_rand_int_range (rand, -11, 4096));
          open[other] = FALSE;
        }
    }
  g_rand_free (rand);
  if (!jvms_event_writer_close (w, &error))
    g_error ("%s", error->message);
}

typedef struct
{
  JvmsEventFilter filter;
  guint32         type;
  gint64          tid;
} Selection;

static void
random_selection (GRand *rand, JvmsEventStore *store, Selection *s)
{
  gint64 first = jvms_event_store_get_first_time (store), last = jvms_event_store_get_last_time (store);
  double a = g_rand_double (rand), b = g_rand_double (rand);
  gint64 from = first + (gint64) ((last - first) * MIN (a, b) * 0.5);
  gint64 to = first + (gint64) ((last - first) * (0.5 + MAX (a, b) * 0.5)) + 1;
  s->type = (guint32) g_rand_int_range (rand, 0, N_TYPES);
  s->tid = 1000 + g_rand_int_range (rand, 0, N_THREADS);
  int kind = g_rand_int_range (rand, 0, 4);
  s->filter = (JvmsEventFilter) { from, to,
                                  kind & 1 ? JVMS_EVENT_KEEP_THESE : JVMS_EVENT_KEEP_ALL, kind & 1 ? &s->type : NULL, kind & 1 ? 1 : 0,
                                  kind & 2 ? JVMS_EVENT_KEEP_THESE : JVMS_EVENT_KEEP_ALL, kind & 2 ? &s->tid : NULL, kind & 2 ? 1 : 0 };
}

typedef struct
{
  guint64 left;
  gboolean with_filter;
} Reach;

static gboolean
count_down (const JvmsEventRecord *r, gpointer data)
{
  Reach *reach = data;
  return --reach->left > 0;
}

static void
bench_queries (JvmsEventStore *store)
{
  GRand *rand = g_rand_new_with_seed (7);
  g_autoptr(GArray) select = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) page = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) page_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ours_sampled = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) baseline = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (store);
  for (int i = 0; i < n_pages; i++)
    {
      Selection s;
      random_selection (rand, store, &s);
      double t0 = jvms_bench_wall_ms ();
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsEventQuery) q = jvms_event_query_new (store, &s.filter, &error);
      if (q == NULL)
        g_error ("%s", error->message);
      double t1 = jvms_bench_wall_ms ();
      g_array_append_val (select, (double) { t1 - t0 });
      guint64 n = jvms_event_query_get_n_rows (q);
      if (n == 0)
        continue;
      guint64 pos = (guint64) (g_rand_double (rand) * (double) (n > PAGE ? n - PAGE : 1));
      g_autoptr(JvmsEventBatch) batch = jvms_event_batch_new ();
      double c0 = jvms_bench_thread_cpu_ms ();
      t0 = jvms_bench_wall_ms ();
      if (!jvms_event_query_read (q, cursor, pos, PAGE, batch, &error))
        g_error ("%s", error->message);
      t1 = jvms_bench_wall_ms ();
      double c1 = jvms_bench_thread_cpu_ms ();
      g_array_append_val (page, (double) { t1 - t0 });
      g_array_append_val (page_cpu, (double) { c1 - c0 });
      /* The baseline for 20 of the same pages: every row of the selection up to the page. */
      if (i % (n_pages / 20 > 0 ? n_pages / 20 : 1) == 0)
        {
          g_autoptr(JvmsEventCursor) fresh = jvms_event_cursor_new (store);
          Reach reach = { pos + PAGE, TRUE };
          t0 = jvms_bench_wall_ms ();
          jvms_event_query_foreach (q, fresh, 0, FALSE, count_down, &reach, NULL);
          t1 = jvms_bench_wall_ms ();
          g_array_append_val (baseline, (double) { t1 - t0 });
          g_array_append_val (ours_sampled, (double) { g_array_index (page, double, page->len - 1) });
        }
    }
  printf ("figure events_select_p99 %.3f ms\n", jvms_bench_percentile_of (select, 0.99));
  printf ("figure events_query_p50 %.3f ms\n", jvms_bench_percentile_of (page, 0.5));
  printf ("figure events_query_p99 %.3f ms\n", jvms_bench_percentile_of (page, 0.99));
  printf ("figure events_query_cpu_p99 %.3f ms\n", jvms_bench_percentile_of (page_cpu, 0.99));
  double base = jvms_bench_percentile_of (baseline, 0.5);
  printf ("figure baseline_scan_to_page_p50 %.3f ms\n", base);
  printf ("ratio events_query_p50 %.5f\n", base > 0 ? jvms_bench_percentile_of (ours_sampled, 0.5) / base : 0);

  /* Every row once, headers only. */
  JvmsEventFilter all = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_ALL, NULL, 0, JVMS_EVENT_KEEP_ALL, NULL, 0 };
  g_autoptr(JvmsEventQuery) q = jvms_event_query_new (store, &all, NULL);
  Reach reach = { G_MAXUINT64, FALSE };
  g_autoptr(JvmsEventCursor) fresh = jvms_event_cursor_new (store);
  double t0 = jvms_bench_wall_ms ();
  jvms_event_query_foreach (q, fresh, 0, FALSE, count_down, &reach, NULL);
  printf ("figure events_scan_s %.3f s\n", (jvms_bench_wall_ms () - t0) / 1000);
  g_rand_free (rand);
}

/* ------------------------------------------------------------------------------------------ */
/* Scrolling the table */

typedef struct
{
  GArray *wall;     /* ms per frame, update to after-paint */
  GArray *cpu;      /* the main thread's CPU ms per frame */
  GArray *interval; /* the main thread's CPU ms from one frame's end to the next's */
} Frames;

static void
frames_init (Frames *f)
{
  f->wall = g_array_new (FALSE, FALSE, sizeof (double));
  f->cpu = g_array_new (FALSE, FALSE, sizeof (double));
  f->interval = g_array_new (FALSE, FALSE, sizeof (double));
}

static void
frames_clear (Frames *f)
{
  g_array_unref (f->wall);
  g_array_unref (f->cpu);
  g_array_unref (f->interval);
}

typedef struct
{
  GtkAdjustment  *adj;
  Frames         *out;
  double          started, started_cpu;
  double          laid_out, painted;         /* wall ms when GTK's layout and paint ended */
  double          laid_out_cpu, painted_cpu;
  double          last_end_cpu;
  gboolean        jumped;                    /* this frame follows a jump */
  gboolean        warm;
  int             left;
  GRand          *rand;
  GMainLoop      *loop;
  JvmsEventTable *until_stats;               /* stop once this table's statistics are shown */
} Scroll;

static void
on_update (GdkFrameClock *clock, Scroll *s)
{
  s->started = jvms_bench_wall_ms ();
  s->started_cpu = jvms_bench_thread_cpu_ms ();
}

/* Connected after GTK's own handlers of the same signals: they mark where its layout and its
 * paint (the surface drawn and sent to the display) ended. */
static void
on_layout (GdkFrameClock *clock, Scroll *s)
{
  s->laid_out = jvms_bench_wall_ms ();
  s->laid_out_cpu = jvms_bench_thread_cpu_ms ();
}

static void
on_paint (GdkFrameClock *clock, Scroll *s)
{
  s->painted = jvms_bench_wall_ms ();
  s->painted_cpu = jvms_bench_thread_cpu_ms ();
}

static void
on_after_paint (GdkFrameClock *clock, Scroll *s)
{
  double end_cpu = jvms_bench_thread_cpu_ms (), end = jvms_bench_wall_ms ();
  if (s->started > 0 && s->warm)
    {
      g_array_append_val (s->out->wall, (double) { end - s->started });
      g_array_append_val (s->out->cpu, (double) { end_cpu - s->started_cpu });
      g_array_append_val (s->out->interval, (double) { end_cpu - s->last_end_cpu });
      if (per_frame)
        printf ("# table frame jump=%d wall=%.2f cpu=%.2f layout_wall=%.2f layout_cpu=%.2f paint_wall=%.2f "
                "paint_cpu=%.2f after_wall=%.2f between_cpu=%.2f\n", s->jumped, end - s->started,
                end_cpu - s->started_cpu, s->laid_out - s->started, s->laid_out_cpu - s->started_cpu,
                s->painted - s->laid_out, s->painted_cpu - s->laid_out_cpu, end - s->painted,
                s->started_cpu - s->last_end_cpu);
    }
  s->last_end_cpu = end_cpu;
  s->started = 0;
  if (s->left-- <= 0 || (s->until_stats != NULL && jvms_event_table_get_stats (s->until_stats) != NULL))
    {
      g_main_loop_quit (s->loop);
      return;
    }
  /* A page further, or a jump to anywhere one time in ten (the scrollbar dragged). */
  double upper = gtk_adjustment_get_upper (s->adj), page = gtk_adjustment_get_page_size (s->adj);
  double v = gtk_adjustment_get_value (s->adj) + page;
  s->jumped = g_rand_int_range (s->rand, 0, 10) == 0 || v > upper - page;
  if (s->jumped)
    v = g_rand_double (s->rand) * MAX (upper - page, 0);
  gtk_adjustment_set_value (s->adj, v);
  s->warm = TRUE;
}

static GtkScrolledWindow *
find_scroller (GtkWidget *w)
{
  if (GTK_IS_SCROLLED_WINDOW (w) && GTK_IS_COLUMN_VIEW (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (w))))
    return GTK_SCROLLED_WINDOW (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkScrolledWindow *found = find_scroller (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
quit_idle (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
run_for (guint ms)
{
  GMainLoop *loop = g_main_loop_new (NULL, FALSE);
  g_timeout_add (ms, quit_idle, loop);
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
}

static GtkWidget *
present (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 900);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* Scrolls the column view in @window for at most n_frames frames (until @until_stats shows its
 * statistics, when given) into @out; --per-frame marks the pass's start and end on the monotonic
 * clock (perf record -k CLOCK_MONOTONIC, perf report --time). */
static void
scroll_pass (GtkWidget *window, const char *name, JvmsEventTable *until_stats, Frames *out)
{
  GMainLoop *loop = g_main_loop_new (NULL, FALSE);
  Scroll s = { .out = out, .left = n_frames, .rand = g_rand_new_with_seed (3), .loop = loop,
               .until_stats = until_stats };
  GtkScrolledWindow *scroller = find_scroller (gtk_window_get_child (GTK_WINDOW (window)));
  if (scroller == NULL)
    g_error ("no column view to scroll");
  s.adj = gtk_scrolled_window_get_vadjustment (scroller);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  gulong u = g_signal_connect (clock, "update", G_CALLBACK (on_update), &s);
  gulong p = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &s);
  gulong l = g_signal_connect (clock, "layout", G_CALLBACK (on_layout), &s);
  gulong d = g_signal_connect (clock, "paint", G_CALLBACK (on_paint), &s);
  if (per_frame)
    printf ("# pass %s from %.6f s\n", name, g_get_monotonic_time () / 1e6);
  gtk_adjustment_set_value (s.adj, gtk_adjustment_get_value (s.adj) + 1);
  gtk_widget_queue_draw (window);
  g_main_loop_run (loop);
  if (per_frame)
    printf ("# pass %s to %.6f s\n", name, g_get_monotonic_time () / 1e6);
  g_signal_handler_disconnect (clock, u);
  g_signal_handler_disconnect (clock, p);
  g_signal_handler_disconnect (clock, l);
  g_signal_handler_disconnect (clock, d);
  g_main_loop_unref (loop);
  g_rand_free (s.rand);
}

static void
setup_label (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  gtk_list_item_set_child (item, gtk_label_new (NULL));
}

static void
bind_label (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  GtkStringObject *o = gtk_list_item_get_item (item);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (o));
}

static void
print_frames (const char *name, Frames *f)
{
  printf ("figure %s_p50 %.3f ms\n", name, jvms_bench_percentile_of (f->wall, 0.5));
  printf ("figure %s_p99 %.3f ms\n", name, jvms_bench_percentile_of (f->wall, 0.99));
  printf ("figure %s_cpu_p50 %.3f ms\n", name, jvms_bench_percentile_of (f->cpu, 0.5));
  printf ("figure %s_cpu_p99 %.3f ms\n", name, jvms_bench_percentile_of (f->cpu, 0.99));
}

static void
bench_table (JvmsEventStore *store)
{
  g_autoptr(JvmsSession) session = jvms_session_new ();
  GtkWidget *table = jvms_event_table_new (session);
  double t0 = jvms_bench_wall_ms ();
  jvms_event_table_set_store (JVMS_EVENT_TABLE (table), store, NULL);
  printf ("figure event_table_rows %" G_GUINT64_FORMAT " rows\n", jvms_event_table_get_n_rows (JVMS_EVENT_TABLE (table)));
  GtkWidget *window = present (table);
  /* Mapped, its first rows read; the statistics of all the rows run meanwhile in a thread. */
  run_for (300);
  Frames busy, ours, base;
  frames_init (&busy);
  frames_init (&ours);
  frames_init (&base);
  /* While the statistics are computed: what scrolling feels like just after a new selection. */
  scroll_pass (window, "busy", JVMS_EVENT_TABLE (table), &busy);
  while (jvms_event_table_is_busy (JVMS_EVENT_TABLE (table)))
    g_main_context_iteration (NULL, TRUE);
  printf ("figure event_table_settled_s %.2f s\n", (jvms_bench_wall_ms () - t0) / 1000);
  run_for (500);
  scroll_pass (window, "table", NULL, &ours);
  gtk_window_destroy (GTK_WINDOW (window));

  /* The baseline: the same kind of column view over strings in memory. */
  GtkStringList *strings = gtk_string_list_new (NULL);
  for (guint i = 0; i < 100000; i++)
    {
      char buf[64];
      g_snprintf (buf, sizeof buf, "row %u of the baseline", i);
      gtk_string_list_append (strings, buf);
    }
  GtkColumnView *view = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (strings)))));
  for (guint c = 0; c < 5; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_signal_connect (factory, "setup", G_CALLBACK (setup_label), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_label), NULL);
      g_autoptr(GtkColumnViewColumn) col = gtk_column_view_column_new ("column", factory);
      gtk_column_view_append_column (view, col);
    }
  GtkWidget *scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (view));
  window = present (scroller);
  run_for (800);
  scroll_pass (window, "baseline", NULL, &base);
  gtk_window_destroy (GTK_WINDOW (window));

  double p99 = jvms_bench_percentile_of (ours.wall, 0.99), b99 = jvms_bench_percentile_of (base.wall, 0.99);
  print_frames ("event_table_scroll", &ours);
  printf ("figure event_table_interval_cpu_p50 %.3f ms\n", jvms_bench_percentile_of (ours.interval, 0.5));
  printf ("figure event_table_interval_cpu_p99 %.3f ms\n", jvms_bench_percentile_of (ours.interval, 0.99));
  printf ("figure event_table_frames %u frames\n", ours.wall->len);
  print_frames ("event_table_busy_scroll", &busy);
  printf ("figure event_table_busy_frames %u frames\n", busy.wall->len);
  print_frames ("baseline_scroll", &base);
  printf ("figure baseline_interval_cpu_p99 %.3f ms\n", jvms_bench_percentile_of (base.interval, 0.99));
  printf ("ratio event_table_scroll_p99 %.3f\n", b99 > 0 ? p99 / b99 : 0);
  frames_clear (&busy);
  frames_clear (&ours);
  frames_clear (&base);
}

typedef struct
{
  const guint32    *types;
  guint             n_lanes;
  JvmsEventColumn **outs;
  gint64            t0, t1;
  guint             n_columns;
} Naive;

static gboolean
naive_row (const JvmsEventRecord *r,
           gpointer               data)
{
  Naive *n = data;
  gint64 end = r->duration > 0 ? r->time + r->duration : r->time;
  for (guint l = 0; l < n->n_lanes; l++)
    {
      JvmsEventColumn *out = n->outs[l];
      if (n->types[l] != r->type)
        continue;
#define COL(t) ((guint) CLAMP ((double) ((t) - n->t0) / (double) (n->t1 - n->t0) * n->n_columns, 0, n->n_columns - 1))
      if (r->time >= n->t0 && r->time < n->t1)
        out[COL (r->time)].starts++;
      if (r->duration > 0 && end > n->t0 && r->time < n->t1)
        for (guint c = COL (MAX (r->time, n->t0)); c <= COL (MIN (end, n->t1 - 1)); c++)
          out[c].covering++;
#undef COL
    }
  return TRUE;
}

/* (lane, column) cells whose picture differs from a naive count of every row. */
static guint
check_frame (JvmsEventStore *store,
             GtkWidget      *view,
             gint64          t0,
             gint64          t1,
             guint          *blocks_read,
             double         *exact_ms,
             guint          *exact_blocks,
             guint          *exact_differing)
{
  guint n = jvms_events_view_get_n_lanes (JVMS_EVENTS_VIEW (view)), cols = 1920 - JVMS_TIMELINE_GUTTER, differing = 0;
  g_autofree guint32 *types = g_new (guint32, n);
  g_autofree JvmsEventColumn **got = g_new (JvmsEventColumn *, n);
  g_autofree JvmsEventColumn **want = g_new (JvmsEventColumn *, n);
  g_autofree JvmsEventColumn **exact = g_new (JvmsEventColumn *, n);
  JvmsEventTicksStats stats;
  for (guint l = 0; l < n; l++)
    {
      types[l] = jvms_event_store_find_type (store, jvms_events_view_get_lane_type (JVMS_EVENTS_VIEW (view), l));
      got[l] = g_new0 (JvmsEventColumn, cols);
      want[l] = g_new0 (JvmsEventColumn, cols);
      exact[l] = g_new0 (JvmsEventColumn, cols);
    }
  double c0 = jvms_bench_process_cpu_ms ();
  if (!jvms_event_ticks_count_lanes_full (store, types, n, 0, t0, t1, cols, got, JVMS_EVENT_TICKS_BLOCKS, &stats, NULL))
    g_error ("counts failed");
  double counts_ms = jvms_bench_process_cpu_ms () - c0;
  *blocks_read = stats.blocks_read;
  *exact_ms = -1;
  if (stats.blocks_spread > 0)
    {
      /* What the window then reads off the main thread (and an export at once). */
      JvmsEventTicksStats exact_stats;
      c0 = jvms_bench_process_cpu_ms ();
      if (!jvms_event_ticks_count_lanes_exact (store, types, n, 0, t0, t1, cols, exact, NULL, &exact_stats, NULL))
        g_error ("exact counts failed");
      *exact_ms = jvms_bench_process_cpu_ms () - c0;
      *exact_blocks = exact_stats.blocks_read;
    }
  if (check)
    {
      JvmsEventFilter filter = { t0 - (1 << 24), t1, JVMS_EVENT_KEEP_THESE, types, n, JVMS_EVENT_KEEP_ALL, NULL, 0 };
      g_autoptr(JvmsEventQuery) q = jvms_event_query_new (store, &filter, NULL);
      g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (store);
      Naive naive = { types, n, want, t0, t1, cols };
      if (q == NULL || !jvms_event_query_foreach (q, cursor, 0, FALSE, naive_row, &naive, NULL))
        g_error ("naive count failed");
      guint ticks = 0, bars_missing = 0, bars_extra = 0;
      *exact_differing = 0;
      for (guint l = 0; l < n && *exact_ms >= 0; l++)
        for (guint c = 0; c < cols; c++)
          *exact_differing += (exact[l][c].starts > 0) != (want[l][c].starts > 0) ||
                              (want[l][c].starts == 0 && (exact[l][c].covering > 0) != (want[l][c].covering > 0));
      for (guint l = 0; l < n; l++)
        for (guint c = 0; c < cols; c++)
          if ((got[l][c].starts > 0) != (want[l][c].starts > 0) ||
              (want[l][c].starts == 0 && (got[l][c].covering > 0) != (want[l][c].covering > 0)))
            {
              differing++;
              if ((got[l][c].starts > 0) != (want[l][c].starts > 0))
                ticks++;
              else if (want[l][c].covering > 0)
                bars_missing++;
              else
                bars_extra++;
            }
      if (per_frame)
        printf ("# check span_ms=%.6g blocks_read=%u blocks_spread=%u counts_cpu_ms=%.2f ticks_differing=%u "
                "bars_missing=%u bars_extra=%u\n", (t1 - t0) / 1e6, stats.blocks_read, stats.blocks_spread,
                counts_ms, ticks, bars_missing, bars_extra);
    }
  for (guint l = 0; l < n; l++)
    {
      g_free (got[l]);
      g_free (want[l]);
      g_free (exact[l]);
    }
  return differing;
}

/* The events view over the store, drawn offscreen at random ranges. Its session's history holds
 * nothing but the store's span (the window gives it the trace's). */
static void
bench_events_view (JvmsEventStore *store)
{
  g_autoptr(GError) error = NULL;
  gint64 first = jvms_event_store_get_first_time (store), last = jvms_event_store_get_last_time (store) + 1;
  g_autofree char *dir = g_dir_make_tmp ("jvmscope-bench-events-XXXXXX", &error);
  g_autofree char *path = dir != NULL ? g_build_filename (dir, "span.jvmsidx", NULL) : NULL;
  g_autoptr(JvmsHistoryBuilder) b = path != NULL ? jvms_history_builder_new (path, first, NULL, &error) : NULL;
  if (b == NULL || !jvms_history_builder_close (b, last, &error))
    g_error ("the events view's history: %s", error->message);
  g_autoptr(JvmsHistory) history = jvms_history_open (path, 64 << 20, &error);
  if (history == NULL)
    g_error ("%s", error->message);
  g_autoptr(JvmsSession) session = jvms_session_new ();
  jvms_session_set_history (session, history);
  GtkWidget *view = g_object_ref_sink (jvms_events_view_new (session));
  jvms_events_view_set_event_store (JVMS_EVENTS_VIEW (view), store);
  printf ("figure events_view_lanes %u lanes\n", jvms_events_view_get_n_lanes (JVMS_EVENTS_VIEW (view)));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1920, 600);
  g_autoptr(GArray) wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GArray) blocks_read = g_array_new (FALSE, FALSE, sizeof (double));
  guint cells_differing = 0, frames_differing = 0, exact_cells_differing = 0;
  g_autoptr(GArray) exact_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  for (int f = -1; f < 100; f++)
    {
      /* Log-uniform span from 10 µs to the whole store, at a random place; frame -1, the whole
       * store, untimed (caches warm, as a window's are). */
      double lo = log (10000.0), hi = log ((double) (last - first));
      gint64 span = f < 0 ? last - first : (gint64) exp (g_rand_double_range (rand, lo, hi));
      gint64 from = first + (gint64) (g_rand_double (rand) * (double) (last - first - span));
      jvms_session_set_visible (session, from, from + span, FALSE);
      cairo_t *cr = cairo_create (surface);
      double w0 = jvms_bench_wall_ms (), c0 = jvms_bench_process_cpu_ms ();
      jvms_timeline_render_frame (JVMS_TIMELINE (view), cr, 1920, 600, FALSE);
      cairo_surface_flush (surface);
      double c = jvms_bench_process_cpu_ms () - c0, w = jvms_bench_wall_ms () - w0;
      cairo_destroy (cr);
      if (f >= 0)
        {
          guint blocks = 0, exact_blocks = 0, exact_diff = 0;
          double exact_ms = -1;
          guint diff = check_frame (store, view, from, from + span, &blocks, &exact_ms, &exact_blocks, &exact_diff);
          if (per_frame)
            printf ("# frame span_ms=%.6g cpu_ms=%.2f wall_ms=%.2f blocks_read=%u exact_cpu_ms=%.2f exact_blocks=%u\n",
                    span / 1e6, c, w, blocks, exact_ms, exact_blocks);
          if (exact_ms >= 0)
            {
              g_array_append_val (exact_cpu, exact_ms);
              exact_cells_differing += exact_diff;
            }
          double nb = blocks;
          g_array_append_val (wall, w);
          g_array_append_val (cpu, c);
          g_array_append_val (blocks_read, nb);
          cells_differing += diff;
          frames_differing += diff > 0;
        }
    }
  printf ("figure events_view_blocks_read_p99 %.0f blocks\n", jvms_bench_percentile_of (blocks_read, 0.99));
  if (check)
    {
      printf ("figure events_view_cells_differing %u cells\n", cells_differing);
      printf ("figure events_view_frames_differing %u frames\n", frames_differing);
      printf ("figure events_view_exact_cells_differing %u cells\n", exact_cells_differing);
    }
  printf ("figure events_view_frames_approximate %u frames\n", exact_cpu->len);
  if (exact_cpu->len > 0)
    {
      printf ("figure events_view_exact_cpu_p50 %.3f ms\n", jvms_bench_percentile_of (exact_cpu, 0.5));
      printf ("figure events_view_exact_cpu_max %.3f ms\n", jvms_bench_percentile_of (exact_cpu, 1.0));
    }
  printf ("figure events_view_frame_p50 %.3f ms\n", jvms_bench_percentile_of (wall, 0.5));
  printf ("figure events_view_frame_p99 %.3f ms\n", jvms_bench_percentile_of (wall, 0.99));
  printf ("figure events_view_frame_cpu_p99 %.3f ms\n", jvms_bench_percentile_of (cpu, 0.99));
  cairo_surface_destroy (surface);
  g_object_unref (view);
  g_clear_pointer (&history, jvms_history_unref);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    { "events", 0, 0, G_OPTION_ARG_INT64, &n_events, "Events in the synthetic store", "N" },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, "Where the store is kept (/tmp)", "DIR" },
    { "pages", 0, 0, G_OPTION_ARG_INT, &n_pages, "Random pages read", "N" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames scrolled", "N" },
    { "no-table", 0, 0, G_OPTION_ARG_NONE, &no_table, "Skip the table (no display)", NULL },
    { "view-only", 0, 0, G_OPTION_ARG_NONE, &view_only, "Only the events view", NULL },
    { "table-only", 0, 0, G_OPTION_ARG_NONE, &table_only, "Only the event table's scrolling", NULL },
    { "check", 0, 0, G_OPTION_ARG_NONE, &check, "Compare the events view's columns with a naive count of every row", NULL },
    { "per-frame", 0, 0, G_OPTION_ARG_NONE, &per_frame, "Print each events view frame (and its check) as a # line", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— the event store and table at scale");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  g_autofree char *path = g_strdup_printf ("%s/jvmscope-bench-events-%" G_GINT64_FORMAT ".events",
                                           cache_dir != NULL ? cache_dir : g_get_tmp_dir (), n_events);
  JvmsEventStore *store = jvms_event_store_open (path, NULL);
  if (store == NULL)
    {
      double t0 = jvms_bench_wall_ms ();
      build_store (path);
      printf ("figure build_seconds %.2f s\n", (jvms_bench_wall_ms () - t0) / 1000);
      store = jvms_event_store_open (path, &error);
      if (store == NULL)
        g_error ("%s", error->message);
    }
  GStatBuf st;
  if (g_stat (path, &st) == 0)
    printf ("figure store_bytes_per_event %.1f bytes\n", (double) st.st_size / MAX (n_events, 1));
  printf ("figure events %" G_GUINT64_FORMAT " rows\n", jvms_event_store_get_n_rows (store));
  if (!view_only && !table_only)
    bench_queries (store);
  if (!no_table)
    {
      /* The software renderer, as on a machine without a GPU (Xvfb): the same for ours and the
       * baseline, and steadier than GL through llvmpipe. GSK_RENDERER set outside wins. */
      g_setenv ("GSK_RENDERER", "cairo", FALSE);
      gtk_init ();
      if (!table_only)
        bench_events_view (store);
      if (!view_only)
        bench_table (store);
    }
  jvms_event_store_unref (store);
  return 0;
}
