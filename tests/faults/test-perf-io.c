/* test-perf-io: the perf reader facing a file that shrinks while open and a read that fails
 * with EIO in the middle of the record stream.
 *
 * The oracle is the reader itself on the intact file in file order (UNORDERED): after each
 * event, the data consumed says where that event's record ends. A damaged read must deliver
 * exactly the events of the records that end before the damage, then stop with
 * JVMS_PERF_ERROR_IO naming the file and the offset.
 *
 * EIO: a device-mapper error target needs /dev/mapper, which this container lacks; instead this
 * program defines pread64 itself (the reader is linked in statically, so its calls bind here)
 * and fails reads of the armed file at and past the armed offset, the way a bad sector does:
 * the bytes before it are returned, then EIO.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jvms-perf.h"

static const char *sample_path;

/* ------------------------------------------------------------------ the EIO shim */
static dev_t   fail_dev;
static ino_t   fail_ino;
static off64_t fail_offset = -1;
static guint   n_failed;

ssize_t pread64 (int fd, void *buf, size_t count, off64_t offset);

ssize_t
pread64 (int fd, void *buf, size_t count, off64_t offset)
{
  static ssize_t (*real) (int, void *, size_t, off64_t);
  if (real == NULL)
    real = (ssize_t (*) (int, void *, size_t, off64_t)) dlsym (RTLD_NEXT, "pread64");
  struct stat st;
  if (fail_offset >= 0 && fstat (fd, &st) == 0 && st.st_dev == fail_dev && st.st_ino == fail_ino
      && offset + (off64_t) count > fail_offset)
    {
      if (offset >= fail_offset)
        {
          n_failed++;
          errno = EIO;
          return -1;
        }
      count = (size_t) (fail_offset - offset);
    }
  return real (fd, buf, count, offset);
}

/* ------------------------------------------------------------------ helpers */
typedef struct
{
  gint64  time;
  guint   type;
  gint32  cpu, tid;
  guint64 end; /* file offset where the event's record ends */
} Seen;

static guint64
data_start_of (const char *path)
{
  g_autofree char *bytes = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  g_assert_cmpuint (len, >=, 56);
  guint64 off;
  memcpy (&off, bytes + 40, 8); /* perf_file_header.data.offset */
  return off;
}

static GArray *
read_all (JvmsPerfReader *r, guint64 data_start, GError **error)
{
  GArray *seen = g_array_new (FALSE, TRUE, sizeof (Seen));
  JvmsKernelEvent ev;
  while (jvms_perf_reader_next (r, &ev, error))
    {
      Seen s = { ev.time, ev.type, ev.cpu, ev.tid, data_start + jvms_perf_reader_get_data_consumed (r) };
      g_array_append_val (seen, s);
    }
  return seen;
}

static char *
copy_sample (const char *dir)
{
  static guint n;
  g_autofree char *bytes = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (sample_path, &bytes, &len, NULL));
  g_autofree char *name = g_strdup_printf ("kernel-%u.perf.data", n++);
  char *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
  return path;
}

/* The oracle's events of the records that end at or before @cut, compared with @got. */
static void
assert_prefix (GArray *oracle, GArray *got, guint64 cut)
{
  guint expected = 0;
  while (expected < oracle->len && g_array_index (oracle, Seen, expected).end <= cut)
    expected++;
  g_assert_cmpuint (got->len, ==, expected);
  for (guint i = 0; i < got->len; i++)
    {
      Seen *a = &g_array_index (oracle, Seen, i), *b = &g_array_index (got, Seen, i);
      g_assert_cmpint (a->time, ==, b->time);
      g_assert_cmpuint (a->type, ==, b->type);
      g_assert_cmpint (a->cpu, ==, b->cpu);
      g_assert_cmpint (a->tid, ==, b->tid);
    }
}

static int
compare_seen (gconstpointer a, gconstpointer b)
{
  const Seen *x = a, *y = b;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  if (x->type != y->type)
    return x->type < y->type ? -1 : 1;
  if (x->cpu != y->cpu)
    return x->cpu < y->cpu ? -1 : 1;
  return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Time order: the oracle's events of the records that end at or before @cut, each once, and
 * never out of order. (Events of equal time may come in any order: both sides are sorted by
 * every field before they are compared.) */
static void
assert_same_in_time_order (GArray *oracle, GArray *got, guint64 cut)
{
  guint expected = 0;
  while (expected < oracle->len && g_array_index (oracle, Seen, expected).end <= cut)
    expected++;
  g_assert_cmpuint (got->len, ==, expected);
  for (guint i = 1; i < got->len; i++)
    g_assert_cmpint (g_array_index (got, Seen, i - 1).time, <=, g_array_index (got, Seen, i).time);
  g_autoptr(GArray) want = g_array_sized_new (FALSE, FALSE, sizeof (Seen), expected);
  g_array_append_vals (want, oracle->data, expected);
  g_autoptr(GArray) have = g_array_copy (got);
  g_array_sort (want, compare_seen);
  g_array_sort (have, compare_seen);
  for (guint i = 0; i < expected; i++)
    if (compare_seen (&g_array_index (want, Seen, i), &g_array_index (have, Seen, i)) != 0)
      g_error ("cut at %" G_GUINT64_FORMAT ": event %u of %u in time order differs from the intact "
               "file's", cut, i, expected);
}

static void
assert_io_error (const GError *error, const char *path, guint64 offset, const char *what)
{
  g_assert_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_IO);
  g_autofree char *off = g_strdup_printf ("offset %" G_GUINT64_FORMAT, offset);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, off));
  g_assert_nonnull (strstr (error->message, what));
}

/* ------------------------------------------------------------------ tests */
static void
test_shrink (void)
{
  g_autofree char *dir = g_dir_make_tmp ("jvms-perf-io-XXXXXX", NULL);
  g_autofree char *path = copy_sample (dir);
  guint64 data_start = data_start_of (path);
  GStatBuf st;
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  guint64 size = (guint64) st.st_size;

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) whole = jvms_perf_reader_open (path, JVMS_PERF_READER_UNORDERED, &error);
  g_assert_no_error (error);
  g_autoptr(GArray) oracle = read_all (whole, data_start, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (oracle->len, >, 1000);

  /* Cuts: before the stream, right at its start, at odd points of it (inside records, past the
   * first read-ahead step) and just before its end. */
  guint64 data_end = data_start + jvms_perf_reader_get_data_size (whole);
  guint64 cuts[] = { 0, 57, data_start, data_start + 1, data_start + 4099, (data_start + data_end) / 3 + 5,
                     data_start + (1 << 20) + 13, data_end - 3 };
  for (gsize c = 0; c < G_N_ELEMENTS (cuts); c++)
    for (int ordered = 0; ordered < 2; ordered++)
      {
        g_autofree char *cpath = copy_sample (dir);
        g_autoptr(JvmsPerfReader) r = jvms_perf_reader_open (cpath, ordered ? JVMS_PERF_READER_DEFAULT
                                                                            : JVMS_PERF_READER_UNORDERED, &error);
        g_assert_no_error (error);
        /* Shrunk under the open reader, which holds no mapping of the file. */
        g_assert_cmpint (truncate (cpath, (off_t) cuts[c]), ==, 0);
        g_autoptr(GArray) got = read_all (r, data_start, &error);
        g_assert_nonnull (error);
        g_test_message ("cut at %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " (%s): %u events",
                        cuts[c], size, ordered ? "ordered" : "file order", got->len);
        assert_io_error (error, cpath, MAX (cuts[c], data_start), "shrank");
        if (!ordered)
          assert_prefix (oracle, got, cuts[c]);
        else
          assert_same_in_time_order (oracle, got, cuts[c]);
        g_clear_error (&error);
        g_remove (cpath);
      }
  g_remove (path);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_remove (p);
    }
  g_rmdir (dir);
}

static void
test_eio (void)
{
  g_autofree char *dir = g_dir_make_tmp ("jvms-perf-io-XXXXXX", NULL);
  g_autofree char *path = copy_sample (dir);
  guint64 data_start = data_start_of (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) whole = jvms_perf_reader_open (path, JVMS_PERF_READER_UNORDERED, &error);
  g_assert_no_error (error);
  g_autoptr(GArray) oracle = read_all (whole, data_start, &error);
  g_assert_no_error (error);
  guint64 data_end = data_start + jvms_perf_reader_get_data_size (whole);

  struct stat st;
  g_assert_cmpint (stat (path, &st), ==, 0);
  fail_dev = st.st_dev;
  fail_ino = st.st_ino;

  guint64 bad[] = { data_start + 8191, (data_start + data_end) / 2 + 3, data_end - 1 };
  for (gsize b = 0; b < G_N_ELEMENTS (bad); b++)
    {
      g_autoptr(JvmsPerfReader) r = jvms_perf_reader_open (path, JVMS_PERF_READER_UNORDERED, &error);
      g_assert_no_error (error);
      n_failed = 0;
      fail_offset = (off64_t) bad[b];
      g_autoptr(GArray) got = read_all (r, data_start, &error);
      fail_offset = -1;
      g_assert_cmpuint (n_failed, >, 0);
      g_assert_nonnull (error);
      g_test_message ("EIO at %" G_GUINT64_FORMAT ": %u events", bad[b], got->len);
      assert_io_error (error, path, bad[b], "Input/output error");
      assert_prefix (oracle, got, bad[b]);
      g_clear_error (&error);
    }

  /* EIO in the header region: open fails with the same clear error. */
  fail_offset = 20;
  g_autoptr(JvmsPerfReader) r = jvms_perf_reader_open (path, JVMS_PERF_READER_DEFAULT, &error);
  fail_offset = -1;
  g_assert_null (r);
  assert_io_error (error, path, 20, "Input/output error");

  g_remove (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_cmpint (argc, ==, 2);
  sample_path = argv[1];
  g_test_add_func ("/faults/perf/shrink-while-open", test_shrink);
  g_test_add_func ("/faults/perf/eio-mid-read", test_eio);
  return g_test_run ();
}
