/* jvms-gc-workers-view.h: a row per GC worker thread (GC/workers/<tid>/task, from
 * jdk.GCPhaseParallel), coloured by the task it works on; shown under the GC view. */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_GC_WORKERS_VIEW (jvms_gc_workers_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsGcWorkersView, jvms_gc_workers_view, JVMS, GC_WORKERS_VIEW, JvmsTimeline)

#define JVMS_GC_WORKERS_VIEW_ROW_HEIGHT 16
#define JVMS_GC_WORKERS_VIEW_LANE_Y 2
#define JVMS_GC_WORKERS_VIEW_LANE_HEIGHT 12

GtkWidget *jvms_gc_workers_view_new         (JvmsSession       *session);
guint      jvms_gc_workers_view_get_n_workers (JvmsGcWorkersView *self);

G_END_DECLS
