/* jvms-selection-panel.c: the side panel; statistics are computed off the main thread. */
#include "config.h"

#include "jvms-selection-panel.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "jvms-history.h"
#include "jvms-thread-state-table.h"

struct _JvmsSelectionPanel
{
  GtkWidget           parent_instance;

  JvmsHistory        *history;
  char               *samples_path;
  gint64              t0;
  gint64              t1;
  GCancellable       *cancellable;
  JvmsRangeStats     *stats;
  JvmsSession        *session;

  GtkLabel           *range_label;
  GtkSpinner         *spinner;
  GtkBox             *sections_box;
  /* Time per thread state: a list model, not a widget per row (thousands of threads). */
  JvmsThreadStateTable *thread_states;
};

enum {
  PROP_0,
  PROP_STATS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (JvmsSelectionPanel, jvms_selection_panel, GTK_TYPE_WIDGET)

static JvmsTimeUnit
time_unit (JvmsSelectionPanel *self)
{
  return self->session != NULL ? jvms_session_get_time_unit (self->session) : JVMS_TIME_UNIT_AUTO;
}

/* Subjects are stable names (exports); those of the events section have a display name. */
static const char *
subject_title (const char *section, const char *subject)
{
  if (g_strcmp0 (section, "events") == 0 && g_strcmp0 (subject, "jfr") == 0)
    return _("Java Flight Recorder");
  if (g_strcmp0 (section, "events") == 0 && g_strcmp0 (subject, "kernel") == 0)
    return _("Linux Kernel");
  return subject;
}

static const char *
section_title (const char *section)
{
  if (g_strcmp0 (section, "thread-states") == 0)
    return _("Time per Thread State");
  if (g_strcmp0 (section, "events") == 0)
    return _("Events by Type");
  if (g_strcmp0 (section, "locks") == 0)
    return _("Lock Waits by Monitor");
  if (g_strcmp0 (section, "gc") == 0)
    return _("GC Pauses");
  if (g_strcmp0 (section, "counters") == 0)
    return _("Counters");
  if (g_strcmp0 (section, "findings") == 0)
    return _("Findings");
  return section;
}

static void
clear_sections (JvmsSelectionPanel *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->sections_box))) != NULL)
    gtk_box_remove (self->sections_box, child);
}

static void
show_stats (JvmsSelectionPanel *self)
{
  clear_sections (self);
  if (self->stats == NULL)
    {
      jvms_thread_state_table_set_stats (self->thread_states, NULL, time_unit (self));
      return;
    }

  /* Rows come grouped by section and subject: one group per section, one expander row per
   * subject, one row per key. */
  AdwPreferencesGroup *group = NULL;
  AdwExpanderRow *subject_row = NULL;
  const char *section = NULL, *subject = NULL;
  guint n_subjects = 0;

  jvms_thread_state_table_set_stats (self->thread_states, self->stats, time_unit (self));
  for (guint i = 0; i < self->stats->rows->len; i++)
    {
      const JvmsStatRow *row = g_ptr_array_index (self->stats->rows, i);
      if (g_strcmp0 (row->section, "thread-states") == 0)
        {
          /* The table lists them all, where the section's group would be. */
          if (gtk_widget_get_parent (GTK_WIDGET (self->thread_states)) == NULL)
            gtk_box_append (self->sections_box, GTK_WIDGET (self->thread_states));
          section = row->section;
          continue;
        }
      if (g_strcmp0 (row->section, section) != 0)
        {
          group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
          adw_preferences_group_set_title (group, section_title (row->section));
          gtk_box_append (self->sections_box, GTK_WIDGET (group));
          section = row->section;
          subject = NULL;
          n_subjects = 0;
        }
      if (g_strcmp0 (row->subject, subject) != 0)
        {
          g_autofree char *title = g_markup_escape_text (subject_title (row->section, row->subject), -1);
          subject_row = ADW_EXPANDER_ROW (adw_expander_row_new ());
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (subject_row), title);
          /* The first few open, so that a glance shows numbers. */
          adw_expander_row_set_expanded (subject_row, n_subjects < 3);
          adw_preferences_group_add (group, GTK_WIDGET (subject_row));
          subject = row->subject;
          n_subjects++;
        }
      adw_expander_row_add_row (subject_row, jvms_stat_row_widget_new (row, time_unit (self)));
    }
  if (self->stats->rows->len == 0)
    {
      GtkWidget *label = gtk_label_new (_("Nothing was recorded in this range."));
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->sections_box, label);
    }
}

static void
set_stats (JvmsSelectionPanel *self, JvmsRangeStats *stats)
{
  g_clear_pointer (&self->stats, jvms_range_stats_free);
  self->stats = stats;
  show_stats (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATS]);
}

static void
compute_done (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(GError) error = NULL;
  JvmsRangeStats *stats = jvms_range_stats_compute_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return; /* the panel may be gone; a newer range is being computed */

  JvmsSelectionPanel *self = JVMS_SELECTION_PANEL (user_data);
  gtk_spinner_stop (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  if (stats == NULL)
    {
      /* Translators: %s is why the statistics could not be computed. */
      g_autofree char *text = g_strdup_printf (_("Could not compute statistics: %s"), error->message);
      gtk_label_set_text (self->range_label, text);
      set_stats (self, NULL);
      return;
    }
  set_stats (self, stats);
}

/* The length of the range, and where it lies in the time-origin setting's terms. */
static void
update_range_label (JvmsSelectionPanel *self)
{
  if (self->history == NULL || self->t1 <= self->t0)
    return;
  gint64 start = jvms_history_get_start_time (self->history);
  JvmsTimeOrigin origin = self->session != NULL ? jvms_session_get_time_origin (self->session)
                                                : JVMS_TIME_ORIGIN_TRACE_START;
  g_autofree char *duration = jvms_time_format_duration (self->t1 - self->t0, time_unit (self));
  /* Signed, so that an instant from the trace start does not read as a duration. */
  g_autofree char *from = jvms_time_format_instant (self->t0, start, time_unit (self), origin, 0,
                                                    TRUE);
  g_autofree char *to = jvms_time_format_instant (self->t1, start, time_unit (self), origin, 0,
                                                  TRUE);
  /* Translators: %s is the length of the selected time range. */
  g_autofree char *length = g_strdup_printf (_("%s selected"), duration);
  /* Translators: the selected range's first and last instant ("+1.200 s", "14:03:22.123456"). */
  g_autofree char *span = g_strdup_printf (_("From %s to %s"), from, to);
  g_autofree char *text = g_strconcat (length, "\n", span, NULL);
  gtk_label_set_text (self->range_label, text);
}

static void
recompute (JvmsSelectionPanel *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (self->history == NULL || self->t1 <= self->t0)
    {
      gtk_label_set_text (self->range_label, _("Drag across the views to select a time range."));
      gtk_spinner_stop (self->spinner);
      gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
      set_stats (self, NULL);
      return;
    }

  update_range_label (self);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  gtk_spinner_start (self->spinner);

  self->cancellable = g_cancellable_new ();
  /* The callback touches the panel only when not cancelled, and dispose cancels. */
  jvms_range_stats_compute_async (self->history, self->samples_path, self->t0, self->t1,
                                      self->cancellable, compute_done, self);
}

void
jvms_selection_panel_set_history (JvmsSelectionPanel *self, JvmsHistory *history)
{
  g_return_if_fail (JVMS_IS_SELECTION_PANEL (self));

  if (history == self->history)
    return;
  g_clear_pointer (&self->history, jvms_history_unref);
  self->history = history != NULL ? jvms_history_ref (history) : NULL;
  recompute (self);
}

static void set_range (JvmsSelectionPanel *self, gint64 t0, gint64 t1);

/* The panel follows the session's selection itself: the session owns the selection, and no
 * window code has to remember to pass it on. No selection: the range 0, 0 (nothing shown). */
static void
session_selection_changed (JvmsSelectionPanel *self)
{
  gint64 start = 0, end = 0;

  if (self->session == NULL || !jvms_session_get_selection (self->session, &start, &end))
    start = end = 0;
  set_range (self, start, end);
}

static void
time_format_changed (JvmsSelectionPanel *self)
{
  update_range_label (self);
  show_stats (self);
}

void
jvms_selection_panel_set_session (JvmsSelectionPanel *self, JvmsSession *session)
{
  g_return_if_fail (JVMS_IS_SELECTION_PANEL (self));
  g_return_if_fail (session == NULL || JVMS_IS_SESSION (session));

  if (session == self->session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    {
      g_signal_connect_object (session, "notify::time-unit", G_CALLBACK (time_format_changed),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::time-origin", G_CALLBACK (time_format_changed),
                               self, G_CONNECT_SWAPPED);
      /* The session notifies the three together (frozen), so one recompute per change. */
      g_signal_connect_object (session, "notify::selection-start",
                               G_CALLBACK (session_selection_changed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::selection-end",
                               G_CALLBACK (session_selection_changed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::has-selection",
                               G_CALLBACK (session_selection_changed), self, G_CONNECT_SWAPPED);
    }
  time_format_changed (self);
  session_selection_changed (self);
}

const char *
jvms_selection_panel_get_range_text (JvmsSelectionPanel *self)
{
  g_return_val_if_fail (JVMS_IS_SELECTION_PANEL (self), NULL);
  return gtk_label_get_text (self->range_label);
}

void
jvms_selection_panel_set_samples_path (JvmsSelectionPanel *self, const char *samples_path)
{
  g_return_if_fail (JVMS_IS_SELECTION_PANEL (self));

  if (g_strcmp0 (samples_path, self->samples_path) == 0)
    return;
  g_free (self->samples_path);
  self->samples_path = g_strdup (samples_path);
  recompute (self);
}

/* Recomputes for [@t0, @t1]; an empty range (t1 <= t0) clears the panel. */
static void
set_range (JvmsSelectionPanel *self, gint64 t0, gint64 t1)
{
  if (t0 == self->t0 && t1 == self->t1)
    return;
  self->t0 = t0;
  self->t1 = t1;
  recompute (self);
}

const JvmsRangeStats *
jvms_selection_panel_get_stats (JvmsSelectionPanel *self)
{
  g_return_val_if_fail (JVMS_IS_SELECTION_PANEL (self), NULL);
  return self->stats;
}

void
jvms_selection_panel_add_section (JvmsSelectionPanel *self, GtkWidget *section)
{
  g_return_if_fail (JVMS_IS_SELECTION_PANEL (self));
  GtkWidget *box = gtk_widget_get_parent (GTK_WIDGET (self->sections_box));
  gtk_box_insert_child_after (GTK_BOX (box), section, GTK_WIDGET (self->spinner));
}

static void
jvms_selection_panel_dispose (GObject *object)
{
  JvmsSelectionPanel *self = JVMS_SELECTION_PANEL (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->stats, jvms_range_stats_free);
  g_clear_pointer (&self->history, jvms_history_unref);
  g_clear_pointer (&self->samples_path, g_free);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->thread_states);
  gtk_widget_dispose_template (GTK_WIDGET (self), JVMS_TYPE_SELECTION_PANEL);
  /* The template's top child has no id, so dispose_template leaves it. */
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (jvms_selection_panel_parent_class)->dispose (object);
}

static void
jvms_selection_panel_get_property (GObject *object, guint prop_id, GValue *value,
                                   GParamSpec *pspec)
{
  JvmsSelectionPanel *self = JVMS_SELECTION_PANEL (object);

  switch (prop_id)
    {
    case PROP_STATS: g_value_set_pointer (value, self->stats); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_selection_panel_class_init (JvmsSelectionPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jvms_selection_panel_dispose;
  object_class->get_property = jvms_selection_panel_get_property;

  properties[PROP_STATS] =
    g_param_spec_pointer ("stats", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jvmscope/Jvmscope/jvms-selection-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, JvmsSelectionPanel, range_label);
  gtk_widget_class_bind_template_child (widget_class, JvmsSelectionPanel, spinner);
  gtk_widget_class_bind_template_child (widget_class, JvmsSelectionPanel, sections_box);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "jvms-selection-panel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
jvms_selection_panel_init (JvmsSelectionPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Kept while out of the sections box (they are rebuilt at each new selection). */
  self->thread_states = g_object_ref_sink (JVMS_THREAD_STATE_TABLE (jvms_thread_state_table_new ()));
}

void
jvms_selection_panel_dump_state (JvmsSelectionPanel *self, GKeyFile *key_file)
{
  g_return_if_fail (JVMS_IS_SELECTION_PANEL (self));
  jvms_thread_state_table_dump_state (self->thread_states, key_file);
}
