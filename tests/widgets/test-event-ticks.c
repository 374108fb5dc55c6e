/* test-event-ticks.c: where rows of an event store fall in a view's columns
 * (widgets/jvms-event-ticks.c) against a naive count over every row.
 *
 * A store of two types (the counted one and another interleaved with it) is written, then
 * counted over a range: rows starting in each column and, for rows with a duration, the columns
 * their span covers. Few rows: every block spans columns and is read, so the counts equal the
 * naive ones. Many, columns wider than blocks: most blocks are counted from the store's index
 * unread, the counts are still exact and the picture (a tick where rows start, a bar where a
 * duration covers an empty column) the naive one. More blocks spanning columns than the budget:
 * some counts are spread, flagged approximate, the others exact, the total kept within a
 * column's rounding, and the ticks still the naive ones; counted exactly, the naive counts. A
 * duration reaching over empty columns from a block counted unread: its bar is drawn. */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "jvms-event-store.h"
#include "jvms-event-ticks.h"
#include "jvms-event-writer.h"

#define N_COLUMNS 1000

static guint n_columns = N_COLUMNS;

typedef struct
{
  gint64 time, duration;
  guint32 type;
} Row;

typedef struct
{
  char   *dir;
  char   *path;
  GArray *rows; /* Row, in time order */
} Fixture;

/* @n rows of type 0 from @t0 on, @gap ns apart on average, every third one with a duration of
 * up to @max_duration; a row of type 1 after each fourth, or @others after each when not 0. */
static void
write_store_mixed (Fixture *f,
                   guint    n,
                   gint64   t0,
                   gint64   gap,
                   gint64   max_duration,
                   guint    others)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsEventWriter) w = jvms_event_writer_new (f->path, &error);
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);
  gint64 t = t0;

  g_assert_no_error (error);
  g_assert_cmpuint (jvms_event_writer_add_type (w, "test.Counted", NULL, 0), ==, 0);
  g_assert_cmpuint (jvms_event_writer_add_type (w, "test.Other", NULL, 0), ==, 1);
  for (guint i = 0; i < n; i++)
    {
      Row r = { t, i % 3 == 0 ? g_rand_int_range (rand, 0, (gint32) max_duration + 1) : 0, 0 };
      jvms_event_writer_begin (w, r.time, r.duration, 0, 100 + i % 7, JVMS_EVENT_NONE);
      jvms_event_writer_commit (w);
      g_array_append_val (f->rows, r);
      for (guint o = 0; o < (others > 0 ? others : i % 4 == 0); o++)
        {
          Row other = { t, 5 * gap, 1 };
          jvms_event_writer_begin (w, other.time, other.duration, 1, 7, JVMS_EVENT_NONE);
          jvms_event_writer_commit (w);
          g_array_append_val (f->rows, other);
        }
      t += g_rand_int_range (rand, 0, (gint32) (2 * gap) + 1);
    }
  g_assert_true (jvms_event_writer_close (w, &error));
  g_assert_no_error (error);
}

static void
write_store (Fixture *f,
             guint    n,
             gint64   t0,
             gint64   gap,
             gint64   max_duration)
{
  write_store_mixed (f, n, t0, gap, max_duration, 0);
}

static guint
naive_column (gint64 t0,
              gint64 t1,
              gint64 t)
{
  double f = (double) (t - t0) / (double) (t1 - t0);
  return (guint) CLAMP (f * n_columns, 0, n_columns - 1);
}

/* Every row of type 0: starts in [t0, t1) per column, and the columns each span covers. */
static void
naive_count (Fixture         *f,
             gint64           t0,
             gint64           t1,
             JvmsEventColumn *out)
{
  memset (out, 0, sizeof (JvmsEventColumn) * n_columns);
  for (guint i = 0; i < f->rows->len; i++)
    {
      const Row *r = &g_array_index (f->rows, Row, i);
      gint64 end = r->time + r->duration;
      if (r->type != 0)
        continue;
      if (r->time >= t0 && r->time < t1)
        out[naive_column (t0, t1, r->time)].starts++;
      if (r->duration > 0 && end > t0 && r->time < t1)
        for (guint c = naive_column (t0, t1, MAX (r->time, t0));
             c <= naive_column (t0, t1, MIN (end, t1 - 1)); c++)
          out[c].covering++;
    }
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  f->dir = g_dir_make_tmp ("jvms-event-ticks-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "events.jvmsev", NULL);
  f->rows = g_array_new (FALSE, FALSE, sizeof (Row));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
  g_array_unref (f->rows);
}

static JvmsEventStore *
open_store (Fixture *f,
            guint32 *type)
{
  g_autoptr(GError) error = NULL;
  JvmsEventStore *store = jvms_event_store_open (f->path, &error);
  g_assert_no_error (error);
  *type = jvms_event_store_find_type (store, "test.Counted");
  g_assert_cmpuint (*type, !=, JVMS_EVENT_NONE);
  return store;
}

/* Both types counted together as two lanes (jvms_event_ticks_count_lanes, one sweep) against a
 * call per type: the same columns, exact or approximate. */
static void
check_lanes (JvmsEventStore *store,
             gint64          t0,
             gint64          t1)
{
  g_autoptr(GError) error = NULL;
  const guint32 types[2] = { 0, 1 };
  g_autofree JvmsEventColumn *lane0 = g_new (JvmsEventColumn, N_COLUMNS);
  g_autofree JvmsEventColumn *lane1 = g_new (JvmsEventColumn, N_COLUMNS);
  JvmsEventColumn *lanes[2] = { lane0, lane1 };
  g_autofree JvmsEventColumn *alone = g_new (JvmsEventColumn, N_COLUMNS);
  guint64 counted = 0;

  g_assert_true (jvms_event_ticks_count_lanes (store, types, 2, 0, t0, t1, n_columns, lanes, &error));
  g_assert_no_error (error);
  for (guint l = 0; l < 2; l++)
    {
      g_assert_true (jvms_event_ticks_count (store, types[l], 0, t0, t1, n_columns, alone, &error));
      g_assert_no_error (error);
      for (guint c = 0; c < n_columns; c++)
        {
          g_assert_cmpuint (lanes[l][c].starts, ==, alone[c].starts);
          g_assert_cmpuint (lanes[l][c].covering, ==, alone[c].covering);
          g_assert_cmpint (lanes[l][c].approximate, ==, alone[c].approximate);
          counted += lanes[l][c].starts + lanes[l][c].covering;
        }
    }
  g_assert_cmpuint (counted, >, 0);
}

/* The picture the view draws from @got is the one from @want: a tick where rows start, and in
 * a column where none starts, a bar where a duration covers it. */
static void
assert_same_picture (const JvmsEventColumn *got,
                     const JvmsEventColumn *want)
{
  for (guint c = 0; c < n_columns; c++)
    {
      g_assert_cmpint (got[c].starts > 0, ==, want[c].starts > 0);
      if (want[c].starts == 0)
        g_assert_cmpint (got[c].covering > 0, ==, want[c].covering > 0);
    }
}

static void
check_exact (Fixture *f,
             gint64   t0,
             gint64   t1)
{
  g_autoptr(GError) error = NULL;
  guint32 type;
  g_autoptr(JvmsEventStore) store = open_store (f, &type);
  g_autofree JvmsEventColumn *got = g_new (JvmsEventColumn, n_columns);
  g_autofree JvmsEventColumn *want = g_new (JvmsEventColumn, n_columns);
  guint64 total = 0;

  g_assert_true (jvms_event_ticks_count (store, type, 0, t0, t1, n_columns, got, &error));
  g_assert_no_error (error);
  naive_count (f, t0, t1, want);
  for (guint c = 0; c < n_columns; c++)
    {
      g_assert_false (got[c].approximate);
      g_assert_cmpuint (got[c].starts, ==, want[c].starts);
      g_assert_cmpuint (got[c].covering, ==, want[c].covering);
      total += got[c].starts;
    }
  g_assert_cmpuint (total, >, 0);
  check_lanes (store, t0, t1);
}

/* 5,000 rows, the range their middle: each block spans columns and is read, and the one before
 * the range for the durations reaching into it. */
static void
test_few (Fixture       *f,
          gconstpointer  data)
{
  n_columns = N_COLUMNS;
  write_store (f, 5000, 1000000, 1000, 20000);
  check_exact (f, 1000000 + 1000 * 1000, 1000000 + 4000 * 1000);
}

/* 8,192 rows among 63 times as many of another type (512 blocks, 16 of ours in each) in 50
 * columns, each about ten blocks wide: the blocks inside a column are counted from the index,
 * unread; those across a column's edge are read (too few of ours to spread); the starts are
 * exact all the same, and the picture is the naive one. */
static void
test_many (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint32 type;
  g_autoptr(JvmsEventStore) store = NULL;
  g_autofree JvmsEventColumn *got = NULL, *want = NULL;
  JvmsEventTicksStats stats;
  gint64 t1;
  guint64 n_blocks;

  n_columns = 50;
  got = g_new (JvmsEventColumn, n_columns);
  want = g_new (JvmsEventColumn, n_columns);
  write_store_mixed (f, 8192, 0, 64000, 1280000, 63);
  t1 = g_array_index (f->rows, Row, f->rows->len - 1).time + 1;
  store = open_store (f, &type);
  jvms_event_store_get_blocks (store, &n_blocks);
  g_assert_true (jvms_event_ticks_count_lanes_full (store, &type, 1, 0, 0, t1, n_columns, &got,
                                                    JVMS_EVENT_TICKS_BLOCKS, &stats, &error));
  g_assert_no_error (error);
  naive_count (f, 0, t1, want);
  for (guint c = 0; c < n_columns; c++)
    {
      g_assert_false (got[c].approximate);
      g_assert_cmpuint (got[c].starts, ==, want[c].starts);
    }
  assert_same_picture (got, want);
  g_assert_cmpuint (stats.blocks_spread, ==, 0);
  g_assert_cmpuint (stats.blocks_read, <, n_blocks / 2);
  g_assert_cmpuint (stats.blocks_read, >, 0);
  check_lanes (store, 0, t1);
}

/* A million rows in 500 columns, each about two blocks wide: more blocks span columns than the
 * budget reads. Those read give exact columns; the others are spread and flagged; the total is
 * kept within a column's rounding; the ticks are the naive ones. The exact count reads them all:
 * the naive columns. */
static void
test_over_budget (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint32 type;
  g_autoptr(JvmsEventStore) store = NULL;
  g_autofree JvmsEventColumn *got = g_new (JvmsEventColumn, N_COLUMNS);
  g_autofree JvmsEventColumn *want = g_new (JvmsEventColumn, N_COLUMNS);
  guint64 total = 0, want_total = 0;
  gboolean any_approximate = FALSE;
  JvmsEventTicksStats stats;
  gint64 t1;

  n_columns = N_COLUMNS / 2;
  write_store (f, 1000000, 0, 1, 0);
  t1 = g_array_index (f->rows, Row, f->rows->len - 1).time + 1;
  store = open_store (f, &type);
  g_assert_true (jvms_event_ticks_count_lanes_full (store, &type, 1, 0, 0, t1, n_columns, &got,
                                                    JVMS_EVENT_TICKS_BLOCKS, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.blocks_read, <=, JVMS_EVENT_TICKS_BLOCKS + 2);
  g_assert_cmpuint (stats.blocks_spread, >, 0);
  naive_count (f, 0, t1, want);
  for (guint c = 0; c < n_columns; c++)
    {
      total += got[c].starts;
      want_total += want[c].starts;
      any_approximate |= got[c].approximate;
      if (!got[c].approximate)
        g_assert_cmpuint (got[c].starts, ==, want[c].starts);
    }
  g_assert_true (any_approximate);
  /* A spread block loses at most its remainder: less than a row per column it spans, and adds
   * at most a row to each column it spans. */
  g_assert_cmpuint (total, <=, want_total + n_columns);
  g_assert_cmpuint (total + n_columns, >=, want_total);
  assert_same_picture (got, want);
  g_assert_cmpuint (n_columns, <, N_COLUMNS);

  /* Counted exactly (an export, the window's refinement): every column the naive count, none
   * flagged, every block across columns read; a cancelled count says so. */
  g_assert_true (jvms_event_ticks_count_lanes_exact (store, &type, 1, 0, 0, t1, n_columns, &got,
                                                     NULL, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.blocks_spread, ==, 0);
  g_assert_cmpuint (stats.blocks_read, >, JVMS_EVENT_TICKS_BLOCKS + 2);
  for (guint c = 0; c < n_columns; c++)
    {
      g_assert_false (got[c].approximate);
      g_assert_cmpuint (got[c].starts, ==, want[c].starts);
      g_assert_cmpuint (got[c].covering, ==, want[c].covering);
    }
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_cancellable_cancel (cancellable);
  g_assert_false (jvms_event_ticks_count_lanes_exact (store, &type, 1, 0, 0, t1, n_columns, &got,
                                                      cancellable, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* Rows every 100 ns for 10 ms, then none: the last one lasts 3 ms. In 100 columns of 0.2 ms,
 * the first 50 have rows counted from the index unread; the bar of the last row covers the
 * next 15 empty columns, and no more. */
static void
test_reach (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsEventWriter) w = jvms_event_writer_new (f->path, &error);
  guint32 type;
  g_autoptr(JvmsEventStore) store = NULL;
  g_autofree JvmsEventColumn *got = NULL, *want = NULL;
  JvmsEventTicksStats stats;

  n_columns = 100;
  got = g_new (JvmsEventColumn, n_columns);
  want = g_new (JvmsEventColumn, n_columns);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_event_writer_add_type (w, "test.Counted", NULL, 0), ==, 0);
  g_assert_cmpuint (jvms_event_writer_add_type (w, "test.Other", NULL, 0), ==, 1);
  for (gint64 i = 0; i < 100000; i++)
    {
      Row r = { i * 100, i == 99999 ? 3000000 : 0, 0 };
      jvms_event_writer_begin (w, r.time, r.duration, 0, 7, JVMS_EVENT_NONE);
      jvms_event_writer_commit (w);
      g_array_append_val (f->rows, r);
    }
  g_assert_true (jvms_event_writer_close (w, &error));
  g_assert_no_error (error);
  store = open_store (f, &type);
  g_assert_true (jvms_event_ticks_count_lanes_full (store, &type, 1, 0, 0, 20000000, n_columns, &got,
                                                    JVMS_EVENT_TICKS_BLOCKS, &stats, &error));
  g_assert_no_error (error);
  naive_count (f, 0, 20000000, want);
  g_assert_cmpuint (want[64].covering, ==, 1);
  g_assert_cmpuint (want[65].covering, ==, 0);
  assert_same_picture (got, want);
  g_assert_cmpuint (stats.blocks_read, <, 98 * 2 / 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/EventTicks/few", Fixture, NULL, fixture_set_up, test_few, fixture_tear_down);
  g_test_add ("/EventTicks/many", Fixture, NULL, fixture_set_up, test_many, fixture_tear_down);
  g_test_add ("/EventTicks/over-budget", Fixture, NULL, fixture_set_up, test_over_budget,
              fixture_tear_down);
  g_test_add ("/EventTicks/reach", Fixture, NULL, fixture_set_up, test_reach, fixture_tear_down);
  return g_test_run ();
}
