/* Tests of analysis/jvms-object-age-samples: the old-object samples read from a sample store
 * as the analysis writes it, and the bytes allocated between two instants against a sum over
 * the allocation samples. */
#include <glib/gstdio.h>

#include "jvms-object-age-samples.h"
#include "jvms-samples.h"

#define SECOND G_GINT64_CONSTANT (1000000000)
#define T0 G_GINT64_CONSTANT (1700000000000000000)
#define TID 100

/* Allocations of 100, 200 and 400 bytes at 1, 2 and 3 s; an old object allocated at 1.5 s
 * sampled at 3.5 s survived 600 bytes of allocation. */
static void
test_store (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-object-age-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "x.samples", NULL);
  g_autoptr(JvmsSamplesWriter) writer = jvms_samples_writer_new (path, &error);
  JvmsSampleFrame frame = { "com.example.Cache.put", 12 };
  g_autoptr(GArray) samples = NULL;
  const JvmsObjectAgeSample *s;

  g_assert_no_error (error);
  for (int i = 1; i <= 3; i++)
    {
      JvmsSample a = { .kind = JVMS_SAMPLE_ALLOCATION, .time = T0 + i * SECOND, .tid = TID,
                       .class_name = "byte[]", .weight = 100u << (i - 1) };
      jvms_samples_writer_add (writer, &a);
    }
  {
    JvmsSample o = { .kind = JVMS_SAMPLE_OLD_OBJECT, .time = T0 + 35 * SECOND / 10, .tid = TID,
                     .class_name = "com.example.Entry", .allocation_time = T0 + 15 * SECOND / 10,
                     .object_age = 2 * SECOND, .n_frames = 1, .frames = &frame };
    jvms_samples_writer_add (writer, &o);
  }
  g_assert_true (jvms_samples_writer_close (writer, &error));
  g_assert_no_error (error);

  samples = jvms_object_age_samples_read (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (samples->len, ==, 1);
  s = &g_array_index (samples, JvmsObjectAgeSample, 0);
  g_assert_cmpint (s->time - s->allocation_time, ==, 2 * SECOND);
  g_assert_cmpint (s->bytes_since, ==, 600);
  g_assert_cmpstr (s->class_name, ==, "com.example.Entry");
  g_assert_cmpstr (s->site, ==, "com.example.Cache.put");
  g_unlink (path);
  g_rmdir (dir);
}

/* Old objects among 20,000 allocation samples (five blocks of 4,096, a run of four and a block
 * after it), each with its own age: the writer keeps old objects' times beside the open run's
 * samples, and each must be written with its own sample, in its block. */
static void
test_many (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-object-age-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "x.samples", NULL);
  g_autoptr(JvmsSamplesWriter) writer = jvms_samples_writer_new (path, &error);
  JvmsSampleFrame frame = { "com.example.Cache.put", 12 };
  const gint64 ms = SECOND / 1000;
  guint n_old = 0;

  g_assert_no_error (error);
  for (int i = 0; i < 20000; i++)
    {
      JvmsSample a = { .kind = JVMS_SAMPLE_ALLOCATION, .time = T0 + i * ms, .tid = TID,
                       .class_name = "byte[]", .weight = 1 };
      jvms_samples_writer_add (writer, &a);
      if (i % 1500 == 700 || i % 1500 == 701)
        {
          g_autofree char *cls = g_strdup_printf ("com.example.Entry%u", n_old);
          JvmsSample o = { .kind = JVMS_SAMPLE_OLD_OBJECT, .time = T0 + i * ms, .tid = TID,
                           .class_name = cls, .allocation_time = T0 + i * ms - (n_old + 1) * ms,
                           .object_age = (n_old + 1) * ms, .n_frames = 1, .frames = &frame };
          jvms_samples_writer_add (writer, &o);
          n_old++;
        }
    }
  g_assert_true (jvms_samples_writer_close (writer, &error));
  g_assert_no_error (error);

  g_autoptr(GArray) samples = jvms_object_age_samples_read (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (samples->len, ==, n_old);
  for (guint k = 0; k < n_old; k++)
    {
      const JvmsObjectAgeSample *s = &g_array_index (samples, JvmsObjectAgeSample, k);
      g_autofree char *cls = g_strdup_printf ("com.example.Entry%u", k);
      g_assert_cmpstr (s->class_name, ==, cls);
      g_assert_cmpint (s->time - s->allocation_time, ==, (gint64) (k + 1) * ms);
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* Bytes in (from, to] by binary search over cumulative weights, against a plain sum, for
 * instants on, between, before and after the samples (equal times included). */
static void
test_bytes_between (void)
{
  const gint64 times[] = { 10, 20, 20, 35, 50, 50, 50, 80 };
  const guint64 weights[] = { 1, 2, 4, 8, 16, 32, 64, 128 };
  guint64 cumulative[G_N_ELEMENTS (times)];
  guint64 sum = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (times); i++)
    cumulative[i] = sum += weights[i];
  g_assert_cmpint (jvms_object_age_bytes_between (times, cumulative, 0, 0, 100), ==, -1);
  for (gint64 from = 0; from <= 90; from += 5)
    for (gint64 to = 0; to <= 90; to += 5)
      {
        gint64 want = 0;
        for (gsize i = 0; i < G_N_ELEMENTS (times); i++)
          if (times[i] > from && times[i] <= to)
            want += (gint64) weights[i];
        g_assert_cmpint (jvms_object_age_bytes_between (times, cumulative, G_N_ELEMENTS (times),
                                                        from, to), ==, want);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Analysis/object-age-samples/store", test_store);
  g_test_add_func ("/Analysis/object-age-samples/bytes-between", test_bytes_between);
  g_test_add_func ("/Analysis/object-age-samples/many", test_many);
  return g_test_run ();
}
