/* jvms-loader.c: indexing one trace in a worker thread, progress polled from the main thread. */
#include "config.h"

#include "jvms-loader.h"

#include <glib/gi18n.h>

#include "jvms-history.h"
#include "jvms-timing.h"
#include "jvms-trace-index.h"

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
  JvmsTraceIndex *index;
  /* The node cache budget asked for (0: the index's own, 64 MiB) and the one set on @history,
   * once the index is complete. */
  gsize      cache_budget;
  gsize      history_budget;

  /* The index's warnings, added when its load ends, read by the poll; under @lock. */
  GMutex     lock;
  GPtrArray *worker_warnings;
  guint      worker_generation; /* bumped when the worker added intervals or warnings */
  guint      seen_generation;

  /* Indexing begins in jvms_loader_start(), possibly before anyone waits for it (the window is
   * still being built): its outcome waits here for jvms_loader_load_async()'s task. */
  GCancellable *cancellable;
  GTask     *task;
  gboolean   started, finished, ok;
  GError    *error;
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
  if (history != NULL)
    jvms_history_unref (history);
}

/* ---------------------------------------------------------------------------------------------
 * Main thread side
 */

static gboolean poll_worker (gpointer user_data);

/* Sets the budget asked for on the complete index's history. */
static gboolean
apply_cache_budget (JvmsLoader *self)
{
  if (self->index == NULL || self->history == NULL || self->cache_budget == self->history_budget
      || jvms_trace_index_get_phase (self->index) != JVMS_TRACE_INDEX_PHASE_COMPLETE)
    return FALSE;
  jvms_history_set_cache_budget (self->history, self->cache_budget);
  self->history_budget = self->cache_budget;
  return TRUE;
}

/* Hands the outcome of indexing to the task waiting for it, once both are there. */
static void
complete_task (JvmsLoader *self)
{
  if (!self->finished || self->task == NULL)
    return;
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  if (self->ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_error_copy (self->error));
}

static void
index_loaded (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(JvmsLoader) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = jvms_trace_index_load_finish (JVMS_TRACE_INDEX (object), result, &error);

  g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (self->index);
  g_mutex_lock (&self->lock);
  for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
    g_ptr_array_add (self->worker_warnings, g_strdup (warnings[i]));
  self->worker_generation++;
  g_mutex_unlock (&self->lock);

  self->finished = TRUE;
  self->ok = ok;
  self->error = g_steal_pointer (&error);
  complete_task (self);
}

static gboolean
poll_worker (gpointer user_data)
{
  JvmsLoader *self = user_data;
  gboolean changed;
  double fraction = self->fraction;

  g_mutex_lock (&self->lock);
  changed = self->worker_generation != self->seen_generation;
  self->seen_generation = self->worker_generation;
  while (self->warnings->len - 1 < self->worker_warnings->len)
    g_ptr_array_insert (self->warnings, (gint) self->warnings->len - 1,
                        g_strdup (self->worker_warnings->pdata[self->warnings->len - 1]));
  g_mutex_unlock (&self->lock);

  if (self->index != NULL)
    {
      fraction = jvms_trace_index_get_fraction (self->index);
      JvmsHistory *history = jvms_trace_index_dup_history (self->index);
      if (history != NULL && history != self->history)
        {
          if (self->history == NULL)
            jvms_timing_mark ("first live history");
          history_release (self->history);
          self->history = history;
          self->history_budget = 0; /* a new history has the default budget */
        }
      else
        history_release (history);
      /* A live history grows between polls: let the views look again. */
      changed = changed || self->history != NULL;
    }
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
jvms_loader_start (JvmsLoader *self)
{
  g_return_if_fail (JVMS_IS_LOADER (self));
  if (self->started)
    return;
  self->started = TRUE;
  self->cancellable = g_cancellable_new ();
  self->loading = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
  self->poll_id = g_timeout_add (POLL_INTERVAL_MS, poll_worker, self);
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
      self->finished = TRUE;
      self->error = g_steal_pointer (&error);
      return;
    }
  jvms_trace_index_load_async (self->index, self->cancellable, index_loaded, g_object_ref (self));
}

static void
task_cancelled (GCancellable *cancellable, gpointer user_data)
{
  g_cancellable_cancel (user_data);
}

void
jvms_loader_load_async (JvmsLoader *self, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (JVMS_IS_LOADER (self));
  g_return_if_fail (self->task == NULL);

  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_loader_load_async);
  g_task_set_return_on_cancel (task, FALSE);
  jvms_loader_start (self);
  if (cancellable != NULL)
    g_cancellable_connect (cancellable, G_CALLBACK (task_cancelled),
                           g_object_ref (self->cancellable), g_object_unref);
  self->task = g_steal_pointer (&task);
  complete_task (self);
}

gboolean
jvms_loader_load_finish (JvmsLoader *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (JVMS_IS_LOADER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  /* One last look, so that the final fraction, warnings and history are seen. */
  poll_worker (self);
  stop_polling (self);
  apply_cache_budget (self);
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

void
jvms_loader_set_cache_budget (JvmsLoader *self, gsize bytes)
{
  g_return_if_fail (JVMS_IS_LOADER (self));
  self->cache_budget = bytes;
  if (!self->loading && apply_cache_budget (self))
    g_signal_emit (self, signals[GREW], 0);
}

gsize
jvms_loader_get_cache_budget (JvmsLoader *self)
{
  g_return_val_if_fail (JVMS_IS_LOADER (self), 0);
  return self->history_budget;
}

const char *
jvms_loader_get_samples_path (JvmsLoader *self)
{
  g_return_val_if_fail (JVMS_IS_LOADER (self), NULL);
  return self->index ? jvms_trace_index_get_samples_path (self->index) : NULL;
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
  /* Indexing nobody waits for any more stops. */
  if (self->cancellable != NULL && !self->finished)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->task);
  g_clear_pointer (&self->history, history_release);
  g_clear_object (&self->index);
  G_OBJECT_CLASS (jvms_loader_parent_class)->dispose (object);
}

static void
jvms_loader_finalize (GObject *object)
{
  JvmsLoader *self = JVMS_LOADER (object);

  g_clear_object (&self->file);
  g_clear_object (&self->cancellable);
  g_clear_error (&self->error);
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
