/* jvms-event-table.c: the event table and its statistics (see the header). */
#include "config.h"

#include "jvms-event-table.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "jvms-background.h"
#include "jvms-event-column-sorter.h"
#include "jvms-event-list-model.h"
#include "jvms-event-order.h"
#include "jvms-event-selection.h"
#include "jvms-event-text.h"
#include "jvms-event-type-chooser.h"
#include "jvms-number-format.h"
#include "jvms-time-format.h"

/* Column ids: the fixed columns, then the chosen type's fields from FIELD_BASE. */
enum
{
  COL_TIME,
  COL_DURATION,
  COL_TYPE,
  COL_THREAD,
  COL_FIELDS,
  N_FIXED,
  FIELD_BASE = 100,
};
/* Field columns shown for one type (the rest are in the text filter and the CLI). */
#define MAX_FIELD_COLUMNS 48
/* Types listed in the statistics. */
#define MAX_STATS_TYPES   200

struct _JvmsEventTable
{
  GtkWidget            parent_instance;

  JvmsSession         *session;
  JvmsEventStore      *store;
  GHashTable          *thread_names;  /* gint64 * -> char * */
  GArray              *thread_tids;   /* gint64: the thread drop-down's entries after "All" */

  GtkWidget           *box;
  JvmsEventTypeChooser *type_chooser;
  GtkDropDown         *thread_drop;
  GtkStringList       *thread_list;
  GtkSearchEntry      *search;
  GtkDropDown         *sort_drop;     /* the keyboard's way to the columns' sorting */
  GtkStringList       *sort_list;
  GPtrArray           *sort_columns;  /* GtkColumnViewColumn *, as the drop-down lists them */
  GtkToggleButton     *descending_button;
  GtkLabel            *count_label;
  GtkSpinner          *spinner;
  GtkColumnView       *view;
  JvmsEventListModel  *model;
  GtkColumnViewColumn *fixed[N_FIXED];
  GPtrArray           *field_columns;
  GObject             *probe;

  GtkBox              *stats_box;
  GtkLabel            *stats_title;
  GtkGrid             *stats_grid;
  GtkLabel            *gaps_title;
  GtkGrid             *gaps_grid;
  GtkDrawingArea      *histogram;
  GtkLabel            *syscalls_title;
  GtkGrid             *syscalls_grid;

  JvmsEventSelection  *selection;
  JvmsEventStats      *stats;
  GCancellable        *order_cancel;
  GCancellable        *stats_cancel;
  gboolean             own_selection;
  gint64               own_from, own_to;  /* the selection the table made, while it stands */
  gboolean             own_standing;
  guint                refresh_id;    /* a refresh for the session's new selection, pending */
  gboolean             sorting;
  guint                sort_id;
  gboolean             sort_descending;
  guint32              chosen_type;   /* the one type chosen, else JVMS_EVENT_NONE */
  guint32              gaps_type;
  gint64               from, to;
  char                *described;        /* describe_rows () of described_model */
  guint                described_serial; /* the list it describes */
  guint                serial;           /* of the list shown: one more for each new source */
  guint                described_max;
  char                *cells;            /* describe_cells () of the list cells_serial */
  guint                cells_serial, cells_max;
};

G_DEFINE_FINAL_TYPE (JvmsEventTable, jvms_event_table, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_SESSION, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void refresh (JvmsEventTable *self);

/* ------------------------------------------------------------------------------------------ */
/* Cells */

static const char *
thread_name (JvmsEventTable *self, gint64 tid)
{
  return self->thread_names != NULL ? g_hash_table_lookup (self->thread_names, &tid) : NULL;
}

static char *
cell_text (JvmsEventTable *self, guint id, const JvmsEventRecord *r)
{
  const JvmsEventTypeInfo *t = self->store != NULL ? jvms_event_store_get_type (self->store, r->type) : NULL;
  if (t == NULL)
    return g_strdup ("");
  switch (id)
    {
    case COL_TIME:
      /* To the µs at least (finer in a range under 1 ms): rows a few µs apart, common among
       * system calls, must not read as simultaneous, as they did at 1/1000 of the range. */
      return jvms_session_format_time (self->session, r->time, CLAMP (self->to - self->from, 1, 1000000));
    case COL_DURATION:
      /* Instant events have no duration to show. */
      if (!(t->flags & JVMS_EVENT_TYPE_DURATION))
        return g_strdup ("");
      return r->duration >= 0 ? jvms_session_format_duration (self->session, r->duration) : g_strdup ("—");
    case COL_TYPE:
      return g_strdup (t->name);
    case COL_THREAD:
      {
        const char *name = thread_name (self, r->tid);
        if (r->tid == 0)
          return g_strdup ("");
        return name != NULL ? g_strdup_printf ("%s (%" G_GINT64_FORMAT ")", name, r->tid)
                            : g_strdup_printf ("%" G_GINT64_FORMAT, r->tid);
      }
    case COL_FIELDS:
      {
        GString *s = g_string_new (NULL);
        gint64 start = jvms_session_get_start_time (self->session);
        for (guint i = 0; i < r->n_values && s->len < 400; i++)
          {
            const JvmsEventFieldInfo *f = &t->fields[r->values[i].field];
            g_string_append_printf (s, "%s%s=", i > 0 ? "  " : "", f->name);
            jvms_event_value_append_text (s, &r->values[i], f, start);
          }
        return g_string_free (s, FALSE);
      }
    default:
      {
        guint f = id - FIELD_BASE;
        const JvmsEventValue *v = f < t->n_fields ? jvms_event_record_find_value (r, f) : NULL;
        if (v == NULL)
          return g_strdup ("");
        GString *s = g_string_new (NULL);
        jvms_event_value_append_text (s, v, &t->fields[f], jvms_session_get_start_time (self->session));
        return g_string_free (s, FALSE);
      }
    }
}

/* Characters a column's cells ask for: every cell of a column the same, whatever its text. */
static int
column_chars (guint id)
{
  switch (id)
    {
    case COL_TIME:     return 12;
    case COL_DURATION: return 10;
    case COL_TYPE:     return 28;
    case COL_THREAD:   return 26;
    case COL_FIELDS:   return 60;
    default:           return 14;
    }
}

/* A cell is a GtkInscription, not a GtkLabel: its size comes from a count of characters, not
 * from its text, so a cell filled in when its page arrives is only drawn again, never measured.
 * GTK keeps about 200 rows bound around the ones shown; a jump across the table binds them all,
 * and measuring their labels' text (the shaping of every label, for its width and again for its
 * height) cost the main thread 25 ms per jump, twice over since the pages come off the main
 * thread (the empty labels at bind, then the filled ones): bench-events, the main thread's CPU
 * per frame. An inscription shapes its text when it is drawn, for the rows on screen only. */
static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  guint id = GPOINTER_TO_UINT (data);
  GtkInscription *cell = GTK_INSCRIPTION (gtk_inscription_new (NULL));
  gtk_inscription_set_text_overflow (cell, GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_min_chars (cell, 4);
  gtk_inscription_set_nat_chars (cell, column_chars (id));
  gtk_inscription_set_xalign (cell, id == COL_TIME || id == COL_DURATION ? 1.0f : 0.0f);
  if (id == COL_TIME || id == COL_DURATION)
    gtk_widget_add_css_class (GTK_WIDGET (cell), "numeric");
  gtk_list_item_set_child (item, GTK_WIDGET (cell));
  g_object_set_data (G_OBJECT (item), "jvms-factory", factory);
}

static void
fill_cell (GtkListItem *item, GtkListItemFactory *factory)
{
  JvmsEventTable *self = g_object_get_data (G_OBJECT (factory), "table");
  guint id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "column"));
  JvmsEventRow *row = gtk_list_item_get_item (item);
  GtkInscription *cell = GTK_INSCRIPTION (gtk_list_item_get_child (item));
  JvmsEventRecord r;
  if (row == NULL || self == NULL || !jvms_event_row_is_loaded (row))
    {
      /* Its page is on its way (read off the main thread): empty until it comes. */
      gtk_inscription_set_text (cell, NULL);
      return;
    }
  if (!jvms_event_row_get_record (row, &r))
    {
      gtk_inscription_set_text (cell, _("(damaged)"));
      return;
    }
  g_autofree char *text = cell_text (self, id, &r);
  gtk_inscription_set_text (cell, text);
}

static void
row_loaded (JvmsEventRow *row, gpointer item)
{
  fill_cell (item, g_object_get_data (G_OBJECT (item), "jvms-factory"));
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  JvmsEventRow *row = gtk_list_item_get_item (item);
  fill_cell (item, GTK_LIST_ITEM_FACTORY (factory));
  if (row != NULL && !jvms_event_row_is_loaded (row))
    jvms_event_row_watch (row, row_loaded, item);
}

static void
unbind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  JvmsEventRow *row = gtk_list_item_get_item (item);
  if (row != NULL)
    jvms_event_row_unwatch (row, item);
}

static GtkColumnViewColumn *
make_column (JvmsEventTable *self, const char *title, guint id)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_object_set_data (G_OBJECT (factory), "table", self);
  g_object_set_data (G_OBJECT (factory), "column", GUINT_TO_POINTER (id));
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (id));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (id));
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), GUINT_TO_POINTER (id));
  GtkColumnViewColumn *column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  g_autoptr(GtkSorter) sorter = jvms_event_column_sorter_new (self->probe, id);
  gtk_column_view_column_set_sorter (column, sorter);
  return column;
}

static void sort_chosen (JvmsEventTable *self);

/* The columns one can sort by, in the drop-down. */
static void
rebuild_sort_list (JvmsEventTable *self)
{
  g_signal_handlers_block_by_func (self->sort_drop, sort_chosen, self);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sort_list));
  gtk_string_list_splice (self->sort_list, 0, n, NULL);
  g_ptr_array_set_size (self->sort_columns, 0);
  for (guint i = 0; i < COL_FIELDS; i++)
    g_ptr_array_add (self->sort_columns, self->fixed[i]);
  for (guint i = 0; i < self->field_columns->len; i++)
    g_ptr_array_add (self->sort_columns, g_ptr_array_index (self->field_columns, i));
  for (guint i = 0; i < self->sort_columns->len; i++)
    gtk_string_list_append (self->sort_list,
                            gtk_column_view_column_get_title (g_ptr_array_index (self->sort_columns, i)));
  gtk_drop_down_set_selected (self->sort_drop, 0);
  g_signal_handlers_unblock_by_func (self->sort_drop, sort_chosen, self);
}

/* One column per field of the chosen type, or one column of every field's text. */
static void
rebuild_field_columns (JvmsEventTable *self)
{
  for (guint i = 0; i < self->field_columns->len; i++)
    gtk_column_view_remove_column (self->view, g_ptr_array_index (self->field_columns, i));
  g_ptr_array_set_size (self->field_columns, 0);
  const JvmsEventTypeInfo *t = self->store != NULL && self->chosen_type != JVMS_EVENT_NONE
                                 ? jvms_event_store_get_type (self->store, self->chosen_type) : NULL;
  gtk_column_view_column_set_visible (self->fixed[COL_FIELDS], t == NULL);
  for (guint f = 0; t != NULL && f < MIN (t->n_fields, MAX_FIELD_COLUMNS); f++)
    {
      GtkColumnViewColumn *c = make_column (self, t->fields[f].name, FIELD_BASE + f);
      if (t->fields[f].label != NULL)
        gtk_column_view_column_set_title (c, t->fields[f].label);
      gtk_column_view_append_column (self->view, c);
      g_ptr_array_add (self->field_columns, c);
    }
  rebuild_sort_list (self);
}

/* ------------------------------------------------------------------------------------------ */
/* Statistics */

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static void
grid_cell (GtkGrid *grid, int column, int row, const char *text, gboolean number, gboolean head)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), number ? 1.0f : 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), number ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_MIDDLE);
  /* Names keep a readable width when the pane is narrow (it scrolls). */
  if (!number)
    {
      gtk_label_set_width_chars (GTK_LABEL (label), 22);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
    }
  gtk_label_set_selectable (GTK_LABEL (label), !head);
  if (head)
    gtk_widget_add_css_class (label, "heading");
  if (number)
    gtk_widget_add_css_class (label, "numeric");
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

static char *
duration_text (JvmsEventTable *self, gint64 ns, guint64 count)
{
  return count > 0 ? jvms_session_format_duration (self->session, ns) : g_strdup ("—");
}

/* "count total min mean p50 p99 max" from column @col of @row; @count is the count shown (the
 * events, where @d counts their known durations); @durations FALSE for instant events (dashes). */
static void
distribution_cells (JvmsEventTable *self, GtkGrid *grid, int col, int row, guint64 count_shown,
                    const JvmsEventDistribution *d, gboolean with_total, gboolean durations)
{
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, count_shown);
  grid_cell (grid, col++, row, count, TRUE, FALSE);
  gint64 values[] = { d->total, d->min, (gint64) llround (d->mean), d->p50, d->p99, d->max };
  for (guint i = with_total ? 0 : 1; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *text = duration_text (self, values[i], durations ? d->count : 0);
      grid_cell (grid, col++, row, text, TRUE, FALSE);
    }
}

static void
heads (GtkGrid *grid, const char * const *titles)
{
  for (guint i = 0; titles[i] != NULL; i++)
    grid_cell (grid, (int) i, 0, _(titles[i]), i > 0, TRUE);
}

static const JvmsEventTypeStats *
stats_of_type (JvmsEventStats *stats, guint32 type)
{
  for (guint i = 0; stats != NULL && i < jvms_event_stats_get_n_types (stats); i++)
    if (jvms_event_stats_get_type (stats, i)->type == type)
      return jvms_event_stats_get_type (stats, i);
  return NULL;
}

/* The statistics are those of the range, type and thread (as `jvmscope-cli events --stats`
 * gives them): the text filter narrows the rows only, and the title says so while it does. */
static void
show_stats_title (JvmsEventTable *self)
{
  if (self->stats == NULL || self->store == NULL)
    {
      gtk_label_set_text (self->stats_title, _("Statistics"));
      return;
    }
  g_autofree char *count = jvms_number_format_count (jvms_event_stats_get_n_rows (self->stats));
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  /* The count outside the translated text: its format is not translatable. */
  g_autofree char *full = text != NULL && *text != '\0'
                            ? g_strdup_printf (_("Statistics (%s, without the text filter)"), count)
                            : g_strdup_printf ("%s (%s)", _("Statistics"), count);
  gtk_label_set_text (self->stats_title, full);
}

static void
show_stats (JvmsEventTable *self)
{
  clear_grid (self->stats_grid);
  clear_grid (self->gaps_grid);
  clear_grid (self->syscalls_grid);
  JvmsEventStats *st = self->stats;
  if (st == NULL || self->store == NULL)
    {
      gtk_label_set_text (self->stats_title, _("Statistics"));
      gtk_widget_set_visible (GTK_WIDGET (self->gaps_title), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->histogram), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->syscalls_title), FALSE);
      return;
    }
  show_stats_title (self);

  static const char * const dur_heads[] = { N_("Type"), N_("Count"), N_("Total"), N_("Min"), N_("Mean"),
                                            N_("p50"), N_("p99"), N_("Max"), NULL };
  heads (self->stats_grid, dur_heads);
  guint32 busiest = JVMS_EVENT_NONE;
  guint64 most = 0;
  int row = 1;
  gboolean any_syscall = FALSE;
  for (guint i = 0; i < jvms_event_stats_get_n_types (st); i++)
    {
      const JvmsEventTypeStats *t = jvms_event_stats_get_type (st, i);
      const JvmsEventTypeInfo *info = jvms_event_store_get_type (self->store, t->type);
      if (t->count > most)
        {
          most = t->count;
          busiest = t->type;
        }
      any_syscall |= (info->flags & JVMS_EVENT_TYPE_SYSCALL) != 0;
      if (row > MAX_STATS_TYPES)
        continue;
      grid_cell (self->stats_grid, 0, row, info->name, FALSE, FALSE);
      distribution_cells (self, self->stats_grid, 1, row, t->count, &t->duration, TRUE,
                          (info->flags & JVMS_EVENT_TYPE_DURATION) != 0);
      row++;
    }

  /* Gaps of the chosen type, else of the busiest. */
  self->gaps_type = self->chosen_type != JVMS_EVENT_NONE ? self->chosen_type : busiest;
  const JvmsEventTypeStats *g = stats_of_type (st, self->gaps_type);
  gtk_widget_set_visible (GTK_WIDGET (self->gaps_title), g != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->histogram), g != NULL && g->gap.count > 0);
  if (g != NULL)
    {
      g_autofree char *gt = g_strdup_printf (_("Time between events of %s"),
                                             jvms_event_store_get_type (self->store, g->type)->name);
      gtk_label_set_text (self->gaps_title, gt);
      static const char * const gap_heads[] = { N_("Gaps"), N_("Min"), N_("Mean"), N_("p50"), N_("p99"),
                                                N_("Max"), NULL };
      heads (self->gaps_grid, gap_heads);
      distribution_cells (self, self->gaps_grid, 0, 1, g->gap.count, &g->gap, FALSE, TRUE);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->histogram));

  gtk_widget_set_visible (GTK_WIDGET (self->syscalls_title), any_syscall);
  if (any_syscall)
    {
      static const char * const sys_heads[] = { N_("System call"), N_("Count"), N_("Errors"), N_("Total"),
                                                N_("Min"), N_("Mean"), N_("p50"), N_("p99"), N_("Max"), NULL };
      heads (self->syscalls_grid, sys_heads);
      row = 1;
      for (guint i = 0; i < jvms_event_stats_get_n_types (st) && row <= MAX_STATS_TYPES; i++)
        {
          const JvmsEventTypeStats *t = jvms_event_stats_get_type (st, i);
          const JvmsEventTypeInfo *info = jvms_event_store_get_type (self->store, t->type);
          if (!(info->flags & JVMS_EVENT_TYPE_SYSCALL))
            continue;
          grid_cell (self->syscalls_grid, 0, row,
                     g_str_has_prefix (info->name, "syscall:") ? info->name + 8 : info->name, FALSE, FALSE);
          g_autofree char *errors = g_strdup_printf ("%" G_GUINT64_FORMAT, t->errors);
          g_autofree char *calls = g_strdup_printf ("%" G_GUINT64_FORMAT, t->duration.count);
          grid_cell (self->syscalls_grid, 1, row, calls, TRUE, FALSE);
          grid_cell (self->syscalls_grid, 2, row, errors, TRUE, FALSE);
          gint64 values[] = { t->duration.total, t->duration.min, (gint64) llround (t->duration.mean),
                              t->duration.p50, t->duration.p99, t->duration.max };
          for (guint k = 0; k < G_N_ELEMENTS (values); k++)
            {
              g_autofree char *text = duration_text (self, values[k], t->duration.count);
              grid_cell (self->syscalls_grid, 3 + (int) k, row, text, TRUE, FALSE);
            }
          row++;
        }
    }
}

/* The gaps' histogram: a bar per power of two, the bars' height by count. */
static void
draw_histogram (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  JvmsEventTable *self = data;
  const JvmsEventTypeStats *g = stats_of_type (self->stats, self->gaps_type);
  if (g == NULL)
    return;
  guint lo = JVMS_EVENT_STATS_N_BINS, hi = 0;
  guint64 top = 0;
  for (guint b = 0; b < JVMS_EVENT_STATS_N_BINS; b++)
    if (g->gap_bins[b] > 0)
      {
        lo = MIN (lo, b);
        hi = MAX (hi, b);
        top = MAX (top, g->gap_bins[b]);
      }
  if (top == 0)
    return;
  /* GTK 4.8 has no gtk_widget_get_color (); the style context's color is the text's. */
  GdkRGBA fg;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  const double label_h = 16, pad = 4;
  double bar_w = (width - 2 * pad) / (double) (hi - lo + 1);
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), NULL);
  for (guint b = lo; b <= hi; b++)
    {
      double h = (height - label_h - pad) * (double) g->gap_bins[b] / (double) top;
      double x = pad + (b - lo) * bar_w;
      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.85);
      cairo_rectangle (cr, x + 1, height - label_h - h, MAX (bar_w - 2, 1), h);
      cairo_fill (cr);
    }
  /* The axis: the smallest and largest gap ranges. */
  for (guint k = 0; k < 2; k++)
    {
      guint b = k == 0 ? lo : hi;
      gint64 from = b == 0 ? 0 : (gint64) (G_GUINT64_CONSTANT (1) << (b - 1));
      g_autofree char *text = jvms_session_format_duration (self->session, from);
      pango_layout_set_text (layout, text, -1);
      int tw, th;
      pango_layout_get_pixel_size (layout, &tw, &th);
      double x = k == 0 ? pad : MAX (pad, pad + (b - lo) * bar_w + bar_w / 2 - tw / 2.0);
      x = MIN (x, width - tw - pad);
      cairo_move_to (cr, x, height - th);
      gdk_cairo_set_source_rgba (cr, &fg);
      pango_cairo_show_layout (cr, layout);
    }
  g_object_unref (layout);
}

static void
stats_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(JvmsEventTable) self = data;
  g_autoptr(GError) error = NULL;
  JvmsEventStats *stats = g_task_propagate_pointer (G_TASK (result), &error);
  if (stats == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->stats_title, error->message);
      return;
    }
  if (g_task_get_task_data (G_TASK (result)) != self->selection)
    {
      jvms_event_stats_free (stats);
      return;
    }
  g_clear_pointer (&self->stats, jvms_event_stats_free);
  self->stats = stats;
  g_clear_object (&self->stats_cancel);
  show_stats (self);
  gtk_spinner_set_spinning (self->spinner, self->order_cancel != NULL);
}

static void
stats_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  JvmsEventStats *stats = jvms_event_stats_compute (jvms_event_selection_get_query (data), cancellable, &error);
  if (stats == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, stats, (GDestroyNotify) jvms_event_stats_free);
}

static void
start_stats (JvmsEventTable *self)
{
  if (self->stats_cancel != NULL)
    g_cancellable_cancel (self->stats_cancel);
  g_clear_object (&self->stats_cancel);
  if (self->selection == NULL)
    return;
  self->stats_cancel = g_cancellable_new ();
  g_autoptr(GTask) task = g_task_new (NULL, self->stats_cancel, stats_done, g_object_ref (self));
  g_task_set_task_data (task, g_object_ref (self->selection), g_object_unref);
  /* Seconds of a core for tens of millions of rows: on a thread that yields to the frames. */
  jvms_background_run (task, stats_thread);
  gtk_spinner_set_spinning (self->spinner, TRUE);
}

/* ------------------------------------------------------------------------------------------ */
/* Rows: selection, order */

/* A new list for each source: GTK 4.8's list view keeps stale rows (and warns that it "failed to
 * scroll to given position") when a model replaces all of its items at once with as many. */
static void
show_source (JvmsEventTable *self, JvmsRecordSource *source)
{
  g_autoptr(JvmsEventListModel) model = jvms_event_list_model_new ();
  jvms_event_list_model_set_source (model, source);
  GtkSelectionModel *selection = gtk_column_view_get_model (self->view);
  gtk_single_selection_set_model (GTK_SINGLE_SELECTION (selection), G_LIST_MODEL (model));
  g_set_object (&self->model, model);
  self->serial++;
}

static void
update_count (JvmsEventTable *self)
{
  guint64 n = jvms_event_table_get_n_rows (self);
  /* The number is formatted outside the translated text, its digits grouped as the locale
   * groups them (millions of rows are common). */
  g_autofree char *number = jvms_number_format_count (n);
  g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event", "%s events",
                                                        (gulong) MIN (n, G_MAXULONG)), number);
  gtk_label_set_text (self->count_label, text);
}

static void
order_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(JvmsEventTable) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsEventOrder) order = jvms_event_order_new_finish (result, &error);
  if (order == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->count_label, error->message);
      return;
    }
  if (jvms_event_order_get_selection (order) != self->selection)
    return;
  g_clear_object (&self->order_cancel);
  show_source (self, JVMS_RECORD_SOURCE (order));
  update_count (self);
  gtk_spinner_set_spinning (self->spinner, self->stats_cancel != NULL);
}

static void
start_order (JvmsEventTable *self)
{
  if (self->order_cancel != NULL)
    g_cancellable_cancel (self->order_cancel);
  g_clear_object (&self->order_cancel);
  if (self->selection == NULL)
    return;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  gboolean by_time = !self->sorting || self->sort_id == COL_TIME;
  if ((text == NULL || *text == '\0') && by_time && !(self->sorting && self->sort_descending))
    {
      /* Time order, no text: the selection itself. */
      show_source (self, JVMS_RECORD_SOURCE (self->selection));
      update_count (self);
      return;
    }
  JvmsEventOrderSpec spec = {
    .column = !self->sorting ? JVMS_EVENT_COLUMN_TIME
              : self->sort_id == COL_DURATION ? JVMS_EVENT_COLUMN_DURATION
              : self->sort_id == COL_TYPE ? JVMS_EVENT_COLUMN_TYPE
              : self->sort_id == COL_THREAD ? JVMS_EVENT_COLUMN_THREAD
              : self->sort_id >= FIELD_BASE ? JVMS_EVENT_COLUMN_FIELD : JVMS_EVENT_COLUMN_TIME,
    .descending = self->sorting && self->sort_descending,
    .text = text,
    .thread_names = self->thread_names,
  };
  const JvmsEventTypeInfo *t = self->chosen_type != JVMS_EVENT_NONE
                                 ? jvms_event_store_get_type (self->store, self->chosen_type) : NULL;
  if (spec.column == JVMS_EVENT_COLUMN_FIELD && t != NULL && self->sort_id - FIELD_BASE < t->n_fields)
    spec.field = t->fields[self->sort_id - FIELD_BASE].name;
  else if (spec.column == JVMS_EVENT_COLUMN_FIELD)
    spec.column = JVMS_EVENT_COLUMN_TIME;
  self->order_cancel = g_cancellable_new ();
  jvms_event_order_new_async (self->selection, &spec, self->order_cancel, order_done, g_object_ref (self));
  gtk_spinner_set_spinning (self->spinner, TRUE);
}

static void
refresh (JvmsEventTable *self)
{
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->stats, jvms_event_stats_free);
  if (self->store == NULL)
    {
      show_source (self, NULL);
      update_count (self);
      show_stats (self);
      return;
    }
  gint64 start = jvms_session_get_start_time (self->session);
  gint64 end = jvms_session_get_end_time (self->session);
  gboolean have = jvms_event_store_get_n_rows (self->store) > 0;
  gint64 s0, s1;
  gboolean selected = jvms_session_get_selection (self->session, &s0, &s1);
  /* While the selection is that of a row activated here, the table keeps its range when the
   * types, thread or order change after it. */
  gboolean own = selected && self->own_standing && s0 == self->own_from && s1 == self->own_to;
  if (!own && selected)
    {
      self->from = s0;
      self->to = s1;
    }
  else if (!own)
    {
      /* The whole trace, events that began before its start included. */
      self->from = have ? MIN (start, jvms_event_store_get_first_time (self->store)) : start;
      self->to = have ? MAX (end, jvms_event_store_get_last_time (self->store) + 1) : end;
    }
  guint thread = gtk_drop_down_get_selected (self->thread_drop);
  gint64 tid = thread > 0 && thread - 1 < self->thread_tids->len
                 ? g_array_index (self->thread_tids, gint64, thread - 1) : 0;
  const GArray *types = jvms_event_type_chooser_get_chosen (self->type_chooser);
  JvmsEventFilter filter = {
    .from = self->from,
    .to = self->to,
    /* No type ticked: every type (the chooser's "All Types"). */
    .keep_types = types->len > 0 ? JVMS_EVENT_KEEP_THESE : JVMS_EVENT_KEEP_ALL,
    .types = types->len > 0 ? (const guint32 *) types->data : NULL,
    .n_types = types->len,
    .keep_tids = thread > 0 ? JVMS_EVENT_KEEP_THESE : JVMS_EVENT_KEEP_ALL,
    .tids = thread > 0 ? &tid : NULL,
    .n_tids = thread > 0 ? 1 : 0,
  };
  g_autoptr(GError) error = NULL;
  self->selection = jvms_event_selection_new (self->store, &filter, &error);
  if (self->selection == NULL)
    {
      show_source (self, NULL);
      gtk_label_set_text (self->count_label, error->message);
      show_stats (self);
      return;
    }
  start_order (self);
  show_stats (self);
  start_stats (self);
}

static void
type_chosen (JvmsEventTable *self)
{
  /* A type's own columns when one is chosen; with several, every field's text in one. */
  const GArray *types = jvms_event_type_chooser_get_chosen (self->type_chooser);
  self->chosen_type = types->len == 1 ? g_array_index (types, guint32, 0) : JVMS_EVENT_NONE;
  /* A field column sorted before is gone. */
  if (self->sort_id >= FIELD_BASE)
    self->sorting = FALSE;
  rebuild_field_columns (self);
  refresh (self);
}

static GtkColumnViewColumn *
column_of (JvmsEventTable *self, guint id)
{
  if (id < N_FIXED)
    return self->fixed[id];
  guint f = id - FIELD_BASE;
  return f < self->field_columns->len ? g_ptr_array_index (self->field_columns, f) : NULL;
}

static void
sort_changed (JvmsEventTable *self)
{
  guint id;
  gboolean descending;
  GtkSorter *sorter = gtk_column_view_get_sorter (self->view);
  self->sorting = sorter != NULL && jvms_event_column_sorter_find_primary (sorter, self->probe, &id, &descending);
  if (self->sorting)
    {
      self->sort_id = id;
      self->sort_descending = descending;
    }
  /* The drop-down and the toggle say what the headers chose. */
  g_signal_handlers_block_by_func (self->sort_drop, sort_chosen, self);
  g_signal_handlers_block_by_func (self->descending_button, sort_chosen, self);
  guint pos = 0;
  for (guint i = 0; self->sorting && i < self->sort_columns->len; i++)
    if (g_ptr_array_index (self->sort_columns, i) == column_of (self, self->sort_id))
      pos = i;
  gtk_drop_down_set_selected (self->sort_drop, pos);
  gtk_toggle_button_set_active (self->descending_button, self->sorting && self->sort_descending);
  g_signal_handlers_unblock_by_func (self->sort_drop, sort_chosen, self);
  g_signal_handlers_unblock_by_func (self->descending_button, sort_chosen, self);
  start_order (self);
}

/* From the keyboard: the drop-down's column, in the toggle's direction, as a header click. */
static void
sort_chosen (JvmsEventTable *self)
{
  guint i = gtk_drop_down_get_selected (self->sort_drop);
  if (i >= self->sort_columns->len)
    return;
  gtk_column_view_sort_by_column (self->view, g_ptr_array_index (self->sort_columns, i),
                                  gtk_toggle_button_get_active (self->descending_button)
                                    ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

static gboolean
refresh_pending (gpointer data)
{
  JvmsEventTable *self = data;
  self->refresh_id = 0;
  refresh (self);
  return G_SOURCE_REMOVE;
}

static void
session_selection_changed (JvmsEventTable *self)
{
  /* A selection the table made by activating a row keeps the table as it is, for as long as it
   * stands (notified again, it is still the table's). */
  gint64 s0, s1;
  gboolean selected = jvms_session_get_selection (self->session, &s0, &s1);
  if (self->own_selection || (self->own_standing && selected && s0 == self->own_from && s1 == self->own_to))
    return;
  self->own_standing = FALSE;
  /* Once for a burst of changes: a drag changes the selection at each motion, and each change
   * notifies its start, end and presence; a refresh each time (new rows bound, the statistics
   * cleared and started again) kept the main loop from the drag's own events under ASan. After
   * the views are drawn, so that a drag stays smooth. */
  if (self->refresh_id == 0)
    self->refresh_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, refresh_pending, self, NULL);
}

static void
session_history_changed (JvmsEventTable *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->view));
}

/* Selects @r's interval and brings it on screen, keeping the zoom when it fits. */
static void
show_record (JvmsEventTable *self, const JvmsEventRecord *r)
{
  gint64 d = MAX (r->duration, 1);
  gint64 end = r->time > G_MAXINT64 - d ? G_MAXINT64 : r->time + d;
  self->own_selection = TRUE;
  self->own_standing = TRUE;
  self->own_from = r->time;
  self->own_to = end;
  jvms_session_set_selection (self->session, r->time, end);
  gint64 v0, v1;
  jvms_session_get_visible (self->session, &v0, &v1);
  if (r->time < v0 || end > v1)
    {
      gint64 span = MAX (v1 - v0, d + d / 2);
      gint64 mid = r->time + d / 2;
      jvms_session_set_visible (self->session, mid - span / 2, mid - span / 2 + span, TRUE);
    }
  self->own_selection = FALSE;
}

gboolean
jvms_event_table_activate_row (JvmsEventTable *self, guint position)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TABLE (self), FALSE);
  g_autoptr(JvmsEventRow) row = g_list_model_get_item (G_LIST_MODEL (self->model), position);
  JvmsEventRecord r;
  if (row == NULL)
    return FALSE;
  if (jvms_event_row_is_loaded (row))
    {
      if (!jvms_event_row_get_record (row, &r))
        return FALSE;
      show_record (self, &r);
      return TRUE;
    }
  /* Activated before its page came: the one row, read now. */
  g_autoptr(JvmsEventBatch) batch = jvms_event_batch_new ();
  if (!jvms_event_list_model_read (self->model, position, 1, batch, NULL) || jvms_event_batch_get_len (batch) == 0)
    return FALSE;
  jvms_event_batch_get (batch, 0, &r);
  show_record (self, &r);
  return TRUE;
}

static void
row_activated (GtkColumnView *view, guint position, JvmsEventTable *self)
{
  jvms_event_table_activate_row (self, position);
}

/* ------------------------------------------------------------------------------------------ */

static void
fill_filters (JvmsEventTable *self)
{
  g_signal_handlers_block_by_func (self->thread_drop, refresh, self);
  jvms_event_type_chooser_set_store (self->type_chooser, self->store);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->thread_list));
  gtk_string_list_splice (self->thread_list, 1, n - 1, NULL);
  g_array_set_size (self->thread_tids, 0);
  if (self->store != NULL)
    {
      guint n_threads;
      const gint64 *tids = jvms_event_store_get_threads (self->store, &n_threads);
      for (guint i = 0; i < n_threads; i++)
        {
          if (tids[i] == 0)
            continue;
          const char *name = thread_name (self, tids[i]);
          g_autofree char *text = name != NULL ? g_strdup_printf ("%s (%" G_GINT64_FORMAT ")", name, tids[i])
                                               : g_strdup_printf ("%" G_GINT64_FORMAT, tids[i]);
          gtk_string_list_append (self->thread_list, text);
          g_array_append_val (self->thread_tids, tids[i]);
        }
    }
  gtk_drop_down_set_selected (self->thread_drop, 0);
  self->chosen_type = JVMS_EVENT_NONE;
  g_signal_handlers_unblock_by_func (self->thread_drop, refresh, self);
}

void
jvms_event_table_set_store (JvmsEventTable *self, JvmsEventStore *store, GHashTable *thread_names)
{
  g_return_if_fail (JVMS_IS_EVENT_TABLE (self));
  if (store != NULL)
    jvms_event_store_ref (store);
  g_clear_pointer (&self->store, jvms_event_store_unref);
  self->store = store;
  g_clear_pointer (&self->thread_names, g_hash_table_unref);
  self->thread_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  if (thread_names != NULL)
    {
      GHashTableIter it;
      gpointer k, v;
      g_hash_table_iter_init (&it, thread_names);
      while (g_hash_table_iter_next (&it, &k, &v))
        g_hash_table_insert (self->thread_names, g_memdup2 (k, sizeof (gint64)), g_strdup (v));
    }
  fill_filters (self);
  rebuild_field_columns (self);
  refresh (self);
}

void
jvms_event_table_focus_filter (JvmsEventTable *self)
{
  g_return_if_fail (JVMS_IS_EVENT_TABLE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->search));
}

guint64
jvms_event_table_get_n_rows (JvmsEventTable *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TABLE (self), 0);
  JvmsRecordSource *source = jvms_event_list_model_get_source (self->model);
  return source != NULL ? jvms_record_source_get_n_records (source) : 0;
}

void
jvms_event_table_get_range (JvmsEventTable *self, gint64 *from, gint64 *to)
{
  *from = self->from;
  *to = self->to;
}

gboolean
jvms_event_table_is_busy (JvmsEventTable *self)
{
  return self->refresh_id != 0 || self->order_cancel != NULL || self->stats_cancel != NULL ||
         jvms_event_list_model_get_n_pending (self->model) > 0;
}

gint64
jvms_event_table_get_selected (JvmsEventTable *self)
{
  GtkSelectionModel *model = gtk_column_view_get_model (self->view);
  guint i = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model));
  return i == GTK_INVALID_LIST_POSITION ? -1 : (gint64) i;
}

JvmsEventStats *
jvms_event_table_get_stats (JvmsEventTable *self)
{
  return self->stats;
}

static int
rect_y_cmp (gconstpointer a, gconstpointer b)
{
  const graphene_rect_t *x = a, *y = b;
  return x->origin.y < y->origin.y ? -1 : x->origin.y > y->origin.y;
}

/* The bounds of @widget's children in @root's coordinates, those inside @clip only. */
static void
add_child_rects (GArray *rects, GtkWidget *widget, GtkWidget *root, const graphene_rect_t *clip)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      graphene_rect_t r;
      if (gtk_widget_get_mapped (c) && gtk_widget_compute_bounds (c, root, &r) && r.size.height > 0
          && (clip == NULL || (r.origin.y >= clip->origin.y
                               && r.origin.y + r.size.height <= clip->origin.y + clip->size.height)))
        g_array_append_val (rects, r);
    }
}

GArray *
jvms_event_table_get_layout (JvmsEventTable *self, JvmsEventTablePart part)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TABLE (self), NULL);
  GArray *rects = g_array_new (FALSE, FALSE, sizeof (graphene_rect_t));
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (self)));
  if (root == NULL)
    return rects;
  /* GTK 4.8's column view: a "header" (the column titles, left to right), then the "listview"
   * of "row"s, recycled and in no particular order, some scrolled away. */
  GtkWidget *scroller = gtk_widget_get_parent (GTK_WIDGET (self->view));
  graphene_rect_t shown;
  if (!gtk_widget_compute_bounds (scroller, root, &shown))
    return rects;
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->view)); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      if (part == JVMS_EVENT_TABLE_HEADS && g_str_equal (gtk_widget_get_css_name (c), "header"))
        add_child_rects (rects, c, root, NULL);
      else if (part == JVMS_EVENT_TABLE_ROWS && g_str_equal (gtk_widget_get_css_name (c), "listview"))
        {
          add_child_rects (rects, c, root, &shown);
          g_array_sort (rects, rect_y_cmp);
        }
    }
  return rects;
}

char *
jvms_event_table_describe_sort (JvmsEventTable *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TABLE (self), NULL);
  static const char * const fixed[] = { "time", "duration", "type", "thread", "fields" };
  if (!self->sorting)
    return g_strdup ("");
  const char *dir = self->sort_descending ? "descending" : "ascending";
  if (self->sort_id < N_FIXED)
    return g_strdup_printf ("%s %s", fixed[self->sort_id], dir);
  GtkColumnViewColumn *c = column_of (self, self->sort_id);
  return g_strdup_printf ("field:%s %s", c != NULL ? gtk_column_view_column_get_title (c) : "?", dir);
}

JvmsEventTypeChooser *
jvms_event_table_get_type_chooser (JvmsEventTable *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TABLE (self), NULL);
  return self->type_chooser;
}

const char *
jvms_event_table_get_focus_part (JvmsEventTable *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_TABLE (self), "");
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  if (focus == NULL)
    return "";
  GtkWidget *types = jvms_event_type_chooser_get_search (self->type_chooser);
  if (focus == types || gtk_widget_is_ancestor (focus, types))
    return "types";
  if (focus == GTK_WIDGET (self->view) || gtk_widget_is_ancestor (focus, GTK_WIDGET (self->view)))
    return "rows";
  if (focus == GTK_WIDGET (self->search) || gtk_widget_is_ancestor (focus, GTK_WIDGET (self->search)))
    return "filter";
  if (focus == GTK_WIDGET (self) || gtk_widget_is_ancestor (focus, GTK_WIDGET (self)))
    return "bar";
  return "";
}

static gpointer
cell_key (int col, int row)
{
  return GINT_TO_POINTER ((row << 8) | (col & 0xff));
}

/* A grid's shown text: a line per row, its cells joined by " | " (durations hold spaces). */
static void
describe_grid (GString *s, const char *name, GtkGrid *grid)
{
  /* The cells are found in one walk over the children: gtk_grid_get_child_at () walks them all
   * for each cell, which made the dump quadratic in the cells (a system-call table of hundreds
   * of rows held the main thread in it on a large recording). A child spanning cells is in each,
   * as gtk_grid_get_child_at () finds it. The tables have a few columns (under 256). */
  g_autoptr(GHashTable) at = g_hash_table_new (NULL, NULL);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (grid)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int col, row, width, height;
      gtk_grid_query_child (grid, child, &col, &row, &width, &height);
      for (int r = row; r < row + height; r++)
        for (int c = col; c < col + width && c < 256; c++)
          g_hash_table_insert (at, cell_key (c, r), child);
    }
  g_string_append_printf (s, "[%s]\n", name);
  for (int row = 0; g_hash_table_lookup (at, cell_key (0, row)) != NULL; row++)
    {
      for (int col = 0; col < 256; col++)
        {
          GtkWidget *cell = g_hash_table_lookup (at, cell_key (col, row));
          if (cell == NULL)
            break;
          g_string_append_printf (s, "%s%s", col > 0 ? " | " : "", gtk_label_get_text (GTK_LABEL (cell)));
        }
      g_string_append_c (s, '\n');
    }
}

char *
jvms_event_table_describe_stats (JvmsEventTable *self)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "[title]\n%s\n", gtk_label_get_text (self->stats_title));
  describe_grid (s, "types", self->stats_grid);
  if (gtk_widget_get_visible (GTK_WIDGET (self->gaps_title)))
    {
      g_string_append_printf (s, "[gaps-title]\n%s\n", gtk_label_get_text (self->gaps_title));
      describe_grid (s, "gaps", self->gaps_grid);
    }
  if (gtk_widget_get_visible (GTK_WIDGET (self->syscalls_title)))
    describe_grid (s, "syscalls", self->syscalls_grid);
  return g_string_free (s, FALSE);
}

char *
jvms_event_table_describe_cells (JvmsEventTable *self, guint max)
{
  /* Kept per list, as describe_rows () is: a sorted list's rows each decode a block. */
  if (self->cells != NULL && self->cells_serial == self->serial && self->cells_max == max)
    return g_strdup (self->cells);
  GString *s = g_string_new (NULL);
  JvmsRecordSource *source = jvms_event_list_model_get_source (self->model);
  if (source != NULL && self->store != NULL)
    {
      g_autoptr(JvmsEventBatch) batch = jvms_event_batch_new ();
      jvms_event_list_model_read (self->model, 0, max, batch, NULL);
      for (guint i = 0; i < jvms_event_batch_get_len (batch); i++)
        {
          JvmsEventRecord r;
          jvms_event_batch_get (batch, i, &r);
          g_autofree char *thread = cell_text (self, COL_THREAD, &r);
          g_autofree char *fields = cell_text (self, COL_FIELDS, &r);
          g_string_append_printf (s, "%s\t%s\n", thread, fields);
        }
    }
  g_free (self->cells);
  self->cells = g_string_free (s, FALSE);
  self->cells_serial = self->serial;
  self->cells_max = max;
  return g_strdup (self->cells);
}

char *
jvms_event_table_describe_rows (JvmsEventTable *self, guint max)
{
  /* Read once per list and kept: a sorted list's rows lie in as many blocks as rows, and the
   * state dump asks again four times a second. Read from the source, not the list, whose few
   * pages the view uses. */
  JvmsRecordSource *source = jvms_event_list_model_get_source (self->model);
  if (self->described != NULL && self->described_serial == self->serial && self->described_max == max)
    return g_strdup (self->described);
  GString *s = g_string_new (NULL);
  if (source != NULL && self->store != NULL)
    {
      g_autoptr(JvmsEventBatch) batch = jvms_event_batch_new ();
      jvms_event_list_model_read (self->model, 0, max, batch, NULL);
      for (guint i = 0; i < jvms_event_batch_get_len (batch); i++)
        {
          JvmsEventRecord r;
          jvms_event_batch_get (batch, i, &r);
          g_string_append_printf (s, "%" G_GINT64_FORMAT " %s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n",
                                  r.time, jvms_event_store_get_type (self->store, r.type)->name, r.tid, r.duration);
        }
    }
  g_free (self->described);
  self->described = g_string_free (s, FALSE);
  self->described_serial = self->serial;
  self->described_max = max;
  return g_strdup (self->described);
}

/* ------------------------------------------------------------------------------------------ */

static GtkWidget *
section_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_top (label, 6);
  return label;
}

static GtkGrid *
stats_grid (void)
{
  GtkWidget *grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  return GTK_GRID (grid);
}

static void
build (JvmsEventTable *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  /* The filter bar. */
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (bar, "toolbar");
  self->type_chooser = JVMS_EVENT_TYPE_CHOOSER (jvms_event_type_chooser_new ());
  const char *all_threads[] = { _("All Threads"), NULL };
  self->thread_list = gtk_string_list_new (all_threads);
  self->thread_drop = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->thread_list)), NULL));
  gtk_drop_down_set_enable_search (self->thread_drop, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->thread_drop), _("Show events of one thread"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->thread_drop), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Thread"), -1);
  self->search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->search, "placeholder-text", _("Filter events"), NULL);
  gtk_widget_set_hexpand (GTK_WIDGET (self->search), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Filter events by text"), -1);
  self->sort_list = gtk_string_list_new (NULL);
  self->sort_drop = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->sort_list)), NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->sort_drop), _("Sort by this column"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->sort_drop), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Sort by"), -1);
  self->descending_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new ());
  gtk_button_set_icon_name (GTK_BUTTON (self->descending_button), "view-sort-descending-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->descending_button), _("Descending"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->descending_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Descending"), -1);
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  self->count_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "numeric");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->type_chooser));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->thread_drop));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->search));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->sort_drop));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->descending_button));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->spinner));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->count_label));
  gtk_box_append (GTK_BOX (self->box), bar);

  /* The table. */
  self->probe = g_object_new (G_TYPE_OBJECT, NULL);
  self->model = jvms_event_list_model_new ();
  GtkSingleSelection *sel = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->model)));
  gtk_single_selection_set_autoselect (sel, FALSE);
  gtk_single_selection_set_can_unselect (sel, TRUE);
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (sel)));
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Events"), -1);
  static const char *titles[N_FIXED] = { N_("Time"), N_("Duration"), N_("Type"), N_("Thread"), N_("Fields") };
  for (guint i = 0; i < N_FIXED; i++)
    {
      self->fixed[i] = make_column (self, _(titles[i]), i);
      /* Every field's text together: nothing to sort by. */
      if (i == COL_FIELDS)
        gtk_column_view_column_set_sorter (self->fixed[i], NULL);
      gtk_column_view_append_column (self->view, self->fixed[i]);
      /* The view holds it. */
      g_object_unref (self->fixed[i]);
    }
  gtk_column_view_column_set_expand (self->fixed[COL_FIELDS], TRUE);
  self->field_columns = g_ptr_array_new_with_free_func (g_object_unref);
  self->sort_columns = g_ptr_array_new ();
  rebuild_sort_list (self);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  gtk_widget_set_hexpand (scroller, TRUE);
  gtk_widget_set_vexpand (scroller, TRUE);

  /* The statistics. */
  self->stats_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  gtk_widget_set_margin_start (GTK_WIDGET (self->stats_box), 8);
  gtk_widget_set_margin_end (GTK_WIDGET (self->stats_box), 8);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->stats_box), 8);
  self->stats_title = GTK_LABEL (section_label (_("Statistics")));
  self->stats_grid = stats_grid ();
  self->gaps_title = GTK_LABEL (section_label (NULL));
  self->gaps_grid = stats_grid ();
  self->histogram = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_drawing_area_set_content_height (self->histogram, 90);
  gtk_drawing_area_set_draw_func (self->histogram, draw_histogram, self, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->histogram), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Histogram of the time between events"), -1);
  self->syscalls_title = GTK_LABEL (section_label (_("System call latency")));
  self->syscalls_grid = stats_grid ();
  gtk_box_append (self->stats_box, GTK_WIDGET (self->stats_title));
  gtk_box_append (self->stats_box, GTK_WIDGET (self->stats_grid));
  gtk_box_append (self->stats_box, GTK_WIDGET (self->gaps_title));
  gtk_box_append (self->stats_box, GTK_WIDGET (self->gaps_grid));
  gtk_box_append (self->stats_box, GTK_WIDGET (self->histogram));
  gtk_box_append (self->stats_box, GTK_WIDGET (self->syscalls_title));
  gtk_box_append (self->stats_box, GTK_WIDGET (self->syscalls_grid));
  GtkWidget *stats_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (stats_scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (stats_scroller), GTK_WIDGET (self->stats_box));
  gtk_widget_set_size_request (stats_scroller, 420, -1);

  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (paned), scroller);
  gtk_paned_set_end_child (GTK_PANED (paned), stats_scroller);
  gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_box_append (GTK_BOX (self->box), paned);

  g_signal_connect_swapped (self->type_chooser, "changed", G_CALLBACK (type_chosen), self);
  g_signal_connect_swapped (self->thread_drop, "notify::selected", G_CALLBACK (refresh), self);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (start_order), self);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (show_stats_title), self);
  g_signal_connect_swapped (self->sort_drop, "notify::selected", G_CALLBACK (sort_chosen), self);
  g_signal_connect_swapped (self->descending_button, "toggled", G_CALLBACK (sort_chosen), self);
  g_signal_connect (self->view, "activate", G_CALLBACK (row_activated), self);
  g_signal_connect_swapped (gtk_column_view_get_sorter (self->view), "changed",
                            G_CALLBACK (sort_changed), self);
  update_count (self);
  show_stats (self);
}

static void
set_session (JvmsEventTable *self, JvmsSession *session)
{
  g_return_if_fail (self->session == NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::selection-start", G_CALLBACK (session_selection_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::selection-end", G_CALLBACK (session_selection_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::has-selection", G_CALLBACK (session_selection_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "history-changed", G_CALLBACK (session_history_changed),
                           self, G_CONNECT_SWAPPED);
}

static void
jvms_event_table_dispose (GObject *object)
{
  JvmsEventTable *self = JVMS_EVENT_TABLE (object);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->order_cancel != NULL)
    g_cancellable_cancel (self->order_cancel);
  if (self->stats_cancel != NULL)
    g_cancellable_cancel (self->stats_cancel);
  g_clear_object (&self->order_cancel);
  g_clear_object (&self->stats_cancel);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->model);
  g_clear_object (&self->thread_list);
  g_clear_object (&self->sort_list);
  g_clear_pointer (&self->sort_columns, g_ptr_array_unref);
  g_clear_pointer (&self->field_columns, g_ptr_array_unref);
  g_clear_pointer (&self->stats, jvms_event_stats_free);
  g_clear_pointer (&self->store, jvms_event_store_unref);
  g_clear_pointer (&self->thread_names, g_hash_table_unref);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (jvms_event_table_parent_class)->dispose (object);
}

static void
jvms_event_table_finalize (GObject *object)
{
  JvmsEventTable *self = JVMS_EVENT_TABLE (object);
  g_array_unref (self->thread_tids);
  g_free (self->described);
  g_free (self->cells);
  g_clear_object (&self->probe);
  G_OBJECT_CLASS (jvms_event_table_parent_class)->finalize (object);
}

static void
jvms_event_table_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsEventTable *self = JVMS_EVENT_TABLE (object);
  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_event_table_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  JvmsEventTable *self = JVMS_EVENT_TABLE (object);
  switch (prop_id)
    {
    case PROP_SESSION:
      set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_event_table_class_init (JvmsEventTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = jvms_event_table_dispose;
  object_class->finalize = jvms_event_table_finalize;
  object_class->get_property = jvms_event_table_get_property;
  object_class->set_property = jvms_event_table_set_property;
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, JVMS_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY
                                                  | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "eventtable");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
jvms_event_table_init (JvmsEventTable *self)
{
  self->chosen_type = JVMS_EVENT_NONE;
  self->gaps_type = JVMS_EVENT_NONE;
  self->thread_tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  build (self);
}

GtkWidget *
jvms_event_table_new (JvmsSession *session)
{
  g_return_val_if_fail (JVMS_IS_SESSION (session), NULL);
  return g_object_new (JVMS_TYPE_EVENT_TABLE, "session", session, NULL);
}
