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
  g_autoptr(JvmsEventQuery) all = NULL;
  /* Parts still to resolve, breadth first: [next, len). */
  g_autoptr(GArray) parts = g_array_new (FALSE, FALSE, sizeof (Part));
  guint next = 0;
  Binning b = { out, n_columns, t0, t1, FALSE };
  guint queries = 1;

  memset (out, 0, sizeof (JvmsEventColumn) * n_columns);
  if (store == NULL || n_columns == 0 || t1 <= t0)
    return TRUE;
  cursor = jvms_event_cursor_new (store);
  /* Durations that began before the range and reach into it: as far back as the range is wide. */
  {
    g_autoptr(JvmsEventQuery) before = query (store, types, n_types, tid, t0 - (t1 - t0), t0, error);
    if (before == NULL)
      return FALSE;
    if (jvms_event_query_get_n_rows (before) <= JVMS_EVENT_TICKS_EXACT)
      {
        b.only_reaching = TRUE;
        if (!jvms_event_query_foreach (before, cursor, 0, FALSE, bin_row, &b, error))
          return FALSE;
        b.only_reaching = FALSE;
      }
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
          g_autoptr(JvmsEventQuery) q = query (store, types, n_types, tid, from, to, error);
          if (q == NULL || !jvms_event_query_foreach (q, cursor, 0, FALSE, bin_row, &b, error))
            return FALSE;
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
