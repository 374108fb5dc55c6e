/* jvms-compare-window.c: Compare With… (jvms-compare-window.h). */
#include "config.h"

#include "jvms-compare-window.h"

#include <glib/gi18n.h>

#include <math.h>

#include "jvms-compare.h"
#include "jvms-compare-profile.h"
#include "jvms-compare-table.h"
#include "jvms-compare-views.h"
#include "jvms-diff-flame.h"
#include "jvms-profile.h"
#include "jvms-scope.h"
#include "jvms-session.h"
#include "jvms-trace-index.h"

/* One trace of the two. */
typedef struct
{
  char           *path;
  JvmsTraceIndex *index;
  JvmsHistory    *history;
  char           *range_why;
  JvmsProfile    *profile;     /* the sample store's profiles; NULL without one */
  JvmsCallTree   *tree;        /* its CPU profile over the range compared */
  gint64          from, to;    /* the range compared, epoch ns */
  gboolean        chosen;      /* [chosen_from, chosen_to) chosen (else the default range) */
  gint64          chosen_from, chosen_to;
  gint64          chosen_pid;  /* the JVM typed in (--baseline-pid); 0: the command's choice */
  gint64          pid;         /* the JVM compared */
  GtkEntry       *from_entry, *to_entry, *pid_entry;
  char           *shown;       /* what the entries were given, "FROM\x1fTO": untouched, they
                                * keep the exact range (their text is rounded to the ms) */
} Side;

struct _JvmsCompareWindow
{
  AdwWindow       parent_instance;

  Side            sides[2];        /* baseline, other */
  GCancellable   *cancellable;     /* the window's life */
  GCancellable   *run;             /* the comparison in flight */
  JvmsComparison *comparison;
  char           *error;
  gboolean        busy;
  guint           pending;         /* answers the run still waits for: comparison, two trees */
  gboolean        loaded;

  GtkLabel             *status;
  JvmsCompareTableView *table;
  GtkLabel             *flame_status;
  JvmsDiffFlame        *flame;
  JvmsCompareViews     *views;     /* both traces' threads views, stacked */
  guint                 lead;      /* the side whose range changed last: its view leads */
};

G_DEFINE_FINAL_TYPE (JvmsCompareWindow, jvms_compare_window, ADW_TYPE_WINDOW)

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->path, g_free);
  g_clear_object (&side->index);
  g_clear_pointer (&side->history, jvms_history_unref);
  g_clear_pointer (&side->range_why, g_free);
  g_clear_object (&side->profile);
  g_clear_object (&side->tree);
  g_clear_pointer (&side->shown, g_free);
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
  /* An answer that came after the window closed (its work was done before the cancel). */
  if (g_cancellable_is_cancelled (self->cancellable))
    {
      g_clear_pointer (&comparison, jvms_comparison_free);
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (comparison == NULL)
    {
      fail (self, error);
      return;
    }
  g_clear_pointer (&self->comparison, jvms_comparison_free);
  self->comparison = comparison;
  self->busy = --self->pending > 0;
  jvms_compare_table_view_set_comparison (self->table, comparison);
  g_autofree char *baseline = g_path_get_basename (self->sides[0].path);
  g_autofree char *other = g_path_get_basename (self->sides[1].path);
  /* Translators: the baseline's and the other trace's file names. */
  g_autofree char *title = g_strdup_printf (_("What changed from %s to %s"), baseline, other);
  gtk_label_set_text (self->status, title);
}

/* The side's JVM and range: the range chosen (the baseline's selection, or the entries), else
 * the command's default. */
static gboolean
side_fill (Side *side, JvmsCompareSide *out, GError **error)
{
  if (side->history == NULL)
    side->history = jvms_trace_index_dup_history (side->index);
  gint64 pid;
  if (!jvms_scope_choose_jvm (side->history, side->path, side->chosen_pid, &pid, error))
    return FALSE;
  side->pid = pid;
  gint64 from, to;
  g_clear_pointer (&side->range_why, g_free);
  if (side->chosen)
    {
      from = side->chosen_from;
      to = side->chosen_to;
    }
  else if (!jvms_scope_default_range (side->history, &from, &to, &side->range_why))
    {
      from = jvms_history_get_start_time (side->history);
      to = jvms_history_get_end_time (side->history);
    }
  side->from = from;
  side->to = to;
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
static void start_run (JvmsCompareWindow *self);

/* ---- the differential flame graph ------------------------------------------------------------ */

static void
profiled (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(JvmsCompareWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  JvmsCallTree *tree = jvms_profile_query_finish (JVMS_PROFILE (source), result, &error);
  /* An answer that came after the window closed (its work was done before the cancel). */
  if (g_cancellable_is_cancelled (self->cancellable))
    {
      g_clear_object (&tree);
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  guint i = JVMS_PROFILE (source) == self->sides[0].profile ? 0 : 1;
  g_clear_object (&self->sides[i].tree);
  self->sides[i].tree = tree;
  self->busy = --self->pending > 0;
  if (tree == NULL)
    {
      gtk_label_set_text (self->flame_status, error->message);
      return;
    }
  if (self->sides[0].tree == NULL || self->sides[1].tree == NULL)
    return;
  jvms_diff_flame_set_diff (self->flame, jvms_profile_diff_new (self->sides[0].tree, self->sides[1].tree));
  g_autofree char *other = g_path_get_basename (self->sides[1].path);
  g_autofree char *other_n = g_strdup_printf ("%" G_GUINT64_FORMAT, jvms_call_tree_get_total (self->sides[1].tree));
  g_autofree char *baseline_n = g_strdup_printf ("%" G_GUINT64_FORMAT, jvms_call_tree_get_total (self->sides[0].tree));
  /* Translators: over the differential flame graph: the other trace's name and the two sides'
   * CPU samples. */
  g_autofree char *text = g_strdup_printf (_("CPU samples of %s (%s, baseline %s): widths from it, frames whose "
                                             "share of the samples grew in vermillion, shrank in blue; the label "
                                             "says by how many points"),
                                           other, other_n, baseline_n);
  gtk_label_set_text (self->flame_status, text);
}

/* Asks each side's CPU profile over its range, as `jvmscope-cli compare --profile` does. */
static void
start_profiles (JvmsCompareWindow *self)
{
  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];
      g_clear_object (&side->tree);
      const char *samples = jvms_trace_index_get_samples_path (side->index);
      g_autoptr(GError) error = NULL;
      if (side->profile == NULL && samples != NULL && g_file_test (samples, G_FILE_TEST_EXISTS))
        side->profile = jvms_profile_open (samples, &error);
      if (side->profile == NULL)
        {
          g_autofree char *base = g_path_get_basename (side->path);
          /* Translators: %s is a trace's file name. */
          g_autofree char *text = g_strdup_printf (_("%s has no samples with stacks: no flame graph"), base);
          gtk_label_set_text (self->flame_status, error != NULL ? error->message : text);
          continue;
        }
      JvmsProfileQuery query = { .from = side->from, .to = side->to, .kind = JVMS_PROFILE_KIND_CPU };
      self->pending++;
      jvms_profile_query_async (side->profile, &query, self->run, profiled, g_object_ref (self));
    }
}

/* ---- ranges --------------------------------------------------------------------------------- */

/* A range's end as the entries show it: seconds from the trace's start. */
static void
show_range (Side *side)
{
  gint64 start = jvms_history_get_start_time (side->history);
  g_autofree char *from = g_strdup_printf ("%.3f", (side->from - start) / 1e9);
  g_autofree char *to = g_strdup_printf ("%.3f", (side->to - start) / 1e9);
  gtk_editable_set_text (GTK_EDITABLE (side->from_entry), from);
  gtk_editable_set_text (GTK_EDITABLE (side->to_entry), to);
  g_autofree char *pid = side->pid > 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, side->pid) : g_strdup ("");
  gtk_editable_set_text (GTK_EDITABLE (side->pid_entry), pid);
  g_free (side->shown);
  side->shown = g_strconcat (from, "\x1f", to, NULL);
}

/* Compares again with each side's range as chosen; what was in flight is cancelled. */
static void
start_run (JvmsCompareWindow *self)
{
  /* A closed window (the main window's selection is cleared as it closes too). */
  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  g_autoptr(GError) error = NULL;
  JvmsCompareSide baseline, other;
  if (!side_fill (&self->sides[0], &baseline, &error) || !side_fill (&self->sides[1], &other, &error))
    {
      fail (self, error);
      return;
    }
  g_cancellable_cancel (self->run);
  g_clear_object (&self->run);
  self->run = g_cancellable_new ();
  /* Each trace's threads view on its own axis, the ranges compared selected, aligned at their
   * starts. */
  gint64 from[2], to[2];
  gboolean chosen[2];
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *base = g_path_get_basename (self->sides[i].path);
      jvms_compare_views_set_history (self->views, i, base, self->sides[i].history);
      from[i] = self->sides[i].from;
      to[i] = self->sides[i].to;
      chosen[i] = self->sides[i].chosen;
    }
  jvms_compare_views_show_ranges (self->views, from, to, chosen, self->lead);
  g_clear_pointer (&self->error, g_free);
  self->busy = TRUE;
  self->pending = 1;
  for (guint i = 0; i < 2; i++)
    show_range (&self->sides[i]);
  gtk_label_set_text (self->status, _("Comparing…"));
  jvms_compare_compute_async (&baseline, &other, self->run, compared, g_object_ref (self));
  start_profiles (self);
}

/* Seconds from the trace's start ("1.5"); FALSE when @text is not a number. */
static gboolean
parse_offset (const char *text, double *seconds)
{
  char *end = NULL;
  *seconds = g_ascii_strtod (text, &end);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  return end != text && end != NULL && *end == '\0' && isfinite (*seconds) && *seconds >= 0;
}

/* The entries' ranges (Return in one of them, or Compare). */
static void
apply_ranges (JvmsCompareWindow *self)
{
  if (!self->loaded)
    return;
  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];
      /* The JVM (--baseline-pid, --other-pid): empty is the command's choice. */
      const char *pid_text = gtk_editable_get_text (GTK_EDITABLE (side->pid_entry));
      char *end = NULL;
      gint64 pid = *pid_text == '\0' ? 0 : g_ascii_strtoll (pid_text, &end, 10);
      if (*pid_text != '\0' && (end == NULL || *end != '\0' || pid <= 0))
        {
          /* Translators: %s is "baseline" or "other". */
          g_autofree char *text = g_strdup_printf (_("The %s's JVM is a process number."),
                                                   i == 0 ? _("baseline") : _("other"));
          gtk_label_set_text (self->status, text);
          return;
        }
      side->chosen_pid = pid;
      g_autofree char *texts = g_strconcat (gtk_editable_get_text (GTK_EDITABLE (side->from_entry)), "\x1f",
                                            gtk_editable_get_text (GTK_EDITABLE (side->to_entry)), NULL);
      if (g_strcmp0 (texts, side->shown) == 0)
        continue;
      double from, to;
      if (!parse_offset (gtk_editable_get_text (GTK_EDITABLE (side->from_entry)), &from)
          || !parse_offset (gtk_editable_get_text (GTK_EDITABLE (side->to_entry)), &to) || to <= from)
        {
          /* Translators: %s is "baseline" or "other". */
          g_autofree char *text = g_strdup_printf (_("The %s's range is two times in seconds from its start, the first before the second."),
                                                   i == 0 ? _("baseline") : _("other"));
          gtk_label_set_text (self->status, text);
          return;
        }
      gint64 start = jvms_history_get_start_time (side->history);
      self->lead = i;
      side->chosen = TRUE;
      side->chosen_from = start + (gint64) llround (from * 1e9);
      side->chosen_to = start + (gint64) llround (to * 1e9);
    }
  start_run (self);
}

static void
loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(JvmsCompareWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean done = jvms_trace_index_load_finish (JVMS_TRACE_INDEX (source), result, &error);
  /* Nothing to show in a window that closed meanwhile. */
  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (!done)
    {
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
  self->loaded = TRUE;
  start_run (self);
}

void
jvms_compare_window_set_range (JvmsCompareWindow *self, guint side, gint64 from, gint64 to)
{
  g_return_if_fail (JVMS_IS_COMPARE_WINDOW (self));
  g_return_if_fail (side < 2);
  Side *s = &self->sides[side];
  gboolean chosen = to > from;
  if (chosen == s->chosen && (!chosen || (from == s->chosen_from && to == s->chosen_to)))
    return;
  s->chosen = chosen;
  s->chosen_from = from;
  s->chosen_to = to;
  self->lead = side;
  if (self->loaded)
    start_run (self);
}

/* A range dragged in one of the stacked threads views. */
static void
view_selected (guint side, gint64 from, gint64 to, gpointer user_data)
{
  jvms_compare_window_set_range (JVMS_COMPARE_WINDOW (user_data), side, from, to);
}

static void
selection_changed (JvmsSession *session, GParamSpec *pspec, JvmsCompareWindow *self)
{
  gint64 from = 0, to = 0;
  if (!jvms_session_get_selection (session, &from, &to))
    from = to = 0;
  jvms_compare_window_set_range (self, 0, MIN (from, to), MAX (from, to));
}

void
jvms_compare_window_follow_selection (JvmsCompareWindow *self, gpointer session)
{
  g_return_if_fail (JVMS_IS_COMPARE_WINDOW (self));
  g_return_if_fail (JVMS_IS_SESSION (session));
  g_signal_connect_object (session, "notify::selection-end", G_CALLBACK (selection_changed), self, 0);
  g_signal_connect_object (session, "notify::has-selection", G_CALLBACK (selection_changed), self, 0);
  selection_changed (session, NULL, self);
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
  /* Each side's range as compared (epoch ns), and the controls' bounds. */
  g_autoptr(GString) controls = g_string_new (NULL);
  for (guint i = 0; i < 2; i++)
    {
      const char *name = i == 0 ? "baseline" : "other";
      g_autofree char *from_key = g_strconcat (name, "-from", NULL);
      g_autofree char *to_key = g_strconcat (name, "-to", NULL);
      g_key_file_set_int64 (kf, "compare", from_key, self->sides[i].from);
      g_key_file_set_int64 (kf, "compare", to_key, self->sides[i].to);
      g_autofree char *pid_key = g_strconcat (name, "-pid", NULL);
      g_key_file_set_int64 (kf, "compare", pid_key, self->sides[i].pid);
      GtkWidget *entries[3] = { GTK_WIDGET (self->sides[i].from_entry), GTK_WIDGET (self->sides[i].to_entry),
                                GTK_WIDGET (self->sides[i].pid_entry) };
      static const char *const entry_names[3] = { "from", "to", "pid" };
      for (guint e = 0; e < 3; e++)
        {
          graphene_rect_t r;
          if (gtk_widget_compute_bounds (entries[e], GTK_WIDGET (self), &r))
            g_string_append_printf (controls, "%s-%s=%d,%d,%d,%d;", name, entry_names[e],
                                    (int) r.origin.x, (int) r.origin.y, (int) r.size.width, (int) r.size.height);
        }
    }
  graphene_rect_t r;
  if (gtk_widget_compute_bounds (GTK_WIDGET (self->flame), GTK_WIDGET (self), &r))
    g_string_append_printf (controls, "flame=%d,%d,%d,%d;", (int) r.origin.x, (int) r.origin.y,
                            (int) r.size.width, (int) r.size.height);
  g_key_file_set_string (kf, "compare", "controls", controls->str);
  /* The differential flame graph: each side's total, and the frames drawn, widest first. */
  JvmsProfileDiff *diff = jvms_diff_flame_get_diff (self->flame);
  g_key_file_set_uint64 (kf, "compare", "flame-baseline-total", diff ? jvms_call_tree_get_total (jvms_profile_diff_get_baseline (diff)) : 0);
  g_key_file_set_uint64 (kf, "compare", "flame-other-total", diff ? jvms_call_tree_get_total (jvms_profile_diff_get_other (diff)) : 0);
  g_autofree char *frames = jvms_diff_flame_describe_frames (self->flame, 200);
  g_key_file_set_string (kf, "compare", "flame-frames", frames);
  jvms_compare_views_dump_state (self->views, kf, GTK_WIDGET (self));
}

static void
jvms_compare_window_dispose (GObject *object)
{
  JvmsCompareWindow *self = JVMS_COMPARE_WINDOW (object);
  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->run);
  G_OBJECT_CLASS (jvms_compare_window_parent_class)->dispose (object);
}

static void
jvms_compare_window_finalize (GObject *object)
{
  JvmsCompareWindow *self = JVMS_COMPARE_WINDOW (object);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->run);
  g_clear_pointer (&self->comparison, jvms_comparison_free);
  g_clear_pointer (&self->views, jvms_compare_views_free);
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
  gtk_window_set_default_size (GTK_WINDOW (self), 1100, 960);

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
  /* Each side's range: seconds from its start (the baseline's follows the main window's
   * selection); Return or Compare applies them. */
  GtkWidget *ranges = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (ranges, 12);
  gtk_widget_set_margin_end (ranges, 12);
  gtk_widget_set_margin_bottom (ranges, 6);
  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];
      /* Translators: before the baseline's and the other trace's range entries. */
      GtkWidget *label = gtk_label_new (i == 0 ? _("Baseline from") : _("Other from"));
      gtk_box_append (GTK_BOX (ranges), label);
      side->from_entry = GTK_ENTRY (gtk_entry_new ());
      side->to_entry = GTK_ENTRY (gtk_entry_new ());
      GtkEntry *entries[2] = { side->from_entry, side->to_entry };
      for (guint e = 0; e < 2; e++)
        {
          gtk_editable_set_width_chars (GTK_EDITABLE (entries[e]), 8);
          gtk_entry_set_input_purpose (entries[e], GTK_INPUT_PURPOSE_NUMBER);
          g_signal_connect_swapped (entries[e], "activate", G_CALLBACK (apply_ranges), self);
          gtk_accessible_update_property (GTK_ACCESSIBLE (entries[e]), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                          e == 0 ? (i == 0 ? _("Baseline from, seconds") : _("Other from, seconds"))
                                                 : (i == 0 ? _("Baseline to, seconds") : _("Other to, seconds")),
                                          -1);
          gtk_box_append (GTK_BOX (ranges), GTK_WIDGET (entries[e]));
          if (e == 0)
            gtk_box_append (GTK_BOX (ranges), gtk_label_new (_("to")));
        }
      /* Translators: the unit after a range's entries. */
      gtk_box_append (GTK_BOX (ranges), gtk_label_new (_("s")));
      /* Translators: before the entry of a side's JVM (its process number). */
      gtk_box_append (GTK_BOX (ranges), gtk_label_new (_("JVM")));
      side->pid_entry = GTK_ENTRY (gtk_entry_new ());
      gtk_editable_set_width_chars (GTK_EDITABLE (side->pid_entry), 7);
      gtk_entry_set_input_purpose (side->pid_entry, GTK_INPUT_PURPOSE_DIGITS);
      g_signal_connect_swapped (side->pid_entry, "activate", G_CALLBACK (apply_ranges), self);
      gtk_accessible_update_property (GTK_ACCESSIBLE (side->pid_entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      i == 0 ? _("Baseline JVM") : _("Other JVM"), -1);
      gtk_box_append (GTK_BOX (ranges), GTK_WIDGET (side->pid_entry));
    }
  GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Compare"));
  g_signal_connect_swapped (apply, "clicked", G_CALLBACK (apply_ranges), self);
  gtk_box_append (GTK_BOX (ranges), apply);
  gtk_box_append (GTK_BOX (box), ranges);

  self->table = JVMS_COMPARE_TABLE_VIEW (jvms_compare_table_view_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->table), TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->table), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->table), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->table), 6);

  GtkWidget *flame_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->flame_status = GTK_LABEL (gtk_label_new (_("Differential flame graph")));
  gtk_label_set_wrap (self->flame_status, TRUE);
  gtk_label_set_xalign (self->flame_status, 0);
  gtk_widget_set_margin_start (GTK_WIDGET (self->flame_status), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->flame_status), 6);
  gtk_box_append (GTK_BOX (flame_box), GTK_WIDGET (self->flame_status));
  self->flame = JVMS_DIFF_FLAME (jvms_diff_flame_new ());
  gtk_widget_set_margin_start (GTK_WIDGET (self->flame), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->flame), 12);
  GtkWidget *flame_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (flame_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (flame_scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (flame_scroller), GTK_WIDGET (self->flame));
  gtk_box_append (GTK_BOX (flame_box), flame_scroller);

  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (paned), GTK_WIDGET (self->table));
  gtk_paned_set_end_child (GTK_PANED (paned), flame_box);
  gtk_paned_set_position (GTK_PANED (paned), 210);
  gtk_widget_set_vexpand (paned, TRUE);
  /* Above the comparison, both traces' threads views, each on its own time axis. */
  self->views = jvms_compare_views_new (view_selected, self);
  GtkWidget *outer = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (outer), jvms_compare_views_get_widget (self->views));
  gtk_paned_set_end_child (GTK_PANED (outer), paned);
  gtk_paned_set_position (GTK_PANED (outer), 360);
  gtk_paned_set_shrink_start_child (GTK_PANED (outer), FALSE);
  gtk_widget_set_vexpand (outer, TRUE);
  gtk_box_append (GTK_BOX (box), outer);
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
