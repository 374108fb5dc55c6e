/* jvms-event-table.h: the event table (docs/events.md): a GtkColumnView of the events in the
 * session's selection (the whole trace without one), filtered by type, thread and text, sorted
 * by any column, with their statistics beside it (per type: count and durations; the gaps
 * between successive events of one type with their histogram; system call latencies).
 *
 * Rows come from the event store a page at a time (widgets/jvms-event-list-model.h); filtering
 * by text and sorting run off the main thread (analysis/jvms-event-order.h), and so do the
 * statistics (analysis/jvms-event-stats.h): the same numbers as `jvmscope-cli events --stats`.
 *
 * Linked both ways with the timelines: activating a row (Enter, double click) selects its
 * interval in the session and scrolls the views to it (the table keeps its rows: a selection it
 * made itself does not filter it); a selection made elsewhere filters the table.
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-event-stats.h"
#include "jvms-event-store.h"
#include "jvms-event-type-chooser.h"
#include "jvms-session.h"

G_BEGIN_DECLS

#define JVMS_TYPE_EVENT_TABLE (jvms_event_table_get_type ())
G_DECLARE_FINAL_TYPE (JvmsEventTable, jvms_event_table, JVMS, EVENT_TABLE, GtkWidget)

GtkWidget      *jvms_event_table_new          (JvmsSession    *session);
/* The trace's event store (NULL: none) and the names of its threads (gint64 * tid -> name, as
 * analysis/jvms-thread-list.h gives them; copied). */
void            jvms_event_table_set_store    (JvmsEventTable *self,
                                               JvmsEventStore *store,
                                               GHashTable     *thread_names);
/* Puts the keyboard focus in the text filter. */
void            jvms_event_table_focus_filter (JvmsEventTable *self);
/* Activates the row at @position as Enter would: selects its interval and shows it. */
gboolean        jvms_event_table_activate_row (JvmsEventTable *self,
                                               guint           position);

/* What the table shows, for the window's state dump and tests. */
guint64         jvms_event_table_get_n_rows   (JvmsEventTable *self);
/* The time range the rows start in. */
void            jvms_event_table_get_range    (JvmsEventTable *self,
                                               gint64         *from,
                                               gint64         *to);
/* An order or statistics job is running: what is shown may still change. */
gboolean        jvms_event_table_is_busy      (JvmsEventTable *self);
/* The first @max rows, one per line: "EPOCH_NS TYPE TID DURATION_NS". */
char           *jvms_event_table_describe_rows (JvmsEventTable *self,
                                                guint           max);
/* The statistics as shown, cell for cell: sections "[title]", "[types]", "[gaps-title]", "[gaps]",
 * "[syscalls]" (those shown), each a line per grid row with its cells joined by " | ". */
char           *jvms_event_table_describe_stats (JvmsEventTable *self);
/* The first @max rows' Thread and Fields cells as shown, one row per line, a tab between. */
char           *jvms_event_table_describe_cells (JvmsEventTable *self,
                                                 guint           max);
/* Where the table's parts are (graphene_rect_t in the window's coordinates): the column titles
 * left to right, or the rows wholly shown, top to bottom. */
typedef enum
{
  JVMS_EVENT_TABLE_HEADS,
  JVMS_EVENT_TABLE_ROWS,
} JvmsEventTablePart;
GArray         *jvms_event_table_get_layout   (JvmsEventTable    *self,
                                               JvmsEventTablePart part);
/* What of the table has the keyboard focus: "rows", "filter" (the text filter), "types" (the
 * search of the types' popover), "bar" (the rest of the filter bar) or "" (nothing of it). */
const char     *jvms_event_table_get_focus_part (JvmsEventTable *self);
/* The order the rows are in: "" (time, no column chosen) or "COLUMN ascending|descending",
 * COLUMN one of time, duration, type, thread or field:TITLE. */
char           *jvms_event_table_describe_sort (JvmsEventTable *self);
/* The filter bar's choice of types. */
JvmsEventTypeChooser *jvms_event_table_get_type_chooser (JvmsEventTable *self);
/* The row the keyboard or a click selected, or -1. */
gint64          jvms_event_table_get_selected (JvmsEventTable *self);
/* The statistics shown (NULL until computed). */
JvmsEventStats *jvms_event_table_get_stats    (JvmsEventTable *self);

G_END_DECLS
