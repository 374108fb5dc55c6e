/* test-allocation-classes.c: a thread's allocations by class (analysis/jvms-allocation-classes.c),
 * which the allocation view's tooltip names, against a naive sum over every row written.
 *
 * A store of allocation samples (objectClass, weight; some rows of no class) on four threads,
 * with TLAB events beside them that must not count while samples exist; ranges and threads at
 * random, and the bound on rows read (the first rows of the range, flagged truncated). A store
 * of TLAB events only: tlabSize when the row has it, else allocationSize. */

#include <glib.h>
#include <glib/gstdio.h>

#include "jvms-allocation-classes.h"
#include "jvms-event-writer.h"

typedef struct
{
  gint64      time, tid, bytes;
  const char *klass;   /* NULL: none */
  gboolean    counted; /* what the index counts as allocation (samples, else TLAB events) */
} Row;

static const char *classes[] = { "java.lang.String", "byte[]", "long[]", "com.example.Order", NULL };

static char *
store_path (char **dir)
{
  g_autoptr(GError) error = NULL;
  *dir = g_dir_make_tmp ("jvms-allocation-classes-XXXXXX", &error);
  g_assert_no_error (error);
  return g_build_filename (*dir, "alloc.events", NULL);
}

/* @samples: write jdk.ObjectAllocationSample rows (and TLAB rows not counted); else TLAB rows,
 * counted, some without tlabSize. */
static JvmsEventStore *
write_store (const char *path, gboolean samples, GArray *rows)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsEventWriter) w = jvms_event_writer_new (path, &error);
  g_autoptr(GRand) rand = g_rand_new_with_seed (samples ? 11 : 12);
  g_assert_no_error (error);
  guint32 sample = jvms_event_writer_add_type (w, "jdk.ObjectAllocationSample", NULL, 0);
  guint s_class = jvms_event_writer_add_field (w, sample, "objectClass", NULL, JVMS_EVENT_UNIT_NONE);
  guint s_weight = jvms_event_writer_add_field (w, sample, "weight", NULL, JVMS_EVENT_UNIT_BYTES);
  guint32 tlab = jvms_event_writer_add_type (w, "jdk.ObjectAllocationInNewTLAB", NULL, 0);
  guint t_class = jvms_event_writer_add_field (w, tlab, "objectClass", NULL, JVMS_EVENT_UNIT_NONE);
  guint t_size = jvms_event_writer_add_field (w, tlab, "allocationSize", NULL, JVMS_EVENT_UNIT_BYTES);
  guint t_tlab = jvms_event_writer_add_field (w, tlab, "tlabSize", NULL, JVMS_EVENT_UNIT_BYTES);
  gint64 t = 1000000;
  for (guint i = 0; i < 30000; i++)
    {
      Row r = { t, 10 + g_rand_int_range (rand, 0, 4), g_rand_int_range (rand, 16, 1 << 20),
                classes[g_rand_int_range (rand, 0, G_N_ELEMENTS (classes))], FALSE };
      gboolean is_sample = samples && g_rand_int_range (rand, 0, 3) != 0;
      if (is_sample)
        {
          jvms_event_writer_begin (w, r.time, 0, sample, r.tid, JVMS_EVENT_NONE);
          jvms_event_writer_string (w, s_class, r.klass);
          jvms_event_writer_int (w, s_weight, JVMS_EVENT_VALUE_INT, r.bytes);
          r.counted = TRUE;
        }
      else
        {
          gint64 size = g_rand_int_range (rand, 16, 4096);
          gboolean has_tlab = g_rand_int_range (rand, 0, 4) != 0;
          jvms_event_writer_begin (w, r.time, 0, tlab, r.tid, JVMS_EVENT_NONE);
          jvms_event_writer_string (w, t_class, r.klass);
          jvms_event_writer_int (w, t_size, JVMS_EVENT_VALUE_INT, size);
          if (has_tlab)
            jvms_event_writer_int (w, t_tlab, JVMS_EVENT_VALUE_INT, r.bytes);
          else
            r.bytes = size;
          r.counted = !samples;
        }
      jvms_event_writer_commit (w);
      g_array_append_val (rows, r);
      t += g_rand_int_range (rand, 0, 20000);
    }
  g_assert_true (jvms_event_writer_close (w, &error));
  g_assert_no_error (error);
  JvmsEventStore *store = jvms_event_store_open (path, &error);
  g_assert_no_error (error);
  return store;
}

/* The naive answer: every counted row of @tid in [from, to), the first @max of them. */
static void
check (JvmsEventStore *store, GArray *rows, gint64 tid, gint64 from, gint64 to, guint max)
{
  g_autoptr(GHashTable) bytes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) events = g_hash_table_new (g_str_hash, g_str_equal);
  guint64 total = 0, n = 0;
  gboolean truncated = FALSE;
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = &g_array_index (rows, Row, i);
      if (!r->counted || r->tid != tid || r->time < from || r->time >= to)
        continue;
      if (n == max)
        {
          truncated = TRUE;
          break;
        }
      const char *k = r->klass != NULL ? r->klass : "";
      g_hash_table_insert (bytes, (gpointer) k,
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (bytes, k)) + (gsize) r->bytes));
      g_hash_table_insert (events, (gpointer) k,
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (events, k)) + 1));
      total += (guint64) r->bytes;
      n++;
    }
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsAllocationClasses) got = jvms_allocation_classes_read (store, tid, from, to, max, &error);
  g_assert_no_error (error);
  g_assert_nonnull (got);
  g_assert_cmpuint (got->bytes, ==, total);
  g_assert_cmpuint (got->events, ==, n);
  g_assert_cmpint (got->truncated, ==, truncated);
  g_assert_cmpuint (got->classes->len, ==, g_hash_table_size (bytes));
  for (guint i = 0; i < got->classes->len; i++)
    {
      const JvmsAllocationClass *c = &g_array_index (got->classes, JvmsAllocationClass, i);
      const char *k = c->class_name != NULL ? c->class_name : "";
      g_assert_cmpuint (c->bytes, ==, GPOINTER_TO_SIZE (g_hash_table_lookup (bytes, k)));
      g_assert_cmpuint (c->events, ==, GPOINTER_TO_SIZE (g_hash_table_lookup (events, k)));
      if (i > 0)
        g_assert_cmpuint (g_array_index (got->classes, JvmsAllocationClass, i - 1).bytes, >=, c->bytes);
    }
}

static void
run (gboolean samples)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = store_path (&dir);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (Row));
  JvmsEventStore *store = write_store (path, samples, rows);
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  gint64 end = g_array_index (rows, Row, rows->len - 1).time + 1;
  check (store, rows, 11, G_MININT64, G_MAXINT64, G_MAXUINT);
  for (guint i = 0; i < 200; i++)
    {
      gint64 a = g_rand_int_range (rand, 0, (gint32) (end / 1000)) * (gint64) 1000;
      gint64 b = a + g_rand_int_range (rand, 0, (gint32) (end / 8000)) * (gint64) 1000;
      check (store, rows, 10 + g_rand_int_range (rand, 0, 5), a, b,
             i % 4 == 0 ? (guint) g_rand_int_range (rand, 0, 50) : 8192);
    }
  jvms_event_store_unref (store);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_samples (void)
{
  run (TRUE);
}

static void
test_tlab (void)
{
  run (FALSE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Analysis/allocation-classes/samples", test_samples);
  g_test_add_func ("/Analysis/allocation-classes/tlab-only", test_tlab);
  return g_test_run ();
}
