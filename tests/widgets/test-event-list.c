/* test-event-list.c: the event table's list model (widgets/jvms-event-list-model.c) reads its
 * pages off the main thread: a row asked for is first not loaded, then notifies that it is and
 * holds the record the source has at its position (and calls the cells that watch it); rows of pages scrolled past (let go before
 * their turn) never hold a wrong record; a read on the main thread takes turns with the reading
 * thread; a list let go with reads queued ends cleanly. No display needed. */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>

#include "jvms-event-list-model.h"
#include "jvms-event-selection.h"
#include "jvms-event-writer.h"

#define N_ROWS 20000

typedef struct
{
  char           *dir;
  char           *path;
  JvmsEventStore *store;
  JvmsRecordSource *source;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  f->dir = g_dir_make_tmp ("jvms-event-list-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "rows.events", NULL);
  g_autoptr(JvmsEventWriter) w = jvms_event_writer_new (f->path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_event_writer_add_type (w, "test.Row", NULL, 0), ==, 0);
  /* Row i starts at 1000 i ns: a row's time tells its position. */
  for (guint i = 0; i < N_ROWS; i++)
    {
      jvms_event_writer_begin (w, 1000 * (gint64) i, 10, 0, 100 + i % 7, JVMS_EVENT_NONE);
      jvms_event_writer_commit (w);
    }
  g_assert_true (jvms_event_writer_close (w, &error));
  g_assert_no_error (error);
  f->store = jvms_event_store_open (f->path, &error);
  g_assert_no_error (error);
  JvmsEventFilter all = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_ALL, NULL, 0, JVMS_EVENT_KEEP_ALL, NULL, 0 };
  f->source = JVMS_RECORD_SOURCE (jvms_event_selection_new (f->store, &all, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_record_source_get_n_records (f->source), ==, N_ROWS);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->source);
  jvms_event_store_unref (f->store);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static void
count_notify (JvmsEventRow *row, GParamSpec *pspec, guint *n)
{
  (*n)++;
}

static void
count_watch (JvmsEventRow *row, gpointer n)
{
  (*(guint *) n)++;
}

/* Until every page asked for has arrived (each delivery is a main-loop dispatch). */
static void
wait_pages (JvmsEventListModel *model)
{
  while (jvms_event_list_model_get_n_pending (model) > 0)
    g_main_context_iteration (NULL, TRUE);
}

static void
assert_row_at (JvmsEventRow *row, guint position)
{
  JvmsEventRecord r;
  g_assert_true (jvms_event_row_is_loaded (row));
  g_assert_true (jvms_event_row_get_record (row, &r));
  g_assert_cmpint (r.time, ==, 1000 * (gint64) position);
  g_assert_cmpint (r.tid, ==, 100 + position % 7);
}

static void
test_arrives (Fixture *f, gconstpointer data)
{
  g_autoptr(JvmsEventListModel) model = jvms_event_list_model_new ();
  jvms_event_list_model_set_source (model, f->source);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, N_ROWS);

  guint n_notified = 0;
  g_autoptr(JvmsEventRow) row = g_list_model_get_item (G_LIST_MODEL (model), 12345);
  JvmsEventRecord r;
  /* Nothing has run on the main loop yet: the page cannot have been delivered. */
  g_assert_false (jvms_event_row_is_loaded (row));
  g_assert_false (jvms_event_row_get_record (row, &r));
  g_signal_connect (row, "notify::loaded", G_CALLBACK (count_notify), &n_notified);
  /* The same page: no second read. */
  g_autoptr(JvmsEventRow) neighbour = g_list_model_get_item (G_LIST_MODEL (model), 12346);
  /* What a table's cells do: watched, and one watch taken back (an unbound cell). */
  guint n_watched = 0, n_unwatched = 0;
  jvms_event_row_watch (row, count_watch, &n_watched);
  jvms_event_row_watch (neighbour, count_watch, &n_watched);
  jvms_event_row_watch (neighbour, count_watch, &n_unwatched);
  jvms_event_row_unwatch (neighbour, &n_unwatched);
  g_assert_cmpuint (jvms_event_list_model_get_n_reads (model), ==, 1);
  g_assert_cmpuint (jvms_event_list_model_get_n_pending (model), ==, 1);
  wait_pages (model);
  g_assert_cmpuint (n_notified, ==, 1);
  g_assert_cmpuint (n_watched, ==, 2);
  g_assert_cmpuint (n_unwatched, ==, 0);
  assert_row_at (row, 12345);
  assert_row_at (neighbour, 12346);
  /* Kept: asked again, it is there at once. */
  g_autoptr(JvmsEventRow) again = g_list_model_get_item (G_LIST_MODEL (model), 12340);
  assert_row_at (again, 12340);
  g_assert_cmpuint (jvms_event_list_model_get_n_reads (model), ==, 1);
}

/* A scroll through many pages, most rows let go at once (as a list view does with rows that
 * went off screen), some kept: every kept row ends loaded with its own record, whichever pages
 * the reading thread skipped. */
static void
test_scrolled_past (Fixture *f, gconstpointer data)
{
  g_autoptr(JvmsEventListModel) model = jvms_event_list_model_new ();
  jvms_event_list_model_set_source (model, f->source);
  g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  for (guint i = 0; i < 400; i++)
    {
      guint position = g_rand_int_range (rand, 0, N_ROWS);
      JvmsEventRow *row = g_list_model_get_item (G_LIST_MODEL (model), position);
      if (i % 10 == 0)
        g_ptr_array_add (kept, row);
      else
        g_object_unref (row);
    }
  wait_pages (model);
  for (guint i = 0; i < kept->len; i++)
    assert_row_at (kept->pdata[i], jvms_event_row_get_position (kept->pdata[i]));
  /* Read on this thread in turn with the reading thread: the same records. */
  g_autoptr(JvmsEventBatch) batch = jvms_event_batch_new ();
  g_autoptr(GError) error = NULL;
  g_assert_true (jvms_event_list_model_read (model, 777, 50, batch, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_event_batch_get_len (batch), ==, 50);
  for (guint i = 0; i < 50; i++)
    {
      JvmsEventRecord r;
      jvms_event_batch_get (batch, i, &r);
      g_assert_cmpint (r.time, ==, 1000 * (gint64) (777 + i));
    }
}

static void
wait_finalized (GObject **object)
{
  g_object_add_weak_pointer (*object, (gpointer *) object);
  g_object_unref (*object);
  while (*object != NULL)
    g_main_context_iteration (NULL, TRUE);
}

/* A new source, and a list let go, while reads are queued: rows of the old source hold the old
 * records or none, never the new source's; every read queued ends and lets its source go
 * (ASan, LSan: nothing left behind). */
static void
test_replaced (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  gint64 tid = 103;
  JvmsEventFilter all = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_ALL, NULL, 0, JVMS_EVENT_KEEP_ALL, NULL, 0 };
  JvmsEventFilter one = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_ALL, NULL, 0, JVMS_EVENT_KEEP_THESE, &tid, 1 };
  JvmsEventSelection *first = jvms_event_selection_new (f->store, &all, &error);
  g_assert_no_error (error);
  JvmsEventSelection *other = jvms_event_selection_new (f->store, &one, &error);
  g_assert_no_error (error);

  JvmsEventListModel *model = jvms_event_list_model_new ();
  jvms_event_list_model_set_source (model, JVMS_RECORD_SOURCE (first));
  g_autoptr(JvmsEventRow) old_row = g_list_model_get_item (G_LIST_MODEL (model), 7000);
  for (guint i = 0; i < 40; i++)
    g_object_unref (g_list_model_get_item (G_LIST_MODEL (model), i * 400));
  jvms_event_list_model_set_source (model, JVMS_RECORD_SOURCE (other));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, (N_ROWS + 6 - 3) / 7);
  g_autoptr(JvmsEventRow) new_row = g_list_model_get_item (G_LIST_MODEL (model), 5);
  wait_pages (model);
  JvmsEventRecord r;
  g_assert_true (jvms_event_row_get_record (new_row, &r));
  g_assert_cmpint (r.tid, ==, 103);
  g_assert_cmpint (r.time, ==, 1000 * (3 + 7 * 5));
  while (!jvms_event_row_is_loaded (old_row))
    g_main_context_iteration (NULL, TRUE);
  if (jvms_event_row_get_record (old_row, &r))
    assert_row_at (old_row, 7000);

  for (guint i = 0; i < 40; i++)
    g_object_unref (g_list_model_get_item (G_LIST_MODEL (model), i * 50));
  g_assert_finalize_object (model);
  /* The queued reads hold their sources until they are delivered. */
  g_clear_object (&old_row);
  g_clear_object (&new_row);
  wait_finalized ((GObject **) &first);
  wait_finalized ((GObject **) &other);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/Widgets/event-list/arrives", Fixture, NULL, fixture_set_up, test_arrives, fixture_tear_down);
  g_test_add ("/Widgets/event-list/scrolled-past", Fixture, NULL, fixture_set_up, test_scrolled_past, fixture_tear_down);
  g_test_add ("/Widgets/event-list/replaced", Fixture, NULL, fixture_set_up, test_replaced, fixture_tear_down);
  return g_test_run ();
}
