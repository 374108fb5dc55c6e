/* jvms-explorer-pane.c: the Explorer pane (see the header). Queries run in workers and are
 * cancelled by the next change, as the profiler pane's are. */
#include "config.h"

#include "jvms-explorer-pane.h"

#include <glib/gi18n.h>
#include <math.h>

#include "jvms-explorer-query.h"
#include "jvms-explorer-row.h"
#include "jvms-explorer-rows.h"
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
  char               *events_path;
  GCancellable       *cancellable;
  gboolean            pending;
  gboolean            stale;         /* a change came while the pane was hidden */
  JvmsExplorerAnswer *answer;        /* shown; NULL before the first */
  char               *error;         /* the last query's error, NULL when none */
  char               *columns_key;   /* the names of the columns shown, "\n"-joined */

  JvmsExplorerRows   *rows;          /* the answer's rows, made into items on demand */
  GtkMultiSelection  *selection;
  int                 sort_column;   /* the table's sort (the column view's sorter): -1 none */
  gboolean            sort_descending;
  gboolean            probing;       /* the column view's sorter is asked which column it sorts by */
  int                 probed_column;

  /* The records the last query read (before metrics), kept for the next query of the same
   * source and range: a filter, a metric, a set of the same source do not read them again. */
  JvmsRecordTable    *cache;
  char               *cache_source;
  gint64              cache_from, cache_to;
  guint               reads;         /* the answers that read their records (not shared) */

  /* A selection the pane made itself (a click on the graph): the pane does not read again. */
  gboolean            own_selection;
  gint64              own_from, own_to;

  /* Template children */
  GtkEntry           *set_entry;
  GtkDropDown        *set_dropdown;
  GtkEntry           *name_entry;
  GtkButton          *save_button;
  GtkButton          *delete_button;
  GtkEntry           *markers_entry;
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
  GtkDropDown        *colour_dropdown;  /* the threads view's quanta: the session's quantum-colour */
  GtkDropDown        *shade_dropdown;   /* and quantum-shade */
  GtkStringList      *shade_names;
  JvmsMetricGraph    *graph;

  GtkStringList      *metric_names;  /* the dropdowns' choices: the answer's metric columns */
  GtkStringList      *set_choices;   /* quanta, the saved sets, events:TYPE per type */
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
static void set_chosen (JvmsExplorerPane *self);
static void fill_set_choices (JvmsExplorerPane *self, GStrv saved, GStrv types);

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
compare_in_column (JvmsRecordTable *t, guint column, guint64 ra, guint64 rb)
{
  int order = 0;
  if (jvms_record_table_get_kind (t, column) == JVMS_RECORD_COLUMN_STRING)
    {
      const char *sa = jvms_record_table_get_string (t, column, ra);
      const char *sb = jvms_record_table_get_string (t, column, rb);
      order = sa == NULL ? (sb == NULL ? 0 : -1) : sb == NULL ? 1 : g_utf8_collate (sa, sb);
    }
  else
    {
      double va = jvms_record_table_get_number (t, column, ra);
      double vb = jvms_record_table_get_number (t, column, rb);
      order = isnan (va) ? (isnan (vb) ? 0 : -1) : isnan (vb) ? 1 : (va > vb) - (va < vb);
    }
  return order != 0 ? order : (ra > rb) - (ra < rb);
}

/* The model's order (jvms_explorer_rows_sort): two table rows. */
static int
compare_table_rows (gconstpointer a, gconstpointer b, gpointer user_data)
{
  JvmsExplorerPane *self = user_data;
  int order = compare_in_column (self->answer->table, (guint) self->sort_column, *(const guint64 *) a,
                                 *(const guint64 *) b);
  return self->sort_descending ? -order : order;
}

/* A column's sorter, as the column view's sorter calls it. The table sorts itself (its model
 * holds no item per row to sort): this only answers the question "which column, which way?"
 * (sorter_changed), as GTK 4.8 has no getter for the column view's sort column. */
static int
compare_rows (gconstpointer a, gconstpointer b, gpointer user_data)
{
  ColumnData *data = user_data;
  if (data->pane->probing && data->pane->probed_column < 0)
    data->pane->probed_column = (int) data->column;
  return -1;
}

static void
apply_sort (JvmsExplorerPane *self)
{
  gboolean sort = self->answer != NULL && self->answer->table != NULL && self->sort_column >= 0
                  && (guint) self->sort_column < jvms_record_table_get_n_columns (self->answer->table);
  jvms_explorer_rows_sort (self->rows, sort ? compare_table_rows : NULL, self);
}

/* A click on a header: which column the column view sorts by first and which way. Its sorter
 * compares two rows with the columns' sorters in turn, the first (compare_rows) answers "less",
 * and the sorter inverts it for a descending column. */
static void
sorter_changed (JvmsExplorerPane *self)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);
  self->sort_column = -1;
  self->sort_descending = FALSE;
  if (sorter != NULL)
    {
      g_autoptr(JvmsExplorerRow) a = jvms_explorer_row_new (0);
      g_autoptr(JvmsExplorerRow) b = jvms_explorer_row_new (1);
      self->probing = TRUE;
      self->probed_column = -1;
      GtkOrdering o = gtk_sorter_compare (sorter, a, b);
      self->probing = FALSE;
      self->sort_column = self->probed_column;
      self->sort_descending = o == GTK_ORDERING_LARGER;
    }
  apply_sort (self);
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
      jvms_metric_graph_set_records (self->graph, NULL, NULL, NULL, NULL, NULL, 0, NULL);
      return;
    }
  JvmsRecordTable *t = a->table;
  int cs = jvms_record_table_lookup (t, "epoch_ns"), cd = jvms_record_table_lookup (t, "duration");
  int ct = jvms_record_table_lookup (t, "tid");
  guint n = a->rows->len;
  g_autofree gint64 *start = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *duration = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *tid = g_new (gint64, MAX (n, 1));
  g_autofree guint64 *key = g_new (guint64, MAX (n, 1));
  g_autofree double *value = g_new (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      guint64 row = g_array_index (a->rows, guint64, i);
      key[i] = row;
      start[i] = cs >= 0 ? jvms_record_table_get_int (t, (guint) cs, row) : G_MININT64;
      duration[i] = cd >= 0 ? jvms_record_table_get_int (t, (guint) cd, row) : 0;
      tid[i] = ct >= 0 ? jvms_record_table_get_int (t, (guint) ct, row) : 0;
      value[i] = jvms_record_table_get_number (t, (guint) m, row);
    }
  jvms_metric_graph_set_records (self->graph, start, duration, value, tid, key, n,
                                 jvms_record_table_get_name (t, (guint) m));
}

/* The nicks of the session's quantum-colour, in the colour drop-down's order. */
static const char * const colour_nicks[] = { "state", "cpu", "thread" };

static void
colour_chosen (JvmsExplorerPane *self)
{
  guint i = gtk_drop_down_get_selected (self->colour_dropdown);
  if (self->session != NULL && i < G_N_ELEMENTS (colour_nicks))
    jvms_session_set_quantum_colour (self->session, colour_nicks[i]);
}

static void
shade_chosen (JvmsExplorerPane *self)
{
  guint i = gtk_drop_down_get_selected (self->shade_dropdown);
  if (self->session != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->shade_names)))
    jvms_session_set_quantum_shade (self->session, i == 0 ? NULL : gtk_string_list_get_string (self->shade_names, i));
}

/* The shades the records allow: none, each counter (read at switches or sampled), and IPC and
 * the miss ratio where their counters are there; the choice kept by name. */
static void
fill_shade_choices (JvmsExplorerPane *self)
{
  JvmsRecordTable *t = self->answer->table;
  const char *shade = self->session != NULL ? jvms_session_get_quantum_shade (self->session) : NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_ptr_array_add (names, (gpointer) _("No shade"));
  for (guint c = 0; c < jvms_record_table_get_n_columns (t); c++)
    if (jvms_record_table_get_exact (t, c) != NULL || jvms_record_table_get_basis (t, c) != NULL)
      g_ptr_array_add (names, (gpointer) jvms_record_table_get_name (t, c));
  if (jvms_record_table_lookup (t, "instructions") >= 0 && jvms_record_table_lookup (t, "cycles") >= 0)
    g_ptr_array_add (names, (gpointer) "ipc");
  if (jvms_record_table_lookup (t, "cache-misses") >= 0 && jvms_record_table_lookup (t, "cache-references") >= 0)
    g_ptr_array_add (names, (gpointer) "miss-ratio");
  guint choice = 0;
  for (guint i = 1; shade != NULL && i < names->len; i++)
    if (g_str_equal (names->pdata[i], shade))
      choice = i;
  g_ptr_array_add (names, NULL);
  g_signal_handlers_block_by_func (self->shade_dropdown, shade_chosen, self);
  gtk_string_list_splice (self->shade_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->shade_names)),
                          (const char * const *) names->pdata);
  gtk_drop_down_set_selected (self->shade_dropdown, choice);
  g_signal_handlers_unblock_by_func (self->shade_dropdown, shade_chosen, self);
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
        guint64 row = jvms_explorer_rows_get_row (self->rows, i);
        double vx = jvms_record_table_get_number (self->answer->table, (guint) x, row);
        double vy = jvms_record_table_get_number (self->answer->table, (guint) y, row);
        if (vx >= x0 && vx <= x1 && vy >= y0 && vy <= y1)
          gtk_bitset_add (selected, i);
      }
  g_autoptr(GtkBitset) all = gtk_bitset_new_range (0, n);
  gtk_selection_model_set_selection (model, selected, all);
}

/* ---- sets ----------------------------------------------------------------------------------- */

/* The set chooser: the quanta, the saved sets, then the events of each type. */
static void
fill_set_choices (JvmsExplorerPane *self, GStrv saved, GStrv types)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_ptr_array_add (names, (gpointer) "quanta");
  for (guint i = 0; saved != NULL && saved[i] != NULL; i++)
    g_ptr_array_add (names, saved[i]);
  for (guint i = 0; types != NULL && types[i] != NULL; i++)
    g_ptr_array_add (names, types[i]);
  /* Unchanged: the list (and the user's place in it) stays. */
  GListModel *model = G_LIST_MODEL (self->set_choices);
  gboolean same = g_list_model_get_n_items (model) == names->len;
  for (guint i = 0; same && i < names->len; i++)
    same = g_str_equal (gtk_string_list_get_string (self->set_choices, i), names->pdata[i]);
  if (same)
    return;
  g_ptr_array_add (names, NULL);
  g_signal_handlers_block_by_func (self->set_dropdown, set_chosen, self);
  gtk_string_list_splice (self->set_choices, 0, g_list_model_get_n_items (model), (const char * const *) names->pdata);
  gtk_drop_down_set_selected (self->set_dropdown, GTK_INVALID_LIST_POSITION);
  g_signal_handlers_unblock_by_func (self->set_dropdown, set_chosen, self);
}

/* A choice in the set chooser becomes the Set entry's text, applied. */
static void
set_chosen (JvmsExplorerPane *self)
{
  guint i = gtk_drop_down_get_selected (self->set_dropdown);
  if (i >= g_list_model_get_n_items (G_LIST_MODEL (self->set_choices)))
    return;
  gtk_editable_set_text (GTK_EDITABLE (self->set_entry), gtk_string_list_get_string (self->set_choices, i));
  start_query (self);
}

static void show_error (JvmsExplorerPane *self);

static void
set_message (JvmsExplorerPane *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  show_error (self);
}

/* Saves the set shown (the Set entry, the filter and the metrics as last applied) under the
 * name, as `jvmscope-cli records --set ... --filter ... --metric ... --save NAME`. */
static void
save_clicked (JvmsExplorerPane *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  g_autoptr(GError) error = NULL;
  if (self->sets_path == NULL)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("The trace's index is not complete yet"));
  else if (self->answer == NULL)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("No records are shown to save"));
  else
    jvms_explorer_save_set (self->sets_path, name, self->answer->set, self->answer->filter, self->answer->metrics,
                            &error);
  if (error != NULL)
    {
      set_message (self, error->message);
      gtk_widget_add_css_class (GTK_WIDGET (self->name_entry), "error");
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->name_entry), "error");
  start_query (self); /* lists the set in the chooser */
}

static void
delete_clicked (JvmsExplorerPane *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  g_autoptr(GError) error = NULL;
  if (self->sets_path == NULL)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("The trace's index is not complete yet"));
  else
    jvms_explorer_delete_set (self->sets_path, name, &error);
  if (error != NULL)
    {
      set_message (self, error->message);
      gtk_widget_add_css_class (GTK_WIDGET (self->name_entry), "error");
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->name_entry), "error");
  start_query (self);
}

/* ---- links between the graph, the table and the other views --------------------------------- */

/* The table's selection is drawn in the graph. */
static void
table_selection_changed (JvmsExplorerPane *self)
{
  g_autoptr(GtkBitset) positions = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  g_autoptr(GtkBitset) keys = gtk_bitset_new_empty ();
  GtkBitsetIter iter;
  guint pos;
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, positions, &pos); ok; ok = gtk_bitset_iter_next (&iter, &pos))
    {
      guint64 row = jvms_explorer_rows_get_row (self->rows, pos);
      if (row <= G_MAXUINT)
        gtk_bitset_add (keys, (guint) row);
    }
  jvms_metric_graph_set_selected (self->graph, gtk_bitset_is_empty (keys) ? NULL : keys);
}

/* The list view inside the column view, which scrolls to an item (GTK 4.8 has no
 * gtk_column_view_scroll_to ()). */
static GtkWidget *
inner_list_view (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      return c;
  return NULL;
}

/* A record clicked in the graph: selected in the table (shown there) and its interval selected on
 * the shared time axis, which the other views follow. */
static void
graph_record_clicked (JvmsExplorerPane *self, guint64 row)
{
  guint pos = jvms_explorer_rows_find (self->rows, row);
  if (self->answer == NULL || pos == G_MAXUINT)
    return;
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), pos, TRUE);
  GtkWidget *list = inner_list_view (GTK_WIDGET (self->column_view));
  if (list != NULL)
    gtk_widget_activate_action (list, "list.scroll-to-item", "u", pos);
  JvmsRecordTable *t = self->answer->table;
  int cs = jvms_record_table_lookup (t, "epoch_ns"), cd = jvms_record_table_lookup (t, "duration");
  gint64 start = cs >= 0 ? jvms_record_table_get_int (t, (guint) cs, row) : JVMS_RECORD_NULL_INT;
  gint64 d = cd >= 0 ? jvms_record_table_get_int (t, (guint) cd, row) : JVMS_RECORD_NULL_INT;
  if (self->session == NULL || start == JVMS_RECORD_NULL_INT)
    return;
  self->own_selection = TRUE;
  self->own_from = start;
  self->own_to = start + MAX (d == JVMS_RECORD_NULL_INT ? 0 : d, 1);
  jvms_session_set_selection (self->session, self->own_from, self->own_to);
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

/* The message line keeps its one line, empty or not (ellipsized, the whole message in its
 * tooltip): the table and the graph below do not move when a message comes or goes. */
static void
show_error (JvmsExplorerPane *self)
{
  gtk_label_set_text (self->error_label, self->error != NULL ? self->error : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->error_label), self->error);
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
  GtkWidget *entries[] = {
    GTK_WIDGET (self->filter_entry), GTK_WIDGET (self->metric_entry), GTK_WIDGET (self->set_entry),
    GTK_WIDGET (self->markers_entry),
  };
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    gtk_widget_remove_css_class (entries[i], "error");
  /* The saved sets as the file now has them (the command line may have changed it). */
  fill_set_choices (self, answer->saved_sets, answer->event_types);
  if (answer->error != NULL)
    {
      /* The records shown stay; the entry at fault says so. */
      self->error = g_strdup (answer->error);
      gtk_widget_add_css_class (answer->error_in_set ? entries[2] : answer->error_in_markers ? entries[3]
                                : answer->error_in_filter ? entries[0] : entries[1], "error");
    }
  else
    {
      if (answer->read != NULL)
        {
          /* Kept for the next query of the same source and range. */
          g_clear_pointer (&self->cache, jvms_record_table_free);
          self->cache = jvms_record_table_share (answer->read);
          g_free (self->cache_source);
          self->cache_source = g_strdup (answer->source);
          self->cache_from = answer->from;
          self->cache_to = answer->to;
          g_clear_pointer (&answer->read, jvms_record_table_free);
          self->reads++;
        }
      /* The old rows go before the answer they read does. */
      jvms_explorer_rows_set (self->rows, NULL);
      jvms_metric_graph_set_selected (self->graph, NULL);
      g_clear_pointer (&self->answer, jvms_explorer_answer_free);
      self->answer = g_steal_pointer (&answer);
      set_columns (self);
      jvms_explorer_rows_set (self->rows, self->answer->rows);
      apply_sort (self);
      show_stats (self);
      fill_metric_choices (self);
      fill_shade_choices (self);
      update_scatter (self);
      update_graph (self);
      GArray *marks = self->answer->marks;
      jvms_metric_graph_set_marks (self->graph, marks != NULL ? (const gint64 *) marks->data : NULL,
                                   marks != NULL ? marks->len / 2 : 0);
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
  JvmsExplorerRequest *r = g_new0 (JvmsExplorerRequest, 1);
  r->history = jvms_history_ref (history);
  r->sets_path = g_strdup (self->sets_path);
  r->events_path = g_strdup (self->events_path);
  r->from = from;
  r->to = to;
  r->set = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->set_entry)));
  r->filter = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
  r->metrics = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->metric_entry)));
  r->markers = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->markers_entry)));
  if (self->cache != NULL && self->cache_from == from && self->cache_to == to)
    {
      r->cached = jvms_record_table_share (self->cache);
      r->cached_source = g_strdup (self->cache_source);
    }
  jvms_explorer_query_async (r, self->cancellable, query_done, g_object_ref (self));
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
forget_cache (JvmsExplorerPane *self)
{
  g_clear_pointer (&self->cache, jvms_record_table_free);
  g_clear_pointer (&self->cache_source, g_free);
}

static void
history_replaced (JvmsExplorerPane *self)
{
  /* Another trace: nothing of the last one stays. */
  jvms_explorer_rows_set (self->rows, NULL);
  g_clear_pointer (&self->answer, jvms_explorer_answer_free);
  g_clear_pointer (&self->columns_key, g_free);
  forget_cache (self);
  start_query (self);
}

/* The session's selection changed: the pane reads the records of the new range, unless it made
 * that selection itself (a record clicked in the graph). */
static void
selection_changed (JvmsExplorerPane *self)
{
  gint64 from, to;
  if (self->own_selection && jvms_session_get_selection (self->session, &from, &to)
      && from == self->own_from && to == self->own_to)
    return;
  self->own_selection = FALSE;
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
        g_signal_connect_object (session, follow[i], G_CALLBACK (selection_changed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::history", G_CALLBACK (history_replaced), self,
                               G_CONNECT_SWAPPED);
    }
  start_query (self);
}

void
jvms_explorer_pane_set_index_path (JvmsExplorerPane *self, const char *index_path, const char *events_path)
{
  g_return_if_fail (JVMS_IS_EXPLORER_PANE (self));
  g_free (self->sets_path);
  self->sets_path = index_path != NULL ? jvms_record_sets_path_for_index (index_path) : NULL;
  g_free (self->events_path);
  self->events_path = g_strdup (events_path);
  /* Records read while the index was built were a part of them. */
  forget_cache (self);
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

/* Whether @dropdown's list is open: its popover (a child of the drop-down) is shown. */
static gboolean
popup_open (GtkWidget *dropdown)
{
  for (GtkWidget *c = gtk_widget_get_first_child (dropdown); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER (c) && gtk_widget_get_mapped (c))
      return TRUE;
  return FALSE;
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
  g_key_file_set_string (kf, g, "set-text", gtk_editable_get_text (GTK_EDITABLE (self->set_entry)));
  g_key_file_set_string (kf, g, "markers-text", gtk_editable_get_text (GTK_EDITABLE (self->markers_entry)));
  g_key_file_set_string (kf, g, "name-text", gtk_editable_get_text (GTK_EDITABLE (self->name_entry)));
  g_key_file_set_string (kf, g, "quantum-colour", self->session != NULL ? jvms_session_get_quantum_colour (self->session) : "");
  const char *shade = self->session != NULL ? jvms_session_get_quantum_shade (self->session) : NULL;
  g_key_file_set_string (kf, g, "quantum-shade", shade != NULL ? shade : "");
  g_autoptr(GPtrArray) shades = g_ptr_array_new ();
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->shade_names)); i++)
    g_ptr_array_add (shades, (gpointer) gtk_string_list_get_string (self->shade_names, i));
  g_key_file_set_string_list (kf, g, "shade-choices", (const char * const *) shades->pdata, shades->len);
  dump_bounds (kf, g, "colour-bounds", GTK_WIDGET (self->colour_dropdown));
  dump_bounds (kf, g, "shade-bounds", GTK_WIDGET (self->shade_dropdown));
  g_key_file_set_boolean (kf, g, "colour-open", popup_open (GTK_WIDGET (self->colour_dropdown)));
  g_key_file_set_boolean (kf, g, "shade-open", popup_open (GTK_WIDGET (self->shade_dropdown)));
  g_autoptr(GPtrArray) choices = g_ptr_array_new ();
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->set_choices)); i++)
    g_ptr_array_add (choices, (gpointer) gtk_string_list_get_string (self->set_choices, i));
  g_key_file_set_string_list (kf, g, "set-choices", (const char * const *) choices->pdata, choices->len);
  dump_bounds (kf, g, "set-bounds", GTK_WIDGET (self->set_entry));
  dump_bounds (kf, g, "set-chooser-bounds", GTK_WIDGET (self->set_dropdown));
  dump_bounds (kf, g, "name-bounds", GTK_WIDGET (self->name_entry));
  dump_bounds (kf, g, "save-bounds", GTK_WIDGET (self->save_button));
  dump_bounds (kf, g, "delete-bounds", GTK_WIDGET (self->delete_button));
  dump_bounds (kf, g, "markers-bounds", GTK_WIDGET (self->markers_entry));
  g_key_file_set_boolean (kf, g, "cached", self->cache != NULL);
  g_key_file_set_uint64 (kf, g, "reads", self->reads);
  g_key_file_set_string (kf, g, "error", self->error != NULL ? self->error : "");
  g_key_file_set_boolean (kf, g, "error-shown", gtk_widget_get_mapped (GTK_WIDGET (self->error_label))
                         && *gtk_label_get_text (self->error_label) != '\0');
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
  g_key_file_set_string (kf, g, "set", a->set);
  g_key_file_set_string (kf, g, "source", a->source != NULL ? a->source : "");
  g_key_file_set_string (kf, g, "markers", a->markers);
  g_key_file_set_uint64 (kf, g, "marks", a->marks != NULL ? a->marks->len / 2 : 0);
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
      guint64 row = jvms_explorer_rows_get_row (self->rows, i);
      if (i < 200)
        g_ptr_array_add (first, record_key (t, row));
      if (is_selected && selected->len < 200)
        g_ptr_array_add (selected, record_key (t, row));
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
  g_key_file_set_uint64 (kf, g, "graph-selected-drawn", jvms_metric_graph_get_n_selected_drawn (self->graph));
  g_key_file_set_uint64 (kf, g, "graph-marks-drawn", jvms_metric_graph_get_n_marks_drawn (self->graph));
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
  {
    int garea[4];
    double lo, hi;
    jvms_metric_graph_get_area (self->graph, garea, &lo, &hi);
    if (root != NULL && gtk_widget_get_mapped (GTK_WIDGET (self->graph))
        && gtk_widget_compute_point (GTK_WIDGET (self->graph), root, &GRAPHENE_POINT_INIT (garea[0], garea[1]), &p))
      {
        /* In the surface's coordinates (those of the X window, where a pointer is put): the
         * window's own are offset by its frame (gtk_native_get_surface_transform). A record's
         * bar is 3 px high: a test must point at it exactly. */
        double sx = 0, sy = 0;
        gtk_native_get_surface_transform (GTK_NATIVE (root), &sx, &sy);
        int shown_area[4] = { (int) lround (p.x + sx), (int) lround (p.y + sy), garea[2], garea[3] };
        g_key_file_set_integer_list (kf, g, "graph-area", shown_area, 4);
        g_key_file_set_double_list (kf, g, "surface-offset", (double[]) { sx, sy }, 2);
        double range[2] = { lo, hi };
        g_key_file_set_double_list (kf, g, "graph-range", range, 2);
      }
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
  g_clear_object (&self->rows);
  g_clear_object (&self->metric_names);
  g_clear_object (&self->set_choices);
  g_clear_object (&self->shade_names);
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
  g_free (self->events_path);
  forget_cache (self);
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
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, set_entry);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, set_dropdown);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, name_entry);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, save_button);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, delete_button);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, markers_entry);
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
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, colour_dropdown);
  gtk_widget_class_bind_template_child (widget_class, JvmsExplorerPane, shade_dropdown);
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
  self->sort_column = -1;
  self->rows = jvms_explorer_rows_new ();
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);
  if (sorter != NULL)
    g_signal_connect_object (sorter, "changed", G_CALLBACK (sorter_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->selection, "selection-changed", G_CALLBACK (table_selection_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->graph, "record-clicked", G_CALLBACK (graph_record_clicked), self, G_CONNECT_SWAPPED);
  self->shade_names = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->shade_dropdown, G_LIST_MODEL (self->shade_names));
  g_signal_connect_object (self->colour_dropdown, "notify::selected", G_CALLBACK (colour_chosen), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->shade_dropdown, "notify::selected", G_CALLBACK (shade_chosen), self, G_CONNECT_SWAPPED);
  self->set_choices = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->set_dropdown, G_LIST_MODEL (self->set_choices));
  gtk_drop_down_set_selected (self->set_dropdown, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (self->set_dropdown, "notify::selected", G_CALLBACK (set_chosen), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->save_button, "clicked", G_CALLBACK (save_clicked), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->delete_button, "clicked", G_CALLBACK (delete_clicked), self, G_CONNECT_SWAPPED);
  GtkEntry *entries[] = { self->filter_entry, self->metric_entry, self->set_entry, self->markers_entry };
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    g_signal_connect_object (entries[i], "activate", G_CALLBACK (entry_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}
