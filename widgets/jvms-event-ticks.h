/* jvms-event-ticks.h: where the rows of some event types (analysis/jvms-event-store.h) fall in
 * the columns of a view, for a lane of ticks (instant events) and bars (events with a
 * duration), at a cost bounded whatever the number of rows:
 *
 * - up to JVMS_EVENT_TICKS_EXACT rows in the range (and as many just before it, for durations
 *   that reach into it) are read, each counted in its start column and, with a duration, its
 *   span marked in every column it covers;
 * - more: the range is halved, each half counted by a query of the store (which costs a few
 *   blocks, not its rows), down to halves holding at most JVMS_EVENT_TICKS_EXACT rows (read) or
 *   one column, within JVMS_EVENT_TICKS_QUERIES queries; a part still unresolved then has its
 *   count spread over its columns, flagged approximate.
 */
#pragma once

#include "jvms-event-store.h"

G_BEGIN_DECLS

#define JVMS_EVENT_TICKS_EXACT 8192
#define JVMS_EVENT_TICKS_QUERIES 96

typedef struct
{
  guint32  starts;      /* rows starting in the column (approximate: their share) */
  guint32  covering;    /* rows with a duration covering part of the column (exact parts) */
  gboolean approximate; /* starts is a share of a count over several columns */
} JvmsEventColumn;

/* @out: @n_columns entries for [@t0, @t1), of the @n_types @types (none: no rows). @tid 0:
 * every thread. FALSE with @error when the
 * store is damaged there. */
gboolean jvms_event_ticks_count (JvmsEventStore  *store,
                                 const guint32   *types,
                                 guint            n_types,
                                 gint64           tid,
                                 gint64           t0,
                                 gint64           t1,
                                 guint            n_columns,
                                 JvmsEventColumn *out,
                                 GError         **error);

/* The same for @n_lanes lanes of one type each (@types[i] into @outs[i], each @n_columns
 * entries), equal to a call per lane, but the rows they read exactly are read in one sweep:
 * a block of the store several lanes need is read once, not once per lane. */
gboolean jvms_event_ticks_count_lanes (JvmsEventStore   *store,
                                       const guint32    *types,
                                       guint             n_lanes,
                                       gint64            tid,
                                       gint64            t0,
                                       gint64            t1,
                                       guint             n_columns,
                                       JvmsEventColumn **outs,
                                       GError          **error);

G_END_DECLS
