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

/* babeltrace2 2.0.4 leaks on its error paths (its bugs, not ours): its TSDL parser on a syntax
 * error, its ctf source the event it was decoding when the data ran out. The damage cases hit
 * them on purpose. LeakSanitizer reads this hook in sanitized builds; nothing of ours is
 * allocated through the ctf plugin. */
const char *__lsan_default_suppressions (void);
extern void __lsan_disable (void) __attribute__ ((weak));
extern void __lsan_enable (void) __attribute__ ((weak));
const char *
__lsan_default_suppressions (void)
{
  return "leak:yyparse\n"
         "leak:babeltrace-plugin-ctf.so\n";
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
 * we deliver what it printed, nothing past it (the stream ends there: what follows the damage
 * cannot be trusted), and say where the stream ended. */
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
  /* These flips make babeltrace2 fail (an event class id it does not know). */
  g_assert_cmpint (status, !=, 0);
  assert_same_events (ours, bt);
  /* Everything before the damaged packet at least. */
  gsize ranges[] = { 0, start (f, 3), 0, 0 };
  g_autofree char *oracle = oracle_trace (f, "oracle", ranges);
  g_autoptr(GPtrArray) before = ctf_test_babeltrace_events (oracle, NULL);
  g_assert_cmpuint (before->len, >, 0);
  g_assert_cmpuint (ours->len, >=, before->len);
  g_assert_true (any_warning_contains (warnings, f->stream, "ends early"));
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

/* A packet whose events stop before its declared content ends: babeltrace2 2.0.4 fails in the
 * middle of a batch and leaves its error pending, and then, with another stream to read,
 * frees what the batch's events point into (its own CLI aborts on this trace). The stream
 * ends with a warning, the other stream is read whole, nothing crashes. */
static void
test_decode_error_two_streams (void)
{
  g_autofree char *tmp = ctf_test_tmp_dir ();
  g_autofree char *intact = g_build_filename (tmp, "intact", NULL);
  g_autofree char *damaged = g_build_filename (tmp, "damaged", NULL);
  g_mkdir (intact, 0700);
  g_mkdir (damaged, 0700);
  ctf_synthetic_write (intact);
  ctf_synthetic_write (damaged);

  /* Cut CPU 0's second packet inside its third event, and make it declare what remains. */
  g_autofree char *stream = g_build_filename (damaged, "channel0_0", NULL);
  g_autoptr(GBytes) bytes = read_file (stream);
  gsize avail = 190;
  guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, NULL), 4096 + avail);
  guint64 bits = GUINT64_TO_LE ((guint64) avail * 8);
  memcpy (copy + 4096 + 40, &bits, 8);
  memcpy (copy + 4096 + 48, &bits, 8);
  write_file (stream, copy, 4096 + avail);
  g_free (copy);

  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_cli (intact, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  /* babeltrace2 leaks the event it was decoding, under frames LeakSanitizer's fast unwinder
   * cannot name through GLib: the read runs with leak tracking off (sanitized builds only). */
  if (__lsan_disable != NULL)
    __lsan_disable ();
  g_autoptr(GPtrArray) ours = ctf_test_read_all (damaged, JVMS_CTF_READER_DEFAULT, &warnings, &error);
  if (__lsan_enable != NULL)
    __lsan_enable ();
  g_assert_no_error (error);

  guint n_cpu1 = 0, n_cpu1_expected = 0;
  for (guint i = 0; i < bt->len; i++)
    if (((const BtLine *) g_ptr_array_index (bt, i))->cpu == 1)
      n_cpu1_expected++;
  for (guint i = 0; i < ours->len; i++)
    {
      const OurEvent *o = g_ptr_array_index (ours, i);
      gboolean found = FALSE;
      for (guint j = 0; j < bt->len && !found; j++)
        {
          const BtLine *b = g_ptr_array_index (bt, j);
          found = b->time == o->event.time && strcmp (b->name, o->name) == 0;
        }
      g_assert_true (found);
      if (o->event.cpu == 1)
        n_cpu1++;
    }
  g_assert_cmpuint (n_cpu1, ==, n_cpu1_expected);
  g_assert_true (any_warning_contains (warnings, "channel0_0", "ends early"));
  ctf_test_rm_rf (tmp);
}

/* Fuzz finding 37a774eb (issue 8): a stream file whose second packet is cut short, and whose
 * first packet's last event has a timestamp near 2^64 cycles, beyond what babeltrace2 can give
 * in signed 64-bit ns from the clock's origin. Its refusal left an error on the thread, and
 * the next run of the graph aborted the process inside libbabeltrace2. Now the event is left
 * out with a warning, and the events before it are those babeltrace2's CLI prints from the
 * packet the repair keeps before it fails on the same event. The trace is laid out as the
 * fuzz target lays it out: the synthetic metadata, the input as the only stream file. */
static void
test_fuzz_time_out_of_range (void)
{
  g_autofree char *input = g_build_filename (g_getenv ("JVMS_FUZZ_FINDINGS"),
                                             "ctf-crash-37a774ebfc4b514b86355f05204a019da594a6b8",
                                             NULL);
  g_autoptr(GBytes) bytes = read_file (input);
  g_autofree char *tmp = ctf_test_tmp_dir ();
  g_autofree char *damaged = g_build_filename (tmp, "damaged", NULL);
  g_autofree char *oracle = g_build_filename (tmp, "oracle", NULL);
  g_mkdir (damaged, 0700);
  g_mkdir (oracle, 0700);
  ctf_synthetic_write (damaged);
  ctf_synthetic_write (oracle);
  g_autofree char *stream = g_build_filename (damaged, "channel0_0", NULL);
  g_autofree char *other = g_build_filename (damaged, "channel0_1", NULL);
  g_autofree char *oracle_stream = g_build_filename (oracle, "channel0_0", NULL);
  g_autofree char *oracle_other = g_build_filename (oracle, "channel0_1", NULL);
  g_unlink (other);
  g_unlink (oracle_other);
  write_file (stream, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  /* The oracle: the first packet alone, the one that is whole in the input. */
  g_autoptr(GArray) starts = ctf_test_packet_starts (stream);
  g_assert_cmpuint (starts->len, ==, 2);
  gsize first_end = g_array_index (starts, gsize, 1);
  g_assert_cmpuint (first_end, <, g_bytes_get_size (bytes));
  write_file (oracle_stream, g_bytes_get_data (bytes, NULL), first_end);
  int status = 0;
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_cli (oracle, &status);
  /* babeltrace2 stops with an error at the event out of range. */
  g_assert_cmpint (status, !=, 0);
  g_assert_cmpuint (bt->len, >, 0);

  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GPtrArray) ours = ctf_test_read_all (damaged, JVMS_CTF_READER_DEFAULT, &warnings, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < warnings->len; i++)
    g_test_message ("warning: %s", (const char *) g_ptr_array_index (warnings, i));
  assert_same_events (ours, bt);
  g_autofree char *where = g_strdup_printf ("%s: stream ", damaged);
  g_assert_true (any_warning_contains (warnings, where, "beyond the signed 64-bit nanoseconds"));
  g_assert_true (any_warning_contains (warnings, "channel0_0", "sched_switch at 18446744073692780400 cycles"));
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
  g_test_add_func ("/ctf/damage/decode-error-two-streams", test_decode_error_two_streams);
  g_test_add_func ("/ctf/damage/fuzz-time-out-of-range", test_fuzz_time_out_of_range);
  g_test_add_func ("/ctf/damage/empty-folder", test_empty_folder);
  g_test_add_func ("/ctf/damage/not-a-folder", test_not_a_folder);
  g_test_add_func ("/ctf/reader/session-folder", test_session_folder);
  return g_test_run ();
}
