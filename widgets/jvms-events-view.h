/* jvms-events-view.h: a lane per event type of the trace's event store (docs/events.md): by
 * default every type outside the JDK's own (`jdk.*`): the application's JFR events, foreign
 * writers' (profiler.*, datadog.*) and the kernel's rows, each system call (`syscall:NAME`) a
 * lane of its own, block requests and process events. A type whose rows have a duration draws
 * them as intervals (the columns they cover) with a tick where each starts; an instant type, a
 * tick per column holding any. Columns come from jvms-event-ticks.h: a bounded cost per frame
 * whatever the number of rows. When some of a frame's counts are shares of a block's count (a
 * wide range over many rows), the lanes concerned say so (their label begins with "≈") and the
 * exact counts are read off the main thread once the range stands, then drawn; an export or a
 * render (offscreen) counts exactly at once. The tooltip gives the type, the rows starting in the
 * column (≈ when a share) and the column's span. */
#pragma once

#include "jvms-event-store.h"
#include "jvms-event-ticks.h"
#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_EVENTS_VIEW (jvms_events_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsEventsView, jvms_events_view, JVMS, EVENTS_VIEW, JvmsTimeline)

#define JVMS_EVENTS_VIEW_ROW_HEIGHT 18

GtkWidget  *jvms_events_view_new             (JvmsSession    *session);
/* The store whose types are the lanes (NULL: none). */
void        jvms_events_view_set_event_store (JvmsEventsView *self,
                                              JvmsEventStore *store);
/* Patterns (`*`, `?`) of the types shown, NULL for the default (every type outside jdk.*). */
void        jvms_events_view_set_types       (JvmsEventsView *self,
                                              const char * const *patterns);
/* Whether @name's type is a lane by default (every type outside jdk.*). */
gboolean    jvms_events_view_type_is_default (const char     *name);
guint       jvms_events_view_get_n_lanes     (JvmsEventsView *self);
/* The type name of lane @i. */
const char *jvms_events_view_get_lane_type   (JvmsEventsView *self,
                                              guint           i);

/* Lanes whose columns drawn now are approximate (0 once the exact counts came). */
guint       jvms_events_view_get_n_approximate (JvmsEventsView *self);
/* Lane @lane's columns as last computed (NULL when it was not: off screen), @n_columns of them. */
const JvmsEventColumn *jvms_events_view_get_columns (JvmsEventsView *self,
                                                     guint           lane,
                                                     guint          *n_columns);

G_END_DECLS
