/* jvms-method-table.c: the method table (see the header). */
#include "config.h"

#include "jvms-method-table.h"

#include <glib/gi18n.h>

#include "jvms-profile-item.h"

struct _JvmsMethodTable
{
  GtkWidget            parent_instance;

  GtkWidget           *scroller;
  GtkColumnView       *view;
  GtkColumnViewColumn *self_column;
  /* Shown only when the tree has something in them: JDK 25's exact timings (invocations, min,
   * average, max: jdk.MethodTiming), and the JIT's (compilations, tier, time: jdk.Compilation),
   * which most profilers' recordings lack. The exact ones come first: where they are, they are
   * the answer, and the table is wider than the pane. */
  GtkColumnViewColumn *exact[4];
  GtkColumnViewColumn *jit[3];
  GListStore          *rows;
  GtkSingleSelection  *selection;
  JvmsCallTree        *tree;
  guint32              selected;
};

enum
{
  PROP_0,
  PROP_TREE,
  PROP_SELECTED_METHOD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (JvmsMethodTable, jvms_method_table, GTK_TYPE_WIDGET)

static guint32
method_at (JvmsMethodTable *self, guint position)
{
  if (position == GTK_INVALID_LIST_POSITION)
    return JVMS_CALL_TREE_NONE;
  g_autoptr(JvmsProfileItem) item = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  return item != NULL ? jvms_profile_item_get_method (item) : JVMS_CALL_TREE_NONE;
}

static void
selection_changed (JvmsMethodTable *self)
{
  guint32 method = method_at (self, gtk_single_selection_get_selected (self->selection));
  if (method == self->selected)
    return;
  self->selected = method;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_METHOD]);
}

void
jvms_method_table_set_tree (JvmsMethodTable *self, JvmsCallTree *tree)
{
  g_return_if_fail (JVMS_IS_METHOD_TABLE (self));
  g_return_if_fail (tree == NULL || JVMS_IS_CALL_TREE (tree));
  if (tree == self->tree)
    return;
  g_set_object (&self->tree, tree);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean exact = FALSE, jit = FALSE;
  for (guint i = 0; tree != NULL && i < jvms_call_tree_get_n_methods (tree); i++)
    {
      g_ptr_array_add (items, jvms_profile_item_new_method (tree, i));
      exact |= jvms_call_tree_get_method_row (tree, i)->invocations >= 0;
      jit |= jvms_call_tree_get_method_row (tree, i)->n_compilations > 0;
    }
  /* The selection follows the rows it had, by method: cleared first, kept if still there. */
  guint32 keep = self->selected;
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       items->pdata, items->len);
  for (guint i = 0; i < G_N_ELEMENTS (self->exact); i++)
    gtk_column_view_column_set_visible (self->exact[i], exact);
  for (guint i = 0; i < G_N_ELEMENTS (self->jit); i++)
    gtk_column_view_column_set_visible (self->jit[i], jit);
  jvms_method_table_select_method (self, keep);
  selection_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
}

guint32
jvms_method_table_get_selected_method (JvmsMethodTable *self)
{
  g_return_val_if_fail (JVMS_IS_METHOD_TABLE (self), JVMS_CALL_TREE_NONE);
  return self->selected;
}

void
jvms_method_table_select_method (JvmsMethodTable *self, guint32 method)
{
  g_return_if_fail (JVMS_IS_METHOD_TABLE (self));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  guint position = GTK_INVALID_LIST_POSITION;
  for (guint i = 0; method != JVMS_CALL_TREE_NONE && i < n && position == GTK_INVALID_LIST_POSITION; i++)
    if (method_at (self, i) == method)
      position = i;
  gtk_single_selection_set_selected (self->selection, position);
}

guint
jvms_method_table_get_n_rows (JvmsMethodTable *self)
{
  g_return_val_if_fail (JVMS_IS_METHOD_TABLE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->rows));
}

GtkWidget *
jvms_method_table_new (void)
{
  return g_object_new (JVMS_TYPE_METHOD_TABLE, NULL);
}

static void
jvms_method_table_dispose (GObject *object)
{
  JvmsMethodTable *self = JVMS_METHOD_TABLE (object);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->tree);
  G_OBJECT_CLASS (jvms_method_table_parent_class)->dispose (object);
}

static void
jvms_method_table_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsMethodTable *self = JVMS_METHOD_TABLE (object);
  switch (prop_id)
    {
    case PROP_TREE: g_value_set_object (value, self->tree); break;
    case PROP_SELECTED_METHOD: g_value_set_uint (value, self->selected); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_method_table_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  JvmsMethodTable *self = JVMS_METHOD_TABLE (object);
  switch (prop_id)
    {
    case PROP_TREE: jvms_method_table_set_tree (self, g_value_get_object (value)); break;
    case PROP_SELECTED_METHOD: jvms_method_table_select_method (self, g_value_get_uint (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_method_table_class_init (JvmsMethodTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jvms_method_table_dispose;
  object_class->get_property = jvms_method_table_get_property;
  object_class->set_property = jvms_method_table_set_property;

  properties[PROP_TREE] =
    g_param_spec_object ("tree", NULL, NULL, JVMS_TYPE_CALL_TREE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_METHOD] =
    g_param_spec_uint ("selected-method", NULL, NULL, 0, G_MAXUINT32, JVMS_CALL_TREE_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
jvms_method_table_init (JvmsMethodTable *self)
{
  self->selected = JVMS_CALL_TREE_NONE;
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Methods"), -1);
  jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_METHOD, _("Method"), FALSE, TRUE);
  self->self_column = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_SELF, _("Self"), FALSE, TRUE);
  jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_SELF_SHARE, _("Self %"), FALSE, TRUE);
  jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_TOTAL, _("Total"), FALSE, TRUE);
  jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_SHARE, _("Total %"), FALSE, TRUE);
  jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_CHILDREN, _("Children"), FALSE, TRUE);
  jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_SAMPLES, _("Samples"), FALSE, TRUE);
  self->exact[0] = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_INVOCATIONS, _("Invocations"), FALSE, TRUE);
  self->exact[1] = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_TIME_AVG, _("Average Time"), FALSE, TRUE);
  self->exact[2] = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_TIME_MIN, _("Shortest Call"), FALSE, TRUE);
  self->exact[3] = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_TIME_MAX, _("Longest Call"), FALSE, TRUE);
  self->jit[0] = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_COMPILATIONS, _("Compilations"), FALSE, TRUE);
  self->jit[1] = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_TIER, _("Highest Tier"), FALSE, TRUE);
  self->jit[2] = jvms_profile_column_add (self->view, JVMS_PROFILE_COLUMN_JIT_TIME, _("JIT Time"), FALSE, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (self->exact); i++)
    gtk_column_view_column_set_visible (self->exact[i], FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (self->jit); i++)
    gtk_column_view_column_set_visible (self->jit[i], FALSE);

  self->rows = g_list_store_new (JVMS_TYPE_PROFILE_ITEM);
  GtkSorter *sorter = gtk_column_view_get_sorter (self->view);
  GtkSortListModel *sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)),
                                                      g_object_ref (sorter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selection_changed), self);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  /* Heaviest self first, as the CLI prints it. */
  gtk_column_view_sort_by_column (self->view, self->self_column, GTK_SORT_DESCENDING);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->view));
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}
