/* jvms-loader.c: indexing one trace in a worker thread, progress polled from the main thread. */
#include "config.h"

#include "jvms-loader.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "trace-format.h"

#ifdef HAVE_JVMS_STATE_HISTORY
# include "jvms-history.h"
#endif
#ifdef HAVE_JVMS_TRACE_INDEX
# include "jvms-trace-index.h"
#endif

/* How often the main thread looks at the worker's progress: often enough for a smooth bar and
 * for views to follow the growing history, rarely enough to cost nothing. */
#define POLL_INTERVAL_MS 100

struct _JvmsLoader
{
  GObject    parent_instance;

  GFile     *file;
  double     fraction;
  gboolean   loading;
  gpointer   history;
  GPtrArray *warnings; /* NULL-terminated array of char* */
  guint      poll_id;
#ifdef HAVE_JVMS_TRACE_INDEX
  JvmsTraceIndex *index;
#endif

  /* Written by the worker, read by the poll; everything below is under @lock. */
  GMutex     lock;
  double     worker_fraction;
  GPtrArray *worker_warnings;
  guint      worker_generation; /* bumped when the worker added intervals or warnings */
  guint      seen_generation;
};

enum {
  PROP_0,
  PROP_FILE,
  PROP_FRACTION,
  PROP_LOADING,
  N_PROPS
};

enum {
  GREW,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (JvmsLoader, jvms_loader, G_TYPE_OBJECT)

static void
history_release (gpointer history)
{
#ifdef HAVE_JVMS_STATE_HISTORY
  if (history != NULL)
    jvms_history_unref (history);
#endif
}

/* ---------------------------------------------------------------------------------------------
 * Worker side, for builds without analysis/: reads the trace through, for progress and to
 * report damage, and indexes nothing.
 */
#ifndef HAVE_JVMS_TRACE_INDEX

static void
worker_set_fraction (JvmsLoader *self, double fraction)
{
  g_mutex_lock (&self->lock);
  self->worker_fraction = CLAMP (fraction, 0.0, 1.0);
  self->worker_generation++;
  g_mutex_unlock (&self->lock);
}

static void
worker_warn (JvmsLoader *self, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
worker_warn (JvmsLoader *self, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  char *message = g_strdup_vprintf (format, args);
  va_end (args);

  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->worker_warnings, message);
  self->worker_generation++;
  g_mutex_unlock (&self->lock);
}

/* Files a trace is made of: the file itself, or the regular files of a folder (a bundle or an
 * LTTng trace) a few levels down, with their total size for the progress bar. */
static void
collect_files (const char *path, guint depth, GPtrArray *files, guint64 *total)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      if (depth == 0)
        return;
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      if (dir == NULL)
        return;
      const char *name;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          collect_files (child, depth - 1, files, total);
        }
      return;
    }

  GStatBuf st;
  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
    {
      g_ptr_array_add (files, g_strdup (path));
      *total += (guint64) st.st_size;
    }
}

/* A JFR file is a sequence of chunks, each starting with a 68-byte header whose big-endian
 * size at offset 8 covers the whole chunk. Checks that each declared size fits in what remains,
 * so that a truncated recording is reported with what is intact before the damage. */
#define JFR_CHUNK_HEADER_SIZE 68

static gboolean
check_jfr_chunks (JvmsLoader *self, const char *path, const guint8 *head, gsize head_len,
                  GInputStream *in, guint64 file_size, guint *n_chunks, GError **error)
{
  guint64 offset = 0;
  *n_chunks = 0;
  while (offset < file_size)
    {
      guint8 header[JFR_CHUNK_HEADER_SIZE];
      guint64 remaining = file_size - offset;
      if (offset + sizeof header <= head_len)
        memcpy (header, head + offset, sizeof header);
      else
        {
          if (!g_seekable_seek (G_SEEKABLE (in), (goffset) offset, G_SEEK_SET, NULL, error))
            return FALSE;
          gsize got = 0;
          if (!g_input_stream_read_all (in, header, sizeof header, &got, NULL, error))
            return FALSE;
          if (got < sizeof header)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                           "%s: chunk %u at offset %" G_GUINT64_FORMAT " is cut short: "
                           "%" G_GUINT64_FORMAT " bytes remain of its %d-byte header",
                           path, *n_chunks + 1, offset, remaining, JFR_CHUNK_HEADER_SIZE);
              return FALSE;
            }
        }
      if (memcmp (header, "FLR\0", 4) != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: chunk %u at offset %" G_GUINT64_FORMAT " does not start with the "
                       "JFR magic \"FLR\\0\"", path, *n_chunks + 1, offset);
          return FALSE;
        }
      guint64 size = 0;
      for (int i = 0; i < 8; i++)
        size = (size << 8) | header[8 + i];
      if (size < JFR_CHUNK_HEADER_SIZE || size > remaining)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                       "%s: chunk %u at offset %" G_GUINT64_FORMAT " declares %" G_GUINT64_FORMAT
                       " bytes but %" G_GUINT64_FORMAT " remain in the file",
                       path, *n_chunks + 1, offset, size, remaining);
          return FALSE;
        }
      offset += size;
      (*n_chunks)++;
    }
  (void) self;
  return TRUE;
}

static gboolean
read_one_file (JvmsLoader *self, GTask *task, const char *path, guint64 *done, guint64 total,
               GCancellable *cancellable, GError **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = g_file_read (file, cancellable, error);
  if (in == NULL)
    return FALSE;

  /* Reading every byte is what the indexer does too; it makes the progress honest. */
  enum { BLOCK = 1 << 20 };
  g_autofree guint8 *buf = g_malloc (BLOCK);
  guint8 head[JFR_CHUNK_HEADER_SIZE];
  gsize head_len = 0;
  guint64 file_size = 0;
  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), buf, BLOCK, cancellable, error);
      if (n < 0)
        return FALSE;
      if (n == 0)
        break;
      if (head_len < sizeof head)
        {
          gsize take = MIN (sizeof head - head_len, (gsize) n);
          memcpy (head + head_len, buf, take);
          head_len += take;
        }
      file_size += (guint64) n;
      *done += (guint64) n;
      worker_set_fraction (self, total ? (double) *done / (double) total : 1.0);
    }

  if (head_len >= 4 && memcmp (head, "FLR\0", 4) == 0)
    {
      guint n_chunks = 0;
      g_autoptr(GError) chunk_error = NULL;
      if (!check_jfr_chunks (self, path, head, head_len, G_INPUT_STREAM (in), file_size,
                             &n_chunks, &chunk_error))
        {
          if (n_chunks == 0)
            {
              g_propagate_error (error, g_steal_pointer (&chunk_error));
              return FALSE;
            }
          worker_warn (self, "%s; the %u complete chunks before it were read",
                       chunk_error->message, n_chunks);
        }
    }
  return TRUE;
}

static void
load_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  JvmsLoader *self = source_object;
  g_autofree char *path = g_file_get_path (self->file);
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (self->file);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "%s: not a local file", uri);
      return;
    }

  JvmsTraceFormat format = jvms_trace_format_detect (path, &error);
  if (format == JVMS_TRACE_FORMAT_UNKNOWN)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  guint64 total = 0;
  collect_files (path, 4, files, &total);

  guint64 done = 0;
  guint n_read = 0;
  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GError) file_error = NULL;
      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      if (read_one_file (self, task, files->pdata[i], &done, total, cancellable, &file_error))
        n_read++;
      else if (g_error_matches (file_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&file_error));
          return;
        }
      else if (files->len == 1)
        {
          g_task_return_error (task, g_steal_pointer (&file_error));
          return;
        }
      else
        worker_warn (self, "%s", file_error->message);
    }

  if (n_read == 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               "%s: none of the trace's files could be read", path);
      return;
    }
  worker_set_fraction (self, 1.0);
  g_task_return_boolean (task, TRUE);
}
#endif /* !HAVE_JVMS_TRACE_INDEX */

/* ---------------------------------------------------------------------------------------------
 * Main thread side
 */

static gboolean poll_worker (gpointer user_data);

#ifdef HAVE_JVMS_TRACE_INDEX
static void
index_loaded (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(GTask) task = user_data;
  JvmsLoader *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  gboolean ok = jvms_trace_index_load_finish (JVMS_TRACE_INDEX (object), result, &error);

  g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (self->index);
  g_mutex_lock (&self->lock);
  for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
    g_ptr_array_add (self->worker_warnings, g_strdup (warnings[i]));
  self->worker_generation++;
  g_mutex_unlock (&self->lock);

  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}
#endif

static gboolean
poll_worker (gpointer user_data)
{
  JvmsLoader *self = user_data;
  gboolean changed;
  double fraction;

  g_mutex_lock (&self->lock);
  changed = self->worker_generation != self->seen_generation;
  self->seen_generation = self->worker_generation;
  fraction = self->worker_fraction;
  while (self->warnings->len - 1 < self->worker_warnings->len)
    g_ptr_array_insert (self->warnings, (gint) self->warnings->len - 1,
                        g_strdup (self->worker_warnings->pdata[self->warnings->len - 1]));
  g_mutex_unlock (&self->lock);

#ifdef HAVE_JVMS_TRACE_INDEX
  if (self->index != NULL)
    {
      fraction = jvms_trace_index_get_fraction (self->index);
      JvmsHistory *history = jvms_trace_index_dup_history (self->index);
      if (history != NULL && history != self->history)
        {
          history_release (self->history);
          self->history = history;
        }
      else
        history_release (history);
      /* A live history grows between polls: let the views look again. */
      changed = changed || self->history != NULL;
    }
#endif
  if (fraction != self->fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
  if (changed)
    g_signal_emit (self, signals[GREW], 0);
  return G_SOURCE_CONTINUE;
}

static void
stop_polling (JvmsLoader *self)
{
  g_clear_handle_id (&self->poll_id, g_source_remove);
}

void
jvms_loader_load_async (JvmsLoader *self, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (JVMS_IS_LOADER (self));
  g_return_if_fail (!self->loading);

  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_loader_load_async);
  g_task_set_return_on_cancel (task, FALSE);

  self->loading = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
  self->poll_id = g_timeout_add (POLL_INTERVAL_MS, poll_worker, self);
#ifdef HAVE_JVMS_TRACE_INDEX
  g_autofree char *path = g_file_get_path (self->file);
  g_autoptr(GError) error = NULL;
  self->index = path ? jvms_trace_index_new (path, &error) : NULL;
  if (self->index == NULL)
    {
      if (error == NULL)
        {
          g_autofree char *uri = g_file_get_uri (self->file);
          error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s: not a local file", uri);
        }
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  jvms_trace_index_load_async (self->index, cancellable, index_loaded, g_steal_pointer (&task));
#else
  g_task_run_in_thread (task, load_thread);
#endif
}

gboolean
jvms_loader_load_finish (JvmsLoader *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (JVMS_IS_LOADER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  /* One last look, so that the final fraction, warnings and history are seen. */
  poll_worker (self);
  stop_polling (self);
  self->loading = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
  return g_task_propagate_boolean (G_TASK (result), error);
}

JvmsLoader *
jvms_loader_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  return g_object_new (JVMS_TYPE_LOADER, "file", file, NULL);
}

GFile *
jvms_loader_get_file (JvmsLoader *self)
{
  g_return_val_if_fail (JVMS_IS_LOADER (self), NULL);
  return self->file;
}

double
jvms_loader_get_fraction (JvmsLoader *self)
{
  g_return_val_if_fail (JVMS_IS_LOADER (self), 0.0);
  return self->fraction;
}

gboolean
jvms_loader_get_loading (JvmsLoader *self)
{
  g_return_val_if_fail (JVMS_IS_LOADER (self), FALSE);
  return self->loading;
}

gpointer
jvms_loader_get_history (JvmsLoader *self)
{
  g_return_val_if_fail (JVMS_IS_LOADER (self), NULL);
  return self->history;
}

const char *
jvms_loader_get_samples_path (JvmsLoader *self)
{
  g_return_val_if_fail (JVMS_IS_LOADER (self), NULL);
#ifdef HAVE_JVMS_TRACE_INDEX
  return self->index ? jvms_trace_index_get_samples_path (self->index) : NULL;
#else
  return NULL;
#endif
}

const char * const *
jvms_loader_get_warnings (JvmsLoader *self)
{
  g_return_val_if_fail (JVMS_IS_LOADER (self), NULL);
  return (const char * const *) self->warnings->pdata;
}

static void
jvms_loader_dispose (GObject *object)
{
  JvmsLoader *self = JVMS_LOADER (object);

  stop_polling (self);
  g_clear_pointer (&self->history, history_release);
#ifdef HAVE_JVMS_TRACE_INDEX
  g_clear_object (&self->index);
#endif
  G_OBJECT_CLASS (jvms_loader_parent_class)->dispose (object);
}

static void
jvms_loader_finalize (GObject *object)
{
  JvmsLoader *self = JVMS_LOADER (object);

  g_clear_object (&self->file);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->worker_warnings, g_ptr_array_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (jvms_loader_parent_class)->finalize (object);
}

static void
jvms_loader_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsLoader *self = JVMS_LOADER (object);

  switch (prop_id)
    {
    case PROP_FILE: g_value_set_object (value, self->file); break;
    case PROP_FRACTION: g_value_set_double (value, self->fraction); break;
    case PROP_LOADING: g_value_set_boolean (value, self->loading); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_loader_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  JvmsLoader *self = JVMS_LOADER (object);

  switch (prop_id)
    {
    case PROP_FILE: self->file = g_value_dup_object (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_loader_class_init (JvmsLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = jvms_loader_dispose;
  object_class->finalize = jvms_loader_finalize;
  object_class->get_property = jvms_loader_get_property;
  object_class->set_property = jvms_loader_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Emitted on the main thread when more of the trace was indexed: views redraw. */
  signals[GREW] = g_signal_new ("grew", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
jvms_loader_init (JvmsLoader *self)
{
  g_mutex_init (&self->lock);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->warnings, NULL);
  self->worker_warnings = g_ptr_array_new_with_free_func (g_free);
}
