/* jvms-range-stats.h: statistics of a time range of an index, as rows that the window's side
 * panel shows and the export writes (CSV, JSON). Computed off the main thread. */
#pragma once

#include <gio/gio.h>

#include "jvms-history.h"
#include "jvms-time-format.h"

G_BEGIN_DECLS

typedef struct
{
  char   *section; /* "thread-states", "locks", "gc", "counters", "events" */
  char   *subject; /* the thread, monitor, collector or counter the row is about */
  char   *key;     /* the state, or "count", "total", "min", "max", "mean", "stddev", "sum" */
  char   *label;   /* @key as the panel shows it (translated) */
  double  value;
  char   *unit;    /* "ns", "count", "1/s", "bytes" */
} JvmsStatRow;

typedef struct
{
  gint64     t0;
  gint64     t1;
  gint64     origin; /* the history's start time: exports show times from it */
  GPtrArray *rows;   /* of JvmsStatRow */
} JvmsRangeStats;

void                jvms_range_stats_free          (JvmsRangeStats  *self);

/* Computes the statistics of [@t0, @t1] in @history in a worker thread;
 * @samples_path (the point-sample store beside the index, or NULL) adds the sampled events. */
void                jvms_range_stats_compute_async (JvmsHistory         *history,
                                                        const char          *samples_path,
                                                        gint64               t0,
                                                        gint64               t1,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
JvmsRangeStats *jvms_range_stats_compute_finish (GAsyncResult       *result,
                                                         GError            **error);

/* @row's value as the side panel writes it: a time in @unit, a count, a size, a rate. */
char               *jvms_stat_row_format_value     (const JvmsStatRow *row,
                                                    JvmsTimeUnit       unit);

/* The statistics as CSV (a header line, then section,subject,key,value,unit) or as JSON. */
char               *jvms_range_stats_to_csv        (const JvmsRangeStats *self);
char               *jvms_range_stats_to_json       (const JvmsRangeStats *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsRangeStats, jvms_range_stats_free)

G_END_DECLS
