/* jvms-events-view.h: a lane per event type of the trace's event store (docs/events.md): by
 * default every type outside the JDK's own (`jdk.*`): the application's JFR events, foreign
 * writers' (profiler.*, datadog.*) and the kernel's rows, each system call (`syscall:NAME`) a
 * lane of its own, block requests and process events. A type whose rows have a duration draws
 * them as intervals (the columns they cover) with a tick where each starts; an instant type, a
 * tick per column holding any. Columns come from jvms-event-ticks.h: a bounded cost per lane
 * whatever the number of rows. The tooltip gives the type, the rows starting in the column and
 * the column's span. */
#pragma once

#include "jvms-event-store.h"
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

G_END_DECLS
