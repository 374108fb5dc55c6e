/* jvms-compare-window.c: Compare With… (jvms-compare-window.h). */
#include "config.h"

#include "jvms-compare-window.h"

#include <glib/gi18n.h>

#include "jvms-compare.h"
#include "jvms-compare-table.h"
#include "jvms-scope.h"
#include "jvms-trace-index.h"

/* One trace of the two. */
typedef struct
{
  char           *path;
  JvmsTraceIndex *index;
  JvmsHistory    *history;
  char           *range_why;
} Side;

struct _JvmsCompareWindow
{
  AdwWindow       parent_instance;

  Side            sides[2];        /* baseline, other */
  GCancellable   *cancellable;
  JvmsComparison *comparison;
  char           *error;
  gboolean        busy;

  GtkLabel             *status;
  JvmsCompareTableView *table;
};

G_DEFINE_FINAL_TYPE (JvmsCompareWindow, jvms_compare_window, ADW_TYPE_WINDOW)

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->path, g_free);
  g_clear_object (&side->index);
  g_clear_pointer (&side->history, jvms_history_unref);
  g_clear_pointer (&side->range_why, g_free);
}

static void
fail (JvmsCompareWindow *self, const GError *error)
{
  self->busy = FALSE;
  g_free (self->error);
  self->error = g_strdup (error->message);
  gtk_label_set_text (self->status, error->message);
}

static void
compared (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(JvmsCompareWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  JvmsComparison *comparison = jvms_compare_compute_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (comparison == NULL)
    {
      fail (self, error);
      return;
    }
  self->busy = FALSE;
  self->comparison = comparison;
  jvms_compare_table_view_set_comparison (self->table, comparison);
  g_autofree char *baseline = g_path_get_basename (self->sides[0].path);
  g_autofree char *other = g_path_get_basename (self->sides[1].path);
  /* Translators: the baseline's and the other trace's file names. */
  g_autofree char *title = g_strdup_printf (_("What changed from %s to %s"), baseline, other);
  gtk_label_set_text (self->status, title);
}

static gboolean
side_fill (Side *side, JvmsCompareSide *out, GError **error)
{
  side->history = jvms_trace_index_dup_history (side->index);
  gint64 pid;
  if (!jvms_scope_choose_jvm (side->history, side->path, 0, &pid, error))
    return FALSE;
  gint64 from, to;
  if (!jvms_scope_default_range (side->history, &from, &to, &side->range_why))
    {
      from = jvms_history_get_start_time (side->history);
      to = jvms_history_get_end_time (side->history);
    }
  *out = (JvmsCompareSide) {
    .history = side->history,
    .samples_path = jvms_trace_index_get_samples_path (side->index),
    .from = from,
    .to = to,
    .pid = pid,
    .range_why = side->range_why,
  };
  return TRUE;
}

static void load_next (JvmsCompareWindow *self);

static void
loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(JvmsCompareWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  if (!jvms_trace_index_load_finish (JVMS_TRACE_INDEX (source), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail (self, error);
      return;
    }
  load_next (self);
}

/* Opens the sides one after the other, then compares. */
static void
load_next (JvmsCompareWindow *self)
{
  g_autoptr(GError) error = NULL;
  for (guint i = 0; i < 2; i++)
    if (self->sides[i].index == NULL)
      {
        self->sides[i].index = jvms_trace_index_new (self->sides[i].path, &error);
        if (self->sides[i].index == NULL)
          {
            fail (self, error);
            return;
          }
        /* Translators: %s is a trace's file name. */
        g_autofree char *base = g_path_get_basename (self->sides[i].path);
        g_autofree char *text = g_strdup_printf (_("Opening %s…"), base);
        gtk_label_set_text (self->status, text);
        jvms_trace_index_load_async (self->sides[i].index, self->cancellable, loaded, g_object_ref (self));
        return;
      }
  JvmsCompareSide baseline, other;
  if (!side_fill (&self->sides[0], &baseline, &error) || !side_fill (&self->sides[1], &other, &error))
    {
      fail (self, error);
      return;
    }
  gtk_label_set_text (self->status, _("Comparing…"));
  jvms_compare_compute_async (&baseline, &other, self->cancellable, compared, g_object_ref (self));
}

void
jvms_compare_window_dump_state (JvmsCompareWindow *self, GKeyFile *kf)
{
  g_return_if_fail (JVMS_IS_COMPARE_WINDOW (self));
  g_key_file_set_boolean (kf, "compare", "open", TRUE);
  g_key_file_set_string (kf, "compare", "baseline", self->sides[0].path ? self->sides[0].path : "");
  g_key_file_set_string (kf, "compare", "other", self->sides[1].path ? self->sides[1].path : "");
  g_key_file_set_boolean (kf, "compare", "busy", self->busy);
  g_key_file_set_string (kf, "compare", "error", self->error ? self->error : "");
  g_autoptr(GString) kinds = g_string_new (NULL);
  if (self->comparison != NULL)
    {
      GArray *rows = self->comparison->tables[JVMS_COMPARE_KINDS];
      for (guint i = 0; i < rows->len; i++)
        {
          const JvmsCompareRow *row = &g_array_index (rows, JvmsCompareRow, i);
          g_string_append_printf (kinds, "%s %.17g %.17g %d;", row->name, row->change_per_s,
                                  row->uncertainty_per_s, row->significant);
        }
    }
  g_key_file_set_string (kf, "compare", "kinds", kinds->str);
  /* The table: every table's rows, the one shown as it is sorted, its cells, its headers. */
  for (guint t = 0; t < JVMS_COMPARE_TABLE_N; t++)
    {
      g_autofree char *key = g_strconcat ("rows-", jvms_compare_table_name (t), NULL);
      g_autofree char *rows = jvms_compare_table_view_describe_rows (self->table, t);
      g_key_file_set_string (kf, "compare", key, rows);
    }
  g_key_file_set_string (kf, "compare", "table",
                         jvms_compare_table_name (jvms_compare_table_view_get_table (self->table)));
  g_autofree char *shown = jvms_compare_table_view_describe_shown (self->table, FALSE);
  g_key_file_set_string (kf, "compare", "shown", shown);
  g_autofree char *cells = jvms_compare_table_view_describe_shown (self->table, TRUE);
  g_key_file_set_string (kf, "compare", "cells", cells);
  g_autofree char *headers = jvms_compare_table_view_describe_headers (self->table, GTK_WIDGET (self));
  g_key_file_set_string (kf, "compare", "headers", headers);
}

static void
jvms_compare_window_dispose (GObject *object)
{
  JvmsCompareWindow *self = JVMS_COMPARE_WINDOW (object);
  g_cancellable_cancel (self->cancellable);
  G_OBJECT_CLASS (jvms_compare_window_parent_class)->dispose (object);
}

static void
jvms_compare_window_finalize (GObject *object)
{
  JvmsCompareWindow *self = JVMS_COMPARE_WINDOW (object);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->comparison, jvms_comparison_free);
  for (guint i = 0; i < 2; i++)
    side_clear (&self->sides[i]);
  g_free (self->error);
  G_OBJECT_CLASS (jvms_compare_window_parent_class)->finalize (object);
}

static void
jvms_compare_window_class_init (JvmsCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = jvms_compare_window_dispose;
  object_class->finalize = jvms_compare_window_finalize;
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
jvms_compare_window_init (JvmsCompareWindow *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_window_set_title (GTK_WINDOW (self), _("Compare Traces"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1100, 760);

  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_widget_set_margin_start (GTK_WIDGET (self->status), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->status), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->status), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->status), 6);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));
  self->table = JVMS_COMPARE_TABLE_VIEW (jvms_compare_table_view_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->table), TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->table), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->table), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->table), 6);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->table));
  adw_window_set_content (ADW_WINDOW (self), box);
}

JvmsCompareWindow *
jvms_compare_window_new (GtkWindow *parent, GFile *baseline, GFile *other)
{
  JvmsCompareWindow *self = g_object_new (JVMS_TYPE_COMPARE_WINDOW, "transient-for", parent, NULL);
  self->sides[0].path = g_file_get_path (baseline);
  self->sides[1].path = g_file_get_path (other);
  if (self->sides[0].path == NULL || self->sides[1].path == NULL)
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                                     _("Only local traces can be compared."));
      fail (self, error);
      return self;
    }
  self->busy = TRUE;
  load_next (self);
  return self;
}
