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

gboolean
jvms_view_attribute_value (JvmsHistory   *history,
                           JvmsAttribute  attribute,
                           JvmsValue     *out)
{
  JvmsSummaryCell cell;
  JvmsInterval interval;
  gint64 start = jvms_history_get_start_time (history);
  gint64 end = jvms_history_get_end_time (history);
  g_autoptr(JvmsHistoryRange) range = NULL;
  gboolean found = FALSE;

  if (attribute == JVMS_ATTRIBUTE_INVALID || end <= start)
    return FALSE;
  /* One column over the whole history: its cost does not grow with the trace. */
  if (jvms_history_query_summary (history, start, end, &attribute, 1, 1, &cell, NULL) &&
      cell.dominant.type != JVMS_VALUE_NULL)
    {
      *out = cell.dominant;
      return TRUE;
    }
  if (jvms_history_query_single (history, attribute, end, &interval, NULL) &&
      interval.value.type != JVMS_VALUE_NULL)
    {
      *out = interval.value;
      return TRUE;
    }
  /* A thread that lived briefly: walk its intervals (few, since it held a value rarely). */
  range = jvms_history_query_range (history, start, end, &attribute, 1, NULL);
  while (range != NULL && jvms_history_range_next (range, &interval, NULL))
    if (interval.value.type != JVMS_VALUE_NULL)
      {
        *out = interval.value;
        found = TRUE;
      }
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
  for (guint i = 0; i < children->len; i++)
    {
      JvmsThreadInfo info = { 0 };
      JvmsValue value;
      JvmsAttribute a;

      info.folder = g_array_index (children, JvmsAttribute, i);
      if (!jvms_view_parse_tid (jvms_history_get_name (history, info.folder), &info.tid))
        continue;
      info.key = g_strdup (jvms_history_get_name (history, info.folder));
      info.user_state = jvms_history_lookup_child (history, info.folder, "user-state");
      info.kernel_state = jvms_history_lookup_child (history, info.folder, "kernel-state");
      a = jvms_history_lookup_child (history, info.folder, "name");
      if (jvms_view_attribute_value (history, a, &value) && value.type == JVMS_VALUE_STRING)
        info.name = g_strdup (value.s);
      else
        info.name = g_strdup (info.key);
      info.kind = -1;
      a = jvms_history_lookup_child (history, info.folder, "kind");
      if (jvms_view_attribute_value (history, a, &value) && value.type == JVMS_VALUE_INT)
        info.kind = value.i;
      g_array_append_val (self->threads, info);
      g_hash_table_insert (self->by_tid, g_memdup2 (&info.tid, sizeof info.tid),
                           GUINT_TO_POINTER (self->threads->len));
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
