/* jvms-locks-view.h: a row per contended monitor (Locks/<address>): its owner over time and
 * how many threads wait for it. Clicking a row highlights the monitor and its threads. */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_LOCKS_VIEW (jvms_locks_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsLocksView, jvms_locks_view, JVMS, LOCKS_VIEW, JvmsTimeline)

#define JVMS_LOCKS_VIEW_ROW_HEIGHT 24

GtkWidget *jvms_locks_view_new         (JvmsSession   *session);
guint      jvms_locks_view_get_n_locks (JvmsLocksView *self);
/* Highlights monitor @address and the threads that owned or waited for it in the visible
 * range, as a click on its row does. */
void       jvms_locks_view_select      (JvmsLocksView *self,
                                        gint64         address);

G_END_DECLS
