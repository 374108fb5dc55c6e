/* jvms-call-tree-view.h: a call tree as an expandable table (a GtkColumnView over a
 * GtkTreeListModel, as Sysprof's callgraph view): method, total, self, samples and share, and
 * for CPU kinds with a kernel layer the shares of samples on a CPU and waiting for one. Rows
 * are made as they are expanded.
 *
 * Properties (EXPLICIT_NOTIFY):
 *   tree       JvmsCallTree*  (read-write)
 *   selected   guint          the selected node (JVMS_CALL_TREE_NONE for none)
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-call-tree.h"

G_BEGIN_DECLS

#define JVMS_TYPE_CALL_TREE_VIEW (jvms_call_tree_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsCallTreeView, jvms_call_tree_view, JVMS, CALL_TREE_VIEW, GtkWidget)

/* @label: the table's accessible name ("Call tree", "Callers of …"). */
GtkWidget    *jvms_call_tree_view_new              (const char       *label);
/* Only the method, total and share columns (the callers and callees views, side by side). */
void          jvms_call_tree_view_set_compact      (JvmsCallTreeView *self,
                                                    gboolean          compact);
/* The table's accessible name. */
void          jvms_call_tree_view_set_label        (JvmsCallTreeView *self,
                                                    const char       *label);
void          jvms_call_tree_view_set_tree         (JvmsCallTreeView *self,
                                                    JvmsCallTree     *tree);
JvmsCallTree *jvms_call_tree_view_get_tree         (JvmsCallTreeView *self);
/* Expands the rows down to @node and selects it (NONE: clears the selection). */
void          jvms_call_tree_view_select_node      (JvmsCallTreeView *self,
                                                    guint32           node);
guint32       jvms_call_tree_view_get_selected     (JvmsCallTreeView *self);
/* From the selected node (the first row when none is selected, or the selected one is a leaf),
 * follows the heaviest callee down to a leaf, expanding each, and selects the leaf: the hottest
 * path. Returns the leaf. */
guint32       jvms_call_tree_view_expand_hottest   (JvmsCallTreeView *self);
/* Moves the keyboard focus to the table. */
void          jvms_call_tree_view_focus            (JvmsCallTreeView *self);
/* Rows shown (expanded ones included), for the state dump and tests. */
guint         jvms_call_tree_view_get_n_rows       (JvmsCallTreeView *self);

G_END_DECLS
