/* jvms-explorer-query.c: the Explorer pane's records, statistics and errors (see the header). */
#include "config.h"

#include "jvms-explorer-query.h"

#include <string.h>

#include "jvms-quanta.h"
#include "jvms-record-expr.h"
#include "jvms-record-sets.h"

void
jvms_explorer_answer_free (JvmsExplorerAnswer *self)
{
  if (self == NULL)
    return;
  g_free (self->filter);
  g_free (self->metrics);
  g_clear_pointer (&self->table, jvms_record_table_free);
  g_clear_pointer (&self->rows, g_array_unref);
  g_free (self->stats);
  g_free (self->error);
  g_free (self);
}

char **
jvms_explorer_split_metrics (const char *metrics)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  const char *p = metrics != NULL ? metrics : "";
  const char *begin = p;
  char quote = 0;
  for (;; p++)
    {
      if (*p == '\0' || (*p == ';' && quote == 0))
        {
          g_autofree char *one = g_strstrip (g_strndup (begin, p - begin));
          if (*one != '\0')
            g_ptr_array_add (out, g_steal_pointer (&one));
          if (*p == '\0')
            break;
          begin = p + 1;
        }
      else if (quote != 0 && *p == '\\' && p[1] != '\0')
        p++;
      else if (quote == 0 && (*p == '"' || *p == '\''))
        quote = *p;
      else if (*p == quote)
        quote = 0;
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

JvmsExplorerAnswer *
jvms_explorer_query_run (JvmsHistory *history, const char *sets_path, gint64 from, gint64 to,
                         const char *filter, const char *metrics, GCancellable *cancellable)
{
  JvmsExplorerAnswer *a = g_new0 (JvmsExplorerAnswer, 1);
  a->from = from;
  a->to = to;
  a->filter = g_strstrip (g_strdup (filter != NULL ? filter : ""));
  a->metrics = g_strdup (metrics != NULL ? metrics : "");
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsRecordTable) table = jvms_quanta_read (history, from, to, &error);
  if (table == NULL)
    {
      a->error = g_strdup (error->message);
      return a;
    }
  /* The saved sets and metrics, as the command line reads them (a file that cannot be read
   * gives none: the pane still shows the quanta). Saved metrics first, less those the user
   * writes again, then the user's, in order. */
  g_autoptr(JvmsRecordSets) sets = jvms_record_sets_load (sets_path != NULL ? sets_path : "", NULL);
  if (sets == NULL)
    sets = jvms_record_sets_load ("", NULL);
  g_auto(GStrv) defs = jvms_explorer_split_metrics (metrics);
  for (guint i = 0; defs[i] != NULL; i++)
    {
      const char *eq = strchr (defs[i], '=');
      g_autofree char *name = eq != NULL ? g_strstrip (g_strndup (defs[i], eq - defs[i])) : NULL;
      if (name != NULL)
        jvms_record_sets_remove (sets, name);
    }
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  jvms_record_sets_add_metrics (sets, table, warnings);
  for (guint i = 0; defs[i] != NULL; i++)
    if (!jvms_record_expr_add_metric (table, defs[i], NULL, &error))
      {
        a->error = g_strdup (error->message);
        return a;
      }
  /* The same evaluation as the command line's: an unsaved definition. */
  const char *filters[] = { a->filter, NULL };
  JvmsRecordSetDef def = {
    .source = "quanta",
    .filters = *a->filter != '\0' ? filters : NULL,
  };
  g_autoptr(JvmsRecordSet) set = jvms_record_sets_evaluate_def (sets, &def, table, &error);
  if (set == NULL)
    {
      a->error = g_strdup (error->message);
      a->error_in_filter = TRUE;
      return a;
    }
  a->rows = jvms_record_stats_order (table, set, (guint) jvms_record_table_lookup (table, "start"));
  guint n_columns = jvms_record_table_get_n_columns (table);
  a->stats = g_new0 (JvmsRecordStats, n_columns);
  for (guint c = 0; c < n_columns && !g_cancellable_is_cancelled (cancellable); c++)
    if (jvms_record_table_is_metric (table, c))
      jvms_record_stats_compute (table, c, (const guint64 *) a->rows->data, a->rows->len, &a->stats[c]);
  a->table = g_steal_pointer (&table);
  return a;
}

typedef struct
{
  JvmsHistory *history;
  char        *sets_path;
  gint64       from, to;
  char        *filter, *metrics;
} Task;

static void
task_free (Task *t)
{
  jvms_history_unref (t->history);
  g_free (t->sets_path);
  g_free (t->filter);
  g_free (t->metrics);
  g_free (t);
}

static void
run_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Task *t = data;
  JvmsExplorerAnswer *a = jvms_explorer_query_run (t->history, t->sets_path, t->from, t->to, t->filter, t->metrics,
                                                   cancellable);
  if (g_task_return_error_if_cancelled (task))
    jvms_explorer_answer_free (a);
  else
    g_task_return_pointer (task, a, (GDestroyNotify) jvms_explorer_answer_free);
}

void
jvms_explorer_query_async (JvmsHistory *history, const char *sets_path, gint64 from, gint64 to, const char *filter,
                           const char *metrics, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Task *t = g_new0 (Task, 1);
  t->history = jvms_history_ref (history);
  t->sets_path = g_strdup (sets_path);
  t->from = from;
  t->to = to;
  t->filter = g_strdup (filter);
  t->metrics = g_strdup (metrics);
  g_task_set_task_data (task, t, (GDestroyNotify) task_free);
  g_task_run_in_thread (task, run_in_thread);
}

JvmsExplorerAnswer *
jvms_explorer_query_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
