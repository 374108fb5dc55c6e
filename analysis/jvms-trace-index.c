/* jvms-trace-index.c: opening a trace, finding or building its index, in a thread if asked. */
#include "jvms-trace-index.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jvms-build.h"
#include "jvms-index-cache.h"
#include "jvms-input-file.h"
#include "jvms-states.h"

struct _JvmsTraceIndex
{
  GObject              parent_instance;

  char                *trace_path;
  JvmsTraceKind        kind;
  char                *cache_dir;
  gboolean             force_rebuild;

  GMutex               lock;      /* guards everything below */
  JvmsTraceIndexPhase  phase;
  double               fraction;
  JvmsHistory         *history;
  gboolean             reused;
  gboolean             loading;
  JvmsTraceLayers      layers;
  char                *index_path;
  char                *samples_path;
  char                *events_path;
  char                *temp_dir;  /* set when the cache folder could not be written */
  GPtrArray           *warnings;
  GPtrArray           *notes;
  JvmsTraceIndexStats  stats;

  GMainContext        *notify_context;
  gint64               last_fraction_notify;
};

enum
{
  PROP_0,
  PROP_TRACE_PATH,
  PROP_PHASE,
  PROP_FRACTION,
  PROP_HISTORY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (JvmsTraceIndex, jvms_trace_index, G_TYPE_OBJECT)

static void
jvms_trace_index_finalize (GObject *object)
{
  JvmsTraceIndex *self = JVMS_TRACE_INDEX (object);
  g_clear_pointer (&self->history, jvms_history_unref);
  if (self->temp_dir != NULL)
    jvms_index_cache_remove_folder (self->temp_dir);
  g_free (self->temp_dir);
  g_free (self->trace_path);
  g_free (self->cache_dir);
  g_free (self->index_path);
  g_free (self->samples_path);
  g_free (self->events_path);
  g_ptr_array_unref (self->warnings);
  g_ptr_array_unref (self->notes);
  g_clear_pointer (&self->notify_context, g_main_context_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (jvms_trace_index_parent_class)->finalize (object);
}

static void
jvms_trace_index_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsTraceIndex *self = JVMS_TRACE_INDEX (object);
  switch (prop_id)
    {
    case PROP_TRACE_PATH:
      g_value_set_string (value, self->trace_path);
      break;
    case PROP_PHASE:
      g_value_set_int (value, jvms_trace_index_get_phase (self));
      break;
    case PROP_FRACTION:
      g_value_set_double (value, jvms_trace_index_get_fraction (self));
      break;
    case PROP_HISTORY:
      /* A pointer: valid while the object holds it; jvms_trace_index_dup_history() keeps it. */
      g_mutex_lock (&self->lock);
      g_value_set_pointer (value, self->history);
      g_mutex_unlock (&self->lock);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_trace_index_class_init (JvmsTraceIndexClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = jvms_trace_index_finalize;
  object_class->get_property = jvms_trace_index_get_property;

  properties[PROP_TRACE_PATH] =
    g_param_spec_string ("trace-path", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* A JvmsTraceIndexPhase. */
  properties[PROP_PHASE] =
    g_param_spec_int ("phase", NULL, NULL, 0, JVMS_TRACE_INDEX_PHASE_FAILED, 0,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The JvmsHistory* (not a reference), notified when it appears, is replaced or goes away. */
  properties[PROP_HISTORY] =
    g_param_spec_pointer ("history", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
jvms_trace_index_init (JvmsTraceIndex *self)
{
  g_mutex_init (&self->lock);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->notes = g_ptr_array_new_with_free_func (g_free);
}

JvmsTraceIndex *
jvms_trace_index_new (const char *trace_path, GError **error)
{
  g_return_val_if_fail (trace_path != NULL, NULL);
  JvmsTraceKind kind;
  if (!jvms_trace_detect (trace_path, &kind, error))
    return NULL;
  JvmsTraceIndex *self = g_object_new (JVMS_TYPE_TRACE_INDEX, NULL);
  char *abs = g_canonicalize_filename (trace_path, NULL);
  self->trace_path = abs;
  self->kind = kind;
  return self;
}

void
jvms_trace_index_set_cache_dir (JvmsTraceIndex *self, const char *cache_dir)
{
  g_return_if_fail (JVMS_IS_TRACE_INDEX (self));
  g_free (self->cache_dir);
  self->cache_dir = g_strdup (cache_dir);
}

void
jvms_trace_index_set_force_rebuild (JvmsTraceIndex *self, gboolean force)
{
  g_return_if_fail (JVMS_IS_TRACE_INDEX (self));
  self->force_rebuild = force;
}

/* ------------------------------------------------------------------------------------------ */
/* Notifications: always in the context that asked for the load */

typedef struct
{
  JvmsTraceIndex *self;
  GParamSpec     *pspec;
} NotifyData;

static gboolean
notify_in_context (gpointer data)
{
  NotifyData *n = data;
  g_object_notify_by_pspec (G_OBJECT (n->self), n->pspec);
  g_object_unref (n->self);
  g_free (n);
  return G_SOURCE_REMOVE;
}

static void
notify (JvmsTraceIndex *self, int prop)
{
  NotifyData *n = g_new0 (NotifyData, 1);
  n->self = g_object_ref (self);
  n->pspec = properties[prop];
  GMainContext *ctx = self->notify_context;
  if (ctx == NULL)
    notify_in_context (n);
  else
    g_main_context_invoke (ctx, notify_in_context, n);
}

static void
set_phase (JvmsTraceIndex *self, JvmsTraceIndexPhase phase)
{
  g_mutex_lock (&self->lock);
  gboolean changed = self->phase != phase;
  self->phase = phase;
  if (phase == JVMS_TRACE_INDEX_PHASE_COMPLETE)
    self->fraction = 1.0;
  g_mutex_unlock (&self->lock);
  if (changed)
    notify (self, PROP_PHASE);
  if (phase == JVMS_TRACE_INDEX_PHASE_COMPLETE)
    notify (self, PROP_FRACTION);
}

static void
set_history (JvmsTraceIndex *self, JvmsHistory *history)
{
  g_mutex_lock (&self->lock);
  JvmsHistory *old = self->history;
  self->history = history != NULL ? jvms_history_ref (history) : NULL;
  g_mutex_unlock (&self->lock);
  if (old != NULL)
    jvms_history_unref (old);
  if (old != history)
    notify (self, PROP_HISTORY);
}

static void
progress_cb (double fraction, gpointer user_data)
{
  JvmsTraceIndex *self = user_data;
  g_mutex_lock (&self->lock);
  self->fraction = CLAMP (fraction, 0.0, 1.0);
  gint64 now = g_get_monotonic_time ();
  gboolean due = now - self->last_fraction_notify >= 50000;
  if (due)
    self->last_fraction_notify = now;
  g_mutex_unlock (&self->lock);
  if (due)
    notify (self, PROP_FRACTION);
}

static void
history_cb (JvmsHistory *history, gpointer user_data)
{
  JvmsTraceIndex *self = user_data;
  set_history (self, history);
  set_phase (self, JVMS_TRACE_INDEX_PHASE_INDEXING);
}

/* ------------------------------------------------------------------------------------------ */
/* Identity and cache */

/* A rewrite in place that puts the mtime back (an editor, rsync --inplace -t, a copy tool
 * preserving times) keeps path, size, mtime and inode: the identity also hashes the content.
 * Small files are hashed whole; larger ones by sampled blocks (the first and last block, where
 * headers and trailers live, and blocks evenly spaced between), so that a 10 GB trace costs
 * about 1 MiB of reading at every open. A rewrite that only touches unsampled bytes of a large
 * file goes unnoticed: the price of an open that does not read the whole trace. */
#define FINGERPRINT_BLOCK       (64 * 1024)
#define FINGERPRINT_INNER       16
#define FINGERPRINT_WHOLE_LIMIT ((FINGERPRINT_INNER + 2) * FINGERPRINT_BLOCK)

static gboolean
hash_range (GChecksum *sum, int fd, guint64 offset, guint64 length, guint8 *buf)
{
  while (length > 0)
    {
      gsize want = (gsize) MIN (length, (guint64) FINGERPRINT_BLOCK);
      ssize_t n = pread (fd, buf, want, (off_t) offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE; /* shrunk or unreadable: the identity says so, the build will tell */
      g_checksum_update (sum, buf, (gssize) n);
      offset += (guint64) n;
      length -= (guint64) n;
    }
  return TRUE;
}

/* SHA-256 of the sampled content, hex; "unreadable" when the file cannot be read. */
static char *
content_fingerprint (const char *path, guint64 size)
{
  struct stat st;
  int fd = jvms_input_file_open (path, &st, NULL);
  if (fd < 0)
    return g_strdup ("unreadable");
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *buf = g_malloc (FINGERPRINT_BLOCK);
  gboolean ok = TRUE;
  if (size <= FINGERPRINT_WHOLE_LIMIT)
    ok = hash_range (sum, fd, 0, size, buf);
  else
    {
      /* Block starts spread from the first to the last block, in increasing order. */
      guint64 span = size - FINGERPRINT_BLOCK;
      for (guint i = 0; ok && i < FINGERPRINT_INNER + 2; i++)
        ok = hash_range (sum, fd, span * i / (FINGERPRINT_INNER + 1), FINGERPRINT_BLOCK, buf);
    }
  close (fd);
  return g_strdup (ok ? g_checksum_get_string (sum) : "unreadable");
}

static char *
trace_identity (GPtrArray *inputs, guint64 *total_bytes)
{
  GString *s = g_string_new (NULL);
  *total_bytes = 0;
  for (guint i = 0; i < inputs->len; i++)
    {
      const char *p = g_ptr_array_index (inputs, i);
      struct stat st;
      if (g_stat (p, &st) != 0)
        continue;
      g_autofree char *content = content_fingerprint (p, (guint64) st.st_size);
      g_string_append_printf (s, "%s size=%" G_GUINT64_FORMAT " mtime=%" G_GINT64_FORMAT ".%09ld inode=%" G_GUINT64_FORMAT " content=%s\n",
                              p, (guint64) st.st_size, (gint64) st.st_mtim.tv_sec,
                              (long) st.st_mtim.tv_nsec, (guint64) st.st_ino, content);
      *total_bytes += (guint64) st.st_size;
    }
  return g_string_free (s, FALSE);
}

static void
add_lines_from (JvmsTraceIndex *self, GPtrArray *to, const char *joined)
{
  if (joined == NULL || joined[0] == '\0')
    return;
  g_auto(GStrv) lines = g_strsplit (joined, "\n", -1);
  g_mutex_lock (&self->lock);
  for (gsize i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (to, g_strdup (lines[i]));
  g_mutex_unlock (&self->lock);
}

static JvmsTraceLayers
layers_from_name (const char *s)
{
  JvmsTraceLayers l = 0;
  if (s == NULL)
    return 0;
  if (strstr (s, "jfr") != NULL)
    l |= JVMS_TRACE_LAYER_JFR;
  if (strstr (s, "kernel") != NULL)
    l |= JVMS_TRACE_LAYER_KERNEL;
  return l;
}

/* Moves this load into a temporary folder of its own, removed with the object. */
static char *
use_temp_dir (JvmsTraceIndex *self, const char *dir, const char *why, GError **error)
{
  g_autoptr(GError) tmp_error = NULL;
  char *tmp = g_dir_make_tmp ("jvmscope-index-XXXXXX", &tmp_error);
  if (tmp == NULL)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                   "%s: %s, and no temporary folder can be made: %s", dir, why, tmp_error->message);
      return NULL;
    }
  g_mutex_lock (&self->lock);
  if (self->temp_dir != NULL)
    jvms_index_cache_remove_folder (self->temp_dir);
  g_free (self->temp_dir);
  self->temp_dir = g_strdup (tmp);
  g_ptr_array_add (self->warnings,
                   g_strdup_printf ("%s: %s; the index is kept in %s until the trace is closed",
                                    dir, why, tmp));
  g_mutex_unlock (&self->lock);
  return tmp;
}

static void
set_paths (JvmsTraceIndex *self, const char *index_path, const char *samples_path,
           const char *events_path)
{
  g_mutex_lock (&self->lock);
  g_free (self->index_path);
  self->index_path = g_strdup (index_path);
  g_free (self->samples_path);
  self->samples_path = g_strdup (samples_path);
  g_free (self->events_path);
  self->events_path = g_strdup (events_path);
  g_mutex_unlock (&self->lock);
}

static void
take_reused (JvmsTraceIndex *self, JvmsHistory *reused, const char *index_path, gint64 t0)
{
  g_mutex_lock (&self->lock);
  self->reused = TRUE;
  self->layers = layers_from_name (jvms_history_get_metadata (reused, "layers"));
  memset (&self->stats, 0, sizeof self->stats);
  self->stats.build_seconds = (g_get_monotonic_time () - t0) / 1e6;
  GStatBuf st;
  self->stats.index_bytes = g_stat (index_path, &st) == 0 ? (guint64) st.st_size : 0;
  self->stats.n_intervals = jvms_history_get_n_intervals (reused);
  self->stats.n_attributes = jvms_history_get_n_attributes (reused);
  g_mutex_unlock (&self->lock);
  add_lines_from (self, self->warnings, jvms_history_get_metadata (reused, "warnings"));
  add_lines_from (self, self->notes, jvms_history_get_metadata (reused, "notes"));
  set_history (self, reused);
  set_phase (self, JVMS_TRACE_INDEX_PHASE_COMPLETE);
}

static void
take_built (JvmsTraceIndex *self, JvmsBuildResult *res, const char *index_path, gint64 t0)
{
  g_mutex_lock (&self->lock);
  self->reused = FALSE;
  self->layers = res->layers;
  for (guint i = 0; res->warnings != NULL && i < res->warnings->len; i++)
    g_ptr_array_add (self->warnings, g_strdup (g_ptr_array_index (res->warnings, i)));
  for (guint i = 0; res->notes != NULL && i < res->notes->len; i++)
    g_ptr_array_add (self->notes, g_strdup (g_ptr_array_index (res->notes, i)));
  self->stats.input_bytes = res->input_bytes;
  self->stats.n_events = res->n_events;
  self->stats.build_seconds = (g_get_monotonic_time () - t0) / 1e6;
  GStatBuf st;
  self->stats.index_bytes = res->history != NULL && g_stat (index_path, &st) == 0 ? (guint64) st.st_size : 0;
  self->stats.n_intervals = res->history != NULL ? jvms_history_get_n_intervals (res->history) : 0;
  self->stats.n_attributes = res->history != NULL ? jvms_history_get_n_attributes (res->history) : 0;
  g_mutex_unlock (&self->lock);
}

/* A failure to write into the cache folder (full, over quota, failing): a temporary folder may
 * take the index instead, as when the folder cannot be written at all. */
static gboolean
is_write_error (const GError *error)
{
  return error != NULL
         && (g_error_matches (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO)
             || error->domain == G_FILE_ERROR
             || (error->domain == G_IO_ERROR && error->code != G_IO_ERROR_CANCELLED));
}

/* Reuses or builds the index in @dir, whose lock for this trace the caller holds. */
static gboolean
load_locked (JvmsTraceIndex *self, const char *dir, const char *path_key, const char *key,
             const char *identity, guint64 total_bytes, gint64 t0, GCancellable *cancellable,
             GError **error)
{
  /* Index files are named by the trace path's hash and its identity's: a changed trace gets a
   * new name, and the old index of the same path is removed when the new one is built. */
  g_autofree char *index_path = g_strdup_printf ("%s/%s-%s.jvmsidx", dir, path_key, key);
  g_autofree char *samples_path = g_strdup_printf ("%s/%s-%s.samples", dir, path_key, key);
  g_autofree char *events_path = g_strdup_printf ("%s/%s-%s.events", dir, path_key, key);
  set_paths (self, index_path, samples_path, events_path);

  g_autoptr(JvmsHistory) reused = self->force_rebuild ? NULL
                                    : jvms_index_cache_reuse (index_path, samples_path, identity);
  /* An index is reused only with its event store (docs/events.md). */
  if (reused != NULL && !g_file_test (events_path, G_FILE_TEST_IS_REGULAR))
    g_clear_pointer (&reused, jvms_history_unref);
  if (reused != NULL)
    {
      take_reused (self, reused, index_path, t0);
      return TRUE;
    }

  jvms_index_cache_remove_trace (dir, path_key);
  JvmsBuildRequest req = {
    .kind = self->kind,
    .trace_path = self->trace_path,
    .index_path = index_path,
    .samples_path = samples_path,
    .events_path = events_path,
    .identity = identity,
    .total_bytes = total_bytes,
    .progress = progress_cb,
    .history_ready = history_cb,
    .user_data = self,
  };
  JvmsBuildResult res = { 0 };
  gboolean ok = jvms_build_index (&req, &res, cancellable, error);
  /* Without its digest an index is never reused: a crash here only costs a rebuild. */
  if (ok && !jvms_index_cache_seal (index_path, error))
    ok = FALSE;
  if (ok)
    {
      take_built (self, &res, index_path, t0);
      set_history (self, res.history);
      set_phase (self, JVMS_TRACE_INDEX_PHASE_COMPLETE);
    }
  else
    {
      /* Nothing of a failed build stays: a sample store renamed into place before the index
       * failed to close would be taken for part of a later index. */
      jvms_index_cache_remove_trace (dir, path_key);
      set_history (self, NULL);
      /* What the readers said is kept for the error's reader, unless another folder is tried. */
      if (!is_write_error (error != NULL ? *error : NULL) || self->temp_dir != NULL)
        take_built (self, &res, index_path, t0);
    }
  g_clear_pointer (&res.history, jvms_history_unref);
  g_clear_pointer (&res.warnings, g_ptr_array_unref);
  g_clear_pointer (&res.notes, g_ptr_array_unref);
  return ok;
}

static gboolean
do_load (JvmsTraceIndex *self, GCancellable *cancellable, GError **error)
{
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(GPtrArray) inputs = jvms_trace_list_inputs (self->trace_path, self->kind, error);
  if (inputs == NULL)
    return FALSE;
  guint64 total_bytes = 0;
  g_autofree char *identity = trace_identity (inputs, &total_bytes);
  g_autofree char *key_src = g_strdup_printf ("%d\n%s\n%s", JVMS_ANALYSIS_VERSION, self->trace_path, identity);
  g_autofree char *key = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key_src, -1);
  key[32] = '\0';
  g_autofree char *path_key = g_compute_checksum_for_string (G_CHECKSUM_SHA256, self->trace_path, -1);
  path_key[16] = '\0';

  g_autofree char *dir = self->cache_dir != NULL
                           ? g_strdup (self->cache_dir)
                           : g_build_filename (g_get_user_cache_dir (), "jvmscope", NULL);
  if (!jvms_index_cache_writable (dir))
    {
      char *tmp = use_temp_dir (self, dir, "the cache folder cannot be written", error);
      if (tmp == NULL)
        return FALSE;
      g_free (dir);
      dir = tmp;
    }

  for (;;)
    {
      int lock = jvms_index_cache_lock (dir, path_key, cancellable, error);
      if (lock < 0)
        return FALSE;
      jvms_index_cache_sweep (dir, path_key);
      g_autoptr(GError) load_error = NULL;
      gboolean ok = load_locked (self, dir, path_key, key, identity, total_bytes, t0,
                                 cancellable, &load_error);
      jvms_index_cache_unlock (dir, path_key, lock);
      if (ok)
        return TRUE;
      if (self->temp_dir == NULL && is_write_error (load_error))
        {
          /* A full cache disk: built again where a read-only cache folder sends it. */
          g_autofree char *why = g_strdup_printf ("the cache folder could not take the index (%s)",
                                                  load_error->message);
          char *tmp = use_temp_dir (self, dir, why, error);
          if (tmp == NULL)
            return FALSE;
          g_free (dir);
          dir = tmp;
          continue;
        }
      g_propagate_error (error, g_steal_pointer (&load_error));
      return FALSE;
    }
}

static gboolean
begin_load (JvmsTraceIndex *self, GError **error)
{
  g_mutex_lock (&self->lock);
  if (self->loading)
    {
      g_mutex_unlock (&self->lock);
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_BUSY,
                   "%s: already being loaded", self->trace_path);
      return FALSE;
    }
  self->loading = TRUE;
  self->fraction = 0.0;
  g_ptr_array_set_size (self->warnings, 0);
  g_ptr_array_set_size (self->notes, 0);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static void
end_load (JvmsTraceIndex *self, gboolean ok)
{
  g_mutex_lock (&self->lock);
  self->loading = FALSE;
  g_mutex_unlock (&self->lock);
  if (!ok)
    set_phase (self, JVMS_TRACE_INDEX_PHASE_FAILED);
}

gboolean
jvms_trace_index_load (JvmsTraceIndex *self, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (JVMS_IS_TRACE_INDEX (self), FALSE);
  if (!begin_load (self, error))
    return FALSE;
  g_clear_pointer (&self->notify_context, g_main_context_unref);
  gboolean ok = do_load (self, cancellable, error);
  end_load (self, ok);
  return ok;
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  JvmsTraceIndex *self = source;
  GError *error = NULL;
  gboolean ok = do_load (self, cancellable, &error);
  end_load (self, ok);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
jvms_trace_index_load_async (JvmsTraceIndex *self, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (JVMS_IS_TRACE_INDEX (self));
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_trace_index_load_async);
  GError *error = NULL;
  if (!begin_load (self, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_clear_pointer (&self->notify_context, g_main_context_unref);
  self->notify_context = g_main_context_ref_thread_default ();
  g_task_run_in_thread (task, load_thread);
}

gboolean
jvms_trace_index_load_finish (JvmsTraceIndex *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------------------------ */
/* Getters */

const char *
jvms_trace_index_get_trace_path (JvmsTraceIndex *self)
{
  return self->trace_path;
}

JvmsTraceKind
jvms_trace_index_get_kind (JvmsTraceIndex *self)
{
  return self->kind;
}

JvmsTraceIndexPhase
jvms_trace_index_get_phase (JvmsTraceIndex *self)
{
  g_mutex_lock (&self->lock);
  JvmsTraceIndexPhase p = self->phase;
  g_mutex_unlock (&self->lock);
  return p;
}

double
jvms_trace_index_get_fraction (JvmsTraceIndex *self)
{
  g_mutex_lock (&self->lock);
  double f = self->fraction;
  g_mutex_unlock (&self->lock);
  return f;
}

JvmsHistory *
jvms_trace_index_dup_history (JvmsTraceIndex *self)
{
  g_mutex_lock (&self->lock);
  JvmsHistory *h = self->history != NULL ? jvms_history_ref (self->history) : NULL;
  g_mutex_unlock (&self->lock);
  return h;
}

gboolean
jvms_trace_index_get_reused (JvmsTraceIndex *self)
{
  g_mutex_lock (&self->lock);
  gboolean r = self->reused;
  g_mutex_unlock (&self->lock);
  return r;
}

JvmsTraceLayers
jvms_trace_index_get_layers (JvmsTraceIndex *self)
{
  g_mutex_lock (&self->lock);
  JvmsTraceLayers l = self->layers;
  g_mutex_unlock (&self->lock);
  return l;
}

/* Set once per load before any build starts, and only replaced by the next load. */
const char *
jvms_trace_index_get_index_path (JvmsTraceIndex *self)
{
  return self->index_path;
}

const char *
jvms_trace_index_get_samples_path (JvmsTraceIndex *self)
{
  return self->samples_path;
}

const char *
jvms_trace_index_get_events_path (JvmsTraceIndex *self)
{
  g_return_val_if_fail (JVMS_IS_TRACE_INDEX (self), NULL);
  return self->events_path;
}

static char **
dup_lines (JvmsTraceIndex *self, GPtrArray *lines)
{
  g_mutex_lock (&self->lock);
  char **out = g_new0 (char *, lines->len + 1);
  for (guint i = 0; i < lines->len; i++)
    out[i] = g_strdup (g_ptr_array_index (lines, i));
  g_mutex_unlock (&self->lock);
  return out;
}

char **
jvms_trace_index_dup_warnings (JvmsTraceIndex *self)
{
  return dup_lines (self, self->warnings);
}

char **
jvms_trace_index_dup_notes (JvmsTraceIndex *self)
{
  return dup_lines (self, self->notes);
}

void
jvms_trace_index_get_stats (JvmsTraceIndex *self, JvmsTraceIndexStats *out)
{
  g_mutex_lock (&self->lock);
  *out = self->stats;
  g_mutex_unlock (&self->lock);
}

const char *
jvms_trace_layers_name (JvmsTraceLayers layers)
{
  switch (layers & (JVMS_TRACE_LAYER_JFR | JVMS_TRACE_LAYER_KERNEL))
    {
    case JVMS_TRACE_LAYER_JFR: return "jfr";
    case JVMS_TRACE_LAYER_KERNEL: return "kernel";
    case JVMS_TRACE_LAYER_JFR | JVMS_TRACE_LAYER_KERNEL: return "jfr,kernel";
    default: return "";
    }
}
