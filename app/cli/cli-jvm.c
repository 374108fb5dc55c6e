/* cli-jvm.c: see cli-jvm.h. */
#include "config.h"

#include "cli-jvm.h"

#include <glib/gi18n.h>

#include "jvms-report.h"
#include "jvms-scope.h"
#include "jvms-states.h"

gboolean
jvms_cli_choose_jvm (const char *command, JvmsHistory *history, const char *trace, gint64 asked,
                     gboolean required, gint64 *pid)
{
  g_autoptr(GError) error = NULL;
  if (!jvms_scope_choose_jvm (history, trace, asked, pid, &error))
    {
      if (!required && asked <= 0)
        {
          *pid = -1;
          return TRUE;
        }
      /* Names and commands come from the trace: escaped line by line, the list one a line. */
      g_auto(GStrv) lines = g_strsplit (error->message, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_autofree char *shown = jvms_report_escape_text (lines[i]);
          g_free (lines[i]);
          lines[i] = g_steal_pointer (&shown);
        }
      g_autofree char *text = g_strjoinv ("\n", lines);
      g_printerr ("jvmscope-cli %s: %s\n", command, text);
      return FALSE;
    }
  if (*pid > 0)
    jvms_scope_set_subject (history, *pid);
  return TRUE;
}

gboolean
jvms_cli_name_in_several_jvms (JvmsThreadList *threads, const char *name)
{
  gint64 first = -1;
  for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      /* A folder name is one thread; other processes' threads are no JVM's. */
      if (g_strcmp0 (t->key, name) == 0)
        return FALSE;
      if (t->pid < 0 || t->kind == JVMS_THREAD_KIND_OTHER_PROCESS || g_strcmp0 (t->name, name) != 0)
        continue;
      if (first < 0)
        first = t->pid;
      else if (t->pid != first)
        return TRUE;
    }
  return FALSE;
}

const JvmsThreadInfo *
jvms_cli_find_thread (JvmsThreadList *threads, const char *key_or_name, gint64 pid, guint *n_elsewhere)
{
  *n_elsewhere = 0;
  for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      if (g_strcmp0 (t->key, key_or_name) == 0)
        return t;
    }
  const JvmsThreadInfo *named = NULL;
  guint n = 0;
  for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      if (g_strcmp0 (t->name, key_or_name) != 0)
        continue;
      if (pid <= 0 || t->pid == pid)
        return t;
      if (n++ == 0)
        named = t;
    }
  if (n > 1)
    {
      *n_elsewhere = n;
      return NULL;
    }
  return named;
}
