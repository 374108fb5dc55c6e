/* test-critical-path-bound: the critical path's bound on segments (docs/critical-path.md: 2^20,
 * "checked at every step") holds on a history small enough to test, with the bound lowered
 * through the test-only knob of jvms-critical-path-private.h.
 *
 * The history: thread 100 switches between running and runnable every 500 ns (4,000 segments of
 * its own), then blocks and is woken by thread 200, which meanwhile does the same (4,000
 * segments on the path, through the hand-off), then 100 switches again (4,000 more). Walking
 * back from the end, a bound of 100 is reached inside 100's own walk, before any hand-off; a
 * bound of 4,100 inside 200's walk, after the hand-off. A bound checked only where the path hands
 * off (as it once was: one path on a 3.3 GB bundle held 2.9 M segments) lets both through. */
#include <glib/gstdio.h>

#include "jvms-critical-path.h"
#include "jvms-critical-path-private.h"
#include "jvms-states.h"

#define STEP     500
#define TOGGLES  4000
#define T1       ((gint64) STEP * TOGGLES)
#define T2       (2 * T1)
#define END      (3 * T1)

static void
toggle (JvmsHistoryBuilder *b, JvmsAttribute state, gint64 from)
{
  g_autoptr(GError) error = NULL;
  for (gint64 i = 0; i < TOGGLES; i++)
    {
      gboolean ok = jvms_history_builder_modify_int (b, state, from + i * STEP,
                                                      i % 2 == 0 ? JVMS_KERNEL_STATE_RUNNING : JVMS_KERNEL_STATE_RUNNABLE,
                                                      &error);
      g_assert_no_error (error);
      g_assert_true (ok);
    }
}

static JvmsHistory *
make_history (char **dir)
{
  g_autoptr(GError) error = NULL;
  *dir = g_dir_make_tmp ("jvms-path-bound-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (*dir, "index.jvmh", NULL);
  JvmsHistoryBuilder *b = jvms_history_builder_new (path, 0, NULL, &error);
  g_assert_no_error (error);
  JvmsAttribute s100 = jvms_history_builder_attribute (b, "Threads/100/kernel-state");
  JvmsAttribute w100 = jvms_history_builder_attribute (b, "Threads/100/kernel-state/waker");
  JvmsAttribute s200 = jvms_history_builder_attribute (b, "Threads/200/kernel-state");
  g_assert_true (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, "Threads/100/name"), 0,
                                                      "busy", &error));
  g_assert_true (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, "Threads/200/name"), 0,
                                                      "waker", &error));
  g_assert_true (jvms_history_builder_modify_int (b, s200, 0, JVMS_KERNEL_STATE_RUNNING, &error));
  toggle (b, s100, 0);
  /* 100 waits over [T1, T2), woken by 200 (its waker from the wait's start, docs/attributes.md). */
  g_assert_true (jvms_history_builder_modify_int (b, s100, T1, JVMS_KERNEL_STATE_BLOCKED, &error));
  g_assert_true (jvms_history_builder_modify_int (b, w100, T1, jvms_waker_pack (200, FALSE), &error));
  toggle (b, s200, T1);
  g_assert_true (jvms_history_builder_modify_int (b, s100, T2, JVMS_KERNEL_STATE_RUNNING, &error));
  g_assert_true (jvms_history_builder_modify_int (b, s200, T2, JVMS_KERNEL_STATE_BLOCKED, &error));
  toggle (b, s100, T2);
  g_assert_no_error (error);
  gboolean closed = jvms_history_builder_close (b, END, &error);
  g_assert_no_error (error);
  g_assert_true (closed);
  JvmsHistory *h = jvms_history_builder_get_history (b);
  jvms_history_builder_free (b);
  return h;
}

static void
remove_dir (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "index.jvmh", NULL);
  g_remove (path);
  g_rmdir (dir);
}

/* The segments cover [0, END) exactly, in time order. */
static void
assert_covers (const JvmsCriticalPath *p)
{
  g_assert_cmpint (p->from, ==, 0);
  g_assert_cmpint (p->to, ==, END);
  gint64 at = p->from;
  for (guint i = 0; i < p->segments->len; i++)
    {
      const JvmsPathSegment *s = &g_array_index (p->segments, JvmsPathSegment, i);
      g_assert_cmpint (s->from, ==, at);
      g_assert_cmpint (s->to, >, s->from);
      at = s->to;
    }
  g_assert_cmpint (at, ==, END);
}

static guint
n_not_followed (const JvmsCriticalPath *p)
{
  guint n = 0;
  for (guint i = 0; i < p->segments->len; i++)
    if (g_str_equal (g_array_index (p->segments, JvmsPathSegment, i).cause, "not followed: too many segments"))
      n++;
  return n;
}

/* Unbounded by the knob (2^20), the whole path: every switch of both threads, one hand-off. */
static void
test_whole (void)
{
  g_autofree char *dir = NULL;
  g_autoptr(JvmsHistory) h = make_history (&dir);
  jvms_critical_path_set_max_segments (0);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCriticalPath) p = jvms_critical_path_compute (h, 100, 0, END, NULL, &error);
  g_assert_no_error (error);
  assert_covers (p);
  g_assert_false (p->truncated);
  g_assert_cmpuint (p->segments->len, ==, 3 * TOGGLES);
  g_assert_cmpuint (p->handoffs->len, ==, 1);
  g_assert_cmpint (g_array_index (p->handoffs, JvmsPathHandoff, 0).waker, ==, 200);
  g_assert_cmpint (g_array_index (p->handoffs, JvmsPathHandoff, 0).at, ==, T2);
  /* The path followed 200 over the whole wait: the hand-off's part of its cause intervals. */
  g_assert_cmpint (g_array_index (p->handoffs, JvmsPathHandoff, 0).from, ==, T1);
  g_assert_cmpuint (n_not_followed (p), ==, 0);
  /* Asked from inside the wait, over its part in the range only. */
  g_autoptr(JvmsCriticalPath) part = jvms_critical_path_compute (h, 100, T1 + T1 / 2, END, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (part->handoffs->len, ==, 1);
  g_assert_cmpint (g_array_index (part->handoffs, JvmsPathHandoff, 0).from, ==, T1 + T1 / 2);
  g_assert_cmpint (g_array_index (part->handoffs, JvmsPathHandoff, 0).at, ==, T2);
  remove_dir (dir);
}

/* The bound @max holds: at most @max segments, plus one "not followed" for each thread whose
 * walk was cut (here 100, and 200 when the bound falls inside its walk). */
static void
check_bound (guint max, gint64 tid_cut_first)
{
  g_autofree char *dir = NULL;
  g_autoptr(JvmsHistory) h = make_history (&dir);
  jvms_critical_path_set_max_segments (max);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCriticalPath) p = jvms_critical_path_compute (h, 100, 0, END, NULL, &error);
  jvms_critical_path_set_max_segments (0);
  g_assert_no_error (error);
  assert_covers (p);
  g_assert_true (p->truncated);
  g_assert_cmpuint (p->segments->len, <=, max + 2);
  g_assert_cmpuint (n_not_followed (p), >=, 1);
  /* The latest segment cut is the first thread whose walk reached the bound. */
  gint64 cut = 0;
  for (guint i = p->segments->len; i-- > 0 && cut == 0;)
    if (g_str_equal (g_array_index (p->segments, JvmsPathSegment, i).cause, "not followed: too many segments"))
      cut = g_array_index (p->segments, JvmsPathSegment, i).tid;
  g_assert_cmpint (cut, ==, tid_cut_first);
  remove_dir (dir);
}

/* Reached in the asked thread's own walk, before any hand-off. */
static void
test_own_walk (void)
{
  check_bound (100, 100);
}

/* Reached in the waker's walk, after the hand-off. */
static void
test_after_handoff (void)
{
  check_bound (TOGGLES + 100, 200);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/CriticalPath/bound/whole", test_whole);
  g_test_add_func ("/CriticalPath/bound/own-walk", test_own_walk);
  g_test_add_func ("/CriticalPath/bound/after-handoff", test_after_handoff);
  return g_test_run ();
}
