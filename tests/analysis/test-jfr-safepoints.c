/* test-jfr-safepoints.c: a safepoint's JFR events gathered into one safepoint, with the window in
 * which Java threads are stopped (from the arm) and phases that tile it
 * (analysis/jvms-jfr-safepoints.h), whatever subset of the four events a recording has. */
#include <glib.h>

#include "jvms-jfr-safepoints.h"

typedef struct
{
  GArray *done;        /* JvmsSafepoint copies (operation not kept) */
  GArray *unfinished;
  GPtrArray *operations;
} Seen;

static void
on_done (const JvmsSafepoint *sp, gpointer user_data)
{
  Seen *seen = user_data;
  g_array_append_vals (seen->done, sp, 1);
  g_ptr_array_add (seen->operations, g_strdup (sp->operation));
}

static void
on_unfinished (const JvmsSafepoint *sp, gpointer user_data)
{
  Seen *seen = user_data;
  g_array_append_vals (seen->unfinished, sp, 1);
}

static void
seen_init (Seen *seen)
{
  seen->done = g_array_new (FALSE, FALSE, sizeof (JvmsSafepoint));
  seen->unfinished = g_array_new (FALSE, FALSE, sizeof (JvmsSafepoint));
  seen->operations = g_ptr_array_new_with_free_func (g_free);
}

static void
seen_clear (Seen *seen)
{
  g_array_unref (seen->done);
  g_array_unref (seen->unfinished);
  g_ptr_array_unref (seen->operations);
}

/* @expected: "name start end;..." */
static void
assert_phases (const JvmsSafepoint *sp, const char *expected)
{
  GString *got = g_string_new (NULL);
  for (guint i = 0; i < sp->n_phases; i++)
    g_string_append_printf (got, "%s%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, i ? ";" : "",
                            sp->phases[i].name, sp->phases[i].start, sp->phases[i].end);
  g_assert_cmpstr (got->str, ==, expected);
  g_string_free (got, TRUE);
  /* The phases tile the stop window, from the arm to the end, without a gap. */
  gint64 at = sp->stop_start;
  for (guint i = 0; i < sp->n_phases; i++)
    if (sp->phases[i].start >= sp->stop_start)
      {
        g_assert_cmpint (sp->phases[i].start, ==, at);
        at = sp->phases[i].end;
      }
  g_assert_cmpint (at, ==, sp->end);
}

static void
test_all_four (void)
{
  Seen seen;
  seen_init (&seen);
  JvmsSafepoints *s = jvms_safepoints_new (on_done, &seen);
  /* As HotSpot writes them: Begin lasts until every thread arrived, the synchronisation inside
   * it from the arm; the operation after a short cleanup; the end after it. */
  jvms_safepoints_begin (s, 6, 1000, 1100);
  jvms_safepoints_sync (s, 6, 1080, 1099);
  jvms_safepoints_operation (s, 6, 1110, 1200, "G1CollectForAllocation");
  g_assert_cmpuint (seen.done->len, ==, 0);
  jvms_safepoints_end (s, 6, 1203, 1260);
  g_assert_cmpuint (seen.done->len, ==, 1);
  JvmsSafepoint *sp = &g_array_index (seen.done, JvmsSafepoint, 0);
  g_assert_cmpint (sp->id, ==, 6);
  g_assert_cmpint (sp->start, ==, 1000);
  g_assert_cmpint (sp->end, ==, 1260);
  g_assert_cmpint (sp->stop_start, ==, 1080);
  g_assert_cmpstr (g_ptr_array_index (seen.operations, 0), ==, "G1CollectForAllocation");
  assert_phases (sp, "begin 1000 1080;synchronizing 1080 1099;operation 1099 1203;resuming 1203 1260");
  jvms_safepoints_finish (s, on_unfinished, &seen);
  g_assert_cmpuint (seen.unfinished->len, ==, 0);
  jvms_safepoints_free (s);
  seen_clear (&seen);
}

static void
test_without_sync (void)
{
  Seen seen;
  seen_init (&seen);
  JvmsSafepoints *s = jvms_safepoints_new (on_done, &seen);
  jvms_safepoints_begin (s, 1, 1000, 1100);
  jvms_safepoints_operation (s, 1, 1110, 1200, "Op");
  jvms_safepoints_end (s, 1, 1203, 1260);
  JvmsSafepoint *sp = &g_array_index (seen.done, JvmsSafepoint, 0);
  /* SafepointBegin is the synchronisation: the arm is not known closer. */
  g_assert_cmpint (sp->stop_start, ==, 1000);
  assert_phases (sp, "synchronizing 1000 1100;operation 1100 1203;resuming 1203 1260");
  jvms_safepoints_free (s);
  seen_clear (&seen);
}

static void
test_operation_only (void)
{
  Seen seen;
  seen_init (&seen);
  JvmsSafepoints *s = jvms_safepoints_new (on_done, &seen);
  /* default.jfc records only the operation: complete once the stream is a millisecond past it. */
  jvms_safepoints_operation (s, 3, 5000, 9000, "Op");
  jvms_safepoints_advance (s, 9000 + 500000);
  g_assert_cmpuint (seen.done->len, ==, 0);
  jvms_safepoints_advance (s, 9000 + 1000001);
  g_assert_cmpuint (seen.done->len, ==, 1);
  JvmsSafepoint *sp = &g_array_index (seen.done, JvmsSafepoint, 0);
  g_assert_cmpint (sp->stop_start, ==, 5000);
  assert_phases (sp, "operation 5000 9000");
  /* A second operation in another safepoint, completed at the finish. */
  jvms_safepoints_operation (s, 4, 20000, 21000, "Op2");
  jvms_safepoints_finish (s, on_unfinished, &seen);
  g_assert_cmpuint (seen.done->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (seen.operations, 1), ==, "Op2");
  jvms_safepoints_free (s);
  seen_clear (&seen);
}

static void
test_nested_and_end_only (void)
{
  Seen seen;
  seen_init (&seen);
  JvmsSafepoints *s = jvms_safepoints_new (on_done, &seen);
  /* An operation inside another's safepoint: the outer names it, the inner extends it. */
  jvms_safepoints_sync (s, 8, 100, 110);
  jvms_safepoints_operation (s, 8, 120, 150, "Outer");
  jvms_safepoints_operation (s, 8, 130, 170, "Inner");
  jvms_safepoints_end (s, 8, 171, 180);
  JvmsSafepoint *sp = &g_array_index (seen.done, JvmsSafepoint, 0);
  g_assert_cmpstr (g_ptr_array_index (seen.operations, 0), ==, "Outer");
  assert_phases (sp, "synchronizing 100 110;operation 110 171;resuming 171 180");
  /* No operation recorded (below its threshold): the end completes it, unnamed. */
  jvms_safepoints_begin (s, 9, 200, 230);
  jvms_safepoints_sync (s, 9, 210, 230);
  jvms_safepoints_end (s, 9, 240, 245);
  sp = &g_array_index (seen.done, JvmsSafepoint, 1);
  g_assert_null (g_ptr_array_index (seen.operations, 1));
  assert_phases (sp, "begin 200 210;synchronizing 210 230;operation 230 240;resuming 240 245");
  jvms_safepoints_free (s);
  seen_clear (&seen);
}

static void
test_unfinished_and_bounded (void)
{
  Seen seen;
  seen_init (&seen);
  JvmsSafepoints *s = jvms_safepoints_new (on_done, &seen);
  /* The safepoint JFR takes to stop the recording: a begin and a synchronisation only. */
  jvms_safepoints_begin (s, 100, 5000, 5100);
  jvms_safepoints_sync (s, 100, 5050, 5100);
  /* Ids that never end, far more than the table keeps. */
  for (gint64 id = 1000; id < 1000 + 3 * JVMS_SAFEPOINTS_MAX; id++)
    jvms_safepoints_begin (s, id, 6000 + id, 6001 + id);
  jvms_safepoints_finish (s, on_unfinished, &seen);
  g_assert_cmpuint (seen.done->len, ==, 0);
  g_assert_cmpuint (seen.unfinished->len, ==, JVMS_SAFEPOINTS_MAX);
  JvmsSafepoint *first = &g_array_index (seen.unfinished, JvmsSafepoint, 0);
  g_assert_cmpint (first->id, ==, 100);
  g_assert_cmpint (first->start, ==, 5000);
  g_assert_cmpint (first->end, ==, 5100);
  for (guint i = 1; i < seen.unfinished->len; i++)
    g_assert_cmpint (g_array_index (seen.unfinished, JvmsSafepoint, i - 1).start, <=,
                     g_array_index (seen.unfinished, JvmsSafepoint, i).start);
  jvms_safepoints_free (s);
  seen_clear (&seen);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Analysis/jfr-safepoints/all-four", test_all_four);
  g_test_add_func ("/Analysis/jfr-safepoints/without-sync", test_without_sync);
  g_test_add_func ("/Analysis/jfr-safepoints/operation-only", test_operation_only);
  g_test_add_func ("/Analysis/jfr-safepoints/nested-and-end-only", test_nested_and_end_only);
  g_test_add_func ("/Analysis/jfr-safepoints/unfinished-and-bounded", test_unfinished_and_bounded);
  return g_test_run ();
}
