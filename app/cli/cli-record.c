/* jvmscope-cli record: a JVM's flight recording and the kernel's view of it, on one clock,
 * into a bundle folder (recording.jfr, kernel.perf.data, bundle.json). docs/recording.md
 * explains the choices. */
#include "config.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-commands.h"
#include "recorder-bundle.h"
#include "recorder-cgroup.h"
#include "recorder-clock.h"
#include "recorder-jvm.h"
#include "recorder-perf.h"

typedef struct
{
  JvmsRecording rec;
  GMainLoop *loop;
  GSubprocess *jvm;             /* launch mode */
  gboolean jvm_exited;
  gboolean stopping;
  guint n_signals;
  char *jfr_name;               /* attach mode: the recording's name in the JVM */
  guint duration_timer, jfr_wait_timer;
  guint jfr_wait_ms;
} Recorder;

static void
print_error (const char *what, const GError *error)
{
  g_printerr ("jvmscope-cli record: %s: %s\n", what, error->message);
}

/* Launch mode: the JVM ends the recording by exiting; JFR writes recording.jfr on exit. */
static void
on_jvm_exit (GObject *source, GAsyncResult *result, gpointer data)
{
  Recorder *r = data;
  GSubprocess *p = G_SUBPROCESS (source);
  g_subprocess_wait_finish (p, result, NULL);
  r->jvm_exited = TRUE;
  r->rec.jvm_status_known = TRUE;
  if (g_subprocess_get_if_signaled (p))
    r->rec.jvm_term_signal = g_subprocess_get_term_sig (p);
  else
    r->rec.jvm_exit_status = g_subprocess_get_exit_status (p);
  if (!r->stopping)
    r->rec.stop_reason = JVMS_STOP_JVM_EXIT;
  g_main_loop_quit (r->loop);
}

static gboolean
process_alive (GPid pid)
{
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

/* Attach mode: the JVM is not our child; look whether it is still there. */
static gboolean
check_attached_jvm (gpointer data)
{
  Recorder *r = data;
  if (process_alive (r->rec.attach_pid))
    return G_SOURCE_CONTINUE;
  r->jvm_exited = TRUE;
  if (!r->stopping)
    r->rec.stop_reason = JVMS_STOP_JVM_EXIT;
  g_main_loop_quit (r->loop);
  return G_SOURCE_REMOVE;
}

/* Asks the JVM to finish: a launched JVM gets a signal and writes its recording as it exits
 * (JFR dumps on exit); an attached one is left running and jcmd stops the recording later. */
static void
request_stop (Recorder *r, JvmsStopReason reason, int sig)
{
  if (!r->stopping)
    {
      r->stopping = TRUE;
      r->rec.stop_reason = reason;
      r->rec.stop_signal = sig;
    }
  if (r->jvm != NULL && !r->jvm_exited)
    g_subprocess_send_signal (r->jvm, sig);
  else
    g_main_loop_quit (r->loop);
}

static gboolean
on_signal (gpointer data, int sig)
{
  Recorder *r = data;
  if (++r->n_signals == 1)
    {
      g_printerr (_("jvmscope-cli record: stopping; the JVM writes its recording (interrupt again to kill it)\n"));
      request_stop (r, JVMS_STOP_SIGNAL, sig);
    }
  else if (r->jvm != NULL && !r->jvm_exited)
    {
      g_printerr (_("jvmscope-cli record: killing the JVM; its recording is lost\n"));
      g_subprocess_send_signal (r->jvm, SIGKILL);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_sigint (gpointer data)
{
  return on_signal (data, SIGINT);
}

static gboolean
on_sigterm (gpointer data)
{
  return on_signal (data, SIGTERM);
}

static gboolean
on_sighup (gpointer data)
{
  return on_signal (data, SIGHUP);
}

static gboolean
on_duration (gpointer data)
{
  Recorder *r = data;
  r->duration_timer = 0;
  /* SIGTERM: the polite way to end a JVM, shutdown hooks and JFR's dump included. */
  request_stop (r, JVMS_STOP_DURATION, SIGTERM);
  return G_SOURCE_REMOVE;
}

/* A launched JVM can take seconds to start on a busy machine, and a JVM stopped before JFR
 * records writes nothing: --duration counts from the moment the recording runs. */
static gboolean
wait_for_jfr (gpointer data)
{
  Recorder *r = data;
  enum { POLL_MS = 100, GIVE_UP_MS = 60000 };
  r->jfr_wait_ms += POLL_MS;
  if (!jvms_recorder_jfr_started (r->rec.clock_log_path) && r->jfr_wait_ms < GIVE_UP_MS)
    return G_SOURCE_CONTINUE;
  r->jfr_wait_timer = 0;
  r->duration_timer = g_timeout_add ((guint) (r->rec.duration_s * 1000), on_duration, r);
  return G_SOURCE_REMOVE;
}

static gboolean
prepare_out_dir (const char *dir, GError **error)
{
  if (g_mkdir (dir, 0755) == 0)
    return TRUE;
  int e = errno;
  if (e == EEXIST && g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) d = g_dir_open (dir, 0, error);
      if (d == NULL)
        return FALSE;
      if (g_dir_read_name (d) == NULL)
        return TRUE;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("%s exists and is not empty"), dir);
      return FALSE;
    }
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), _("cannot create %s: %s"), dir, g_strerror (e));
  return FALSE;
}

/* Why perf could not record, in words for the user, and what would allow it. */
static void
explain_perf_failure (JvmsRecording *rec, const char *perf_said)
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
  jvms_recording_missing (rec, "kernel", reason, how);
  g_printerr (_("jvmscope-cli record: kernel events are not recorded: perf record refused to start.\n"));
  g_printerr ("  %s\n", perf_said);
  if (how != NULL)
    g_printerr (_("  To allow it: run as root, or: sudo sysctl kernel.perf_event_paranoid=-1\n"));
}

static JvmsPerfSession *
start_kernel_recording (Recorder *r, JvmsCgroup *cgroup)
{
  JvmsRecording *rec = &r->rec;
  if (rec->no_kernel)
    {
      jvms_recording_missing (rec, "kernel", "--no-kernel was given", NULL);
      return NULL;
    }
  if (rec->probe.perf_path == NULL)
    {
      jvms_recording_missing (rec, "kernel", "perf was not found in PATH (or does not run for this kernel)",
                              "install perf: sudo apt install linux-perf (Debian, Ubuntu: linux-tools-generic; "
                              "Fedora: perf)");
      g_printerr (_("jvmscope-cli record: kernel events are not recorded: perf is not installed.\n"
                    "  To record them: sudo apt install linux-perf (or your distribution's perf package)\n"));
      return NULL;
    }
  if (!rec->probe.hw_counters)
    jvms_recording_missing (rec, "hardware counters", rec->probe.hw_counters_reason,
                            "a CPU whose performance counters this kernel exposes (on a virtual machine: a virtual PMU); "
                            "cpu-clock samples are recorded instead");

  g_autoptr(GArray) tids = NULL;
  if (rec->attach_pid != 0)
    tids = jvms_recorder_list_tids (rec->attach_pid);
  JvmsPerfConfig config = {
    .perf_path = rec->probe.perf_path,
    .output = rec->perf_data_path,
    .cgroup = cgroup != NULL ? jvms_cgroup_perf_name (cgroup) : NULL,
    .syscall_tids = tids != NULL ? (const GPid *) tids->data : NULL,
    .n_syscall_tids = tids != NULL ? tids->len : 0,
    .hw_counters = rec->probe.hw_counters,
    .no_syscalls = rec->no_syscalls,
  };
  if (rec->no_syscalls)
    jvms_recording_missing (rec, "system calls", "--no-syscalls was given", NULL);
  g_autoptr(GError) error = NULL;
  JvmsPerfSession *session = jvms_perf_session_start (&config, &error);
  if (session == NULL)
    {
      explain_perf_failure (rec, error->message);
      g_unlink (rec->perf_data_path);
      return NULL;
    }
  return session;
}

static void
finish_kernel_recording (JvmsRecording *rec, JvmsPerfSession *perf)
{
  g_autoptr(GError) error = NULL;
  if (!jvms_perf_session_stop (perf, &error))
    {
      jvms_recording_missing (rec, "kernel", error->message, NULL);
      print_error (_("kernel recording"), error);
      return;
    }
  rec->kernel_recorded = TRUE;
  rec->kernel_events = jvms_perf_session_events_json (perf);
  rec->syscall_scope = g_strdup (jvms_perf_session_syscall_scope (perf));
  rec->counters = g_strdup (jvms_perf_session_counters (perf));
  rec->lost_records = jvms_perf_session_lost_records (perf);
  rec->lost_samples = jvms_perf_session_lost_samples (perf);
  if (rec->lost_records > 0)
    g_printerr (_("jvmscope-cli record: perf lost kernel events in %lld places (%lld events)\n"),
                (long long) rec->lost_records, (long long) rec->lost_samples);
}

static gboolean
launch_jvm (Recorder *r, JvmsCgroup *cgroup, GError **error)
{
  JvmsRecording *rec = &r->rec;
  g_auto(GStrv) argv = jvms_recorder_java_argv (rec->java_argv, rec->settings, rec->jfr_path,
                                                rec->clock_log_path, rec->include_sensitive, error);
  if (argv == NULL)
    return FALSE;
  /* The JVM stays in the terminal's process group: it reads the terminal like any program, and
   * Ctrl-C reaches it directly as well as through us. */
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  if (cgroup != NULL)
    g_subprocess_launcher_set_child_setup (launcher, jvms_cgroup_join_child_setup, cgroup, NULL);
  r->jvm = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, error);
  if (r->jvm == NULL)
    return FALSE;
  rec->pid = (GPid) g_ascii_strtoll (g_subprocess_get_identifier (r->jvm), NULL, 10);
  g_subprocess_wait_async (r->jvm, NULL, on_jvm_exit, r);
  if (cgroup != NULL && !jvms_cgroup_contains (cgroup, rec->pid) && !r->jvm_exited)
    jvms_recording_missing (rec, "system calls and counters of the JVM",
                            "the JVM could not join its cgroup; they were recorded for no thread", NULL);
  return TRUE;
}

static gboolean
attach_jvm (Recorder *r, GError **error)
{
  JvmsRecording *rec = &r->rec;
  rec->pid = rec->attach_pid;
  /* VM.log first: JFR.start starts JFR's threads, whose os+thread lines carry the clocks. */
  g_autofree char *output = g_strconcat ("output=", rec->clock_log_path, NULL);
  const char *log_args[] = { "VM.log", output, "what=os*", "decorators=timenanos,uptimenanos", NULL };
  g_autoptr(GError) log_error = NULL;
  if (!jvms_recorder_jcmd (rec->pid, log_args, NULL, &log_error))
    jvms_recording_missing (rec, "clock log", log_error->message, NULL);

  g_auto(GStrv) jfr = jvms_recorder_jfr_options (rec->settings, rec->jfr_path, rec->include_sensitive, error);
  if (jfr == NULL)
    return FALSE;
  r->jfr_name = g_strdup_printf ("jvmscope-%d", (int) getpid ());
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_strv_builder_add (b, "JFR.start");
  g_autofree char *name = g_strconcat ("name=", r->jfr_name, NULL);
  g_strv_builder_add (b, name);
  g_strv_builder_addv (b, (const char **) jfr);
  g_auto(GStrv) args = g_strv_builder_end (b);
  return jvms_recorder_jcmd (rec->pid, (const char * const *) args, NULL, error);
}

static void
detach_jvm (Recorder *r)
{
  JvmsRecording *rec = &r->rec;
  if (r->jvm_exited)
    return;   /* dumponexit=true wrote the file */
  g_autofree char *name = g_strconcat ("name=", r->jfr_name, NULL);
  const char *stop_args[] = { "JFR.stop", name, NULL };
  g_autoptr(GError) error = NULL;
  if (!jvms_recorder_jcmd (rec->pid, stop_args, NULL, &error))
    print_error (_("stopping the flight recording"), error);
  g_autofree char *output = g_strconcat ("output=", rec->clock_log_path, NULL);
  const char *log_args[] = { "VM.log", output, "what=all=off", NULL };
  jvms_recorder_jcmd (rec->pid, log_args, NULL, NULL);
}

static int
record (Recorder *r)
{
  JvmsRecording *rec = &r->rec;
  g_autoptr(GError) error = NULL;

  if (!prepare_out_dir (rec->out_dir, &error))
    {
      print_error (_("output folder"), error);
      return 1;
    }
  rec->settings = jvms_recorder_find_settings (&error);
  if (rec->settings == NULL)
    {
      print_error (_("JFR settings"), error);
      return 1;
    }
  rec->jfr_path = g_build_filename (rec->out_dir, "recording.jfr", NULL);
  rec->perf_data_path = g_build_filename (rec->out_dir, "kernel.perf.data", NULL);
  rec->clock_log_path = g_build_filename (rec->out_dir, "jvm-clock.log", NULL);

  if (rec->attach_pid != 0)
    {
      if (!process_alive (rec->attach_pid))
        {
          g_printerr (_("jvmscope-cli record: no process %d\n"), (int) rec->attach_pid);
          return 1;
        }
      rec->jdk_version = jvms_recorder_jcmd_version (rec->attach_pid, &rec->jdk_version_full);
    }
  else
    rec->jdk_version = jvms_recorder_java_version (rec->java_argv[0], &rec->jdk_version_full);

  if (!rec->no_kernel)
    jvms_perf_probe_run (&rec->probe);

  g_autoptr(JvmsCgroup) cgroup = NULL;
  if (rec->attach_pid == 0 && !rec->no_kernel && rec->probe.perf_path != NULL)
    {
      g_autoptr(GError) cg_error = NULL;
      cgroup = jvms_cgroup_create (&cg_error);
      if (cgroup == NULL)
        jvms_recording_missing (rec, "system calls and counters of the JVM only", cg_error->message,
                                "run as root on a system with cgroup v2");
    }

  r->loop = g_main_loop_new (NULL, FALSE);
  guint sources[3] = {
    g_unix_signal_add (SIGINT, on_sigint, r),
    g_unix_signal_add (SIGTERM, on_sigterm, r),
    g_unix_signal_add (SIGHUP, on_sighup, r),
  };

  rec->mono_minus_real_start = jvms_clock_monotonic_minus_realtime (&rec->bracket_start);
  g_autoptr(JvmsPerfSession) perf = start_kernel_recording (r, cgroup);
  if (cgroup != NULL && perf == NULL)
    g_clear_pointer (&cgroup, jvms_cgroup_free);
  rec->start_time = g_date_time_new_now_utc ();
  rec->start_monotonic_ns = jvms_clock_monotonic_ns ();

  gboolean started = FALSE;
  if (r->stopping)
    g_printerr (_("jvmscope-cli record: interrupted before the JVM started\n"));
  else if (rec->attach_pid != 0)
    started = attach_jvm (r, &error);
  else
    started = launch_jvm (r, cgroup, &error);
  if (error != NULL)
    print_error (rec->attach_pid != 0 ? _("starting the flight recording") : _("starting the JVM"), error);

  if (started)
    {
      guint watch = 0;
      if (rec->attach_pid != 0)
        watch = g_timeout_add (200, check_attached_jvm, r);
      if (rec->duration_s > 0 && rec->attach_pid != 0)
        r->duration_timer = g_timeout_add ((guint) (rec->duration_s * 1000), on_duration, r);
      else if (rec->duration_s > 0)
        r->jfr_wait_timer = g_timeout_add (100, wait_for_jfr, r);
      if (!r->jvm_exited)
        g_main_loop_run (r->loop);
      if (rec->attach_pid != 0)
        {
          if (watch != 0 && !r->jvm_exited)
            g_source_remove (watch);
          detach_jvm (r);
        }
      if (r->duration_timer != 0)
        g_source_remove (r->duration_timer);
      if (r->jfr_wait_timer != 0)
        g_source_remove (r->jfr_wait_timer);
    }

  rec->end_monotonic_ns = jvms_clock_monotonic_ns ();
  rec->end_time = g_date_time_new_now_utc ();
  if (perf != NULL)
    finish_kernel_recording (rec, perf);
  else
    g_unlink (rec->perf_data_path);
  rec->mono_minus_real_end = jvms_clock_monotonic_minus_realtime (&rec->bracket_end);
  for (gsize i = 0; i < G_N_ELEMENTS (sources); i++)
    g_source_remove (sources[i]);

  if (!started)
    return 1;

  gboolean have_jfr = g_file_test (rec->jfr_path, G_FILE_TEST_IS_REGULAR);
  if (!have_jfr)
    jvms_recording_missing (rec, "jfr", "the JVM wrote no recording.jfr (killed, or JFR failed to start: see its output)", NULL);
  g_autoptr(GError) bundle_error = NULL;
  if (!jvms_recording_write_bundle (rec, &bundle_error))
    {
      print_error ("bundle.json", bundle_error);
      return 1;
    }
  g_printerr (_("jvmscope-cli record: wrote %s (%s%s)\n"), rec->out_dir,
              have_jfr ? "recording.jfr" : _("no recording.jfr"),
              rec->kernel_recorded ? ", kernel.perf.data" : _(", no kernel events"));
  return have_jfr ? 0 : 1;
}

int
jvms_cli_record (int argc, char **argv)
{
  g_autofree char *out = NULL;
  double duration = 0;
  int pid = 0;
  gboolean include_sensitive = FALSE, no_kernel = FALSE, no_syscalls = FALSE;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, N_("The bundle folder to write (OUT.jvmtrace)"), N_("OUT") },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration, N_("Stop after this many seconds"), N_("S") },
    { "pid", 0, 0, G_OPTION_ARG_INT, &pid, N_("Record a running JVM (through jcmd) instead of starting one"), N_("PID") },
    { "include-sensitive", 0, 0, G_OPTION_ARG_NONE, &include_sensitive,
      N_("Also record environment variables, system properties and command lines"), NULL },
    { "no-kernel", 0, 0, G_OPTION_ARG_NONE, &no_kernel, N_("Record the JVM only, without perf"), NULL },
    { "no-syscalls", 0, 0, G_OPTION_ARG_NONE, &no_syscalls,
      N_("Leave the JVM's system calls out of the kernel recording (they are most of its size)"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_("-- java ARGS...") },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Records a JVM with Java Flight Recorder and the kernel with perf."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("jvmscope-cli record: %s\n", error->message);
      return 2;
    }
  gboolean have_command = rest != NULL && rest[0] != NULL;
  if (out == NULL || (pid != 0) == have_command || pid < 0 || duration < 0)
    {
      g_printerr ("%s\n", _("Usage: jvmscope-cli record -o OUT.jvmtrace [--duration S] [--include-sensitive] "
                            "[--no-kernel] [--no-syscalls] (--pid PID | -- java ARGS...)"));
      return 2;
    }

  Recorder r = { 0 };
  jvms_recording_init (&r.rec);
  r.rec.out_dir = g_canonicalize_filename (out, NULL);
  r.rec.duration_s = duration;
  r.rec.attach_pid = pid;
  r.rec.include_sensitive = include_sensitive;
  r.rec.no_kernel = no_kernel;
  r.rec.no_syscalls = no_syscalls;
  r.rec.java_argv = have_command ? g_strdupv (rest) : g_new0 (char *, 1);
  int status = record (&r);
  g_clear_object (&r.jvm);
  g_clear_pointer (&r.loop, g_main_loop_unref);
  g_free (r.jfr_name);
  jvms_recording_clear (&r.rec);
  return status;
}
