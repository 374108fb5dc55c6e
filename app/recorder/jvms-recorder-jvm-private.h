/* jvms-recorder-jvm-private.h: the JVM side of a recording: the options that turn JFR and the
 * clock log on, jcmd for a running JVM, and what the bundle may say about the command. */
#pragma once

#include <glib.h>

/* JFR events that can carry secrets or details of the machine, off in data/jvmscope.jfc;
 * --include-sensitive turns them back on with event#enabled=true overrides. */
extern const char * const jvms_sensitive_events[];

/* Where data/jvmscope.jfc is: $JVMSCOPE_DATADIR, installed, else the source tree; NULL with an error. */
char *jvms_recorder_find_settings (GError **error);

/* The JFR options (settings, file and overrides), joined with separator: "," for
 * -XX:StartFlightRecording=, NULL for separate jcmd arguments. Fails on paths that the
 * JVM's option parser cannot carry (',', ':', '"', '=' or spaces). */
GStrv jvms_recorder_jfr_options (const char *settings, const char *jfr_path,
                                 gboolean include_sensitive, GError **error);

/* argv with the recorder's options after argv[0] (the java program). */
GStrv jvms_recorder_java_argv (char **java_argv, const char *settings, const char *jfr_path,
                               const char *clock_log, gboolean include_sensitive, GError **error);

/* Whether the clock log of a launched JVM shows that its recording runs: JFR starts its
 * sampler thread when the recording applies our settings (jdk.ExecutionSample is on). */
gboolean jvms_recorder_jfr_started (const char *clock_log);

/* A copy of argv with the values of arguments that look like secrets (password, token, ...)
 * replaced by "***". */
GStrv jvms_recorder_redact_argv (char **argv);

/* "17.0.15" from the output of `java -version` or `jcmd PID VM.version`; NULL when absent. */
char *jvms_recorder_parse_version (const char *text);

/* `jcmd pid args...`, to run with jvms_run_async. */
char **jvms_recorder_jcmd_argv (GPid pid, const char * const *args);

/* Whether jcmd's output (and exit status) says that a command failed: jcmd exits 0 even when
 * the command failed inside the JVM. */
gboolean jvms_recorder_jcmd_failed (const char *output, int status);

/* Whether pid is a JVM that jcmd can be pointed at (it maps libjvm.so); an error naming the
 * process and what it is otherwise. Never sends it anything. */
gboolean jvms_recorder_check_jvm (GPid pid, GError **error);

/* The command line of a running process, from /proc/pid/cmdline; NULL when unreadable. */
GStrv jvms_recorder_process_argv (GPid pid);

/* The thread ids of a running process, from /proc/pid/task. */
GArray *jvms_recorder_list_tids (GPid pid);
