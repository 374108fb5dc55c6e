/* jvms-event-query.c: pages of filtered rows at any position (see the header for the costs).
 *
 * A filter selects a set S of streams whose rows are exactly the rows it wants: its (type,
 * thread) pairs when it names both, its types' streams or its threads' streams when it names
 * one, and no stream at all (the rows themselves) when it names neither. Every row of S has a
 * rank among the rows of S in the whole store; cum(b), the rows of S in the blocks before b, is
 * the sum over S of one posting found by binary search. The row of rank t lies in the last block
 * b with cum(b) <= t, found by binary search over blocks; the rows of that block are scanned,
 * counting those that match. */
#include "jvms-event-query.h"

#include <stdlib.h>
#include <string.h>

#include "jvms-trace-detect.h"

struct _JvmsEventQuery
{
  JvmsEventStore             *store;
  const JvmsEventBlockEntry  *blocks;
  guint64                     n_blocks;
  const JvmsEventStreamEntry *streams;
  const JvmsEventPosting     *postings;
  gboolean                    global;    /* no filter on types or threads */
  gboolean                    empty;
  GArray                     *selected;  /* guint64 stream indices (S) */
  guint8                     *type_mask; /* n_types entries, NULL for every type */
  gint64                     *tids;      /* sorted, NULL for every thread */
  guint                       n_tids;
  guint64                     r0, r1;    /* the rows of the range */
  guint64                     base;      /* rank of the first row of S at or after r0 */
  guint64                     n;
};

static gboolean
matches (JvmsEventQuery *self, const JvmsEventRecord *r)
{
  if (self->type_mask != NULL && !self->type_mask[r->type])
    return FALSE;
  if (self->tids != NULL)
    {
      guint lo = 0, hi = self->n_tids;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          if (self->tids[mid] == r->tid)
            return TRUE;
          if (self->tids[mid] < r->tid)
            lo = mid + 1;
          else
            hi = mid;
        }
      return FALSE;
    }
  return TRUE;
}

/* Index (within stream @s's run) of its first posting at block >= @b. */
static guint64
posting_lower_bound (JvmsEventQuery *self, const JvmsEventStreamEntry *s, guint64 b)
{
  const JvmsEventPosting *p = self->postings + s->first_posting;
  guint64 lo = 0, hi = s->n_postings;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (p[mid].block < b)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Rows of S in the blocks before @b. */
static guint64
cum (JvmsEventQuery *self, guint64 b)
{
  guint64 c = 0;
  for (guint i = 0; i < self->selected->len; i++)
    {
      const JvmsEventStreamEntry *s = &self->streams[g_array_index (self->selected, guint64, i)];
      guint64 k = posting_lower_bound (self, s, b);
      c += k < s->n_postings ? self->postings[s->first_posting + k].before : s->n_rows;
    }
  return c;
}

/* The first block after @b where S has rows, or n_blocks. */
static guint64
next_block (JvmsEventQuery *self, guint64 b)
{
  guint64 best = self->n_blocks;
  for (guint i = 0; i < self->selected->len; i++)
    {
      const JvmsEventStreamEntry *s = &self->streams[g_array_index (self->selected, guint64, i)];
      guint64 k = posting_lower_bound (self, s, b + 1);
      if (k < s->n_postings)
        best = MIN (best, (guint64) self->postings[s->first_posting + k].block);
    }
  return best;
}

/* The first row whose running-maximum start time is >= @t. */
static gboolean
row_at_time (JvmsEventQuery *self, JvmsEventCursor *cursor, gint64 t, guint64 *out, GError **error)
{
  guint64 n_rows = jvms_event_store_get_n_rows (self->store);
  if (t == G_MININT64 || n_rows == 0)
    {
      *out = t == G_MININT64 ? 0 : n_rows;
      return TRUE;
    }
  guint64 lo = 0, hi = self->n_blocks;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (self->blocks[mid].last_time < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == self->n_blocks)
    {
      *out = n_rows;
      return TRUE;
    }
  const JvmsEventBlockEntry *e = &self->blocks[lo];
  gint64 m = lo > 0 ? self->blocks[lo - 1].last_time : G_MININT64;
  for (guint32 i = 0; i < e->n_rows; i++)
    {
      JvmsEventRecord r;
      if (!jvms_event_cursor_read_head (cursor, e->first_row + i, &r, error))
        return FALSE;
      m = MAX (m, r.time);
      if (m >= t)
        {
          *out = e->first_row + i;
          return TRUE;
        }
    }
  /* The directory said the block reaches t; its rows say otherwise. */
  g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
               "%s: damaged event store: block %" G_GUINT64_FORMAT "'s rows end before its last time",
               jvms_event_store_get_path (self->store), lo);
  return FALSE;
}

/* Rows of S before row @r. */
static gboolean
count_before (JvmsEventQuery *self, JvmsEventCursor *cursor, guint64 r, guint64 *out, GError **error)
{
  if (self->global)
    {
      *out = r;
      return TRUE;
    }
  if (r >= jvms_event_store_get_n_rows (self->store))
    {
      *out = cum (self, self->n_blocks);
      return TRUE;
    }
  guint64 b = jvms_event_store_block_of_row (self->store, r);
  guint64 c = cum (self, b);
  for (guint64 row = self->blocks[b].first_row; row < r; row++)
    {
      JvmsEventRecord rec;
      if (!jvms_event_cursor_read_head (cursor, row, &rec, error))
        return FALSE;
      if (matches (self, &rec))
        c++;
    }
  *out = c;
  return TRUE;
}

static int
tid_cmp (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* A list goes with KEEP_THESE only, and n ids need a list. */
static gboolean
keep_ok (JvmsEventKeep keep, gconstpointer ids, guint n)
{
  switch (keep)
    {
    case JVMS_EVENT_KEEP_NONE:
    case JVMS_EVENT_KEEP_ALL:
      return ids == NULL && n == 0;
    case JVMS_EVENT_KEEP_THESE:
      return ids != NULL || n == 0;
    default:
      return FALSE;
    }
}

JvmsEventQuery *
jvms_event_query_new (JvmsEventStore *store, const JvmsEventFilter *filter, GError **error)
{
  g_return_val_if_fail (store != NULL && filter != NULL, NULL);
  g_return_val_if_fail (keep_ok (filter->keep_types, filter->types, filter->n_types), NULL);
  g_return_val_if_fail (keep_ok (filter->keep_tids, filter->tids, filter->n_tids), NULL);
  g_autoptr(JvmsEventQuery) self = g_new0 (JvmsEventQuery, 1);
  self->store = jvms_event_store_ref (store);
  self->blocks = jvms_event_store_get_blocks (store, &self->n_blocks);
  guint64 n_streams;
  self->streams = jvms_event_store_get_streams (store, &n_streams);
  self->postings = jvms_event_store_get_postings (store);
  self->selected = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint n_types = jvms_event_store_get_n_types (store);

  if (filter->keep_types == JVMS_EVENT_KEEP_NONE || filter->keep_tids == JVMS_EVENT_KEEP_NONE
      || (filter->keep_types == JVMS_EVENT_KEEP_THESE && filter->n_types == 0)
      || (filter->keep_tids == JVMS_EVENT_KEEP_THESE && filter->n_tids == 0)
      || filter->from >= filter->to)
    {
      self->empty = TRUE;
      return g_steal_pointer (&self);
    }
  if (filter->keep_types == JVMS_EVENT_KEEP_THESE)
    {
      self->type_mask = g_new0 (guint8, MAX (n_types, 1));
      for (guint i = 0; i < filter->n_types; i++)
        if (filter->types[i] < n_types)
          self->type_mask[filter->types[i]] = 1;
    }
  if (filter->keep_tids == JVMS_EVENT_KEEP_THESE)
    {
      self->tids = g_memdup2 (filter->tids, sizeof (gint64) * filter->n_tids);
      qsort (self->tids, filter->n_tids, sizeof (gint64), tid_cmp);
      guint k = 0;
      for (guint i = 0; i < filter->n_tids; i++)
        if (k == 0 || self->tids[k - 1] != self->tids[i])
          self->tids[k++] = self->tids[i];
      self->n_tids = k;
    }
  self->global = self->type_mask == NULL && self->tids == NULL;
  for (guint32 t = 0; self->type_mask != NULL && t < n_types; t++)
    {
      if (!self->type_mask[t])
        continue;
      if (self->tids == NULL)
        {
          gint64 s = jvms_event_store_find_stream (store, JVMS_EVENT_STREAM_TYPE, t, JVMS_EVENT_ANY_TID);
          if (s >= 0)
            g_array_append_val (self->selected, s);
          continue;
        }
      for (guint i = 0; i < self->n_tids; i++)
        {
          gint64 s = jvms_event_store_find_stream (store, JVMS_EVENT_STREAM_PAIR, t, self->tids[i]);
          if (s >= 0)
            g_array_append_val (self->selected, s);
        }
    }
  if (!self->global && self->type_mask == NULL)
    for (guint i = 0; i < self->n_tids; i++)
      {
        gint64 s = jvms_event_store_find_stream (store, JVMS_EVENT_STREAM_THREAD, JVMS_EVENT_NONE, self->tids[i]);
        if (s >= 0)
          g_array_append_val (self->selected, s);
      }
  if (!self->global && self->selected->len == 0)
    {
      self->empty = TRUE;
      return g_steal_pointer (&self);
    }

  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (store);
  guint64 before_r1;
  if (!row_at_time (self, cursor, filter->from, &self->r0, error)
      || !row_at_time (self, cursor, filter->to, &self->r1, error))
    return NULL;
  if (self->r1 <= self->r0)
    {
      self->empty = TRUE;
      return g_steal_pointer (&self);
    }
  if (!count_before (self, cursor, self->r0, &self->base, error)
      || !count_before (self, cursor, self->r1, &before_r1, error))
    return NULL;
  self->n = before_r1 - self->base;
  return g_steal_pointer (&self);
}

void
jvms_event_query_free (JvmsEventQuery *self)
{
  if (self == NULL)
    return;
  jvms_event_store_unref (self->store);
  g_array_unref (self->selected);
  g_free (self->type_mask);
  g_free (self->tids);
  g_free (self);
}

JvmsEventStore *
jvms_event_query_get_store (JvmsEventQuery *self)
{
  return self->store;
}

guint64
jvms_event_query_get_n_rows (JvmsEventQuery *self)
{
  return self->empty ? 0 : self->n;
}

static gboolean
emit (JvmsEventCursor *cursor, guint64 row, gboolean with_values, JvmsEventRecord *rec,
      JvmsEventFunc func, gpointer user_data, gboolean *stop, GError **error)
{
  if (with_values && !jvms_event_cursor_read (cursor, row, rec, error))
    return FALSE;
  if (!func (rec, user_data))
    *stop = TRUE;
  return TRUE;
}

gboolean
jvms_event_query_foreach (JvmsEventQuery *self, JvmsEventCursor *cursor, guint64 position,
                          gboolean with_values, JvmsEventFunc func, gpointer user_data,
                          GError **error)
{
  if (self->empty || position >= self->n)
    return TRUE;
  gboolean stop = FALSE;
  JvmsEventRecord rec;
  if (self->global)
    {
      for (guint64 row = self->r0 + position; row < self->r1 && !stop; row++)
        {
          if (!with_values && !jvms_event_cursor_read_head (cursor, row, &rec, error))
            return FALSE;
          if (!emit (cursor, row, with_values, &rec, func, user_data, &stop, error))
            return FALSE;
        }
      return TRUE;
    }

  guint64 target = self->base + position;
  guint64 b0 = jvms_event_store_block_of_row (self->store, self->r0);
  guint64 b1 = jvms_event_store_block_of_row (self->store, self->r1 - 1);
  /* The last block b in [b0, b1] with cum (b) <= target. */
  guint64 lo = b0, hi = b1;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo + 1) / 2;
      if (cum (self, mid) <= target)
        lo = mid;
      else
        hi = mid - 1;
    }
  guint64 b = lo;
  guint64 rank = cum (self, b);
  while (b <= b1 && !stop)
    {
      const JvmsEventBlockEntry *e = &self->blocks[b];
      for (guint32 i = 0; i < e->n_rows && !stop; i++)
        {
          guint64 row = e->first_row + i;
          if (row >= self->r1)
            return TRUE;
          if (!jvms_event_cursor_read_head (cursor, row, &rec, error))
            return FALSE;
          if (!matches (self, &rec))
            continue;
          if (rank++ < target)
            continue;
          if (!emit (cursor, row, with_values, &rec, func, user_data, &stop, error))
            return FALSE;
        }
      b = next_block (self, b);
    }
  return TRUE;
}

typedef struct
{
  JvmsEventBatch *batch;
  guint           left;
} ReadState;

static gboolean
add_to_batch (const JvmsEventRecord *record, gpointer user_data)
{
  ReadState *st = user_data;
  jvms_event_batch_add (st->batch, record);
  return --st->left > 0;
}

gboolean
jvms_event_query_read (JvmsEventQuery *self, JvmsEventCursor *cursor, guint64 position, guint n,
                       JvmsEventBatch *batch, GError **error)
{
  if (n == 0)
    return TRUE;
  ReadState st = { batch, n };
  return jvms_event_query_foreach (self, cursor, position, TRUE, add_to_batch, &st, error);
}
