/* jvms-window-actions.c: the window's actions (win.*, view.*), the Open menu's recent traces
 * and what enables them; installed on the class as GNOME Text Editor's
 * editor-window-actions.c does. */
#include "config.h"

#include <glib/gi18n.h>

#include "jvms-export.h"
#include "jvms-preferences.h"
#include "jvms-window-private.h"

/* The schema's visible-views flags: name i is bit i. The names are the views' own everywhere
 * (the view.* actions, the setting, `jvmscope-cli render --views`). */
static const char * const view_names[] = { "threads", "cpus", "locks", "gc", "object-age",
                                           "report", "counters", "gc-workers", "jit",
                                           "vm-operations", "disk", "allocation", "events",
                                           "profiler", "explorer" };

void
_jvms_window_actions_update (JvmsWindow *self)
{
  gboolean loading = self->loading;
  gboolean has_trace = self->file != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-loading", loading);
  /* The start page has nothing to zoom, export, filter or select. */
  gtk_widget_set_visible (self->zoom_box, has_trace);
  gtk_widget_set_visible (self->export_button, has_trace);
  gtk_widget_set_visible (self->side_panel_button, has_trace);
  gtk_widget_set_visible (self->search_button, has_trace);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-image", has_trace);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare", has_trace);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-folder", has_trace);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-statistics",
                                 jvms_selection_panel_get_stats (self->selection_panel) != NULL);
  _jvms_window_profiler_update (self);
}

static void
dismiss_recording_action (GtkWidget *widget, const char *name, GVariant *param)
{
  gtk_revealer_set_reveal_child (JVMS_WINDOW (widget)->recording_revealer, FALSE);
}

static void
dismiss_problem_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsWindow *self = JVMS_WINDOW (widget);
  gtk_revealer_set_reveal_child (self->problem_revealer, FALSE);
}

static void
cancel_loading_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsWindow *self = JVMS_WINDOW (widget);
  g_cancellable_cancel (self->cancellable);
}

/* ---------------------------------------------------------------------------------------------
 * Open dialogs. GtkFileChooserNative (the portal under Flatpak) in file or folder mode: a
 * .jvmtrace bundle and an LTTng trace are folders.
 */

/* Compare With… (jvms-compare-window.h): the trace shown is the baseline. */
static void
compare_with (JvmsWindow *self, GFile *other)
{
  GFile *baseline = jvms_window_get_file (self);
  if (baseline == NULL)
    return;
  if (self->compare_window != NULL)
    gtk_window_destroy (GTK_WINDOW (self->compare_window));
  self->compare_window = jvms_compare_window_new (GTK_WINDOW (self), baseline, other);
  /* The baseline's side is the selection, when there is one, and follows it. */
  if (self->views != NULL && jvms_window_views_get_session (self->views) != NULL)
    jvms_compare_window_follow_selection (self->compare_window, jvms_window_views_get_session (self->views));
  /* One of the application's windows, so that its shortcuts (Quit) work from it. */
  gtk_window_set_application (GTK_WINDOW (self->compare_window),
                              gtk_window_get_application (GTK_WINDOW (self)));
  g_object_add_weak_pointer (G_OBJECT (self->compare_window), (gpointer *) &self->compare_window);
  gtk_window_present (GTK_WINDOW (self->compare_window));
}

static void
open_dialog_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  JvmsWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL && g_object_get_data (G_OBJECT (dialog), "jvms-compare") != NULL)
        compare_with (self, file);
      else if (file != NULL)
        _jvms_window_open_file (self, file);
    }
  if (self->dialog == dialog)
    {
      /* Unreferencing alone would leave the fallback GtkFileChooserDialog alive. */
      gtk_native_dialog_destroy (dialog);
      g_clear_object (&self->dialog);
    }
}

static void
run_open_dialog (JvmsWindow *self, gboolean folder, gboolean compare)
{
  if (self->dialog != NULL)
    gtk_native_dialog_destroy (self->dialog);
  g_clear_object (&self->dialog);

  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (compare ? (folder ? _("Compare With Trace Folder") : _("Compare With Trace File"))
                                         : (folder ? _("Open Trace Folder") : _("Open Trace File")),
                                 GTK_WINDOW (self),
                                 folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
                                        : GTK_FILE_CHOOSER_ACTION_OPEN,
                                 _("_Open"), _("_Cancel"));
  if (!folder)
    {
      g_autoptr(GtkFileFilter) traces = gtk_file_filter_new ();
      gtk_file_filter_set_name (traces, _("Traces (.jfr, perf.data)"));
      gtk_file_filter_add_mime_type (traces, "application/x-jfr");
      gtk_file_filter_add_pattern (traces, "*.jfr");
      gtk_file_filter_add_pattern (traces, "*.data");
      gtk_file_filter_add_pattern (traces, "perf.data*");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), traces);
      g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
      gtk_file_filter_set_name (all, _("All Files"));
      gtk_file_filter_add_pattern (all, "*");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  if (compare)
    g_object_set_data (G_OBJECT (chooser), "jvms-compare", GINT_TO_POINTER (1));
  self->dialog = GTK_NATIVE_DIALOG (chooser);
  g_signal_connect_object (chooser, "response", G_CALLBACK (open_dialog_response), self, 0);
  gtk_native_dialog_show (self->dialog);
}

static void
open_action (GtkWidget *widget, const char *name, GVariant *param)
{
  run_open_dialog (JVMS_WINDOW (widget), FALSE, FALSE);
}

static void
open_folder_action (GtkWidget *widget, const char *name, GVariant *param)
{
  run_open_dialog (JVMS_WINDOW (widget), TRUE, FALSE);
}

static void
compare_action (GtkWidget *widget, const char *name, GVariant *param)
{
  run_open_dialog (JVMS_WINDOW (widget), FALSE, TRUE);
}

static void
compare_folder_action (GtkWidget *widget, const char *name, GVariant *param)
{
  run_open_dialog (JVMS_WINDOW (widget), TRUE, TRUE);
}

static void
open_sample_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr(GFile) sample = jvms_application_find_sample ();
  if (sample != NULL)
    _jvms_window_open_file (JVMS_WINDOW (widget), sample);
  else
    _jvms_window_toast (JVMS_WINDOW (widget), _("The sample trace is not installed"));
}

static void
open_recent_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));
  if (g_file_query_exists (file, NULL))
    _jvms_window_open_file (JVMS_WINDOW (widget), file);
  else
    _jvms_window_toast (JVMS_WINDOW (widget), _("That trace no longer exists"));
}

/* ---------------------------------------------------------------------------------------------
 * Record… (jvms-record-dialog.h): the bundle it wrote opens here, or in a window of its own
 * when this one shows a trace.
 */

static void
record_dialog_recorded (JvmsWindow *self, GFile *bundle, JvmsRecordDialog *dialog)
{
  /* "Compare with the open trace": the trace shown is the baseline, the recording the other. */
  if (jvms_record_dialog_get_compare (dialog) && jvms_window_get_file (self) != NULL)
    compare_with (self, bundle);
  else
    _jvms_window_open_file (self, bundle);
}

static void
record_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsWindow *self = JVMS_WINDOW (widget);
  if (self->record_dialog == NULL)
    {
      self->record_dialog = jvms_record_dialog_new (GTK_WINDOW (self), FALSE);
      /* One of the application's windows, so that its shortcuts (Quit) work from the dialog. */
      gtk_window_set_application (GTK_WINDOW (self->record_dialog),
                                  gtk_window_get_application (GTK_WINDOW (self)));
      g_object_add_weak_pointer (G_OBJECT (self->record_dialog), (gpointer *) &self->record_dialog);
      g_signal_connect_object (self->record_dialog, "recorded", G_CALLBACK (record_dialog_recorded),
                               self, G_CONNECT_SWAPPED);
    }
  jvms_record_dialog_set_open_trace (self->record_dialog, jvms_window_get_file (self));
  gtk_window_present (GTK_WINDOW (self->record_dialog));
  jvms_window_debug_changed (self);
}

static void
close_action (GtkWidget *widget, const char *name, GVariant *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
reload_recent_menu (JvmsWindow *self)
{
  g_menu_remove_all (self->recent_section);
  g_auto(GStrv) uris = g_settings_get_strv (self->settings, "recent-traces");
  for (guint i = 0; uris[i] != NULL && i < 10; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uris[i]);
      g_autofree char *label = g_file_get_basename (file);
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent",
                                               g_variant_new_string (uris[i]));
      g_menu_append_item (self->recent_section, item);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Export
 */

static void
export_image_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsWindow *self = JVMS_WINDOW (widget);
  jvms_export_views_with_dialog (GTK_WINDOW (self), self->views, GTK_WIDGET (self->views_box));
}

static void
export_statistics_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsWindow *self = JVMS_WINDOW (widget);
  const JvmsRangeStats *stats = jvms_selection_panel_get_stats (self->selection_panel);
  if (stats != NULL)
    jvms_export_statistics_with_dialog (GTK_WINDOW (self), stats, self->toast_overlay);
}

/* ---------------------------------------------------------------------------------------------
 * View toggles, bound to the visible-views setting.
 */

static void
visible_views_changed (JvmsWindow *self)
{
  guint flags = g_settings_get_flags (self->settings, "visible-views");
  for (guint i = 0; i < G_N_ELEMENTS (view_names); i++)
    {
      gboolean on = (flags & (1u << i)) != 0;
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self->view_actions),
                                                    view_names[i]);
      g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (on));
      jvms_window_views_set_view_visible (self->views, view_names[i], on);
      if (g_str_equal (view_names[i], "profiler"))
        {
          /* Also for a trace with CPU samples, unless the user hid it so (docs/profile.md). */
          on = on || _jvms_window_profiler_shown_for_samples (self);
          g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (on));
          _jvms_window_profiler_set_visible (self, on);
        }
      if (g_str_equal (view_names[i], "explorer"))
        gtk_widget_set_visible (GTK_WIDGET (self->explorer), on);
    }
}

void
_jvms_window_visible_views_changed (JvmsWindow *self)
{
  visible_views_changed (self);
}

static void
view_toggle_change_state (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  JvmsWindow *self = user_data;
  const char *name = g_action_get_name (G_ACTION (action));
  guint flags = g_settings_get_flags (self->settings, "visible-views");

  for (guint i = 0; i < G_N_ELEMENTS (view_names); i++)
    if (g_str_equal (name, view_names[i]))
      {
        if (g_variant_get_boolean (state))
          flags |= 1u << i;
        else
          flags &= ~(1u << i);
      }
  /* The profiler hidden while a trace's samples showed it: not for sampled traces either. */
  if (g_str_equal (name, "profiler") && !g_variant_get_boolean (state))
    g_settings_set_boolean (self->settings, "profiler-for-samples", FALSE);
  g_settings_set_flags (self->settings, "visible-views", flags);
  visible_views_changed (self);
}

static void
preferences_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsWindow *self = JVMS_WINDOW (widget);
  GtkWidget *preferences =
    jvms_preferences_new (GTK_WINDOW (self), self->settings,
                          jvms_window_views_get_setting_bound (self->views, "thread-grouping"));
  gtk_window_present (GTK_WINDOW (preferences));
}


/* ---------------------------------------------------------------------------------------------
 * Installation
 */

void
_jvms_window_class_actions_init (JvmsWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "win.compare-folder", NULL, compare_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-sample", NULL, open_sample_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.record", NULL, record_action);
  gtk_widget_class_install_action (widget_class, "win.preferences", NULL, preferences_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-loading", NULL, cancel_loading_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-problem", NULL, dismiss_problem_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-recording", NULL, dismiss_recording_action);
  gtk_widget_class_install_action (widget_class, "win.export-image", NULL, export_image_action);
  gtk_widget_class_install_action (widget_class, "win.export-statistics", NULL,
                                   export_statistics_action);
  gtk_widget_class_install_property_action (widget_class, "win.side-panel", "show-side-panel");
  gtk_widget_class_install_property_action (widget_class, "win.event-table", "show-event-table");
  gtk_widget_class_install_property_action (widget_class, "win.search", "search-mode");
  /* win.zoom-back, win.zoom-forward, win.zoom-selection act on the views' session. */
  jvms_window_views_install_actions (widget_class);
}

void
_jvms_window_actions_init (JvmsWindow *self)
{
  static const GActionEntry view_entries[] = {
    { .name = "threads", .state = "true", .change_state = view_toggle_change_state },
    { .name = "cpus", .state = "true", .change_state = view_toggle_change_state },
    { .name = "locks", .state = "true", .change_state = view_toggle_change_state },
    { .name = "gc", .state = "true", .change_state = view_toggle_change_state },
    { .name = "object-age", .state = "true", .change_state = view_toggle_change_state },
    { .name = "report", .state = "false", .change_state = view_toggle_change_state },
    { .name = "counters", .state = "true", .change_state = view_toggle_change_state },
    { .name = "gc-workers", .state = "true", .change_state = view_toggle_change_state },
    { .name = "jit", .state = "true", .change_state = view_toggle_change_state },
    { .name = "vm-operations", .state = "true", .change_state = view_toggle_change_state },
    { .name = "disk", .state = "true", .change_state = view_toggle_change_state },
    { .name = "allocation", .state = "true", .change_state = view_toggle_change_state },
    { .name = "events", .state = "true", .change_state = view_toggle_change_state },
    { .name = "profiler", .state = "true", .change_state = view_toggle_change_state },
    { .name = "explorer", .state = "false", .change_state = view_toggle_change_state },
  };
  G_STATIC_ASSERT (G_N_ELEMENTS (view_entries) == G_N_ELEMENTS (view_names));

  self->view_actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->view_actions), view_entries,
                                   G_N_ELEMENTS (view_entries), self);
  /* The views' own choices (also in their headers), as radio items of the View menu. */
  static const char * const choices[] = { "object-age-unit", "counters-metric" };
  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    {
      g_autoptr(GAction) choice = g_settings_create_action (self->settings, choices[i]);
      g_action_map_add_action (G_ACTION_MAP (self->view_actions), choice);
    }
  gtk_widget_insert_action_group (GTK_WIDGET (self), "view", G_ACTION_GROUP (self->view_actions));
  g_signal_connect_object (self->settings, "changed::visible-views",
                           G_CALLBACK (visible_views_changed), self, G_CONNECT_SWAPPED);
  visible_views_changed (self);

  g_signal_connect_object (self->settings, "changed::recent-traces",
                           G_CALLBACK (reload_recent_menu), self, G_CONNECT_SWAPPED);
  reload_recent_menu (self);

  g_autoptr(GFile) sample = jvms_application_find_sample ();
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-sample", sample != NULL);
}
