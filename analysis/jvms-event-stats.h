/* jvms-event-stats.h: statistics of the rows of an event query, per event type: the count, and
 * for the durations and for the gaps between successive events of the type (the time from one
 * event's start to the next one's, in the query's order) the total, minimum, mean, median, 99th
 * percentile and maximum; a histogram of the gaps; and for system calls a latency table with
 * their errors. `jvmscope-cli events --stats` and the window's event table show these numbers.
 *
 * Percentiles are exact and by nearest rank: p50 of n values is the ceil(n / 2)-th smallest,
 * p99 the ceil(0.99 n)-th. They are found without holding every value: a first scan counts
 * values into fine logarithmic buckets (16 per power of two); each percentile's bucket is then
 * narrowed by further scans, keeping at most a few million candidate values at a time, until
 * its value is known. Durations that are unknown (-1) are counted apart and left out.
 */
#pragma once

#include <gio/gio.h>

#include "jvms-event-query.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 count;     /* values */
  gint64  total;     /* ns, saturated */
  gint64  min, max;
  double  mean;
  gint64  p50, p99;
} JvmsEventDistribution;

/* The gap histogram: bucket 0 holds gaps of 0 ns, bucket k >= 1 gaps in [2^(k-1), 2^k). */
#define JVMS_EVENT_STATS_N_BINS 64

typedef struct
{
  guint32               type;
  guint64               count;               /* events */
  guint64               unknown_durations;
  JvmsEventDistribution duration;            /* over known durations */
  JvmsEventDistribution gap;                 /* count - 1 gaps */
  guint64               gap_bins[JVMS_EVENT_STATS_N_BINS];
  guint64               errors;              /* system calls: those returning < 0 */
} JvmsEventTypeStats;

typedef struct _JvmsEventStats JvmsEventStats;

/* Scans @query (two or more passes). Cancelling stops within a few thousand rows with
 * G_IO_ERROR_CANCELLED. */
JvmsEventStats           *jvms_event_stats_compute   (JvmsEventQuery  *query,
                                                      GCancellable    *cancellable,
                                                      GError         **error);
void                      jvms_event_stats_free      (JvmsEventStats  *self);
guint64                   jvms_event_stats_get_n_rows (JvmsEventStats *self);
/* The types that have rows in the query, by name. */
guint                     jvms_event_stats_get_n_types (JvmsEventStats *self);
const JvmsEventTypeStats *jvms_event_stats_get_type  (JvmsEventStats  *self,
                                                      guint            index);

/* docs/events.md, "Statistics". */
char                     *jvms_event_stats_to_json   (JvmsEventStats  *self,
                                                      JvmsEventStore  *store,
                                                      const char      *trace,
                                                      gint64           from,
                                                      gint64           to,
                                                      gint64           trace_start);
char                     *jvms_event_stats_to_text   (JvmsEventStats  *self,
                                                      JvmsEventStore  *store);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsEventStats, jvms_event_stats_free)

G_END_DECLS
