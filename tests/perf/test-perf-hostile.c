/* test-perf-hostile.c: perf.data files built byte by byte with one extreme property each
 * (issue 28): attributes whose id sections all point at one big table. Each case runs in a
 * subprocess (a signal fails the test; the time limit only turns a hang into a failure). Work
 * is the reader's own count of header bytes read (jvms_perf_reader_get_header_bytes_read). */
#include <string.h>

#include "hostile-util.h"
#include "jvms-perf.h"
#include "perf-fixture.h"
#include "perf-writer.h"

/* Reads every event of @path; returns how many, with the header bytes read and the warnings
 * joined by newlines. */
static guint
read_all (const char *path, guint64 *header_bytes, char **warnings)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open (path, JVMS_PERF_READER_DEFAULT, &error);
  g_assert_no_error (error);
  JvmsKernelEvent ev;
  guint n = 0;
  while (jvms_perf_reader_next (reader, &ev, &error))
    n++;
  g_assert_no_error (error);
  *header_bytes = jvms_perf_reader_get_header_bytes_read (reader);
  GPtrArray *w = jvms_perf_reader_get_warnings (reader);
  g_autoptr(GString) all = g_string_new (NULL);
  for (guint i = 0; i < w->len; i++)
    g_string_append_printf (all, "%s\n", (const char *) g_ptr_array_index (w, i));
  *warnings = g_string_free (g_steal_pointer (&all), FALSE);
  g_printerr ("# %s: %u events, %" G_GUINT64_FORMAT " header bytes read, warnings:\n%s", path, n,
              *header_bytes, *warnings);
  return n;
}

/* 20,000 attributes sharing one table of 131,072 ids (1 MiB; 2.6 MB in all): each attribute
 * read and hashed the whole table again (20 GiB, minutes), since the limit of 2^20 ids counted
 * distinct ids only. Now a section seen before is not read again: about the file's size is
 * read, every sample finds its attribute, and nothing is warned. Then 2,000 attributes whose
 * sections overlap but differ (each shifted by one id): the limit counts every id read and
 * allows one per 8 bytes of the file, so no more than the file's size is read, and the
 * attributes past the limit are named in one warning. */
static void
test_shared_ids (void)
{
  HOSTILE_IN_SUBPROCESS ();
  {
    g_autoptr(GBytes) bytes = perf_shape_shared_ids (20000, 131072, FALSE, 100);
    g_autofree char *path = hostile_write_temp (bytes, "shared-ids.data");
    guint64 header_bytes;
    g_autofree char *warnings = NULL;
    g_assert_cmpuint (read_all (path, &header_bytes, &warnings), ==, 100);
    g_assert_cmpuint (header_bytes, <=, 2 * g_bytes_get_size (bytes));
    g_assert_cmpstr (warnings, ==, "");
    hostile_remove_temp (path);
  }
  {
    g_autoptr(GBytes) bytes = perf_shape_shared_ids (2000, 131072, TRUE, 100);
    g_autofree char *path = hostile_write_temp (bytes, "shifted-ids.data");
    guint64 header_bytes;
    g_autofree char *warnings = NULL;
    /* the first eight attributes own every id the samples use */
    g_assert_cmpuint (read_all (path, &header_bytes, &warnings), ==, 100);
    g_assert_cmpuint (header_bytes, <=, 2 * g_bytes_get_size (bytes));
    g_autofree char *expected = g_strdup_printf ("shifted-ids.data: attr #1 at offset 232 and 1998 more: their ids would exceed the limit of %" G_GSIZE_FORMAT " ids read in all",
                                                 g_bytes_get_size (bytes) / 8);
    g_assert_nonnull (strstr (warnings, expected));
    hostile_remove_temp (path);
  }
}

/* perf record can write a sample of a group a tracepoint leads twice (two identical records:
 * a sched_switch of the fixture's events). perf script shows it once: the leader's count, its
 * period there, did not move. The reader skips it too (repeats_last_read), else the switch and
 * its reads count twice. Four samples, the second the first again: perf script and the reader
 * both see three switches and three page-fault reads (5, 2, 2 faults). */
static void
test_group_repeat (void)
{
  const PerfGroupRead reads[] = { { 1, 5 }, { 1, 5 }, { 2, 7 }, { 3, 9 } };
  g_autoptr(GBytes) bytes = perf_shape_group_reads (reads, G_N_ELEMENTS (reads));
  g_autofree char *path = hostile_write_temp (bytes, "group-repeat.data");

  g_autoptr(GHashTable) script = perf_script_counts (path);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (script, "sched:sched_switch")), ==, 3);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (script, "page-faults")), ==, 3);

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open (path, JVMS_PERF_READER_DEFAULT, &error);
  g_assert_no_error (error);
  JvmsKernelEvent ev;
  guint switches = 0, n_faults = 0;
  guint64 faults[4] = { 0 };
  while (jvms_perf_reader_next (reader, &ev, &error))
    {
      if (ev.type == JVMS_KERNEL_EVENT_SCHED_SWITCH)
        {
          g_assert_cmpint (ev.sched_switch.prev_tid, ==, 101);
          switches++;
        }
      else if (ev.type == JVMS_KERNEL_EVENT_COUNTER_SAMPLE)
        {
          g_assert_cmpstr (ev.counter.counter, ==, "page-faults");
          g_assert_true (ev.counter.at_switch);
          if (n_faults < G_N_ELEMENTS (faults))
            faults[n_faults] = ev.counter.period;
          n_faults++;
        }
    }
  g_assert_no_error (error);
  g_assert_cmpuint (switches, ==, 3);
  g_assert_cmpuint (n_faults, ==, 3);
  g_assert_cmpuint (faults[0], ==, 5);
  g_assert_cmpuint (faults[1], ==, 2);
  g_assert_cmpuint (faults[2], ==, 2);
  g_assert_cmpuint (jvms_perf_reader_get_warnings (reader)->len, ==, 0);
  hostile_remove_temp (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perf/hostile/shared-ids", test_shared_ids);
  g_test_add_func ("/perf/hostile/group-repeat", test_group_repeat);
  return g_test_run ();
}
