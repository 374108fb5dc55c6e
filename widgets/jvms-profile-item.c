/* jvms-profile-item.c: rows of the profiler's lists and their columns (see the header). */
#include "config.h"

#include "jvms-profile-item.h"

#include <glib/gi18n.h>

#include "jvms-number-format.h"
#include "jvms-profile-format.h"
#include "jvms-time-format.h"

struct _JvmsProfileItem
{
  GObject       parent_instance;
  JvmsCallTree *tree;
  guint32       node;   /* NONE for a method-table row */
  guint         row;
};

G_DEFINE_FINAL_TYPE (JvmsProfileItem, jvms_profile_item, G_TYPE_OBJECT)

static void
jvms_profile_item_finalize (GObject *object)
{
  g_clear_object (&JVMS_PROFILE_ITEM (object)->tree);
  G_OBJECT_CLASS (jvms_profile_item_parent_class)->finalize (object);
}

static void
jvms_profile_item_class_init (JvmsProfileItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jvms_profile_item_finalize;
}

static void
jvms_profile_item_init (JvmsProfileItem *self)
{
}

JvmsProfileItem *
jvms_profile_item_new_node (JvmsCallTree *tree, guint32 node)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE (tree), NULL);
  g_return_val_if_fail (node < jvms_call_tree_get_n_nodes (tree), NULL);
  JvmsProfileItem *self = g_object_new (JVMS_TYPE_PROFILE_ITEM, NULL);
  self->tree = g_object_ref (tree);
  self->node = node;
  return self;
}

JvmsProfileItem *
jvms_profile_item_new_method (JvmsCallTree *tree, guint row)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE (tree), NULL);
  g_return_val_if_fail (row < jvms_call_tree_get_n_methods (tree), NULL);
  JvmsProfileItem *self = g_object_new (JVMS_TYPE_PROFILE_ITEM, NULL);
  self->tree = g_object_ref (tree);
  self->node = JVMS_CALL_TREE_NONE;
  self->row = row;
  return self;
}

JvmsCallTree *
jvms_profile_item_get_tree (JvmsProfileItem *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILE_ITEM (self), NULL);
  return self->tree;
}

guint32
jvms_profile_item_get_node (JvmsProfileItem *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILE_ITEM (self), JVMS_CALL_TREE_NONE);
  return self->node;
}

guint32
jvms_profile_item_get_method (JvmsProfileItem *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILE_ITEM (self), JVMS_CALL_TREE_NONE);
  if (self->node != JVMS_CALL_TREE_NONE)
    return jvms_call_tree_get_node (self->tree, self->node)->method;
  return jvms_call_tree_get_method_row (self->tree, self->row)->method;
}

GListModel *
jvms_profile_items_for_children (JvmsCallTree *tree, guint32 node)
{
  GListStore *store = g_list_store_new (JVMS_TYPE_PROFILE_ITEM);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint32 c = jvms_call_tree_get_node (tree, node)->first_child; c != JVMS_CALL_TREE_NONE;
       c = jvms_call_tree_get_node (tree, c)->next_sibling)
    g_ptr_array_add (items, jvms_profile_item_new_node (tree, c));
  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return G_LIST_MODEL (store);
}

GListModel *
jvms_profile_item_dup_children (JvmsProfileItem *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILE_ITEM (self), NULL);
  if (self->node == JVMS_CALL_TREE_NONE
      || jvms_call_tree_get_node (self->tree, self->node)->first_child == JVMS_CALL_TREE_NONE)
    return NULL;
  return jvms_profile_items_for_children (self->tree, self->node);
}

static double
share (guint64 part, guint64 whole)
{
  return whole > 0 ? (double) part / (double) whole : 0;
}

double
jvms_profile_item_get_value (JvmsProfileItem *self, JvmsProfileColumn column)
{
  g_return_val_if_fail (JVMS_IS_PROFILE_ITEM (self), 0);
  guint64 all = jvms_call_tree_get_total (self->tree);
  if (self->node != JVMS_CALL_TREE_NONE)
    {
      const JvmsCallTreeNode *n = jvms_call_tree_get_node (self->tree, self->node);
      switch (column)
        {
        case JVMS_PROFILE_COLUMN_TOTAL: return (double) n->total;
        case JVMS_PROFILE_COLUMN_SELF: return (double) n->self;
        case JVMS_PROFILE_COLUMN_CHILDREN: return (double) (n->total - n->self);
        case JVMS_PROFILE_COLUMN_SAMPLES: return (double) n->total_samples;
        case JVMS_PROFILE_COLUMN_SHARE: return share (n->total, all);
        case JVMS_PROFILE_COLUMN_SELF_SHARE: return share (n->self, all);
        case JVMS_PROFILE_COLUMN_ON_CPU: return share (n->total_states[JVMS_CPU_STATE_ON_CPU], n->total_samples);
        case JVMS_PROFILE_COLUMN_WAITING: return share (n->total_states[JVMS_CPU_STATE_WAITING], n->total_samples);
        default: return -1;
        }
    }
  const JvmsCallTreeMethod *m = jvms_call_tree_get_method_row (self->tree, self->row);
  switch (column)
    {
    case JVMS_PROFILE_COLUMN_TOTAL: return (double) m->total;
    case JVMS_PROFILE_COLUMN_SELF: return (double) m->self;
    case JVMS_PROFILE_COLUMN_CHILDREN: return (double) (m->total - MIN (m->self, m->total));
    case JVMS_PROFILE_COLUMN_SAMPLES: return (double) m->total_samples;
    case JVMS_PROFILE_COLUMN_SHARE: return share (m->total, all);
    case JVMS_PROFILE_COLUMN_SELF_SHARE: return share (m->self, all);
    case JVMS_PROFILE_COLUMN_COMPILATIONS: return m->n_compilations;
    case JVMS_PROFILE_COLUMN_TIER: return m->highest_tier;
    case JVMS_PROFILE_COLUMN_JIT_TIME: return m->n_compilations > 0 ? (double) m->jit_ns : -1;
    case JVMS_PROFILE_COLUMN_INVOCATIONS: return (double) m->invocations;
    case JVMS_PROFILE_COLUMN_TIME_AVG: return (double) m->time_avg;
    case JVMS_PROFILE_COLUMN_TIME_MIN: return (double) m->time_min;
    case JVMS_PROFILE_COLUMN_TIME_MAX: return (double) m->time_max;
    default: return -1;
    }
}

char *
jvms_profile_item_dup_text (JvmsProfileItem *self, JvmsProfileColumn column)
{
  g_return_val_if_fail (JVMS_IS_PROFILE_ITEM (self), NULL);
  const char *unit = jvms_call_tree_get_unit (self->tree);
  double value = jvms_profile_item_get_value (self, column);
  switch (column)
    {
    case JVMS_PROFILE_COLUMN_METHOD:
      return g_strdup (jvms_call_tree_get_method_name (self->tree, jvms_profile_item_get_method (self)));
    case JVMS_PROFILE_COLUMN_TOTAL:
    case JVMS_PROFILE_COLUMN_SELF:
    case JVMS_PROFILE_COLUMN_CHILDREN:
      return jvms_profile_format_value (unit, (guint64) value);
    case JVMS_PROFILE_COLUMN_SAMPLES:
    case JVMS_PROFILE_COLUMN_COMPILATIONS:
      return jvms_number_format_count ((guint64) value);
    case JVMS_PROFILE_COLUMN_SHARE:
    case JVMS_PROFILE_COLUMN_SELF_SHARE:
    case JVMS_PROFILE_COLUMN_ON_CPU:
    case JVMS_PROFILE_COLUMN_WAITING:
      return jvms_profile_format_share ((guint64) (value * 1000000), 1000000);
    case JVMS_PROFILE_COLUMN_TIER:
    case JVMS_PROFILE_COLUMN_INVOCATIONS:
      /* Nothing recorded: an empty cell, not a zero. */
      return value < 0 ? g_strdup ("") : jvms_number_format_count ((guint64) value);
    case JVMS_PROFILE_COLUMN_JIT_TIME:
    case JVMS_PROFILE_COLUMN_TIME_AVG:
    case JVMS_PROFILE_COLUMN_TIME_MIN:
    case JVMS_PROFILE_COLUMN_TIME_MAX:
      return value < 0 ? g_strdup ("") : jvms_time_format_duration ((gint64) value, JVMS_TIME_UNIT_AUTO);
    default:
      return g_strdup ("");
    }
}

/* ---- columns -------------------------------------------------------------------------------- */

typedef struct
{
  JvmsProfileColumn column;
  gboolean          tree_expander;
} ColumnInfo;

static JvmsProfileItem *
item_of (gpointer object)
{
  if (GTK_IS_TREE_LIST_ROW (object))
    {
      /* The row's item, borrowed: the row holds it. */
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (object);
      return JVMS_PROFILE_ITEM (item);
    }
  return JVMS_PROFILE_ITEM (object);
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, ColumnInfo *info)
{
  GtkWidget *label = gtk_label_new (NULL);
  gboolean numeric = info->column != JVMS_PROFILE_COLUMN_METHOD;
  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  else
    {
      /* The end of the name says the most (class and method); the column keeps room for it. */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
      gtk_label_set_width_chars (GTK_LABEL (label), 28);
    }
  if (info->tree_expander)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, ColumnInfo *info)
{
  gpointer object = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  GtkWidget *label = child;
  if (info->tree_expander)
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), GTK_TREE_LIST_ROW (object));
      label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
    }
  g_autofree char *text = jvms_profile_item_dup_text (item_of (object), info->column);
  gtk_label_set_text (GTK_LABEL (label), text);
  if (info->column == JVMS_PROFILE_COLUMN_METHOD)
    gtk_widget_set_tooltip_text (label, text);
}

static void
unbind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, ColumnInfo *info)
{
  if (info->tree_expander)
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}

static int
compare_items (gconstpointer a, gconstpointer b, gpointer data)
{
  ColumnInfo *info = data;
  JvmsProfileItem *x = item_of ((gpointer) a), *y = item_of ((gpointer) b);
  if (info->column == JVMS_PROFILE_COLUMN_METHOD)
    return g_strcmp0 (jvms_call_tree_get_method_name (x->tree, jvms_profile_item_get_method (x)),
                      jvms_call_tree_get_method_name (y->tree, jvms_profile_item_get_method (y)));
  double vx = jvms_profile_item_get_value (x, info->column), vy = jvms_profile_item_get_value (y, info->column);
  return vx < vy ? GTK_ORDERING_SMALLER : vx > vy ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

GtkColumnViewColumn *
jvms_profile_column_add (GtkColumnView *view, JvmsProfileColumn column, const char *title,
                         gboolean tree_expander, gboolean sortable)
{
  ColumnInfo *info = g_new0 (ColumnInfo, 1);
  info->column = column;
  info->tree_expander = tree_expander;
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), info);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), info);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), info);
  g_object_set_data_full (G_OBJECT (factory), "jvms-column-info", info, g_free);
  GtkColumnViewColumn *c = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (c, TRUE);
  if (column == JVMS_PROFILE_COLUMN_METHOD)
    gtk_column_view_column_set_expand (c, TRUE);
  if (sortable)
    {
      ColumnInfo *sort_info = g_memdup2 (info, sizeof *info);
      GtkSorter *sorter = GTK_SORTER (gtk_custom_sorter_new (compare_items, sort_info, g_free));
      gtk_column_view_column_set_sorter (c, sorter);
      g_object_unref (sorter);
    }
  gtk_column_view_append_column (view, c);
  g_object_unref (c);
  return c;
}
