/* jvms-profile.c: the profile query: which types a kind takes and how it weighs them, the
 * decomposition of a range into nodes and raw blocks, and the sums per stack. */
#include "jvms-profile.h"

#include <string.h>

#include "jvms-call-tree-private.h"
#include "jvms-samples-private.h"

struct _JvmsProfile
{
  GObject           parent_instance;
  JvmsSamplesStore *store;
};

G_DEFINE_FINAL_TYPE (JvmsProfile, jvms_profile, G_TYPE_OBJECT)

static void
jvms_profile_finalize (GObject *object)
{
  JvmsProfile *self = JVMS_PROFILE (object);
  g_clear_pointer (&self->store, jvms_samples_store_unref);
  G_OBJECT_CLASS (jvms_profile_parent_class)->finalize (object);
}

static void
jvms_profile_class_init (JvmsProfileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jvms_profile_finalize;
}

static void
jvms_profile_init (JvmsProfile *self)
{
}

JvmsProfile *
jvms_profile_new_for_store (JvmsSamplesStore *store)
{
  g_return_val_if_fail (store != NULL, NULL);
  JvmsProfile *self = g_object_new (JVMS_TYPE_PROFILE, NULL);
  self->store = jvms_samples_store_ref (store);
  return self;
}

JvmsProfile *
jvms_profile_open (const char *samples_path, GError **error)
{
  g_autoptr(JvmsSamplesStore) store = jvms_samples_store_open (samples_path, error);
  return store != NULL ? jvms_profile_new_for_store (store) : NULL;
}

JvmsSamplesStore *
jvms_profile_get_store (JvmsProfile *self)
{
  return self->store;
}

guint
jvms_profile_get_n_threads (JvmsProfile *self)
{
  return jvms_samples_store_get_n_threads (self->store);
}

gint64
jvms_profile_get_thread_tid (JvmsProfile *self, guint index)
{
  gint64 tid = 0;
  jvms_samples_store_get_thread (self->store, index, &tid, NULL);
  return tid;
}

const char *
jvms_profile_get_thread_name (JvmsProfile *self, guint index)
{
  const char *name = NULL;
  jvms_samples_store_get_thread (self->store, index, NULL, &name);
  return name;
}

/* ---- kinds ---------------------------------------------------------------------------------- */

static const char *const kind_names[JVMS_PROFILE_KIND_N] = {
  "cpu", "cpu-waiting", "alloc", "lock", "wait", "park", "sleep", "io", "exception", "wall", NULL,
};

const char *
jvms_profile_kind_name (JvmsProfileKind kind)
{
  return (guint) kind < JVMS_PROFILE_KIND_N ? kind_names[kind] : NULL;
}

void
jvms_profile_kind_parse (const char *text, JvmsProfileKind *kind, const char **event_type)
{
  for (guint i = 0; i < JVMS_PROFILE_KIND_N; i++)
    if (kind_names[i] != NULL && g_strcmp0 (text, kind_names[i]) == 0)
      {
        *kind = (JvmsProfileKind) i;
        *event_type = NULL;
        return;
      }
  *kind = JVMS_PROFILE_KIND_EVENT_TYPE;
  *event_type = text;
}

typedef enum
{
  MEASURE_NONE,
  MEASURE_COUNT,     /* samples */
  MEASURE_WEIGHT,    /* the type's weight */
  MEASURE_WAITING,   /* samples whose thread waited for a CPU */
} Measure;

static const char *const lock_types[] = { "jdk.JavaMonitorEnter", NULL };
static const char *const wait_types[] = { "jdk.JavaMonitorWait", NULL };
static const char *const park_types[] = { "jdk.ThreadPark", NULL };
static const char *const sleep_types[] = { "jdk.ThreadSleep", NULL };
static const char *const io_types[] = { "jdk.SocketRead", "jdk.SocketWrite", "jdk.FileRead",
                                        "jdk.FileWrite", "jdk.FileForce", NULL };
static const char *const exception_types[] = { "jdk.JavaErrorThrow", "jdk.JavaExceptionThrow", NULL };
static const char *const tlab_types[] = { "jdk.ObjectAllocationInNewTLAB",
                                          "jdk.ObjectAllocationOutsideTLAB", NULL };

typedef struct
{
  Measure    *measure;     /* per store type */
  const char *unit;
  char       *kind_name;
  GStrv       event_types;
  gboolean    cpu;         /* a CPU kind: kernel states apply */
} Plan;

static void
plan_clear (Plan *p)
{
  g_free (p->measure);
  g_free (p->kind_name);
  g_strfreev (p->event_types);
}

static void
plan_names (JvmsSamplesStore *store, Plan *p, const char *const *names, Measure m)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      guint32 t = jvms_samples_store_find_type (store, names[i]);
      if (t != JVMS_SAMPLES_NONE)
        p->measure[t] = m;
    }
}

static void
plan_cpu (JvmsSamplesStore *store, Plan *p, Measure m)
{
  for (guint t = 0; t < jvms_samples_store_get_n_types (store); t++)
    {
      JvmsSampleTypeFlags flags;
      jvms_samples_store_get_type (store, t, NULL, NULL, &flags, NULL, NULL);
      if (flags & JVMS_SAMPLE_TYPE_CPU)
        p->measure[t] = m;
    }
}

/* The wall-clock samplers' types that have samples: FALSE when none has. */
static gboolean
plan_wall_samplers (JvmsSamplesStore *store, Plan *p)
{
  gboolean any = FALSE;
  for (guint t = 0; t < jvms_samples_store_get_n_types (store); t++)
    {
      JvmsSampleTypeFlags flags;
      guint64 n_samples = 0;
      jvms_samples_store_get_type (store, t, NULL, NULL, &flags, &n_samples, NULL);
      if ((flags & JVMS_SAMPLE_TYPE_WALL) && n_samples > 0)
        {
          p->measure[t] = MEASURE_WEIGHT;
          any = TRUE;
        }
    }
  return any;
}

static void
make_plan (JvmsSamplesStore *store, JvmsProfileKind kind, const char *event_type, Plan *p)
{
  guint n = jvms_samples_store_get_n_types (store);
  p->measure = g_new0 (Measure, MAX (n, 1));
  p->kind_name = g_strdup (kind == JVMS_PROFILE_KIND_EVENT_TYPE ? event_type : jvms_profile_kind_name (kind));
  p->unit = "ns";
  switch (kind)
    {
    case JVMS_PROFILE_KIND_CPU:
      plan_cpu (store, p, MEASURE_COUNT);
      p->unit = "samples";
      p->cpu = TRUE;
      break;
    case JVMS_PROFILE_KIND_CPU_WAITING:
      plan_cpu (store, p, MEASURE_WAITING);
      p->unit = "samples";
      p->cpu = TRUE;
      break;
    case JVMS_PROFILE_KIND_ALLOC:
      {
        /* Allocation samples when the recording has any (JDK 16+), else the TLAB events: the
         * same bytes seen twice would count twice. Decided over the whole store, not the range. */
        guint32 t = jvms_samples_store_find_type (store, "jdk.ObjectAllocationSample");
        guint64 n_samples = 0;
        if (t != JVMS_SAMPLES_NONE)
          jvms_samples_store_get_type (store, t, NULL, NULL, NULL, &n_samples, NULL);
        if (n_samples > 0)
          p->measure[t] = MEASURE_WEIGHT;
        else
          plan_names (store, p, tlab_types, MEASURE_WEIGHT);
        p->unit = "bytes";
      }
      break;
    case JVMS_PROFILE_KIND_LOCK:
      plan_names (store, p, lock_types, MEASURE_WEIGHT);
      break;
    case JVMS_PROFILE_KIND_WAIT:
      plan_names (store, p, wait_types, MEASURE_WEIGHT);
      break;
    case JVMS_PROFILE_KIND_PARK:
      plan_names (store, p, park_types, MEASURE_WEIGHT);
      break;
    case JVMS_PROFILE_KIND_SLEEP:
      plan_names (store, p, sleep_types, MEASURE_WEIGHT);
      break;
    case JVMS_PROFILE_KIND_IO:
      plan_names (store, p, io_types, MEASURE_WEIGHT);
      break;
    case JVMS_PROFILE_KIND_EXCEPTION:
      plan_names (store, p, exception_types, MEASURE_COUNT);
      p->unit = "events";
      break;
    case JVMS_PROFILE_KIND_WALL:
      /* A profiler's wall-clock samples are the threads' time in every state, running included:
       * its CPU samples and its lock samples (contended time, sampled) would count some of it
       * twice. Decided over the whole store, not the range. */
      if (plan_wall_samplers (store, p))
        break;
      plan_cpu (store, p, MEASURE_WEIGHT);
      plan_names (store, p, lock_types, MEASURE_WEIGHT);
      plan_names (store, p, wait_types, MEASURE_WEIGHT);
      plan_names (store, p, park_types, MEASURE_WEIGHT);
      plan_names (store, p, sleep_types, MEASURE_WEIGHT);
      plan_names (store, p, io_types, MEASURE_WEIGHT);
      break;
    case JVMS_PROFILE_KIND_EVENT_TYPE:
    default:
      {
        guint32 t = jvms_samples_store_find_type (store, event_type);
        p->unit = "events";
        if (t == JVMS_SAMPLES_NONE)
          break;
        JvmsSampleUnit unit;
        JvmsSampleTypeFlags flags;
        guint64 weight;
        jvms_samples_store_get_type (store, t, NULL, &unit, &flags, NULL, &weight);
        /* Samplers count samples; a type whose events all last 0 ns counts events. */
        if ((flags & JVMS_SAMPLE_TYPE_SAMPLER) != 0)
          {
            p->measure[t] = MEASURE_COUNT;
            p->unit = "samples";
            p->cpu = (flags & JVMS_SAMPLE_TYPE_CPU) != 0;
          }
        else if (unit == JVMS_SAMPLE_UNIT_EVENTS || weight == 0)
          p->measure[t] = MEASURE_COUNT;
        else
          {
            p->measure[t] = MEASURE_WEIGHT;
            p->unit = unit == JVMS_SAMPLE_UNIT_BYTES ? "bytes" : "ns";
          }
        /* The type's wall-clock samples, a second type of the same name, count alike. */
        for (guint u = t + 1; u < n; u++)
          {
            const char *name;
            jvms_samples_store_get_type (store, u, &name, NULL, NULL, NULL, NULL);
            if (g_strcmp0 (name, event_type) == 0)
              p->measure[u] = p->measure[t];
          }
      }
      break;
    }
  GPtrArray *types = g_ptr_array_new ();
  for (guint t = 0; t < n; t++)
    if (p->measure[t] != MEASURE_NONE)
      {
        const char *name;
        jvms_samples_store_get_type (store, t, &name, NULL, NULL, NULL, NULL);
        /* Once each, whichever of a name's two types went in. */
        gboolean seen = FALSE;
        for (guint i = 0; i < types->len && !seen; i++)
          seen = g_strcmp0 (g_ptr_array_index (types, i), name) == 0;
        if (!seen)
          g_ptr_array_add (types, g_strdup (name));
      }
  g_ptr_array_add (types, NULL);
  p->event_types = (GStrv) g_ptr_array_free (types, FALSE);
}

guint64
jvms_profile_count_samples (JvmsProfile *self, JvmsProfileKind kind, const char *event_type)
{
  g_return_val_if_fail (JVMS_IS_PROFILE (self), 0);
  JvmsSamplesStore *store = self->store;
  if (kind == JVMS_PROFILE_KIND_CPU_WAITING && !jvms_samples_store_has_kernel_states (store))
    return 0;
  Plan p = { 0 };
  make_plan (store, kind, event_type, &p);
  guint64 n = 0;
  for (guint t = 0; t < jvms_samples_store_get_n_types (store); t++)
    if (p.measure[t] != MEASURE_NONE)
      {
        guint64 n_type = 0;
        jvms_samples_store_get_type (store, t, NULL, NULL, NULL, &n_type, NULL);
        n += n_type;
      }
  plan_clear (&p);
  return n;
}

/* ---- sums per stack ------------------------------------------------------------------------ */

/* stack -> index in the sums, kept by the calling thread from query to query (JvmsDenseMemo). */
static void
memo_free (gpointer data)
{
  jvms_dense_memo_clear (data);
  g_free (data);
}

static GPrivate sums_memo_key = G_PRIVATE_INIT (memo_free);

typedef struct
{
  GArray          *weights;      /* JvmsStackWeight, one per stack met */
  JvmsDenseMemo   *index_of;     /* stack -> index in weights */
  JvmsStackWeight  none;         /* samples without a stack */
  gboolean         have_none;
} Sums;

static void
sums_init (Sums *s, guint n_stacks)
{
  memset (s, 0, sizeof *s);
  s->weights = g_array_new (FALSE, FALSE, sizeof (JvmsStackWeight));
  s->index_of = g_private_get (&sums_memo_key);
  if (s->index_of == NULL)
    {
      s->index_of = g_new0 (JvmsDenseMemo, 1);
      g_private_set (&sums_memo_key, s->index_of);
    }
  jvms_dense_memo_begin (s->index_of, MAX (n_stacks, 1));
  s->none.stack = JVMS_SAMPLES_NONE;
}

/* Valid until the next call. */
static JvmsStackWeight *
sums_get (Sums *s, guint32 stack)
{
  if (stack == JVMS_SAMPLES_NONE)
    {
      s->have_none = TRUE;
      return &s->none;
    }
  guint32 i = jvms_dense_memo_get (s->index_of, stack);
  if (i == JVMS_SAMPLES_NONE)
    {
      JvmsStackWeight w = { .stack = stack };
      i = s->weights->len;
      g_array_append_val (s->weights, w);
      jvms_dense_memo_set (s->index_of, stack, i);
    }
  return &g_array_index (s->weights, JvmsStackWeight, i);
}

static GArray *
sums_steal (Sums *s)
{
  if (s->have_none)
    g_array_append_val (s->weights, s->none);
  return g_steal_pointer (&s->weights);
}

/* ---- the query ------------------------------------------------------------------------------ */

typedef struct
{
  JvmsSamplesStore *store;
  Plan              plan;
  guint8           *threads;      /* per store thread: wanted; NULL: all */
  Sums              sums;
  gint64            from, to;
  guint             level;        /* of the node being read */
} Query;

/* All threads: a node's all-threads sections where it has them, else every thread's. */
static gboolean
want_section (guint32 type, guint32 thread, gpointer data)
{
  Query *q = data;
  if (q->plan.measure[type] == MEASURE_NONE)
    return FALSE;
  if (thread == JVMS_SAMPLES_NONE)
    return q->threads == NULL;
  return q->threads == NULL ? q->level < JVMS_SAMPLES_ALL_THREADS_LEVEL : q->threads[thread];
}

static void
add_entry (guint32 type, guint32 thread, const JvmsSamplesEntry *e, gpointer data)
{
  Query *q = data;
  guint64 value, samples, states[JVMS_CPU_STATE_N] = { 0 };
  states[JVMS_CPU_STATE_ON_CPU] = e->on_cpu;
  states[JVMS_CPU_STATE_WAITING] = e->waiting;
  states[JVMS_CPU_STATE_UNKNOWN] = e->count - e->on_cpu - e->waiting;
  switch (q->plan.measure[type])
    {
    case MEASURE_COUNT:
      value = samples = e->count;
      break;
    case MEASURE_WEIGHT:
      value = e->weight;
      samples = e->count;
      break;
    case MEASURE_WAITING:
      value = samples = e->waiting;
      states[JVMS_CPU_STATE_ON_CPU] = states[JVMS_CPU_STATE_UNKNOWN] = 0;
      break;
    case MEASURE_NONE:
    default:
      return;
    }
  if (samples == 0)
    return;
  JvmsStackWeight *w = sums_get (&q->sums, e->stack);
  w->value += value;
  w->samples += samples;
  for (guint i = 0; i < JVMS_CPU_STATE_N; i++)
    w->states[i] += states[i];
}

static gboolean
want_record (Query *q, const JvmsSampleRecord *r)
{
  return r->time >= q->from && r->time < q->to && q->plan.measure[r->type] != MEASURE_NONE
         && (q->threads == NULL || q->threads[r->thread])
         && (q->plan.measure[r->type] != MEASURE_WAITING || r->state == JVMS_CPU_STATE_WAITING);
}

static void
add_record (Query *q, const JvmsSampleRecord *r)
{
  JvmsSamplesEntry e = { r->stack, 1, r->weight, r->state == JVMS_CPU_STATE_ON_CPU,
                         r->state == JVMS_CPU_STATE_WAITING };
  JvmsSampleTypeFlags flags;
  jvms_samples_store_get_type (q->store, r->type, NULL, NULL, &flags, NULL, NULL);
  if ((flags & JVMS_SAMPLE_TYPE_CPU) == 0)
    e.on_cpu = e.waiting = 0;
  add_entry (r->type, r->thread, &e, q);
}

static gboolean
query_init (Query *q, JvmsSamplesStore *store, const JvmsProfileQuery *query)
{
  memset (q, 0, sizeof *q);
  q->store = store;
  q->from = query->from;
  q->to = query->to;
  make_plan (store, query->kind, query->event_type, &q->plan);
  if (query->tids != NULL)
    {
      guint n = jvms_samples_store_get_n_threads (store);
      q->threads = g_new0 (guint8, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        {
          gint64 tid;
          jvms_samples_store_get_thread (store, i, &tid, NULL);
          for (guint k = 0; k < query->n_tids; k++)
            if (query->tids[k] == tid)
              q->threads[i] = 1;
        }
    }
  return TRUE;
}

static void
query_clear (Query *q)
{
  plan_clear (&q->plan);
  g_free (q->threads);
  g_clear_pointer (&q->sums.weights, g_array_unref);
}

/* The blocks that may hold samples in [from, to): [*lo, *hi). */
static void
block_span (JvmsSamplesStore *store, gint64 from, gint64 to, guint *lo, guint *hi)
{
  guint n = jvms_samples_store_get_n_blocks (store);
  guint a = 0, b = n;
  while (a < b)               /* first block whose last time >= from */
    {
      guint m = a + (b - a) / 2;
      gint64 last;
      jvms_samples_store_get_block_span (store, m, NULL, &last, NULL);
      if (last < from)
        a = m + 1;
      else
        b = m;
    }
  *lo = a;
  b = n;
  while (a < b)               /* first block whose first time >= to */
    {
      guint m = a + (b - a) / 2;
      gint64 first;
      jvms_samples_store_get_block_span (store, m, &first, NULL, NULL);
      if (first < to)
        a = m + 1;
      else
        b = m;
    }
  *hi = MAX (*lo, a);
}

static gboolean
read_raw (Query *q, guint block, GArray *records, gboolean whole, GError **error)
{
  if (!jvms_samples_store_read_block (q->store, block, records, error))
    return FALSE;
  for (guint i = 0; i < records->len; i++)
    {
      const JvmsSampleRecord *r = &g_array_index (records, JvmsSampleRecord, i);
      if (whole ? q->plan.measure[r->type] != MEASURE_NONE && (q->threads == NULL || q->threads[r->thread])
                : want_record (q, r))
        add_record (q, r);
    }
  return TRUE;
}

/* The sums of the 2^@level blocks from @block: its node, or, for a node left out, its halves. */
static gboolean
read_run (Query *q, guint level, guint block, GArray *records, GError **error)
{
  if (level == 0)
    return read_raw (q, block, records, TRUE, error);
  q->level = level;
  if (jvms_samples_store_has_node (q->store, level, block >> level))
    return jvms_samples_store_read_node (q->store, level, block >> level, want_section, add_entry, q, error);
  return read_run (q, level - 1, block, records, error)
         && read_run (q, level - 1, block + (1u << (level - 1)), records, error);
}

static gboolean
query_run (Query *q, GCancellable *cancellable, GError **error)
{
  sums_init (&q->sums, jvms_samples_store_get_n_stacks (q->store));
  if (q->from >= q->to)
    return TRUE;
  guint lo, hi;
  block_span (q->store, q->from, q->to, &lo, &hi);
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (JvmsSampleRecord));
  guint n_levels = jvms_samples_store_get_n_levels (q->store);
  for (guint b = lo; b < hi;)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      gint64 first, last;
      jvms_samples_store_get_block_span (q->store, b, &first, &last, NULL);
      if (first < q->from || last >= q->to)
        {
          /* A block cut by the range's edge: its samples, one by one. */
          if (!read_raw (q, b, records, FALSE, error))
            return FALSE;
          b++;
          continue;
        }
      /* Whole blocks from b to the first whose last sample is at or after the range's end,
       * in aligned runs of 2^k, each one node of level k. */
      guint a = b + 1, end = hi;
      while (a < end)
        {
          guint m = a + (end - a) / 2;
          jvms_samples_store_get_block_span (q->store, m, NULL, &last, NULL);
          if (last < q->to)
            a = m + 1;
          else
            end = m;
        }
      while (b < end)
        {
          guint k = 0;
          while (k < n_levels && k < 31 && (b & ((2u << k) - 1)) == 0 && (guint64) b + (2u << k) <= end)
            k++;
          if (!read_run (q, k, b, records, error))
            return FALSE;
          b += 1u << k;
        }
    }
  return TRUE;
}

JvmsCallTree *
jvms_profile_query (JvmsProfile *self, const JvmsProfileQuery *query, GCancellable *cancellable,
                    GError **error)
{
  g_return_val_if_fail (JVMS_IS_PROFILE (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);
  Query q;
  query_init (&q, self->store, query);
  if (!query_run (&q, cancellable, error))
    {
      query_clear (&q);
      return NULL;
    }
  g_autoptr(GArray) weights = sums_steal (&q.sums);
  gboolean kernel = q.plan.cpu && jvms_samples_store_has_kernel_states (self->store);
  JvmsCallTree *tree = jvms_call_tree_build (self->store, (const JvmsStackWeight *) weights->data,
                                             weights->len, query->from, query->to, q.plan.kind_name,
                                             q.plan.unit, q.plan.event_types, kernel);
  query_clear (&q);
  return tree;
}

gboolean
jvms_profile_foreach_sample (JvmsProfile *self, const JvmsProfileQuery *query,
                             JvmsProfileSampleFunc func, gpointer user_data, GError **error)
{
  g_return_val_if_fail (JVMS_IS_PROFILE (self), FALSE);
  Query q;
  query_init (&q, self->store, query);
  guint lo, hi;
  block_span (self->store, query->from, query->to, &lo, &hi);
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (JvmsSampleRecord));
  gboolean ok = TRUE;
  for (guint b = lo; b < hi && ok; b++)
    {
      if (!jvms_samples_store_read_block (self->store, b, records, error))
        {
          ok = FALSE;
          break;
        }
      for (guint i = 0; i < records->len; i++)
        {
          const JvmsSampleRecord *r = &g_array_index (records, JvmsSampleRecord, i);
          if (want_record (&q, r) && !func (r, user_data))
            {
              hi = b;
              break;
            }
        }
    }
  query_clear (&q);
  return ok;
}

/* ---- async ---------------------------------------------------------------------------------- */

typedef struct
{
  JvmsProfileQuery query;
  gint64          *tids;
  char            *event_type;
} AsyncQuery;

static void
async_query_free (gpointer data)
{
  AsyncQuery *a = data;
  g_free (a->tids);
  g_free (a->event_type);
  g_free (a);
}

static void
query_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AsyncQuery *a = data;
  GError *error = NULL;
  JvmsCallTree *tree = jvms_profile_query (JVMS_PROFILE (source), &a->query, cancellable, &error);
  if (tree == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tree, g_object_unref);
}

void
jvms_profile_query_async (JvmsProfile *self, const JvmsProfileQuery *query, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (JVMS_IS_PROFILE (self));
  AsyncQuery *a = g_new0 (AsyncQuery, 1);
  a->query = *query;
  a->tids = query->tids != NULL ? g_memdup2 (query->tids, sizeof (gint64) * MAX (query->n_tids, 1)) : NULL;
  a->query.tids = a->tids;
  a->event_type = g_strdup (query->event_type);
  a->query.event_type = a->event_type;
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_profile_query_async);
  g_task_set_task_data (task, a, async_query_free);
  g_task_run_in_thread (task, query_thread);
}

JvmsCallTree *
jvms_profile_query_finish (JvmsProfile *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
