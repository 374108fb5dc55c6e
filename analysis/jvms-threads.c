/* jvms-threads.c: the thread table shared by the JFR and kernel state machines. */
#include "jvms-threads.h"

#include "jvms-thread-list.h"

struct _JvmsThreads
{
  JvmsWriter *writer;
  GHashTable *by_tid;   /* gint64* -> JvmsThread* (owned by list) */
  GPtrArray  *list;
  GHashTable *jvm_pids; /* GINT_TO_POINTER (pid) set: processes running HotSpot's threads */
  GHashTable *execs;    /* GINT_TO_POINTER (pid) -> char* exec'd file */
  gint32      subject;  /* the recorded JVM, -1 unknown */
  JvmsSubjectSource subject_source;
};

/* A hostile trace can name many processes: the exec names and JVMs kept are bounded (past
 * MAX_JVMS, a process running HotSpot's threads stays another process). */
#define MAX_EXECS 65536
#define MAX_JVMS 4096
/* A person chooses among the JVMs listed: more lines would not help. */
#define MAX_JVMS_LISTED 256

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
  self->execs = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->subject = -1;
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
  g_hash_table_unref (self->execs);
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
  if (t->from_jfr)
    return TRUE;
  if (t->pid <= 0)
    return FALSE;
  /* HotSpot's thread names say that a process is a JVM, not that it is the one recorded. */
  if (self->subject > 0)
    return t->pid == self->subject;
  return g_hash_table_contains (self->jvm_pids, GINT_TO_POINTER (t->pid));
}

static void note_jfr_thread_pid (JvmsThreads *self, JvmsThread *t);

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
  note_jfr_thread_pid (self, t);
}

void
jvms_threads_set_pid (JvmsThreads *self, JvmsThread *t, gint32 pid)
{
  if (pid <= 0 || pid == t->pid)
    return;
  t->pid = pid;
  write_identity (self, t);
  note_jfr_thread_pid (self, t);
}

/* A thread JFR knows, with an OS thread id the kernel layer puts in a process: that process is
 * the JVM that wrote the recording (when nothing better says which). */
static void
note_jfr_thread_pid (JvmsThreads *self, JvmsThread *t)
{
  if (t->from_jfr && t->tid > 0 && t->pid > 0)
    jvms_threads_set_subject (self, t->pid, JVMS_SUBJECT_JFR_THREADS);
}

void
jvms_threads_set_subject (JvmsThreads *self, gint32 pid, JvmsSubjectSource source)
{
  if (pid <= 0 || source <= self->subject_source)
    return;
  gboolean changed = pid != self->subject;
  self->subject = pid;
  self->subject_source = source;
  if (changed)
    for (guint i = 0; i < self->list->len; i++)
      {
        JvmsThread *t = g_ptr_array_index (self->list, i);
        if (t->pid > 0)
          write_identity (self, t);
      }
}

void
jvms_threads_add_jvm_pid (JvmsThreads *self, gint32 pid)
{
  if (pid <= 0 || g_hash_table_contains (self->jvm_pids, GINT_TO_POINTER (pid))
      || g_hash_table_size (self->jvm_pids) >= MAX_JVMS)
    return;
  g_hash_table_add (self->jvm_pids, GINT_TO_POINTER (pid));
  /* With a subject, another JVM's threads stay another process's. */
  if (self->subject > 0)
    return;
  for (guint i = 0; i < self->list->len; i++)
    {
      JvmsThread *t = g_ptr_array_index (self->list, i);
      if (t->pid == pid)
        write_identity (self, t);
    }
}

void
jvms_threads_note_exec (JvmsThreads *self, gint32 pid, const char *filename)
{
  if (pid <= 0 || filename == NULL || filename[0] == '\0')
    return;
  if (g_hash_table_size (self->execs) >= MAX_EXECS && !g_hash_table_contains (self->execs, GINT_TO_POINTER (pid)))
    return;
  g_hash_table_insert (self->execs, GINT_TO_POINTER (pid), g_utf8_make_valid (filename, -1));
}

gint32
jvms_threads_get_subject (JvmsThreads *self)
{
  return self->subject > 0 ? self->subject : -1;
}

gint32
jvms_threads_get_jvm_pid (JvmsThreads *self)
{
  if (self->subject > 0)
    return self->subject;
  if (g_hash_table_size (self->jvm_pids) == 1)
    {
      GHashTableIter it;
      gpointer key;
      g_hash_table_iter_init (&it, self->jvm_pids);
      if (g_hash_table_iter_next (&it, &key, NULL))
        return GPOINTER_TO_INT (key);
    }
  return -1;
}

/* Tabs and line ends would break the metadata's lines; other control characters a terminal.
 * An exec'd path can be 4 KB: a field is cut at 256 bytes (on a character boundary). */
static void
append_field (GString *s, const char *text)
{
  const char *p = text != NULL ? text : "";
  for (gsize n = 0; *p != '\0' && (n < 256 || ((guchar) *p & 0xc0) == 0x80); p++, n++)
    g_string_append_c (s, (guchar) *p < 0x20 || *p == 0x7f ? '?' : *p);
}

static int
compare_pids (gconstpointer a, gconstpointer b)
{
  gint32 x = *(const gint32 *) a, y = *(const gint32 *) b;
  return (x > y) - (x < y);
}

typedef struct
{
  const char *name;
  guint       n_threads;
} JvmSummary;

char *
jvms_threads_describe_jvms (JvmsThreads *self)
{
  g_autoptr(GHashTable) jvms = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, self->jvm_pids);
  while (g_hash_table_iter_next (&it, &key, NULL))
    g_hash_table_insert (jvms, key, g_new0 (JvmSummary, 1));
  if (self->subject > 0 && !g_hash_table_contains (jvms, GINT_TO_POINTER (self->subject)))
    g_hash_table_insert (jvms, GINT_TO_POINTER (self->subject), g_new0 (JvmSummary, 1));
  for (guint k = 0; k < self->list->len; k++)
    {
      JvmsThread *t = g_ptr_array_index (self->list, k);
      JvmSummary *j = t->pid > 0 ? g_hash_table_lookup (jvms, GINT_TO_POINTER (t->pid)) : NULL;
      if (j == NULL)
        continue;
      j->n_threads++;
      if (t->tid == t->pid)
        j->name = best_name (t);
    }

  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_hash_table_iter_init (&it, jvms);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      gint32 pid = GPOINTER_TO_INT (key);
      g_array_append_val (pids, pid);
    }
  g_array_sort (pids, compare_pids);
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < pids->len && i < MAX_JVMS_LISTED; i++)
    {
      gint32 pid = g_array_index (pids, gint32, i);
      JvmSummary *j = g_hash_table_lookup (jvms, GINT_TO_POINTER (pid));
      g_string_append_printf (s, "%s%d\t", s->len ? "\n" : "", (int) pid);
      append_field (s, j->name);
      g_string_append_c (s, '\t');
      append_field (s, g_hash_table_lookup (self->execs, GINT_TO_POINTER (pid)));
      g_string_append_printf (s, "\t%u", j->n_threads);
    }
  return g_string_free (s, FALSE);
}

void
jvms_threads_flush (JvmsThreads *self)
{
  for (guint i = 0; i < self->list->len; i++)
    write_identity (self, g_ptr_array_index (self->list, i));
}

gint64
jvms_threads_tid_of_jfr (const JvmsJfrThread *t)
{
  if (t == NULL)
    return 0;
  if (t->os_thread_id > 0)
    return t->os_thread_id;
  if (t->java_thread_id > 0)
    return -t->java_thread_id;
  return 0;
}
