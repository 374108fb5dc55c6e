/* jvms-recorder.c: one recording, from probing perf to bundle.json, as a chain of asynchronous
 * steps on the caller's main context:
 *
 *   record_async ─ out folder, settings ─ (attach: is it a JVM?) ─ (launch: java -version)
 *     ─ perf probe ─ cgroup ─ perf start (waits for "ack") ─ launch the JVM | jcmd JFR.start
 *     ─ RECORDING: the JVM exits | duration | stop | the attached JVM goes away
 *     ─ STOPPING: the JVM writes recording.jfr (exit, or JFR.stop / JFR's own duration)
 *     ─ perf stop ∥ jcmd VM.log off ─ bundle.json ─ FINISHED
 *
 * Each step either moves on or ends the recording through finish(); docs/recording.md says why
 * each step is there. */
#include "config.h"

#include "jvms-recorder.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "jvms-recorder-bundle-private.h"
#include "jvms-recorder-cgroup-private.h"
#include "jvms-recorder-clock-private.h"
#include "jvms-recorder-jvm-private.h"
#include "jvms-recorder-perf-private.h"
#include "jvms-recorder-run-private.h"

/* jcmd attaches (a JVM's attach listener can take seconds to start on a loaded machine) and
 * runs one command; more than this and the JVM is not answering. */
#define JCMD_TIMEOUT_S 30
#define JAVA_VERSION_TIMEOUT_S 60
/* A launched JVM can take seconds to start on a busy machine, and a JVM stopped before JFR
 * records writes nothing: --duration counts from the moment the recording runs. */
#define JFR_WAIT_POLL_MS 100
#define JFR_WAIT_GIVE_UP_MS 60000
/* Attach mode: how often to look whether JFR has written the file once its duration is over,
 * and how long to wait for it before asking with JFR.stop. */
#define JFR_FILE_POLL_MS 50
#define JFR_FILE_GIVE_UP_MS 30000
#define ATTACHED_WATCH_MS 200

struct _JvmsRecorder
{
  GObject parent_instance;

  JvmsRecording rec;             /* the options, and what bundle.json will say */
  JvmsRecorderState state;
  GTask *task;
  GMainContext *context;
  GCancellable *cancellable;     /* the caller's */
  gulong cancelled_id;
  GCancellable *probes;          /* ends the start-up helpers (java -version, perf probe) */

  JvmsCgroup *cgroup;
  JvmsPerfSession *perf;
  gboolean perf_without_group;   /* the perf starting or started records a plain sched_switch */
  char *group_refused;           /* what perf said when it refused the counter group, or NULL */
  GSubprocess *jvm;              /* launch mode */
  gboolean started;              /* the JVM runs (launched, or JFR started in it) */
  gboolean jvm_exited;
  gboolean stopping;
  gboolean cancelled;
  gboolean prepared;              /* the out folder was empty or made by us: its files are ours */
  gboolean created_dir;
  gboolean jfr_done;             /* attach: JFR ended by its own duration and wrote the file */
  gboolean finishing;
  GError *failure;               /* why the recording could not start */

  char *jfr_name;                /* attach mode: the recording's name in the JVM */
  char *cwd;                     /* launch mode: the JVM's working folder; NULL: ours */
  char *tmpdir;                  /* attach mode: jcmd's command files */
  GSource *duration_timer, *jfr_wait_timer, *watch, *tick, *jfr_poll;
  guint jfr_wait_ms, jfr_poll_ms;
  goffset jfr_last_size;
  guint pending;                 /* end steps still running (perf stop, VM.log off) */

  gint64 recording_start_us, recording_end_us;
  guint64 bundle_size;
  char *bundle_path;
};

enum
{
  PROP_0,
  PROP_STATE,
  PROP_ELAPSED,
  PROP_BUNDLE_SIZE,
  PROP_BUNDLE_PATH,
  N_PROPS
};

enum
{
  SIGNAL_MESSAGE,
  SIGNAL_ACCOUNT,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (JvmsRecorder, jvms_recorder, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (JvmsRecorderState, jvms_recorder_state,
  G_DEFINE_ENUM_VALUE (JVMS_RECORDER_STATE_READY, "ready"),
  G_DEFINE_ENUM_VALUE (JVMS_RECORDER_STATE_STARTING, "starting"),
  G_DEFINE_ENUM_VALUE (JVMS_RECORDER_STATE_RECORDING, "recording"),
  G_DEFINE_ENUM_VALUE (JVMS_RECORDER_STATE_STOPPING, "stopping"),
  G_DEFINE_ENUM_VALUE (JVMS_RECORDER_STATE_FINISHED, "finished"),
  G_DEFINE_ENUM_VALUE (JVMS_RECORDER_STATE_FAILED, "failed"))

static void step_kernel (JvmsRecorder *self);
static void step_start_jvm (JvmsRecorder *self);
static void finish (JvmsRecorder *self);

/* ------------------------------------------------------------------ small helpers */

/* Emits signal @which (SIGNAL_MESSAGE or SIGNAL_ACCOUNT) with the formatted text. */
static void
say (JvmsRecorder *self, guint which, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
say (JvmsRecorder *self, guint which, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *text = g_strdup_vprintf (format, args);
  va_end (args);
  g_signal_emit (self, signals[which], 0, text);
}

static void
set_state (JvmsRecorder *self, JvmsRecorderState state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static GSource *
add_timeout (JvmsRecorder *self, guint ms, GSourceFunc func)
{
  GSource *source = g_timeout_source_new (ms);
  g_source_set_callback (source, func, self, NULL);
  g_source_attach (source, self->context);
  return source;
}

static void
clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

/* The first reason the recording could not start wins: later ones follow from it. */
static void
fail_with (JvmsRecorder *self, GError *error)
{
  if (self->failure == NULL)
    self->failure = error;
  else
    g_error_free (error);
}

static gboolean
process_alive (GPid pid)
{
  /* 0 is "the process's id was never known" (jvms_subprocess_pid), and kill (0, …) would ask
   * our own process group. */
  if (pid <= 0)
    return FALSE;
  if (kill (pid, 0) != 0 && errno != EPERM)
    return FALSE;
  /* A JVM that exited stays a zombie until its parent reaps it: that is not alive. */
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return FALSE;
  const char *paren = strrchr (stat, ')');
  return paren == NULL || (paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X');
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
      if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
        total += st.st_size;
    }
  return total;
}

static void
update_bundle_size (JvmsRecorder *self)
{
  guint64 size = folder_bytes (self->rec.out_dir);
  if (size != self->bundle_size)
    {
      self->bundle_size = size;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUNDLE_SIZE]);
    }
}

static gboolean
on_tick (gpointer data)
{
  JvmsRecorder *self = data;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ELAPSED]);
  update_bundle_size (self);
  return G_SOURCE_CONTINUE;
}

/* The files a recording writes into its folder: removed again when it fails. */
static const char * const bundle_files[] = {
  "recording.jfr", "kernel.perf.data", "kernel.perf.data.old", "jvm-clock.log", "bundle.json",
};

static void
remove_created (JvmsRecorder *self)
{
  if (!self->prepared)
    return;
  for (gsize i = 0; i < G_N_ELEMENTS (bundle_files); i++)
    {
      g_autofree char *path = g_build_filename (self->rec.out_dir, bundle_files[i], NULL);
      g_unlink (path);
    }
  /* Only a folder we made, and only when nothing else was put in it meanwhile. */
  if (self->created_dir)
    g_rmdir (self->rec.out_dir);
}

static gboolean
prepare_out_dir (JvmsRecorder *self, GError **error)
{
  const char *dir = self->rec.out_dir;
  if (g_mkdir (dir, 0755) == 0)
    {
      self->created_dir = self->prepared = TRUE;
      return TRUE;
    }
  int e = errno;
  if (e == EEXIST && g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) d = g_dir_open (dir, 0, error);
      if (d == NULL)
        return FALSE;
      if (g_dir_read_name (d) == NULL)
        return self->prepared = TRUE;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("%s exists and is not empty"), dir);
      return FALSE;
    }
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), _("cannot create %s: %s"), dir, g_strerror (e));
  return FALSE;
}

/* ------------------------------------------------------------------ stopping */

/* Asks the JVM to finish: a launched JVM gets a signal and writes its recording as it exits
 * (JFR dumps on exit); an attached one is left running and JFR.stop ends the recording. */
static void
request_stop (JvmsRecorder *self, JvmsStopReason reason, int sig)
{
  if (!self->stopping)
    {
      self->stopping = TRUE;
      self->rec.stop_reason = reason;
      self->rec.stop_signal = sig;
    }
  if (!self->started || self->finishing)
    return;   /* still starting: the next step sees `stopping` and ends there */
  if (self->jvm != NULL)
    {
      if (!self->jvm_exited)
        g_subprocess_send_signal (self->jvm, sig);
      return;
    }
  finish (self);
}

void
jvms_recorder_stop (JvmsRecorder *self, int signum)
{
  g_return_if_fail (JVMS_IS_RECORDER (self));
  if (self->stopping)
    return;
  if (signum != 0)
    request_stop (self, JVMS_STOP_SIGNAL, signum);
  else
    request_stop (self, JVMS_STOP_REQUEST, SIGTERM);
}

void
jvms_recorder_kill_jvm (JvmsRecorder *self)
{
  g_return_if_fail (JVMS_IS_RECORDER (self));
  if (self->jvm == NULL)
    {
      /* An attached JVM is not ours to kill: its recording is stopped instead. */
      if (!self->stopping)
        request_stop (self, JVMS_STOP_REQUEST, SIGTERM);
      return;
    }
  if (!self->stopping)
    {
      self->stopping = TRUE;
      self->rec.stop_reason = JVMS_STOP_REQUEST;
      self->rec.stop_signal = SIGKILL;
    }
  if (!self->jvm_exited)
    {
      say (self, SIGNAL_MESSAGE, "%s", _("killing the JVM; its recording is lost"));
      g_subprocess_send_signal (self->jvm, SIGKILL);
    }
}

static gboolean
on_cancelled_idle (gpointer data)
{
  JvmsRecorder *self = data;
  self->cancelled = TRUE;
  g_cancellable_cancel (self->probes);
  jvms_recorder_kill_jvm (self);
  return G_SOURCE_REMOVE;
}

static void
on_cancelled (GCancellable *cancellable, gpointer data)
{
  /* The cancellable may be cancelled from any thread; the recording lives on its context. */
  g_main_context_invoke_full (JVMS_RECORDER (data)->context, G_PRIORITY_DEFAULT, on_cancelled_idle,
                              g_object_ref (data), g_object_unref);
}

static gboolean
on_duration (gpointer data)
{
  JvmsRecorder *self = data;
  g_clear_pointer (&self->duration_timer, g_source_unref);
  /* SIGTERM: the polite way to end a JVM, shutdown hooks and JFR's dump included. */
  request_stop (self, JVMS_STOP_DURATION, SIGTERM);
  return G_SOURCE_REMOVE;
}

static void
recording_runs (JvmsRecorder *self)
{
  self->recording_start_us = g_get_monotonic_time ();
  set_state (self, JVMS_RECORDER_STATE_RECORDING);
  self->tick = add_timeout (self, 1000, on_tick);
}

/* A launched JVM records once JFR has started (its sampler thread's line in the clock log):
 * only then is the recording RECORDING, and --duration counts from there. */
static gboolean
wait_for_jfr (gpointer data)
{
  JvmsRecorder *self = data;
  self->jfr_wait_ms += JFR_WAIT_POLL_MS;
  if (!jvms_recorder_jfr_started (self->rec.clock_log_path) && self->jfr_wait_ms < JFR_WAIT_GIVE_UP_MS)
    return G_SOURCE_CONTINUE;
  g_clear_pointer (&self->jfr_wait_timer, g_source_unref);
  recording_runs (self);
  if (self->rec.duration_s > 0)
    self->duration_timer = add_timeout (self, (guint) (self->rec.duration_s * 1000), on_duration);
  return G_SOURCE_REMOVE;
}

/* ------------------------------------------------------------------ launch mode */

static void
on_jvm_exit (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(JvmsRecorder) self = data;
  GSubprocess *p = G_SUBPROCESS (source);
  g_subprocess_wait_finish (p, result, NULL);
  self->jvm_exited = TRUE;
  self->rec.jvm_status_known = TRUE;
  if (g_subprocess_get_if_signaled (p))
    self->rec.jvm_term_signal = g_subprocess_get_term_sig (p);
  else
    self->rec.jvm_exit_status = g_subprocess_get_exit_status (p);
  /* A JVM that ends on its own with a failure (a bad argument, a crash) ends the recording early:
   * the user is told why it is short, beside the JVM's own output. */
  if (!self->stopping && self->rec.jvm_term_signal != 0)
    say (self, SIGNAL_MESSAGE, "the JVM was killed by signal %d (%s); the recording ends there",
             self->rec.jvm_term_signal, g_strsignal (self->rec.jvm_term_signal));
  else if (!self->stopping && self->rec.jvm_exit_status != 0)
    say (self, SIGNAL_MESSAGE, "the JVM exited with status %d (its own output says why); the recording ends there",
             self->rec.jvm_exit_status);
  if (!self->stopping)
    self->rec.stop_reason = JVMS_STOP_JVM_EXIT;
  self->stopping = TRUE;
  finish (self);
}

static gboolean
launch_jvm (JvmsRecorder *self, GError **error)
{
  JvmsRecording *rec = &self->rec;
  g_auto(GStrv) argv = jvms_recorder_java_argv (rec->java_argv, rec->settings, rec->jfr_path,
                                                rec->clock_log_path, rec->include_sensitive, error);
  if (argv == NULL)
    return FALSE;
  /* The JVM stays in the terminal's process group: it reads the terminal like any program, and
   * Ctrl-C reaches it directly as well as through us. */
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  if (self->cgroup != NULL)
    g_subprocess_launcher_set_child_setup (launcher, jvms_cgroup_join_child_setup, self->cgroup, NULL);
  if (self->cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, self->cwd);
  self->jvm = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, error);
  if (self->jvm == NULL)
    return FALSE;
  rec->pid = jvms_subprocess_pid (self->jvm);
  g_subprocess_wait_async (self->jvm, NULL, on_jvm_exit, g_object_ref (self));
  if (self->cgroup != NULL && rec->pid != 0 && !jvms_cgroup_contains (self->cgroup, rec->pid) && process_alive (rec->pid))
    jvms_recording_missing (rec, "system calls and counters of the JVM",
                            "the JVM could not join its cgroup; they were recorded for no thread", NULL);
  return TRUE;
}

/* ------------------------------------------------------------------ attach mode */

static void
add_helper (JvmsRecorder *self, const char *role, const JvmsRunResult *r)
{
  if (r->pid > 0)
    jvms_recording_add_helper (&self->rec, role, r->pid, r->argv, r->start_monotonic_ns, r->end_monotonic_ns);
}

/* jcmd reads several commands from a file and runs them in one attach: one JVM start-up for
 * jcmd instead of one per command (each is about a second on a loaded machine). */
static char **
jcmd_file_argv (JvmsRecorder *self, const char *name, const char * const *lines, GError **error)
{
  g_autofree char *path = g_build_filename (self->tmpdir, name, NULL);
  g_autofree char *text = g_strjoinv ("\n", (char **) lines);
  g_autofree char *with_newline = g_strconcat (text, "\n", NULL);
  if (!g_file_set_contents (path, with_newline, -1, error))
    return NULL;
  const char *args[] = { "-f", path, NULL };
  return jvms_recorder_jcmd_argv (self->rec.pid, args);
}

static gboolean
on_attached_watch (gpointer data)
{
  JvmsRecorder *self = data;
  if (process_alive (self->rec.pid))
    return G_SOURCE_CONTINUE;
  g_clear_pointer (&self->watch, g_source_unref);
  self->jvm_exited = TRUE;
  if (!self->stopping)
    self->rec.stop_reason = JVMS_STOP_JVM_EXIT;
  self->stopping = TRUE;
  finish (self);
  return G_SOURCE_REMOVE;
}

/* JFR ends a recording started with duration= by itself, exactly on time, and writes the
 * file: no jcmd has to start (a second or more) to stop it. The file is taken as written when
 * its chunks are whole and its size held still between two looks. */
static gboolean
on_jfr_poll (gpointer data)
{
  JvmsRecorder *self = data;
  self->jfr_poll_ms += JFR_FILE_POLL_MS;
  JvmsJfrSpan span;
  GStatBuf st;
  goffset size = g_stat (self->rec.jfr_path, &st) == 0 ? st.st_size : -1;
  gboolean whole = size > 0 && size == self->jfr_last_size && jvms_jfr_file_span (self->rec.jfr_path, &span, NULL);
  self->jfr_last_size = size;
  if (!whole && self->jfr_poll_ms < JFR_FILE_GIVE_UP_MS)
    return G_SOURCE_CONTINUE;
  g_clear_pointer (&self->jfr_poll, g_source_unref);
  if (whole)
    {
      self->jfr_done = TRUE;
      self->rec.jfr_written_ns = jvms_clock_monotonic_ns ();
    }
  /* Not written in time: JFR.stop asks for it. */
  request_stop (self, JVMS_STOP_DURATION, SIGTERM);
  return G_SOURCE_REMOVE;
}

static gboolean
on_attach_duration (gpointer data)
{
  JvmsRecorder *self = data;
  g_clear_pointer (&self->duration_timer, g_source_unref);
  if (!self->stopping)
    self->jfr_poll = add_timeout (self, JFR_FILE_POLL_MS, on_jfr_poll);
  return G_SOURCE_REMOVE;
}

static void
on_attached (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(JvmsRecorder) self = data;
  JvmsRecording *rec = &self->rec;
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsRunResult) r = jvms_run_finish (res, &error);
  if (r == NULL)
    {
      g_prefix_error (&error, "%s", _("starting the flight recording: "));
      fail_with (self, g_steal_pointer (&error));
      finish (self);
      return;
    }
  add_helper (self, "attach: jcmd VM.version, VM.log, JFR.start", r);
  rec->jdk_version = jvms_recorder_parse_version (r->output);
  if (rec->jdk_version != NULL)
    {
      /* VM.version's lines only: they end with "JDK <version>"; the other commands follow. */
      const char *jdk = strstr (r->output, "\nJDK ");
      gsize len = jdk != NULL ? (gsize) (jdk - r->output) + 1 + strcspn (jdk + 1, "\n") : strlen (r->output);
      g_autofree char *head = g_strndup (r->output, len);
      rec->jdk_version_full = g_strdup (g_strstrip (head));
    }
  gboolean started = !r->timed_out && r->status == 0 && r->output != NULL
                     && strstr (r->output, "Started recording") != NULL;
  if (!started)
    {
      g_autofree char *said = jvms_run_result_describe (r);
      fail_with (self, g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, _("starting the flight recording: %s"), said));
      finish (self);
      return;
    }
  if (!g_file_test (rec->clock_log_path, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *said = jvms_run_result_describe (r);
      jvms_recording_missing (rec, "clock log", said, NULL);
    }
  self->started = TRUE;
  recording_runs (self);
  self->watch = add_timeout (self, ATTACHED_WATCH_MS, on_attached_watch);
  if (self->stopping)
    finish (self);
  else if (rec->duration_s > 0)
    self->duration_timer = add_timeout (self, (guint) (rec->duration_s * 1000), on_attach_duration);
}

static gboolean
attach_jvm (JvmsRecorder *self, GError **error)
{
  JvmsRecording *rec = &self->rec;
  g_auto(GStrv) jfr = jvms_recorder_jfr_options (rec->settings, rec->jfr_path, rec->include_sensitive, error);
  if (jfr == NULL)
    return FALSE;
  self->tmpdir = g_dir_make_tmp ("jvmscope-jcmd-XXXXXX", error);
  if (self->tmpdir == NULL)
    return FALSE;
  self->jfr_name = g_strdup_printf ("jvmscope-%d", (int) getpid ());

  /* VM.log before JFR.start: JFR.start starts JFR's threads, whose os+thread lines carry the
   * clocks. With a duration, JFR stops the recording itself and writes the file on time. */
  g_autofree char *log = g_strdup_printf ("VM.log output=%s what=os* decorators=timenanos,uptimenanos",
                                          rec->clock_log_path);
  g_autofree char *jfr_joined = g_strjoinv (" ", jfr);
  g_autofree char *duration = rec->duration_s > 0
    ? g_strdup_printf (" duration=%" G_GINT64_FORMAT "ms", (gint64) ceil (rec->duration_s * 1000)) : g_strdup ("");
  g_autofree char *start = g_strdup_printf ("JFR.start name=%s %s%s", self->jfr_name, jfr_joined, duration);
  const char *lines[] = { "VM.version", log, start, NULL };
  g_auto(GStrv) argv = jcmd_file_argv (self, "start", lines, error);
  if (argv == NULL)
    return FALSE;
  jvms_run_async ((const char * const *) argv, JCMD_TIMEOUT_S, NULL, on_attached, g_object_ref (self));
  return TRUE;
}

/* ------------------------------------------------------------------ the end */

static void
end_step_done (JvmsRecorder *self)
{
  g_assert (self->pending > 0);
  if (--self->pending > 0)
    return;

  JvmsRecording *rec = &self->rec;
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  if (self->cancelled)
    {
      remove_created (self);
      set_state (self, JVMS_RECORDER_STATE_FAILED);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("%s: recording cancelled"), rec->out_dir);
      return;
    }
  if (!self->started)
    {
      remove_created (self);
      set_state (self, JVMS_RECORDER_STATE_FAILED);
      if (self->failure == NULL)
        self->failure = g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", _("interrupted before the JVM started"));
      g_task_return_error (task, g_steal_pointer (&self->failure));
      return;
    }

  gboolean have_jfr = g_file_test (rec->jfr_path, G_FILE_TEST_IS_REGULAR);
  if (!have_jfr)
    jvms_recording_missing (rec, "jfr", "the JVM wrote no recording.jfr (killed, or JFR failed to start: see its output)", NULL);
  g_autoptr(GError) error = NULL;
  if (!jvms_recording_write_bundle (rec, &error))
    {
      set_state (self, JVMS_RECORDER_STATE_FAILED);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  self->bundle_path = g_strdup (rec->out_dir);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUNDLE_PATH]);
  update_bundle_size (self);
  set_state (self, JVMS_RECORDER_STATE_FINISHED);
  if (have_jfr)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                             _("%s: the JVM wrote no recording.jfr (killed, or JFR failed to start: see its output)"),
                             rec->out_dir);
}

static void
remove_cgroup (JvmsRecorder *self)
{
  g_autoptr(GError) error = NULL;
  if (self->cgroup != NULL && !jvms_cgroup_remove (self->cgroup, &error))
    say (self, SIGNAL_MESSAGE, "%s", error->message);
  g_clear_pointer (&self->cgroup, jvms_cgroup_free);
}

/* "CPU 0: 12, CPU 1: 3" of the CPUs where @field is not 0. */
static char *
per_cpu_list (const JvmsPerfLosses *l, gsize field)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; l->cpus != NULL && i < l->cpus->len; i++)
    {
      const JvmsPerfCpuLosses *c = &g_array_index (l->cpus, JvmsPerfCpuLosses, i);
      guint64 v = G_STRUCT_MEMBER (guint64, c, field);
      if (v > 0)
        g_string_append_printf (s, "%s%s %u: %" G_GUINT64_FORMAT, s->len ? ", " : "", _("CPU"), i, v);
    }
  return g_string_free (s, FALSE);
}

static gint
by_count_desc (gconstpointer a, gconstpointer b, gpointer table)
{
  guint na = GPOINTER_TO_UINT (g_hash_table_lookup (table, a));
  guint nb = GPOINTER_TO_UINT (g_hash_table_lookup (table, b));
  return na != nb ? (na < nb ? 1 : -1) : g_strcmp0 (a, b);
}

/* "tokio-rt-worker: 84, swapper: 3": whose switch-out was missing, the most first, four at most. */
static char *
switch_gaps_after_list (const JvmsPerfLosses *l)
{
  GString *s = g_string_new (NULL);
  if (l->switch_gaps_after == NULL)
    return g_string_free (s, FALSE);
  g_autoptr(GList) names = g_list_sort_with_data (g_hash_table_get_keys (l->switch_gaps_after), by_count_desc,
                                                  l->switch_gaps_after);
  guint i = 0;
  for (GList *n = names; n != NULL; n = n->next, i++)
    {
      if (i == 4)
        {
          g_string_append (s, ", ...");
          break;
        }
      g_string_append_printf (s, "%s%s: %u", i ? ", " : "", (char *) n->data,
                              GPOINTER_TO_UINT (g_hash_table_lookup (l->switch_gaps_after, n->data)));
    }
  return g_string_free (s, FALSE);
}

/* At the end of every recording with perf: what it lost, and what that means for the index.
 * An account, not a message: it asks nothing of the user, and the trace says it again when
 * opened (the index's notes). */
static void
say_losses (JvmsRecorder *self, const JvmsPerfLosses *l)
{
  /* %llu, not G_GUINT64_FORMAT: xgettext cuts a message at a macro. */
  if (l->total.lost_events > 0 || l->lost_samples > 0)
    {
      g_autofree char *where = per_cpu_list (l, G_STRUCT_OFFSET (JvmsPerfCpuLosses, lost_events));
      say (self, SIGNAL_ACCOUNT, _("perf lost %llu kernel events in %llu gaps (%s): its buffer was full; what ran on those "
                       "CPUs is unknown in the index from each gap to the CPU's next context switch"),
               (unsigned long long) MAX (l->total.lost_events, l->lost_samples),
               (unsigned long long) l->total.lost_records, where);
    }
  if (l->total.switch_gaps == 0)
    {
      say (self, SIGNAL_ACCOUNT, _("perf recorded %llu context switches, none missing"),
               (unsigned long long) l->total.switches);
      return;
    }
  g_autofree char *where = per_cpu_list (l, G_STRUCT_OFFSET (JvmsPerfCpuLosses, switch_gaps));
  g_autofree char *after = switch_gaps_after_list (l);
  if (l->total.switch_gaps_in_lost == 0)
    say (self, SIGNAL_ACCOUNT, _("perf recorded %llu context switches; switches are missing in %llu places (%s), dropped by "
                     "the kernel without a word (the switch out of %s): the index marks the time between the "
                     "switches around each as unknown for the threads involved"),
             (unsigned long long) l->total.switches, (unsigned long long) l->total.switch_gaps, where, after);
  else
    say (self, SIGNAL_ACCOUNT, _("perf recorded %llu context switches; switches are missing in %llu places (%s), %llu of "
                     "them in the gaps above and the rest dropped by the kernel without a word (the switch out "
                     "of %s): the index marks the time between the switches around each as unknown for the "
                     "threads involved"),
             (unsigned long long) l->total.switches, (unsigned long long) l->total.switch_gaps, where,
             (unsigned long long) l->total.switch_gaps_in_lost, after);
}

static void
on_perf_stopped (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(JvmsRecorder) self = data;
  JvmsRecording *rec = &self->rec;
  JvmsPerfSession *perf = self->perf;
  g_autoptr(GError) error = NULL;
  rec->kernel_start_ns = jvms_perf_session_enabled_ns (perf);
  rec->kernel_stop_ns = jvms_perf_session_stopped_ns (perf);
  jvms_recording_add_helper (rec, "kernel recording: perf record", jvms_perf_session_get_pid (perf),
                             jvms_perf_session_get_argv (perf), rec->kernel_start_ns, rec->kernel_stop_ns);
  if (!jvms_perf_session_stop_finish (perf, res, &error))
    {
      jvms_recording_missing (rec, "kernel", error->message, NULL);
      say (self, SIGNAL_MESSAGE, _("kernel recording: %s"), error->message);
    }
  else
    {
      rec->kernel_recorded = TRUE;
      rec->kernel_events = jvms_perf_session_events_json (perf);
      rec->syscall_scope = g_strdup (jvms_perf_session_syscall_scope (perf));
      rec->counters = g_strdup (jvms_perf_session_counters (perf));
      rec->switch_counters = g_strdupv ((char **) jvms_perf_session_switch_counters (perf, &rec->switch_hardware));
      rec->buffer_per_cpu_bytes = jvms_perf_session_buffer_bytes (perf);
      const char *why = NULL;
      const JvmsPerfLosses *losses = jvms_perf_session_losses (perf, &why);
      if (losses != NULL)
        {
          rec->losses = *losses;
          rec->losses.cpus = losses->cpus != NULL ? g_array_ref (losses->cpus) : NULL;
          rec->losses.switch_gaps_after = losses->switch_gaps_after != NULL ? g_hash_table_ref (losses->switch_gaps_after) : NULL;
          rec->losses_known = TRUE;
          say_losses (self, &rec->losses);
        }
      else
        {
          rec->losses_error = g_strdup (why);
          say (self, SIGNAL_MESSAGE, _("what perf lost is not known: %s"), why != NULL ? why : "");
        }
    }
  g_clear_pointer (&self->perf, jvms_perf_session_free);
  remove_cgroup (self);
  end_step_done (self);
}

static void
stop_kernel (JvmsRecorder *self)
{
  JvmsRecording *rec = &self->rec;
  rec->end_monotonic_ns = jvms_clock_monotonic_ns ();
  rec->end_time = g_date_time_new_now_utc ();
  self->pending++;
  if (self->perf != NULL)
    {
      self->pending++;
      jvms_perf_session_stop_async (self->perf, on_perf_stopped, g_object_ref (self));
    }
  else
    {
      g_unlink (rec->perf_data_path);
      remove_cgroup (self);
    }
  rec->mono_minus_real_end = jvms_clock_monotonic_minus_realtime (&rec->bracket_end);
  end_step_done (self);
}

static void
on_log_off (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(JvmsRecorder) self = data;
  g_autoptr(JvmsRunResult) r = jvms_run_finish (res, NULL);
  if (r != NULL)
    add_helper (self, "detach: jcmd VM.log (our log output off)", r);
  end_step_done (self);
}

/* Removes our log output from the attached JVM; runs while perf stops (it is not timed). */
static void
detach_log (JvmsRecorder *self)
{
  g_autofree char *output = g_strconcat ("output=", self->rec.clock_log_path, NULL);
  const char *args[] = { "VM.log", output, "what=all=off", NULL };
  g_auto(GStrv) argv = jvms_recorder_jcmd_argv (self->rec.pid, args);
  self->pending++;
  jvms_run_async ((const char * const *) argv, JCMD_TIMEOUT_S, NULL, on_log_off, g_object_ref (self));
}

static void
on_jfr_stopped (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(JvmsRecorder) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsRunResult) r = jvms_run_finish (res, &error);
  if (r != NULL)
    {
      add_helper (self, "stop: jcmd JFR.stop", r);
      self->rec.jfr_written_ns = r->end_monotonic_ns;
    }
  if (r == NULL || jvms_recorder_jcmd_failed (r->output, r->status) || r->timed_out)
    {
      g_autofree char *said = r != NULL ? jvms_run_result_describe (r) : g_strdup (error->message);
      say (self, SIGNAL_MESSAGE, _("stopping the flight recording: %s"), said);
    }
  if (process_alive (self->rec.pid))
    detach_log (self);
  stop_kernel (self);
}

/* The JVM side has ended (or never started): stop what runs, then write the bundle. */
static void
finish (JvmsRecorder *self)
{
  if (self->finishing)
    return;
  self->finishing = TRUE;
  if (self->recording_start_us != 0)
    self->recording_end_us = g_get_monotonic_time ();
  clear_source (&self->duration_timer);
  clear_source (&self->jfr_wait_timer);
  clear_source (&self->watch);
  clear_source (&self->tick);
  clear_source (&self->jfr_poll);
  set_state (self, JVMS_RECORDER_STATE_STOPPING);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ELAPSED]);

  JvmsRecording *rec = &self->rec;
  if (self->started && rec->attach_pid != 0 && !self->jvm_exited && !self->jfr_done)
    {
      /* JFR.stop writes the file; without it the JVM would go on recording. */
      g_autofree char *name = g_strconcat ("name=", self->jfr_name, NULL);
      const char *args[] = { "JFR.stop", name, NULL };
      g_auto(GStrv) argv = jvms_recorder_jcmd_argv (rec->pid, args);
      jvms_run_async ((const char * const *) argv, JCMD_TIMEOUT_S, NULL, on_jfr_stopped, g_object_ref (self));
      return;
    }
  if (self->started && rec->attach_pid != 0 && !self->jvm_exited)
    detach_log (self);
  stop_kernel (self);
}

/* ------------------------------------------------------------------ the start */

static void
step_start_jvm (JvmsRecorder *self)
{
  JvmsRecording *rec = &self->rec;
  rec->start_time = g_date_time_new_now_utc ();
  rec->start_monotonic_ns = jvms_clock_monotonic_ns ();
  if (self->stopping || self->cancelled)
    {
      if (!self->cancelled)
        say (self, SIGNAL_MESSAGE, "%s", _("interrupted before the JVM started"));
      finish (self);
      return;
    }

  g_autoptr(GError) error = NULL;
  if (rec->attach_pid != 0)
    {
      if (!attach_jvm (self, &error))
        {
          fail_with (self, g_steal_pointer (&error));
          finish (self);
        }
      return;
    }
  if (!launch_jvm (self, &error))
    {
      g_prefix_error (&error, "%s", _("starting the JVM: "));
      fail_with (self, g_steal_pointer (&error));
      finish (self);
      return;
    }
  self->started = TRUE;
  self->jfr_wait_timer = add_timeout (self, JFR_WAIT_POLL_MS, wait_for_jfr);
}

/* Why perf could not record, in words for the user, and what would allow it. */
static void
explain_perf_failure (JvmsRecorder *self, const char *perf_said)
{
  gboolean permission = strstr (perf_said, "ermission") != NULL || strstr (perf_said, "paranoid") != NULL
                        || strstr (perf_said, "Access to performance monitoring") != NULL;
  gboolean tracefs = strstr (perf_said, "tracefs") != NULL || strstr (perf_said, "debugfs") != NULL
                     || strstr (perf_said, "trace events") != NULL;
  g_autofree char *reason = g_strdup_printf ("perf record refused to start: %s", perf_said);
  const char *how = NULL;
  if (permission || tracefs)
    how = "run as root, or allow system-wide tracing for everyone: "
          "sudo sysctl kernel.perf_event_paranoid=-1 "
          "(and, if perf cannot read trace events, sudo mount -o remount,mode=755 /sys/kernel/tracing)";
  jvms_recording_missing (&self->rec, "kernel", reason, how);
  g_autoptr(GString) text = g_string_new (_("kernel events are not recorded: perf record refused to start."));
  g_string_append_printf (text, "\n  %s", perf_said);
  if (how != NULL)
    g_string_append_printf (text, "\n%s", _("  To allow it: run as root, or: sudo sysctl kernel.perf_event_paranoid=-1"));
  say (self, SIGNAL_MESSAGE, "%s", text->str);
}

static void on_perf_started (GObject *source, GAsyncResult *res, gpointer data);

static void
start_perf (JvmsRecorder *self, gboolean no_switch_counters)
{
  JvmsRecording *rec = &self->rec;
  g_autoptr(GArray) tids = NULL;
  if (rec->attach_pid != 0)
    tids = jvms_recorder_list_tids (rec->attach_pid);
  JvmsPerfConfig config = {
    .perf_path = rec->probe.perf_path,
    .output = rec->perf_data_path,
    .cgroup = self->cgroup != NULL ? jvms_cgroup_perf_name (self->cgroup) : NULL,
    .syscall_tids = tids != NULL ? (const GPid *) tids->data : NULL,
    .n_syscall_tids = tids != NULL ? tids->len : 0,
    .hw_counters = rec->probe.hw_counters,
    .no_syscalls = rec->no_syscalls,
    .no_switch_counters = no_switch_counters,
  };
  self->perf_without_group = no_switch_counters;
  jvms_perf_session_start_async (&config, on_perf_started, g_object_ref (self));
}

static void
on_perf_started (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(JvmsRecorder) self = data;
  g_autoptr(GError) error = NULL;
  self->perf = jvms_perf_session_start_finish (res, &error);
  if (self->perf == NULL && !self->perf_without_group)
    {
      /* A kernel (or perf) that refuses the counter group read at each sched_switch makes perf
       * exit at once. Once more with the plain sched_switch: if that starts, the group was the
       * cause, and the recording goes on without exact counters per run; if not, what perf says
       * the second time is the reason. */
      g_free (self->group_refused);
      self->group_refused = g_strdup (error->message);
      g_unlink (self->rec.perf_data_path);
      start_perf (self, TRUE);
      return;
    }
  if (self->perf == NULL)
    {
      explain_perf_failure (self, error->message);
      g_unlink (self->rec.perf_data_path);
      g_clear_pointer (&self->cgroup, jvms_cgroup_free);
    }
  else if (self->group_refused != NULL)
    {
      g_autofree char *reason = g_strdup_printf ("perf refused the counter group read at each sched_switch, "
                                                 "and recorded the plain sched_switch: %s", self->group_refused);
      jvms_recording_missing (&self->rec, "counters at each context switch", reason,
                              "a kernel and perf that accept {sched:sched_switch,...}:S groups");
      self->rec.switch_group_refused = g_strdup (self->group_refused);
      /* perf's first line says why; the rest is its usage text, kept in bundle.json. */
      g_autofree char *first = g_strndup (self->group_refused, strcspn (self->group_refused, "\n"));
      say (self, SIGNAL_MESSAGE, _("counters at each context switch are not recorded: perf refused the counter group "
                       "(%s); the plain sched_switch is recorded, and the counters of each run are estimated "
                       "from the periodic samples"), first);
    }
  step_start_jvm (self);
}

static void
step_kernel (JvmsRecorder *self)
{
  JvmsRecording *rec = &self->rec;
  if (rec->attach_pid == 0 && !rec->no_kernel && rec->probe.perf_path != NULL)
    {
      g_autoptr(GError) cg_error = NULL;
      self->cgroup = jvms_cgroup_create (&cg_error);
      if (self->cgroup == NULL)
        jvms_recording_missing (rec, "system calls and counters of the JVM only", cg_error->message,
                                "run as root on a system with cgroup v2");
    }
  rec->mono_minus_real_start = jvms_clock_monotonic_minus_realtime (&rec->bracket_start);

  if (rec->no_kernel)
    {
      jvms_recording_missing (rec, "kernel", "--no-kernel was given", NULL);
      step_start_jvm (self);
      return;
    }
  if (rec->probe.perf_path == NULL)
    {
      jvms_recording_missing (rec, "kernel", "perf was not found in PATH (or does not run for this kernel)",
                              "install perf: sudo apt install linux-perf (Debian, Ubuntu: linux-tools-generic; "
                              "Fedora: perf)");
      say (self, SIGNAL_MESSAGE, "%s", _("kernel events are not recorded: perf is not installed.\n"
                             "  To record them: sudo apt install linux-perf (or your distribution's perf package)"));
      step_start_jvm (self);
      return;
    }
  if (!rec->probe.hw_counters)
    jvms_recording_missing (rec, "hardware counters", rec->probe.hw_counters_reason,
                            "a CPU whose performance counters this kernel exposes (on a virtual machine: a virtual PMU); "
                            "cpu-clock samples are recorded instead");

  if (rec->no_syscalls)
    jvms_recording_missing (rec, "system calls", "--no-syscalls was given", NULL);
  if (rec->no_switch_counters)
    jvms_recording_missing (rec, "counters at each context switch", "--no-switch-counters was given",
                            "record without --no-switch-counters");
  start_perf (self, rec->no_switch_counters);
}

static void
on_probed (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(JvmsRecorder) self = data;
  if (!jvms_perf_probe_finish (res, &self->rec.probe, NULL))
    {
      /* Cancelled: nothing was started yet. */
      finish (self);
      return;
    }
  step_kernel (self);
}

static void
step_probe (JvmsRecorder *self)
{
  if (self->cancelled || self->stopping)
    {
      step_start_jvm (self);
      return;
    }
  if (self->rec.no_kernel)
    step_kernel (self);
  else
    jvms_perf_probe_async (self->probes, on_probed, g_object_ref (self));
}

static void
on_java_version (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(JvmsRecorder) self = data;
  g_autoptr(JvmsRunResult) r = jvms_run_finish (res, NULL);
  if (r != NULL && r->status == 0)
    {
      self->rec.jdk_version = jvms_recorder_parse_version (r->output);
      self->rec.jdk_version_full = g_strstrip (g_strdup (r->output));
    }
  step_probe (self);
}

void
jvms_recorder_record_async (JvmsRecorder *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                            gpointer user_data)
{
  g_return_if_fail (JVMS_IS_RECORDER (self));
  g_return_if_fail (self->state == JVMS_RECORDER_STATE_READY);
  JvmsRecording *rec = &self->rec;
  g_return_if_fail ((rec->attach_pid != 0) != (rec->java_argv != NULL && rec->java_argv[0] != NULL));

  self->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, jvms_recorder_record_async);
  self->context = g_main_context_ref_thread_default ();
  rec->command_start_ns = jvms_clock_monotonic_ns ();
  set_state (self, JVMS_RECORDER_STATE_STARTING);
  if (rec->java_argv == NULL)
    rec->java_argv = g_new0 (char *, 1);

  g_autoptr(GError) error = NULL;
  /* An attached process is checked before anything is created: a mistyped pid leaves nothing. */
  if (rec->attach_pid != 0 && !jvms_recorder_check_jvm (rec->attach_pid, &error))
    {
      fail_with (self, g_steal_pointer (&error));
      self->pending = 1;
      end_step_done (self);
      return;
    }
  if (!prepare_out_dir (self, &error))
    {
      g_prefix_error (&error, "%s", _("output folder: "));
      fail_with (self, g_steal_pointer (&error));
      self->pending = 1;
      end_step_done (self);
      return;
    }
  rec->settings = jvms_recorder_find_settings (&error);
  if (rec->settings == NULL)
    {
      g_prefix_error (&error, "%s", _("JFR settings: "));
      fail_with (self, g_steal_pointer (&error));
      self->pending = 1;
      end_step_done (self);
      return;
    }
  if (cancellable != NULL)
    self->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), self, NULL);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;

  if (rec->attach_pid != 0)
    {
      rec->pid = rec->attach_pid;
      step_probe (self);
      return;
    }
  const char *argv[] = { rec->java_argv[0], "-version", NULL };
  jvms_run_async (argv, JAVA_VERSION_TIMEOUT_S, self->probes, on_java_version, g_object_ref (self));
}

gboolean
jvms_recorder_record_finish (JvmsRecorder *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (JVMS_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ configuration */

JvmsRecorder *
jvms_recorder_new (const char *out_dir)
{
  g_return_val_if_fail (out_dir != NULL, NULL);
  JvmsRecorder *self = g_object_new (JVMS_TYPE_RECORDER, NULL);
  self->rec.out_dir = g_canonicalize_filename (out_dir, NULL);
  self->rec.jfr_path = g_build_filename (self->rec.out_dir, "recording.jfr", NULL);
  self->rec.perf_data_path = g_build_filename (self->rec.out_dir, "kernel.perf.data", NULL);
  self->rec.clock_log_path = g_build_filename (self->rec.out_dir, "jvm-clock.log", NULL);
  return self;
}

void
jvms_recorder_set_command (JvmsRecorder *self, const char * const *argv)
{
  g_return_if_fail (JVMS_IS_RECORDER (self));
  g_return_if_fail (self->state == JVMS_RECORDER_STATE_READY);
  g_strfreev (self->rec.java_argv);
  self->rec.java_argv = g_strdupv ((char **) argv);
}

void
jvms_recorder_set_working_directory (JvmsRecorder *self, const char *path)
{
  g_return_if_fail (JVMS_IS_RECORDER (self));
  g_return_if_fail (self->state == JVMS_RECORDER_STATE_READY);
  g_free (self->cwd);
  self->cwd = g_strdup (path);
}

void
jvms_recorder_set_pid (JvmsRecorder *self, GPid pid)
{
  g_return_if_fail (JVMS_IS_RECORDER (self));
  g_return_if_fail (self->state == JVMS_RECORDER_STATE_READY);
  self->rec.attach_pid = pid;
}

gboolean
jvms_recorder_set_duration (JvmsRecorder *self, double seconds)
{
  g_return_val_if_fail (JVMS_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (self->state == JVMS_RECORDER_STATE_READY, FALSE);
  /* inf would stop at once (a timer of (guint) inf ms) and nan never: neither is a duration. */
  if (!isfinite (seconds) || seconds < 0 || seconds > JVMS_RECORDER_MAX_DURATION_S)
    return FALSE;
  self->rec.duration_s = seconds;
  return TRUE;
}

void
jvms_recorder_set_include_sensitive (JvmsRecorder *self, gboolean include)
{
  g_return_if_fail (JVMS_IS_RECORDER (self));
  self->rec.include_sensitive = include;
}

void
jvms_recorder_set_kernel (JvmsRecorder *self, gboolean kernel)
{
  g_return_if_fail (JVMS_IS_RECORDER (self));
  self->rec.no_kernel = !kernel;
}

void
jvms_recorder_set_syscalls (JvmsRecorder *self, gboolean syscalls)
{
  g_return_if_fail (JVMS_IS_RECORDER (self));
  self->rec.no_syscalls = !syscalls;
}

void
jvms_recorder_set_switch_counters (JvmsRecorder *self, gboolean switch_counters)
{
  g_return_if_fail (JVMS_IS_RECORDER (self));
  self->rec.no_switch_counters = !switch_counters;
}

JvmsRecorderState
jvms_recorder_get_state (JvmsRecorder *self)
{
  g_return_val_if_fail (JVMS_IS_RECORDER (self), JVMS_RECORDER_STATE_FAILED);
  return self->state;
}

double
jvms_recorder_get_elapsed (JvmsRecorder *self)
{
  g_return_val_if_fail (JVMS_IS_RECORDER (self), 0);
  if (self->recording_start_us == 0)
    return 0;
  gint64 end = self->recording_end_us != 0 ? self->recording_end_us : g_get_monotonic_time ();
  return (end - self->recording_start_us) / 1e6;
}

guint64
jvms_recorder_get_bundle_size (JvmsRecorder *self)
{
  g_return_val_if_fail (JVMS_IS_RECORDER (self), 0);
  return self->bundle_size;
}

const char *
jvms_recorder_get_bundle_path (JvmsRecorder *self)
{
  g_return_val_if_fail (JVMS_IS_RECORDER (self), NULL);
  return self->bundle_path;
}

GPid
jvms_recorder_get_pid (JvmsRecorder *self)
{
  g_return_val_if_fail (JVMS_IS_RECORDER (self), 0);
  return self->rec.pid;
}

/* ------------------------------------------------------------------ GObject */

static void
jvms_recorder_dispose (GObject *object)
{
  JvmsRecorder *self = JVMS_RECORDER (object);
  /* Only reachable once the task completed (every step holds a reference): nothing runs. */
  if (self->cancellable != NULL && self->cancelled_id != 0)
    g_cancellable_disconnect (self->cancellable, self->cancelled_id);
  self->cancelled_id = 0;
  g_clear_object (&self->cancellable);
  g_clear_object (&self->jvm);
  g_clear_pointer (&self->perf, jvms_perf_session_free);
  g_clear_pointer (&self->cgroup, jvms_cgroup_free);
  G_OBJECT_CLASS (jvms_recorder_parent_class)->dispose (object);
}

static void
jvms_recorder_finalize (GObject *object)
{
  JvmsRecorder *self = JVMS_RECORDER (object);
  if (self->tmpdir != NULL)
    {
      g_autofree char *start = g_build_filename (self->tmpdir, "start", NULL);
      g_unlink (start);
      g_rmdir (self->tmpdir);
    }
  g_free (self->tmpdir);
  g_free (self->jfr_name);
  g_free (self->cwd);
  g_free (self->bundle_path);
  g_free (self->group_refused);
  g_clear_error (&self->failure);
  g_clear_object (&self->probes);
  g_clear_pointer (&self->context, g_main_context_unref);
  jvms_recording_clear (&self->rec);
  G_OBJECT_CLASS (jvms_recorder_parent_class)->finalize (object);
}

static void
jvms_recorder_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsRecorder *self = JVMS_RECORDER (object);
  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_ELAPSED:
      g_value_set_double (value, jvms_recorder_get_elapsed (self));
      break;
    case PROP_BUNDLE_SIZE:
      g_value_set_uint64 (value, self->bundle_size);
      break;
    case PROP_BUNDLE_PATH:
      g_value_set_string (value, self->bundle_path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_recorder_class_init (JvmsRecorderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = jvms_recorder_dispose;
  object_class->finalize = jvms_recorder_finalize;
  object_class->get_property = jvms_recorder_get_property;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, JVMS_TYPE_RECORDER_STATE, JVMS_RECORDER_STATE_READY,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ELAPSED] =
    g_param_spec_double ("elapsed", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUNDLE_SIZE] =
    g_param_spec_uint64 ("bundle-size", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUNDLE_PATH] =
    g_param_spec_string ("bundle-path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_ACCOUNT] =
    g_signal_new ("account", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
jvms_recorder_init (JvmsRecorder *self)
{
  jvms_recording_init (&self->rec);
  self->probes = g_cancellable_new ();
}
