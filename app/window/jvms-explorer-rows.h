/* jvms-explorer-rows.h: the Explorer pane's table as a list model over an array of record rows
 * (docs/records.md, "The Explorer pane"). A query's answer holds its rows as a plain array
 * (8 bytes a record); this model makes a JvmsExplorerRow only when the table asks for an item
 * (the rows on screen, a few dozen), never one object per record: 10 M records would otherwise
 * cost 10 M GObjects (about 0.5 GB).
 *
 * It sorts itself (an order over the array) rather than through a GtkSortListModel, whose keys
 * hold a reference to every item while a sorter is set.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define JVMS_TYPE_EXPLORER_ROWS (jvms_explorer_rows_get_type ())
G_DECLARE_FINAL_TYPE (JvmsExplorerRows, jvms_explorer_rows, JVMS, EXPLORER_ROWS, GObject)

JvmsExplorerRows *jvms_explorer_rows_new     (void);
/* @rows: guint64 table rows in start order (referenced; NULL: none). The model's order is
 * theirs until the next sort. */
void              jvms_explorer_rows_set     (JvmsExplorerRows *self,
                                              GArray           *rows);
/* The table row at @position in the model's order; G_MAXUINT64 past the end. */
guint64           jvms_explorer_rows_get_row (JvmsExplorerRows *self,
                                              guint             position);
/* The position of table row @row; G_MAXUINT when it is not shown. */
guint             jvms_explorer_rows_find    (JvmsExplorerRows *self,
                                              guint64           row);
/* Orders the rows by @compare (over two guint64 table rows; stable), or back to start order
 * when NULL. */
void              jvms_explorer_rows_sort    (JvmsExplorerRows *self,
                                              GCompareDataFunc  compare,
                                              gpointer          user_data);

G_END_DECLS
