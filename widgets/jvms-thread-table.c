/* jvms-thread-table.c */
#include "jvms-thread-table.h"

#include <stdlib.h>

struct _JvmsThreadTable
{
  GArray     *threads; /* JvmsThreadInfo */
  GHashTable *by_tid;  /* gint64* -> index + 1 */
};

gboolean
jvms_view_parse_tid (const char *key,
                     gint64     *tid)
{
  gboolean is_virtual = FALSE;
  char *end = NULL;
  gint64 v;

  if (key == NULL || *key == '\0')
    return FALSE;
  if (key[0] == 'v')
    {
      is_virtual = TRUE;
      key++;
    }
  if (!g_ascii_isdigit (*key))
    return FALSE;
  v = g_ascii_strtoll (key, &end, 10);
  if (end == NULL || *end != '\0')
    return FALSE;
  *tid = is_virtual ? -v : v;
  return TRUE;
}

/* Times at which names, kinds and classes are looked up: the end first (the last name seen),
 * then points through the trace for threads that ended before it. Each is one query_full: one
 * path down the tree, whatever the number of attributes, where a summary over the whole history
 * would walk every node for attributes that changed too rarely to have summary levels. */
#define N_PROBES 5

void
jvms_view_attribute_values (JvmsHistory         *history,
                            const JvmsAttribute *attributes,
                            guint                n_attributes,
                            JvmsValue           *out,
                            gboolean            *found)
{
  static const double probes[N_PROBES] = { 1.0, 0.0, 0.5, 0.25, 0.75 };
  g_autoptr(GArray) full = g_array_new (FALSE, TRUE, sizeof (JvmsInterval));
  gint64 start = jvms_history_get_start_time (history);
  gint64 end = jvms_history_get_end_time (history);
  guint missing = 0;

  for (guint i = 0; i < n_attributes; i++)
    {
      found[i] = FALSE;
      out[i] = JVMS_VALUE_INIT_NULL;
      missing += attributes[i] != JVMS_ATTRIBUTE_INVALID;
    }
  for (guint p = 0; p < N_PROBES && missing > 0 && end >= start; p++)
    {
      gint64 t = start + (gint64) (probes[p] * (double) (end - start));

      if (!jvms_history_query_full (history, t, full, NULL))
        continue;
      for (guint i = 0; i < n_attributes; i++)
        {
          const JvmsInterval *iv;
          if (found[i] || attributes[i] == JVMS_ATTRIBUTE_INVALID || attributes[i] >= full->len)
            continue;
          iv = &g_array_index (full, JvmsInterval, attributes[i]);
          if (iv->value.type == JVMS_VALUE_NULL)
            continue;
          out[i] = iv->value;
          found[i] = TRUE;
          missing--;
        }
    }
}

gboolean
jvms_view_attribute_value (JvmsHistory   *history,
                           JvmsAttribute  attribute,
                           JvmsValue     *out)
{
  gboolean found;
  jvms_view_attribute_values (history, &attribute, 1, out, &found);
  return found;
}

static void
clear_info (gpointer data)
{
  JvmsThreadInfo *info = data;
  g_free (info->name);
  g_free (info->key);
}

JvmsThreadTable *
jvms_thread_table_new (JvmsHistory *history)
{
  JvmsThreadTable *self = g_new0 (JvmsThreadTable, 1);
  JvmsAttribute root;
  g_autoptr(GArray) children = NULL;

  self->threads = g_array_new (FALSE, TRUE, sizeof (JvmsThreadInfo));
  g_array_set_clear_func (self->threads, clear_info);
  self->by_tid = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  if (history == NULL)
    return self;
  root = jvms_history_lookup (history, "Threads");
  if (root == JVMS_ATTRIBUTE_INVALID)
    return self;
  children = jvms_history_list_children (history, root);
  {
    g_autoptr(GArray) attrs = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
    g_autofree JvmsValue *values = NULL;
    g_autofree gboolean *found = NULL;

    for (guint i = 0; i < children->len; i++)
      {
        JvmsThreadInfo info = { 0 };

        info.folder = g_array_index (children, JvmsAttribute, i);
        if (!jvms_view_parse_tid (jvms_history_get_name (history, info.folder), &info.tid))
          continue;
        info.key = g_strdup (jvms_history_get_name (history, info.folder));
        info.user_state = jvms_history_lookup_child (history, info.folder, "user-state");
        info.kernel_state = jvms_history_lookup_child (history, info.folder, "kernel-state");
        info.kind = -1;
        info.pid = -1;
        g_array_append_val (self->threads, info);
        info.folder = jvms_history_lookup_child (history, info.folder, "name");
        g_array_append_val (attrs, info.folder);
        info.folder = jvms_history_lookup_child (history,
                                                 g_array_index (children, JvmsAttribute, i),
                                                 "kind");
        g_array_append_val (attrs, info.folder);
        info.folder = jvms_history_lookup_child (history,
                                                 g_array_index (children, JvmsAttribute, i),
                                                 "pid");
        g_array_append_val (attrs, info.folder);
      }
    /* Names, kinds and processes of every thread in one batch. */
    values = g_new (JvmsValue, MAX (attrs->len, 1));
    found = g_new (gboolean, MAX (attrs->len, 1));
    jvms_view_attribute_values (history, (JvmsAttribute *) attrs->data, attrs->len, values, found);
    for (guint i = 0; i < self->threads->len; i++)
      {
        JvmsThreadInfo *info = &g_array_index (self->threads, JvmsThreadInfo, i);
        const JvmsValue *name = &values[3 * i], *kind = &values[3 * i + 1];
        const JvmsValue *pid = &values[3 * i + 2];

        info->name = g_strdup (found[3 * i] && name->type == JVMS_VALUE_STRING ? name->s : info->key);
        if (found[3 * i + 1] && kind->type == JVMS_VALUE_INT)
          info->kind = kind->i;
        if (found[3 * i + 2] && pid->type == JVMS_VALUE_INT)
          info->pid = pid->i;
        g_hash_table_insert (self->by_tid, g_memdup2 (&info->tid, sizeof info->tid),
                             GUINT_TO_POINTER (i + 1));
      }
  }
  return self;
}

void
jvms_thread_table_free (JvmsThreadTable *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->threads);
  g_hash_table_unref (self->by_tid);
  g_free (self);
}

guint
jvms_thread_table_get_len (JvmsThreadTable *self)
{
  return self->threads->len;
}

const JvmsThreadInfo *
jvms_thread_table_get (JvmsThreadTable *self,
                       guint            index)
{
  g_return_val_if_fail (index < self->threads->len, NULL);
  return &g_array_index (self->threads, JvmsThreadInfo, index);
}

const JvmsThreadInfo *
jvms_thread_table_lookup (JvmsThreadTable *self,
                          gint64           tid)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (self->by_tid, &tid));
  return index == 0 ? NULL : &g_array_index (self->threads, JvmsThreadInfo, index - 1);
}
