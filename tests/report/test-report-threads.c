/* The thread layout of the index read back by its one reader (analysis/jvms-thread-list.h), and
 * the report on threads that have no OS thread id (JDK 21's virtual threads, keyed "v<javaId>").
 * The trace is a JFR file written here byte by byte (jfr-gen.c): JDK 17 cannot record virtual
 * threads. What each thread did is known from the file, so the report's numbers are checked
 * against it: a sleeper's sleeping time is its sleep, a parked thread's parking time its park.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "jvms-report.h"
#include "jvms-states.h"
#include "jvms-thread-list.h"
#include "report-fixture.h"

#define MS G_GINT64_CONSTANT (1000000)

/* Four virtual threads and one platform thread: a sleeper, a parked one, one blocked on a
 * monitor that another virtual thread holds, the holder, and the platform thread sleeping. */
static const JfrGenThread threads[] = {
  { 0, 17, "vsleeper" },
  { 0, 18, "vparker" },
  { 0, 19, "vblocked" },
  { 0, 20, "vholder" },
  { 4242, 21, "platform" },
};
static const char * const classes[] = {
  "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject",
  "app/Account",
};
static const JfrGenEvent events[] = {
  { JFR_GEN_THREAD_START, 0, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 1, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 2, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 3, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 4, 1 * MS, 0, 0, 0 },
  { JFR_GEN_SLEEP, 0, 10 * MS, 50 * MS, 0, 0 },
  { JFR_GEN_PARK, 1, 10 * MS, 30 * MS, 0, 0 },
  { JFR_GEN_MONITOR, 2, 20 * MS, 40 * MS, 1, 4 },
  { JFR_GEN_SLEEP, 4, 20 * MS, 5 * MS, 0, 0 },
  { JFR_GEN_THREAD_END, 0, 90 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 1, 90 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 2, 90 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 3, 90 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 4, 90 * MS, 0, 0, 0 },
};

typedef ReportFixture Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  report_fixture_open (f, threads, G_N_ELEMENTS (threads), events, G_N_ELEMENTS (events),
                       classes, G_N_ELEMENTS (classes));
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  report_fixture_close (f);
}

static void
test_key (void)
{
  gint64 tid = 0;
  g_autofree char *v = jvms_thread_key (-17);
  g_autofree char *p = jvms_thread_key (4242);
  g_assert_cmpstr (v, ==, "v17");
  g_assert_cmpstr (p, ==, "4242");
  g_assert_true (jvms_thread_key_parse ("v17", &tid));
  g_assert_cmpint (tid, ==, -17);
  g_assert_true (jvms_thread_key_parse ("4242", &tid));
  g_assert_cmpint (tid, ==, 4242);
  g_assert_false (jvms_thread_key_parse ("v", &tid));
  g_assert_false (jvms_thread_key_parse ("17x", &tid));
  g_assert_false (jvms_thread_key_parse ("x17", &tid));
  g_assert_false (jvms_thread_key_parse ("", &tid));
}

/* The reader lists every thread with the identity the JFR file gave it. */
static void
test_list (Fixture *f, gconstpointer data)
{
  g_autoptr(JvmsThreadList) list = jvms_thread_list_read (f->history);
  g_assert_cmpuint (jvms_thread_list_get_len (list), ==, G_N_ELEMENTS (threads));
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      gint64 tid = threads[i].os_tid > 0 ? threads[i].os_tid : -threads[i].java_id;
      const JvmsThreadInfo *t = jvms_thread_list_lookup (list, tid);
      g_autofree char *key = jvms_thread_key (tid);
      g_assert_nonnull (t);
      g_assert_cmpstr (t->key, ==, key);
      g_assert_cmpstr (t->name, ==, threads[i].name);
      g_assert_cmpint (t->java_id, ==, threads[i].java_id);
      g_assert_cmpint (t->kind, ==, JVMS_THREAD_KIND_JAVA);
      g_assert_cmpint (t->pid, ==, -1); /* the file names no process */
      g_assert_true (t->user_state != JVMS_ATTRIBUTE_INVALID);
      g_assert_true (t->kernel_state == JVMS_ATTRIBUTE_INVALID); /* no kernel layer */
      g_autofree char *path = g_strdup_printf ("Threads/%s/user-state", key);
      g_assert_cmpuint (t->user_state, ==, jvms_history_lookup (f->history, path));
    }
  g_assert_null (jvms_thread_list_lookup (list, 0));
  g_autoptr(JvmsThreadList) none = jvms_thread_list_read (NULL);
  g_assert_cmpuint (jvms_thread_list_get_len (none), ==, 0);
}

static JsonObject *
finding (JsonObject *report, const char *kind)
{
  JsonArray *findings = json_object_get_array_member (report, "findings");
  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *f = json_array_get_object_element (findings, i);
      if (g_strcmp0 (json_object_get_string_member (f, "kind"), kind) == 0)
        return f;
    }
  return NULL;
}

/* The JSON thread object for @tid in @array, or NULL. */
static JsonObject *
thread_in (JsonArray *array, gint64 tid)
{
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonObject *t = json_array_get_object_element (array, i);
      if (json_object_get_int_member (t, "tid") == tid)
        return t;
    }
  return NULL;
}

static JsonObject *
report_of (Fixture *f, const char *thread, JsonNode **keep)
{
  g_autoptr(GError) error = NULL;
  JvmsReportOptions options = {
    .from = jvms_history_get_start_time (f->history),
    .to = jvms_history_get_end_time (f->history),
    .thread = thread,
  };
  g_autoptr(JvmsReport) report = jvms_report_compute (f->history, &options, &error);
  g_assert_no_error (error);
  g_autofree char *text = jvms_report_to_json (report, f->trace, NULL, NULL);
  *keep = json_from_string (text, &error);
  g_assert_no_error (error);
  return json_node_get_object (*keep);
}

/* Threads without an OS id are analysed and named: each one's time is charged to what the file
 * says it did, under its negative tid. */
static void
test_report_virtual (Fixture *f, gconstpointer data)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *report = report_of (f, NULL, &node);
  JsonArray *analysed = json_object_get_array_member (report, "threads");
  g_assert_cmpuint (json_array_get_length (analysed), ==, G_N_ELEMENTS (threads));
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      gint64 tid = threads[i].os_tid > 0 ? threads[i].os_tid : -threads[i].java_id;
      JsonObject *t = thread_in (analysed, tid);
      g_assert_nonnull (t);
      g_assert_cmpstr (json_object_get_string_member (t, "name"), ==, threads[i].name);
      /* Alive from its start to its end: 89 ms each. */
      g_assert_cmpint (json_object_get_int_member (t, "analysed_ns"), ==, 89 * MS);
    }

  JsonObject *sleeping = finding (report, "sleeping");
  g_assert_nonnull (sleeping);
  g_assert_cmpint (json_object_get_int_member (sleeping, "lost_ns"), ==, 55 * MS);
  JsonObject *sleeper = thread_in (json_object_get_array_member (sleeping, "threads"), -17);
  g_assert_nonnull (sleeper);
  g_assert_cmpstr (json_object_get_string_member (sleeper, "name"), ==, "vsleeper");

  JsonObject *parking = finding (report, "parking");
  g_assert_nonnull (parking);
  g_assert_cmpint (json_object_get_int_member (parking, "lost_ns"), ==, 30 * MS);
  g_assert_nonnull (thread_in (json_object_get_array_member (parking, "threads"), -18));

  /* The monitor names its blocked virtual thread and the virtual thread holding it. */
  JsonObject *contention = finding (report, "monitor-contention");
  g_assert_nonnull (contention);
  g_assert_cmpint (json_object_get_int_member (contention, "lost_ns"), ==, 40 * MS);
  JsonArray *monitors = json_object_get_array_member (json_object_get_object_member (contention, "evidence"),
                                                      "monitors");
  g_assert_cmpuint (json_array_get_length (monitors), ==, 1);
  JsonObject *monitor = json_array_get_object_element (monitors, 0);
  g_assert_cmpstr (json_object_get_string_member (monitor, "class"), ==, "app.Account");
  JsonObject *blocked = thread_in (json_object_get_array_member (monitor, "blocked_threads"), -19);
  JsonObject *holder = thread_in (json_object_get_array_member (monitor, "holders"), -20);
  g_assert_nonnull (blocked);
  g_assert_nonnull (holder);
  g_assert_cmpstr (json_object_get_string_member (blocked, "name"), ==, "vblocked");
  g_assert_cmpstr (json_object_get_string_member (holder, "name"), ==, "vholder");
  g_assert_cmpint (json_object_get_int_member (holder, "ns"), ==, 40 * MS);
}

/* --thread takes a virtual thread's folder name or its name, and nothing else matches. */
static void
test_report_filter (Fixture *f, gconstpointer data)
{
  const char *names[] = { "v18", "vparker" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(JsonNode) node = NULL;
      JsonObject *report = report_of (f, names[i], &node);
      JsonArray *analysed = json_object_get_array_member (report, "threads");
      g_assert_cmpuint (json_array_get_length (analysed), ==, 1);
      g_assert_nonnull (thread_in (analysed, -18));
      g_assert_nonnull (finding (report, "parking"));
      g_assert_null (finding (report, "sleeping"));
    }
}

static const JvmsFinding *
typed_finding (const JvmsReport *report, JvmsFindingKind kind)
{
  for (guint i = 0; i < report->findings->len; i++)
    {
      const JvmsFinding *f = g_ptr_array_index (report->findings, i);
      if (f->kind == kind)
        return f;
    }
  g_error ("the report has no finding of kind %s", jvms_finding_kind_name (kind));
}

/* The typed model the window reads: kinds as an enum, evidence in typed members, and the text
 * report names the threads by folder name (what --thread takes). */
static void
test_report_typed (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  JvmsReportOptions options = {
    .from = jvms_history_get_start_time (f->history),
    .to = jvms_history_get_end_time (f->history),
  };
  g_autoptr(JvmsReport) report = jvms_report_compute (f->history, &options, &error);
  g_assert_no_error (error);
  for (guint i = 1; i < report->findings->len; i++)
    g_assert_cmpint (((JvmsFinding *) g_ptr_array_index (report->findings, i - 1))->lost_ns, >=,
                     ((JvmsFinding *) g_ptr_array_index (report->findings, i))->lost_ns);

  const JvmsFinding *contention = typed_finding (report, JVMS_FINDING_MONITOR_CONTENTION);
  g_assert_cmpuint (contention->evidence.monitors->len, ==, 1);
  const JvmsEvidenceMonitor *m = &g_array_index (contention->evidence.monitors, JvmsEvidenceMonitor, 0);
  g_assert_cmpstr (m->class_name, ==, "app.Account");
  g_assert_cmpint (m->address, ==, 0x7f0100);
  g_assert_cmpuint (m->holders->len, ==, 1);
  g_assert_cmpint (g_array_index (m->holders, JvmsThreadRef, 0).tid, ==, -20);
  g_assert_cmpint (g_array_index (m->holders, JvmsThreadRef, 0).ns, ==, 40 * MS);
  g_assert_null (contention->evidence.items);

  const JvmsFinding *parking = typed_finding (report, JVMS_FINDING_PARKING);
  g_assert_cmpuint (parking->evidence.items->len, ==, 1);
  const JvmsEvidenceItem *wait = &g_array_index (parking->evidence.items, JvmsEvidenceItem, 0);
  g_assert_cmpstr (wait->what, ==, "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject");
  g_assert_cmpint (wait->ns, ==, 30 * MS);
  g_assert_cmpint (g_array_index (wait->threads, JvmsThreadRef, 0).tid, ==, -18);
  g_assert_null (parking->evidence.monitors);

  g_autofree char *text = jvms_report_to_text (report, f->trace);
  g_assert_nonnull (strstr (text, "vsleeper (v17)"));
  g_assert_nonnull (strstr (text, "platform (4242)"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/threads/key", test_key);
  g_test_add ("/report/threads/list", Fixture, NULL, fixture_setup, test_list, fixture_teardown);
  g_test_add ("/report/threads/virtual", Fixture, NULL, fixture_setup, test_report_virtual,
              fixture_teardown);
  g_test_add ("/report/threads/filter", Fixture, NULL, fixture_setup, test_report_filter,
              fixture_teardown);
  g_test_add ("/report/threads/typed", Fixture, NULL, fixture_setup, test_report_typed,
              fixture_teardown);
  return g_test_run ();
}
