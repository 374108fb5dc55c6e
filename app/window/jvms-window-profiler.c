/* jvms-window-profiler.c: the window's side of the profiler pane: its actions (win.profile-*,
 * win.export-flame-graph, win.export-folded, win.export-methods), the session it follows and
 * the marks its selected method leaves on the threads view. */
#include "config.h"


#include "jvms-export.h"
#include "jvms-window-private.h"

void
_jvms_window_profiler_update (JvmsWindow *self)
{
  gboolean has_tree = self->profiler != NULL && jvms_profiler_pane_get_tree (self->profiler) != NULL;
  static const char *const need_tree[] = {
    "win.profile-zoom-out", "win.profile-zoom-reset", "win.profile-expand-hottest",
    "win.profile-search", "win.export-flame-graph", "win.export-folded", "win.export-methods",
  };
  for (guint i = 0; i < G_N_ELEMENTS (need_tree); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), need_tree[i], has_tree);
  JvmsSession *session = self->views != NULL ? jvms_window_views_get_session (self->views) : NULL;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.profile-all-threads",
                                 session != NULL && jvms_session_get_highlighted_threads (session)->len > 0);
}

static void
instants_changed (JvmsWindow *self)
{
  jvms_window_views_set_thread_marks (self->views, jvms_profiler_pane_get_instants (self->profiler));
  jvms_window_debug_changed (self);
}

static void
pane_changed (JvmsWindow *self)
{
  _jvms_window_profiler_update (self);
  jvms_window_debug_changed (self);
}

void
_jvms_window_profiler_init (JvmsWindow *self)
{
  JvmsSession *session = jvms_window_views_get_session (self->views);
  jvms_profiler_pane_set_session (self->profiler, session);
  g_signal_connect_object (self->profiler, "notify::instants", G_CALLBACK (instants_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->profiler, "notify::tree", G_CALLBACK (pane_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->profiler, "notify::busy", G_CALLBACK (pane_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::highlighted-threads", G_CALLBACK (pane_changed), self,
                           G_CONNECT_SWAPPED);
  _jvms_window_profiler_update (self);
}

gboolean
_jvms_window_profiler_shown_for_samples (JvmsWindow *self)
{
  return self->profiler != NULL && self->settings != NULL
         && g_settings_get_boolean (self->settings, "profiler-for-samples")
         && jvms_profiler_pane_has_cpu_samples (self->profiler);
}

void
_jvms_window_profiler_set_visible (JvmsWindow *self, gboolean visible)
{
  gtk_widget_set_visible (GTK_WIDGET (self->profiler), visible);
}

/* ---------------------------------------------------------------------------------------------
 * Actions
 */

static void
profile_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsWindow *self = JVMS_WINDOW (widget);
  JvmsProfilerPane *pane = self->profiler;

  /* An action on the pane shows it. */
  if (!gtk_widget_get_visible (GTK_WIDGET (pane)))
    {
      GAction *toggle = g_action_map_lookup_action (G_ACTION_MAP (self->view_actions), "profiler");
      if (toggle != NULL)
        g_action_change_state (toggle, g_variant_new_boolean (TRUE));
    }
  if (g_str_equal (name, "win.profile-zoom-out"))
    jvms_profiler_pane_zoom_out (pane);
  else if (g_str_equal (name, "win.profile-zoom-reset"))
    jvms_profiler_pane_zoom_reset (pane);
  else if (g_str_equal (name, "win.profile-expand-hottest"))
    jvms_profiler_pane_expand_hottest (pane);
  else if (g_str_equal (name, "win.profile-search"))
    jvms_profiler_pane_focus_search (pane);
  else if (g_str_equal (name, "win.profile-choose-kind"))
    jvms_profiler_pane_focus_kind (pane);
  else if (g_str_equal (name, "win.profile-colors"))
    jvms_profiler_pane_next_color_mode (pane);
  else if (g_str_equal (name, "win.profile-kind"))
    jvms_profiler_pane_set_kind (pane, g_variant_get_string (param, NULL));
  else if (g_str_equal (name, "win.profile-page"))
    jvms_profiler_pane_show_page (pane, g_variant_get_string (param, NULL));
  else if (g_str_equal (name, "win.profile-all-threads"))
    jvms_session_clear_highlight (jvms_window_views_get_session (self->views));
}

static void
export_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsWindow *self = JVMS_WINDOW (widget);
  JvmsExportProfile what = g_str_equal (name, "win.export-folded") ? JVMS_EXPORT_PROFILE_FOLDED
                         : g_str_equal (name, "win.export-methods") ? JVMS_EXPORT_PROFILE_METHODS
                         : JVMS_EXPORT_PROFILE_FLAME_GRAPH;
  if (jvms_profiler_pane_get_tree (self->profiler) != NULL)
    jvms_export_profile_with_dialog (GTK_WINDOW (self), self->profiler, what, self->toast_overlay);
}

void
_jvms_window_class_profiler_init (JvmsWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char *const plain[] = {
    "win.profile-zoom-out", "win.profile-zoom-reset", "win.profile-expand-hottest",
    "win.profile-search", "win.profile-choose-kind", "win.profile-colors",
    "win.profile-all-threads",
  };
  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    gtk_widget_class_install_action (widget_class, plain[i], NULL, profile_action);
  gtk_widget_class_install_action (widget_class, "win.profile-kind", "s", profile_action);
  gtk_widget_class_install_action (widget_class, "win.profile-page", "s", profile_action);
  gtk_widget_class_install_action (widget_class, "win.export-flame-graph", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-folded", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-methods", NULL, export_action);
}
