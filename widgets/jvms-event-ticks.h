/* jvms-event-ticks.h: where the rows of some event types (analysis/jvms-event-store.h) fall in
 * the columns of a view, for a lane of ticks (instant events) and bars (events with a
 * duration), at a cost bounded whatever the number of rows: at most JVMS_EVENT_TICKS_BLOCKS
 * blocks of the store (1,024 rows each) are read per call, for all its lanes together, plus the
 * two that hold the range's ends.
 *
 * The store's index says, for each block, the times its rows start in and how many rows of each
 * type it holds (docs/events.md). So:
 * - a block whose rows all start in one column adds its count of the lane's rows to that column,
 *   exactly, without being read (on a wide range, nearly all blocks: columns are wider than
 *   blocks);
 * - a block that spans several columns is read, and each row counted in its start column and
 *   its duration marked in every column it covers; the blocks at the range's ends likewise,
 *   and then, as the budget allows, the lane's last 24 blocks before the range, the nearest
 *   first (durations that reach into it);
 * - a block that spans columns with at least 16 of the lane's rows per column is not read: its
 *   count is spread over those columns, flagged approximate (each has a row unless they bunch
 *   up: the same ticks);
 * - when more blocks span columns than the budget allows, those where the lane's rows are
 *   sparsest are read first; the others are spread likewise (where this happens, a range of
 *   100-500 ms over 10 M events in 10 s, a few ticks in a thousand columns may be wrong:
 *   docs/benchmarks.md);
 * - durations of rows counted without being read are known only where it shows: an empty
 *   column right after a column counted unread has that column's last such block read for its
 *   durations (a bar over the empty column), within the budget. A duration reaching over an
 *   empty column from an earlier block than that is not seen.
 * In a column where rows start, the tick is drawn over the bar: `covering` counts there only the
 * rows read.
 */
#pragma once

#include <gio/gio.h>

#include "jvms-event-store.h"

G_BEGIN_DECLS

#define JVMS_EVENT_TICKS_BLOCKS 128

typedef struct
{
  guint32  starts;      /* rows starting in the column (approximate: their share) */
  guint32  covering;    /* rows read with a duration covering part of the column */
  gboolean approximate; /* starts is a share of a block's count over several columns */
} JvmsEventColumn;

/* What a count cost. */
typedef struct
{
  guint   blocks_read;
  guint64 rows_read;
  guint   blocks_spread; /* (lane, block) counts spread, not read */
} JvmsEventTicksStats;

/* @out: @n_columns entries for [@t0, @t1), of the rows of @type. @tid 0: every thread. FALSE
 * with @error when the store is damaged there. */
gboolean jvms_event_ticks_count (JvmsEventStore  *store,
                                 guint32          type,
                                 gint64           tid,
                                 gint64           t0,
                                 gint64           t1,
                                 guint            n_columns,
                                 JvmsEventColumn *out,
                                 GError         **error);

/* The same for @n_lanes lanes of one type each (@types[i] into @outs[i], each @n_columns
 * entries), the budget shared: a block several lanes need is read once. Equal to a call per
 * lane when within the budget. */
gboolean jvms_event_ticks_count_lanes (JvmsEventStore   *store,
                                       const guint32    *types,
                                       guint             n_lanes,
                                       gint64            tid,
                                       gint64            t0,
                                       gint64            t1,
                                       guint             n_columns,
                                       JvmsEventColumn **outs,
                                       GError          **error);

/* With a budget of @budget blocks (G_MAXUINT: every block that spans columns is read), and what
 * it cost into @stats (may be NULL): for the bench and the tests. */
gboolean jvms_event_ticks_count_lanes_full (JvmsEventStore       *store,
                                            const guint32        *types,
                                            guint                 n_lanes,
                                            gint64                tid,
                                            gint64                t0,
                                            gint64                t1,
                                            guint                 n_columns,
                                            JvmsEventColumn     **outs,
                                            guint                 budget,
                                            JvmsEventTicksStats  *stats,
                                            GError              **error);

/* Every count exact, whatever it costs (an export, and the window's refinement of a frame whose
 * counts were approximate, off the main thread): no block's count is spread, every block that
 * spans columns is read. Durations are found as above (a duration reaching over empty columns
 * from a block other than the last one counted unread before them is still not seen). FALSE with
 * G_IO_ERROR_CANCELLED when @cancellable is. */
gboolean jvms_event_ticks_count_lanes_exact (JvmsEventStore       *store,
                                             const guint32        *types,
                                             guint                 n_lanes,
                                             gint64                tid,
                                             gint64                t0,
                                             gint64                t1,
                                             guint                 n_columns,
                                             JvmsEventColumn     **outs,
                                             GCancellable         *cancellable,
                                             JvmsEventTicksStats  *stats,
                                             GError              **error);

G_END_DECLS
