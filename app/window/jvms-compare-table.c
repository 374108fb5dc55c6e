/* jvms-compare-table.c: the comparison's table of changes (see the header). */
#include "config.h"

#include "jvms-compare-table.h"

#include <glib/gi18n.h>

#include "jvms-compare-item.h"

struct _JvmsCompareTableView
{
  GtkWidget            parent_instance;

  GtkWidget           *box;
  GtkDropDown         *choice;
  GtkStringList       *choices;
  GtkColumnView       *view;
  GtkColumnViewColumn *columns[JVMS_COMPARE_COLUMN_N];
  GListStore          *stores[JVMS_COMPARE_TABLE_N];
  GtkSortListModel    *sorted;
  GtkSingleSelection  *selection;
  JvmsCompareTable     table;
};

enum
{
  PROP_0,
  PROP_TABLE,
  PROP_SELECTED_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (JvmsCompareTableView, jvms_compare_table_view, GTK_TYPE_WIDGET)

/* ---- cells and sorters ---------------------------------------------------------------------- */

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  JvmsCompareColumn column = GPOINTER_TO_UINT (data);
  GtkWidget *label = gtk_label_new (NULL);
  if (column == JVMS_COMPARE_COLUMN_NAME)
    {
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      /* The end of a method's name says the most (class and method). */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
      gtk_label_set_width_chars (GTK_LABEL (label), 32);
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_widget_add_css_class (label, "numeric");
    }
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  JvmsCompareColumn column = GPOINTER_TO_UINT (data);
  JvmsCompareItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = jvms_compare_item_dup_text (item, column);
  gtk_label_set_text (GTK_LABEL (label), text);
  if (column == JVMS_COMPARE_COLUMN_NAME)
    gtk_widget_set_tooltip_text (label, text);
  /* A significant change stands out by weight too, not by its mark alone. */
  if (jvms_compare_item_get_value (item, JVMS_COMPARE_COLUMN_SIGNIFICANT) != 0)
    gtk_widget_add_css_class (label, "heading");
  else
    gtk_widget_remove_css_class (label, "heading");
}

static int
compare_items (gconstpointer a, gconstpointer b, gpointer data)
{
  JvmsCompareColumn column = GPOINTER_TO_UINT (data);
  JvmsCompareItem *x = JVMS_COMPARE_ITEM ((gpointer) a), *y = JVMS_COMPARE_ITEM ((gpointer) b);
  if (column == JVMS_COMPARE_COLUMN_NAME)
    {
      int c = g_strcmp0 (jvms_compare_item_get_name (x), jvms_compare_item_get_name (y));
      return c < 0 ? GTK_ORDERING_SMALLER : c > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
    }
  double vx = jvms_compare_item_get_value (x, column), vy = jvms_compare_item_get_value (y, column);
  return vx < vy ? GTK_ORDERING_SMALLER : vx > vy ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static GtkColumnViewColumn *
add_column (JvmsCompareTableView *self, JvmsCompareColumn column, const char *title)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (column));
  GtkColumnViewColumn *c = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (c, TRUE);
  if (column == JVMS_COMPARE_COLUMN_NAME)
    gtk_column_view_column_set_expand (c, TRUE);
  g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare_items, GUINT_TO_POINTER (column), NULL));
  gtk_column_view_column_set_sorter (c, sorter);
  gtk_column_view_append_column (self->view, c);
  g_object_unref (c);
  self->columns[column] = c;
  return c;
}

/* ---- the table shown ------------------------------------------------------------------------ */

/* The choices say how many rows each table has. */
static void
update_choices (JvmsCompareTableView *self)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  for (guint t = 0; t < JVMS_COMPARE_TABLE_N; t++)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->stores[t]));
      /* Translators: a table of the comparison and its number of rows: "Lost time, by kind (9)". */
      g_ptr_array_add (labels, g_strdup_printf (_("%s (%u)"), jvms_compare_table_title (t), n));
    }
  g_ptr_array_add (labels, NULL);
  g_signal_handlers_block_matched (self->choice, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_string_list_splice (self->choices, 0, g_list_model_get_n_items (G_LIST_MODEL (self->choices)),
                          (const char * const *) labels->pdata);
  gtk_drop_down_set_selected (self->choice, self->table);
  g_signal_handlers_unblock_matched (self->choice, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
}

/* Titles of the rate columns in the shown table's unit. */
static void
update_titles (JvmsCompareTableView *self)
{
  gboolean shares = self->table == JVMS_COMPARE_METHODS;
  gtk_column_view_column_set_title (self->columns[JVMS_COMPARE_COLUMN_BASELINE],
                                    shares ? _("Baseline share") : _("Baseline /s"));
  gtk_column_view_column_set_title (self->columns[JVMS_COMPARE_COLUMN_OTHER],
                                    shares ? _("Other share") : _("Other /s"));
}

void
jvms_compare_table_view_set_table (JvmsCompareTableView *self, JvmsCompareTable table)
{
  g_return_if_fail (JVMS_IS_COMPARE_TABLE_VIEW (self));
  g_return_if_fail ((guint) table < JVMS_COMPARE_TABLE_N);
  if (table == self->table && gtk_sort_list_model_get_model (self->sorted) != NULL)
    return;
  self->table = table;
  gtk_sort_list_model_set_model (self->sorted, G_LIST_MODEL (self->stores[table]));
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  gtk_drop_down_set_selected (self->choice, table);
  update_titles (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TABLE]);
}

JvmsCompareTable
jvms_compare_table_view_get_table (JvmsCompareTableView *self)
{
  g_return_val_if_fail (JVMS_IS_COMPARE_TABLE_VIEW (self), 0);
  return self->table;
}

void
jvms_compare_table_view_set_comparison (JvmsCompareTableView *self, const JvmsComparison *comparison)
{
  g_return_if_fail (JVMS_IS_COMPARE_TABLE_VIEW (self));
  for (guint t = 0; t < JVMS_COMPARE_TABLE_N; t++)
    {
      g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
      const GArray *rows = comparison != NULL ? comparison->tables[t] : NULL;
      for (guint i = 0; rows != NULL && i < rows->len; i++)
        g_ptr_array_add (items, jvms_compare_item_new (t, &g_array_index (rows, JvmsCompareRow, i)));
      g_list_store_splice (self->stores[t], 0, g_list_model_get_n_items (G_LIST_MODEL (self->stores[t])),
                           items->pdata, items->len);
    }
  update_choices (self);
}

const char *
jvms_compare_table_view_get_selected_name (JvmsCompareTableView *self)
{
  g_return_val_if_fail (JVMS_IS_COMPARE_TABLE_VIEW (self), NULL);
  JvmsCompareItem *item = gtk_single_selection_get_selected_item (self->selection);
  return item != NULL ? jvms_compare_item_get_name (item) : NULL;
}

static void
choice_changed (JvmsCompareTableView *self)
{
  guint chosen = gtk_drop_down_get_selected (self->choice);
  if (chosen < JVMS_COMPARE_TABLE_N)
    jvms_compare_table_view_set_table (self, chosen);
}

static void
selection_changed (JvmsCompareTableView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NAME]);
}

/* ---- state dump ----------------------------------------------------------------------------- */

static void
describe_model (GString *out, GListModel *model, gboolean cells)
{
  guint n = g_list_model_get_n_items (model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(JvmsCompareItem) item = g_list_model_get_item (model, i);
      for (guint c = 0; c < JVMS_COMPARE_COLUMN_N; c++)
        {
          if (c > 0)
            g_string_append_c (out, '\t');
          if (cells || c == JVMS_COMPARE_COLUMN_NAME)
            {
              g_autofree char *text = jvms_compare_item_dup_text (item, c);
              g_string_append (out, text);
            }
          else
            {
              char buf[G_ASCII_DTOSTR_BUF_SIZE];
              g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.17g",
                                                     jvms_compare_item_get_value (item, c)));
            }
        }
      g_string_append_c (out, '\n');
    }
}

char *
jvms_compare_table_view_describe_rows (JvmsCompareTableView *self, JvmsCompareTable table)
{
  g_return_val_if_fail (JVMS_IS_COMPARE_TABLE_VIEW (self), NULL);
  g_return_val_if_fail ((guint) table < JVMS_COMPARE_TABLE_N, NULL);
  GString *out = g_string_new (NULL);
  describe_model (out, G_LIST_MODEL (self->stores[table]), FALSE);
  return g_string_free (out, FALSE);
}

char *
jvms_compare_table_view_describe_shown (JvmsCompareTableView *self, gboolean cells)
{
  g_return_val_if_fail (JVMS_IS_COMPARE_TABLE_VIEW (self), NULL);
  GString *out = g_string_new (NULL);
  describe_model (out, G_LIST_MODEL (self->sorted), cells);
  return g_string_free (out, FALSE);
}

/* Where each column's header is: GtkColumnView has no API for it, and a test clicks a header
 * as a user does. The view's first child is its header row, whose children are the columns'
 * titles in the columns' order (GTK 4.8 to 4.14). */
char *
jvms_compare_table_view_describe_headers (JvmsCompareTableView *self, GtkWidget *relative_to)
{
  g_return_val_if_fail (JVMS_IS_COMPARE_TABLE_VIEW (self), NULL);
  GString *out = g_string_new (NULL);
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (self->view));
  GtkWidget *title = header != NULL ? gtk_widget_get_first_child (header) : NULL;
  for (guint c = 0; c < JVMS_COMPARE_COLUMN_N && title != NULL; c++, title = gtk_widget_get_next_sibling (title))
    {
      graphene_rect_t r;
      if (!gtk_widget_compute_bounds (title, relative_to, &r))
        continue;
      g_string_append_printf (out, "%s=%d,%d,%d,%d;", gtk_column_view_column_get_title (self->columns[c]),
                              (int) r.origin.x, (int) r.origin.y, (int) r.size.width, (int) r.size.height);
    }
  return g_string_free (out, FALSE);
}

/* ---- the widget ----------------------------------------------------------------------------- */

GtkWidget *
jvms_compare_table_view_new (void)
{
  return g_object_new (JVMS_TYPE_COMPARE_TABLE_VIEW, NULL);
}

static void
jvms_compare_table_view_dispose (GObject *object)
{
  JvmsCompareTableView *self = JVMS_COMPARE_TABLE_VIEW (object);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  for (guint t = 0; t < JVMS_COMPARE_TABLE_N; t++)
    g_clear_object (&self->stores[t]);
  G_OBJECT_CLASS (jvms_compare_table_view_parent_class)->dispose (object);
}

static void
jvms_compare_table_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsCompareTableView *self = JVMS_COMPARE_TABLE_VIEW (object);
  switch (prop_id)
    {
    case PROP_TABLE: g_value_set_uint (value, self->table); break;
    case PROP_SELECTED_NAME: g_value_set_string (value, jvms_compare_table_view_get_selected_name (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_compare_table_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  JvmsCompareTableView *self = JVMS_COMPARE_TABLE_VIEW (object);
  switch (prop_id)
    {
    case PROP_TABLE: jvms_compare_table_view_set_table (self, g_value_get_uint (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_compare_table_view_class_init (JvmsCompareTableViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jvms_compare_table_view_dispose;
  object_class->get_property = jvms_compare_table_view_get_property;
  object_class->set_property = jvms_compare_table_view_set_property;

  properties[PROP_TABLE] =
    g_param_spec_uint ("table", NULL, NULL, 0, JVMS_COMPARE_TABLE_N - 1, JVMS_COMPARE_KINDS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_NAME] =
    g_param_spec_string ("selected-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
jvms_compare_table_view_init (JvmsCompareTableView *self)
{
  for (guint t = 0; t < JVMS_COMPARE_TABLE_N; t++)
    self->stores[t] = g_list_store_new (JVMS_TYPE_COMPARE_ITEM);

  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Changes"), -1);
  add_column (self, JVMS_COMPARE_COLUMN_NAME, _("What"));
  add_column (self, JVMS_COMPARE_COLUMN_BASELINE, _("Baseline /s"));
  add_column (self, JVMS_COMPARE_COLUMN_OTHER, _("Other /s"));
  add_column (self, JVMS_COMPARE_COLUMN_CHANGE, _("Change"));
  add_column (self, JVMS_COMPARE_COLUMN_UNCERTAINTY, _("Uncertainty"));
  add_column (self, JVMS_COMPARE_COLUMN_SIGNIFICANT, _("Significant"));
  add_column (self, JVMS_COMPARE_COLUMN_BASELINE_ABS, _("Baseline"));
  add_column (self, JVMS_COMPARE_COLUMN_OTHER_ABS, _("Other"));

  /* Unsorted, the rows keep the comparison's order: the largest change first. */
  GtkSorter *sorter = gtk_column_view_get_sorter (self->view);
  self->sorted = gtk_sort_list_model_new (NULL, g_object_ref (sorter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selection_changed), self);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));

  self->choices = gtk_string_list_new (NULL);
  self->choice = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (self->choices), NULL));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->choice), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Table"), -1);
  gtk_widget_set_halign (GTK_WIDGET (self->choice), GTK_ALIGN_START);
  update_choices (self);
  g_signal_connect_swapped (self->choice, "notify::selected", G_CALLBACK (choice_changed), self);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->choice));
  GtkWidget *scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  gtk_box_append (GTK_BOX (self->box), scroller);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  jvms_compare_table_view_set_table (self, JVMS_COMPARE_KINDS);
}
