/* jvms-scope.c: the JVMs of an index (metadata `jvms`, written by jvms-threads.c), the choice
 * among them, and the default range (metadata `default-range`, written by jvms-build.c). */
#include "jvms-scope.h"

#include <string.h>

#include "jvms-trace-index.h"

static void
entry_free (gpointer data)
{
  JvmsJvmEntry *e = data;
  g_free (e->name);
  g_free (e->command);
  g_free (e);
}

GPtrArray *
jvms_scope_list_jvms (JvmsHistory *history)
{
  GPtrArray *list = g_ptr_array_new_with_free_func (entry_free);
  const char *text = jvms_history_get_metadata (history, "jvms");
  if (text == NULL)
    return list;
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      /* PID \t NAME \t COMMAND \t THREADS */
      g_auto(GStrv) f = g_strsplit (lines[i], "\t", 4);
      guint64 pid, n;
      if (g_strv_length (f) != 4 || !g_ascii_string_to_unsigned (f[0], 10, 1, G_MAXINT32, &pid, NULL)
          || !g_ascii_string_to_unsigned (f[3], 10, 0, G_MAXUINT, &n, NULL))
        continue;
      JvmsJvmEntry *e = g_new0 (JvmsJvmEntry, 1);
      e->pid = (gint64) pid;
      e->name = g_strdup (f[1]);
      e->command = g_strdup (f[2]);
      e->n_threads = (guint) n;
      g_ptr_array_add (list, e);
    }
  return list;
}

static gint64
recorded_pid (JvmsHistory *history)
{
  const char *text = jvms_history_get_metadata (history, "jvm-pid");
  guint64 pid;
  return text != NULL && g_ascii_string_to_unsigned (text, 10, 1, G_MAXINT32, &pid, NULL) ? (gint64) pid : -1;
}

static void
append_list (GString *s, GPtrArray *jvms, gint64 recorded)
{
  for (guint i = 0; i < jvms->len; i++)
    {
      JvmsJvmEntry *e = g_ptr_array_index (jvms, i);
      g_string_append_printf (s, "\n  --pid %-8" G_GINT64_FORMAT " %s", e->pid, e->name[0] ? e->name : "?");
      if (e->command[0])
        g_string_append_printf (s, "  %s", e->command);
      g_string_append_printf (s, "  (%u %s)", e->n_threads, e->n_threads == 1 ? "thread" : "threads");
      if (e->pid == recorded)
        g_string_append (s, "  the recorded JVM");
    }
}

gboolean
jvms_scope_choose_jvm (JvmsHistory *history, const char *trace, gint64 asked, gint64 *pid, GError **error)
{
  g_return_val_if_fail (history != NULL, FALSE);
  g_autoptr(GPtrArray) jvms = jvms_scope_list_jvms (history);
  gint64 recorded = recorded_pid (history);
  const char *layers = jvms_history_get_metadata (history, "layers");
  gboolean has_jfr = layers == NULL || strstr (layers, "jfr") != NULL;
  *pid = -1;

  if (asked > 0)
    {
      gboolean known = asked == recorded;
      for (guint i = 0; !known && i < jvms->len; i++)
        known = ((JvmsJvmEntry *) g_ptr_array_index (jvms, i))->pid == asked;
      if (known && (!has_jfr || recorded <= 0 || asked == recorded))
        {
          *pid = asked;
          return TRUE;
        }
      g_autoptr(GString) s = g_string_new (NULL);
      if (known)
        g_string_printf (s, "%s: its flight recording is of the JVM %" G_GINT64_FORMAT "; process %" G_GINT64_FORMAT
                         " is seen by the kernel layer only and cannot be analysed as the recorded JVM",
                         trace, recorded, asked);
      else
        g_string_printf (s, "%s: process %" G_GINT64_FORMAT " is none of the JVMs in this trace", trace, asked);
      if (jvms->len > 0)
        {
          g_string_append (s, "; the JVMs are:");
          append_list (s, jvms, recorded);
        }
      g_set_error_literal (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_CHOOSE_JVM, s->str);
      return FALSE;
    }
  if (recorded > 0 || jvms->len == 0)
    {
      *pid = recorded;
      return TRUE;
    }
  g_autoptr(GString) s = g_string_new (NULL);
  /* English, as every message of analysis/: the window wraps it in translated words. */
  g_string_printf (s, "%s shows %u JVMs and does not say which one was recorded; choose one with --pid:",
                   trace, jvms->len);
  append_list (s, jvms, recorded);
  g_set_error_literal (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_CHOOSE_JVM, s->str);
  return FALSE;
}

void
jvms_scope_set_subject (JvmsHistory *history, gint64 pid)
{
  g_return_if_fail (history != NULL);
  g_autofree char *text = pid > 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, pid) : NULL;
  jvms_history_set_metadata_overlay (history, "jvm-pid", text);
}

void
jvms_scope_kernel_span (JvmsHistory *history, gint64 *first, gint64 *last)
{
  g_return_if_fail (history != NULL);
  *first = jvms_history_get_start_time (history);
  *last = jvms_history_get_end_time (history);
  /* "FIRST LAST" in epoch ns; absent from an index made before it was written */
  const char *text = jvms_history_get_metadata (history, "kernel-range");
  g_auto(GStrv) f = text != NULL ? g_strsplit (text, " ", 3) : NULL;
  gint64 a, b;
  if (f != NULL && g_strv_length (f) == 2 && g_ascii_string_to_signed (f[0], 10, *first, *last, &a, NULL)
      && g_ascii_string_to_signed (f[1], 10, a, *last, &b, NULL))
    {
      *first = a;
      *last = b;
    }
}

gboolean
jvms_scope_default_range (JvmsHistory *history, gint64 *from, gint64 *to, char **why)
{
  g_return_val_if_fail (history != NULL, FALSE);
  *from = jvms_history_get_start_time (history);
  *to = jvms_history_get_end_time (history);
  *why = NULL;
  /* "FROM TO" in epoch ns, within the history */
  const char *text = jvms_history_get_metadata (history, "default-range");
  g_auto(GStrv) f = text != NULL ? g_strsplit (text, " ", 3) : NULL;
  gint64 a, b;
  if (f == NULL || g_strv_length (f) != 2 || !g_ascii_string_to_signed (f[0], 10, *from, *to, &a, NULL)
      || !g_ascii_string_to_signed (f[1], 10, *from, *to, &b, NULL) || a >= b)
    return FALSE;
  gint64 start, end;
  jvms_scope_kernel_span (history, &start, &end);
  *from = a;
  *to = b;
  *why = g_strdup_printf ("where both layers recorded: the flight recording of the attached JVM; the kernel "
                          "layer has %.3f s more before it and %.3f s after it (--from 0 for the whole trace)",
                          (a - start) / 1e9, (end - b) / 1e9);
  return TRUE;
}
