/* jvms-compare-table.h: the comparison window's table of changes: one of a JvmsComparison's
 * tables (kinds, monitors, ..., gc; chosen in a drop-down) as a GtkColumnView over a
 * GtkSortListModel, sortable by any column (a click on its header): the row's name, the rate
 * (methods: the share of CPU samples) on each side, the change, its uncertainty, whether it is
 * significant, and the absolute amounts over each side's range. Every row of the table is
 * there, in `jvmscope-cli compare --json`'s order until a header is clicked; the cells are
 * the command's text for the same numbers (docs/compare.md, "In the window").
 *
 * Properties (EXPLICIT_NOTIFY):
 *   table          JvmsCompareTable as guint (read-write): the table shown
 *   selected-name  char* (read-only): the selected row's name, NULL for none
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-compare.h"

G_BEGIN_DECLS

#define JVMS_TYPE_COMPARE_TABLE_VIEW (jvms_compare_table_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsCompareTableView, jvms_compare_table_view, JVMS, COMPARE_TABLE_VIEW, GtkWidget)

GtkWidget        *jvms_compare_table_view_new             (void);
/* Copies @comparison's rows (NULL: none); keeps the table shown and the sorting. */
void              jvms_compare_table_view_set_comparison  (JvmsCompareTableView *self,
                                                           const JvmsComparison *comparison);
void              jvms_compare_table_view_set_table       (JvmsCompareTableView *self,
                                                           JvmsCompareTable      table);
JvmsCompareTable  jvms_compare_table_view_get_table       (JvmsCompareTableView *self);
const char       *jvms_compare_table_view_get_selected_name (JvmsCompareTableView *self);

/* For the window's state dump (docs/window.md, [compare]): every table's rows in the
 * comparison's order, "NAME\tBASELINE\tOTHER\tCHANGE\tUNCERTAINTY\tSIGNIFICANT\tBASELINE_ABS\tOTHER_ABS\n"
 * (%.17g); the shown table's rows as shown (sorted), the same, or with @cells the cells' text;
 * and the column headers' bounds in @relative_to's coordinates, "TITLE=X,Y,W,H;". */
char             *jvms_compare_table_view_describe_rows   (JvmsCompareTableView *self,
                                                           JvmsCompareTable      table);
char             *jvms_compare_table_view_describe_shown  (JvmsCompareTableView *self,
                                                           gboolean              cells);
char             *jvms_compare_table_view_describe_headers (JvmsCompareTableView *self,
                                                            GtkWidget            *relative_to);

G_END_DECLS
