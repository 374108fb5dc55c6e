/* jvms-running-jvms.c: `jcmd -l`, run and read (jvms-running-jvms.h). */
#include "jvms-running-jvms.h"

#include <string.h>

static void
running_jvm_free (gpointer data)
{
  JvmsRunningJvm *jvm = data;
  g_free (jvm->main_class);
  g_free (jvm);
}

GPtrArray *
jvms_running_jvms_parse (const char *text)
{
  GPtrArray *jvms = g_ptr_array_new_with_free_func (running_jvm_free);
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *end = NULL;
      gint64 pid = g_ascii_strtoll (lines[i], &end, 10);
      if (end == lines[i] || pid <= 0 || pid > G_MAXINT || (*end != ' ' && *end != '\0'))
        continue;
      const char *rest = *end == ' ' ? end + 1 : end;
      g_autofree char *main_class = g_strndup (rest, strcspn (rest, " \r"));
      /* jcmd lists itself. */
      if (g_str_has_suffix (main_class, "sun.tools.jcmd.JCmd"))
        continue;
      JvmsRunningJvm *jvm = g_new0 (JvmsRunningJvm, 1);
      jvm->pid = (GPid) pid;
      jvm->main_class = g_utf8_make_valid (main_class, -1);
      g_ptr_array_add (jvms, jvm);
    }
  return jvms;
}

static void
communicated (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autofree char *out = NULL;
  GError *error = NULL;
  if (!g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &out, NULL, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, jvms_running_jvms_parse (out), (GDestroyNotify) g_ptr_array_unref);
}

void
jvms_running_jvms_list_async (GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  GError *error = NULL;
  g_autoptr(GSubprocess) jcmd = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                                  &error, "jcmd", "-l", NULL);
  if (jcmd == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_subprocess_communicate_utf8_async (jcmd, NULL, cancellable, communicated, g_steal_pointer (&task));
}

GPtrArray *
jvms_running_jvms_list_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
