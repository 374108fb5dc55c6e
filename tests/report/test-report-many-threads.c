/* Thread-per-request servers reach tens of thousands of threads: the report's work must not grow
 * with them (a range query per leaf of every thread made 30,000 threads take minutes), and the
 * index must not spend attributes on what a thread never did (100,000 threads took 1.2 GB to
 * index). The work is counted, not timed: the report counts its history queries
 * (JvmsReport.n_queries), the index its attributes. The answer is checked against the file:
 * each thread sleeps or parks a known time. */
#include "config.h"

#include "jvms-report.h"
#include "report-fixture.h"

#define MS G_GINT64_CONSTANT (1000000)
#define SLEEP_NS (5 * MS)
#define PARK_NS  (3 * MS)

typedef struct
{
  ReportFixture fixture;
  guint         n;
} Trace;

/* @n platform threads: each starts, sleeps (even ones) or parks (odd ones), and ends. */
static void
trace_open (Trace *t, guint n)
{
  g_autofree JfrGenThread *threads = g_new0 (JfrGenThread, n);
  g_autofree JfrGenEvent *events = g_new0 (JfrGenEvent, 3 * n);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  static const char * const classes[] = { "java/util/concurrent/locks/LockSupport" };
  guint k = 0;
  for (guint i = 0; i < n; i++)
    {
      char *name = g_strdup_printf ("worker-%u", i);
      g_ptr_array_add (names, name);
      threads[i] = (JfrGenThread) { 10000 + i, 100 + i, name };
      events[k++] = (JfrGenEvent) { JFR_GEN_THREAD_START, i, 1 * MS + i, 0, 0, 0 };
    }
  for (guint i = 0; i < n; i++)
    events[k++] = (JfrGenEvent) { i % 2 ? JFR_GEN_PARK : JFR_GEN_SLEEP, i, 10 * MS + i,
                                  i % 2 ? PARK_NS : SLEEP_NS, 0, 0 };
  for (guint i = 0; i < n; i++)
    events[k++] = (JfrGenEvent) { JFR_GEN_THREAD_END, i, 50 * MS + i, 0, 0, 0 };
  report_fixture_open (&t->fixture, threads, n, events, k, classes, G_N_ELEMENTS (classes));
  t->n = n;
}

static JvmsReport *
report_of (Trace *t, const char *thread)
{
  g_autoptr(GError) error = NULL;
  JvmsHistory *h = t->fixture.history;
  JvmsReportOptions options = {
    .from = jvms_history_get_start_time (h),
    .to = jvms_history_get_end_time (h),
    .thread = thread,
  };
  JvmsReport *report = jvms_report_compute (h, &options, &error);
  g_assert_no_error (error);
  return report;
}

static gint64
lost (const JvmsReport *report, JvmsFindingKind kind)
{
  for (guint i = 0; i < report->findings->len; i++)
    {
      const JvmsFinding *f = g_ptr_array_index (report->findings, i);
      if (f->kind == kind)
        return f->lost_ns;
    }
  return 0;
}

static void
check_answer (Trace *t, const JvmsReport *report)
{
  g_assert_cmpuint (report->threads->len, ==, t->n);
  g_assert_cmpint (lost (report, JVMS_FINDING_SLEEPING), ==, (gint64) ((t->n + 1) / 2) * SLEEP_NS);
  g_assert_cmpint (lost (report, JVMS_FINDING_PARKING), ==, (gint64) (t->n / 2) * PARK_NS);
}

static void
test_work (void)
{
  Trace small = { 0 }, big = { 0 };
  trace_open (&small, 20);
  trace_open (&big, 2000);

  g_autoptr(JvmsReport) few = report_of (&small, NULL);
  g_autoptr(JvmsReport) many = report_of (&big, NULL);
  check_answer (&small, few);
  check_answer (&big, many);
  g_test_message ("queries: %u for %u threads, %u for %u", few->n_queries, small.n,
                  many->n_queries, big.n);
  /* A hundred times the threads: a few more batches (they double), not a hundred times the
   * queries (six per thread before). */
  g_assert_cmpuint (many->n_queries, <=, few->n_queries + 8);

  /* --thread filters before anything is read: no more work than the small trace. */
  g_autoptr(JvmsReport) one = report_of (&big, "worker-1001");
  g_assert_cmpuint (one->threads->len, ==, 1);
  g_assert_cmpint (lost (one, JVMS_FINDING_PARKING), ==, PARK_NS);
  g_assert_cmpuint (one->n_queries, <=, few->n_queries);

  report_fixture_close (&small.fixture);
  report_fixture_close (&big.fixture);
}

/* A JFR thread that only sleeps holds its folder, name, kind, java-id and user-state (and a
 * park's detail): the attributes of what it never did (monitor, owner, method, allocation rate,
 * pid) are not made. */
static void
test_attributes (void)
{
  Trace t = { 0 };
  trace_open (&t, 1000);
  guint n_attributes = jvms_history_get_n_attributes (t.fixture.history);
  g_test_message ("%u attributes for %u threads", n_attributes, t.n);
  g_assert_cmpuint (n_attributes, <=, 6 * t.n + 64);
  report_fixture_close (&t.fixture);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/many-threads/work", test_work);
  g_test_add_func ("/report/many-threads/attributes", test_attributes);
  return g_test_run ();
}
