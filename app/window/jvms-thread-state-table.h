/* jvms-thread-state-table.h: the side panel's "Time per Thread State": one row per thread in a
 * virtualized, sortable list (GtkColumnView: only the rows in sight are widgets, so 10,000
 * threads open and scroll as 10 do), sorted by time on a CPU, filtered by name; the selected
 * thread's time in each state below it. */
#pragma once

#include <gtk/gtk.h>

#include "jvms-range-stats.h"
#include "jvms-time-format.h"

G_BEGIN_DECLS

#define JVMS_TYPE_THREAD_STATE_TABLE (jvms_thread_state_table_get_type ())
G_DECLARE_FINAL_TYPE (JvmsThreadStateTable, jvms_thread_state_table, JVMS, THREAD_STATE_TABLE, GtkWidget)

GtkWidget *jvms_thread_state_table_new      (void);
/* Lists the threads of @stats' section "thread-states" (NULL: none), times written in @unit. */
void       jvms_thread_state_table_set_stats (JvmsThreadStateTable *self,
                                              const JvmsRangeStats *stats,
                                              JvmsTimeUnit          unit);
/* How many threads the statistics hold (whatever the filter). */
guint      jvms_thread_state_table_get_n_threads (JvmsThreadStateTable *self);
/* Group [panel] of the state dump (docs/window.md): the thread count, the count line, the rows
 * listed, the selected row, the first and last listed, the scroll position, where it is. */
void       jvms_thread_state_table_dump_state (JvmsThreadStateTable *self,
                                               GKeyFile             *key_file);

/* One statistic as the side panel shows it, here and in its other sections: the row's label,
 * its value (in @unit when a time) selectable at the end. */
GtkWidget *jvms_stat_row_widget_new         (const JvmsStatRow    *row,
                                             JvmsTimeUnit          unit);

G_END_DECLS
