/* jvms-allocation-view.h: a row per thread that allocated (Threads/<tid>/allocation-rate, bytes/s
 * from allocation samples and TLAB events averaged per 10 ms): its rate as a chart, band from
 * min to max per pixel and the max as a line, each row scaled to its own peak in the visible
 * range (written under its name). The JX paper's allocation over time.
 *
 * Given the trace's event store, the tooltip also names the classes the thread allocated most
 * in the 10 ms buckets under the pointer (analysis/jvms-allocation-classes.h). */
#pragma once

#include "jvms-event-store.h"
#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_ALLOCATION_VIEW (jvms_allocation_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsAllocationView, jvms_allocation_view, JVMS, ALLOCATION_VIEW, JvmsTimeline)

#define JVMS_ALLOCATION_VIEW_ROW_HEIGHT 30
#define JVMS_ALLOCATION_VIEW_CHART_Y 3
#define JVMS_ALLOCATION_VIEW_CHART_HEIGHT 24

GtkWidget *jvms_allocation_view_new           (JvmsSession        *session);
guint      jvms_allocation_view_get_n_threads (JvmsAllocationView *self);
/* NULL: no classes in the tooltip. */
void       jvms_allocation_view_set_event_store (JvmsAllocationView *self,
                                                 JvmsEventStore     *store);

/* What the last tooltip at a time (not a row's name) said, as numbers, for the window's state
 * dump: "tid=T;time=NS;rate=BYTES_PER_S|none[;rate-start=NS];column=FROM-TO;buckets=FROM-TO;
 * bytes=B;events=N;truncated=0|1;classes=NAME=BYTES:EVENTS|..." (every class, most bytes first;
 * the column is the pixel's span, the buckets the 10 ms ones the classes were summed over; no
 * classes without an event store). "" before the first. */
char      *jvms_allocation_view_dup_tooltip_numbers (JvmsAllocationView *self);

/* A frame on screen draws the rows' ranges with a bound where a column boundary cuts a summary
 * bucket (the bucket's whole min/max: no peak missed, one may show up to a column early or late;
 * the row says "refining"), and asks those rows exactly at the next ticks of the frame clock; an
 * export asks them exactly at once. This asks some for a tick's time and redraws from the cache:
 * TRUE while rows are left (the bench, tests). */
gboolean   jvms_allocation_view_step_refinement (JvmsAllocationView *self);
/* Rows on screen whose range is still a bound. */
guint      jvms_allocation_view_get_n_bound_rows (JvmsAllocationView *self);

G_END_DECLS
