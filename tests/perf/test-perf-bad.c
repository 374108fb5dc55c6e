/* test-perf-bad.c: damaged perf.data files made from real recordings: cut at many offsets,
 * flipped bytes, broken record sizes and types, a killed perf record's header, broken attrs.
 * The reader must never crash (this program also runs under ASan and UBSan), must deliver every
 * event of the complete records before the damage and nothing different, and must name the file
 * in what it reports. */
#include <string.h>

#include "jvms-perf.h"
#include "perf-fixture.h"

static PerfFixture fixture;

typedef struct
{
  GBytes  *bytes;
  guint64  data_start, data_end;
  GArray  *events;       /* unordered read of the intact file */
  GArray  *records;      /* guint64 offsets of the records of an uncompressed data section */
} Original;

static void
original_load (Original *o, const char *path, gboolean walk)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, &error);
  g_assert_no_error (error);
  o->bytes = g_mapped_file_get_bytes (mapped);
  gsize size;
  const guint8 *data = g_bytes_get_data (o->bytes, &size);
  guint64 data_size;
  memcpy (&o->data_start, data + 40, 8);
  memcpy (&data_size, data + 48, 8);
  o->data_end = o->data_start + data_size;
  g_assert_cmpuint (o->data_end, <=, size);

  g_autoptr(GError) stop_error = NULL;
  guint n_warnings;
  o->events = perf_read_all (o->bytes, "original", JVMS_PERF_READER_UNORDERED, &error, &stop_error, &n_warnings);
  g_assert_no_error (error);
  g_assert_no_error (stop_error);
  g_assert_cmpuint (o->events->len, >, 100);

  o->records = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint64 pos = o->data_start; walk && pos + 8 <= o->data_end;)
    {
      guint16 rsize;
      memcpy (&rsize, data + pos + 6, 2);
      g_assert_cmpuint (rsize, >=, 8);
      g_array_append_val (o->records, pos);
      pos += rsize;
    }
}

static void
original_clear (Original *o)
{
  g_bytes_unref (o->bytes);
  g_array_unref (o->events);
  g_array_unref (o->records);
}

/* Events of the intact file whose record ends at or before @offset (absolute). */
static guint
events_before (const Original *o, guint64 offset)
{
  guint n = 0;
  while (n < o->events->len && g_array_index (o->events, PerfTestEvent, n).end + o->data_start <= offset)
    n++;
  return n;
}

static void
assert_prefix (const Original *o, GArray *got, guint n)
{
  g_assert_cmpuint (got->len, >=, n);
  for (guint i = 0; i < n; i++)
    {
      const PerfTestEvent *a = &g_array_index (o->events, PerfTestEvent, i);
      const PerfTestEvent *b = &g_array_index (got, PerfTestEvent, i);
      if (a->time != b->time || a->cpu != b->cpu || a->pid != b->pid || a->tid != b->tid)
        g_error ("event %u differs from the intact file's", i);
    }
}

static GBytes *
damaged_copy (const Original *o, gsize len)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (o->bytes, &size);
  return g_bytes_new (data, MIN (len, size));
}

/* Reads @bytes in both modes; returns the unordered events. */
static GArray *
read_both (GBytes *bytes, GError **open_error, GError **stop_error, guint *n_warnings)
{
  g_autoptr(GError) e1 = NULL, e2 = NULL;
  guint w;
  g_autoptr(GArray) ordered = perf_read_all (bytes, "damaged.perf.data", JVMS_PERF_READER_DEFAULT, &e1, &e2, &w);
  if (e1 != NULL)
    g_assert_true (g_str_has_prefix (e1->message, "damaged.perf.data: "));
  if (e2 != NULL)
    g_assert_true (g_str_has_prefix (e2->message, "damaged.perf.data: "));
  GArray *events = perf_read_all (bytes, "damaged.perf.data", JVMS_PERF_READER_UNORDERED, open_error,
                                  stop_error, n_warnings);
  if (*open_error != NULL)
    g_assert_true (g_str_has_prefix ((*open_error)->message, "damaged.perf.data: "));
  if (*stop_error != NULL)
    g_assert_true (g_str_has_prefix ((*stop_error)->message, "damaged.perf.data: "));
  return events;
}

static void
check_truncations (const char *path)
{
  Original o;
  original_load (&o, path, FALSE);
  gsize size = g_bytes_get_size (o.bytes);

  g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint64 c = 0; c < o.data_start + 16; c += MAX (1, o.data_start / 24))
    g_array_append_val (cuts, c);
  for (guint i = 0; i <= 80; i++)
    {
      guint64 c = o.data_start + (o.data_end - o.data_start) * i / 80;
      g_array_append_val (cuts, c);
      c += 5;
      g_array_append_val (cuts, c);
    }
  for (guint64 c = o.data_end; c < size; c += MAX (1, (size - o.data_end) / 16))
    g_array_append_val (cuts, c);

  for (guint i = 0; i < cuts->len; i++)
    {
      guint64 cut = MIN (g_array_index (cuts, guint64, i), size - 1);
      g_autoptr(GBytes) bytes = damaged_copy (&o, cut);
      g_autoptr(GError) open_error = NULL, stop_error = NULL;
      guint n_warnings = 0;
      g_autoptr(GArray) got = read_both (bytes, &open_error, &stop_error, &n_warnings);
      if (cut < o.data_start)
        {
          g_assert_cmpuint (got->len, ==, 0);
          continue;
        }
      if (open_error != NULL)
        g_error ("cut at %" G_GUINT64_FORMAT ": %s", cut, open_error->message);
      guint expected = events_before (&o, MIN (cut, o.data_end));
      assert_prefix (&o, got, expected);
      if (cut < o.data_end)
        {
          /* Exactly the complete records: nothing more either. */
          g_assert_cmpuint (got->len, ==, expected);
          /* The header promised more data than the file holds: at least a warning. */
          g_assert_true (stop_error != NULL || n_warnings > 0);
        }
      else
        g_assert_cmpuint (got->len, ==, o.events->len);
    }
  original_clear (&o);
}

static void
test_truncate (void)
{
  check_truncations (fixture.small);
}

static void
test_truncate_compressed (void)
{
  check_truncations (fixture.small_z);
}

static void
check_flips (const char *path, guint iterations)
{
  Original o;
  original_load (&o, path, FALSE);
  gsize size;
  const guint8 *data = g_bytes_get_data (o.bytes, &size);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261124);
  guint checked = 0;

  for (guint it = 0; it < iterations; it++)
    {
      guint8 *copy = g_memdup2 (data, size);
      guint n_flips = (guint) g_rand_int_range (rand, 1, 5);
      guint64 first = G_MAXUINT64;
      gboolean all_in_data = TRUE;
      for (guint k = 0; k < n_flips; k++)
        {
          guint64 at;
          gint32 where = g_rand_int_range (rand, 0, 4);
          if (where == 0)
            at = (guint64) g_rand_int_range (rand, 0, (gint32) o.data_start);
          else if (where == 3 && o.data_end < size)
            at = o.data_end + (guint64) g_rand_int_range (rand, 0, (gint32) (size - o.data_end));
          else
            at = o.data_start + (guint64) g_rand_double_range (rand, 0, (gdouble) (o.data_end - o.data_start));
          copy[at] ^= (guint8) g_rand_int_range (rand, 1, 256);
          first = MIN (first, at);
          all_in_data &= at >= o.data_start && at < o.data_end;
        }
      g_autoptr(GBytes) bytes = g_bytes_new_take (copy, size);
      g_autoptr(GError) open_error = NULL, stop_error = NULL;
      guint n_warnings = 0;
      g_autoptr(GArray) got = read_both (bytes, &open_error, &stop_error, &n_warnings);
      if (all_in_data)
        {
          g_assert_no_error (open_error);
          assert_prefix (&o, got, events_before (&o, first));
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, iterations / 4);
  original_clear (&o);
}

static void
test_flip (void)
{
  check_flips (fixture.small, 150);
}

static void
test_flip_compressed (void)
{
  check_flips (fixture.small_z, 80);
}

static void
put16 (guint8 *p, guint16 v)
{
  memcpy (p, &v, 2);
}

static void
put32 (guint8 *p, guint32 v)
{
  memcpy (p, &v, 4);
}

static void
put64 (guint8 *p, guint64 v)
{
  memcpy (p, &v, 8);
}

/* P7: record sizes 0 and 4 stop the stream at that record; an unknown type of a valid size is
 * skipped with a warning and the stream goes on. */
static void
test_record_damage (void)
{
  Original o;
  original_load (&o, fixture.small, TRUE);
  gsize size;
  const guint8 *data = g_bytes_get_data (o.bytes, &size);
  guint picks[] = { 0, 3, o.records->len / 2, o.records->len - 1 };

  for (guint p = 0; p < G_N_ELEMENTS (picks); p++)
    {
      guint64 at = g_array_index (o.records, guint64, picks[p]);
      guint before = events_before (&o, at);
      guint16 sizes[] = { 0, 4 };
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          guint8 *copy = g_memdup2 (data, size);
          put16 (copy + at + 6, sizes[s]);
          g_autoptr(GBytes) bytes = g_bytes_new_take (copy, size);
          g_autoptr(GError) open_error = NULL, stop_error = NULL;
          guint n_warnings;
          g_autoptr(GArray) got = read_both (bytes, &open_error, &stop_error, &n_warnings);
          g_assert_no_error (open_error);
          g_assert_error (stop_error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT);
          g_autofree char *where = g_strdup_printf ("record at %" G_GUINT64_FORMAT, at);
          g_assert_nonnull (strstr (stop_error->message, where));
          g_assert_cmpuint (got->len, ==, before);
          assert_prefix (&o, got, before);
        }

      guint8 *copy = g_memdup2 (data, size);
      guint32 old_type;
      memcpy (&old_type, copy + at, 4);
      put32 (copy + at, 0xffffffffu);
      g_autoptr(GBytes) bytes = g_bytes_new_take (copy, size);
      g_autoptr(GError) open_error = NULL, stop_error = NULL;
      guint n_warnings;
      g_autoptr(GArray) got = read_both (bytes, &open_error, &stop_error, &n_warnings);
      g_assert_no_error (open_error);
      g_assert_no_error (stop_error);
      g_assert_cmpuint (n_warnings, >, 0);
      guint record_end = events_before (&o, at + 1 + (picks[p] + 1 < o.records->len
                                                     ? g_array_index (o.records, guint64, picks[p] + 1) - at - 1
                                                     : o.data_end - at - 1));
      g_assert_cmpuint (got->len, ==, o.events->len - (record_end - before));
      assert_prefix (&o, got, before);
    }
  original_clear (&o);
}

/* P3: a killed perf record leaves data.size 0 and no features. */
static void
test_killed_recorder (void)
{
  Original o;
  original_load (&o, fixture.small, FALSE);
  gsize size;
  const guint8 *data = g_bytes_get_data (o.bytes, &size);
  guint8 *copy = g_memdup2 (data, o.data_end);
  put64 (copy + 48, 0);
  memset (copy + 72, 0, 32); /* no feature bits */
  g_autoptr(GBytes) bytes = g_bytes_new_take (copy, o.data_end);
  g_autoptr(GError) open_error = NULL;
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open_bytes (bytes, "killed.perf.data",
                                                                  JVMS_PERF_READER_UNORDERED, &open_error);
  g_assert_no_error (open_error);
  GPtrArray *warnings = jvms_perf_reader_get_warnings (reader);
  g_assert_cmpuint (warnings->len, >, 0);
  gboolean said = FALSE;
  for (guint i = 0; i < warnings->len; i++)
    said |= strstr (g_ptr_array_index (warnings, i), "did not exit cleanly") != NULL;
  g_assert_true (said);
  JvmsKernelEvent ev;
  guint n = 0;
  g_autoptr(GError) stop_error = NULL;
  while (jvms_perf_reader_next (reader, &ev, &stop_error))
    {
      const PerfTestEvent *a = &g_array_index (o.events, PerfTestEvent, n);
      g_assert_cmpint (ev.time, ==, a->time);
      g_assert_cmpint (ev.tid, ==, a->tid);
      n++;
    }
  g_assert_no_error (stop_error);
  g_assert_cmpuint (n, ==, o.events->len);
  original_clear (&o);
}

/* P8 and P2: damaged attributes and sections. */
static void
test_header_damage (void)
{
  Original o;
  original_load (&o, fixture.small, FALSE);
  gsize size;
  const guint8 *data = g_bytes_get_data (o.bytes, &size);
  guint64 attrs_offset;
  memcpy (&attrs_offset, data + 24, 8);

  struct { guint at; guint64 value; gboolean is32; const char *expect; } cases[] = {
    { 16, 0, FALSE, "attr_size 0" },                              /* attr_size */
    { 16, G_GUINT64_CONSTANT (1) << 40, FALSE, "attr_size" },
    { 24, G_GUINT64_CONSTANT (1) << 62, FALSE, "attribute section declares" },
    { 32, 0, FALSE, "holds no attribute" },
    { 40, G_GUINT64_CONSTANT (1) << 62, FALSE, "data section starts at" },
    { 8, 3, FALSE, "declares size 3" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint8 *copy = g_memdup2 (data, size);
      put64 (copy + cases[i].at, cases[i].value);
      g_autoptr(GBytes) bytes = g_bytes_new_take (copy, size);
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open_bytes (bytes, "hdr.perf.data", 0, &error);
      g_assert_null (reader);
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i].expect) == NULL)
        g_error ("case %u: \"%s\" does not say \"%s\"", i, error->message, cases[i].expect);
      g_assert_true (g_str_has_prefix (error->message, "hdr.perf.data: "));
    }

  /* attr #0 declares an impossible size: its samples are skipped, not mis-parsed. What comes
   * out is the intact file's events in the same order, less those of one event name (attr
   * #0's), all of them. */
  guint8 *copy = g_memdup2 (data, size);
  put32 (copy + attrs_offset + 4, 0xffffffffu);
  g_autoptr(GBytes) bytes = g_bytes_new_take (copy, size);
  g_autoptr(GError) open_error = NULL, stop_error = NULL;
  guint n_warnings;
  g_autoptr(GArray) got = read_both (bytes, &open_error, &stop_error, &n_warnings);
  g_assert_no_error (open_error);
  g_assert_no_error (stop_error);
  g_assert_cmpuint (n_warnings, >, 0);
  g_assert_cmpuint (got->len, <, o.events->len);
  const char *skipped = NULL;
  guint n_skipped = 0, k = 0;
  for (guint i = 0; i < o.events->len; i++)
    {
      const PerfTestEvent *a = &g_array_index (o.events, PerfTestEvent, i);
      const PerfTestEvent *b = k < got->len ? &g_array_index (got, PerfTestEvent, k) : NULL;
      if (b != NULL && a->time == b->time && a->cpu == b->cpu && a->pid == b->pid && a->tid == b->tid
          && a->name == b->name)
        {
          k++;
          continue;
        }
      if (skipped == NULL)
        skipped = a->name;
      if (a->name != skipped)
        g_error ("event %u of the intact file (%s) is missing, besides those of %s", i, a->name, skipped);
      n_skipped++;
    }
  g_assert_cmpuint (k, ==, got->len);
  g_assert_cmpuint (n_skipped, ==, o.events->len - got->len);
  for (guint i = 0; i < got->len; i++)
    g_assert_true (g_array_index (got, PerfTestEvent, i).name != skipped);
  g_test_message ("attr #0 damaged: the %u events of %s skipped, the other %u read as in the intact file",
                  n_skipped, skipped, got->len);

  /* Data section beyond the end of the file: clamped, everything read, a warning. */
  copy = g_memdup2 (data, size);
  put64 (copy + 48, G_GUINT64_CONSTANT (1) << 62);
  g_autoptr(GBytes) bytes2 = g_bytes_new_take (copy, size);
  g_autoptr(GError) open_error2 = NULL, stop_error2 = NULL;
  g_autoptr(GArray) got2 = read_both (bytes2, &open_error2, &stop_error2, &n_warnings);
  g_assert_no_error (open_error2);
  g_assert_cmpuint (n_warnings, >, 0);
  assert_prefix (&o, got2, o.events->len);
  original_clear (&o);
}

/* P1: files that are not perf.data at all. */
static void
test_not_perf (void)
{
  struct { const char *bytes; gsize len; const char *expect; } cases[] = {
    { "", 0, "empty file" },
    { "PERFILE", 7, "header truncated at 7 of 104 bytes" },
    { "PERFILE2\x68\0\0\0\0\0\0\0", 16, "header truncated at 16 of 104 bytes" },
    { "\x7f" "ELF\2\1\1\0\0\0\0\0\0\0\0\0", 16, "magic at offset 0 is 7f 45 4c 46" },
    { "2ELIFREP\0\0\0\0\0\0\0\x68", 16, "big-endian" },
    { "PERFILE2\x10\0\0\0\0\0\0\0", 16, "pipe-mode" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new_static (cases[i].bytes, cases[i].len);
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open_bytes (bytes, "x.perf.data", 0, &error);
      g_assert_null (reader);
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i].expect) == NULL)
        g_error ("case %u: \"%s\" does not say \"%s\"", i, error->message, cases[i].expect);
    }
  g_autoptr(GError) error = NULL;
  g_assert_null (jvms_perf_reader_open ("/nonexistent/x.perf.data", 0, &error));
  g_assert_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_IO);
}

/* Fuzz finding ce42f828 (issue 8): TRACING_DATA whose sched_process_exec format has a damaged
 * dynamic array line, "field:__da2ELIFREPhar[] filenama;" (a one-word type before the
 * brackets). libtraceevent 1.7.1 leaks that word when it fails on the line, which failed the
 * fuzz run under LeakSanitizer (and fails this program under it); the reader now refuses the
 * line before libtraceevent sees it. A warning names the file, the offset of the format and
 * its system; the intact format beside it (sched_process_fork, at 2957) is parsed as before. */
static void
test_fuzz_format_leak (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("JVMS_FUZZ_FINDINGS"),
                                            "perf-leak-ce42f828e87b09fdd9f5d08aa8aa2f75cf8530b0",
                                            NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, &error);
  g_assert_no_error (error);
  g_autoptr(GBytes) bytes = g_mapped_file_get_bytes (mapped);
  static const JvmsPerfReaderFlags modes[] = { JVMS_PERF_READER_DEFAULT, JVMS_PERF_READER_UNORDERED };
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr(GError) open_error = NULL;
      g_autoptr(JvmsPerfReader) reader =
        jvms_perf_reader_open_bytes (bytes, "leak.perf.data", modes[m], &open_error);
      g_assert_no_error (open_error);
      JvmsKernelEvent ev;
      g_autoptr(GError) stop_error = NULL;
      while (jvms_perf_reader_next (reader, &ev, &stop_error))
        ;
      if (stop_error != NULL)
        g_assert_nonnull (strstr (stop_error->message, "leak.perf.data"));
      GPtrArray *warnings = jvms_perf_reader_get_warnings (reader);
      gboolean exec_damaged = FALSE, fork_damaged = FALSE;
      for (guint i = 0; i < warnings->len; i++)
        {
          const char *w = g_ptr_array_index (warnings, i);
          g_test_message ("warning: %s", w);
          exec_damaged |= strstr (w, "leak.perf.data: TRACING_DATA at offset 2409: an event "
                                     "format of system sched is damaged") != NULL;
          fork_damaged |= strstr (w, "offset 2957") != NULL;
        }
      g_assert_true (exec_damaged);
      g_assert_false (fork_damaged);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  perf_fixture_setup (&fixture, FALSE);
  g_test_add_func ("/perf/bad/not-perf", test_not_perf);
  g_test_add_func ("/perf/bad/fuzz-format-leak", test_fuzz_format_leak);
  g_test_add_func ("/perf/bad/header", test_header_damage);
  g_test_add_func ("/perf/bad/killed-recorder", test_killed_recorder);
  g_test_add_func ("/perf/bad/record", test_record_damage);
  g_test_add_func ("/perf/bad/truncate", test_truncate);
  g_test_add_func ("/perf/bad/truncate-compressed", test_truncate_compressed);
  g_test_add_func ("/perf/bad/flip", test_flip);
  g_test_add_func ("/perf/bad/flip-compressed", test_flip_compressed);
  int ret = g_test_run ();
  perf_fixture_teardown (&fixture, ret != 0);
  return ret;
}
