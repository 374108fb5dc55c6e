/* jvms-event-ticks.c: event rows per column (see the header). */
#include "config.h"

#include <string.h>

#include "jvms-event-query.h"
#include "jvms-event-ticks.h"

typedef struct
{
  JvmsEventColumn *out;
  guint            n_columns;
  gint64           t0;
  gint64           t1;
  gboolean         only_reaching; /* rows before t0: only their part from t0 on */
} Binning;

static guint
column_of (const Binning *b,
           gint64         t)
{
  double f = (double) (t - b->t0) / (double) MAX (b->t1 - b->t0, 1);
  return (guint) CLAMP (f * b->n_columns, 0, b->n_columns - 1);
}

static gboolean
bin_row (const JvmsEventRecord *record,
         gpointer               data)
{
  Binning *b = data;
  gint64 end = record->duration > 0 ? record->time + record->duration : record->time;

  if (b->only_reaching)
    {
      if (end <= b->t0)
        return TRUE;
    }
  else if (record->time >= b->t0 && record->time < b->t1)
    b->out[column_of (b, record->time)].starts++;
  if (record->duration > 0 && end > b->t0 && record->time < b->t1)
    for (guint c = column_of (b, MAX (record->time, b->t0)); c <= column_of (b, MIN (end, b->t1 - 1)); c++)
      b->out[c].covering++;
  return TRUE;
}

static JvmsEventQuery *
query (JvmsEventStore *store,
       const guint32  *types,
       guint           n_types,
       gint64          tid,
       gint64          from,
       gint64          to,
       GError        **error)
{
  JvmsEventFilter filter = {
    .from = from, .to = to,
    .keep_types = JVMS_EVENT_KEEP_THESE, .types = types, .n_types = n_types,
    .keep_tids = tid != 0 ? JVMS_EVENT_KEEP_THESE : JVMS_EVENT_KEEP_ALL,
    .tids = tid != 0 ? &tid : NULL, .n_tids = tid != 0 ? 1 : 0,
  };
  return jvms_event_query_new (store, &filter, error);
}

typedef struct
{
  guint first, end; /* columns */
  guint64 n;        /* rows starting in them */
} Part;

/* A span of a lane's rows to read exactly: [from, to) of its start times. */
typedef struct
{
  gint64   from, to;
  gboolean only_reaching;
} Job;

/* What jvms_event_ticks_count does for one lane short of reading rows: the counts resolved by
 * queries go into @out, the spans to read whole into @jobs (disjoint, in no order). */
static gboolean
plan_lane (JvmsEventStore  *store,
           const guint32   *types,
           guint            n_types,
           gint64           tid,
           gint64           t0,
           gint64           t1,
           guint            n_columns,
           JvmsEventColumn *out,
           GArray          *jobs,
           GError         **error)
{
  g_autoptr(JvmsEventQuery) all = NULL;
  /* Parts still to resolve, breadth first: [next, len). */
  g_autoptr(GArray) parts = g_array_new (FALSE, FALSE, sizeof (Part));
  guint next = 0;
  guint queries = 1;

  /* Durations that began before the range and reach into it: as far back as the range is wide. */
  {
    g_autoptr(JvmsEventQuery) before = query (store, types, n_types, tid, t0 - (t1 - t0), t0, error);
    if (before == NULL)
      return FALSE;
    if (jvms_event_query_get_n_rows (before) > 0 && jvms_event_query_get_n_rows (before) <= JVMS_EVENT_TICKS_EXACT)
      g_array_append_val (jobs, ((Job) { t0 - (t1 - t0), t0, TRUE }));
  }
  all = query (store, types, n_types, tid, t0, t1, error);
  if (all == NULL)
    return FALSE;
  g_array_append_val (parts, ((Part) { 0, n_columns, jvms_event_query_get_n_rows (all) }));
  while (next < parts->len)
    {
      Part part = g_array_index (parts, Part, next++), *p = &part;
      gint64 from = t0 + (gint64) ((double) (t1 - t0) * p->first / n_columns);
      gint64 to = p->end == n_columns ? t1 : t0 + (gint64) ((double) (t1 - t0) * p->end / n_columns);

      if (p->n == 0)
        continue;
      if (p->n <= JVMS_EVENT_TICKS_EXACT)
        {
          g_array_append_val (jobs, ((Job) { from, to, FALSE }));
          continue;
        }
      if (p->end - p->first == 1)
        {
          out[p->first].starts += (guint32) MIN (p->n, G_MAXUINT32);
          continue;
        }
      if (queries + 2 > JVMS_EVENT_TICKS_QUERIES)
        {
          /* Out of queries: the part's rows spread over its columns, said to be a spread. */
          for (guint c = p->first; c < p->end; c++)
            {
              out[c].starts += (guint32) MAX (1, p->n / (p->end - p->first));
              out[c].approximate = TRUE;
            }
          continue;
        }
      {
        guint mid = p->first + (p->end - p->first) / 2;
        gint64 split = t0 + (gint64) ((double) (t1 - t0) * mid / n_columns);
        g_autoptr(JvmsEventQuery) left = query (store, types, n_types, tid, from, split, error);
        guint64 n_left;

        if (left == NULL)
          return FALSE;
        queries++;
        n_left = jvms_event_query_get_n_rows (left);
        g_array_append_val (parts, ((Part) { p->first, mid, n_left }));
        g_array_append_val (parts, ((Part) { mid, p->end, p->n - MIN (n_left, p->n) }));
      }
    }
  return TRUE;
}

static gint
job_before (gconstpointer a,
            gconstpointer b)
{
  const Job *x = a, *y = b;
  return x->from < y->from ? -1 : x->from > y->from;
}

static gint
time_before (gconstpointer a,
             gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* The lanes being read in one span of time, each with its binning. */
typedef struct
{
  const guint32 *types;   /* one per lane */
  Binning       *binning; /* one per lane */
  guint         *active;  /* lanes read in the span */
  guint          n_active;
} Routing;

static gboolean
route_row (const JvmsEventRecord *record,
           gpointer               data)
{
  Routing *r = data;
  for (guint i = 0; i < r->n_active; i++)
    if (r->types[r->active[i]] == record->type)
      bin_row (record, &r->binning[r->active[i]]);
  return TRUE;
}

/* Reads every lane's jobs in one sweep of time: the spans between the jobs' ends, each asked
 * once for the types of the lanes whose jobs cover it. Each row read is one a lane's job holds,
 * as when each lane read its own, but a block of the store that several lanes need is read
 * (and decompressed) once, not once per lane. */
static gboolean
read_jobs (JvmsEventStore   *store,
           const guint32    *types,
           guint             n_lanes,
           gint64            tid,
           gint64            t0,
           gint64            t1,
           guint             n_columns,
           JvmsEventColumn **outs,
           GArray          **jobs,
           GError          **error)
{
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree guint *next = g_new0 (guint, n_lanes);
  g_autofree guint *active = g_new0 (guint, n_lanes);
  g_autofree guint32 *wanted = g_new0 (guint32, n_lanes);
  g_autofree Binning *binning = g_new0 (Binning, n_lanes);
  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (store);

  for (guint l = 0; l < n_lanes; l++)
    {
      g_array_sort (jobs[l], job_before);
      binning[l] = (Binning) { outs[l], n_columns, t0, t1, FALSE };
      for (guint j = 0; j < jobs[l]->len; j++)
        {
          const Job *job = &g_array_index (jobs[l], Job, j);
          g_array_append_val (ends, job->from);
          g_array_append_val (ends, job->to);
        }
    }
  g_array_sort (ends, time_before);
  for (guint k = 0; k + 1 < ends->len; k++)
    {
      gint64 a = g_array_index (ends, gint64, k), b = g_array_index (ends, gint64, k + 1);
      guint n_active = 0;
      if (a == b)
        continue;
      for (guint l = 0; l < n_lanes; l++)
        {
          while (next[l] < jobs[l]->len && g_array_index (jobs[l], Job, next[l]).to <= a)
            next[l]++;
          if (next[l] < jobs[l]->len && g_array_index (jobs[l], Job, next[l]).from <= a)
            {
              binning[l].only_reaching = g_array_index (jobs[l], Job, next[l]).only_reaching;
              active[n_active] = l;
              wanted[n_active++] = types[l];
            }
        }
      if (n_active == 0)
        continue;
      Routing routing = { types, binning, active, n_active };
      g_autoptr(JvmsEventQuery) q = query (store, wanted, n_active, tid, a, b, error);
      if (q == NULL || !jvms_event_query_foreach (q, cursor, 0, FALSE, route_row, &routing, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
jvms_event_ticks_count_lanes (JvmsEventStore   *store,
                              const guint32    *types,
                              guint             n_lanes,
                              gint64            tid,
                              gint64            t0,
                              gint64            t1,
                              guint             n_columns,
                              JvmsEventColumn **outs,
                              GError          **error)
{
  for (guint l = 0; l < n_lanes; l++)
    memset (outs[l], 0, sizeof (JvmsEventColumn) * n_columns);
  if (store == NULL || n_columns == 0 || t1 <= t0 || n_lanes == 0)
    return TRUE;
  g_autofree GArray **jobs = g_new0 (GArray *, n_lanes);
  gboolean ok = TRUE;
  for (guint l = 0; l < n_lanes; l++)
    {
      jobs[l] = g_array_new (FALSE, FALSE, sizeof (Job));
      if (ok)
        ok = plan_lane (store, &types[l], 1, tid, t0, t1, n_columns, outs[l], jobs[l], error);
    }
  if (ok)
    ok = read_jobs (store, types, n_lanes, tid, t0, t1, n_columns, outs, jobs, error);
  for (guint l = 0; l < n_lanes; l++)
    g_array_unref (jobs[l]);
  return ok;
}

gboolean
jvms_event_ticks_count (JvmsEventStore  *store,
                        const guint32   *types,
                        guint            n_types,
                        gint64           tid,
                        gint64           t0,
                        gint64           t1,
                        guint            n_columns,
                        JvmsEventColumn *out,
                        GError         **error)
{
  g_autoptr(JvmsEventCursor) cursor = NULL;
  g_autoptr(GArray) jobs = g_array_new (FALSE, FALSE, sizeof (Job));
  Binning b = { out, n_columns, t0, t1, FALSE };

  memset (out, 0, sizeof (JvmsEventColumn) * n_columns);
  if (store == NULL || n_columns == 0 || t1 <= t0)
    return TRUE;
  if (!plan_lane (store, types, n_types, tid, t0, t1, n_columns, out, jobs, error))
    return FALSE;
  /* Several types make one lane: each job read for all of them. */
  cursor = jvms_event_cursor_new (store);
  for (guint j = 0; j < jobs->len; j++)
    {
      const Job *job = &g_array_index (jobs, Job, j);
      g_autoptr(JvmsEventQuery) q = query (store, types, n_types, tid, job->from, job->to, error);
      b.only_reaching = job->only_reaching;
      if (q == NULL || !jvms_event_query_foreach (q, cursor, 0, FALSE, bin_row, &b, error))
        return FALSE;
    }
  return TRUE;
}
