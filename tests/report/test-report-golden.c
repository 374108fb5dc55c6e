/* The report's JSON and text, byte for byte, against files written by `jvmscope-cli analyze`
 * before the report became a typed model (golden/, made by the commit that added this test with
 * the command line of the commit before it). The trace is written byte by byte (jfr-gen.c), so
 * its report never changes unless the report does: a member renamed or moved, a number or an
 * order changed (ties of equal times included) fails here. Members added since (issue 20: a
 * monitor's holder_states, preempted_by, holder_stacks, every holder's intervals; issue 18:
 * every finding's stacks, stacks_kinds, stacks_unit) were added to the files by the command line that added them, and
 * the diff was additions only (and the commas before them).
 *
 * `test-report-golden --write-trace PATH` writes the trace alone, to make the golden files:
 *   cd DIR && test-report-golden --write-trace trace.jfr &&
 *   jvmscope-cli analyze trace.jfr --json --cache-dir cache > full.json (and so on, see cases[])
 */
#include "config.h"

#include <string.h>

#include "jvms-report.h"
#include "report-fixture.h"

#define MS G_GINT64_CONSTANT (1000000)

/* Platform threads (the command line before the typed model could not name others): sleepers,
 * parkers on two classes, tellers blocked on a monitor that each of them holds in turn, equal
 * times to test the order of ties. */
static const JfrGenThread threads[] = {
  { 101, 1, "main" },
  { 102, 2, "sleeper-0" },
  { 103, 3, "sleeper-1" },
  { 104, 4, "parker-0" },
  { 105, 5, "parker-1" },
  { 106, 6, "teller-0" },
  { 107, 7, "teller-1" },
  { 108, 8, "teller-2" },
};
static const char * const classes[] = {
  "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject",
  "java/util/concurrent/locks/ReentrantLock$NonfairSync",
  "app/Account",
};
static const JfrGenEvent events[] = {
  { JFR_GEN_THREAD_START, 0, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 1, 2 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 2, 2 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 3, 3 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 4, 3 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 5, 4 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 6, 4 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 7, 4 * MS, 0, 0, 0 },
  { JFR_GEN_SLEEP, 1, 10 * MS, 30 * MS, 0, 0 },
  { JFR_GEN_SLEEP, 2, 10 * MS, 30 * MS, 0, 0 },
  { JFR_GEN_PARK, 3, 12 * MS, 20 * MS, 0, 0 },
  { JFR_GEN_PARK, 4, 12 * MS, 20 * MS, 1, 0 },
  { JFR_GEN_MONITOR, 6, 15 * MS, 10 * MS, 2, 6 },
  { JFR_GEN_MONITOR, 7, 15 * MS, 10 * MS, 2, 6 },
  { JFR_GEN_MONITOR, 5, 30 * MS, 5 * MS, 2, 7 },
  { JFR_GEN_MONITOR, 7, 30 * MS, 5 * MS, 2, 7 },
  { JFR_GEN_SLEEP, 0, 40 * MS, 25 * MS, 0, 0 },
  { JFR_GEN_PARK, 3, 50 * MS, 10 * MS, 1, 0 },
  { JFR_GEN_THREAD_END, 1, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 2, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 3, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 4, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 5, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 6, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 7, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 0, 90 * MS, 0, 0, 0 },
};

typedef struct
{
  const char *name;   /* golden/<name>.json and .txt */
  gint64      from;   /* offsets from the trace start; -1: the bound of the history */
  gint64      to;
  const char *thread;
} Case;

/* The command lines that wrote them: analyze trace.jfr [--from 0.02 --to 0.06] [--thread T]. */
static const Case cases[] = {
  { "full", -1, -1, NULL },
  { "range", 20 * MS, 60 * MS, NULL },
  { "thread", -1, -1, "teller-1" },
};

static char *
golden (const char *name, const char *ext)
{
  g_autofree char *file = g_strconcat (name, ext, NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "golden", file, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static void
test_golden (void)
{
  ReportFixture f = { 0 };
  report_fixture_open (&f, threads, G_N_ELEMENTS (threads), events, G_N_ELEMENTS (events),
                       classes, G_N_ELEMENTS (classes));
  gint64 start = jvms_history_get_start_time (f.history);
  g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (f.index);
  g_auto(GStrv) notes = jvms_trace_index_dup_notes (f.index);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      JvmsReportOptions options = {
        .from = c->from >= 0 ? start + c->from : start,
        .to = c->to >= 0 ? start + c->to : jvms_history_get_end_time (f.history),
        .thread = c->thread,
        .samples_path = jvms_trace_index_get_samples_path (f.index),
      };
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsReport) report = jvms_report_compute (f.history, &options, &error);
      g_assert_no_error (error);
      g_autofree char *json = jvms_report_to_json (report, "trace.jfr",
                                                   (const char * const *) warnings,
                                                   (const char * const *) notes);
      g_autofree char *json_line = g_strconcat (json, "\n", NULL);
      g_autofree char *text = jvms_report_to_text (report, "trace.jfr");
      g_autofree char *expected_json = golden (c->name, ".json");
      g_autofree char *expected_text = golden (c->name, ".txt");
      g_test_message ("case %s", c->name);
      g_assert_cmpstr (json_line, ==, expected_json);
      g_assert_cmpstr (text, ==, expected_text);
    }
  report_fixture_close (&f);
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--write-trace") == 0)
    {
      jfr_gen_write (argv[2], threads, G_N_ELEMENTS (threads), events, G_N_ELEMENTS (events),
                     classes, G_N_ELEMENTS (classes));
      return 0;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/golden/json-and-text", test_golden);
  return g_test_run ();
}
