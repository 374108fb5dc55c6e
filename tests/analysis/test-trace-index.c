/* Tests of JvmsTraceIndex's asynchronous loading, as the window uses it: notifications in the
 * caller's main context, a live history while indexing, cancellation, and the sample store. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "jvms-samples.h"
#include "jvms-trace-index.h"

typedef struct
{
  char      *dir;
  char      *trace;
  char      *cache;
  GMainLoop *loop;
  gboolean   done;
  gboolean   ok;
  GError    *error;
  GThread   *main_thread;
  guint      n_fraction, n_phase, n_history;
  gboolean   notified_off_thread;
  gboolean   saw_indexing;
  gboolean   saw_live_history;
  guint      live_values;      /* most non-null values one query of the live history gave */
  double     last_fraction;
  gboolean   fraction_went_back;
} Fixture;

static char *
testdata_path (const char *name)
{
  /* meson passes the source tree; shared/ lies beside the checkout. */
  return g_build_filename (g_getenv ("JVMS_SHARED_DIR"), "testdata", "jfr", name, NULL);
}

static void
gunzip_to (const char *gz, const char *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) in_file = g_file_new_for_path (gz);
  g_autoptr(GFile) out_file = g_file_new_for_path (out);
  g_autoptr(GFileInputStream) in = g_file_read (in_file, NULL, &error);
  g_assert_no_error (error);
  g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) plain = g_converter_input_stream_new (G_INPUT_STREAM (in), G_CONVERTER (z));
  g_autoptr(GFileOutputStream) o = g_file_replace (out_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_splice (G_OUTPUT_STREAM (o), plain,
                          G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                          NULL, &error);
  g_assert_no_error (error);
}

/* The oracle: the JDK's own count of an event type in a file. */
static guint64
jfr_summary_count (const char *path, const char *type)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  int status;
  const char *argv[] = { "jfr", "summary", path, NULL };
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  for (gsize i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) cols = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      if (g_strcmp0 (cols[0], type) != 0)
        continue;
      for (gsize k = 1; cols[k] != NULL; k++)
        if (cols[k][0] != '\0')
          return g_ascii_strtoull (cols[k], NULL, 10);
    }
  g_assert_not_reached ();
  return 0;
}

static void
remove_dir (const char *path)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_dir (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  memset (f, 0, sizeof *f);
  f->dir = g_dir_make_tmp ("jvms-trace-index-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->trace = g_build_filename (f->dir, "trace.jfr", NULL);
  f->cache = g_build_filename (f->dir, "cache", NULL);
  g_autofree char *gz = testdata_path (data);
  gunzip_to (gz, f->trace);
  f->loop = g_main_loop_new (NULL, FALSE);
  f->main_thread = g_thread_self ();
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  remove_dir (f->dir);
  g_free (f->dir);
  g_free (f->trace);
  g_free (f->cache);
  g_main_loop_unref (f->loop);
  g_clear_error (&f->error);
}

static void
on_notify (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  Fixture *f = user_data;
  JvmsTraceIndex *index = JVMS_TRACE_INDEX (object);
  if (g_thread_self () != f->main_thread)
    f->notified_off_thread = TRUE;
  if (strcmp (pspec->name, "fraction") == 0)
    {
      double fr = jvms_trace_index_get_fraction (index);
      if (fr < f->last_fraction)
        f->fraction_went_back = TRUE;
      f->last_fraction = fr;
      f->n_fraction++;
    }
  else if (strcmp (pspec->name, "phase") == 0)
    {
      f->n_phase++;
      if (jvms_trace_index_get_phase (index) == JVMS_TRACE_INDEX_PHASE_INDEXING)
        f->saw_indexing = TRUE;
    }
  else if (strcmp (pspec->name, "history") == 0)
    f->n_history++;

  if (jvms_trace_index_get_phase (index) == JVMS_TRACE_INDEX_PHASE_INDEXING)
    {
      g_autoptr(JvmsHistory) h = jvms_trace_index_dup_history (index);
      if (h != NULL && !jvms_history_is_complete (h))
        {
          /* What the views do: query the partial history, at the latest time it holds (at
           * its start every attribute is still null). */
          g_autoptr(GArray) full = g_array_new (FALSE, TRUE, sizeof (JvmsInterval));
          g_autoptr(GError) error = NULL;
          gint64 end = jvms_history_get_end_time (h);
          gboolean ok = jvms_history_query_full (h, end, full, &error);
          g_assert_no_error (error);
          g_assert_true (ok);
          f->saw_live_history = TRUE;
          guint n = 0;
          for (guint i = 0; i < full->len; i++)
            {
              const JvmsInterval *iv = &g_array_index (full, JvmsInterval, i);
              if (iv->value.type == JVMS_VALUE_NULL)
                continue;
              g_assert_cmpint (iv->start, <=, end);
              n++;
            }
          f->live_values = MAX (f->live_values, n);
        }
    }
}

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Fixture *f = user_data;
  f->ok = jvms_trace_index_load_finish (JVMS_TRACE_INDEX (source), result, &f->error);
  f->done = TRUE;
  g_main_loop_quit (f->loop);
}

static void
test_async (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (f->trace, &error);
  g_assert_no_error (error);
  g_assert_cmpint (jvms_trace_index_get_kind (index), ==, JVMS_TRACE_KIND_JFR);
  jvms_trace_index_set_cache_dir (index, f->cache);
  g_signal_connect (index, "notify", G_CALLBACK (on_notify), f);
  jvms_trace_index_load_async (index, NULL, on_loaded, f);
  g_main_loop_run (f->loop);

  g_assert_no_error (f->error);
  g_assert_true (f->ok);
  g_assert_false (f->notified_off_thread);
  g_assert_true (f->saw_indexing);
  g_assert_false (f->fraction_went_back);
  g_assert_cmpuint (f->n_history, >=, 1);
  /* IDLE -> INDEXING -> COMPLETE; the fraction at least once while indexing and once at 1.0. */
  g_assert_cmpuint (f->n_phase, ==, 2);
  g_assert_cmpuint (f->n_fraction, >=, 2);
  /* What the window draws while indexing: the live history answered a query with states.
   * (The build goes on for about half a second after it publishes the history, several
   * times that under ASan, and the main loop takes each notification as it comes.) */
  g_test_message ("%u notifications of the history, %u of the fraction; at most %u states in "
                  "one query of the live history", f->n_history, f->n_fraction, f->live_values);
  g_assert_true (f->saw_live_history);
  g_assert_cmpuint (f->live_values, >, 0);
  g_assert_cmpint (jvms_trace_index_get_phase (index), ==, JVMS_TRACE_INDEX_PHASE_COMPLETE);
  g_assert_cmpfloat (jvms_trace_index_get_fraction (index), ==, 1.0);
  g_assert_false (jvms_trace_index_get_reused (index));
  g_assert_cmpint (jvms_trace_index_get_layers (index), ==, JVMS_TRACE_LAYER_JFR);
  g_autoptr(JvmsHistory) h = jvms_trace_index_dup_history (index);
  g_assert_nonnull (h);
  g_assert_true (jvms_history_is_complete (h));
  g_assert_cmpuint (jvms_history_get_n_intervals (h), >, 0);

  /* async-profiler's execution samples all land in the sample store. */
  JvmsTraceIndexStats stats;
  jvms_trace_index_get_stats (index, &stats);
  g_autoptr(JvmsSamplesReader) r = jvms_samples_reader_open (jvms_trace_index_get_samples_path (index), &error);
  g_assert_no_error (error);
  JvmsSample s;
  guint64 n_exec = 0;
  gint64 last = G_MININT64;
  while (jvms_samples_reader_next (r, &s, &error))
    {
      if (s.kind == JVMS_SAMPLE_EXECUTION)
        n_exec++;
      g_assert_cmpint (s.time, >=, last);
      last = s.time;
      g_assert_cmpuint (s.n_frames, <=, JVMS_SAMPLES_MAX_FRAMES);
      for (guint i = 0; i < s.n_frames; i++)
        g_assert_nonnull (s.frames[i].method);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n_exec, ==, jfr_summary_count (f->trace, "jdk.ExecutionSample"));
  g_assert_cmpuint (n_exec, >, 1000);

  /* A second object on the same trace reuses the index, synchronously. */
  g_autoptr(JvmsTraceIndex) again = jvms_trace_index_new (f->trace, &error);
  jvms_trace_index_set_cache_dir (again, f->cache);
  g_assert_true (jvms_trace_index_load (again, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (jvms_trace_index_get_reused (again));
  g_assert_cmpstr (jvms_trace_index_get_index_path (again), ==, jvms_trace_index_get_index_path (index));
}

static void
cancel_on_indexing (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  if (jvms_trace_index_get_phase (JVMS_TRACE_INDEX (object)) == JVMS_TRACE_INDEX_PHASE_INDEXING)
    g_cancellable_cancel (user_data);
}

static void
test_cancel (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (f->trace, &error);
  jvms_trace_index_set_cache_dir (index, f->cache);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_signal_connect (index, "notify::phase", G_CALLBACK (cancel_on_indexing), cancellable);
  jvms_trace_index_load_async (index, cancellable, on_loaded, f);
  g_main_loop_run (f->loop);
  g_assert_false (f->ok);
  g_assert_error (f->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (jvms_trace_index_get_phase (index), ==, JVMS_TRACE_INDEX_PHASE_FAILED);
  g_assert_false (g_file_test (jvms_trace_index_get_index_path (index), G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (jvms_trace_index_get_samples_path (index), G_FILE_TEST_EXISTS));
  g_autoptr(JvmsHistory) h = jvms_trace_index_dup_history (index);
  g_assert_null (h);
  /* Nothing half-written is left in the cache folder. */
  g_autoptr(GDir) d = g_dir_open (f->cache, 0, NULL);
  g_assert_nonnull (d);
  g_assert_null (g_dir_read_name (d));
}

static void
test_bad_input (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("jvms-bad-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.jfr", NULL);
  g_assert_null (jvms_trace_index_new (missing, &error));
  g_assert_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_autofree char *text = g_build_filename (dir, "notes.txt", NULL);
  g_assert_true (g_file_set_contents (text, "hello, not a trace", -1, NULL));
  g_assert_null (jvms_trace_index_new (text, &error));
  g_assert_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, text));
  g_clear_error (&error);

  /* A JFR magic and nothing usable after it: an error naming the file, no index. */
  g_autofree char *cut = g_build_filename (dir, "cut.jfr", NULL);
  g_assert_true (g_file_set_contents (cut, "FLR\0\0\2\0\1", 8, NULL));
  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (cut, &error);
  g_assert_no_error (error);
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);
  jvms_trace_index_set_cache_dir (index, cache);
  g_assert_false (jvms_trace_index_load (index, NULL, &error));
  g_assert_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_READ);
  g_assert_nonnull (strstr (error->message, "cut.jfr"));
  g_assert_cmpint (jvms_trace_index_get_phase (index), ==, JVMS_TRACE_INDEX_PHASE_FAILED);
  g_unlink (cut);
  g_unlink (text);
  g_rmdir (cache);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/Analysis/trace-index/async", Fixture, "async-profiler.jfr.gz", fixture_set_up, test_async, fixture_tear_down);
  g_test_add ("/Analysis/trace-index/cancel", Fixture, "async-profiler.jfr.gz", fixture_set_up, test_cancel, fixture_tear_down);
  g_test_add_func ("/Analysis/trace-index/bad-input", test_bad_input);
  return g_test_run ();
}
