/* jvms-thread-state-table.c: the side panel's per-thread list.
 *
 * It used to be one expander row per thread, each with a row per state: 3,000 threads made
 * some 15,000 widgets built at every change of the selection. Now the threads are items of a
 * list model shown by a GtkColumnView, which makes widgets for the rows in sight only; the
 * model is sorted (by time on a CPU, the column a Sysprof or JMC user looks at first) and
 * filtered off the widgets. The states of one thread are a few rows, shown for the selected
 * one. */
#include "config.h"

#include "jvms-thread-state-table.h"

#include <adwaita.h>
#include <string.h>
#include <glib/gi18n.h>

#include "jvms-thread-state-item.h"

/* The list's height: enough for a dozen threads, small enough to leave the panel's other
 * sections in sight. */
#define LIST_HEIGHT 320

struct _JvmsThreadStateTable
{
  GtkWidget           parent_instance;

  JvmsTimeUnit        unit;
  char               *needle;   /* the filter, casefolded, or NULL */

  GListStore         *store;    /* of JvmsThreadStateItem */
  GtkCustomFilter    *filter;
  GtkFilterListModel *filtered;
  GtkSortListModel   *sorted;
  GtkSingleSelection *selection;

  GtkLabel           *count_label;
  GtkSearchEntry     *search;
  GtkScrolledWindow  *scroller;
  GtkColumnView      *columns;
  GtkColumnViewColumn *cpu_column;
  GtkLabel           *detail_title;
  GtkListBox         *detail;
};

G_DEFINE_FINAL_TYPE (JvmsThreadStateTable, jvms_thread_state_table, GTK_TYPE_WIDGET)

static JvmsThreadStateItem *
item_of (GtkListItem *list_item)
{
  return JVMS_THREAD_STATE_ITEM (gtk_list_item_get_item (list_item));
}

/* Every cell is a label; @xalign 1 for numbers. */
static void
setup_label (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer xalign)
{
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (xalign) ? 1.0f : 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (GPOINTER_TO_INT (xalign))
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_name (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  const char *name = jvms_thread_state_item_get_name (item_of (list_item));
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), name);
  gtk_widget_set_tooltip_text (gtk_list_item_get_child (list_item), name);
}

static void
bind_cpu (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  JvmsThreadStateTable *self = user_data;
  g_autofree char *text = jvms_time_format_duration (jvms_thread_state_item_get_on_cpu (item_of (list_item)),
                                                     self->unit);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static int
compare_names (gconstpointer a, gconstpointer b, gpointer user_data)
{
  /* Bytes, not collation: ten thousand names sort in a frame. */
  int c = g_strcmp0 (jvms_thread_state_item_get_name ((JvmsThreadStateItem *) a),
                     jvms_thread_state_item_get_name ((JvmsThreadStateItem *) b));
  return c < 0 ? GTK_ORDERING_SMALLER : c > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

/* Ascending time on a CPU; equal times in the order of their names, so that the order does
 * not depend on the statistics' order. */
static int
compare_cpu (gconstpointer a, gconstpointer b, gpointer user_data)
{
  gint64 x = jvms_thread_state_item_get_on_cpu ((JvmsThreadStateItem *) a);
  gint64 y = jvms_thread_state_item_get_on_cpu ((JvmsThreadStateItem *) b);
  if (x != y)
    return x < y ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  return compare_names (b, a, NULL);
}

static gboolean
match_name (gpointer item, gpointer user_data)
{
  JvmsThreadStateTable *self = user_data;
  if (self->needle == NULL)
    return TRUE;
  g_autofree char *name = g_utf8_casefold (jvms_thread_state_item_get_name (item), -1);
  return strstr (name, self->needle) != NULL;
}

static void
update_count (JvmsThreadStateTable *self)
{
  guint all = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  guint listed = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  g_autofree char *text = NULL;
  if (listed == all)
    /* Translators: the count of threads the side panel lists. */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread, the most time on a CPU first",
                                         "%u threads, the most time on a CPU first", all), all);
  else
    /* Translators: threads whose names match the side panel's filter, of all. */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u thread", "%u of %u threads", all),
                            listed, all);
  gtk_label_set_text (self->count_label, text);
}

/* The selected thread's time in each state. */
static void
show_detail (JvmsThreadStateTable *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->detail))) != NULL)
    gtk_list_box_remove (self->detail, child);

  JvmsThreadStateItem *item = gtk_single_selection_get_selected_item (self->selection);
  gtk_widget_set_visible (GTK_WIDGET (self->detail), item != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->detail_title), item != NULL);
  if (item == NULL)
    return;
  gtk_label_set_text (self->detail_title, jvms_thread_state_item_get_name (item));
  for (guint i = 0; i < jvms_thread_state_item_get_n_rows (item); i++)
    {
      gtk_list_box_append (self->detail,
                           jvms_stat_row_widget_new (jvms_thread_state_item_get_row (item, i), self->unit));
    }
}

GtkWidget *
jvms_stat_row_widget_new (const JvmsStatRow *row, JvmsTimeUnit unit)
{
  g_autofree char *title = g_markup_escape_text (row->label ? row->label : row->key, -1);
  g_autofree char *value = jvms_stat_row_format_value (row, unit);
  GtkWidget *action = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (action), title);
  GtkWidget *label = gtk_label_new (value);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (action), label);
  return action;
}

static void
search_changed (JvmsThreadStateTable *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  g_clear_pointer (&self->needle, g_free);
  if (text != NULL && *text != '\0')
    self->needle = g_utf8_casefold (text, -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

void
jvms_thread_state_table_set_stats (JvmsThreadStateTable *self, const JvmsRangeStats *stats,
                                   JvmsTimeUnit unit)
{
  g_return_if_fail (JVMS_IS_THREAD_STATE_TABLE (self));

  self->unit = unit;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  /* The rows of one thread follow each other (range-stats writes them thread by thread). */
  JvmsThreadStateItem *item = NULL;
  for (guint i = 0; stats != NULL && i < stats->rows->len; i++)
    {
      const JvmsStatRow *row = g_ptr_array_index (stats->rows, i);
      if (g_strcmp0 (row->section, "thread-states") != 0)
        continue;
      if (item == NULL || g_strcmp0 (jvms_thread_state_item_get_name (item), row->subject) != 0)
        {
          item = jvms_thread_state_item_new (row->subject, stats->rows);
          g_ptr_array_add (items, item);
        }
      jvms_thread_state_item_add_row (item, i);
    }
  /* One change for the whole list: a splice, not an append per thread. */
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       items->pdata, items->len);
  gtk_single_selection_set_selected (self->selection, 0);
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0.0);
  update_count (self);
  show_detail (self);
}

guint
jvms_thread_state_table_get_n_threads (JvmsThreadStateTable *self)
{
  g_return_val_if_fail (JVMS_IS_THREAD_STATE_TABLE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->store));
}

static void
set_bounds (GKeyFile *key_file, const char *key, GtkWidget *widget)
{
  graphene_rect_t r;
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (widget));
  if (root == NULL || !gtk_widget_get_mapped (widget) || !gtk_widget_compute_bounds (widget, root, &r))
    return;
  int list[4] = { (int) r.origin.x, (int) r.origin.y, (int) r.size.width, (int) r.size.height };
  g_key_file_set_integer_list (key_file, "panel", key, list, 4);
}

static void
set_item (GKeyFile *key_file, const char *key, JvmsThreadStateItem *item)
{
  g_autofree char *text = item == NULL ? g_strdup ("")
    : g_strdup_printf ("%" G_GINT64_FORMAT " %s", jvms_thread_state_item_get_on_cpu (item),
                       jvms_thread_state_item_get_name (item));
  g_key_file_set_string (key_file, "panel", key, text);
}

void
jvms_thread_state_table_dump_state (JvmsThreadStateTable *self, GKeyFile *key_file)
{
  g_return_if_fail (JVMS_IS_THREAD_STATE_TABLE (self));

  GListModel *listed = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (listed);
  g_key_file_set_integer (key_file, "panel", "thread-states-threads",
                          (int) jvms_thread_state_table_get_n_threads (self));
  g_key_file_set_integer (key_file, "panel", "thread-states-listed", (int) n);
  g_key_file_set_string (key_file, "panel", "thread-states-count", gtk_label_get_text (self->count_label));
  g_autoptr(JvmsThreadStateItem) first = n > 0 ? g_list_model_get_item (listed, 0) : NULL;
  g_autoptr(JvmsThreadStateItem) last = n > 0 ? g_list_model_get_item (listed, n - 1) : NULL;
  set_item (key_file, "thread-states-first", first);
  set_item (key_file, "thread-states-last", last);
  guint selected = gtk_single_selection_get_selected (self->selection);
  g_key_file_set_integer (key_file, "panel", "thread-states-selected",
                          selected == GTK_INVALID_LIST_POSITION ? -1 : (int) selected);
  set_item (key_file, "thread-states-selected-item", gtk_single_selection_get_selected_item (self->selection));
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->scroller);
  int scroll[3] = { (int) gtk_adjustment_get_value (adj), (int) gtk_adjustment_get_page_size (adj),
                    (int) gtk_adjustment_get_upper (adj) };
  g_key_file_set_integer_list (key_file, "panel", "thread-states-scroll", scroll, 3);
  set_bounds (key_file, "thread-states-bounds", GTK_WIDGET (self->scroller));
  set_bounds (key_file, "thread-states-search-bounds", GTK_WIDGET (self->search));
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  g_key_file_set_boolean (key_file, "panel", "thread-states-search-focused",
                          focus != NULL && (focus == GTK_WIDGET (self->search)
                                            || gtk_widget_is_ancestor (focus, GTK_WIDGET (self->search))));
  /* The side panel's own scroller, which the list lies in: a test scrolls it into sight. */
  GtkWidget *outer = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  if (outer != NULL)
    set_bounds (key_file, "thread-states-panel-bounds", outer);
}

static GtkColumnViewColumn *
add_column (JvmsThreadStateTable *self, const char *title, gboolean number,
            GCallback bind, GtkSorter *sorter)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_label), GINT_TO_POINTER (number));
  g_signal_connect (factory, "bind", bind, self);
  GtkColumnViewColumn *column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (column, sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_append_column (self->columns, column);
  g_object_unref (sorter);
  g_object_unref (column);
  return column;
}

static void
jvms_thread_state_table_dispose (GObject *object)
{
  JvmsThreadStateTable *self = JVMS_THREAD_STATE_TABLE (object);
  /* The column view's columns go with it, which re-sorts the list: its items-changed must not
   * reach update_count, whose label is gone by then. */
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->needle, g_free);
  G_OBJECT_CLASS (jvms_thread_state_table_parent_class)->dispose (object);
}

static void
jvms_thread_state_table_class_init (JvmsThreadStateTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jvms_thread_state_table_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "jvms-thread-state-table");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
jvms_thread_state_table_init (JvmsThreadStateTable *self)
{
  GtkBoxLayout *layout = GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self)));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (layout, 6);

  GtkWidget *title = gtk_label_new (_("Time per Thread State"));
  gtk_label_set_xalign (GTK_LABEL (title), 0.0f);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_parent (title, GTK_WIDGET (self));

  self->count_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->count_label, 0.0f);
  gtk_label_set_wrap (self->count_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "dim-label");
  gtk_widget_set_parent (GTK_WIDGET (self->count_label), GTK_WIDGET (self));

  self->search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->search, "placeholder-text", _("Filter threads by name"), NULL);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (search_changed), self);
  gtk_widget_set_parent (GTK_WIDGET (self->search), GTK_WIDGET (self));

  /* Each model takes the one below it (and the filter): they live as long as the selection. */
  self->store = g_list_store_new (JVMS_TYPE_THREAD_STATE_ITEM);
  self->filter = gtk_custom_filter_new (match_name, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (self->store), GTK_FILTER (self->filter));
  self->columns = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->filtered),
                                          g_object_ref (gtk_column_view_get_sorter (self->columns)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sorted));
  gtk_single_selection_set_can_unselect (self->selection, FALSE);
  gtk_column_view_set_model (self->columns, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_set_show_row_separators (self->columns, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->columns), "data-table");
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (show_detail), self);
  g_signal_connect_swapped (self->selection, "items-changed", G_CALLBACK (update_count), self);

  GtkColumnViewColumn *name = add_column (self, _("Thread"), FALSE, G_CALLBACK (bind_name),
                                          GTK_SORTER (gtk_custom_sorter_new (compare_names, NULL, NULL)));
  gtk_column_view_column_set_expand (name, TRUE);
  self->cpu_column = add_column (self, _("On CPU"), TRUE, G_CALLBACK (bind_cpu),
                                 GTK_SORTER (gtk_custom_sorter_new (compare_cpu, NULL, NULL)));
  gtk_column_view_sort_by_column (self->columns, self->cpu_column, GTK_SORT_DESCENDING);

  self->scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_scrolled_window_set_policy (self->scroller, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (self->scroller, LIST_HEIGHT);
  gtk_scrolled_window_set_max_content_height (self->scroller, LIST_HEIGHT);
  gtk_scrolled_window_set_has_frame (self->scroller, TRUE);
  gtk_scrolled_window_set_child (self->scroller, GTK_WIDGET (self->columns));
  gtk_widget_set_parent (GTK_WIDGET (self->scroller), GTK_WIDGET (self));

  self->detail_title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->detail_title, 0.0f);
  gtk_label_set_ellipsize (self->detail_title, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->detail_title), "heading");
  gtk_widget_set_margin_top (GTK_WIDGET (self->detail_title), 6);
  gtk_widget_set_parent (GTK_WIDGET (self->detail_title), GTK_WIDGET (self));

  self->detail = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->detail, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->detail), "boxed-list");
  gtk_widget_set_parent (GTK_WIDGET (self->detail), GTK_WIDGET (self));

  update_count (self);
  show_detail (self);
}

GtkWidget *
jvms_thread_state_table_new (void)
{
  return g_object_new (JVMS_TYPE_THREAD_STATE_TABLE, NULL);
}
