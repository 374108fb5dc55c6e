/* recorder-jvm.h: the JVM side of jvmscope-cli record: the options that turn JFR and the
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

/* "17.0.15" from `java -version` or from `jcmd PID VM.version`; NULL when unknown.
 * *full receives the tool's whole first lines. */
char *jvms_recorder_java_version (const char *java, char **full);
char *jvms_recorder_jcmd_version (GPid pid, char **full);

/* Runs `jcmd pid args...`; fails with jcmd's output when it reports a failure. */
gboolean jvms_recorder_jcmd (GPid pid, const char * const *args, char **output, GError **error);

/* The command line of a running process, from /proc/pid/cmdline; NULL when unreadable. */
GStrv jvms_recorder_process_argv (GPid pid);

/* The thread ids of a running process, from /proc/pid/task. */
GArray *jvms_recorder_list_tids (GPid pid);
