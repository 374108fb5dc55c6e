/* jvms-explorer-pane.c: the Explorer pane (see the header). Queries run in workers and are
 * cancelled by the next change, as the profiler pane's are. */
#include "config.h"

#include "jvms-explorer-pane.h"

#include <glib/gi18n.h>
#include <math.h>

#include "jvms-explorer-query.h"
#include "jvms-explorer-row.h"
#include "jvms-record-sets.h"
#include "jvms-metric-graph.h"
#include "jvms-scatter-plot.h"
#include "jvms-time-format.h"

/* The statistics shown per metric, in the command line's order (docs/records.md). */
static const char *const stat_names[] = { "n", "sum", "min", "max", "mean", "stddev", "mean_delta" };

/* What a column's sorter and cells need: the pane (whose answer they read) and the column. */
typedef struct
{
  JvmsExplorerPane *pane;
  guint             column;
} ColumnData;

struct _JvmsExplorerPane
{
  GtkWidget           parent_instance;

  JvmsSession        *session;
  char               *sets_path;
  GCancellable       *cancellable;
  gboolean            pending;
  gboolean            stale;         /* a change came while the pane was hidden */
  JvmsExplorerAnswer *answer;        /* shown; NULL before the first */
  char               *error;         /* the last query's error, NULL when none */
  char               *columns_key;   /* the names of the columns shown, "\n"-joined */

  GListStore         *store;         /* JvmsExplorerRow, in the answer's order */
  GtkSortListModel   *sorted;
  GtkMultiSelection  *selection;

  /* Template children */
  GtkEntry           *filter_entry;
  GtkEntry           *metric_entry;
  GtkLabel           *scope_label;
  GtkLabel           *error_label;
  GtkColumnView      *column_view;
  GtkBox             *side_box;
  GtkLabel           *stats_title;
  GtkGrid            *stats_grid;
  GtkDropDown        *x_dropdown;
  GtkDropDown        *y_dropdown;
  GtkLabel           *correlation_label;
  JvmsScatterPlot    *scatter;
  GtkDropDown        *graph_dropdown;
  JvmsMetricGraph    *graph;

  GtkStringList      *metric_names;  /* the dropdowns' choices: the answer's metric columns */
  double              pearson;
  guint64             pairs;
};

enum
{
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (JvmsExplorerPane, jvms_explorer_pane, GTK_TYPE_WIDGET)

static void start_query (JvmsExplorerPane *self);

/* ---- cells ---------------------------------------------------------------------------------- */

/* A value as the table shows it: as `jvmscope-cli records` writes it, doubles to 6 digits. */
static char *
format_value (JvmsRecordTable *t, guint c, guint64 row)
{
  switch (jvms_record_table_get_kind (t, c))
    {
    case JVMS_RECORD_COLUMN_INT:
      {
        gint64 v = jvms_record_table_get_int (t, c, row);
        return v == JVMS_RECORD_NULL_INT ? g_strdup ("-") : g_strdup_printf ("%" G_GINT64_FORMAT, v);
      }
    case JVMS_RECORD_COLUMN_DOUBLE:
      {
        double v = jvms_record_table_get_number (t, c, row);
        return isnan (v) ? g_strdup ("-") : g_strdup_printf ("%.6g", v);
      }
    case JVMS_RECORD_COLUMN_STRING:
    default:
      {
        const char *v = jvms_record_table_get_string (t, c, row);
        return g_strdup (v != NULL ? v : "-");
      }
    }
}

static void
cell_setup (GtkSignalListItemFactory *factory, GtkListItem *item, ColumnData *data)
{
  GtkWidget *label = gtk_label_new (NULL);
  gboolean number = data->pane->answer != NULL
    && jvms_record_table_get_kind (data->pane->answer->table, data->column) != JVMS_RECORD_COLUMN_STRING;
  gtk_label_set_xalign (GTK_LABEL (label), number ? 1.0f : 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (number)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
cell_bind (GtkSignalListItemFactory *factory, GtkListItem *item, ColumnData *data)
{
  JvmsExplorerRow *row = gtk_list_item_get_item (item);
  JvmsExplorerAnswer *a = data->pane->answer;
  if (a == NULL || a->table == NULL || data->column >= jvms_record_table_get_n_columns (a->table))
    return;
  g_autofree char *text = format_value (a->table, data->column, jvms_explorer_row_get_row (row));
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

/* Missing values sort first, then numbers or strings in order, ties by row (the start order). */
static int
compare_rows (gconstpointer a, gconstpointer b, gpointer user_data)
{
  ColumnData *data = user_data;
  JvmsExplorerAnswer *answer = data->pane->answer;
  guint64 ra = jvms_explorer_row_get_row ((JvmsExplorerRow *) a);
  guint64 rb = jvms_explorer_row_get_row ((JvmsExplorerRow *) b);
  if (answer == NULL || answer->table == NULL)
    return 0;
  JvmsRecordTable *t = answer->table;
  int order = 0;
  if (jvms_record_table_get_kind (t, data->column) == JVMS_RECORD_COLUMN_STRING)
    {
      const char *sa = jvms_record_table_get_string (t, data->column, ra);
      const char *sb = jvms_record_table_get_string (t, data->column, rb);
      order = sa == NULL ? (sb == NULL ? 0 : -1) : sb == NULL ? 1 : g_utf8_collate (sa, sb);
    }
  else
    {
      double va = jvms_record_table_get_number (t, data->column, ra);
      double vb = jvms_record_table_get_number (t, data->column, rb);
      order = isnan (va) ? (isnan (vb) ? 0 : -1) : isnan (vb) ? 1 : (va > vb) - (va < vb);
    }
  return order != 0 ? order : (ra > rb) - (ra < rb);
}

/* The columns follow the answer's; kept (with the user's sort) when their names are the same. */
static void
set_columns (JvmsExplorerPane *self)
{
  JvmsRecordTable *t = self->answer->table;
  g_autoptr(GString) key = g_string_new (NULL);
  for (guint c = 0; c < jvms_record_table_get_n_columns (t); c++)
    g_string_append_printf (key, "%s\n", jvms_record_table_get_name (t, c));
  if (g_strcmp0 (key->str, self->columns_key) == 0)
    return;
  g_free (self->columns_key);
  self->columns_key = g_strdup (key->str);
  gtk_column_view_sort_by_column (self->column_view, NULL, GTK_SORT_ASCENDING);
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);
      gtk_column_view_remove_column (self->column_view, column);
    }
  for (guint c = 0; c < jvms_record_table_get_n_columns (t); c++)
    {
      ColumnData *data = g_new0 (ColumnData, 1);
      data->pane = self;
      data->column = c;
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), data);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), data);
      /* The factory owns the data: it goes with the column. */
      g_object_set_data_full (G_OBJECT (factory), "jvms-column", data, g_free);
      /* An estimated column says so in its title (its basis is in docs/records.md and in
       * the statistics' tooltip): its values are not what the recording measured. */
      const char *name = jvms_record_table_get_name (t, c);
      g_autofree char *title = jvms_record_table_get_basis (t, c) != NULL
                               /* Translators: the title of an estimated column of the Explorer's table. */
                               ? g_strdup_printf (_("≈ %s"), name) : g_strdup (name);
      g_autoptr(GtkColumnViewColumn) column = gtk_column_view_column_new (title, factory);
      g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, data, NULL));
      gtk_column_view_column_set_sorter (column, sorter);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (self->column_view, column);
    }
}

/* ---- statistics ----------------------------------------------------------------------------- */

static double
stat_value (const JvmsRecordStats *s, guint i)
{
  double v[] = { (double) s->n, s->sum, s->min, s->max, s->mean, s->stddev, s->mean_delta };
  return v[i];
}

static GtkWidget *
grid_label (GtkGrid *grid, const char *text, int col, int row, gboolean heading)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), col == 0 ? 0.0f : 1.0f);
  gtk_widget_add_css_class (label, heading ? "heading" : "numeric");
  gtk_grid_attach (grid, label, col, row, 1, 1);
  return label;
}

static void
show_stats (JvmsExplorerPane *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->stats_grid))) != NULL)
    gtk_grid_remove (self->stats_grid, child);
  JvmsExplorerAnswer *a = self->answer;
  guint n = a->rows->len;
  g_autofree char *title =
    /* Translators: the title of the Explorer's statistics; %u is the number of records. */
    g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Statistics of %u record", "Statistics of %u records", n), n);
  gtk_label_set_text (self->stats_title, title);
  grid_label (self->stats_grid, _("Metric"), 0, 0, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (stat_names); i++)
    grid_label (self->stats_grid, stat_names[i], (int) i + 1, 0, TRUE);
  int row = 1;
  for (guint c = 0; c < jvms_record_table_get_n_columns (a->table); c++)
    {
      if (!jvms_record_table_is_metric (a->table, c))
        continue;
      const char *name = jvms_record_table_get_name (a->table, c);
      const char *basis = jvms_record_table_get_basis (a->table, c);
      g_autofree char *metric_title = basis != NULL ? g_strdup_printf (_("≈ %s"), name) : g_strdup (name);
      GtkWidget *name_label = grid_label (self->stats_grid, metric_title, 0, row, FALSE);
      if (basis != NULL)
        gtk_widget_set_tooltip_text (name_label, basis);
      /* Durations read as times ("1.234 ms"), as everywhere else in the window; the count and
       * the other metrics as numbers. */
      gboolean is_time = g_strcmp0 (name, "duration") == 0;
      for (guint i = 0; i < G_N_ELEMENTS (stat_names); i++)
        {
          double v = stat_value (&a->stats[c], i);
          g_autofree char *text = isnan (v) ? g_strdup ("-")
                                  : is_time && i > 0 ? jvms_time_format_duration ((gint64) llround (v), JVMS_TIME_UNIT_AUTO)
                                  : g_strdup_printf ("%.6g", v);
          grid_label (self->stats_grid, text, (int) i + 1, row, FALSE);
        }
      row++;
    }
}

/* ---- scatter plot --------------------------------------------------------------------------- */

/* The column a dropdown chose, -1 when none. */
static int
chosen_column (JvmsExplorerPane *self, GtkDropDown *dropdown)
{
  guint i = gtk_drop_down_get_selected (dropdown);
  if (self->answer == NULL || i >= g_list_model_get_n_items (G_LIST_MODEL (self->metric_names)))
    return -1;
  return jvms_record_table_lookup (self->answer->table, gtk_string_list_get_string (self->metric_names, i));
}

static void
update_scatter (JvmsExplorerPane *self)
{
  int x = chosen_column (self, self->x_dropdown), y = chosen_column (self, self->y_dropdown);
  JvmsExplorerAnswer *a = self->answer;
  if (a == NULL || x < 0 || y < 0)
    {
      jvms_scatter_plot_set_points (self->scatter, NULL, NULL, 0);
      gtk_label_set_text (self->correlation_label, "");
      return;
    }
  guint n = a->rows->len;
  g_autofree double *xs = g_new (double, MAX (n, 1));
  g_autofree double *ys = g_new (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      guint64 row = g_array_index (a->rows, guint64, i);
      xs[i] = jvms_record_table_get_number (a->table, (guint) x, row);
      ys[i] = jvms_record_table_get_number (a->table, (guint) y, row);
    }
  jvms_scatter_plot_set_points (self->scatter, xs, ys, n);
  jvms_scatter_plot_set_labels (self->scatter, jvms_record_table_get_name (a->table, (guint) x),
                                jvms_record_table_get_name (a->table, (guint) y));
  /* The command line's --scatter X,Y over the same rows. */
  self->pearson = jvms_record_stats_pearson (a->table, (guint) x, (guint) y, (const guint64 *) a->rows->data,
                                             n, &self->pairs);
  g_autofree char *r = isnan (self->pearson) ? g_strdup ("-") : g_strdup_printf ("%.4f", self->pearson);
  g_autofree char *pairs = g_strdup_printf ("%" G_GUINT64_FORMAT, self->pairs);
  /* Translators: the scatter plot's Pearson correlation coefficient (%s) and its number of points (%s). */
  g_autofree char *text = g_strdup_printf (_("Pearson r = %s, n = %s"), r, pairs);
  gtk_label_set_text (self->correlation_label, text);
}

/* The metric graph: the chosen metric of the rows shown, over time. */
static void
update_graph (JvmsExplorerPane *self)
{
  JvmsExplorerAnswer *a = self->answer;
  int m = chosen_column (self, self->graph_dropdown);
  if (a == NULL || m < 0)
    {
      jvms_metric_graph_set_records (self->graph, NULL, NULL, NULL, NULL, 0, NULL);
      return;
    }
  JvmsRecordTable *t = a->table;
  int cs = jvms_record_table_lookup (t, "epoch_ns"), cd = jvms_record_table_lookup (t, "duration");
  int ct = jvms_record_table_lookup (t, "tid");
  guint n = a->rows->len;
  g_autofree gint64 *start = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *duration = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *tid = g_new (gint64, MAX (n, 1));
  g_autofree double *value = g_new (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      guint64 row = g_array_index (a->rows, guint64, i);
      start[i] = cs >= 0 ? jvms_record_table_get_int (t, (guint) cs, row) : G_MININT64;
      duration[i] = cd >= 0 ? jvms_record_table_get_int (t, (guint) cd, row) : 0;
      tid[i] = ct >= 0 ? jvms_record_table_get_int (t, (guint) ct, row) : 0;
      value[i] = jvms_record_table_get_number (t, (guint) m, row);
    }
  jvms_metric_graph_set_records (self->graph, start, duration, value, tid, n,
                                 jvms_record_table_get_name (t, (guint) m));
}

/* The answer's metrics in the dropdowns, each keeping its choice by name; at first the first
 * two metrics (the duration and the first counter). */
static void
fill_metric_choices (JvmsExplorerPane *self)
{
  GtkDropDown *drops[] = { self->x_dropdown, self->y_dropdown, self->graph_dropdown };
  GCallback follow[] = { G_CALLBACK (update_scatter), G_CALLBACK (update_scatter), G_CALLBACK (update_graph) };
  guint first[] = { 0, 1, 0 };
  g_autofree char *keep[3] = { NULL, NULL, NULL };
  for (guint d = 0; d < 3; d++)
    {
      guint i = gtk_drop_down_get_selected (drops[d]);
      if (i < g_list_model_get_n_items (G_LIST_MODEL (self->metric_names)))
        keep[d] = g_strdup (gtk_string_list_get_string (self->metric_names, i));
    }
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  JvmsRecordTable *t = self->answer->table;
  for (guint c = 0; c < jvms_record_table_get_n_columns (t); c++)
    if (jvms_record_table_is_metric (t, c))
      g_ptr_array_add (names, (gpointer) jvms_record_table_get_name (t, c));
  g_ptr_array_add (names, NULL);
  for (guint d = 0; d < 3; d++)
    g_signal_handlers_block_by_func (drops[d], follow[d], self);
  gtk_string_list_splice (self->metric_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->metric_names)),
                          (const char * const *) names->pdata);
  guint n = names->len - 1;
  for (guint d = 0; d < 3; d++)
    {
      guint choice = MIN (first[d], n > 0 ? n - 1 : 0);
      for (guint i = 0; keep[d] != NULL && i < n; i++)
        if (g_str_equal (names->pdata[i], keep[d]))
          choice = i;
      gtk_drop_down_set_selected (drops[d], n > 0 ? choice : GTK_INVALID_LIST_POSITION);
      g_signal_handlers_unblock_by_func (drops[d], follow[d], self);
    }
}

/* The records in the rectangle dragged on the scatter plot are selected in the table. */
static void
scatter_selected (JvmsExplorerPane *self, double x0, double x1, double y0, double y1)
{
  GtkSelectionModel *model = GTK_SELECTION_MODEL (self->selection);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_autoptr(GtkBitset) selected = gtk_bitset_new_empty ();
  int x = chosen_column (self, self->x_dropdown), y = chosen_column (self, self->y_dropdown);
  if (!isnan (x0) && x >= 0 && y >= 0)
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(JvmsExplorerRow) item = g_list_model_get_item (G_LIST_MODEL (model), i);
        guint64 row = jvms_explorer_row_get_row (item);
        double vx = jvms_record_table_get_number (self->answer->table, (guint) x, row);
        double vy = jvms_record_table_get_number (self->answer->table, (guint) y, row);
        if (vx >= x0 && vx <= x1 && vy >= y0 && vy <= y1)
          gtk_bitset_add (selected, i);
      }
  g_autoptr(GtkBitset) all = gtk_bitset_new_range (0, n);
  gtk_selection_model_set_selection (model, selected, all);
}

/* ---- queries -------------------------------------------------------------------------------- */

static void
notify_busy (JvmsExplorerPane *self, gboolean was)
{
  if (was != self->pending)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
update_scope (JvmsExplorerPane *self)
{
  JvmsExplorerAnswer *a = self->answer;
  g_autofree char *text = NULL;
  if (self->pending)
    text = g_strdup (_("Reading records…"));
  else if (a == NULL || a->rows == NULL)
    text = g_strdup ("");
  else
    {
      g_autofree char *total = g_strdup_printf ("%" G_GUINT64_FORMAT, jvms_record_table_get_n_rows (a->table));
      gboolean range = a->from != G_MININT64;
      /* Translators: %u and %s are numbers of scheduling quanta; the first is after the filter. */
      text = g_strdup_printf (range ? _("%u of %s quanta in the selection") : _("%u of %s quanta in the trace"),
                              a->rows->len, total);
    }
  gtk_label_set_text (self->scope_label, text);
}

static void
show_error (JvmsExplorerPane *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), self->error != NULL);
  gtk_label_set_text (self->error_label, self->error != NULL ? self->error : "");
}

static void
query_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(JvmsExplorerPane) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsExplorerAnswer) answer = jvms_explorer_query_finish (result, &error);
  if (answer == NULL)
    return; /* cancelled: the next query is under way */
  gboolean was = self->pending;
  self->pending = FALSE;
  g_clear_pointer (&self->error, g_free);
  gtk_widget_remove_css_class (GTK_WIDGET (self->filter_entry), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->metric_entry), "error");
  if (answer->error != NULL)
    {
      /* The records shown stay; the entry at fault says so. */
      self->error = g_strdup (answer->error);
      gtk_widget_add_css_class (GTK_WIDGET (answer->error_in_filter ? self->filter_entry : self->metric_entry),
                                "error");
    }
  else
    {
      /* The old rows go before the answer they read does. */
      g_list_store_remove_all (self->store);
      g_clear_pointer (&self->answer, jvms_explorer_answer_free);
      self->answer = g_steal_pointer (&answer);
      set_columns (self);
      guint n = self->answer->rows->len;
      g_autofree gpointer *items = g_new (gpointer, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        items[i] = jvms_explorer_row_new (g_array_index (self->answer->rows, guint64, i));
      g_list_store_splice (self->store, 0, 0, items, n);
      for (guint i = 0; i < n; i++)
        g_object_unref (items[i]);
      show_stats (self);
      fill_metric_choices (self);
      update_scatter (self);
      update_graph (self);
    }
  show_error (self);
  update_scope (self);
  notify_busy (self, was);
}

/* The range a query covers: the selection, or the whole trace as the command line's default. */
static void
query_range (JvmsExplorerPane *self, gint64 *from, gint64 *to)
{
  if (!jvms_session_get_selection (self->session, from, to))
    {
      *from = G_MININT64;
      *to = G_MAXINT64;
    }
}

static void
start_query (JvmsExplorerPane *self)
{
  gboolean was = self->pending;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->pending = FALSE;
  JvmsHistory *history = self->session != NULL ? jvms_session_get_history (self->session) : NULL;
  if (history == NULL)
    {
      update_scope (self);
      notify_busy (self, was);
      return;
    }
  /* A hidden pane reads nothing: it does when it is shown. */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      notify_busy (self, was);
      return;
    }
  self->stale = FALSE;
  gint64 from, to;
  query_range (self, &from, &to);
  self->cancellable = g_cancellable_new ();
  self->pending = TRUE;
  jvms_explorer_query_async (history, self->sets_path, from, to,
                             gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)),
                             gtk_editable_get_text (GTK_EDITABLE (self->metric_entry)),
                             self->cancellable, query_done, g_object_ref (self));
  update_scope (self);
  notify_busy (self, was);
}

static void
on_map (JvmsExplorerPane *self)
{
  if (self->stale)
    start_query (self);
}

static void
history_replaced (JvmsExplorerPane *self)
{
  /* Another trace: nothing of the last one stays. */
  g_list_store_remove_all (self->store);
  g_clear_pointer (&self->answer, jvms_explorer_answer_free);
  g_clear_pointer (&self->columns_key, g_free);
  start_query (self);
}

/* ---- API ------------------------------------------------------------------------------------ */

void
jvms_explorer_pane_set_session (JvmsExplorerPane *self, JvmsSession *session)
{
  g_return_if_fail (JVMS_IS_EXPLORER_PANE (self));
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  jvms_metric_graph_set_session (self->graph, session);
  if (session != NULL)
    {
      static const char *const follow[] = {
        "notify::selection-start", "notify::selection-end", "notify::has-selection",
      };
      for (guint i = 0; i < G_N_ELEMENTS (follow); i++)
        g_signal_connect_object (session, follow[i], G_CALLBACK (start_query), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::history", G_CALLBACK (history_replaced), self,
                               G_CONNECT_SWAPPED);
    }
  start_query (self);
}

void
jvms_explorer_pane_set_index_path (JvmsExplorerPane *self, const char *index_path)
{
  g_return_if_fail (JVMS_IS_EXPLORER_PANE (self));
  g_free (self->sets_path);
  self->sets_path = index_path != NULL ? jvms_record_sets_path_for_index (index_path) : NULL;
  start_query (self);
}

gboolean
jvms_explorer_pane_get_busy (JvmsExplorerPane *self)
{
  g_return_val_if_fail (JVMS_IS_EXPLORER_PANE (self), FALSE);
  return self->pending;
}

void
jvms_explorer_pane_focus_filter (JvmsExplorerPane *self)
{
  g_return_if_fail (JVMS_IS_EXPLORER_PANE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->filter_entry));
}

static gboolean
window_bounds (GtkWidget *widget, int out[4])
{
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (widget));
  graphene_rect_t r;
  if (root == NULL || !gtk_widget_get_mapped (widget) || !gtk_widget_compute_bounds (widget, root, &r))
    return FALSE;
  out[0] = (int) r.origin.x;
  out[1] = (int) r.origin.y;
  out[2] = (int) r.size.width;
  out[3] = (int) r.size.height;
  return TRUE;
}

static void
dump_bounds (GKeyFile *kf, const char *g, const char *key, GtkWidget *widget)
{
  int b[4];
  if (window_bounds (widget, b))
    g_key_file_set_integer_list (kf, g, key, b, 4);
}

/* A record as tests name it: its start (epoch ns) and thread. */
static char *
record_key (JvmsRecordTable *t, guint64 row)
{
  gint64 start = jvms_record_table_get_int (t, (guint) jvms_record_table_lookup (t, "epoch_ns"), row);
  gint64 tid = jvms_record_table_get_int (t, (guint) jvms_record_table_lookup (t, "tid"), row);
  return g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, start, tid);
}

void
jvms_explorer_pane_dump_state (JvmsExplorerPane *self, GKeyFile *kf)
{
  g_return_if_fail (JVMS_IS_EXPLORER_PANE (self));
  const char *g = "explorer";
  g_key_file_set_boolean (kf, g, "shown", gtk_widget_get_mapped (GTK_WIDGET (self)));
  g_key_file_set_boolean (kf, g, "busy", self->pending);
  g_key_file_set_string (kf, g, "filter-text", gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
  g_key_file_set_string (kf, g, "metric-text", gtk_editable_get_text (GTK_EDITABLE (self->metric_entry)));
  g_key_file_set_string (kf, g, "error", self->error != NULL ? self->error : "");
  g_key_file_set_boolean (kf, g, "error-shown", gtk_widget_get_mapped (GTK_WIDGET (self->error_label)));
  g_key_file_set_string (kf, g, "scope", gtk_label_get_text (self->scope_label));
  dump_bounds (kf, g, "filter-bounds", GTK_WIDGET (self->filter_entry));
  dump_bounds (kf, g, "metric-bounds", GTK_WIDGET (self->metric_entry));
  dump_bounds (kf, g, "table-bounds", GTK_WIDGET (self->column_view));
  JvmsExplorerAnswer *a = self->answer;
  if (a == NULL || a->table == NULL)
    return;
  JvmsRecordTable *t = a->table;
  g_key_file_set_int64 (kf, g, "trace-start", jvms_session_get_start_time (self->session));
  g_key_file_set_int64 (kf, g, "from", a->from);
  g_key_file_set_int64 (kf, g, "to", a->to);
  g_key_file_set_string (kf, g, "filter", a->filter);
  g_key_file_set_string (kf, g, "metrics", a->metrics);
  g_key_file_set_uint64 (kf, g, "records", jvms_record_table_get_n_rows (t));
  g_key_file_set_uint64 (kf, g, "rows", g_list_model_get_n_items (G_LIST_MODEL (self->selection)));
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  for (guint c = 0; c < jvms_record_table_get_n_columns (t); c++)
    g_ptr_array_add (names, (gpointer) jvms_record_table_get_name (t, c));
  g_key_file_set_string_list (kf, g, "columns", (const char * const *) names->pdata, names->len);
  /* The statistics to the last bit, as --json writes them: "n;sum;min;max;mean;stddev;mean_delta". */
  for (guint c = 0; c < jvms_record_table_get_n_columns (t); c++)
    {
      if (!jvms_record_table_is_metric (t, c))
        continue;
      g_autoptr(GString) s = g_string_new (NULL);
      for (guint i = 0; i < G_N_ELEMENTS (stat_names); i++)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          double v = stat_value (&a->stats[c], i);
          g_string_append_printf (s, "%s%s", i > 0 ? ";" : "",
                                  isnan (v) ? "null" : g_ascii_formatd (buf, sizeof buf, "%.17g", v));
        }
      g_autofree char *key = g_strconcat ("stats-", jvms_record_table_get_name (t, c), NULL);
      g_key_file_set_string (kf, g, key, s->str);
    }
  /* The first rows in the table's order, and the selected ones. */
  GListModel *shown = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (shown);
  g_autoptr(GPtrArray) first = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) selected = g_ptr_array_new_with_free_func (g_free);
  guint n_selected = 0;
  for (guint i = 0; i < n; i++)
    {
      gboolean is_selected = gtk_selection_model_is_selected (GTK_SELECTION_MODEL (self->selection), i);
      n_selected += is_selected;
      if (i >= 200 && (!is_selected || selected->len >= 200))
        continue;
      g_autoptr(JvmsExplorerRow) row = g_list_model_get_item (shown, i);
      if (i < 200)
        g_ptr_array_add (first, record_key (t, jvms_explorer_row_get_row (row)));
      if (is_selected && selected->len < 200)
        g_ptr_array_add (selected, record_key (t, jvms_explorer_row_get_row (row)));
    }
  g_key_file_set_string_list (kf, g, "first-rows", (const char * const *) first->pdata, first->len);
  g_key_file_set_uint64 (kf, g, "selected", n_selected);
  g_key_file_set_string_list (kf, g, "selected-rows", (const char * const *) selected->pdata, selected->len);
  /* Where the headers are, for a click that sorts. */
  g_autoptr(GPtrArray) headers = g_ptr_array_new_with_free_func (g_free);
  int tb[4];
  if (window_bounds (GTK_WIDGET (self->column_view), tb))
    {
      /* The header row is the column view's first child; its children are the headers. */
      GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
      guint c = 0;
      for (GtkWidget *h = header != NULL ? gtk_widget_get_first_child (header) : NULL; h != NULL;
           h = gtk_widget_get_next_sibling (h), c++)
        {
          int b[4];
          if (c < names->len && window_bounds (h, b))
            g_ptr_array_add (headers, g_strdup_printf ("%s|%d|%d|%d|%d", (const char *) names->pdata[c],
                                                       b[0], b[1], b[2], b[3]));
        }
    }
  g_key_file_set_string_list (kf, g, "headers", (const char * const *) headers->pdata, headers->len);

  /* The scatter plot: its metrics, correlation, points, pixels marked, where its plot area is
   * (window coordinates), the data range it spans and the rectangle selected (data). */
  int x = chosen_column (self, self->x_dropdown), y = chosen_column (self, self->y_dropdown);
  g_key_file_set_string (kf, g, "scatter-x", x >= 0 ? jvms_record_table_get_name (t, (guint) x) : "");
  g_key_file_set_string (kf, g, "scatter-y", y >= 0 ? jvms_record_table_get_name (t, (guint) y) : "");
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_key_file_set_string (kf, g, "pearson", isnan (self->pearson) ? "null"
                         : g_ascii_formatd (buf, sizeof buf, "%.17g", self->pearson));
  g_key_file_set_uint64 (kf, g, "pairs", self->pairs);
  g_key_file_set_string (kf, g, "correlation-text", gtk_label_get_text (self->correlation_label));
  g_key_file_set_uint64 (kf, g, "scatter-points", jvms_scatter_plot_get_n_points (self->scatter));
  int gm = chosen_column (self, self->graph_dropdown);
  g_key_file_set_string (kf, g, "graph-metric", gm >= 0 ? jvms_record_table_get_name (t, (guint) gm) : "");
  g_key_file_set_uint64 (kf, g, "graph-drawn", jvms_metric_graph_get_n_drawn (self->graph));
  g_key_file_set_uint64 (kf, g, "scatter-marked", jvms_scatter_plot_get_n_marked (self->scatter));
  int area[4];
  graphene_point_t p;
  jvms_scatter_plot_get_area (self->scatter, area);
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (self)));
  if (root != NULL && gtk_widget_get_mapped (GTK_WIDGET (self->scatter))
      && gtk_widget_compute_point (GTK_WIDGET (self->scatter), root, &GRAPHENE_POINT_INIT (area[0], area[1]), &p))
    {
      int shown_area[4] = { (int) p.x, (int) p.y, area[2], area[3] };
      g_key_file_set_integer_list (kf, g, "scatter-area", shown_area, 4);
    }
  double range[4], rect[4];
  if (jvms_scatter_plot_get_range (self->scatter, range))
    g_key_file_set_double_list (kf, g, "scatter-range", range, 4);
  if (jvms_scatter_plot_get_selection (self->scatter, rect))
    {
      g_autoptr(GString) sel = g_string_new (NULL);
      for (guint i = 0; i < 4; i++)
        g_string_append_printf (sel, "%s%s", i > 0 ? ";" : "", g_ascii_formatd (buf, sizeof buf, "%.17g", rect[i]));
      g_key_file_set_string (kf, g, "scatter-selection", sel->str);
    }
  else
    g_key_file_set_string (kf, g, "scatter-selection", "");
}

/* ---- GObject -------------------------------------------------------------------------------- */

static void
entry_activated (JvmsExplorerPane *self)
{
  start_query (self);
}

static void
jvms_explorer_pane_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsExplorerPane *self = JVMS_EXPLORER_PANE (object);
  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->pending);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_explorer_pane_dispose (GObject *object)
{
  JvmsExplorerPane *self = JVMS_EXPLORER_PANE (object);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), JVMS_TYPE_EXPLORER_PANE);
  /* A template child without an id is left by gtk_widget_dispose_template(): a widget must
   * unparent its children before it is finalized (GTK warns "still has children left"). */
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);
  g_clear_object (&self->metric_names);
  G_OBJECT_CLASS (jvms_explorer_pane_parent_class)->dispose (object);
}

static void
jvms_explorer_pane_finalize (GObject *object)
{
  JvmsExplorerPane *self = JVMS_EXPLORER_PANE (object);
  g_clear_pointer (&self->answer, jvms_explorer_answer_free);
  g_free (self->error);
  g_free (self->columns_key);
  g_free (self->sets_path);
  G_OBJECT_CLASS (jvms_explorer_pane_parent_class)->finalize (object);
}

static void
jvms_explorer_pane_class_init (JvmsExplorerPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->get_property = jvms_explorer_pane_get_property;
  object_class->dispose = jvms_explorer_pane_dispose;
  object_class->finalize = jvms_explorer_pane_finalize;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/jvmscope/Jvmscope/jvms-explorer-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, metric_entry);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, scope_label);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, error_label);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, column_view);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, side_box);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, stats_title);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, stats_grid);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, x_dropdown);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, y_dropdown);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, correlation_label);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, scatter);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, graph_dropdown);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, graph);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
jvms_explorer_pane_init (JvmsExplorerPane *self)
{
  g_type_ensure (JVMS_TYPE_SCATTER_PLOT);
  g_type_ensure (JVMS_TYPE_METRIC_GRAPH);
  gtk_widget_init_template (GTK_WIDGET (self));
  self->pearson = NAN;
  self->metric_names = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->x_dropdown, G_LIST_MODEL (self->metric_names));
  gtk_drop_down_set_model (self->y_dropdown, G_LIST_MODEL (self->metric_names));
  gtk_drop_down_set_model (self->graph_dropdown, G_LIST_MODEL (self->metric_names));
  g_signal_connect_object (self->graph_dropdown, "notify::selected", G_CALLBACK (update_graph), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->x_dropdown, "notify::selected", G_CALLBACK (update_scatter), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->y_dropdown, "notify::selected", G_CALLBACK (update_scatter), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->scatter, "selected", G_CALLBACK (scatter_selected), self, G_CONNECT_SWAPPED);
  self->store = g_list_store_new (JVMS_TYPE_EXPLORER_ROW);
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                          sorter != NULL ? g_object_ref (sorter) : NULL);
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->filter_entry, "activate", G_CALLBACK (entry_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->metric_entry, "activate", G_CALLBACK (entry_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}
