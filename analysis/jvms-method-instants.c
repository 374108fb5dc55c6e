/* jvms-method-instants.c: the instants a method was on a sampled stack (see the header). */
#include "jvms-method-instants.h"


#define DEFAULT_MAX (1u << 20)
/* Samples between two looks at the cancellable. */
#define CANCEL_CHECK 4096

typedef struct
{
  gatomicrefcount     ref;
  JvmsMethodInstants  pub;
} Instants;

G_DEFINE_BOXED_TYPE (JvmsMethodInstants, jvms_method_instants,
                     jvms_method_instants_ref, jvms_method_instants_unref)

JvmsMethodInstants *
jvms_method_instants_ref (JvmsMethodInstants *self)
{
  Instants *i = G_STRUCT_MEMBER_P (self, -G_STRUCT_OFFSET (Instants, pub));
  g_atomic_ref_count_inc (&i->ref);
  return self;
}

void
jvms_method_instants_unref (JvmsMethodInstants *self)
{
  Instants *i = G_STRUCT_MEMBER_P (self, -G_STRUCT_OFFSET (Instants, pub));
  if (!g_atomic_ref_count_dec (&i->ref))
    return;
  g_free (self->tids);
  g_free (self->times);
  g_free (i);
}

typedef struct
{
  JvmsSamplesStore *store;
  guint32           method;
  guint32           unknown;   /* the call tree's id for "no stack" */
  guint8           *memo;      /* per stack: 0 not yet known, 1 holds the method, 2 does not */
  GArray           *tids;
  GArray           *times;
  guint             max;
  guint             stride;
  guint64           matched;
  guint64           seen;
  GCancellable     *cancellable;
  gboolean          cancelled;
} Walk;

/* Whether @stack holds the method: up the prefix tree to the first stack already known, then
 * every stack on the way gets the answer. */
static gboolean
stack_holds (Walk *w, guint32 stack)
{
  guint32 s = stack;
  guint8 answer = 2;
  while (s != JVMS_SAMPLES_NONE)
    {
      if (w->memo[s] != 0)
        {
          answer = w->memo[s];
          break;
        }
      guint32 parent, frame, method;
      jvms_samples_store_get_stack (w->store, s, &parent, &frame);
      jvms_samples_store_get_frame (w->store, frame, &method, NULL, NULL);
      if (method == w->method)
        {
          answer = 1;
          break;
        }
      s = parent;
    }
  for (guint32 t = stack; t != s;)
    {
      w->memo[t] = answer;
      guint32 parent, frame;
      jvms_samples_store_get_stack (w->store, t, &parent, &frame);
      t = parent;
    }
  if (s != JVMS_SAMPLES_NONE)
    w->memo[s] = answer;
  return answer == 1;
}

/* Every other instant dropped: the array stays within max, and what is kept stays even. */
static void
thin (Walk *w)
{
  guint k = 0;
  for (guint i = 0; i < w->times->len; i += 2, k++)
    {
      g_array_index (w->times, gint64, k) = g_array_index (w->times, gint64, i);
      g_array_index (w->tids, gint64, k) = g_array_index (w->tids, gint64, i);
    }
  g_array_set_size (w->times, k);
  g_array_set_size (w->tids, k);
  w->stride *= 2;
}

static gboolean
visit (const JvmsSampleRecord *r, gpointer user_data)
{
  Walk *w = user_data;
  if (++w->seen % CANCEL_CHECK == 0 && g_cancellable_is_cancelled (w->cancellable))
    {
      w->cancelled = TRUE;
      return FALSE;
    }
  gboolean holds = r->stack == JVMS_SAMPLES_NONE ? w->method == w->unknown
                                                 : stack_holds (w, r->stack);
  if (!holds)
    return TRUE;
  if (w->matched++ % w->stride != 0)
    return TRUE;
  gint64 tid = 0;
  jvms_samples_store_get_thread (w->store, r->thread, &tid, NULL);
  g_array_append_val (w->tids, tid);
  g_array_append_val (w->times, r->time);
  if (w->times->len >= w->max)
    thin (w);
  return TRUE;
}

JvmsMethodInstants *
jvms_method_instants_collect (JvmsProfile *profile, const JvmsProfileQuery *query, guint32 method,
                              guint max, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (JVMS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (query != NULL, NULL);

  JvmsSamplesStore *store = jvms_profile_get_store (profile);
  Walk w = {
    .store = store,
    .method = method,
    .unknown = jvms_samples_store_get_n_methods (store),
    .memo = g_new0 (guint8, MAX (jvms_samples_store_get_n_stacks (store), 1)),
    .tids = g_array_new (FALSE, FALSE, sizeof (gint64)),
    .times = g_array_new (FALSE, FALSE, sizeof (gint64)),
    .max = max > 1 ? max : DEFAULT_MAX,
    .stride = 1,
    .cancellable = cancellable,
  };
  gboolean ok = jvms_profile_foreach_sample (profile, query, visit, &w, error);
  g_free (w.memo);
  if (ok && w.cancelled)
    ok = !g_cancellable_set_error_if_cancelled (cancellable, error);
  if (!ok)
    {
      g_array_unref (w.tids);
      g_array_unref (w.times);
      return NULL;
    }

  Instants *i = g_new0 (Instants, 1);
  g_atomic_ref_count_init (&i->ref);
  JvmsMethodInstants *self = &i->pub;
  self->from = query->from;
  self->to = query->to;
  self->method = method;
  self->n = w.times->len;
  self->tids = (gint64 *) g_array_free (w.tids, FALSE);
  self->times = (gint64 *) g_array_free (w.times, FALSE);
  self->n_matched = w.matched;
  self->stride = w.stride;
  return self;
}

/* ---- async ---------------------------------------------------------------------------------- */

typedef struct
{
  JvmsProfileQuery query;
  gint64          *tids;
  char            *event_type;
  guint32          method;
  guint            max;
} Request;

static void
request_free (gpointer data)
{
  Request *r = data;
  g_free (r->tids);
  g_free (r->event_type);
  g_free (r);
}

static void
collect_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Request *r = data;
  GError *error = NULL;
  JvmsMethodInstants *instants = jvms_method_instants_collect (source, &r->query, r->method,
                                                               r->max, cancellable, &error);
  if (instants == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, instants, (GDestroyNotify) jvms_method_instants_unref);
}

void
jvms_method_instants_collect_async (JvmsProfile *profile, const JvmsProfileQuery *query,
                                    guint32 method, guint max, GCancellable *cancellable,
                                    GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (JVMS_IS_PROFILE (profile));
  g_return_if_fail (query != NULL);

  Request *r = g_new0 (Request, 1);
  r->query = *query;
  r->tids = query->tids != NULL ? g_memdup2 (query->tids, sizeof (gint64) * MAX (query->n_tids, 1))
                                : NULL;
  r->query.tids = r->tids;
  r->event_type = g_strdup (query->event_type);
  r->query.event_type = r->event_type;
  r->method = method;
  r->max = max;
  g_autoptr(GTask) task = g_task_new (profile, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_method_instants_collect_async);
  g_task_set_task_data (task, r, request_free);
  g_task_run_in_thread (task, collect_thread);
}

JvmsMethodInstants *
jvms_method_instants_collect_finish (JvmsProfile *profile, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, profile), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
