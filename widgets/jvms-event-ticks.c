/* jvms-event-ticks.c: event rows per column (see the header). */
#include "config.h"

#include <string.h>

#include "jvms-event-ticks.h"

typedef struct
{
  JvmsEventColumn *out;
  guint            n_columns;
  gint64           t0;
  gint64           t1;
  /* Durations' spans as differences (+1 at a span's first column, -1 after its last), added
   * to out's covering by flush_covering: a call spanning every column costs two stores. */
  gint32          *diff;       /* n_columns + 1 */
} Binning;

static void
flush_covering (Binning *b)
{
  gint64 sum = 0;

  for (guint c = 0; c < b->n_columns; c++)
    {
      sum += b->diff[c];
      b->out[c].covering += (guint32) CLAMP (sum, 0, G_MAXUINT32);
    }
  memset (b->diff, 0, sizeof (gint32) * (b->n_columns + 1));
}

static guint
column_of (const Binning *b,
           gint64         t)
{
  double f = (double) (t - b->t0) / (double) MAX (b->t1 - b->t0, 1);
  return (guint) CLAMP (f * b->n_columns, 0, b->n_columns - 1);
}

/* A row read: its start counted unless @reach_only (a block counted from the index, read again
 * for its durations), and the columns its duration covers. */
static void
bin_row (const JvmsEventRecord *record,
         const Binning         *b,
         gboolean               reach_only)
{
  gint64 end = record->duration > 0 ? record->time + record->duration : record->time;

  if (!reach_only && record->time >= b->t0 && record->time < b->t1)
    b->out[column_of (b, record->time)].starts++;
  if (record->duration > 0 && end > b->t0 && record->time < b->t1)
    {
      b->diff[column_of (b, MAX (record->time, b->t0))]++;
      b->diff[column_of (b, MIN (end, b->t1 - 1)) + 1]--;
    }
}

/* A lane's blocks before the range read for durations reaching into it, the nearest first:
 * its last this many (system calls that block for milliseconds, over a narrow range). */
#define BEFORE_BLOCKS 24

/* A block with at least this many of a lane's rows per column it spans is not read: its count
 * is spread over those columns. Each has a row unless the rows bunch up (spread evenly, the odds
 * that a column has none are e^-16); on a wide range, nearly every block that spans columns. */
#define SURE_DENSITY 16

/* A block's @count rows spread over columns [@first, @last], said to be a spread. */
static void
spread (Binning             *b,
        guint32              count,
        guint                first,
        guint                last,
        JvmsEventTicksStats *stats)
{
  for (guint c = first; c <= last; c++)
    {
      b->out[c].starts += MAX (1, count / (last - first + 1));
      b->out[c].approximate = TRUE;
    }
  if (stats != NULL)
    stats->blocks_spread++;
}

/* Why a lane wants a block read, in the order they are served when blocks are short. */
enum
{
  WANT_EDGE,     /* the block holds t0 or t1: its count includes rows outside the range */
  WANT_STRADDLE, /* its rows may fall in several columns */
  WANT_BEFORE,   /* one of the lane's last blocks before t0: rows that may reach into the
                  * range (the nearest first) */
  WANT_REACH,    /* counted from the index; read for durations over the empty column after */
};

typedef struct
{
  guint64 block;
  guint   lane;
  guint   kind;
  guint32 count;     /* the lane's rows in the block */
  guint   first;     /* columns the rows may fall in */
  guint   last;
  double  density;   /* count per column spanned: the lower, the more a spread may be wrong */
  gboolean read;
} Want;

static gint
want_by_block (gconstpointer a,
               gconstpointer b)
{
  const Want *x = a, *y = b;
  if (x->block != y->block)
    return x->block < y->block ? -1 : 1;
  return x->lane < y->lane ? -1 : x->lane > y->lane;
}

/* A block's claim on the budget: its most pressing want. */
typedef struct
{
  guint64 block;
  guint   kind;
  double  density;
  guint   first_want; /* its wants: [first_want, end_want) of the sorted array */
  guint   end_want;
} Claim;

static gint
claim_before (gconstpointer a,
              gconstpointer b)
{
  const Claim *x = a, *y = b;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  if (x->density != y->density)
    return x->density < y->density ? -1 : 1;
  return x->block < y->block ? -1 : x->block > y->block;
}

static gint
claim_by_block (gconstpointer a,
                gconstpointer b)
{
  const Claim *x = a, *y = b;
  return x->block < y->block ? -1 : x->block > y->block;
}

typedef struct
{
  JvmsEventStore            *store;
  const JvmsEventBlockEntry *blocks;
  guint64                    n_blocks;
  const guint32             *types;
  gint64                     tid;
  Binning                   *binning;  /* one per lane */
  JvmsEventCursor           *cursor;
  guint                      budget;   /* blocks that may still be read */
  gboolean                   exact;    /* no count spread: every block across columns read */
  GCancellable              *cancellable;
  JvmsEventTicksStats       *stats;
} Counting;

/* Reads, within the budget, the blocks @wants name (most pressing first), binning each row for
 * the lanes that want its block; the wants read are flagged. */
static gboolean
read_wants (Counting *k,
            GArray   *wants,
            GError  **error)
{
  g_autoptr(GArray) claims = g_array_new (FALSE, FALSE, sizeof (Claim));
  guint n_read;

  g_array_sort (wants, want_by_block);
  for (guint i = 0; i < wants->len;)
    {
      const Want *w = &g_array_index (wants, Want, i);
      Claim claim = { w->block, w->kind, w->density, i, i };
      for (; claim.end_want < wants->len &&
             g_array_index (wants, Want, claim.end_want).block == w->block; claim.end_want++)
        {
          const Want *o = &g_array_index (wants, Want, claim.end_want);
          if (o->kind < claim.kind || (o->kind == claim.kind && o->density < claim.density))
            {
              claim.kind = o->kind;
              claim.density = o->density;
            }
        }
      g_array_append_val (claims, claim);
      i = claim.end_want;
    }
  g_array_sort (claims, claim_before);
  /* The blocks at the range's ends are read whatever the budget (two at most). */
  n_read = 0;
  while (n_read < claims->len &&
         (n_read < k->budget || g_array_index (claims, Claim, n_read).kind == WANT_EDGE))
    n_read++;
  k->budget -= MIN (k->budget, n_read);
  g_array_set_size (claims, n_read);
  /* In block order: the cursor's blocks come one after the other. */
  g_array_sort (claims, claim_by_block);
  for (guint c = 0; c < claims->len; c++)
    {
      const Claim *claim = &g_array_index (claims, Claim, c);
      const JvmsEventBlockEntry *e = &k->blocks[claim->block];

      if (g_cancellable_set_error_if_cancelled (k->cancellable, error))
        return FALSE;
      for (guint i = 0; i < e->n_rows; i++)
        {
          JvmsEventRecord r;
          if (!jvms_event_cursor_read_head (k->cursor, e->first_row + i, &r, error))
            return FALSE;
          if (k->tid != 0 && r.tid != k->tid)
            continue;
          for (guint j = claim->first_want; j < claim->end_want; j++)
            {
              const Want *w = &g_array_index (wants, Want, j);
              if (k->types[w->lane] == r.type)
                bin_row (&r, &k->binning[w->lane], w->kind == WANT_REACH);
            }
        }
      for (guint j = claim->first_want; j < claim->end_want; j++)
        g_array_index (wants, Want, j).read = TRUE;
      if (k->stats != NULL)
        {
          k->stats->blocks_read++;
          k->stats->rows_read += e->n_rows;
        }
    }
  return TRUE;
}

/* The lane's postings: [*first, *end) of the store's, those of blocks that may hold rows
 * starting in [from, to). FALSE when the lane has no stream (no rows). */
static gboolean
lane_postings (Counting *k,
               guint     lane,
               gint64    from,
               gint64    to,
               guint64  *first,
               guint64  *end)
{
  guint64 n_streams;
  const JvmsEventStreamEntry *streams = jvms_event_store_get_streams (k->store, &n_streams);
  const JvmsEventPosting *postings = jvms_event_store_get_postings (k->store);
  gint64 s = jvms_event_store_find_stream (k->store,
                                           k->tid != 0 ? JVMS_EVENT_STREAM_PAIR : JVMS_EVENT_STREAM_TYPE,
                                           k->types[lane], k->tid != 0 ? k->tid : JVMS_EVENT_ANY_TID);
  guint64 lo, hi;

  if (s < 0 || (guint64) s >= n_streams)
    return FALSE;
  lo = streams[s].first_posting;
  hi = lo + streams[s].n_postings;
  *end = hi;
  /* The first block whose rows reach from. */
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (k->blocks[postings[mid].block].last_time < from)
        lo = mid + 1;
      else
        hi = mid;
    }
  *first = lo;
  hi = *end;
  /* The first block starting at or after to. */
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (k->blocks[postings[mid].block].first_time < to)
        lo = mid + 1;
      else
        hi = mid;
    }
  *end = lo;
  return TRUE;
}

static gboolean
count_lanes (JvmsEventStore       *store,
             const guint32        *types,
             guint                 n_lanes,
             gint64                tid,
             gint64                t0,
             gint64                t1,
             guint                 n_columns,
             JvmsEventColumn     **outs,
             guint                 budget,
             gboolean              exact,
             GCancellable         *cancellable,
             JvmsEventTicksStats  *stats,
             GError              **error)
{
  const JvmsEventPosting *postings;
  g_autoptr(GArray) wants = NULL;
  g_autofree Binning *binning = NULL;
  g_autofree gint32 *diffs = NULL;
  /* Per lane and column, the last block counted from the index there (reach), or none. */
  g_autofree guint64 *last_whole = NULL;
  g_autoptr(JvmsEventCursor) cursor = NULL;
  Counting k;

  if (stats != NULL)
    memset (stats, 0, sizeof *stats);
  for (guint l = 0; l < n_lanes; l++)
    memset (outs[l], 0, sizeof (JvmsEventColumn) * n_columns);
  if (store == NULL || n_columns == 0 || t1 <= t0 || n_lanes == 0)
    return TRUE;
  wants = g_array_new (FALSE, FALSE, sizeof (Want));
  binning = g_new (Binning, n_lanes);
  diffs = g_new0 (gint32, (gsize) n_lanes * (n_columns + 1));
  last_whole = g_new (guint64, (gsize) n_lanes * n_columns);
  memset (last_whole, 0xff, sizeof (guint64) * n_lanes * n_columns);
  cursor = jvms_event_cursor_new (store);
  k = (Counting) { store, NULL, 0, types, tid, binning, cursor, exact ? G_MAXUINT : budget, exact,
                   cancellable, stats };
  k.blocks = jvms_event_store_get_blocks (store, &k.n_blocks);
  postings = jvms_event_store_get_postings (store);

  /* What the index says: a block whose rows all start in one column adds its count of the
   * lane's rows there, exactly, unread; the others are wanted. */
  for (guint l = 0; l < n_lanes; l++)
    {
      Binning *b = &binning[l];
      guint64 first, end;

      *b = (Binning) { outs[l], n_columns, t0, t1, diffs + (gsize) l * (n_columns + 1) };
      if (!lane_postings (&k, l, t0, t1, &first, &end))
        continue;
      /* Rows before the range whose durations reach into it: the lane's block before. */
      {
        guint64 p0, p1;
        if (lane_postings (&k, l, G_MININT64, t0, &p0, &p1))
          for (guint64 p = p1; p > p0; p--)
            {
              const JvmsEventBlockEntry *e = &k.blocks[postings[p - 1].block];
              if (e->last_time >= t0)
                continue;
              if (p1 - p >= BEFORE_BLOCKS)
                break;
              g_array_append_val (wants, ((Want) { postings[p - 1].block, l, WANT_BEFORE,
                                                   postings[p - 1].count, 0, 0,
                                                   (double) (t0 - e->last_time), FALSE }));
            }
      }
      for (guint64 p = first; p < end; p++)
        {
          const JvmsEventBlockEntry *e = &k.blocks[postings[p].block];
          guint c0 = column_of (b, MAX (e->first_time, t0)), c1 = column_of (b, MIN (e->last_time, t1 - 1));

          if (e->first_time < t0 || e->last_time >= t1)
            g_array_append_val (wants, ((Want) { postings[p].block, l, WANT_EDGE,
                                                 postings[p].count, c0, c1, 0, FALSE }));
          else if (c0 == c1)
            {
              b->out[c0].starts += postings[p].count;
              last_whole[(gsize) l * n_columns + c0] = postings[p].block;
            }
          else if (!exact && postings[p].count >= SURE_DENSITY * (c1 - c0 + 1))
            spread (b, postings[p].count, c0, c1, stats);
          else
            g_array_append_val (wants, ((Want) { postings[p].block, l, WANT_STRADDLE,
                                                 postings[p].count, c0, c1,
                                                 (double) postings[p].count / (c1 - c0 + 1), FALSE }));
        }
    }
  if (!read_wants (&k, wants, error))
    return FALSE;
  for (guint l = 0; l < n_lanes; l++)
    flush_covering (&binning[l]);
  /* Blocks left unread: their rows spread over the columns they span. */
  for (guint i = 0; i < wants->len; i++)
    {
      const Want *w = &g_array_index (wants, Want, i);
      if (!w->read && w->kind == WANT_STRADDLE)
        spread (&binning[w->lane], w->count, w->first, w->last, stats);
    }

  /* An empty column after one counted from the index unread: a duration there may reach over
   * it (drawn as a bar), so that block is read for its durations, within what the budget
   * leaves. A duration reaching over it from an earlier block is not seen. */
  g_array_set_size (wants, 0);
  for (guint l = 0; l < n_lanes; l++)
    for (guint c = 1; c < n_columns; c++)
      {
        guint64 block = last_whole[(gsize) l * n_columns + c - 1];
        if (block != G_MAXUINT64 && outs[l][c].starts == 0 && outs[l][c].covering == 0)
          g_array_append_val (wants, ((Want) { block, l, WANT_REACH, 0, c - 1, c - 1, 0, FALSE }));
      }
  if (wants->len == 0)
    return TRUE;
  if (!read_wants (&k, wants, error))
    return FALSE;
  for (guint l = 0; l < n_lanes; l++)
    flush_covering (&binning[l]);
  return TRUE;
}

gboolean
jvms_event_ticks_count_lanes_full (JvmsEventStore       *store,
                                   const guint32        *types,
                                   guint                 n_lanes,
                                   gint64                tid,
                                   gint64                t0,
                                   gint64                t1,
                                   guint                 n_columns,
                                   JvmsEventColumn     **outs,
                                   guint                 budget,
                                   JvmsEventTicksStats  *stats,
                                   GError              **error)
{
  return count_lanes (store, types, n_lanes, tid, t0, t1, n_columns, outs, budget, FALSE, NULL,
                      stats, error);
}

gboolean
jvms_event_ticks_count_lanes_exact (JvmsEventStore       *store,
                                    const guint32        *types,
                                    guint                 n_lanes,
                                    gint64                tid,
                                    gint64                t0,
                                    gint64                t1,
                                    guint                 n_columns,
                                    JvmsEventColumn     **outs,
                                    GCancellable         *cancellable,
                                    JvmsEventTicksStats  *stats,
                                    GError              **error)
{
  return count_lanes (store, types, n_lanes, tid, t0, t1, n_columns, outs, G_MAXUINT, TRUE,
                      cancellable, stats, error);
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
  return jvms_event_ticks_count_lanes_full (store, types, n_lanes, tid, t0, t1, n_columns, outs,
                                            JVMS_EVENT_TICKS_BLOCKS, NULL, error);
}

gboolean
jvms_event_ticks_count (JvmsEventStore  *store,
                        guint32          type,
                        gint64           tid,
                        gint64           t0,
                        gint64           t1,
                        guint            n_columns,
                        JvmsEventColumn *out,
                        GError         **error)
{
  return jvms_event_ticks_count_lanes (store, &type, 1, tid, t0, t1, n_columns, &out, error);
}
