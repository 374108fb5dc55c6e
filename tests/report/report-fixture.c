/* report-fixture.c: see report-fixture.h. */
#include "report-fixture.h"

#include <glib/gstdio.h>

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

void
report_fixture_open (ReportFixture *f, const JfrGenThread *threads, guint n_threads,
                     const JfrGenEvent *events, guint n_events, const char * const *classes,
                     guint n_classes)
{
  g_autoptr(GBytes) bytes = jfr_gen_build (threads, n_threads, events, n_events, classes, n_classes);
  report_fixture_open_bytes (f, bytes);
}

void
report_fixture_open_bytes (ReportFixture *f, GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  f->dir = g_dir_make_tmp ("jvms-report-test-XXXXXX", &error);
  g_assert_no_error (error);
  f->trace = g_build_filename (f->dir, "trace.jfr", NULL);
  f->cache = g_build_filename (f->dir, "cache", NULL);
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);
  g_file_set_contents (f->trace, data, (gssize) size, &error);
  g_assert_no_error (error);
  f->index = jvms_trace_index_new (f->trace, &error);
  g_assert_no_error (error);
  jvms_trace_index_set_cache_dir (f->index, f->cache);
  jvms_trace_index_load (f->index, NULL, &error);
  g_assert_no_error (error);
  f->history = jvms_trace_index_dup_history (f->index);
  g_assert_nonnull (f->history);
}

void
report_fixture_close (ReportFixture *f)
{
  g_clear_pointer (&f->history, jvms_history_unref);
  g_clear_object (&f->index);
  remove_tree (f->dir);
  g_clear_pointer (&f->dir, g_free);
  g_clear_pointer (&f->trace, g_free);
  g_clear_pointer (&f->cache, g_free);
}
