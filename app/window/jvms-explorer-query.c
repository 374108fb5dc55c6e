/* jvms-explorer-query.c: the Explorer pane's records, statistics and errors (see the header). */
#include "config.h"

#include "jvms-explorer-query.h"

#include <glib/gi18n.h>
#include <string.h>

#include "jvms-event-store.h"
#include "jvms-quanta.h"
#include "jvms-record-events.h"
#include "jvms-record-expr.h"
#include "jvms-thread-list.h"

void
jvms_explorer_set_text_clear (JvmsExplorerSetText *self)
{
  g_clear_pointer (&self->first, g_free);
  g_clear_pointer (&self->unions, g_strfreev);
  g_clear_pointer (&self->intersects, g_strfreev);
  g_clear_pointer (&self->minus, g_strfreev);
}

gboolean
jvms_explorer_set_text_parse (const char *text, JvmsExplorerSetText *out, GError **error)
{
  memset (out, 0, sizeof *out);
  g_auto(GStrv) tokens = g_strsplit_set (text != NULL ? text : "", " \t", -1);
  GPtrArray *lists[3] = { g_ptr_array_new (), g_ptr_array_new (), g_ptr_array_new () };
  gboolean ok = TRUE;
  int op = -1; /* the sign waiting for its name */
  for (guint i = 0; ok && tokens[i] != NULL; i++)
    {
      const char *t = tokens[i];
      int sign = strcmp (t, "|") == 0 ? 0 : strcmp (t, "&") == 0 ? 1 : strcmp (t, "-") == 0 ? 2 : -1;
      if (*t == '\0')
        continue;
      if (out->first == NULL && sign < 0)
        out->first = g_strdup (t);
      else if (out->first != NULL && op < 0 && sign >= 0)
        op = sign;
      else if (op >= 0 && sign < 0)
        {
          g_ptr_array_add (lists[op], g_strdup (t));
          op = -1;
        }
      else
        ok = FALSE;
    }
  if (op >= 0)
    ok = FALSE;
  GStrv *dest[3] = { &out->unions, &out->intersects, &out->minus };
  for (guint l = 0; l < 3; l++)
    {
      g_ptr_array_add (lists[l], NULL);
      *dest[l] = (GStrv) g_ptr_array_free (lists[l], FALSE);
    }
  if (!ok)
    {
      jvms_explorer_set_text_clear (out);
      /* Translators: %s is the text of the Explorer's Set entry. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("set “%s”: write SET, then | NAME (union), & NAME (intersection) or - NAME (difference), with spaces around each sign"),
                   text);
      return FALSE;
    }
  if (out->first == NULL)
    out->first = g_strdup ("quanta");
  return TRUE;
}

void
jvms_explorer_request_free (JvmsExplorerRequest *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->history, jvms_history_unref);
  g_free (self->sets_path);
  g_free (self->events_path);
  g_free (self->set);
  g_free (self->filter);
  g_free (self->metrics);
  g_free (self->markers);
  g_clear_pointer (&self->cached, jvms_record_table_free);
  g_free (self->cached_source);
  g_free (self);
}

void
jvms_explorer_answer_free (JvmsExplorerAnswer *self)
{
  if (self == NULL)
    return;
  g_free (self->set);
  g_free (self->filter);
  g_free (self->metrics);
  g_free (self->markers);
  g_free (self->source);
  g_clear_pointer (&self->table, jvms_record_table_free);
  g_clear_pointer (&self->read, jvms_record_table_free);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->marks, g_array_unref);
  g_strfreev (self->saved_sets);
  g_strfreev (self->event_types);
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

/* The source of the set written (quanta, events:TYPE, or the saved set's), NULL with a message
 * when it names no saved set. */
static char *
set_source (JvmsRecordSets *sets, const char *first, const char *sets_path, GError **error)
{
  if (strcmp (first, "quanta") == 0 || g_str_has_prefix (first, "events:"))
    return g_strdup (first);
  char *source = jvms_record_sets_get_source (sets, first);
  if (source == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 _("%s: no saved set is named “%s” (sources: quanta, events:TYPE)"),
                 sets_path != NULL ? sets_path : _("no saved sets"), first);
  return source;
}

/* The records of @source in [from, to): the quanta, or the events of a type. */
static JvmsRecordTable *
read_source (const JvmsExplorerRequest *r, JvmsEventStore *store, const char *source, GError **error)
{
  if (strcmp (source, "quanta") == 0)
    return jvms_quanta_read (r->history, r->from, r->to, error);
  if (store == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s: this trace has no event store (yet)"), source);
      return NULL;
    }
  JvmsThreadList *threads = jvms_thread_list_read (r->history);
  JvmsRecordTable *t = jvms_record_events_read (store, threads, source + strlen ("events:"),
                                                jvms_history_get_start_time (r->history), r->from, r->to, error);
  jvms_thread_list_free (threads);
  return t;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The types with events, as sources ("events:TYPE"), sorted. */
static GStrv
event_types (JvmsEventStore *store)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new ();
  for (guint i = 0; store != NULL && i < jvms_event_store_get_n_types (store); i++)
    {
      const JvmsEventTypeInfo *info = jvms_event_store_get_type (store, i);
      if (info != NULL && info->n_rows > 0)
        g_ptr_array_add (out, g_strconcat ("events:", info->name, NULL));
    }
  g_ptr_array_sort (out, compare_names);
  g_ptr_array_add (out, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

/* The events of type @markers in the range, as (start, duration) pairs for the graph. */
static GArray *
read_marks (const JvmsExplorerRequest *r, JvmsEventStore *store, GError **error)
{
  g_autofree char *source = g_strconcat ("events:", r->markers, NULL);
  g_autoptr(JvmsRecordTable) t = read_source (r, store, source, error);
  if (t == NULL)
    return NULL;
  int cs = jvms_record_table_lookup (t, "epoch_ns"), cd = jvms_record_table_lookup (t, "duration");
  GArray *marks = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint64 row = 0; cs >= 0 && row < jvms_record_table_get_n_rows (t); row++)
    {
      gint64 start = jvms_record_table_get_int (t, (guint) cs, row);
      gint64 d = cd >= 0 ? jvms_record_table_get_int (t, (guint) cd, row) : JVMS_RECORD_NULL_INT;
      gint64 pair[2] = { start, d == JVMS_RECORD_NULL_INT ? -1 : d };
      g_array_append_vals (marks, pair, 2);
    }
  return marks;
}

JvmsExplorerAnswer *
jvms_explorer_query_run (const JvmsExplorerRequest *r, GCancellable *cancellable)
{
  JvmsExplorerAnswer *a = g_new0 (JvmsExplorerAnswer, 1);
  a->from = r->from;
  a->to = r->to;
  a->set = g_strstrip (g_strdup (r->set != NULL ? r->set : ""));
  a->filter = g_strstrip (g_strdup (r->filter != NULL ? r->filter : ""));
  a->metrics = g_strdup (r->metrics != NULL ? r->metrics : "");
  a->markers = g_strstrip (g_strdup (r->markers != NULL ? r->markers : ""));
  g_autoptr(GError) error = NULL;
  /* The saved sets and metrics, as the command line reads them (a file that cannot be read
   * gives none: the pane still shows the records). */
  g_autoptr(JvmsRecordSets) sets = jvms_record_sets_load (r->sets_path != NULL ? r->sets_path : "", NULL);
  if (sets == NULL)
    sets = jvms_record_sets_load ("", NULL);
  a->saved_sets = jvms_record_sets_list (sets);
  g_autoptr(JvmsEventStore) store = NULL;
  if (r->events_path != NULL)
    store = jvms_event_store_open (r->events_path, NULL);
  a->event_types = event_types (store);

  JvmsExplorerSetText set;
  if (!jvms_explorer_set_text_parse (a->set, &set, &error))
    {
      a->error = g_strdup (error->message);
      a->error_in_set = TRUE;
      return a;
    }
  a->source = set_source (sets, set.first, r->sets_path, &error);
  if (a->source == NULL)
    {
      a->error = g_strdup (error->message);
      a->error_in_set = TRUE;
      jvms_explorer_set_text_clear (&set);
      return a;
    }
  if (*a->markers != '\0')
    {
      a->marks = read_marks (r, store, &error);
      if (a->marks == NULL)
        {
          a->error = g_strdup (error->message);
          a->error_in_markers = TRUE;
          jvms_explorer_set_text_clear (&set);
          return a;
        }
    }

  /* The records: those the last query read when they are of the same source and range, else
   * read now (and kept by the pane for the next). Metrics go in a share of them, never in them. */
  g_autoptr(JvmsRecordTable) table = NULL;
  if (r->cached != NULL && g_strcmp0 (r->cached_source, a->source) == 0)
    table = jvms_record_table_share (r->cached);
  else
    {
      a->read = read_source (r, store, a->source, &error);
      if (a->read == NULL)
        {
          a->error = g_strdup (error->message);
          a->error_in_set = TRUE;
          jvms_explorer_set_text_clear (&set);
          return a;
        }
      table = jvms_record_table_share (a->read);
    }

  /* Saved metrics first, less those the user writes again, then the user's, in order. */
  g_auto(GStrv) defs = jvms_explorer_split_metrics (r->metrics);
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
        jvms_explorer_set_text_clear (&set);
        return a;
      }
  /* The same evaluation as the command line's. */
  const char *filters[] = { a->filter, NULL };
  gboolean saved = strcmp (set.first, a->source) != 0;
  JvmsRecordSetDef def = {
    .source = a->source,
    .base = saved ? set.first : NULL,
    .filters = *a->filter != '\0' ? filters : NULL,
    .unions = (const char * const *) set.unions,
    .intersects = (const char * const *) set.intersects,
    .minus = (const char * const *) set.minus,
  };
  g_autoptr(JvmsRecordSet) rows = jvms_record_sets_evaluate_def (sets, &def, table, &error);
  jvms_explorer_set_text_clear (&set);
  if (rows == NULL)
    {
      a->error = g_strdup (error->message);
      /* A filter's message quotes the expression; a set's names the set. */
      a->error_in_filter = error->domain == JVMS_RECORD_EXPR_ERROR;
      a->error_in_set = !a->error_in_filter;
      return a;
    }
  int start = jvms_record_table_lookup (table, "start");
  a->rows = jvms_record_stats_order (table, rows, (guint) MAX (start, 0));
  guint n_columns = jvms_record_table_get_n_columns (table);
  a->stats = g_new0 (JvmsRecordStats, n_columns);
  for (guint c = 0; c < n_columns && !g_cancellable_is_cancelled (cancellable); c++)
    if (jvms_record_table_is_metric (table, c))
      jvms_record_stats_compute (table, c, (const guint64 *) a->rows->data, a->rows->len, &a->stats[c]);
  a->table = g_steal_pointer (&table);
  return a;
}

static void
run_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  JvmsExplorerAnswer *a = jvms_explorer_query_run (data, cancellable);
  if (g_task_return_error_if_cancelled (task))
    jvms_explorer_answer_free (a);
  else
    g_task_return_pointer (task, a, (GDestroyNotify) jvms_explorer_answer_free);
}

void
jvms_explorer_query_async (JvmsExplorerRequest *request, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_task_data (task, request, (GDestroyNotify) jvms_explorer_request_free);
  g_task_run_in_thread (task, run_in_thread);
}

JvmsExplorerAnswer *
jvms_explorer_query_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
jvms_explorer_save_set (const char *sets_path, const char *name, const char *set_text, const char *filter,
                        const char *metrics, GError **error)
{
  g_autoptr(JvmsRecordSets) sets = jvms_record_sets_load (sets_path, error);
  if (sets == NULL)
    return FALSE;
  JvmsExplorerSetText set;
  if (!jvms_explorer_set_text_parse (set_text, &set, error))
    return FALSE;
  g_autofree char *source = set_source (sets, set.first, sets_path, error);
  g_autofree char *f = g_strstrip (g_strdup (filter != NULL ? filter : ""));
  const char *filters[] = { f, NULL };
  JvmsRecordSetDef def = {
    .source = source,
    .base = source != NULL && strcmp (set.first, source) != 0 ? set.first : NULL,
    .filters = *f != '\0' ? filters : NULL,
    .unions = (const char * const *) set.unions,
    .intersects = (const char * const *) set.intersects,
    .minus = (const char * const *) set.minus,
  };
  gboolean ok = source != NULL && jvms_record_sets_define (sets, name, &def, error);
  jvms_explorer_set_text_clear (&set);
  g_auto(GStrv) defs = jvms_explorer_split_metrics (metrics);
  for (guint i = 0; ok && defs[i] != NULL; i++)
    {
      const char *eq = strchr (defs[i], '=');
      if (eq == NULL)
        continue;
      g_autofree char *metric = g_strstrip (g_strndup (defs[i], eq - defs[i]));
      ok = jvms_record_sets_define_metric (sets, metric, eq + 1, error);
    }
  return ok && jvms_record_sets_save (sets, error);
}

gboolean
jvms_explorer_delete_set (const char *sets_path, const char *name, GError **error)
{
  g_autoptr(JvmsRecordSets) sets = jvms_record_sets_load (sets_path, error);
  if (sets == NULL)
    return FALSE;
  if (!jvms_record_sets_remove (sets, name))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s: no saved set or metric is named “%s”"),
                   sets_path, name);
      return FALSE;
    }
  return jvms_record_sets_save (sets, error);
}
