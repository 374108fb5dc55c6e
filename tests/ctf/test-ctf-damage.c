/* Damaged copies of a real LTTng trace: what survives must be exactly what babeltrace2 reads
 * from the intact packets, and every problem must name the file. */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "ctf-synthetic.h"
#include "ctf-test-util.h"

#define STREAM "channel0_0"

/* babeltrace2 2.0's TSDL parser leaks a few nodes on a syntax error (its bug, not ours): the
 * metadata tests hit it on purpose. LeakSanitizer reads this hook in sanitized builds. */
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:yyparse\n";
}

typedef struct
{
  char *tmp;
  char *trace;   /* the damaged copy */
  char *stream;  /* its stream file */
  GArray *starts;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->tmp = ctf_test_tmp_dir ();
  f->trace = ctf_test_copy_trace (ctf_test_trace_dir ("scp_src"), f->tmp, "trace");
  f->stream = g_build_filename (f->trace, STREAM, NULL);
  f->starts = ctf_test_packet_starts (f->stream);
  /* The tests below need several packets to damage one in the middle. */
  g_assert_cmpuint (f->starts->len, >=, 6);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  ctf_test_rm_rf (f->tmp);
  g_free (f->tmp);
  g_free (f->trace);
  g_free (f->stream);
  g_array_unref (f->starts);
}

static gsize
start (Fixture *f, guint i)
{
  return g_array_index (f->starts, gsize, i);
}

static GBytes *
read_file (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr(GError) error = NULL;
  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

static void
write_file (const char *path, const void *data, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_file_set_contents (path, data, (gssize) len, &error);
  g_assert_no_error (error);
}

/* A trace folder beside the damaged one whose stream holds only the byte ranges given (pairs,
 * ending with 0, 0) of the intact stream: what babeltrace2 reads of it is the oracle. */
static char *
oracle_trace (Fixture *f, const char *name, const gsize *ranges)
{
  char *dir = ctf_test_copy_trace (ctf_test_trace_dir ("scp_src"), f->tmp, name);
  g_autofree char *path = g_build_filename (dir, STREAM, NULL);
  g_autoptr(GBytes) intact = read_file (path);
  const guint8 *data = g_bytes_get_data (intact, NULL);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  for (guint i = 0; ranges[i] != 0 || ranges[i + 1] != 0; i += 2)
    g_byte_array_append (out, data + ranges[i], (guint) (ranges[i + 1] - ranges[i]));
  write_file (path, out->data, out->len);
  return dir;
}

static void
assert_same_events (GPtrArray *ours, GPtrArray *bt)
{
  g_assert_cmpuint (ours->len, ==, bt->len);
  for (guint i = 0; i < bt->len; i++)
    {
      const BtLine *b = g_ptr_array_index (bt, i);
      const OurEvent *o = g_ptr_array_index (ours, i);
      g_assert_cmpstr (o->name, ==, b->name);
      g_assert_cmpint (o->event.time, ==, b->time);
    }
}

static gboolean
any_warning_contains (GPtrArray *warnings, const char *a, const char *b)
{
  for (guint i = 0; i < warnings->len; i++)
    {
      const char *w = g_ptr_array_index (warnings, i);
      if (strstr (w, a) != NULL && (b == NULL || strstr (w, b) != NULL))
        return TRUE;
    }
  return FALSE;
}

/* C1: the stream file ends inside a packet (a crash, a full disk). */
static void
test_truncated (Fixture *f, gconstpointer data)
{
  gsize cut = (start (f, 4) + start (f, 5)) / 2;
  g_assert_cmpint (truncate (f->stream, (off_t) cut), ==, 0);

  /* babeltrace2 refuses the whole trace. */
  int status = 0;
  g_autoptr(GPtrArray) refused = ctf_test_babeltrace_events (f->trace, &status);
  g_assert_cmpint (status, !=, 0);
  g_assert_cmpuint (refused->len, ==, 0);

  gsize ranges[] = { 0, start (f, 4), 0, 0 };
  g_autofree char *oracle = oracle_trace (f, "oracle", ranges);
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_events (oracle, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpuint (bt->len, >, 0);

  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GPtrArray) ours = ctf_test_read_all (f->trace, JVMS_CTF_READER_DEFAULT, &warnings, &error);
  g_assert_no_error (error);
  assert_same_events (ours, bt);
  g_autofree char *range = g_strdup_printf ("[%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ")",
                                            start (f, 4), cut);
  g_assert_true (any_warning_contains (warnings, f->stream, range));

  /* The summary counts the same and says it is partial (exit status 3). */
  const char *argv[] = { g_getenv ("JVMS_CLI"), "summary", f->trace, "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int wait_status = 0;
  g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, &err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  g_assert_cmpint (WEXITSTATUS (wait_status), ==, 3);
  g_assert_nonnull (strstr (err, f->stream));
  g_autofree char *total = g_strdup_printf ("\"total_events\" : %u", bt->len);
  g_assert_nonnull (strstr (out, total));
}

/* C2: a zero-filled block over a packet boundary; the packets after it are read again. */
static void
test_zero_block (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) bytes = read_file (f->stream);
  gsize len = 0;
  guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, &len), g_bytes_get_size (bytes));
  gsize from = start (f, 3) - 1000, to = start (f, 3) + 5000;
  memset (copy + from, 0, to - from);
  write_file (f->stream, copy, len);
  g_free (copy);

  gsize ranges[] = { 0, start (f, 2), start (f, 4), len, 0, 0 };
  g_autofree char *oracle = oracle_trace (f, "oracle", ranges);
  int status = -1;
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_events (oracle, &status);
  g_assert_cmpint (status, ==, 0);

  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GPtrArray) ours = ctf_test_read_all (f->trace, JVMS_CTF_READER_DEFAULT, &warnings, &error);
  g_assert_no_error (error);
  assert_same_events (ours, bt);
  g_autofree char *range = g_strdup_printf ("[%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ")",
                                            start (f, 2), start (f, 4));
  g_assert_true (any_warning_contains (warnings, f->stream, range));
}

/* C2: bytes flipped inside events. babeltrace2 indexes the packets and fails while decoding:
 * we deliver what it printed, and say where the stream ended. */
static void
test_flipped_events (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) bytes = read_file (f->stream);
  gsize len = 0;
  guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, &len), g_bytes_get_size (bytes));
  gsize at = (start (f, 3) + start (f, 4)) / 2;
  for (gsize i = 0; i < 256; i++)
    copy[at + i] ^= 0xff;
  write_file (f->stream, copy, len);
  g_free (copy);

  int status = -1;
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_events (f->trace, &status);

  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GPtrArray) ours = ctf_test_read_all (f->trace, JVMS_CTF_READER_DEFAULT, &warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ours->len, >=, bt->len);
  for (guint i = 0; i < bt->len; i++)
    {
      const BtLine *b = g_ptr_array_index (bt, i);
      const OurEvent *o = g_ptr_array_index (ours, i);
      g_assert_cmpstr (o->name, ==, b->name);
      g_assert_cmpint (o->event.time, ==, b->time);
    }
  /* Everything before the damaged packet at least. */
  gsize ranges[] = { 0, start (f, 3), 0, 0 };
  g_autofree char *oracle = oracle_trace (f, "oracle", ranges);
  g_autoptr(GPtrArray) before = ctf_test_babeltrace_events (oracle, NULL);
  g_assert_cmpuint (ours->len, >=, before->len);
  if (status != 0)
    g_assert_true (any_warning_contains (warnings, f->stream, NULL));
}

/* The TSDL line babeltrace2's parser logs for the damaged metadata. */
static guint
babeltrace_error_line (const char *dir)
{
  const char *argv[] = { "babeltrace2", "--log-level=W", dir, NULL };
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                NULL, NULL, NULL, &err, NULL, &error);
  g_assert_no_error (error);
  const char *at = strstr (err, "At line ");
  g_assert_nonnull (at);
  return (guint) g_ascii_strtoull (at + strlen ("At line "), NULL, 10);
}

/* C4: the metadata text damaged inside the first event declarations. */
static void
test_metadata_corrupt (Fixture *f, gconstpointer data)
{
  g_autofree char *metadata = g_build_filename (f->trace, "metadata", NULL);
  int fd = g_open (metadata, O_WRONLY, 0);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, "XXXXXXXXXXXXXXXX", 16, 2000), ==, 16);
  close (fd);

  guint line = babeltrace_error_line (f->trace);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (f->trace, JVMS_CTF_READER_DEFAULT, &error);
  g_assert_null (reader);
  g_assert_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_METADATA);
  g_assert_nonnull (strstr (error->message, metadata));
  g_autofree char *where = g_strdup_printf ("TSDL line %u:", line);
  g_assert_nonnull (strstr (error->message, where));
}

static void
test_metadata_missing (Fixture *f, gconstpointer data)
{
  g_autofree char *metadata = g_build_filename (f->trace, "metadata", NULL);
  g_assert_cmpint (g_unlink (metadata), ==, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (f->trace, JVMS_CTF_READER_DEFAULT, &error);
  g_assert_null (reader);
  g_assert_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, f->trace));
  g_assert_nonnull (strstr (error->message, "metadata"));
}

static void
test_metadata_empty (Fixture *f, gconstpointer data)
{
  g_autofree char *metadata = g_build_filename (f->trace, "metadata", NULL);
  write_file (metadata, "", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (f->trace, JVMS_CTF_READER_DEFAULT, &error);
  g_assert_null (reader);
  g_assert_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_METADATA);
  g_assert_nonnull (strstr (error->message, metadata));
}

/* C3: an empty stream file: no events, and a warning babeltrace2 does not give. */
static void
test_empty_stream (Fixture *f, gconstpointer data)
{
  write_file (f->stream, "", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GPtrArray) ours = ctf_test_read_all (f->trace, JVMS_CTF_READER_DEFAULT, &warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ours->len, ==, 0);
  g_assert_true (any_warning_contains (warnings, f->stream, "empty stream file"));
}

static void
test_empty_folder (void)
{
  g_autofree char *tmp = ctf_test_tmp_dir ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (tmp, JVMS_CTF_READER_DEFAULT, &error);
  g_assert_null (reader);
  g_assert_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, tmp));
  g_assert_nonnull (strstr (error->message, "empty"));
  ctf_test_rm_rf (tmp);
}

static void
test_not_a_folder (void)
{
  g_autofree char *metadata = g_build_filename (ctf_test_trace_dir ("scp_src"), "metadata", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (metadata, JVMS_CTF_READER_DEFAULT, &error);
  g_assert_null (reader);
  g_assert_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, metadata));

  g_autofree char *tmp = ctf_test_tmp_dir ();
  g_autofree char *missing = g_build_filename (tmp, "no-such-trace", NULL);
  g_clear_error (&error);
  g_assert_null (jvms_ctf_reader_open (missing, JVMS_CTF_READER_DEFAULT, &error));
  g_assert_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, missing));
  ctf_test_rm_rf (tmp);
}

/* A session folder (trace one level down) opens like the trace folder itself. */
static void
test_session_folder (void)
{
  g_autofree char *tmp = ctf_test_tmp_dir ();
  g_autofree char *kernel = ctf_test_copy_trace (ctf_test_trace_dir ("scp_dest"), tmp, "kernel");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) from_session = ctf_test_read_all (tmp, JVMS_CTF_READER_NAMES_ONLY, NULL, &error);
  g_assert_no_error (error);
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_events (kernel, NULL);
  assert_same_events (from_session, bt);
  ctf_test_rm_rf (tmp);
}

/* A packet that declares a size of 0 makes babeltrace2 2.0 index it for ever: the reader must
 * give up on that packet, keep the others, and end. */
static void
test_packet_size_zero (void)
{
  g_autofree char *tmp = ctf_test_tmp_dir ();
  g_autofree char *damaged = g_build_filename (tmp, "damaged", NULL);
  g_autofree char *oracle = g_build_filename (tmp, "oracle", NULL);
  g_mkdir (damaged, 0700);
  g_mkdir (oracle, 0700);
  ctf_synthetic_write (damaged);
  ctf_synthetic_write (oracle);

  /* The written trace's packets are 4096 bytes; content_size and packet_size are the u64s at
   * 40 and 48 in each (after magic, uuid, stream id, the two timestamps). */
  g_autofree char *stream = g_build_filename (damaged, "channel0_0", NULL);
  g_autoptr(GBytes) bytes = read_file (stream);
  gsize len = 0;
  guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, &len), g_bytes_get_size (bytes));
  g_assert_cmpuint (len, ==, 2 * 4096);
  memset (copy + 4096 + 40, 0, 16);
  write_file (stream, copy, len);
  g_autofree char *oracle_stream = g_build_filename (oracle, "channel0_0", NULL);
  write_file (oracle_stream, copy, 4096);
  g_free (copy);

  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_cli (oracle, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GPtrArray) ours = ctf_test_read_all (damaged, JVMS_CTF_READER_NAMES_ONLY, &warnings, &error);
  g_assert_no_error (error);
  assert_same_events (ours, bt);
  g_assert_true (any_warning_contains (warnings, stream, "[4096, 8192)"));
  ctf_test_rm_rf (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/ctf/damage/stream-truncated", test_truncated);
  ADD ("/ctf/damage/stream-zero-block", test_zero_block);
  ADD ("/ctf/damage/stream-flipped-events", test_flipped_events);
  ADD ("/ctf/damage/stream-empty", test_empty_stream);
  ADD ("/ctf/damage/metadata-corrupt", test_metadata_corrupt);
  ADD ("/ctf/damage/metadata-missing", test_metadata_missing);
  ADD ("/ctf/damage/metadata-empty", test_metadata_empty);
#undef ADD
  g_test_add_func ("/ctf/damage/packet-size-zero", test_packet_size_zero);
  g_test_add_func ("/ctf/damage/empty-folder", test_empty_folder);
  g_test_add_func ("/ctf/damage/not-a-folder", test_not_a_folder);
  g_test_add_func ("/ctf/reader/session-folder", test_session_folder);
  return g_test_run ();
}
