/* test-recorder: the recorder as a library object (app/recorder/jvms-recorder.h), driven as a
 * window would drive it: on a main loop that must keep running, through its properties, its
 * stop and its cancellable. Real JVMs (tests/cli/Work.java) and real perf. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jvms-recorder.h"
#include "jvms-recorder-run-private.h"

static char *classes_dir;

static void
rm_rf (const char *path)
{
  g_autofree char *quoted = g_shell_quote (path);
  g_autofree char *cmd = g_strconcat ("rm -rf ", quoted, NULL);
  g_assert_cmpint (system (cmd), ==, 0);
}

typedef struct
{
  GMainLoop *loop;
  GArray *states;              /* JvmsRecorderState, in the order notified */
  guint ticks_while_starting;  /* a 10 ms timer's runs while the recorder was starting */
  gboolean done, ok;
  GError *error;
  GCancellable *cancellable;
  gboolean stop_when_recording, cancel_when_recording;
  guint n_messages;
  gint64 begun_us;             /* before the record call */
  gint64 recording_seen_us;    /* when RECORDING was notified */
  gint64 stopping_seen_us;     /* when STOPPING was notified */
} Run;

static gboolean
on_tick (gpointer data)
{
  JvmsRecorder *recorder = data;
  Run *run = g_object_get_data (G_OBJECT (recorder), "run");
  if (jvms_recorder_get_state (recorder) == JVMS_RECORDER_STATE_STARTING)
    run->ticks_while_starting++;
  return G_SOURCE_CONTINUE;
}

static gboolean
act_when_recording (gpointer data)
{
  JvmsRecorder *recorder = data;
  Run *run = g_object_get_data (G_OBJECT (recorder), "run");
  if (run->stop_when_recording)
    jvms_recorder_stop (recorder, 0);
  if (run->cancel_when_recording)
    g_cancellable_cancel (run->cancellable);
  return G_SOURCE_REMOVE;
}

static void
on_state (GObject *object, GParamSpec *pspec, gpointer data)
{
  Run *run = data;
  JvmsRecorderState state = jvms_recorder_get_state (JVMS_RECORDER (object));
  g_array_append_val (run->states, state);
  if (state == JVMS_RECORDER_STATE_RECORDING)
    run->recording_seen_us = g_get_monotonic_time ();
  if (state == JVMS_RECORDER_STATE_STOPPING)
    run->stopping_seen_us = g_get_monotonic_time ();
  /* One second of recording, then the action under test. */
  if (state == JVMS_RECORDER_STATE_RECORDING && (run->stop_when_recording || run->cancel_when_recording))
    g_timeout_add_full (G_PRIORITY_DEFAULT, 1000, act_when_recording, g_object_ref (object), g_object_unref);
}

static void
on_message (JvmsRecorder *recorder, const char *text, gpointer data)
{
  Run *run = data;
  run->n_messages++;
  g_test_message ("recorder says: %s", text);
}

static void
on_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Run *run = data;
  run->ok = jvms_recorder_record_finish (JVMS_RECORDER (source), result, &run->error);
  run->done = TRUE;
  g_main_loop_quit (run->loop);
}

static void
run_recorder (JvmsRecorder *recorder, Run *run)
{
  run->loop = g_main_loop_new (NULL, FALSE);
  run->states = g_array_new (FALSE, FALSE, sizeof (JvmsRecorderState));
  run->cancellable = g_cancellable_new ();
  g_object_set_data (G_OBJECT (recorder), "run", run);
  g_signal_connect (recorder, "notify::state", G_CALLBACK (on_state), run);
  g_signal_connect (recorder, "message", G_CALLBACK (on_message), run);
  guint tick = g_timeout_add (10, on_tick, recorder);
  run->begun_us = g_get_monotonic_time ();
  jvms_recorder_record_async (recorder, run->cancellable, on_done, run);
  g_main_loop_run (run->loop);
  g_source_remove (tick);
}

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->loop, g_main_loop_unref);
  g_clear_pointer (&run->states, g_array_unref);
  g_clear_object (&run->cancellable);
  g_clear_error (&run->error);
}

static JsonObject *
load_bundle (const char *dir, JsonParser *parser)
{
  g_autofree char *path = g_build_filename (dir, "bundle.json", NULL);
  g_autoptr(GError) error = NULL;
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static guint64
folder_bytes (const char *dir)
{
  guint64 total = 0;
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GStatBuf st;
      if (g_stat (path, &st) == 0)
        total += st.st_size;
    }
  return total;
}

static JvmsRecorder *
work_recorder (const char *out, const char *ms)
{
  JvmsRecorder *recorder = jvms_recorder_new (out);
  const char *argv[] = { "java", "-cp", classes_dir, "Work", ms, NULL };
  jvms_recorder_set_command (recorder, argv);
  return recorder;
}

/* The JVM ends the recording; the states come in order, the main loop ran while the recorder
 * started perf and the JVM, and the properties describe the bundle written. */
static void
test_launch (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("jvmscope-recorder-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (tmp, "l.jvmtrace", NULL);
  g_autoptr(JvmsRecorder) recorder = work_recorder (out, "1500");
  g_assert_cmpint (jvms_recorder_get_state (recorder), ==, JVMS_RECORDER_STATE_READY);
  Run run = { 0 };
  run_recorder (recorder, &run);

  g_assert_no_error (run.error);
  g_assert_true (run.ok);
  JvmsRecorderState expected[] = {
    JVMS_RECORDER_STATE_STARTING, JVMS_RECORDER_STATE_RECORDING, JVMS_RECORDER_STATE_STOPPING,
    JVMS_RECORDER_STATE_FINISHED,
  };
  g_assert_cmpuint (run.states->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpint (g_array_index (run.states, JvmsRecorderState, i), ==, expected[i]);
  /* `java -version`, perf's probe and start are waited for without blocking the loop. */
  g_assert_cmpuint (run.ticks_while_starting, >, 0);
  g_assert_cmpstr (jvms_recorder_get_bundle_path (recorder), ==, out);
  /* Elapsed is the RECORDING stage: it starts once JFR runs (the JVM may have run main
   * for a moment before), so it is bounded by what the test saw, not by Work's 1.5 s. It ends
   * just before STOPPING is notified and starts after the record call. */
  double elapsed = jvms_recorder_get_elapsed (recorder);
  g_assert_cmpfloat (elapsed, >, 0);
  g_assert_cmpint (run.recording_seen_us, >, run.begun_us);
  g_assert_cmpint (run.stopping_seen_us, >, run.recording_seen_us);
  g_assert_cmpfloat (elapsed, <=, (run.stopping_seen_us - run.begun_us) / 1e6);
  /* Reading it again after the end gives the same figure: the clock stopped with the recording. */
  g_assert_cmpfloat (jvms_recorder_get_elapsed (recorder), ==, elapsed);
  g_assert_cmpuint (jvms_recorder_get_bundle_size (recorder), ==, folder_bytes (out));
  g_assert_cmpint (jvms_recorder_get_pid (recorder), >, 0);

  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *bundle = load_bundle (out, parser);
  g_assert_cmpint (json_object_get_int_member (bundle, "pid"), ==, jvms_recorder_get_pid (recorder));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (bundle, "stop"), "reason"), ==,
                   "jvm-exit");
  run_clear (&run);
  rm_rf (tmp);
}

/* A window's Stop button: the JVM writes its recording and the bundle is complete. */
static void
test_stop (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("jvmscope-recorder-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (tmp, "s.jvmtrace", NULL);
  g_autoptr(JvmsRecorder) recorder = work_recorder (out, "0");
  Run run = { .stop_when_recording = TRUE };
  run_recorder (recorder, &run);
  g_assert_no_error (run.error);
  g_assert_true (run.ok);
  g_assert_cmpint (jvms_recorder_get_state (recorder), ==, JVMS_RECORDER_STATE_FINISHED);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *bundle = load_bundle (out, parser);
  JsonObject *stop = json_object_get_object_member (bundle, "stop");
  g_assert_cmpstr (json_object_get_string_member (stop, "reason"), ==, "request");
  g_autofree char *jfr = g_build_filename (out, "recording.jfr", NULL);
  g_assert_true (g_file_test (jfr, G_FILE_TEST_IS_REGULAR));
  run_clear (&run);
  rm_rf (tmp);
}

/* Cancelling: the JVM is killed, the call fails with CANCELLED and nothing is left behind. */
static void
test_cancel (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("jvmscope-recorder-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (tmp, "c.jvmtrace", NULL);
  g_autoptr(JvmsRecorder) recorder = work_recorder (out, "0");
  Run run = { .cancel_when_recording = TRUE };
  run_recorder (recorder, &run);
  g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (run.ok);
  g_assert_cmpint (jvms_recorder_get_state (recorder), ==, JVMS_RECORDER_STATE_FAILED);
  g_assert_null (jvms_recorder_get_bundle_path (recorder));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  GPid pid = jvms_recorder_get_pid (recorder);
  g_assert_cmpint (pid, >, 0);
  g_autofree char *proc = g_strdup_printf ("/proc/%d", (int) pid);
  g_assert_false (g_file_test (proc, G_FILE_TEST_EXISTS));
  run_clear (&run);
  g_rmdir (tmp);
}

/* A process that is no JVM: refused before anything is created or sent to it (jcmd's attach
 * handshake is a SIGQUIT, which would kill it). */
static void
test_not_a_jvm (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("jvmscope-recorder-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (tmp, "n.jvmtrace", NULL);
  const char *argv[] = { "sleep", "600", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) sleeper = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_NONE, &error);
  g_assert_no_error (error);
  GPid pid = (GPid) g_ascii_strtoll (g_subprocess_get_identifier (sleeper), NULL, 10);

  g_autoptr(JvmsRecorder) recorder = jvms_recorder_new (out);
  jvms_recorder_set_pid (recorder, pid);
  g_assert_true (jvms_recorder_set_duration (recorder, 2));
  Run run = { 0 };
  run_recorder (recorder, &run);
  g_assert_false (run.ok);
  g_assert_nonnull (run.error);
  g_assert_nonnull (strstr (run.error->message, "not a Java virtual machine"));
  g_assert_cmpint (jvms_recorder_get_state (recorder), ==, JVMS_RECORDER_STATE_FAILED);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  /* Never attached to: never asked anything, still sleeping. */
  g_autofree char *proc = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  g_assert_true (g_file_get_contents (proc, &stat, NULL, NULL));
  const char *state = strrchr (stat, ')');
  g_assert_nonnull (state);
  g_assert_null (strchr ("ZX", state[2]));
  g_subprocess_force_exit (sleeper);
  g_subprocess_wait (sleeper, NULL, NULL);
  run_clear (&run);
  g_rmdir (tmp);
}

/* Durations that are not numbers of seconds change nothing. */
static void
test_duration (void)
{
  g_autoptr(JvmsRecorder) recorder = jvms_recorder_new ("/nonexistent/x.jvmtrace");
  g_assert_true (jvms_recorder_set_duration (recorder, 2.5));
  g_assert_false (jvms_recorder_set_duration (recorder, INFINITY));
  g_assert_false (jvms_recorder_set_duration (recorder, NAN));
  g_assert_false (jvms_recorder_set_duration (recorder, -1));
  g_assert_false (jvms_recorder_set_duration (recorder, JVMS_RECORDER_MAX_DURATION_S * 2));
  g_assert_true (jvms_recorder_set_duration (recorder, 0));
}

/* A helper that exits at once (a perf that is refused) can be reaped by GLib's worker thread
 * before its spawner reads its id: the id is then 0, never a crash (it was a SIGSEGV in
 * record-window-faults, the id read as NULL). */
static void
test_pid_of_reaped (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) quick = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, "true", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait (quick, NULL, &error));
  g_assert_cmpint (jvms_subprocess_pid (quick), ==, 0);

  g_autoptr(GSubprocess) slow = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, "sleep", "30", NULL);
  g_assert_no_error (error);
  GPid pid = jvms_subprocess_pid (slow);
  g_autofree char *proc = g_strdup_printf ("/proc/%d/cmdline", (int) pid);
  g_autofree char *cmdline = NULL;
  g_assert_cmpint (pid, >, 0);
  g_assert_true (g_file_get_contents (proc, &cmdline, NULL, NULL));
  g_assert_cmpstr (cmdline, ==, "sleep");
  g_subprocess_force_exit (slow);
  g_assert_true (g_subprocess_wait (slow, NULL, NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autofree char *tmp = g_dir_make_tmp ("jvmscope-recorder-classes-XXXXXX", NULL);
  classes_dir = g_build_filename (tmp, "classes", NULL);
  const char *javac[] = { "javac", "-d", classes_dir, WORK_JAVA, NULL };
  int status = 0;
  g_autoptr(GError) error = NULL;
  if (!g_spawn_sync (NULL, (char **) javac, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("javac %s: %s", WORK_JAVA, error->message);

  g_test_add_func ("/recorder/duration", test_duration);
  g_test_add_func ("/recorder/pid-of-reaped", test_pid_of_reaped);
  g_test_add_func ("/recorder/not-a-jvm", test_not_a_jvm);
  g_test_add_func ("/recorder/launch", test_launch);
  g_test_add_func ("/recorder/stop", test_stop);
  g_test_add_func ("/recorder/cancel", test_cancel);
  int result = g_test_run ();
  rm_rf (tmp);
  g_free (classes_dir);
  return result;
}
