/* jvms-recorder-run-private.h: a helper program the recorder runs (java -version, jcmd, perf
 * stat, perf report), without blocking the main loop and never longer than a timeout.
 *
 * A helper that does not answer (jcmd on a process that never opens its attach socket, a JVM
 * that hangs) is killed when its time is up; the recording goes on with what it said. The pid,
 * the command and the times it ran are kept: bundle.json lists the helpers that ran while the
 * kernel was recorded, so that the analysis does not take them for the JVM's work.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  char   *output;          /* stdout and stderr, merged; NULL when it could not be started */
  int     status;          /* exit status; -1 when killed, timed out or not started */
  gboolean timed_out;
  GPid    pid;             /* 0 when it could not be started, or ended before it was asked */
  char  **argv;
  gint64  start_monotonic_ns, end_monotonic_ns;
} JvmsRunResult;

void           jvms_run_result_free (JvmsRunResult *result);

/* The process id of @process, or 0 when GLib has already reaped it: GLib reaps a child in its
 * own worker thread as soon as it exits, and forgets its id then, so a program that fails at
 * once (a perf that is refused) can be gone before the line after the spawn asks. */
GPid           jvms_subprocess_pid  (GSubprocess *process);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsRunResult, jvms_run_result_free)

/* Runs argv (argv[0] searched in PATH) with stdout and stderr merged; kills it after
 * @timeout_s seconds. The callback runs in the thread-default main context of the caller. */
void           jvms_run_async       (const char * const  *argv,
                                     guint                timeout_s,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
/* The result, whatever the exit status; NULL with an error (naming the command) only when the
 * program could not be started or the call was cancelled. */
JvmsRunResult *jvms_run_finish      (GAsyncResult        *result,
                                     GError             **error);

/* "jcmd 1234 VM.log ...: <what it said>" or "...: no answer in 30 s", for messages. */
char          *jvms_run_result_describe (const JvmsRunResult *result);

G_END_DECLS
