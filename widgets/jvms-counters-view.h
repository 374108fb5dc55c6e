/* jvms-counters-view.h: hardware counters per thread and per CPU over time
 * (Threads/<tid>/counters/<counter>, CPUs/<n>/counters/<counter>), with IPC (instructions per
 * cycle) and miss ratio (cache-misses per cache-reference) computed per pixel; a thread's
 * time on CPU is drawn behind its chart. */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_COUNTERS_VIEW (jvms_counters_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsCountersView, jvms_counters_view, JVMS, COUNTERS_VIEW, JvmsTimeline)

#define JVMS_COUNTERS_VIEW_ROW_HEIGHT 40

/* What the rows chart: "ipc" (default), "miss-ratio", or a counter name ("cycles",
 * "instructions", "cache-misses", "cache-references"). Property "metric". */
GtkWidget  *jvms_counters_view_new        (JvmsSession      *session);
void        jvms_counters_view_set_metric (JvmsCountersView *self,
                                           const char       *metric);
const char *jvms_counters_view_get_metric (JvmsCountersView *self);
guint       jvms_counters_view_get_n_rows (JvmsCountersView *self);

/* The computed metrics, per pixel, from the dominant rates of the column. NaN when undefined
 * (no cycles, no references). Exposed for tests. */
double      jvms_counters_ipc             (double            instructions,
                                           double            cycles);
double      jvms_counters_miss_ratio      (double            misses,
                                           double            references);

G_END_DECLS
