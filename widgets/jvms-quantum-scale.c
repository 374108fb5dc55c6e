/* jvms-quantum-scale.c: the whole trace's scale of a quantum shade (jvms-quantum-scale.h). */
#include "config.h"

#include <math.h>

#include "jvms-quantum-scale.h"
#include "jvms-states.h"
#include "jvms-thread-list.h"

static gboolean
on_cpu_value (const JvmsValue *v)
{
  return v->type == JVMS_VALUE_INT && (v->i == JVMS_KERNEL_STATE_RUNNING || v->i == JVMS_KERNEL_STATE_SYSCALL);
}

/* One attribute's intervals over the trace, walked in time order. */
typedef struct
{
  GArray *list;
  guint   at;
} Walk;

/* The value of @w at @t (NaN: none; @state: the raw value), the walk moved up to @t. */
static double
walk_value (Walk      *w,
            gint64     t,
            JvmsValue *state)
{
  double v;

  while (w->at < w->list->len && g_array_index (w->list, JvmsInterval, w->at).end <= t)
    w->at++;
  if (w->at == w->list->len || g_array_index (w->list, JvmsInterval, w->at).start > t)
    {
      if (state != NULL)
        *state = JVMS_VALUE_INIT_NULL;
      return NAN;
    }
  const JvmsInterval *iv = &g_array_index (w->list, JvmsInterval, w->at);
  if (state != NULL)
    *state = iv->value;
  return jvms_quantum_value_number (&iv->value, &v) ? v : NAN;
}

/* The first start or end of @w's intervals after @t. */
static gint64
walk_next (const Walk *w,
           gint64      t)
{
  for (guint i = w->at; i < w->list->len; i++)
    {
      const JvmsInterval *iv = &g_array_index (w->list, JvmsInterval, i);
      if (iv->start > t)
        return iv->start;
      if (iv->end > t)
        return iv->end;
    }
  return G_MAXINT64;
}

/* The largest value of the shade anywhere @thread was on a CPU in the whole trace (NaN: none):
 * its lanes' intervals swept together, each stretch where none changes taken once. */
static double
thread_top (const JvmsQuantumMode *self,
            JvmsHistory           *history,
            const JvmsThreadInfo  *thread)
{
  JvmsAttribute lanes[JVMS_QUANTUM_LANES];
  JvmsAttribute attrs[JVMS_QUANTUM_LANES];
  Walk walks[JVMS_QUANTUM_LANES] = { { 0 } };
  double top = NAN;

  jvms_quantum_mode_lanes (self, history, thread, lanes);
  /* The kernel state in place of the CPU: where the thread is on one. */
  lanes[0] = thread->kernel_state;
  if (lanes[0] == JVMS_ATTRIBUTE_INVALID || lanes[1] == JVMS_ATTRIBUTE_INVALID)
    return NAN;
  guint n = 0;
  for (guint j = 0; j < JVMS_QUANTUM_LANES; j++)
    {
      walks[j].list = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
      if (lanes[j] != JVMS_ATTRIBUTE_INVALID)
        attrs[n++] = lanes[j];
    }
  g_autoptr(JvmsHistoryRange) range =
    jvms_history_query_range (history, jvms_history_get_start_time (history),
                              jvms_history_get_end_time (history), attrs, n, NULL);
  JvmsInterval iv;
  while (range != NULL && jvms_history_range_next (range, &iv, NULL))
    for (guint j = 0; j < JVMS_QUANTUM_LANES; j++)
      if (lanes[j] == iv.attribute)
        {
          g_array_append_val (walks[j].list, iv);
          break;
        }
  gint64 t = jvms_history_get_start_time (history);
  while (t < G_MAXINT64)
    {
      JvmsValue state;
      walk_value (&walks[0], t, &state);
      double v = jvms_quantum_mode_value_of (self, walk_value (&walks[1], t, NULL), walk_value (&walks[2], t, NULL),
                              walk_value (&walks[3], t, NULL));
      if (on_cpu_value (&state) && !isnan (v) && !(v <= top))
        top = v;
      gint64 next = G_MAXINT64;
      for (guint j = 0; j < JVMS_QUANTUM_LANES; j++)
        next = MIN (next, walk_next (&walks[j], t));
      t = next;
    }
  for (guint j = 0; j < JVMS_QUANTUM_LANES; j++)
    g_array_unref (walks[j].list);
  return top;
}

/* The largest value of @mode's shade over the JVM's threads of @history (NaN: none). */
static double
history_top (const JvmsQuantumMode *mode,
             JvmsHistory           *history)
{
  g_autoptr(JvmsThreadList) threads = jvms_thread_list_read (history);
  double top = NAN;

  for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      if (t->kind == JVMS_THREAD_KIND_OTHER_PROCESS)
        continue;
      double v = thread_top (mode, history, t);
      if (!isnan (v) && !(v <= top))
        top = v;
    }
  return top;
}

/* What is kept: a few (history, shade) pairs, the oldest replaced. The history is named by its
 * address and span, not held: a history freed and another made at its address is another
 * trace's, with another span, or the same trace's again, with the same top. */
#define KEPT 8

typedef struct
{
  JvmsHistory *history;
  gint64       start, end;
  char        *shade;     /* NULL: an empty slot */
  gboolean     exact;
  double       top;
  gboolean     pending;   /* a worker is at it */
} Kept;

static Kept kept[KEPT];
static guint kept_next;

static Kept *
kept_find (const JvmsQuantumMode *mode,
           JvmsHistory           *history)
{
  for (guint i = 0; i < KEPT; i++)
    if (kept[i].shade != NULL && kept[i].history == history && g_str_equal (kept[i].shade, mode->shade) &&
        kept[i].exact == mode->exact && kept[i].start == jvms_history_get_start_time (history) &&
        kept[i].end == jvms_history_get_end_time (history))
      return &kept[i];
  return NULL;
}

static Kept *
kept_add (const JvmsQuantumMode *mode,
          JvmsHistory           *history)
{
  Kept *k = &kept[kept_next];
  kept_next = (kept_next + 1) % KEPT;
  g_free (k->shade);
  *k = (Kept) {
    .history = history,
    .start = jvms_history_get_start_time (history),
    .end = jvms_history_get_end_time (history),
    .shade = g_strdup (mode->shade),
    .exact = mode->exact,
    .top = NAN,
  };
  return k;
}

gboolean
jvms_quantum_scale_lookup (const JvmsQuantumMode *mode,
                           JvmsHistory           *history,
                           double                *out)
{
  Kept *k = mode->shade != NULL && history != NULL ? kept_find (mode, history) : NULL;

  if (k == NULL || k->pending)
    return FALSE;
  *out = k->top;
  return TRUE;
}

void
jvms_quantum_scale_prepare (JvmsHistory *history,
                            const char  *shade)
{
  JvmsQuantumMode mode;

  g_return_if_fail (history != NULL);
  jvms_quantum_mode_init (&mode);
  g_autoptr(JvmsThreadList) threads = jvms_thread_list_read (history);
  /* Without a scale found yet: the mode's own lookup misses or finds it. */
  jvms_quantum_mode_set (&mode, history, threads, NULL, shade);
  if (mode.found && jvms_history_is_complete (history) && kept_find (&mode, history) == NULL)
    kept_add (&mode, history)->top = history_top (&mode, history);
  jvms_quantum_mode_clear (&mode);
}

typedef struct
{
  JvmsQuantumMode mode;   /* a copy, its shade its own */
  JvmsHistory    *history;
  JvmsSession    *session;
  double          top;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;
  jvms_quantum_mode_clear (&job->mode);
  jvms_history_unref (job->history);
  g_clear_object (&job->session);
  g_free (job);
}

static void
job_run (GTask        *task,
         gpointer      source,
         gpointer      data,
         GCancellable *cancellable)
{
  Job *job = data;
  job->top = history_top (&job->mode, job->history);
  g_task_return_boolean (task, TRUE);
}

static void
job_done (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Job *job = g_task_get_task_data (G_TASK (result));
  Kept *k = kept_find (&job->mode, job->history);

  if (k == NULL)
    k = kept_add (&job->mode, job->history);
  k->top = job->top;
  k->pending = FALSE;
  /* What the shade shows changed (its scale): the views compute again. */
  if (jvms_session_get_history (job->session) == job->history &&
      g_strcmp0 (jvms_session_get_quantum_shade (job->session), job->mode.shade) == 0)
    g_object_notify (G_OBJECT (job->session), "quantum-shade");
}

void
jvms_quantum_scale_request (const JvmsQuantumMode *mode,
                            JvmsHistory           *history,
                            JvmsSession           *session)
{
  g_return_if_fail (mode->shade != NULL && history != NULL && JVMS_IS_SESSION (session));
  Kept *k = kept_find (mode, history);
  if (k != NULL)
    return;
  kept_add (mode, history)->pending = TRUE;
  Job *job = g_new0 (Job, 1);
  jvms_quantum_mode_init (&job->mode);
  job->mode = *mode;
  job->mode.shade = g_strdup (mode->shade);
  job->mode.scale_text = job->mode.low_text = NULL;
  /* The counter names point into the shade when they are it. */
  if (g_strcmp0 (mode->numerator, mode->shade) == 0)
    job->mode.numerator = job->mode.shade;
  job->history = jvms_history_ref (history);
  job->session = g_object_ref (session);
  g_autoptr(GTask) task = g_task_new (NULL, NULL, job_done, NULL);
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, job_run);
}
