/* jvms-profile-item.h: a row of the profiler's lists: a node of a call tree (the call tree and
 * the callers and callees views) or a row of its method table, with what each column shows.
 * Items are made as the lists need them, never one per node up front. */
#pragma once

#include <gtk/gtk.h>

#include "jvms-call-tree.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_PROFILE_COLUMN_METHOD,
  JVMS_PROFILE_COLUMN_TOTAL,        /* weight with the frame (method) on the stack */
  JVMS_PROFILE_COLUMN_SELF,         /* weight with it on top */
  JVMS_PROFILE_COLUMN_CHILDREN,     /* total - self: in what it called */
  JVMS_PROFILE_COLUMN_SAMPLES,      /* events with it on the stack */
  JVMS_PROFILE_COLUMN_SHARE,        /* total over the tree's total */
  JVMS_PROFILE_COLUMN_SELF_SHARE,   /* self over the tree's total */
  JVMS_PROFILE_COLUMN_ON_CPU,       /* CPU kinds with a kernel layer: share of samples on CPU */
  JVMS_PROFILE_COLUMN_WAITING,      /* ... and waiting for a CPU */
  JVMS_PROFILE_COLUMN_COMPILATIONS, /* method table: jdk.Compilation events in the range */
  JVMS_PROFILE_COLUMN_TIER,         /* ... their highest tier */
  JVMS_PROFILE_COLUMN_JIT_TIME,     /* ... their summed durations */
  JVMS_PROFILE_COLUMN_INVOCATIONS,  /* JDK 25 jdk.MethodTiming: exact invocation count */
  JVMS_PROFILE_COLUMN_TIME_AVG,     /* ... and average time */
  JVMS_PROFILE_COLUMN_TIME_MIN,     /* ... its shortest */
  JVMS_PROFILE_COLUMN_TIME_MAX,     /* ... its longest */
} JvmsProfileColumn;

#define JVMS_TYPE_PROFILE_ITEM (jvms_profile_item_get_type ())
G_DECLARE_FINAL_TYPE (JvmsProfileItem, jvms_profile_item, JVMS, PROFILE_ITEM, GObject)

JvmsProfileItem *jvms_profile_item_new_node      (JvmsCallTree    *tree,
                                                  guint32          node);
JvmsProfileItem *jvms_profile_item_new_method    (JvmsCallTree    *tree,
                                                  guint            row);
JvmsCallTree    *jvms_profile_item_get_tree      (JvmsProfileItem *self);
/* The node, or JVMS_CALL_TREE_NONE for a method-table row. */
guint32          jvms_profile_item_get_node      (JvmsProfileItem *self);
/* The method (a method id of the tree). */
guint32          jvms_profile_item_get_method    (JvmsProfileItem *self);
/* A GListStore of the node's children, heaviest first, or NULL for a leaf (what a
 * GtkTreeListModel's create function returns). */
GListModel      *jvms_profile_item_dup_children  (JvmsProfileItem *self);

/* The value sorted on (-1 where nothing was recorded) and the text shown. */
double           jvms_profile_item_get_value     (JvmsProfileItem *self,
                                                  JvmsProfileColumn column);
char            *jvms_profile_item_dup_text      (JvmsProfileItem *self,
                                                  JvmsProfileColumn column);

/* Children of node @node of @tree as items (the top rows of a call tree view). */
GListModel      *jvms_profile_items_for_children (JvmsCallTree    *tree,
                                                  guint32          node);

/* Adds a column to @view showing @column of JvmsProfileItems (or of the items of
 * GtkTreeListRows, with an expander for the method column when @tree_expander); with @sortable,
 * a sorter on its value (names for the method column), largest first on the first click.
 * Returns the column (owned by the view). */
GtkColumnViewColumn *jvms_profile_column_add     (GtkColumnView    *view,
                                                  JvmsProfileColumn column,
                                                  const char       *title,
                                                  gboolean          tree_expander,
                                                  gboolean          sortable);

G_END_DECLS
