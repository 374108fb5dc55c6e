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

/* @state toggles from @from on; where @cpu is valid, CPU 0's current thread with it: @tid while
 * it runs, thread 300 while it waits (300 a preempter of it there). */
static void
toggle (JvmsHistoryBuilder *b, JvmsAttribute state, JvmsAttribute cpu, gint64 tid, gint64 from)
{
  g_autoptr(GError) error = NULL;
  for (gint64 i = 0; i < TOGGLES; i++)
    {
      gboolean ok = jvms_history_builder_modify_int (b, state, from + i * STEP,
                                                      i % 2 == 0 ? JVMS_KERNEL_STATE_RUNNING : JVMS_KERNEL_STATE_RUNNABLE,
                                                      &error);
      g_assert_no_error (error);
      g_assert_true (ok);
      if (cpu != JVMS_ATTRIBUTE_INVALID)
        {
          ok = jvms_history_builder_modify_int (b, cpu, from + i * STEP, i % 2 == 0 ? tid : 300, &error);
          g_assert_no_error (error);
          g_assert_true (ok);
        }
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
  JvmsAttribute c100 = jvms_history_builder_attribute (b, "Threads/100/kernel-state/cpu");
  JvmsAttribute cpu0 = jvms_history_builder_attribute (b, "CPUs/0/current-thread");
  g_assert_true (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, "Threads/100/name"), 0,
                                                      "busy", &error));
  g_assert_true (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, "Threads/200/name"), 0,
                                                      "waker", &error));
  g_assert_true (jvms_history_builder_modify_int (b, s200, 0, JVMS_KERNEL_STATE_RUNNING, &error));
  g_assert_true (jvms_history_builder_modify_int (b, c100, 0, 0, &error));
  toggle (b, s100, cpu0, 100, 0);
  /* 100 waits over [T1, T2), woken by 200 (its waker from the wait's start, docs/attributes.md). */
  g_assert_true (jvms_history_builder_modify_int (b, s100, T1, JVMS_KERNEL_STATE_BLOCKED, &error));
  g_assert_true (jvms_history_builder_modify_int (b, w100, T1, jvms_waker_pack (200, FALSE), &error));
  toggle (b, s200, JVMS_ATTRIBUTE_INVALID, 200, T1);
  g_assert_true (jvms_history_builder_modify_int (b, s100, T2, JVMS_KERNEL_STATE_RUNNING, &error));
  g_assert_true (jvms_history_builder_modify_int (b, s200, T2, JVMS_KERNEL_STATE_BLOCKED, &error));
  toggle (b, s100, cpu0, 100, T2);
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

static void
assert_same_path (const JvmsCriticalPath *a, const JvmsCriticalPath *b)
{
  g_assert_cmpuint (a->segments->len, ==, b->segments->len);
  for (guint i = 0; i < a->segments->len; i++)
    {
      const JvmsPathSegment *x = &g_array_index (a->segments, JvmsPathSegment, i);
      const JvmsPathSegment *y = &g_array_index (b->segments, JvmsPathSegment, i);
      g_assert_cmpint (x->tid, ==, y->tid);
      g_assert_cmpint (x->from, ==, y->from);
      g_assert_cmpint (x->to, ==, y->to);
      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpstr (x->state, ==, y->state);
      g_assert_cmpstr (x->cause, ==, y->cause);
    }
  g_assert_cmpmem (a->handoffs->data, a->handoffs->len * sizeof (JvmsPathHandoff),
                   b->handoffs->data, b->handoffs->len * sizeof (JvmsPathHandoff));
  g_assert_cmpuint (a->causes->len, ==, b->causes->len);
  for (guint i = 0; i < a->causes->len; i++)
    {
      const JvmsPathCause *x = &g_array_index (a->causes, JvmsPathCause, i);
      const JvmsPathCause *y = &g_array_index (b->causes, JvmsPathCause, i);
      g_assert_cmpstr (x->kind, ==, y->kind);
      g_assert_cmpint (x->tid, ==, y->tid);
      g_assert_cmpint (x->ns, ==, y->ns);
      g_assert_cmpmem (x->intervals->data, x->intervals->len * sizeof (JvmsEvidenceInterval),
                       y->intervals->data, y->intervals->len * sizeof (JvmsEvidenceInterval));
    }
}

/* Paths computed in the segment array an earlier path left (kept for the next path,
 * docs/benchmarks.md's twelfth run) are the paths computed without: the kept size lowered to
 * one this history reaches, a long path, a part of it, a short one and the long one again, each
 * the same as computed first, with nothing kept. */
static void
test_kept_arrays (void)
{
  g_autofree char *dir = NULL;
  g_autoptr(JvmsHistory) h = make_history (&dir);
  jvms_critical_path_set_max_segments (0);
  const gint64 ranges[][2] = { { 0, END }, { T1 + T1 / 2, END }, { T2 + 10 * STEP, T2 + 20 * STEP }, { 0, END } };
  JvmsCriticalPath *first[G_N_ELEMENTS (ranges)];
  for (guint keep = 0; keep < 2; keep++)
    {
      jvms_critical_path_set_keep_min (keep ? 16 : G_MAXUINT);
      for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
        {
          g_autoptr(GError) error = NULL;
          JvmsCriticalPath *p = jvms_critical_path_compute (h, 100, ranges[i][0], ranges[i][1], NULL, &error);
          g_assert_no_error (error);
          if (keep == 0)
            {
              /* 300 a preempter; 200 the waker where the range holds the wait */
              g_assert_cmpuint (p->causes->len, ==, i == 2 ? 1 : 2);
              first[i] = p;
              continue;
            }
          assert_same_path (p, first[i]);
          jvms_critical_path_free (p);
          jvms_critical_path_free (first[i]);
        }
    }
  jvms_critical_path_set_keep_min (0);
  remove_dir (dir);
}

/* A cause's spans merged as the walk adds them (the thirteenth run, docs/benchmarks.md) give the
 * causes that keeping them all and merging them at the end gives: the preempter's 2 x 2000 spans
 * all of one length, so that of the intervals the walk meets latest first the earliest eight
 * must be kept, and the waker's one. */
static void
test_stream_spans (void)
{
  g_autofree char *dir = NULL;
  g_autoptr(JvmsHistory) h = make_history (&dir);
  jvms_critical_path_set_max_segments (0);
  const gint64 ranges[][2] = { { 0, END }, { T1 + T1 / 2, END }, { T2 + 10 * STEP, T2 + 20 * STEP } };
  for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
    {
      g_autoptr(GError) error = NULL;
      jvms_critical_path_set_stream_spans (FALSE);
      JvmsCriticalPath *kept = jvms_critical_path_compute (h, 100, ranges[i][0], ranges[i][1], NULL, &error);
      g_assert_no_error (error);
      jvms_critical_path_set_stream_spans (TRUE);
      JvmsCriticalPath *merged = jvms_critical_path_compute (h, 100, ranges[i][0], ranges[i][1], NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (merged->causes->len, ==, i == 2 ? 1 : 2);
      assert_same_path (merged, kept);
      /* Spans out of order: the path computed again, keeping them. */
      jvms_critical_path_force_spans_out_of_order (TRUE);
      JvmsCriticalPath *again = jvms_critical_path_compute (h, 100, ranges[i][0], ranges[i][1], NULL, &error);
      jvms_critical_path_force_spans_out_of_order (FALSE);
      g_assert_no_error (error);
      assert_same_path (again, kept);
      jvms_critical_path_free (again);
      jvms_critical_path_free (merged);
      jvms_critical_path_free (kept);
    }
  remove_dir (dir);
}

/* A thread that waits for two CPUs in turn, each read through a window of its own as the walk goes
 * back (CpuWindow, docs/benchmarks.md's fifteenth run): thread 100 switches between running and
 * runnable every 100 us over 400 ms, 20 waits on CPU 0, then 20 on CPU 1, and so on. While it
 * waits for a CPU, that CPU runs its preempter (300 on CPU 0, 400 on CPU 1); the other CPU runs
 * a thread the path never waits for (500, 600). The path's preempters are 300 and 400, each over
 * every wait for its CPU to the nanosecond: a window of one CPU taken for another's, or one kept
 * past where it was read, gives 500 or 600, or less time. */
#define CPU_STEP    100000
#define CPU_TOGGLES 4000
#define CPU_PHASE   40

static void
test_cpu_windows (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("jvms-path-cpus-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (dir, "index.jvmh", NULL);
  JvmsHistoryBuilder *b = jvms_history_builder_new (path, 0, NULL, &error);
  g_assert_no_error (error);
  JvmsAttribute state = jvms_history_builder_attribute (b, "Threads/100/kernel-state");
  JvmsAttribute on = jvms_history_builder_attribute (b, "Threads/100/kernel-state/cpu");
  JvmsAttribute cpus[2] = { jvms_history_builder_attribute (b, "CPUs/0/current-thread"),
                            jvms_history_builder_attribute (b, "CPUs/1/current-thread") };
  g_assert_true (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, "Threads/100/name"), 0,
                                                      "busy", &error));
  const gint64 preempter[2] = { 300, 400 }, other[2] = { 500, 600 };
  gint64 expect[2] = { 0, 0 };
  /* Toggle i runs (even) or waits (odd) over [i, i + 1) steps; the CPU of a wait is the one the
   * thread runs on next. The last toggle runs past the range asked. */
  for (gint64 i = 0; i <= CPU_TOGGLES; i++)
    {
      gint64 t = i * CPU_STEP;
      guint cpu = (guint) (((i + (i % 2)) / CPU_PHASE) % 2);
      gboolean running = i % 2 == 0;
      g_assert_true (jvms_history_builder_modify_int (b, state, t, running ? JVMS_KERNEL_STATE_RUNNING
                                                                           : JVMS_KERNEL_STATE_RUNNABLE, &error));
      if (running)
        g_assert_true (jvms_history_builder_modify_int (b, on, t, cpu, &error));
      else
        expect[cpu] += CPU_STEP;
      g_assert_true (jvms_history_builder_modify_int (b, cpus[cpu], t, running ? 100 : preempter[cpu], &error));
      g_assert_true (jvms_history_builder_modify_int (b, cpus[1 - cpu], t, other[1 - cpu], &error));
      g_assert_no_error (error);
    }
  g_assert_true (jvms_history_builder_close (b, (CPU_TOGGLES + 1) * CPU_STEP, &error));
  g_assert_no_error (error);
  g_autoptr(JvmsHistory) h = jvms_history_builder_get_history (b);
  jvms_history_builder_free (b);
  JvmsCriticalPath *p = jvms_critical_path_compute (h, 100, 0, CPU_TOGGLES * CPU_STEP, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->segments->len, ==, CPU_TOGGLES);
  g_assert_cmpuint (p->causes->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const JvmsPathCause *c = &g_array_index (p->causes, JvmsPathCause, i);
      g_assert_cmpstr (c->kind, ==, "preempted-by");
      g_assert_cmpint (c->tid, ==, preempter[i]);
      g_assert_cmpint (c->ns, ==, expect[i]);
    }
  jvms_critical_path_free (p);
  g_remove (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/CriticalPath/bound/whole", test_whole);
  g_test_add_func ("/CriticalPath/bound/own-walk", test_own_walk);
  g_test_add_func ("/CriticalPath/bound/after-handoff", test_after_handoff);
  g_test_add_func ("/CriticalPath/kept-arrays", test_kept_arrays);
  g_test_add_func ("/CriticalPath/stream-spans", test_stream_spans);
  g_test_add_func ("/CriticalPath/cpu-windows", test_cpu_windows);
  return g_test_run ();
}
