/* jvms-threads.c: the thread table shared by the JFR and kernel state machines. */
#include "jvms-threads.h"

#include "jvms-thread-list.h"

struct _JvmsThreads
{
  JvmsWriter *writer;
  GHashTable *by_tid;   /* gint64* -> JvmsThread* (owned by list) */
  GPtrArray  *list;
  GHashTable *jvm_pids; /* GINT_TO_POINTER (pid) set */
  gint32      first_jvm_pid;
};

static void
thread_free (gpointer data)
{
  JvmsThread *t = data;
  g_free (t->java_name);
  g_free (t->comm);
  g_free (t);
}

JvmsThreads *
jvms_threads_new (JvmsWriter *writer)
{
  JvmsThreads *self = g_new0 (JvmsThreads, 1);
  self->writer = writer;
  self->by_tid = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->list = g_ptr_array_new_with_free_func (thread_free);
  self->jvm_pids = g_hash_table_new (NULL, NULL);
  self->first_jvm_pid = -1;
  return self;
}

void
jvms_threads_free (JvmsThreads *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_tid);
  g_ptr_array_unref (self->list);
  g_hash_table_unref (self->jvm_pids);
  g_free (self);
}

JvmsThread *
jvms_threads_lookup (JvmsThreads *self, gint64 tid)
{
  return g_hash_table_lookup (self->by_tid, &tid);
}

static const char *
best_name (JvmsThread *t)
{
  return t->java_name != NULL ? t->java_name : t->comm;
}

gboolean
jvms_threads_is_jvm (JvmsThreads *self, JvmsThread *t)
{
  return t->from_jfr || (t->pid > 0 && g_hash_table_contains (self->jvm_pids, GINT_TO_POINTER (t->pid)));
}

static void
write_identity (JvmsThreads *self, JvmsThread *t)
{
  JvmsWriter *w = self->writer;
  gint64 at = t->first_seen;
  t->kind = jvms_thread_kind_classify (best_name (t), jvms_threads_is_jvm (self, t), t->java_id);
  jvms_writer_set_string (w, t->a_name, at, best_name (t));
  /* The pid and java-id are made when known: a thread of another process has no java-id, a
   * virtual thread no pid, and every attribute costs the builder memory. */
  if (t->pid > 0)
    {
      if (t->a_pid == JVMS_ATTRIBUTE_INVALID)
        t->a_pid = jvms_writer_child (w, t->folder, "pid");
      jvms_writer_set_int (w, t->a_pid, at, t->pid);
    }
  jvms_writer_set_int (w, t->a_kind, at, t->kind);
  if (t->java_id >= 0)
    {
      if (t->a_java_id == JVMS_ATTRIBUTE_INVALID)
        t->a_java_id = jvms_writer_child (w, t->folder, "java-id");
      jvms_writer_set_int (w, t->a_java_id, at, t->java_id);
    }
  t->written = TRUE;
}

JvmsThread *
jvms_threads_get (JvmsThreads *self, gint64 tid, gint64 time)
{
  JvmsThread *t = jvms_threads_lookup (self, tid);
  if (t != NULL)
    return t;
  t = g_new0 (JvmsThread, 1);
  t->tid = tid;
  t->pid = -1;
  t->java_id = -1;
  t->first_seen = MAX (time, jvms_writer_get_start (self->writer));
  g_autofree char *key = jvms_thread_key (tid);
  t->folder = jvms_writer_attribute (self->writer, "Threads/%s", key);
  t->a_name = jvms_writer_child (self->writer, t->folder, "name");
  t->a_kind = jvms_writer_child (self->writer, t->folder, "kind");
  t->a_pid = t->a_java_id = JVMS_ATTRIBUTE_INVALID;
  g_ptr_array_add (self->list, t);
  g_hash_table_insert (self->by_tid, &t->tid, t);
  write_identity (self, t);
  return t;
}

void
jvms_threads_set_comm (JvmsThreads *self, JvmsThread *t, const char *comm)
{
  if (comm == NULL || comm[0] == '\0' || g_strcmp0 (comm, t->comm) == 0)
    return;
  g_free (t->comm);
  t->comm = g_utf8_make_valid (comm, -1);
  if (t->java_name == NULL)
    write_identity (self, t);
}

void
jvms_threads_set_java (JvmsThreads *self, JvmsThread *t, const char *java_name, gint64 java_id)
{
  gboolean changed = !t->from_jfr || t->java_id != java_id;
  t->from_jfr = TRUE;
  t->java_id = java_id;
  if (java_name != NULL && g_strcmp0 (java_name, t->java_name) != 0)
    {
      g_free (t->java_name);
      t->java_name = g_strdup (java_name);
      changed = TRUE;
    }
  if (changed)
    write_identity (self, t);
}

void
jvms_threads_set_pid (JvmsThreads *self, JvmsThread *t, gint32 pid)
{
  if (pid <= 0 || pid == t->pid)
    return;
  t->pid = pid;
  write_identity (self, t);
}

void
jvms_threads_add_jvm_pid (JvmsThreads *self, gint32 pid)
{
  if (pid <= 0 || g_hash_table_contains (self->jvm_pids, GINT_TO_POINTER (pid)))
    return;
  g_hash_table_add (self->jvm_pids, GINT_TO_POINTER (pid));
  if (self->first_jvm_pid < 0)
    self->first_jvm_pid = pid;
  for (guint i = 0; i < self->list->len; i++)
    {
      JvmsThread *t = g_ptr_array_index (self->list, i);
      if (t->pid == pid)
        write_identity (self, t);
    }
}

gint32
jvms_threads_get_jvm_pid (JvmsThreads *self)
{
  return self->first_jvm_pid;
}

void
jvms_threads_flush (JvmsThreads *self)
{
  for (guint i = 0; i < self->list->len; i++)
    write_identity (self, g_ptr_array_index (self->list, i));
}

