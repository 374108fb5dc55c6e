/* jvmscope-cli record: the options, the terminal's signals and what is printed; the recording
 * itself is a JvmsRecorder (app/recorder/jvms-recorder.h). docs/recording.md explains it. */
#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-time.h"
#include "jvms-recorder.h"

typedef struct
{
  JvmsRecorder *recorder;
  GMainLoop *loop;
  guint n_signals;
  int status;
} Cli;

static void
on_message (JvmsRecorder *recorder, const char *text, gpointer data)
{
  g_printerr ("jvmscope-cli record: %s\n", text);
}

static gboolean
on_signal (Cli *cli, int sig)
{
  if (++cli->n_signals == 1)
    {
      g_printerr (_("jvmscope-cli record: stopping; the JVM writes its recording (interrupt again to kill it)\n"));
      jvms_recorder_stop (cli->recorder, sig);
    }
  else
    jvms_recorder_kill_jvm (cli->recorder);
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

static void
on_recorded (GObject *source, GAsyncResult *result, gpointer data)
{
  Cli *cli = data;
  JvmsRecorder *recorder = JVMS_RECORDER (source);
  g_autoptr(GError) error = NULL;
  gboolean ok = jvms_recorder_record_finish (recorder, result, &error);
  const char *bundle = jvms_recorder_get_bundle_path (recorder);
  if (bundle != NULL)
    {
      g_autofree char *jfr = g_build_filename (bundle, "recording.jfr", NULL);
      g_autofree char *kernel = g_build_filename (bundle, "kernel.perf.data", NULL);
      gboolean have_jfr = g_file_test (jfr, G_FILE_TEST_IS_REGULAR);
      g_printerr (_("jvmscope-cli record: wrote %s (%s%s)\n"), bundle,
                  have_jfr ? "recording.jfr" : _("no recording.jfr"),
                  g_file_test (kernel, G_FILE_TEST_IS_REGULAR) ? ", kernel.perf.data" : _(", no kernel events"));
    }
  else if (!ok)
    g_printerr ("jvmscope-cli record: %s\n", error->message);
  cli->status = ok ? 0 : 1;
  g_main_loop_quit (cli->loop);
}

int
jvms_cli_record (int argc, char **argv)
{
  g_autofree char *out = NULL;
  g_autofree char *duration_text = NULL;
  int pid = 0;
  gboolean include_sensitive = FALSE, no_kernel = FALSE, no_syscalls = FALSE, no_switch_counters = FALSE;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, N_("The bundle folder to write (OUT.jvmtrace)"), N_("OUT") },
    /* Bytes as given (FILENAME): the time parser names the option whatever they are. */
    { "duration", 0, 0, G_OPTION_ARG_FILENAME, &duration_text, N_("Stop after this many seconds (or 500ms, 2.5s ...)"), N_("S") },
    { "pid", 0, 0, G_OPTION_ARG_INT, &pid, N_("Record a running JVM (through jcmd) instead of starting one"), N_("PID") },
    { "include-sensitive", 0, 0, G_OPTION_ARG_NONE, &include_sensitive,
      N_("Also record environment variables, system properties and command lines"), NULL },
    { "no-kernel", 0, 0, G_OPTION_ARG_NONE, &no_kernel, N_("Record the JVM only, without perf"), NULL },
    { "no-syscalls", 0, 0, G_OPTION_ARG_NONE, &no_syscalls,
      N_("Leave the JVM's system calls out of the kernel recording (they are most of its size)"), NULL },
    { "no-switch-counters", 0, 0, G_OPTION_ARG_NONE, &no_switch_counters,
      N_("Do not read the counters at each context switch (no exact counters per quantum)"), NULL },
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
  /* The time parser of analyze and profile: "inf" (a timer that fires at once), "nan" (none)
   * and "0x2" are no times. */
  gint64 duration_ns = 0;
  if (duration_text != NULL
      && (!jvms_cli_time_parse ("--duration", duration_text, &duration_ns, &error)
          || duration_ns <= 0 || duration_ns > (gint64) JVMS_RECORDER_MAX_DURATION_S * G_GINT64_CONSTANT (1000000000)))
    {
      if (error != NULL)
        g_printerr ("jvmscope-cli record: %s\n", error->message);
      else
        g_printerr (_("jvmscope-cli record: --duration %s: a duration above 0 and at most %.0f s (30 days)\n"),
                    duration_text, JVMS_RECORDER_MAX_DURATION_S);
      return 2;
    }
  double duration = duration_ns / 1e9;
  gboolean have_command = rest != NULL && rest[0] != NULL;
  if (out == NULL || (pid != 0) == have_command || pid < 0)
    {
      g_printerr ("%s\n", _("Usage: jvmscope-cli record -o OUT.jvmtrace [--duration S] [--include-sensitive] "
                            "[--no-kernel] [--no-syscalls] [--no-switch-counters] (--pid PID | -- java ARGS...)"));
      return 2;
    }

  g_autoptr(JvmsRecorder) recorder = jvms_recorder_new (out);
  if (have_command)
    jvms_recorder_set_command (recorder, (const char * const *) rest);
  else
    jvms_recorder_set_pid (recorder, pid);
  jvms_recorder_set_duration (recorder, duration);
  jvms_recorder_set_include_sensitive (recorder, include_sensitive);
  jvms_recorder_set_kernel (recorder, !no_kernel);
  jvms_recorder_set_syscalls (recorder, !no_syscalls);
  jvms_recorder_set_switch_counters (recorder, !no_switch_counters);
  g_signal_connect (recorder, "message", G_CALLBACK (on_message), NULL);
  g_signal_connect (recorder, "account", G_CALLBACK (on_message), NULL);

  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Cli cli = { .recorder = recorder, .loop = loop, .status = 1 };
  guint sources[3] = {
    g_unix_signal_add (SIGINT, on_sigint, &cli),
    g_unix_signal_add (SIGTERM, on_sigterm, &cli),
    g_unix_signal_add (SIGHUP, on_sighup, &cli),
  };
  jvms_recorder_record_async (recorder, NULL, on_recorded, &cli);
  g_main_loop_run (loop);
  for (gsize i = 0; i < G_N_ELEMENTS (sources); i++)
    g_source_remove (sources[i]);
  return cli.status;
}
