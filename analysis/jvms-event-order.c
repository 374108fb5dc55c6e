/* jvms-event-order.c: text filter and column sort of a selection, by external merge sort of
 * (key, row) pairs (see the header). */
#include "jvms-event-order.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jvms-background.h"
#include "jvms-event-text.h"
#include "jvms-trace-detect.h"

/* Pairs sorted in memory at once (64 MiB), and the largest permutation kept in memory. */
#define RUN_PAIRS        (G_GUINT64_CONSTANT (4) << 20)
#define MAX_DISTINCT     (1u << 20)
#define CHECK_EVERY      4096
#define NULL_KEY         G_MAXUINT64

typedef struct
{
  guint64 key;
  guint64 row;
} Pair;

struct _JvmsEventOrder
{
  GObject             parent_instance;
  JvmsEventSelection *selection;
  JvmsEventStore     *store;
  JvmsEventCursor    *cursor;
  guint64             n;
  gboolean            descending;
  guint64            *ids;       /* in memory, or */
  GMappedFile        *map;       /* a mapped temporary file of n row ids */
};

static void source_iface_init (JvmsRecordSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (JvmsEventOrder, jvms_event_order, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (JVMS_TYPE_RECORD_SOURCE, source_iface_init))

static void
jvms_event_order_finalize (GObject *object)
{
  JvmsEventOrder *self = JVMS_EVENT_ORDER (object);
  g_clear_pointer (&self->cursor, jvms_event_cursor_free);
  g_clear_pointer (&self->store, jvms_event_store_unref);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->map, g_mapped_file_unref);
  g_free (self->ids);
  G_OBJECT_CLASS (jvms_event_order_parent_class)->finalize (object);
}

static void
jvms_event_order_class_init (JvmsEventOrderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jvms_event_order_finalize;
}

static void
jvms_event_order_init (JvmsEventOrder *self)
{
}

guint64
jvms_event_order_get_row (JvmsEventOrder *self, guint64 position)
{
  g_return_val_if_fail (position < self->n, 0);
  guint64 i = self->descending ? self->n - 1 - position : position;
  if (self->ids != NULL)
    return self->ids[i];
  guint64 id;
  memcpy (&id, g_mapped_file_get_contents (self->map) + i * sizeof id, sizeof id);
  return id;
}

static guint64
get_n_records (JvmsRecordSource *source)
{
  return JVMS_EVENT_ORDER (source)->n;
}

typedef struct
{
  guint64 row;
  guint   index;   /* in the page */
} PageRow;

static int
page_row_cmp (gconstpointer a, gconstpointer b)
{
  const PageRow *x = a, *y = b;
  return x->row < y->row ? -1 : x->row > y->row;
}

/* A sorted page's rows lie anywhere: they are read in row order (each block decoded once for
 * the page), then given in the page's order. */
static gboolean
read_records (JvmsRecordSource *source, guint64 position, guint n, JvmsEventBatch *batch,
              GError **error)
{
  JvmsEventOrder *self = JVMS_EVENT_ORDER (source);
  if (position >= self->n)
    return TRUE;
  guint count = (guint) MIN ((guint64) n, self->n - position);
  g_autofree PageRow *rows = g_new (PageRow, MAX (count, 1));
  for (guint i = 0; i < count; i++)
    rows[i] = (PageRow) { jvms_event_order_get_row (self, position + i), i };
  qsort (rows, count, sizeof (PageRow), page_row_cmp);
  g_autoptr(JvmsEventBatch) by_row = jvms_event_batch_new ();
  g_autofree guint *slot = g_new (guint, MAX (count, 1));
  for (guint i = 0; i < count; i++)
    {
      JvmsEventRecord r;
      if (!jvms_event_cursor_read (self->cursor, rows[i].row, &r, error))
        return FALSE;
      jvms_event_batch_add (by_row, &r);
      slot[rows[i].index] = i;
    }
  for (guint i = 0; i < count; i++)
    {
      JvmsEventRecord r;
      jvms_event_batch_get (by_row, slot[i], &r);
      jvms_event_batch_add (batch, &r);
    }
  return TRUE;
}

static guint
get_n_types (JvmsRecordSource *source)
{
  return jvms_event_store_get_n_types (JVMS_EVENT_ORDER (source)->store);
}

static const JvmsEventTypeInfo *
get_type_info (JvmsRecordSource *source, guint32 type)
{
  return jvms_event_store_get_type (JVMS_EVENT_ORDER (source)->store, type);
}

static void
source_iface_init (JvmsRecordSourceInterface *iface)
{
  iface->get_n_records = get_n_records;
  iface->read = read_records;
  iface->get_n_types = get_n_types;
  iface->get_type_info = get_type_info;
}

JvmsEventSelection *
jvms_event_order_get_selection (JvmsEventOrder *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_ORDER (self), NULL);
  return self->selection;
}

/* ------------------------------------------------------------------------------------------ */
/* The work */

typedef struct
{
  JvmsEventSelection *selection;
  JvmsEventStore     *store;
  JvmsEventColumn     column;
  char               *field;
  gboolean            descending;
  char               *text;          /* ASCII-lowercased; NULL for none */
  GHashTable         *thread_names;  /* tid -> name (copied) */
  gint               *field_of_type; /* FIELD: per type, the field's index or -1 */
  guint32            *type_rank;     /* TYPE */
  GHashTable         *thread_rank;   /* THREAD: tid -> rank + 1 */
  GHashTable         *strings;       /* FIELD of strings: value -> rank (first: id + 1) */
  gboolean            prefix_only;   /* too many distinct strings: 8-byte prefixes */
  GCancellable       *cancellable;
  guint64             seen;
  Pair               *buf;
  guint64             n_buf;
  guint64             run_pairs;     /* RUN_PAIRS, lowered by the tests */
  GArray             *runs;          /* FILE *: sorted runs */
  guint64             n;
  GString            *scratch;
  GError             *error;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->selection);
  g_clear_pointer (&job->store, jvms_event_store_unref);
  g_free (job->field);
  g_free (job->text);
  g_clear_pointer (&job->thread_names, g_hash_table_unref);
  g_free (job->field_of_type);
  g_free (job->type_rank);
  g_clear_pointer (&job->thread_rank, g_hash_table_unref);
  g_clear_pointer (&job->strings, g_hash_table_unref);
  g_clear_object (&job->cancellable);
  g_free (job->buf);
  for (guint i = 0; job->runs != NULL && i < job->runs->len; i++)
    fclose (g_array_index (job->runs, FILE *, i));
  g_clear_pointer (&job->runs, g_array_unref);
  if (job->scratch != NULL)
    g_string_free (job->scratch, TRUE);
  g_clear_error (&job->error);
  g_free (job);
}

static guint64
encode_int (gint64 v)
{
  return (guint64) v ^ (G_GUINT64_CONSTANT (1) << 63);
}

static guint64
encode_double (double d)
{
  guint64 bits;
  memcpy (&bits, &d, sizeof bits);
  return (bits >> 63) ? ~bits : bits | (G_GUINT64_CONSTANT (1) << 63);
}

static guint64
prefix_key (const char *s)
{
  guint64 k = 0;
  for (guint i = 0; i < 8; i++)
    {
      k <<= 8;
      if (*s != '\0')
        k |= (guchar) *s++;
    }
  return k;
}

static const char *
thread_name (Job *job, gint64 tid)
{
  return job->thread_names != NULL ? g_hash_table_lookup (job->thread_names, &tid) : NULL;
}

static gboolean
text_in (const char *haystack, const char *needle)
{
  return haystack != NULL && strcasestr (haystack, needle) != NULL;
}

static gboolean
matches_text (Job *job, const JvmsEventRecord *r)
{
  if (job->text == NULL)
    return TRUE;
  const JvmsEventTypeInfo *t = jvms_event_store_get_type (job->store, r->type);
  if (text_in (t->name, job->text) || text_in (thread_name (job, r->tid), job->text))
    return TRUE;
  char tid[24];
  g_snprintf (tid, sizeof tid, "%" G_GINT64_FORMAT, r->tid);
  if (strstr (tid, job->text) != NULL)
    return TRUE;
  for (guint i = 0; i < r->n_values; i++)
    {
      const JvmsEventValue *v = &r->values[i];
      if (v->kind == JVMS_EVENT_VALUE_STRING)
        {
          if (text_in (v->s, job->text))
            return TRUE;
          continue;
        }
      g_string_truncate (job->scratch, 0);
      jvms_event_value_append_raw (job->scratch, v);
      if (text_in (job->scratch->str, job->text))
        return TRUE;
    }
  return FALSE;
}

static guint64
key_of (Job *job, const JvmsEventRecord *r)
{
  switch (job->column)
    {
    case JVMS_EVENT_COLUMN_DURATION:
      return r->duration >= 0 ? encode_int (r->duration) : NULL_KEY;
    case JVMS_EVENT_COLUMN_TYPE:
      return job->type_rank[r->type];
    case JVMS_EVENT_COLUMN_THREAD:
      return GPOINTER_TO_UINT (g_hash_table_lookup (job->thread_rank, &r->tid));
    case JVMS_EVENT_COLUMN_FIELD:
      {
        gint f = job->field_of_type[r->type];
        const JvmsEventValue *v = f >= 0 ? jvms_event_record_find_value (r, (guint) f) : NULL;
        if (v == NULL)
          return NULL_KEY;
        switch (v->kind)
          {
          case JVMS_EVENT_VALUE_FALSE: return encode_int (0);
          case JVMS_EVENT_VALUE_TRUE: return encode_int (1);
          case JVMS_EVENT_VALUE_INT:
          case JVMS_EVENT_VALUE_TIMESTAMP:
          case JVMS_EVENT_VALUE_TIMESPAN: return encode_int (v->i);
          case JVMS_EVENT_VALUE_DOUBLE: return encode_double (v->d);
          case JVMS_EVENT_VALUE_STRING:
            if (job->prefix_only)
              return prefix_key (v->s);
            return GPOINTER_TO_SIZE (g_hash_table_lookup (job->strings, v->s));
          default: return NULL_KEY;
          }
      }
    case JVMS_EVENT_COLUMN_TIME:
    default:
      return r->row;
    }
}

static gboolean
cancelled (Job *job)
{
  return ++job->seen % CHECK_EVERY == 0 && g_cancellable_set_error_if_cancelled (job->cancellable, &job->error);
}

/* First pass for a field of strings: its distinct values. */
static gboolean
collect_strings (const JvmsEventRecord *r, gpointer user_data)
{
  Job *job = user_data;
  if (cancelled (job))
    return FALSE;
  gint f = job->field_of_type[r->type];
  const JvmsEventValue *v = f >= 0 ? jvms_event_record_find_value (r, (guint) f) : NULL;
  if (v == NULL || v->kind != JVMS_EVENT_VALUE_STRING || !matches_text (job, r)
      || g_hash_table_contains (job->strings, v->s))
    return TRUE;
  if (g_hash_table_size (job->strings) >= MAX_DISTINCT)
    {
      job->prefix_only = TRUE;
      return FALSE;
    }
  g_hash_table_add (job->strings, g_strdup (v->s));
  return TRUE;
}

static int
pair_cmp (const void *a, const void *b)
{
  const Pair *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

static FILE *
temp_file (GError **error)
{
  g_autofree char *name = NULL;
  int fd = g_file_open_tmp ("jvmscope-order-XXXXXX", &name, error);
  if (fd < 0)
    return NULL;
  g_unlink (name);
  FILE *f = fdopen (fd, "w+b");
  if (f == NULL)
    {
      int saved = errno;
      close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", name, g_strerror (saved));
    }
  return f;
}

static gboolean
flush_run (Job *job)
{
  qsort (job->buf, job->n_buf, sizeof (Pair), pair_cmp);
  FILE *f = temp_file (&job->error);
  if (f == NULL)
    return FALSE;
  g_array_append_val (job->runs, f);
  if (fwrite (job->buf, sizeof (Pair), job->n_buf, f) != job->n_buf || fflush (f) != 0)
    {
      g_set_error (&job->error, G_IO_ERROR, G_IO_ERROR_FAILED, "writing a sorted run: %s", g_strerror (errno));
      return FALSE;
    }
  rewind (f);
  job->n_buf = 0;
  return TRUE;
}

static gboolean
add_pair (const JvmsEventRecord *r, gpointer user_data)
{
  Job *job = user_data;
  if (cancelled (job))
    return FALSE;
  if (!matches_text (job, r))
    return TRUE;
  if (job->n_buf == job->run_pairs && !flush_run (job))
    return FALSE;
  job->buf[job->n_buf++] = (Pair) { key_of (job, r), r->row };
  job->n++;
  return TRUE;
}

static int
str_cmp (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static void
rank_strings (Job *job)
{
  guint n = g_hash_table_size (job->strings);
  g_autofree char **all = (char **) g_hash_table_get_keys_as_array (job->strings, NULL);
  qsort (all, n, sizeof (char *), str_cmp);
  for (guint i = 0; i < n; i++)
    g_hash_table_insert (job->strings, g_strdup (all[i]), GSIZE_TO_POINTER ((gsize) i));
}

typedef struct
{
  Pair  head;
  FILE *file;
} Head;

typedef struct
{
  const char *name;
  gint64      tid;
} ThreadKey;

/* By name (unnamed threads first), then tid. */
static int
thread_key_cmp (const void *a, const void *b)
{
  const ThreadKey *x = a, *y = b;
  int c = g_strcmp0 (x->name, y->name);
  if (c != 0)
    return c;
  return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void
sift_down (Head *heap, guint n, guint i)
{
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      if (l < n && pair_cmp (&heap[l].head, &heap[m].head) < 0)
        m = l;
      if (r < n && pair_cmp (&heap[r].head, &heap[m].head) < 0)
        m = r;
      if (m == i)
        return;
      Head t = heap[i];
      heap[i] = heap[m];
      heap[m] = t;
      i = m;
    }
}

/* Merges the runs into a mapped file of row ids. */
static GMappedFile *
merge_runs (Job *job)
{
  FILE *out = temp_file (&job->error);
  if (out == NULL)
    return NULL;
  guint k = job->runs->len;
  g_autofree Head *heap = g_new (Head, k);
  guint n = 0;
  for (guint i = 0; i < k; i++)
    {
      FILE *f = g_array_index (job->runs, FILE *, i);
      if (fread (&heap[n].head, sizeof (Pair), 1, f) == 1)
        heap[n++].file = f;
    }
  for (guint i = n; i-- > 0;)
    sift_down (heap, n, i);
  guint64 written = 0;
  while (n > 0)
    {
      if (written % (CHECK_EVERY * 16) == 0 && g_cancellable_set_error_if_cancelled (job->cancellable, &job->error))
        {
          fclose (out);
          return NULL;
        }
      if (fwrite (&heap[0].head.row, sizeof (guint64), 1, out) != 1)
        break;
      written++;
      if (fread (&heap[0].head, sizeof (Pair), 1, heap[0].file) != 1)
        heap[0] = heap[--n];
      sift_down (heap, n, 0);
    }
  if (fflush (out) != 0 || written != job->n)
    {
      g_set_error (&job->error, G_IO_ERROR, G_IO_ERROR_FAILED, "writing the sorted rows: %s", g_strerror (errno));
      fclose (out);
      return NULL;
    }
  GMappedFile *map = job->n > 0 ? g_mapped_file_new_from_fd (fileno (out), FALSE, &job->error) : NULL;
  fclose (out);
  return map;
}

static JvmsEventOrder *
run_job (Job *job, GError **error)
{
  JvmsEventQuery *query = jvms_event_selection_get_query (job->selection);
  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (job->store);
  gboolean values = job->text != NULL || job->column == JVMS_EVENT_COLUMN_FIELD;
  guint n_types = jvms_event_store_get_n_types (job->store);

  switch (job->column)
    {
    case JVMS_EVENT_COLUMN_TYPE:
      {
        job->type_rank = g_new0 (guint32, MAX (n_types, 1));
        g_autofree guint32 *order = g_new (guint32, MAX (n_types, 1));
        for (guint32 t = 0; t < n_types; t++)
          order[t] = t;
        /* A few hundred types: insertion sort by name. */
        for (guint i = 1; i < n_types; i++)
          for (guint j = i; j > 0 && strcmp (jvms_event_store_get_type (job->store, order[j - 1])->name,
                                            jvms_event_store_get_type (job->store, order[j])->name) > 0; j--)
            {
              guint32 t = order[j];
              order[j] = order[j - 1];
              order[j - 1] = t;
            }
        for (guint i = 0; i < n_types; i++)
          job->type_rank[order[i]] = i;
        break;
      }
    case JVMS_EVENT_COLUMN_THREAD:
      {
        guint n_threads;
        const gint64 *tids = jvms_event_store_get_threads (job->store, &n_threads);
        g_autofree ThreadKey *keys = g_new (ThreadKey, MAX (n_threads, 1));
        for (guint i = 0; i < n_threads; i++)
          keys[i] = (ThreadKey) { thread_name (job, tids[i]), tids[i] };
        qsort (keys, n_threads, sizeof (ThreadKey), thread_key_cmp);
        job->thread_rank = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
        for (guint i = 0; i < n_threads; i++)
          g_hash_table_insert (job->thread_rank, g_memdup2 (&keys[i].tid, sizeof (gint64)), GUINT_TO_POINTER (i));
        break;
      }
    case JVMS_EVENT_COLUMN_FIELD:
      job->field_of_type = g_new (gint, MAX (n_types, 1));
      for (guint32 t = 0; t < n_types; t++)
        job->field_of_type[t] = jvms_event_store_find_field (job->store, t, job->field);
      job->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      if (!jvms_event_query_foreach (query, cursor, 0, TRUE, collect_strings, job, error))
        return NULL;
      if (job->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&job->error));
          return NULL;
        }
      if (job->prefix_only)
        g_hash_table_remove_all (job->strings);
      else
        rank_strings (job);
      job->seen = 0;
      break;
    default:
      break;
    }

  guint64 total = jvms_event_query_get_n_rows (query);
  job->buf = g_new (Pair, MAX (MIN (total, job->run_pairs), 1));
  job->runs = g_array_new (FALSE, FALSE, sizeof (FILE *));
  if (!jvms_event_query_foreach (query, cursor, 0, values, add_pair, job, error))
    return NULL;
  if (job->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&job->error));
      return NULL;
    }

  JvmsEventOrder *self = g_object_new (JVMS_TYPE_EVENT_ORDER, NULL);
  self->selection = g_object_ref (job->selection);
  self->store = jvms_event_store_ref (job->store);
  self->cursor = jvms_event_cursor_new (job->store);
  self->n = job->n;
  self->descending = job->descending;
  if (job->runs->len == 0)
    {
      /* Time order with a text filter is already sorted. */
      if (job->column != JVMS_EVENT_COLUMN_TIME)
        qsort (job->buf, job->n_buf, sizeof (Pair), pair_cmp);
      self->ids = g_new (guint64, MAX (job->n_buf, 1));
      for (guint64 i = 0; i < job->n_buf; i++)
        self->ids[i] = job->buf[i].row;
      return self;
    }
  if (job->n_buf > 0 && !flush_run (job))
    {
      g_propagate_error (error, g_steal_pointer (&job->error));
      g_object_unref (self);
      return NULL;
    }
  g_clear_pointer (&job->buf, g_free);
  self->map = merge_runs (job);
  if (self->map == NULL)
    {
      if (job->error != NULL)
        g_propagate_error (error, g_steal_pointer (&job->error));
      else
        g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX, "the sorted rows could not be mapped");
      g_object_unref (self);
      return NULL;
    }
  return self;
}

static Job *
job_new (JvmsEventSelection *selection, const JvmsEventOrderSpec *spec, GCancellable *cancellable)
{
  Job *job = g_new0 (Job, 1);
  job->selection = g_object_ref (selection);
  job->store = jvms_event_store_ref (jvms_event_selection_get_store (selection));
  job->column = spec->column;
  job->field = g_strdup (spec->field != NULL ? spec->field : "");
  job->descending = spec->descending;
  job->text = spec->text != NULL && *spec->text != '\0' ? g_strdup (spec->text) : NULL;
  if (spec->thread_names != NULL)
    {
      job->thread_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      GHashTableIter it;
      gpointer k, v;
      g_hash_table_iter_init (&it, spec->thread_names);
      while (g_hash_table_iter_next (&it, &k, &v))
        g_hash_table_insert (job->thread_names, g_memdup2 (k, sizeof (gint64)), g_strdup (v));
    }
  job->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  job->scratch = g_string_new (NULL);
  job->run_pairs = RUN_PAIRS;
  /* The tests lower it to reach the merge of runs without millions of rows. */
  const char *run = g_getenv ("JVMS_EVENT_ORDER_RUN_PAIRS");
  if (run != NULL && g_ascii_strtoull (run, NULL, 10) > 0)
    job->run_pairs = MIN (g_ascii_strtoull (run, NULL, 10), RUN_PAIRS);
  return job;
}

JvmsEventOrder *
jvms_event_order_new (JvmsEventSelection *selection, const JvmsEventOrderSpec *spec,
                      GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (JVMS_IS_EVENT_SELECTION (selection) && spec != NULL, NULL);
  Job *job = job_new (selection, spec, cancellable);
  JvmsEventOrder *self = run_job (job, error);
  job_free (job);
  return self;
}

static void
order_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  JvmsEventOrder *self = run_job (task_data, &error);
  if (self == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, self, g_object_unref);
}

void
jvms_event_order_new_async (JvmsEventSelection *selection, const JvmsEventOrderSpec *spec,
                            GCancellable *cancellable, GAsyncReadyCallback callback,
                            gpointer user_data)
{
  g_return_if_fail (JVMS_IS_EVENT_SELECTION (selection) && spec != NULL);
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_event_order_new_async);
  g_task_set_task_data (task, job_new (selection, spec, cancellable), (GDestroyNotify) job_free);
  jvms_background_run (task, order_thread);
}

JvmsEventOrder *
jvms_event_order_new_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
