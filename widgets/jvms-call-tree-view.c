/* jvms-call-tree-view.c: the call tree table (see the header). */
#include "config.h"

#include "jvms-call-tree-view.h"

#include <glib/gi18n.h>

#include "jvms-profile-item.h"

struct _JvmsCallTreeView
{
  GtkWidget            parent_instance;

  GtkWidget           *scroller;
  GtkColumnView       *view;
  GtkColumnViewColumn *self_column;
  GtkColumnViewColumn *samples;
  GtkColumnViewColumn *on_cpu;
  GtkColumnViewColumn *waiting;
  gboolean             compact;
  GtkSingleSelection  *selection;
  GtkTreeListModel    *model;
  JvmsCallTree        *tree;
  guint32              selected;
};

enum
{
  PROP_0,
  PROP_TREE,
  PROP_SELECTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (JvmsCallTreeView, jvms_call_tree_view, GTK_TYPE_WIDGET)

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  return jvms_profile_item_dup_children (JVMS_PROFILE_ITEM (item));
}

static guint32
node_at (JvmsCallTreeView *self, guint position)
{
  if (self->model == NULL || position == GTK_INVALID_LIST_POSITION)
    return JVMS_CALL_TREE_NONE;
  g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->model, position);
  if (row == NULL)
    return JVMS_CALL_TREE_NONE;
  g_autoptr(JvmsProfileItem) item = gtk_tree_list_row_get_item (row);
  return jvms_profile_item_get_node (item);
}

static void
selection_changed (JvmsCallTreeView *self)
{
  guint32 node = node_at (self, gtk_single_selection_get_selected (self->selection));
  if (node == self->selected)
    return;
  self->selected = node;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

void
jvms_call_tree_view_set_tree (JvmsCallTreeView *self, JvmsCallTree *tree)
{
  g_return_if_fail (JVMS_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (tree == NULL || JVMS_IS_CALL_TREE (tree));

  if (tree == self->tree)
    return;
  g_set_object (&self->tree, tree);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_object (&self->model);
  g_clear_object (&self->selection);
  if (tree != NULL)
    {
      GListModel *root = jvms_profile_items_for_children (tree, 0);
      self->model = gtk_tree_list_model_new (root, FALSE, FALSE, create_children, NULL, NULL);
      self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->model)));
      gtk_single_selection_set_autoselect (self->selection, FALSE);
      gtk_single_selection_set_can_unselect (self->selection, TRUE);
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
      g_signal_connect_swapped (self->selection, "notify::selected",
                                G_CALLBACK (selection_changed), self);
    }
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  gboolean states = tree != NULL && jvms_call_tree_has_kernel_states (tree) && !self->compact;
  gtk_column_view_column_set_visible (self->on_cpu, states);
  gtk_column_view_column_set_visible (self->waiting, states);
  if (self->selected != JVMS_CALL_TREE_NONE)
    {
      self->selected = JVMS_CALL_TREE_NONE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
}

JvmsCallTree *
jvms_call_tree_view_get_tree (JvmsCallTreeView *self)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE_VIEW (self), NULL);
  return self->tree;
}

/* GTK 4.8 has no gtk_column_view_scroll_to(): the column view's list answers the list base's
 * own action. */
static void
scroll_to (JvmsCallTreeView *self, guint position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

/* The position of the row of @node, expanding its ancestors; GTK_INVALID_LIST_POSITION when
 * the tree has no such node. */
static guint
reveal (JvmsCallTreeView *self, guint32 node)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 n = node; n != 0 && n != JVMS_CALL_TREE_NONE; n = jvms_call_tree_get_node (self->tree, n)->parent)
    g_array_prepend_val (path, n);
  g_autoptr(GtkTreeListRow) row = NULL;
  for (guint i = 0; i < path->len; i++)
    {
      guint32 want = g_array_index (path, guint32, i);
      GtkTreeListRow *found = NULL;
      if (row == NULL)
        {
          /* Top rows: the root's children, before any is expanded above them. */
          for (guint p = 0; found == NULL; p++)
            {
              g_autoptr(GtkTreeListRow) r = gtk_tree_list_model_get_row (self->model, p);
              if (r == NULL)
                break;
              if (gtk_tree_list_row_get_depth (r) != 0)
                continue;
              g_autoptr(JvmsProfileItem) item = gtk_tree_list_row_get_item (r);
              if (jvms_profile_item_get_node (item) == want)
                found = g_steal_pointer (&r);
            }
        }
      else
        {
          gtk_tree_list_row_set_expanded (row, TRUE);
          GListModel *children = gtk_tree_list_row_get_children (row);
          guint n = children != NULL ? g_list_model_get_n_items (children) : 0;
          for (guint k = 0; k < n && found == NULL; k++)
            {
              g_autoptr(GtkTreeListRow) r = gtk_tree_list_row_get_child_row (row, k);
              g_autoptr(JvmsProfileItem) item = r != NULL ? gtk_tree_list_row_get_item (r) : NULL;
              if (item != NULL && jvms_profile_item_get_node (item) == want)
                found = g_steal_pointer (&r);
            }
        }
      g_clear_object (&row);
      if (found == NULL)
        return GTK_INVALID_LIST_POSITION;
      row = found;
    }
  return row != NULL ? gtk_tree_list_row_get_position (row) : GTK_INVALID_LIST_POSITION;
}

void
jvms_call_tree_view_select_node (JvmsCallTreeView *self, guint32 node)
{
  g_return_if_fail (JVMS_IS_CALL_TREE_VIEW (self));
  if (self->tree == NULL)
    return;
  if (node == JVMS_CALL_TREE_NONE || node == 0 || node >= jvms_call_tree_get_n_nodes (self->tree))
    {
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
      return;
    }
  if (node == self->selected)
    return;
  guint position = reveal (self, node);
  gtk_single_selection_set_selected (self->selection, position);
  if (position != GTK_INVALID_LIST_POSITION)
    scroll_to (self, position);
}

guint32
jvms_call_tree_view_get_selected (JvmsCallTreeView *self)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE_VIEW (self), JVMS_CALL_TREE_NONE);
  return self->selected;
}

guint32
jvms_call_tree_view_expand_hottest (JvmsCallTreeView *self)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE_VIEW (self), JVMS_CALL_TREE_NONE);
  if (self->tree == NULL || jvms_call_tree_get_node (self->tree, 0)->first_child == JVMS_CALL_TREE_NONE)
    return JVMS_CALL_TREE_NONE;
  /* From a selected leaf there is nothing to expand: the key then shows the whole tree's
   * hottest path, as with nothing selected. */
  guint32 node = self->selected != JVMS_CALL_TREE_NONE
                 && jvms_call_tree_get_node (self->tree, self->selected)->first_child != JVMS_CALL_TREE_NONE
    ? self->selected : jvms_call_tree_get_node (self->tree, 0)->first_child;
  /* Children are heaviest first. */
  while (jvms_call_tree_get_node (self->tree, node)->first_child != JVMS_CALL_TREE_NONE)
    node = jvms_call_tree_get_node (self->tree, node)->first_child;
  jvms_call_tree_view_select_node (self, node);
  return node;
}

void
jvms_call_tree_view_focus (JvmsCallTreeView *self)
{
  g_return_if_fail (JVMS_IS_CALL_TREE_VIEW (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

void
jvms_call_tree_view_set_compact (JvmsCallTreeView *self, gboolean compact)
{
  g_return_if_fail (JVMS_IS_CALL_TREE_VIEW (self));
  self->compact = compact;
  gtk_column_view_column_set_visible (self->self_column, !compact);
  gtk_column_view_column_set_visible (self->samples, !compact);
  gboolean states = !compact && self->tree != NULL && jvms_call_tree_has_kernel_states (self->tree);
  gtk_column_view_column_set_visible (self->on_cpu, states);
  gtk_column_view_column_set_visible (self->waiting, states);
}

guint
jvms_call_tree_view_get_n_rows (JvmsCallTreeView *self)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE_VIEW (self), 0);
  return self->model != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->model)) : 0;
}

/* ---- GObject -------------------------------------------------------------------------------- */

GtkWidget *
jvms_call_tree_view_new (const char *label)
{
  JvmsCallTreeView *self = g_object_new (JVMS_TYPE_CALL_TREE_VIEW, NULL);
  jvms_call_tree_view_set_label (self, label);
  return GTK_WIDGET (self);
}

void
jvms_call_tree_view_set_label (JvmsCallTreeView *self, const char *label)
{
  g_return_if_fail (JVMS_IS_CALL_TREE_VIEW (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label, -1);
}

static void
jvms_call_tree_view_dispose (GObject *object)
{
  JvmsCallTreeView *self = JVMS_CALL_TREE_VIEW (object);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->model);
  g_clear_object (&self->tree);
  G_OBJECT_CLASS (jvms_call_tree_view_parent_class)->dispose (object);
}

static void
jvms_call_tree_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsCallTreeView *self = JVMS_CALL_TREE_VIEW (object);
  switch (prop_id)
    {
    case PROP_TREE: g_value_set_object (value, self->tree); break;
    case PROP_SELECTED: g_value_set_uint (value, self->selected); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_call_tree_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  JvmsCallTreeView *self = JVMS_CALL_TREE_VIEW (object);
  switch (prop_id)
    {
    case PROP_TREE: jvms_call_tree_view_set_tree (self, g_value_get_object (value)); break;
    case PROP_SELECTED: jvms_call_tree_view_select_node (self, g_value_get_uint (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_call_tree_view_class_init (JvmsCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jvms_call_tree_view_dispose;
  object_class->get_property = jvms_call_tree_view_get_property;
  object_class->set_property = jvms_call_tree_view_set_property;

  properties[PROP_TREE] =
    g_param_spec_object ("tree", NULL, NULL, JVMS_TYPE_CALL_TREE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED] =
    g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT32, JVMS_CALL_TREE_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
jvms_call_tree_view_init (JvmsCallTreeView *self)
{
  self->selected = JVMS_CALL_TREE_NONE;
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_reorderable (self->view, FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_METHOD, _("Method"), TRUE, FALSE);
  jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_TOTAL, _("Total"), FALSE, FALSE);
  self->self_column = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_SELF, _("Self"), FALSE, FALSE);
  self->samples = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_SAMPLES, _("Samples"), FALSE, FALSE);
  jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_SHARE, _("Share"), FALSE, FALSE);
  self->on_cpu = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_ON_CPU, _("On a CPU"), FALSE, FALSE);
  self->waiting = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_WAITING, _("Waiting for a CPU"), FALSE, FALSE);
  gtk_column_view_column_set_visible (self->on_cpu, FALSE);
  gtk_column_view_column_set_visible (self->waiting, FALSE);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->view));
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}
