/* jvms-thread-state-item.h: one thread of the side panel's "Time per Thread State" list: its
 * name, its time on a CPU (the list's sort key) and every row the statistics hold for it (its
 * time in each state, shown when it is selected). */
#pragma once

#include <glib-object.h>

#include "jvms-range-stats.h"

G_BEGIN_DECLS

#define JVMS_TYPE_THREAD_STATE_ITEM (jvms_thread_state_item_get_type ())
G_DECLARE_FINAL_TYPE (JvmsThreadStateItem, jvms_thread_state_item, JVMS, THREAD_STATE_ITEM, GObject)

/* @subject: the thread as the statistics name it; @rows: the statistics' rows (JvmsStatRow),
 * which the item keeps a reference to (they outlive the statistics they came with). */
JvmsThreadStateItem *jvms_thread_state_item_new       (const char          *subject,
                                                       GPtrArray           *rows);
/* Adds the thread's row at @index of the rows (section "thread-states", subject the thread). */
void                 jvms_thread_state_item_add_row   (JvmsThreadStateItem *self,
                                                       guint                index);
const char          *jvms_thread_state_item_get_name  (JvmsThreadStateItem *self);
/* Time on a CPU in ns: the kernel's running state when the trace has it, else the JVM's, else
 * the time estimated from CPU samples; 0 when none. */
gint64               jvms_thread_state_item_get_on_cpu (JvmsThreadStateItem *self);
/* The thread's rows in the order the statistics gave them. */
guint                jvms_thread_state_item_get_n_rows (JvmsThreadStateItem *self);
const JvmsStatRow   *jvms_thread_state_item_get_row   (JvmsThreadStateItem *self,
                                                       guint                i);

G_END_DECLS
