/* jvms-thread-list.c: see jvms-thread-list.h. */
#include "jvms-thread-list.h"

#include "jvms-states.h"

struct _JvmsThreadList
{
  GArray     *threads; /* JvmsThreadInfo */
  GHashTable *by_tid;  /* gint64* -> index + 1 */
};

char *
jvms_thread_key (gint64 tid)
{
  if (tid < 0)
    return g_strdup_printf ("v%" G_GINT64_FORMAT, -tid);
  return g_strdup_printf ("%" G_GINT64_FORMAT, tid);
}

gboolean
jvms_thread_key_parse (const char *key, gint64 *tid)
{
  gboolean is_virtual = FALSE;
  char *end = NULL;

  if (key == NULL || *key == '\0')
    return FALSE;
  if (key[0] == 'v')
    {
      is_virtual = TRUE;
      key++;
    }
  if (!g_ascii_isdigit (*key))
    return FALSE;
  gint64 v = g_ascii_strtoll (key, &end, 10);
  if (end == NULL || *end != '\0')
    return FALSE;
  *tid = is_virtual ? -v : v;
  return TRUE;
}

static void
clear_info (gpointer data)
{
  JvmsThreadInfo *info = data;
  g_free (info->name);
  g_free (info->key);
}

/* The identity attributes of every thread, in list order: what one query reads. */
enum { ID_NAME, ID_PID, ID_KIND, ID_JAVA_ID, N_ID };
static const char * const id_leaves[N_ID] = { "name", "pid", "kind", "java-id" };

typedef struct
{
  JvmsAttribute attribute;
  guint         thread;
  guint         field;
} IdSlot;

static void
set_identity (JvmsThreadInfo *info, guint field, const JvmsValue *v)
{
  if (field == ID_NAME)
    {
      if (v->type == JVMS_VALUE_STRING)
        {
          g_free (info->name);
          info->name = g_strdup (v->s);
        }
      return;
    }
  if (v->type != JVMS_VALUE_INT)
    return;
  if (field == ID_PID)
    info->pid = v->i;
  else if (field == ID_KIND)
    info->kind = v->i;
  else
    info->java_id = v->i;
}

/* Identity is never cleared once written (jvms-threads.c): the last value held at the end of
 * the history is the last value it ever took, and a range of the last nanosecond reads it in
 * one pass down the right edge of the tree. */
static void
read_identities (JvmsHistory *history, JvmsThreadList *self, GArray *slots)
{
  if (slots->len == 0)
    return;
  g_autoptr(GArray) attributes = g_array_sized_new (FALSE, FALSE, sizeof (JvmsAttribute), slots->len);
  for (guint i = 0; i < slots->len; i++)
    g_array_append_val (attributes, g_array_index (slots, IdSlot, i).attribute);
  gint64 start = jvms_history_get_start_time (history);
  gint64 end = jvms_history_get_end_time (history);
  g_autoptr(JvmsHistoryRange) range =
    jvms_history_query_range (history, MAX (start, end - 1), end,
                              (const JvmsAttribute *) attributes->data, attributes->len, NULL);
  if (range == NULL)
    return;
  /* Intervals come in the order of @attributes, each attribute's by start time. */
  guint pos = 0;
  JvmsInterval iv;
  while (jvms_history_range_next (range, &iv, NULL))
    {
      while (pos < slots->len && g_array_index (slots, IdSlot, pos).attribute != iv.attribute)
        pos++;
      if (pos == slots->len)
        break;
      if (iv.value.type == JVMS_VALUE_NULL)
        continue;
      const IdSlot *slot = &g_array_index (slots, IdSlot, pos);
      set_identity (&g_array_index (self->threads, JvmsThreadInfo, slot->thread), slot->field, &iv.value);
    }
}

/* The index classifies by name when it does not know the recorded JVM (a kernel-only trace of
 * several JVMs: every JVM's threads have JVM kinds). Once one is chosen (jvm-pid, laid over the
 * metadata by jvms_scope_set_subject), the others' threads are other processes' for every
 * reader, as the build makes them when the trace names the JVM. */
static void
mark_other_processes (JvmsHistory *history, JvmsThreadList *self)
{
  const char *text = jvms_history_get_metadata (history, "jvm-pid");
  guint64 jvm;
  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 1, G_MAXINT32, &jvm, NULL))
    return;
  for (guint i = 0; i < self->threads->len; i++)
    {
      JvmsThreadInfo *info = &g_array_index (self->threads, JvmsThreadInfo, i);
      if (info->pid >= 0 && info->pid != (gint64) jvm)
        info->kind = JVMS_THREAD_KIND_OTHER_PROCESS;
    }
}

JvmsThreadList *
jvms_thread_list_read (JvmsHistory *history)
{
  JvmsThreadList *self = g_new0 (JvmsThreadList, 1);
  self->threads = g_array_new (FALSE, TRUE, sizeof (JvmsThreadInfo));
  g_array_set_clear_func (self->threads, clear_info);
  self->by_tid = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  if (history == NULL)
    return self;
  JvmsAttribute root = jvms_history_lookup (history, "Threads");
  if (root == JVMS_ATTRIBUTE_INVALID)
    return self;

  g_autoptr(GArray) children = jvms_history_list_children (history, root);
  g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (IdSlot));
  for (guint i = 0; i < children->len; i++)
    {
      JvmsThreadInfo info = { 0 };
      info.folder = g_array_index (children, JvmsAttribute, i);
      const char *key = jvms_history_get_name (history, info.folder);
      if (!jvms_thread_key_parse (key, &info.tid))
        continue;
      info.key = g_strdup (key);
      info.name = g_strdup (key);
      info.pid = info.kind = info.java_id = -1;
      info.user_state = jvms_history_lookup_child (history, info.folder, "user-state");
      info.user_detail = jvms_history_lookup_child (history, info.user_state, "detail");
      info.user_monitor = jvms_history_lookup_child (history, info.user_state, "monitor");
      info.user_owner = jvms_history_lookup_child (history, info.user_state, "owner");
      info.kernel_state = jvms_history_lookup_child (history, info.folder, "kernel-state");
      info.kernel_syscall = jvms_history_lookup_child (history, info.kernel_state, "syscall");
      for (guint f = 0; f < N_ID; f++)
        {
          IdSlot slot = { jvms_history_lookup_child (history, info.folder, id_leaves[f]),
                          self->threads->len, f };
          if (slot.attribute != JVMS_ATTRIBUTE_INVALID)
            g_array_append_val (slots, slot);
        }
      g_array_append_val (self->threads, info);
      g_hash_table_insert (self->by_tid, g_memdup2 (&info.tid, sizeof info.tid),
                           GUINT_TO_POINTER (self->threads->len));
    }
  read_identities (history, self, slots);
  mark_other_processes (history, self);
  return self;
}

void
jvms_thread_list_free (JvmsThreadList *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->threads);
  g_hash_table_unref (self->by_tid);
  g_free (self);
}

guint
jvms_thread_list_get_len (JvmsThreadList *self)
{
  return self->threads->len;
}

const JvmsThreadInfo *
jvms_thread_list_get (JvmsThreadList *self, guint index)
{
  g_return_val_if_fail (index < self->threads->len, NULL);
  return &g_array_index (self->threads, JvmsThreadInfo, index);
}

const JvmsThreadInfo *
jvms_thread_list_lookup (JvmsThreadList *self, gint64 tid)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (self->by_tid, &tid));
  return index == 0 ? NULL : &g_array_index (self->threads, JvmsThreadInfo, index - 1);
}

gboolean
jvms_thread_info_is (const JvmsThreadInfo *info, const char *key_or_name)
{
  return g_strcmp0 (key_or_name, info->key) == 0 || g_strcmp0 (key_or_name, info->name) == 0;
}

const JvmsThreadInfo *
jvms_thread_list_find (JvmsThreadList *self, const char *key_or_name)
{
  for (guint i = 0; i < self->threads->len; i++)
    {
      const JvmsThreadInfo *info = &g_array_index (self->threads, JvmsThreadInfo, i);
      if (jvms_thread_info_is (info, key_or_name))
        return info;
    }
  return NULL;
}

char *
jvms_thread_pool_name (const char *name)
{
  GString *pool = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        {
          g_string_append_c (pool, *p);
          continue;
        }
      while (g_ascii_isdigit (p[1]))
        p++;
      if (pool->len == 0 || pool->str[pool->len - 1] != '#')
        g_string_append_c (pool, '#');
    }
  return g_string_free (pool, FALSE);
}
