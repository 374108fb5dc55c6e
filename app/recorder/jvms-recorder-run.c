/* jvms-recorder-run.c: helper programs with a timeout, on the caller's main loop. */
#include "config.h"

#include "jvms-recorder-run-private.h"

#include "jvms-recorder-clock-private.h"

typedef struct
{
  GSubprocess   *process;
  GCancellable  *stop;          /* ends communicate: the timeout or the caller's cancellable */
  GCancellable  *caller;
  gulong         caller_id;
  GSource       *timeout;
  JvmsRunResult *result;
} Run;

void
jvms_run_result_free (JvmsRunResult *result)
{
  if (result == NULL)
    return;
  g_free (result->output);
  g_strfreev (result->argv);
  g_free (result);
}

GPid
jvms_subprocess_pid (GSubprocess *process)
{
  const char *id = g_subprocess_get_identifier (process);
  return id != NULL ? (GPid) g_ascii_strtoll (id, NULL, 10) : 0;
}

static void
run_free (gpointer data)
{
  Run *run = data;
  if (run->timeout != NULL)
    {
      g_source_destroy (run->timeout);
      g_source_unref (run->timeout);
    }
  if (run->caller_id != 0)
    g_cancellable_disconnect (run->caller, run->caller_id);
  g_clear_object (&run->caller);
  g_clear_object (&run->stop);
  g_clear_object (&run->process);
  jvms_run_result_free (run->result);
  g_free (run);
}

static void
forward_cancel (GCancellable *caller, gpointer data)
{
  g_cancellable_cancel (G_CANCELLABLE (data));
}

static gboolean
on_timeout (gpointer data)
{
  GTask *task = data;
  Run *run = g_task_get_task_data (task);
  run->result->timed_out = TRUE;
  g_subprocess_force_exit (run->process);
  g_cancellable_cancel (run->stop);
  return G_SOURCE_REMOVE;
}

static void
on_communicated (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(GTask) task = data;
  Run *run = g_task_get_task_data (task);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok = g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), res, &out, NULL, &error);
  JvmsRunResult *result = run->result;
  result->end_monotonic_ns = jvms_clock_monotonic_ns ();
  if (ok)
    {
      result->output = g_steal_pointer (&out);
      result->status = g_subprocess_get_if_exited (run->process) ? g_subprocess_get_exit_status (run->process) : -1;
    }
  else if (result->timed_out)
    {
      result->output = g_strdup ("");
      result->status = -1;
    }
  else
    {
      /* Cancelled by the caller (or a pipe failed): the helper must not outlive the call. */
      g_subprocess_force_exit (run->process);
      g_autofree char *cmd = g_strjoinv (" ", result->argv);
      g_task_return_new_error (task, error->domain, error->code, "%s: %s", cmd, error->message);
      return;
    }
  run->result = NULL;
  g_task_return_pointer (task, result, (GDestroyNotify) jvms_run_result_free);
}

void
jvms_run_async (const char * const *argv, guint timeout_s, GCancellable *cancellable,
                GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (argv != NULL && argv[0] != NULL);
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_run_async);
  Run *run = g_new0 (Run, 1);
  run->result = g_new0 (JvmsRunResult, 1);
  run->result->argv = g_strdupv ((char **) argv);
  run->result->status = -1;
  run->result->start_monotonic_ns = jvms_clock_monotonic_ns ();
  g_task_set_task_data (task, run, run_free);

  g_autoptr(GError) error = NULL;
  run->process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE, &error);
  if (run->process == NULL)
    {
      g_task_return_new_error (task, error->domain, error->code, "%s: %s", argv[0], error->message);
      g_object_unref (task);
      return;
    }
  run->result->pid = jvms_subprocess_pid (run->process);
  run->stop = g_cancellable_new ();
  if (cancellable != NULL)
    {
      run->caller = g_object_ref (cancellable);
      run->caller_id = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel), run->stop, NULL);
    }
  run->timeout = g_timeout_source_new_seconds (timeout_s);
  g_source_set_callback (run->timeout, on_timeout, task, NULL);
  g_source_attach (run->timeout, g_main_context_get_thread_default ());
  g_subprocess_communicate_utf8_async (run->process, NULL, run->stop, on_communicated, task);
}

JvmsRunResult *
jvms_run_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

char *
jvms_run_result_describe (const JvmsRunResult *result)
{
  g_autofree char *cmd = g_strjoinv (" ", result->argv);
  if (result->timed_out)
    return g_strdup_printf ("%s: no answer in %" G_GINT64_FORMAT " s; stopped",
                            cmd, (result->end_monotonic_ns - result->start_monotonic_ns + 500000000) / 1000000000);
  g_autofree char *out = g_strstrip (g_strdup (result->output != NULL ? result->output : ""));
  return g_strdup_printf ("%s: %s", cmd, out[0] != '\0' ? out : "exited without a word");
}
