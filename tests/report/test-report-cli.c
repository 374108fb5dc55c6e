/* jvmscope-cli analyze's input and output (issue 28: 11, 12, 17), run as a user runs it
 * ($JVMS_CLI) on JFR files written byte by byte (jfr-gen.c):
 * - --from/--to of every command that takes them accept only times, and name the option when
 *   they refuse one (exit 2); a reversed range is refused;
 * - --thread naming no thread says so (exit 2), instead of reporting an empty range;
 * - --evidence N lists N items of evidence per finding (here: the classes parked on), and
 *   refuses a count out of 1..1000 (exit 2);
 * - control characters of trace strings never reach the terminal in the text;
 * - a trace path that is not UTF-8 leaves the JSON of analyze, summary and index valid. */
#include "config.h"

#include <glib/gstdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "report-fixture.h"

#define MS G_GINT64_CONSTANT (1000000)

typedef struct
{
  int   status;
  char *out;
  char *err;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* jvmscope-cli COMMAND TRACE --cache-dir CACHE ARGS... (summary reads no index: no cache). */
static void
cli (Run *r, const char *command, const ReportFixture *f, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) g_getenv ("JVMS_CLI"));
  g_ptr_array_add (argv, (char *) command);
  g_ptr_array_add (argv, f->trace);
  if (strcmp (command, "summary") != 0)
    {
      g_ptr_array_add (argv, "--cache-dir");
      g_ptr_array_add (argv, f->cache);
    }
  va_list ap;
  va_start (ap, f);
  for (const char *a; (a = va_arg (ap, const char *)) != NULL;)
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_autoptr(GError) error = NULL;
  int wait_status = 0;
  *r = (Run) { 0 };
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &r->out, &r->err,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r->status = WEXITSTATUS (wait_status);
}

static const JfrGenThread plain_threads[] = {
  { 4001, 1, "main" },
  { 4002, 2, "sleeper" },
};
static const char * const plain_classes[] = { "java/lang/Object" };
static const JfrGenEvent plain_events[] = {
  { JFR_GEN_THREAD_START, 0, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 1, 1 * MS, 0, 0, 0 },
  { JFR_GEN_SLEEP, 1, 10 * MS, 40 * MS, 0, 0 },
  { JFR_GEN_THREAD_END, 1, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 0, 90 * MS, 0, 0, 0 },
};

static void
open_plain (ReportFixture *f)
{
  report_fixture_open (f, plain_threads, G_N_ELEMENTS (plain_threads), plain_events,
                       G_N_ELEMENTS (plain_events), plain_classes, G_N_ELEMENTS (plain_classes));
}

static JsonObject *
parse (const char *text, JsonNode **keep)
{
  g_autoptr(GError) error = NULL;
  g_assert_true (g_utf8_validate (text, -1, NULL));
  *keep = json_from_string (text, &error);
  g_assert_no_error (error);
  return json_node_get_object (*keep);
}

static void
test_time_arguments (void)
{
  ReportFixture f = { 0 };
  open_plain (&f);
  /* Not times: analysed as the whole trace, an empty one or 2 s before. */
  static const char * const bad[] = {
    "1e20", "nan", "inf", "-inf", "-1", "+1", "0x2", "", "1..2", "5 ms", "5m", "1e3ms",
    "99999999999999999999", "9223372036.854775808", "\xff",
  };
  static const char * const commands[] = { "analyze", "profile" };
  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      for (guint o = 0; o < 2; o++)
        {
          const char *option = o == 0 ? "--from" : "--to";
          g_auto(Run) r = { 0 };
          cli (&r, commands[c], &f, option, bad[i], NULL);
          g_test_message ("%s %s [%s]: %d %s", commands[c], option, bad[i], r.status, r.err);
          g_assert_cmpint (r.status, ==, 2);
          g_autofree char *named = g_strconcat (option, ":", NULL);
          g_assert_nonnull (strstr (r.err, named));
          g_assert_true (g_utf8_validate (r.err, -1, NULL));
        }
  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      g_auto(Run) r = { 0 };
      cli (&r, commands[c], &f, "--from", "50ms", "--to", "0.02", NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, "--from 50ms is after --to 0.02"));
    }

  /* Times, to the nanosecond (0.000065 s was 64,999 ns through a double). */
  static const struct { const char *from, *to; gint64 from_ns, to_ns; } good[] = {
    { "10ms", "0.05", 10 * MS, 50 * MS },
    { ".01", "50000us", 10 * MS, 50 * MS },
    { "10000000ns", "0.050s", 10 * MS, 50 * MS },
    { "0.000000001", "0.0500000009", 1, 50 * MS },
    { "0.000065", "0.000129s", 65000, 129000 },
    { "0", "0", 0, 0 },
    { "0.01", "1.4", 10 * MS, -1 }, /* -1: held at the trace's end */
  };
  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_auto(Run) r = { 0 };
      g_autoptr(JsonNode) node = NULL;
      cli (&r, "analyze", &f, "--json", "--from", good[i].from, "--to", good[i].to, NULL);
      g_assert_cmpint (r.status, ==, 0);
      JsonObject *range = json_object_get_object_member (parse (r.out, &node), "range");
      g_assert_cmpint (json_object_get_int_member (range, "from_offset_ns"), ==, good[i].from_ns);
      gint64 end = jvms_history_get_end_time (f.history) - jvms_history_get_start_time (f.history);
      g_assert_cmpint (json_object_get_int_member (range, "to_offset_ns"), ==,
                       good[i].to_ns >= 0 ? good[i].to_ns : end);
    }
  report_fixture_close (&f);
}

static const JfrGenThread parked_threads[] = {
  { 4001, 1, "main" },
  { 4002, 2, "parked-a" },
  { 4003, 3, "parked-b" },
  { 4004, 4, "parked-c" },
};
static const char * const parked_classes[] = {
  "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject",
  "java/util/concurrent/CountDownLatch$Sync",
  "java/util/concurrent/FutureTask",
};
static const JfrGenEvent parked_events[] = {
  { JFR_GEN_THREAD_START, 0, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 1, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 2, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 3, 1 * MS, 0, 0, 0 },
  { JFR_GEN_PARK, 1, 10 * MS, 40 * MS, 0, 0 },
  { JFR_GEN_PARK, 2, 10 * MS, 30 * MS, 1, 0 },
  { JFR_GEN_PARK, 3, 10 * MS, 20 * MS, 2, 0 },
  { JFR_GEN_THREAD_END, 1, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 2, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 3, 80 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 0, 90 * MS, 0, 0, 0 },
};

/* The items of evidence ("waits": what was parked on) the parking finding lists, or -1 without
 * such a finding. */
static gint
parking_waits (const char *json)
{
  g_autoptr(JsonNode) node = NULL;
  JsonArray *findings = json_object_get_array_member (parse (json, &node), "findings");
  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *finding = json_array_get_object_element (findings, i);
      if (g_strcmp0 (json_object_get_string_member (finding, "kind"), "parking") == 0)
        return (gint) json_array_get_length (
          json_object_get_array_member (json_object_get_object_member (finding, "evidence"), "waits"));
    }
  return -1;
}

static void
test_evidence (void)
{
  ReportFixture f = { 0 };
  report_fixture_open (&f, parked_threads, G_N_ELEMENTS (parked_threads), parked_events,
                       G_N_ELEMENTS (parked_events), parked_classes, G_N_ELEMENTS (parked_classes));
  static const struct { const char *n; gint waits; } counts[] = {
    { NULL, 3 }, { "1", 1 }, { "2", 2 }, { "1000", 3 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_auto(Run) r = { 0 };
      if (counts[i].n != NULL)
        cli (&r, "analyze", &f, "--json", "--evidence", counts[i].n, NULL);
      else
        cli (&r, "analyze", &f, "--json", NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpint (parking_waits (r.out), ==, counts[i].waits);
    }
  static const char * const bad[] = { "-1", "1001", "2147483647" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_auto(Run) r = { 0 };
      cli (&r, "analyze", &f, "--evidence", bad[i], NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, "--evidence"));
    }
  report_fixture_close (&f);
}

static void
test_no_such_thread (void)
{
  ReportFixture f = { 0 };
  open_plain (&f);
  {
    g_auto(Run) r = { 0 };
    cli (&r, "analyze", &f, "--thread", "nobody", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "no such thread: nobody"));
    g_assert_cmpstr (r.out, ==, "");
  }
  {
    g_auto(Run) r = { 0 };
    cli (&r, "analyze", &f, "--thread", "4002", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "sleeper (4002)"));
  }
  {
    /* A thread with no time in the range is still a thread. */
    g_auto(Run) r = { 0 };
    cli (&r, "analyze", &f, "--thread", "sleeper", "--from", "85ms", NULL);
    g_assert_cmpint (r.status, ==, 0);
  }
  report_fixture_close (&f);
}

/* A thread name that would set the terminal's title and ring its bell, a class name that would
 * clear the screen, a C1 control (U+009B, CSI to some terminals). */
static const JfrGenThread evil_threads[] = {
  { 5001, 1, "evil\x1b]0;owned\x07" "name" },
  { 5002, 2, "holder\xc2\x9b" "31m" },
};
static const char * const evil_classes[] = { "app/Bad\x1b[2J" "Class" };
static const JfrGenEvent evil_events[] = {
  { JFR_GEN_THREAD_START, 0, 1 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_START, 1, 1 * MS, 0, 0, 0 },
  { JFR_GEN_MONITOR, 0, 10 * MS, 30 * MS, 0, 2 },
  { JFR_GEN_THREAD_END, 0, 90 * MS, 0, 0, 0 },
  { JFR_GEN_THREAD_END, 1, 90 * MS, 0, 0, 0 },
};

static void
test_control_characters (void)
{
  ReportFixture f = { 0 };
  report_fixture_open (&f, evil_threads, G_N_ELEMENTS (evil_threads), evil_events,
                       G_N_ELEMENTS (evil_events), evil_classes, G_N_ELEMENTS (evil_classes));
  g_auto(Run) r = { 0 };
  cli (&r, "analyze", &f, NULL);
  g_assert_cmpint (r.status, ==, 0);
  for (const char *p = r.out; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      g_assert_true (c == '\n' || (c >= 0x20 && c != 0x7f && (c < 0x80 || c > 0x9f)));
    }
  g_assert_nonnull (strstr (r.out, "evil\\x1b]0;owned\\x07name (5001)"));
  g_assert_nonnull (strstr (r.out, "app.Bad\\x1b[2JClass"));
  g_assert_nonnull (strstr (r.out, "holder\\u009b31m"));

  /* events lists the thread's name and the monitor's class in its text: escaped too. */
  g_auto(Run) e = { 0 };
  cli (&e, "events", &f, NULL);
  g_assert_cmpint (e.status, ==, 0);
  g_assert_null (strchr (e.out, '\x1b'));
  g_assert_null (strchr (e.out, '\x07'));
  g_assert_nonnull (strstr (e.out, "evil\\x1b]0;owned\\x07name"));

  /* summary names the file: a file name that would clear the screen is shown escaped. */
  g_autofree char *dir = g_path_get_dirname (f.trace);
  g_autofree char *evil_path = g_build_filename (dir, "bad\x1b[2J\x07name.jfr", NULL);
  g_assert_cmpint (symlink (f.trace, evil_path), ==, 0);
  char *trace = f.trace;
  f.trace = evil_path;
  g_auto(Run) s = { 0 };
  cli (&s, "summary", &f, NULL);
  f.trace = trace;
  g_unlink (evil_path);
  g_assert_cmpint (s.status, ==, 0);
  g_assert_null (strchr (s.out, '\x1b'));
  g_assert_null (strchr (s.out, '\x07'));
  g_assert_nonnull (strstr (s.out, "bad\\x1b[2J\\x07name.jfr"));

  /* The JSON keeps the names as they are: JSON escapes them. */
  g_auto(Run) j = { 0 };
  g_autoptr(JsonNode) node = NULL;
  cli (&j, "analyze", &f, "--json", NULL);
  g_assert_cmpint (j.status, ==, 0);
  g_assert_null (strchr (j.out, '\x1b'));
  JsonArray *threads = json_object_get_array_member (parse (j.out, &node), "threads");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (threads, 0), "name"),
                   ==, evil_threads[0].name);
  report_fixture_close (&f);
}

/* The trace in a folder whose name is Latin-1, not UTF-8 ("été"). */
static void
test_non_utf8_path (void)
{
  ReportFixture f = { 0 };
  open_plain (&f);
  g_autofree char *folder = g_build_filename (f.dir, "\xe9t\xe9", NULL);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_autofree char *trace = g_build_filename (folder, "trace.jfr", NULL);
  g_assert_cmpint (g_rename (f.trace, trace), ==, 0);
  g_free (f.trace);
  f.trace = g_strdup (trace);

  g_auto(Run) r = { 0 };
  g_autoptr(JsonNode) node = NULL;
  cli (&r, "analyze", &f, "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  JsonObject *report = parse (r.out, &node);
  g_autofree char *display = g_filename_display_name (trace);
  g_assert_cmpstr (json_object_get_string_member (report, "trace"), ==, display);

  /* Every command's JSON: the trace under its display name. */
  static const struct { const char *command, *member; } others[] = {
    { "summary", "file" }, { "index", "trace" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      g_auto(Run) o = { 0 };
      g_autoptr(JsonNode) other = NULL;
      cli (&o, others[i].command, &f, "--json", NULL);
      g_assert_cmpint (o.status, ==, 0);
      g_assert_cmpstr (json_object_get_string_member (parse (o.out, &other), others[i].member), ==,
                       display);
    }

  g_auto(Run) t = { 0 };
  cli (&t, "analyze", &f, NULL);
  g_assert_cmpint (t.status, ==, 0);
  g_assert_true (g_utf8_validate (t.out, -1, NULL));
  g_assert_true (g_utf8_validate (t.err, -1, NULL));
  report_fixture_close (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_nonnull (g_getenv ("JVMS_CLI"));
  g_test_add_func ("/report/cli/time-arguments", test_time_arguments);
  g_test_add_func ("/report/cli/no-such-thread", test_no_such_thread);
  g_test_add_func ("/report/cli/evidence", test_evidence);
  g_test_add_func ("/report/cli/control-characters", test_control_characters);
  g_test_add_func ("/report/cli/non-utf8-path", test_non_utf8_path);
  return g_test_run ();
}
