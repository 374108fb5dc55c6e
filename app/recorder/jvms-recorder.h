/* jvms-recorder.h: one recording of a JVM — Java Flight Recorder and the kernel's view of it
 * (perf), on one clock, written as a bundle folder OUT.jvmtrace (recording.jfr,
 * kernel.perf.data, bundle.json). docs/recording.md explains every choice.
 *
 * The only header of app/recorder/ that callers include. A JvmsRecorder is configured, then
 * run once with jvms_recorder_record_async(); everything it waits for (perf acknowledging,
 * the JVM starting and exiting, jcmd answering) is waited for asynchronously on the
 * thread-default main context of that call, so a window's main loop keeps running. Its
 * properties (state, elapsed, bundle-size) are notified on that context.
 *
 * Ending a recording:
 *   - the launched JVM exits, the --duration is reached, or the attached JVM goes away;
 *   - jvms_recorder_stop(): the JVM writes its recording (a launched JVM gets a signal, an
 *     attached one a JFR.stop), then perf stops; the bundle is complete;
 *   - jvms_recorder_kill_jvm(): a launched JVM is killed (its recording is lost; the bundle
 *     says so); for an attached JVM the same as stop, since the JVM is not ours to kill;
 *   - cancelling the GCancellable given to record_async: as kill_jvm, then everything the
 *     recorder wrote is removed and the call fails with G_IO_ERROR_CANCELLED.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define JVMS_TYPE_RECORDER (jvms_recorder_get_type ())
G_DECLARE_FINAL_TYPE (JvmsRecorder, jvms_recorder, JVMS, RECORDER, GObject)

typedef enum
{
  JVMS_RECORDER_STATE_READY,      /* configured, not started */
  JVMS_RECORDER_STATE_STARTING,   /* probing, starting perf, launching or attaching */
  JVMS_RECORDER_STATE_RECORDING,  /* JFR records in the JVM (elapsed counts from here) */
  JVMS_RECORDER_STATE_STOPPING,   /* the JVM writes its recording, perf stops */
  JVMS_RECORDER_STATE_FINISHED,   /* bundle.json written */
  JVMS_RECORDER_STATE_FAILED,     /* nothing usable; what the recorder created is removed */
} JvmsRecorderState;

GType jvms_recorder_state_get_type (void) G_GNUC_CONST;
#define JVMS_TYPE_RECORDER_STATE (jvms_recorder_state_get_type ())

/* The longest --duration: timers count milliseconds in 32 bits (49 days); 30 days is plenty. */
#define JVMS_RECORDER_MAX_DURATION_S (30.0 * 24 * 3600)

/* A recorder that writes the bundle folder @out_dir (it must not exist, or be empty). */
JvmsRecorder     *jvms_recorder_new               (const char          *out_dir);

/* What to record: a command to launch (argv[0] is the java program)... */
void              jvms_recorder_set_command       (JvmsRecorder        *self,
                                                   const char * const  *argv);
/* The launched command's working folder (NULL: the caller's): a window has no folder of the
 * user's own, a terminal does. */
void              jvms_recorder_set_working_directory (JvmsRecorder *self,
                                                   const char          *path);
/* ...or a running JVM to attach to. */
void              jvms_recorder_set_pid           (JvmsRecorder        *self,
                                                   GPid                 pid);
/* Stop after this many seconds of recording (0: until the JVM exits or a stop). FALSE, with
 * nothing changed, when @seconds is not a finite number in 0..JVMS_RECORDER_MAX_DURATION_S. */
gboolean          jvms_recorder_set_duration      (JvmsRecorder        *self,
                                                   double               seconds);
/* Also record the JFR events that can carry secrets (environment, properties, command lines). */
void              jvms_recorder_set_include_sensitive (JvmsRecorder    *self,
                                                   gboolean             include);
/* Without perf (JFR alone), or without the JVM's system calls. */
void              jvms_recorder_set_kernel        (JvmsRecorder        *self,
                                                   gboolean             kernel);
void              jvms_recorder_set_syscalls      (JvmsRecorder        *self,
                                                   gboolean             syscalls);
/* Without the counter group each sched_switch reads (exact counters per quantum): a plain
 * sched_switch, as recordings made before it. */
void              jvms_recorder_set_switch_counters (JvmsRecorder      *self,
                                                   gboolean             switch_counters);

/* Runs the recording; completes once bundle.json is written (or the recording failed). */
void              jvms_recorder_record_async      (JvmsRecorder        *self,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
/* TRUE when a bundle was written; FALSE with an error otherwise (or when the JVM wrote no
 * flight recording: the bundle then holds what was recorded, and bundle-path is set). */
gboolean          jvms_recorder_record_finish     (JvmsRecorder        *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);

/* Asks the recording to end; @signum is the signal that asked (0: the user asked), written in
 * bundle.json and forwarded to a launched JVM (SIGTERM when 0). Later calls do nothing. */
void              jvms_recorder_stop              (JvmsRecorder        *self,
                                                   int                  signum);
/* See the top of this file. */
void              jvms_recorder_kill_jvm          (JvmsRecorder        *self);

JvmsRecorderState jvms_recorder_get_state         (JvmsRecorder        *self);
/* Seconds since the recording started (both layers live), frozen when it stops. */
double            jvms_recorder_get_elapsed       (JvmsRecorder        *self);
/* Bytes of the bundle's files so far (updated every second while recording). */
guint64           jvms_recorder_get_bundle_size   (JvmsRecorder        *self);
/* The absolute path of the bundle folder once one is written; NULL before and on failure. */
const char       *jvms_recorder_get_bundle_path   (JvmsRecorder        *self);
/* The JVM recorded: the launched one's pid once started, or the attached one. */
GPid              jvms_recorder_get_pid           (JvmsRecorder        *self);

/* Signal "message" (const char *text): something the user should read — what could not be
 * recorded and how to allow it, stopping — in plain English, one or more lines. The command
 * line prints it on stderr; a window shows it and stays open for it.
 * Signal "account" (const char *text): what the recording holds at its end, asking nothing of
 * the user — the context switches perf recorded, the events it lost and where. The command line
 * prints it on stderr like a message; a window need not stay open for it, since the trace says
 * it again when opened. */

G_END_DECLS
