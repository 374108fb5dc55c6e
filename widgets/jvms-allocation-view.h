/* jvms-allocation-view.h: a row per thread that allocated (Threads/<tid>/allocation-rate, bytes/s
 * from allocation samples and TLAB events averaged per 10 ms): its rate as a chart, band from
 * min to max per pixel and the max as a line, each row scaled to its own peak in the visible
 * range (written under its name). The JX paper's allocation over time. */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_ALLOCATION_VIEW (jvms_allocation_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsAllocationView, jvms_allocation_view, JVMS, ALLOCATION_VIEW, JvmsTimeline)

#define JVMS_ALLOCATION_VIEW_ROW_HEIGHT 30
#define JVMS_ALLOCATION_VIEW_CHART_Y 3
#define JVMS_ALLOCATION_VIEW_CHART_HEIGHT 24

GtkWidget *jvms_allocation_view_new           (JvmsSession        *session);
guint      jvms_allocation_view_get_n_threads (JvmsAllocationView *self);

G_END_DECLS
