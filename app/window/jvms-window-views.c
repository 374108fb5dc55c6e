/* jvms-window-views.c: the stacked views of a window (see the header). */
#include "config.h"

#include "jvms-window-views.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "jvms-window.h"
#include "jvms-window-debug.h"

#include "jvms-allocation-view.h"
#include "jvms-events-view.h"
#include "jvms-cause-link.h"
#include "jvms-counters-view.h"
#include "jvms-cpus-view.h"
#include "jvms-disk-view.h"
#include "jvms-event-store.h"
#include "jvms-event-table.h"
#include "jvms-findings-list.h"
#include "jvms-gc-view.h"
#include "jvms-gc-workers-view.h"
#include "jvms-jit-view.h"
#include "jvms-locks-view.h"
#include "jvms-object-age-view.h"
#include "jvms-path-section.h"
#include "jvms-session.h"
#include "jvms-thread-list.h"
#include "jvms-thread-marks.h"
#include "jvms-threads-view.h"
#include "jvms-time-ruler.h"
#include "jvms-timeline.h"
#include "jvms-view-catalog.h"
#include "jvms-view-choice.h"
#include "jvms-vm-operations-view.h"

/* A choice a view offers in its header. */
typedef GtkWidget *(*ChoiceNew) (GtkWidget *view);


static void
fill_age_units (GObject *view, GStrvBuilder *values, GStrvBuilder *labels)
{
  g_strv_builder_add_many (values, "time", "bytes", NULL);
  g_strv_builder_add_many (labels, _("Age in time since allocation"),
                           _("Age in bytes allocated since"), NULL);
}

static GtkWidget *
age_unit_choice (GtkWidget *view)
{
  return jvms_view_choice_new (G_OBJECT (view), "age-unit", NULL, fill_age_units,
                               _("Object age unit"));
}

/* Every metric, those the recording lacks named as such. */
static void
fill_metrics (GObject *view, GStrvBuilder *values, GStrvBuilder *labels)
{
  g_auto(GStrv) metrics = jvms_counters_view_dup_metrics (JVMS_COUNTERS_VIEW (view));
  for (guint i = 0; metrics[i] != NULL; i++)
    {
      g_autofree char *name = jvms_counters_metric_display_name (metrics[i]);
      g_autofree char *missing = NULL;
      g_strv_builder_add (values, metrics[i]);
      if (jvms_counters_view_has_metric (JVMS_COUNTERS_VIEW (view), metrics[i], &missing))
        g_strv_builder_add (labels, name);
      else
        {
          /* TRANSLATORS: a counters metric the recording cannot give: "IPC (…) — not recorded" */
          g_autofree char *label = g_strdup_printf (_("%s — not recorded"), name);
          g_strv_builder_add (labels, label);
        }
    }
}

static GtkWidget *
metric_choice (GtkWidget *view)
{
  return jvms_view_choice_new (G_OBJECT (view), "metric", "metrics", fill_metrics,
                               _("Counters metric"));
}

/* The events view's lanes, chosen in its header: the types ticked become the view's patterns
 * (names match themselves), as `jvmscope-cli render --event-type` gives them. */
static void
event_lanes_changed (JvmsEventTypeChooser *chooser, JvmsEventsView *view)
{
  GStrv names = jvms_event_type_chooser_dup_chosen_names (chooser);
  jvms_events_view_set_types (view, (const char * const *) names);
  /* Remembered while the window is open (jvms_window_views_set_events_path). */
  g_object_set_data_full (G_OBJECT (chooser), "jvms-lanes", names, (GDestroyNotify) g_strfreev);
}

static GtkWidget *
event_lanes_choice (GtkWidget *view)
{
  GtkWidget *chooser = jvms_event_type_chooser_new_for_lanes ();
  g_signal_connect_object (chooser, "changed", G_CALLBACK (event_lanes_changed), view, 0);
  return chooser;
}

/* The choice a view offers in its header, by the view's name; NULL: none. */
static ChoiceNew
choice_for (const char *name)
{
  if (g_str_equal (name, "object-age"))
    return age_unit_choice;
  if (g_str_equal (name, "counters"))
    return metric_choice;
  if (g_str_equal (name, "events"))
    return event_lanes_choice;
  return NULL;
}

struct _JvmsWindowViews
{
  JvmsWindow         *window; /* unowned: the window owns us */
  GtkBox             *ruler_box;
  GtkBox             *views_box;
  JvmsSelectionPanel *panel;
  gpointer            history;
  char               *samples_path;
  GCancellable       *samples_cancellable; /* the samples being read for the views */
  gboolean            complete;
  GtkWidget          *expanders[JVMS_N_VIEW_KINDS];
  GtkWidget          *views[JVMS_N_VIEW_KINDS];
  GtkWidget          *choices[JVMS_N_VIEW_KINDS]; /* the header's choice, or NULL */
  JvmsSession        *session;
  GtkWidget          *ruler;
  GtkWidget          *findings;
  GtkWidget          *path_section;
  GtkWidget          *event_table;
  JvmsThreadMarks    *marks;    /* over the threads view: the profiler's selected method */
  guint               bound;    /* bit i: view_settings[i] was bound to some widget */
};

static void
update_zoom_actions (JvmsWindowViews *self)
{
  gboolean has = self->history != NULL;
  gtk_widget_action_set_enabled (GTK_WIDGET (self->window), "win.zoom-back",
                                 has && jvms_session_can_go_back (self->session));
  gtk_widget_action_set_enabled (GTK_WIDGET (self->window), "win.zoom-forward",
                                 has && jvms_session_can_go_forward (self->session));
  gtk_widget_action_set_enabled (GTK_WIDGET (self->window), "win.zoom-selection",
                                 has && jvms_session_get_has_selection (self->session));
}

static void
selection_changed (JvmsWindowViews *self)
{
  /* The side panel follows the session itself. */
  update_zoom_actions (self);
  jvms_window_debug_changed (self->window);
}

/* The threads view drew a critical path (or cleared it): the panel lists it. */
static void
path_changed (JvmsWindowViews *self, GParamSpec *pspec, JvmsThreadsView *view)
{
  jvms_path_section_set_path (JVMS_PATH_SECTION (self->path_section), jvms_threads_view_get_path (view));
  jvms_window_debug_changed (self->window);
}

static void
visible_changed (JvmsWindowViews *self)
{
  update_zoom_actions (self);
  jvms_window_debug_changed (self->window);
}

JvmsWindowViews *
jvms_window_views_new (JvmsWindow *window, GtkBox *ruler_box, GtkBox *views_box,
                       JvmsSelectionPanel *panel)
{
  JvmsWindowViews *self = g_new0 (JvmsWindowViews, 1);
  self->window = window;
  self->ruler_box = ruler_box;
  self->views_box = views_box;
  self->panel = panel;

  self->session = jvms_session_new ();
  self->ruler = jvms_time_ruler_new (self->session);
  gtk_box_append (ruler_box, self->ruler);

  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    {
      /* An expander per view: each collapses on its own, from the keyboard too. */
      GtkWidget *expander = gtk_expander_new_with_mnemonic (NULL);
      GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *title = gtk_label_new (_(jvms_view_kinds[i].title));
      gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
      gtk_widget_add_css_class (expander, "jvms-view-expander");
      self->views[i] = jvms_view_kinds[i].create (self->session);
      gtk_box_append (GTK_BOX (header), title);
      /* The view's own choice beside its title, in reach of Tab. */
      if (choice_for (jvms_view_kinds[i].name) != NULL)
        {
          self->choices[i] = choice_for (jvms_view_kinds[i].name) (self->views[i]);
          gtk_box_append (GTK_BOX (header), self->choices[i]);
        }
      gtk_expander_set_label_widget (GTK_EXPANDER (expander), header);
      gtk_accessible_update_property (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _(jvms_view_kinds[i].title), -1);
      gtk_widget_set_hexpand (self->views[i], TRUE);
      if (JVMS_IS_THREADS_VIEW (self->views[i]) && self->marks == NULL)
        gtk_expander_set_child (GTK_EXPANDER (expander),
                                jvms_thread_marks_wrap (JVMS_THREADS_VIEW (self->views[i]), &self->marks));
      else
        gtk_expander_set_child (GTK_EXPANDER (expander), self->views[i]);
      gtk_box_append (views_box, expander);
      self->expanders[i] = expander;
    }

  g_signal_connect_swapped (self->session, "notify::selection-start",
                            G_CALLBACK (selection_changed), self);
  g_signal_connect_swapped (self->session, "notify::selection-end",
                            G_CALLBACK (selection_changed), self);
  g_signal_connect_swapped (self->session, "notify::has-selection",
                            G_CALLBACK (selection_changed), self);
  g_signal_connect_swapped (self->session, "notify::visible-start",
                            G_CALLBACK (visible_changed), self);
  g_signal_connect_swapped (self->session, "notify::visible-end",
                            G_CALLBACK (visible_changed), self);
  g_signal_connect_swapped (self->session, "notify::can-go-back",
                            G_CALLBACK (update_zoom_actions), self);
  g_signal_connect_swapped (self->session, "notify::can-go-forward",
                            G_CALLBACK (update_zoom_actions), self);
  update_zoom_actions (self);
  jvms_selection_panel_set_session (panel, self->session);
  self->findings = jvms_findings_list_new (self->session);
  jvms_selection_panel_add_section (panel, self->findings);
  self->path_section = jvms_path_section_new (self->session);
  jvms_selection_panel_add_section (panel, self->path_section);
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    if (JVMS_IS_THREADS_VIEW (self->views[i]))
      g_signal_connect_swapped (self->views[i], "notify::path", G_CALLBACK (path_changed), self);
  return self;
}

void
jvms_window_views_free (JvmsWindowViews *self)
{
  g_cancellable_cancel (self->samples_cancellable);
  g_clear_object (&self->samples_cancellable);
  g_clear_pointer (&self->samples_path, g_free);
  g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_free (self);
}

void
jvms_window_views_set_history (JvmsWindowViews *self, gpointer history)
{
  if (history == self->history)
    {
      /* Indexing goes on: the same history, longer. */
      if (history != NULL)
        jvms_session_history_changed (self->session);
      return;
    }
  /* The same index opened again (with another cache budget): what the user
   * looks at and has selected stays. Zoom history starts over. */
  gboolean same_index = history != NULL && self->history != NULL
    && g_strcmp0 (jvms_history_get_path (history), jvms_history_get_path (self->history)) == 0;
  gint64 v0 = 0, v1 = 0, s0 = 0, s1 = 0;
  gboolean selected = FALSE;
  g_autoptr(GArray) highlighted = NULL;
  if (same_index)
    {
      jvms_session_get_visible (self->session, &v0, &v1);
      selected = jvms_session_get_selection (self->session, &s0, &s1);
      /* The threads chosen (the profiler follows them) stay chosen too. */
      const GArray *h = jvms_session_get_highlighted_threads (self->session);
      highlighted = g_array_copy ((GArray *) h);
    }
  self->history = history;
  jvms_session_set_history (self->session, history);
  if (same_index)
    {
      jvms_session_set_visible (self->session, v0, v1, FALSE);
      if (selected)
        jvms_session_set_selection (self->session, s0, s1);
      if (highlighted->len > 0)
        jvms_session_set_highlighted_threads (self->session, (const gint64 *) highlighted->data,
                                              highlighted->len);
    }
  update_zoom_actions (self);
}

/* ---------------------------------------------------------------------------------------------
 * What the views draw from the sample store beside the index: the old-object samples, read in a
 * worker (a store holds millions of samples) when a complete index is opened.
 */

typedef struct
{
  GArray *object_ages; /* JvmsObjectAgeSample */
} ViewSamples;

static void
view_samples_free (gpointer data)
{
  ViewSamples *samples = data;
  g_clear_pointer (&samples->object_ages, g_array_unref);
  g_free (samples);
}

static void
read_samples (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ViewSamples *samples = g_new0 (ViewSamples, 1);
  GError *error = NULL;

  samples->object_ages = jvms_object_age_samples_read (task_data, cancellable, &error);
  if (samples->object_ages == NULL)
    {
      view_samples_free (samples);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, samples, view_samples_free);
}

static void
samples_read (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(GError) error = NULL;
  ViewSamples *samples = g_task_propagate_pointer (G_TASK (result), &error);
  JvmsWindowViews *self = user_data;

  if (samples == NULL)
    {
      /* Cancelled: the trace was closed or replaced, and self may be gone. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Object samples for the views: %s", error->message);
      return;
    }
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    if (JVMS_IS_OBJECT_AGE_VIEW (self->views[i]))
      jvms_object_age_view_set_samples (JVMS_OBJECT_AGE_VIEW (self->views[i]),
                                        (const JvmsObjectAgeSample *) samples->object_ages->data,
                                        samples->object_ages->len);
  view_samples_free (samples);
  jvms_window_debug_changed (self->window);
}

void
jvms_window_views_set_samples_path (JvmsWindowViews *self, const char *samples_path)
{
  jvms_findings_list_set_samples_path (JVMS_FINDINGS_LIST (self->findings), samples_path);
  jvms_selection_panel_set_samples_path (self->panel, samples_path);
  if (g_strcmp0 (samples_path, self->samples_path) == 0)
    return;
  g_free (self->samples_path);
  self->samples_path = g_strdup (samples_path);
  g_cancellable_cancel (self->samples_cancellable);
  g_clear_object (&self->samples_cancellable);
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    if (JVMS_IS_OBJECT_AGE_VIEW (self->views[i]))
      jvms_object_age_view_set_samples (JVMS_OBJECT_AGE_VIEW (self->views[i]), NULL, 0);
  if (samples_path == NULL)
    return;
  self->samples_cancellable = g_cancellable_new ();
  g_autoptr(GTask) task = g_task_new (NULL, self->samples_cancellable, samples_read, self);
  g_task_set_task_data (task, g_strdup (samples_path), g_free);
  g_task_set_source_tag (task, jvms_window_views_set_samples_path);
  g_task_run_in_thread (task, read_samples);
}

gpointer
jvms_window_views_get_session (JvmsWindowViews *self)
{
  return self->session;
}

void
jvms_window_views_set_thread_marks (JvmsWindowViews *self, gpointer instants)
{
  if (self->marks != NULL)
    jvms_thread_marks_set_instants (self->marks, instants);
}

void
jvms_window_views_add_event_table (JvmsWindowViews *self, GtkBox *box)
{
  self->event_table = jvms_event_table_new (self->session);
  gtk_widget_set_vexpand (self->event_table, TRUE);
  gtk_box_append (box, self->event_table);
}

/* The lanes' chooser lists @store's types, ticked as chosen before in this window (kept on the
 * chooser, for the next trace too), else the view's default (every type outside jdk.*). */
static void
set_event_lanes_store (JvmsWindowViews *self, guint i, JvmsEventStore *store)
{
  JvmsEventTypeChooser *chooser = JVMS_EVENT_TYPE_CHOOSER (self->choices[i]);
  if (chooser == NULL)
    return;
  g_auto(GStrv) kept = g_strdupv (g_object_get_data (G_OBJECT (chooser), "jvms-lanes"));
  jvms_event_type_chooser_set_store (chooser, store);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  for (guint32 t = 0; store != NULL && t < jvms_event_store_get_n_types (store); t++)
    {
      const char *name = jvms_event_store_get_type (store, t)->name;
      if (kept != NULL ? g_strv_contains ((const char * const *) kept, name)
                       : jvms_events_view_type_is_default (name))
        g_strv_builder_add (b, name);
    }
  g_auto(GStrv) names = g_strv_builder_end (b);
  jvms_event_type_chooser_set_chosen_names (chooser, (const char * const *) names);
  g_auto(GStrv) chosen = jvms_event_type_chooser_dup_chosen_names (chooser);
  jvms_events_view_set_types (JVMS_EVENTS_VIEW (self->views[i]), (const char * const *) chosen);
  /* A trace without some of the chosen types forgets none of them; until a choice, the default. */
  g_object_set_data_full (G_OBJECT (chooser), "jvms-lanes", g_steal_pointer (&kept), (GDestroyNotify) g_strfreev);
}

void
jvms_window_views_set_events_path (JvmsWindowViews *self, const char *events_path)
{
  if (self->event_table == NULL)
    return;
  g_autoptr(JvmsEventStore) store = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(JvmsThreadList) threads = NULL;
  if (events_path != NULL)
    {
      g_autoptr(GError) error = NULL;
      store = jvms_event_store_open (events_path, &error);
      if (store == NULL)
        g_warning ("%s", error->message);
      /* Names as the other views give them (the thread layout's reader). */
      threads = jvms_thread_list_read (self->history);
      for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
        {
          const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
          g_hash_table_insert (names, (gpointer) &t->tid, t->name);
        }
    }
  jvms_event_table_set_store (JVMS_EVENT_TABLE (self->event_table), store, names);
  /* The JIT view's deoptimizations and the allocation view's classes are rows of the same store. */
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    if (JVMS_IS_JIT_VIEW (self->views[i]))
      jvms_jit_view_set_event_store (JVMS_JIT_VIEW (self->views[i]), store);
    else if (JVMS_IS_ALLOCATION_VIEW (self->views[i]))
      jvms_allocation_view_set_event_store (JVMS_ALLOCATION_VIEW (self->views[i]), store);
    else if (JVMS_IS_EVENTS_VIEW (self->views[i]))
      {
        jvms_events_view_set_event_store (JVMS_EVENTS_VIEW (self->views[i]), store);
        set_event_lanes_store (self, i, store);
      }
}

void
jvms_window_views_set_complete (JvmsWindowViews *self, gboolean complete)
{
  self->complete = complete;
}

void
jvms_window_views_set_view_visible (JvmsWindowViews *self, const char *name, gboolean visible)
{
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    if (g_str_equal (jvms_view_kinds[i].name, name) && self->expanders[i] != NULL)
      gtk_widget_set_visible (self->expanders[i], visible);
  /* The root-cause report is the findings list in the side panel. */
  if (g_str_equal (name, "report"))
    gtk_widget_set_visible (self->findings, visible);
}

/* Each view preference is bound to the property of that name wherever a view, the ruler or
 * the session has one (the threads view's grouping; the session's time unit and origin, which
 * the ruler, the tooltips, the panel and the findings follow), so that a widget that gains such
 * a property follows the setting without a change here. */
static const struct
{
  const char       *key;
  const char       *property;
  GSettingsBindFlags flags;
} view_settings[] = {
  { "thread-grouping", "grouping", G_SETTINGS_BIND_GET },
  { "time-unit", "time-unit", G_SETTINGS_BIND_GET },
  { "time-origin", "time-origin", G_SETTINGS_BIND_GET },
  /* Chosen in the view's header: the choice is kept. */
  { "counters-metric", "metric", G_SETTINGS_BIND_DEFAULT },
  { "object-age-unit", "age-unit", G_SETTINGS_BIND_DEFAULT },
};

static void
bind_if_present (JvmsWindowViews *self, GSettings *settings, gpointer object)
{
  for (guint i = 0; i < G_N_ELEMENTS (view_settings); i++)
    if (g_object_class_find_property (G_OBJECT_GET_CLASS (object), view_settings[i].property) != NULL)
      {
        g_settings_bind (settings, view_settings[i].key, object, view_settings[i].property,
                         view_settings[i].flags);
        self->bound |= 1u << i;
      }
}

void
jvms_window_views_bind_settings (JvmsWindowViews *self, GSettings *settings)
{
  bind_if_present (self, settings, self->session);
  bind_if_present (self, settings, self->ruler);
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    bind_if_present (self, settings, self->views[i]);
}

gboolean
jvms_window_views_get_setting_bound (JvmsWindowViews *self, const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (view_settings); i++)
    if (g_str_equal (view_settings[i].key, key))
      return (self->bound & (1u << i)) != 0;
  return FALSE;
}

void
jvms_window_views_set_thread_filter (JvmsWindowViews *self, const char *text)
{
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    if (JVMS_IS_THREADS_VIEW (self->views[i]))
      jvms_threads_view_set_filter (JVMS_THREADS_VIEW (self->views[i]), text);
}

/* Where @widget is in its window, in window coordinates, so that tests can point at it. */
static void
set_bounds (GKeyFile *key_file, const char *key, GtkWidget *widget)
{
  graphene_rect_t r;
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (widget));
  if (root == NULL || !gtk_widget_compute_bounds (widget, root, &r))
    return;
  int list[4] = { (int) r.origin.x, (int) r.origin.y, (int) r.size.width, (int) r.size.height };
  g_key_file_set_integer_list (key_file, "views", key, list, 4);
}

/* [events]: what the event table shows (docs/window.md): its range, row count, first rows and
 * statistics, whether it is still working, and where it is. */
static void
dump_event_table (JvmsEventTable *table, GKeyFile *key_file)
{
  gint64 from, to;
  jvms_event_table_get_range (table, &from, &to);
  g_key_file_set_boolean (key_file, "events", "shown", gtk_widget_get_mapped (GTK_WIDGET (table)));
  g_key_file_set_boolean (key_file, "events", "busy", jvms_event_table_is_busy (table));
  g_key_file_set_int64 (key_file, "events", "from", from);
  g_key_file_set_int64 (key_file, "events", "to", to);
  g_key_file_set_uint64 (key_file, "events", "rows", jvms_event_table_get_n_rows (table));
  g_key_file_set_int64 (key_file, "events", "selected", jvms_event_table_get_selected (table));
  /* Enough rows for a test to compare a selection's with the command line's. */
  g_autofree char *rows = jvms_event_table_describe_rows (table, 5000);
  g_key_file_set_string (key_file, "events", "first-rows", rows);
  g_autofree char *cells = jvms_event_table_describe_cells (table, 200);
  g_key_file_set_string (key_file, "events", "first-cells", cells);
  g_autofree char *shown = jvms_event_table_describe_stats (table);
  g_key_file_set_string (key_file, "events", "stats-shown", shown);
  JvmsEventStats *stats = jvms_event_table_get_stats (table);
  g_key_file_set_uint64 (key_file, "events", "stats-rows", stats != NULL ? jvms_event_stats_get_n_rows (stats) : 0);
  g_key_file_set_integer (key_file, "events", "stats-types", stats != NULL ? (int) jvms_event_stats_get_n_types (stats) : 0);
  g_key_file_set_string (key_file, "events", "focus", jvms_event_table_get_focus_part (table));
  g_autofree char *sort = jvms_event_table_describe_sort (table);
  g_key_file_set_string (key_file, "events", "sort", sort);
  /* The types ticked, by name (empty: every type), whether their popover is open, and where. */
  JvmsEventTypeChooser *chooser = jvms_event_table_get_type_chooser (table);
  g_autofree char *types = jvms_event_type_chooser_describe (chooser);
  g_key_file_set_string (key_file, "events", "types", types);
  g_key_file_set_boolean (key_file, "events", "types-open", jvms_event_type_chooser_is_open (chooser));
  set_bounds (key_file, "types-bounds", GTK_WIDGET (chooser));
  if (gtk_widget_get_mapped (GTK_WIDGET (table)))
    {
      set_bounds (key_file, "table-bounds", GTK_WIDGET (table));
      /* x;y;w;h of each column title and of each row shown: tests click them. */
      static const char * const keys[] = { "head-bounds", "row-bounds" };
      static const JvmsEventTablePart parts[] = { JVMS_EVENT_TABLE_HEADS, JVMS_EVENT_TABLE_ROWS };
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          g_autoptr(GArray) rects = jvms_event_table_get_layout (table, parts[k]);
          g_autoptr(GArray) ints = g_array_new (FALSE, FALSE, sizeof (int));
          for (guint i = 0; i < rects->len; i++)
            {
              const graphene_rect_t *r = &g_array_index (rects, graphene_rect_t, i);
              int b[4] = { (int) r->origin.x, (int) r->origin.y, (int) r->size.width, (int) r->size.height };
              g_array_append_vals (ints, b, 4);
            }
          g_key_file_set_integer_list (key_file, "events", keys[k], (int *) ints->data, ints->len);
        }
    }
}

/* [path]: the critical path the threads view shows, and the content y of each thread row
 * (a test clicks a row by it). */
static void
dump_path (JvmsThreadsView *view, JvmsPathSection *section, GKeyFile *key_file)
{
  g_autoptr(GString) ys = g_string_new (NULL);
  for (guint r = 0; r < jvms_timeline_get_n_rows (JVMS_TIMELINE (view)); r++)
    {
      int y = 0, h = 0;
      jvms_timeline_get_row_bounds (JVMS_TIMELINE (view), r, &y, &h);
      g_string_append_printf (ys, "%s%d", r ? ";" : "", y);
    }
  g_key_file_set_string (key_file, "views", "thread-row-ys", ys->str);
  /* Where content y 0 is in the view: below its legend (which wraps), less the scroll. */
  g_key_file_set_integer (key_file, "views", "thread-rows-top",
                          jvms_timeline_get_legend_height (JVMS_TIMELINE (view), gtk_widget_get_width (GTK_WIDGET (view)))
                          - (int) jvms_timeline_get_v_offset (JVMS_TIMELINE (view)));
  const JvmsCriticalPath *path = jvms_threads_view_get_path (view);
  g_key_file_set_boolean (key_file, "path", "shown", path != NULL);
  if (path == NULL)
    return;
  g_key_file_set_int64 (key_file, "path", "tid", path->tid);
  g_key_file_set_int64 (key_file, "path", "from", path->from);
  g_key_file_set_int64 (key_file, "path", "to", path->to);
  g_key_file_set_integer (key_file, "path", "segments", (int) path->segments->len);
  g_key_file_set_integer (key_file, "path", "handoffs", (int) path->handoffs->len);
  g_key_file_set_integer (key_file, "path", "threads", (int) path->n_threads);
  /* tid=ns;... most first, as the section lists them. */
  g_autoptr(GArray) by = jvms_critical_path_by_thread (path);
  g_autoptr(GString) text = g_string_new (NULL);
  for (guint i = 0; i < by->len; i++)
    g_string_append_printf (text, "%" G_GINT64_FORMAT "=%" G_GINT64_FORMAT ";",
                            g_array_index (by, JvmsPathSegment, i).tid, g_array_index (by, JvmsPathSegment, i).to);
  g_key_file_set_string (key_file, "path", "by-thread", text->str);
  g_key_file_set_string (key_file, "path", "text", jvms_path_section_get_text (section));
}

void
jvms_window_views_dump_state (JvmsWindowViews *self, GKeyFile *key_file)
{
  g_key_file_set_boolean (key_file, "views", "history", self->history != NULL);
  g_key_file_set_boolean (key_file, "views", "complete", self->complete);
  gint64 start = 0, end = 0;
  g_key_file_set_int64 (key_file, "views", "visible-start",
                        jvms_session_get_visible_start (self->session));
  g_key_file_set_int64 (key_file, "views", "visible-end",
                        jvms_session_get_visible_end (self->session));
  gboolean has = jvms_session_get_selection (self->session, &start, &end);
  g_key_file_set_boolean (key_file, "views", "has-selection", has);
  g_key_file_set_int64 (key_file, "views", "selection-start", has ? start : 0);
  g_key_file_set_int64 (key_file, "views", "selection-end", has ? end : 0);
  g_autoptr(GString) shown = g_string_new (NULL);
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    {
      if (JVMS_IS_THREADS_VIEW (self->views[i]))
        {
          g_key_file_set_integer (key_file, "views", "thread-rows",
                                  (int) jvms_threads_view_get_n_rows (JVMS_THREADS_VIEW (self->views[i])));
          g_auto(GStrv) labels = jvms_threads_view_dup_row_labels (JVMS_THREADS_VIEW (self->views[i]));
          g_key_file_set_string_list (key_file, "views", "thread-row-labels",
                                      (const char * const *) labels, g_strv_length (labels));
          /* Where each row is, in the view's content (legend below): tests point at rows. */
          guint n_rows = jvms_timeline_get_n_rows (JVMS_TIMELINE (self->views[i]));
          g_autofree int *ys = g_new0 (int, 2 * MAX (n_rows, 1));
          int *heights = ys + n_rows;
          for (guint r = 0; r < n_rows; r++)
            jvms_timeline_get_row_bounds (JVMS_TIMELINE (self->views[i]), r, &ys[r], &heights[r]);
          g_key_file_set_integer_list (key_file, "views", "thread-row-ys", ys, n_rows);
          g_key_file_set_integer_list (key_file, "views", "thread-row-heights", heights, n_rows);
          dump_path (JVMS_THREADS_VIEW (self->views[i]), JVMS_PATH_SECTION (self->path_section), key_file);
          /* Which of those rows are folded groups, and the keyboard row (index, content y,
           * height): tests point at rows from them and the threads-bounds. */
          g_autoptr(GString) folded = g_string_new (NULL);
          JvmsTimeline *timeline = JVMS_TIMELINE (self->views[i]);
          guint cursor;
          int y, h;
          for (guint r = 0; r < n_rows; r++)
            if (jvms_threads_view_is_row_folded (JVMS_THREADS_VIEW (self->views[i]), r))
              g_string_append_printf (folded, "%s%u", folded->len ? ";" : "", r);
          g_key_file_set_string (key_file, "views", "thread-folded-rows", folded->str);
          cursor = jvms_timeline_get_cursor_row (timeline);
          if (cursor != G_MAXUINT && jvms_timeline_get_row_bounds (timeline, cursor, &y, &h))
            {
              int list[3] = { (int) cursor, y, h };
              g_key_file_set_integer_list (key_file, "views", "threads-cursor", list, 3);
            }
          else
            g_key_file_set_string (key_file, "views", "threads-cursor", "");
        }
      if (gtk_widget_get_visible (self->expanders[i]))
        g_string_append_printf (shown, "%s%s", shown->len ? ";" : "",
                                G_OBJECT_TYPE_NAME (self->views[i]));
    }
  g_key_file_set_string (key_file, "views", "shown", shown->str);
  /* A drag's selection is final when no view is dragging: a test waits for it before it reads
   * the range it dragged (under ASan the release came seconds after the motions). */
  gboolean dragging = FALSE;
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    dragging |= JVMS_IS_TIMELINE (self->views[i]) && jvms_timeline_is_dragging (JVMS_TIMELINE (self->views[i]));
  g_key_file_set_boolean (key_file, "views", "dragging", dragging);
  /* The view with the keyboard focus, by its name (empty: none has it): its keys act on it. */
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self->window));
  const char *focus_view = "";
  for (guint i = 0; focus != NULL && i < JVMS_N_VIEW_KINDS; i++)
    if (focus == self->views[i] || gtk_widget_is_ancestor (focus, self->views[i]))
      focus_view = jvms_view_kinds[i].name;
  g_key_file_set_string (key_file, "views", "focus", focus_view);
  set_bounds (key_file, "ruler-bounds", self->ruler);
  /* What of the stacked views shows: rows outside it are scrolled away. */
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (self->views_box), GTK_TYPE_SCROLLED_WINDOW);
  if (scroller != NULL)
    set_bounds (key_file, "views-visible-bounds", scroller);
  g_key_file_set_integer (key_file, "views", "highlighted-threads",
                          (int) jvms_session_get_highlighted_threads (self->session)->len);
  g_key_file_set_boolean (key_file, "panel", "findings-shown", gtk_widget_get_visible (self->findings));
  for (guint i = 0; i < G_N_ELEMENTS (view_settings); i++)
    {
      g_autofree char *key = g_strconcat (view_settings[i].key, "-bound", NULL);
      g_key_file_set_boolean (key_file, "views", key, (self->bound & (1u << i)) != 0);
    }
  g_key_file_set_integer (key_file, "panel", "findings",
                          (int) jvms_findings_list_get_n_findings (JVMS_FINDINGS_LIST (self->findings)));
  gint64 findings_from = 0, findings_to = 0;
  jvms_findings_list_get_range (JVMS_FINDINGS_LIST (self->findings), &findings_from, &findings_to);
  g_key_file_set_boolean (key_file, "panel", "findings-busy",
                          jvms_findings_list_is_busy (JVMS_FINDINGS_LIST (self->findings)));
  g_key_file_set_int64 (key_file, "panel", "findings-t0", findings_from);
  g_key_file_set_int64 (key_file, "panel", "findings-t1", findings_to);
  GtkWidget *first = jvms_findings_list_get_row (JVMS_FINDINGS_LIST (self->findings), 0);
  if (first != NULL)
    set_bounds (key_file, "finding-bounds", first);
  /* Each finding as the list writes it: title, then its subtitle (markup), one per finding. */
  g_autoptr(GStrvBuilder) findings_text = g_strv_builder_new ();
  for (guint i = 0; jvms_findings_list_get_row (JVMS_FINDINGS_LIST (self->findings), i) != NULL; i++)
    {
      GtkWidget *row = jvms_findings_list_get_row (JVMS_FINDINGS_LIST (self->findings), i);
      g_autofree char *line = g_strdup_printf ("%s\n%s", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)),
                                               adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
      g_strv_builder_add (findings_text, line);
    }
  g_auto(GStrv) texts = g_strv_builder_end (findings_text);
  /* Each finding's time to the nanosecond: tests compare it with jvmscope-cli analyze. */
  g_autoptr(GString) lost = g_string_new (NULL);
  for (guint i = 0; i < g_strv_length (texts); i++)
    g_string_append_printf (lost, "%" G_GINT64_FORMAT ";",
                            jvms_findings_list_get_lost_ns (JVMS_FINDINGS_LIST (self->findings), i));
  g_key_file_set_string (key_file, "panel", "finding-lost-ns", lost->str);
  g_key_file_set_int64 (key_file, "panel", "findings-pid",
                        jvms_findings_list_get_jvm_pid (JVMS_FINDINGS_LIST (self->findings)));
  /* x;y;w;h of each finding's row, so that a test clicks the one it wants. */
  g_autoptr(GArray) row_bounds = g_array_new (FALSE, FALSE, sizeof (int));
  for (guint i = 0; jvms_findings_list_get_row (JVMS_FINDINGS_LIST (self->findings), i) != NULL; i++)
    {
      graphene_rect_t r;
      GtkWidget *row = jvms_findings_list_get_row (JVMS_FINDINGS_LIST (self->findings), i);
      GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (row));
      int b[4] = { 0, 0, 0, 0 };
      if (root != NULL && gtk_widget_compute_bounds (row, root, &r))
        {
          b[0] = (int) r.origin.x;
          b[1] = (int) r.origin.y;
          b[2] = (int) r.size.width;
          b[3] = (int) r.size.height;
        }
      g_array_append_vals (row_bounds, b, 4);
    }
  if (row_bounds->len > 0)
    g_key_file_set_integer_list (key_file, "panel", "finding-row-bounds", (int *) row_bounds->data, row_bounds->len);
  /* The spans marked (a finding's safepoint stragglers): tid:from-to;... */
  const GArray *spans = jvms_session_get_highlighted_spans (self->session);
  g_autoptr(GString) marked = g_string_new (NULL);
  for (guint i = 0; i < spans->len; i++)
    {
      const JvmsSessionSpan *s = &g_array_index (spans, JvmsSessionSpan, i);
      g_string_append_printf (marked, "%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT ";",
                              s->tid, s->from, s->to);
    }
  g_key_file_set_string (key_file, "views", "highlighted-spans", marked->str);
  g_key_file_set_string_list (key_file, "panel", "finding-texts", (const char * const *) texts,
                              g_strv_length (texts));
  /* The links to causes the panel shows (findings, critical path): kind tid from to x y w h. */
  g_autoptr(GString) links = g_string_new (NULL);
  jvms_cause_links_describe (GTK_WIDGET (self->panel), links);
  g_key_file_set_string (key_file, "panel", "cause-links", links->str);
  /* Where each view is (its whole widget: legend strip, then rows), by its name, and what the
   * views were fed, so that tests point at a view's data area and know what it should show. */
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    {
      g_autofree char *key = g_strconcat (jvms_view_kinds[i].name, "-bounds", NULL);
      if (gtk_widget_get_visible (self->expanders[i]))
        {
          g_autofree char *top = g_strconcat (jvms_view_kinds[i].name, "-legend-height", NULL);
          g_autofree char *cut = g_strconcat (jvms_view_kinds[i].name, "-legend-cut", NULL);
          JvmsTimeline *view = JVMS_TIMELINE (self->views[i]);
          set_bounds (key_file, key, self->views[i]);
          if (self->choices[i] != NULL)
            {
              g_autofree char *choice = g_strconcat (jvms_view_kinds[i].name, "-choice-bounds", NULL);
              set_bounds (key_file, choice, self->choices[i]);
            }
          g_key_file_set_integer (key_file, "views", top,
                                  jvms_timeline_get_legend_height (view, gtk_widget_get_width (self->views[i])));
          g_key_file_set_integer (key_file, "views", cut, (int) jvms_timeline_get_legend_cut (view));
        }
      if (JVMS_IS_OBJECT_AGE_VIEW (self->views[i]))
        g_key_file_set_integer (key_file, "views", "object-age-samples",
                                (int) jvms_object_age_view_get_n_samples (JVMS_OBJECT_AGE_VIEW (self->views[i])));
      if (JVMS_IS_GC_WORKERS_VIEW (self->views[i]))
        g_key_file_set_integer (key_file, "views", "gc-workers-rows",
                                (int) jvms_gc_workers_view_get_n_workers (JVMS_GC_WORKERS_VIEW (self->views[i])));
      if (JVMS_IS_DISK_VIEW (self->views[i]))
        g_key_file_set_integer (key_file, "views", "disk-rows",
                                (int) jvms_disk_view_get_n_rows (JVMS_DISK_VIEW (self->views[i])));
      if (JVMS_IS_EVENTS_VIEW (self->views[i]))
        {
          JvmsEventsView *events = JVMS_EVENTS_VIEW (self->views[i]);
          g_autoptr(GString) lanes = g_string_new (NULL);
          for (guint l = 0; l < jvms_events_view_get_n_lanes (events); l++)
            g_string_append_printf (lanes, "%s%s", l > 0 ? ";" : "", jvms_events_view_get_lane_type (events, l));
          g_key_file_set_integer (key_file, "views", "events-lanes", (int) jvms_events_view_get_n_lanes (events));
          g_key_file_set_string (key_file, "views", "events-lane-types", lanes->str);
          if (self->choices[i] != NULL)
            {
              JvmsEventTypeChooser *chooser = JVMS_EVENT_TYPE_CHOOSER (self->choices[i]);
              g_autofree char *rows = jvms_event_type_chooser_describe_rows (chooser);
              g_key_file_set_boolean (key_file, "views", "events-chooser-open", jvms_event_type_chooser_is_open (chooser));
              g_key_file_set_string (key_file, "views", "events-chooser-rows", rows);
            }
        }
      if (JVMS_IS_ALLOCATION_VIEW (self->views[i]))
        g_key_file_set_integer (key_file, "views", "allocation-rows",
                                (int) jvms_allocation_view_get_n_threads (JVMS_ALLOCATION_VIEW (self->views[i])));
      if (JVMS_IS_VM_OPERATIONS_VIEW (self->views[i]))
        g_key_file_set_integer (key_file, "views", "vm-operations-rows",
                                (int) jvms_vm_operations_view_get_n_rows (JVMS_VM_OPERATIONS_VIEW (self->views[i])));
      if (JVMS_IS_JIT_VIEW (self->views[i]))
        {
          JvmsJitView *jit = JVMS_JIT_VIEW (self->views[i]);
          g_key_file_set_integer (key_file, "views", "jit-compilers",
                                  (int) jvms_jit_view_get_n_compilers (jit));
          g_key_file_set_uint64 (key_file, "views", "jit-deoptimizations",
                                 jvms_jit_view_get_n_deoptimizations (jit));
        }
      if (JVMS_IS_COUNTERS_VIEW (self->views[i]))
        {
          JvmsCountersView *counters = JVMS_COUNTERS_VIEW (self->views[i]);
          const char *metric = jvms_counters_view_get_effective_metric (counters);
          g_key_file_set_string (key_file, "views", "counters-metric", metric);
          g_key_file_set_boolean (key_file, "views", "counters-metric-recorded",
                                  jvms_counters_view_has_metric (counters, metric, NULL));
          g_key_file_set_integer (key_file, "views", "counters-rows",
                                  (int) jvms_counters_view_get_n_rows (counters));
        }
    }
  if (self->event_table != NULL)
    dump_event_table (JVMS_EVENT_TABLE (self->event_table), key_file);
  g_key_file_set_integer (key_file, "views", "marked-threads",
                          self->marks != NULL ? (int) jvms_thread_marks_get_n_threads (self->marks) : 0);
  g_key_file_set_integer (key_file, "views", "marks-drawn",
                          self->marks != NULL ? (int) jvms_thread_marks_get_n_drawn (self->marks) : 0);
}

int
jvms_window_views_render (JvmsWindowViews *self, cairo_t *cr, int width, int y0, int y1,
                          gboolean dark)
{
  /* Each view at the height it asks for at this width, as it would lay out on screen. */
  int y = 0;
  GtkWidget *parts[1 + JVMS_N_VIEW_KINDS];
  guint n = 0;
  parts[n++] = self->ruler;
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    if (gtk_widget_get_visible (self->expanders[i])
        && gtk_expander_get_expanded (GTK_EXPANDER (self->expanders[i])))
      parts[n++] = self->views[i];

  for (guint i = 0; i < n; i++)
    {
      int min = 0, nat = 0;
      gtk_widget_measure (parts[i], GTK_ORIENTATION_VERTICAL, width, &min, &nat, NULL, NULL);
      /* Only what of it lies in the tile: a view of thousands of rows renders that part. */
      int from = MAX (y0, y), to = MIN (y1, y + nat);
      if (cr != NULL && from < to)
        {
          cairo_save (cr);
          cairo_translate (cr, 0, from - y0);
          cairo_rectangle (cr, 0, 0, width, to - from);
          cairo_clip (cr);
          if (JVMS_IS_TIME_RULER (parts[i]))
            {
              cairo_translate (cr, 0, y - from);
              jvms_time_ruler_render (JVMS_TIME_RULER (parts[i]), cr, width, nat, dark);
            }
          else
            {
              jvms_timeline_render_part (JVMS_TIMELINE (parts[i]), cr, width, nat, from - y,
                                         to - y, dark);
              if (self->marks != NULL && JVMS_IS_THREADS_VIEW (parts[i]))
                {
                  /* The marks of the whole view: the tile's clip keeps its part. */
                  cairo_translate (cr, 0, y - from);
                  jvms_thread_marks_render (self->marks, cr, width, nat, dark);
                }
            }
          cairo_restore (cr);
        }
      y += nat;
    }
  return y;
}

static void
zoom_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsWindowViews *self = jvms_window_get_views (JVMS_WINDOW (widget));
  if (g_str_equal (name, "win.zoom-back"))
    jvms_session_go_back (self->session);
  else if (g_str_equal (name, "win.zoom-forward"))
    jvms_session_go_forward (self->session);
  else
    jvms_session_zoom_to_selection (self->session);
}

static void
event_filter_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsWindowViews *self = jvms_window_get_views (JVMS_WINDOW (widget));
  g_object_set (widget, "show-event-table", TRUE, NULL);
  if (self->event_table != NULL)
    jvms_event_table_focus_filter (JVMS_EVENT_TABLE (self->event_table));
}

/* A cause the side panel links to (jvms-cause-link.h): its thread highlighted and its interval
 * marked and selected, the visible range widened to show it when it does not, and the thread's
 * row made the threads view's keyboard row, which scrolls it into view (Escape clears). */
static void
show_cause (JvmsWindowViews *self, gint64 tid, gint64 from, gint64 to)
{
  if (self->history == NULL || to <= from)
    return;
  gint64 v0 = 0, v1 = 0;
  jvms_session_get_visible (self->session, &v0, &v1);
  if (from < v0 || to > v1)
    {
      gint64 pad = (to - from) / 4;
      jvms_session_set_visible (self->session, from - pad, to + pad, TRUE);
    }
  jvms_session_set_highlighted_threads (self->session, &tid, 1);
  jvms_session_set_highlighted_monitor (self->session, 0);
  JvmsSessionSpan span = { tid, from, to };
  jvms_session_set_highlighted_spans (self->session, &span, 1);
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    {
      if (!JVMS_IS_THREADS_VIEW (self->views[i]))
        continue;
      g_auto(GStrv) labels = jvms_threads_view_dup_row_labels (JVMS_THREADS_VIEW (self->views[i]));
      g_autofree char *key = jvms_thread_key (tid);
      for (guint r = 0; labels[r] != NULL; r++)
        if (g_str_equal (labels[r], key))
          {
            gtk_expander_set_expanded (GTK_EXPANDER (self->expanders[i]), TRUE);
            jvms_timeline_set_cursor_row (JVMS_TIMELINE (self->views[i]), r);
            gtk_widget_grab_focus (self->views[i]);
            break;
          }
    }
  /* Last: the state dump it triggers has the row and the marks. */
  jvms_session_set_selection (self->session, from, to);
}

static void
show_cause_action (GtkWidget *widget, const char *name, GVariant *param)
{
  gint64 tid, from, to;
  g_variant_get (param, "(xxx)", &tid, &from, &to);
  show_cause (jvms_window_get_views (JVMS_WINDOW (widget)), tid, from, to);
}

void
jvms_window_views_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.show-cause", "(xxx)", show_cause_action);
  gtk_widget_class_install_action (widget_class, "win.event-filter", NULL, event_filter_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-back", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-forward", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-selection", NULL, zoom_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK,
                                       "win.zoom-back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK,
                                       "win.zoom-forward", NULL);
}
