/* Tests of readers/jfr on well-formed files with one extreme property each (issue 28), built
 * byte by byte by jfr-shapes.c: a file that shrinks while it is read, inline classes that
 * form a DAG, many chunks, metadata of millions of tiny elements. Each case runs in a
 * subprocess, so that a signal fails the test instead of ending the program; the subprocess's
 * time limit only turns a hang into a failure. Work is counted with the reader's own count of
 * decoding steps (jvms_jfr_work_steps); memory with the peak resident set, in the plain build
 * only (sanitizers keep freed memory in quarantine). */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "jfr-shapes.h"
#include "jvms-jfr.h"

/* A hang becomes a failure after this long (µs); no test depends on it otherwise. */
#define WATCHDOG (G_USEC_PER_SEC * 300)

#if defined(__SANITIZE_ADDRESS__)
#define PLAIN_BUILD 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLAIN_BUILD 0
#else
#define PLAIN_BUILD 1
#endif
#else
#define PLAIN_BUILD 1
#endif

static gboolean
any_warning_contains (JvmsJfrFile *file, const char *needle, const char *also)
{
  const GPtrArray *w = jvms_jfr_file_get_warnings (file);
  for (guint i = 0; i < w->len; i++)
    {
      const char *m = ((const JvmsJfrWarning *) g_ptr_array_index (w, i))->message;
      if (strstr (m, needle) != NULL && (also == NULL || strstr (m, also) != NULL))
        return TRUE;
    }
  return FALSE;
}

static void
print_warnings (JvmsJfrFile *file)
{
  const GPtrArray *w = jvms_jfr_file_get_warnings (file);
  for (guint i = 0; i < w->len; i++)
    g_test_message ("warning: %s", ((const JvmsJfrWarning *) g_ptr_array_index (w, i))->message);
}

static char *
write_temp (GBytes *bytes, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("jvms-jfr-hostile-XXXXXX", &error);
  g_assert_no_error (error);
  char *path = g_build_filename (dir, name, NULL);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

static void
remove_temp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_unlink (path);
  g_rmdir (dir);
}

/* ---- 2: a file that shrinks while it is read ---- */

#define SHRINK_CHUNKS 4
#define SHRINK_EVENTS 2000

/* Reads the first event, cuts the file inside chunk 1, reads on. Before the fix, the load of
 * chunk 1 fell back to the mapping after its short read and touched pages past the new end
 * (SIGBUS). Now: every event of chunk 0, none of the chunks that are gone, and a warning that
 * names the file and says it shrank. */
static void
shrink_case (JvmsJfrOrder order)
{
  g_autoptr(GBytes) bytes = jfr_shape_plain (SHRINK_CHUNKS, SHRINK_EVENTS);
  g_autofree char *path = write_temp (bytes, "shrinking.jfr");
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_jfr_file_get_n_chunks (file), ==, SHRINK_CHUNKS);
  guint64 chunk1 = jvms_jfr_file_get_chunk (file, 1)->file_offset;
  g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, order);
  const JvmsJfrEvent *e = jvms_jfr_reader_next (reader);
  g_assert_nonnull (e);
  g_assert_cmpuint (jvms_jfr_event_get_chunk (e)->index, ==, 0);
  /* cut 100 bytes into chunk 1: its metadata record is cut, no event of it is whole */
  g_assert_cmpint (truncate (path, (off_t) chunk1 + 100), ==, 0);
  guint per_chunk[SHRINK_CHUNKS] = { 1 };
  while ((e = jvms_jfr_reader_next (reader)) != NULL)
    per_chunk[jvms_jfr_event_get_chunk (e)->index]++;
  print_warnings (file);
  g_assert_cmpuint (per_chunk[0], ==, SHRINK_EVENTS);
  for (guint k = 1; k < SHRINK_CHUNKS; k++)
    g_assert_cmpuint (per_chunk[k], ==, 0);
  g_assert_true (any_warning_contains (file, path, "the file shrank while being read"));
  g_assert_false (jvms_jfr_file_get_chunk (file, 1)->complete);
  remove_temp (path);
}

static void
test_shrink (void)
{
  if (g_test_subprocess ())
    {
      shrink_case (JVMS_JFR_ORDER_FILE);
      shrink_case (JVMS_JFR_ORDER_TIME);
      return;
    }
  g_test_trap_subprocess (NULL, WATCHDOG, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/jfr/hostile/shrink", test_shrink);
  return g_test_run ();
}
