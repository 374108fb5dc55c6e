/* jvms-cpus-view.h: a row per CPU (CPUs/<n>/current-thread), coloured by the thread on it;
 * threads of other processes in greys. */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_CPUS_VIEW (jvms_cpus_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsCpusView, jvms_cpus_view, JVMS, CPUS_VIEW, JvmsTimeline)

#define JVMS_CPUS_VIEW_ROW_HEIGHT 16
#define JVMS_CPUS_VIEW_LANE_Y 2
#define JVMS_CPUS_VIEW_LANE_HEIGHT 12

GtkWidget *jvms_cpus_view_new      (JvmsSession  *session);
guint      jvms_cpus_view_get_n_cpus (JvmsCpusView *self);
/* The number of the CPU of row @i (rows in CPU order), -1 past the last. */
gint64     jvms_cpus_view_get_cpu    (JvmsCpusView *self,
                                      guint         i);

G_END_DECLS
