/* jvms-event-column-sorter.h: the sorter of a column of the event table. It never sorts: the
 * table sorts millions of rows off the main thread (analysis/jvms-event-order.h). It only makes
 * the column's header clickable and lets the table learn which column the user chose and in
 * which direction: GTK 4.8 has no API for that (4.10's GtkColumnViewSorter primary column), so
 * the table compares two probe objects with the column view's sorter, which asks the primary
 * column's sorter first; that sorter says "smaller" and notes that it was asked. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define JVMS_TYPE_EVENT_COLUMN_SORTER (jvms_event_column_sorter_get_type ())
G_DECLARE_FINAL_TYPE (JvmsEventColumnSorter, jvms_event_column_sorter, JVMS, EVENT_COLUMN_SORTER, GtkSorter)

/* @probe: the object the table compares (the sorter answers only for it); @id: the column. */
GtkSorter *jvms_event_column_sorter_new (GObject *probe,
                                         guint    id);
/* Which column the column view's @sorter sorts by first, and whether descending (via @probe).
 * FALSE when it sorts by none. */
gboolean   jvms_event_column_sorter_find_primary (GtkSorter *sorter,
                                                  GObject   *probe,
                                                  guint     *id,
                                                  gboolean  *descending);

G_END_DECLS
