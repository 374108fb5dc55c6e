/* jvms-method-table.h: a call tree's method table, sortable by any column (a GtkColumnView over
 * a GtkSortListModel): per method self, total (recursion counted once), children (total - self),
 * samples, share, and from jdk.Compilation the compilations in the range, their highest tier and
 * their JIT time; JDK 25's exact invocation count and average time when recorded.
 *
 * Properties (EXPLICIT_NOTIFY):
 *   tree              JvmsCallTree* (read-write)
 *   selected-method   guint         the selected row's method (JVMS_CALL_TREE_NONE: none)
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-call-tree.h"

G_BEGIN_DECLS

#define JVMS_TYPE_METHOD_TABLE (jvms_method_table_get_type ())
G_DECLARE_FINAL_TYPE (JvmsMethodTable, jvms_method_table, JVMS, METHOD_TABLE, GtkWidget)

GtkWidget    *jvms_method_table_new                 (void);
void          jvms_method_table_set_tree            (JvmsMethodTable *self,
                                                     JvmsCallTree    *tree);
guint32       jvms_method_table_get_selected_method (JvmsMethodTable *self);
/* Selects the row of @method (NONE: none). */
void          jvms_method_table_select_method       (JvmsMethodTable *self,
                                                     guint32          method);
guint         jvms_method_table_get_n_rows          (JvmsMethodTable *self);

G_END_DECLS
