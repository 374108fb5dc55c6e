/* jvms-counters-view.h: counters per thread and per CPU over time
 * (Threads/<tid>/counters/<counter>, CPUs/<n>/counters/<counter>), as one metric chosen among
 * what the recording has: IPC (instructions per cycle) and miss ratio (cache-misses per
 * cache-reference) computed per pixel, CPU time from cpu-clock (or task-clock) samples, or any
 * recorded counter's rate. A thread's time on CPU is drawn behind its chart. A metric the
 * recording cannot give is named as such, with the counters it lacks. */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_COUNTERS_VIEW (jvms_counters_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsCountersView, jvms_counters_view, JVMS, COUNTERS_VIEW, JvmsTimeline)

#define JVMS_COUNTERS_VIEW_ROW_HEIGHT 40

/* Property "metric": "auto" (the default: IPC when the recording has instructions and cycles,
 * else CPU time, else the first recorded counter), "ipc", "miss-ratio", "cpu-time", or a
 * counter name ("cycles", "cpu-clock", ...: its rate per second). */
GtkWidget  *jvms_counters_view_new        (JvmsSession      *session);
void        jvms_counters_view_set_metric (JvmsCountersView *self,
                                           const char       *metric);
const char *jvms_counters_view_get_metric (JvmsCountersView *self);
/* The metric drawn: "auto" resolved. */
const char *jvms_counters_view_get_effective_metric (JvmsCountersView *self);
guint       jvms_counters_view_get_n_rows (JvmsCountersView *self);

/* What may be chosen for this history: "auto", "ipc", "miss-ratio", "cpu-time", then every
 * counter recorded, by name (property "metrics", notified when the history changes). */
GStrv       jvms_counters_view_dup_metrics (JvmsCountersView *self);
/* Whether the history has what @metric needs; when not, *@missing (if not NULL) gets the
 * counters it lacks, comma-separated. */
gboolean    jvms_counters_view_has_metric (JvmsCountersView *self,
                                           const char       *metric,
                                           char            **missing);
/* The translated name of @metric ("IPC", "CPU time", "cycles per second"). */
char       *jvms_counters_metric_display_name (const char    *metric);

/* The computed metrics, per pixel, from the dominant rates of the column. NaN when undefined
 * (no cycles, no references). Exposed for tests. */
double      jvms_counters_ipc             (double            instructions,
                                           double            cycles);
double      jvms_counters_miss_ratio      (double            misses,
                                           double            references);

G_END_DECLS
