/* jvms-window-views.c: the stacked views of a window (see the header). */
#include "config.h"

#include "jvms-window-views.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "jvms-window.h"

struct _JvmsWindowViews
{
  JvmsWindow         *window; /* unowned: the window owns us */
  GtkBox             *box;
  JvmsSelectionPanel *panel;
  GtkWidget          *placeholder;
  gboolean            has_history;
  gboolean            complete;
};

JvmsWindowViews *
jvms_window_views_new (JvmsWindow *window, GtkBox *views_box, JvmsSelectionPanel *panel)
{
  JvmsWindowViews *self = g_new0 (JvmsWindowViews, 1);
  self->window = window;
  self->box = views_box;
  self->panel = panel;

  /* Until widgets/ provides the views, say so where they would be. */
  self->placeholder = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->placeholder), "org.jvmscope.Jvmscope-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (self->placeholder), _("No Views in This Build"));
  adw_status_page_set_description (ADW_STATUS_PAGE (self->placeholder),
                                   _("The trace was read, but this build of Jvmscope has no timeline views yet."));
  gtk_widget_set_vexpand (self->placeholder, TRUE);
  gtk_box_append (views_box, self->placeholder);

  gtk_widget_action_set_enabled (GTK_WIDGET (window), "win.zoom-back", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (window), "win.zoom-forward", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (window), "win.zoom-selection", FALSE);
  return self;
}

void
jvms_window_views_free (JvmsWindowViews *self)
{
  g_free (self);
}

void
jvms_window_views_set_history (JvmsWindowViews *self, gpointer history)
{
  self->has_history = history != NULL;
}

void
jvms_window_views_set_complete (JvmsWindowViews *self, gboolean complete)
{
  self->complete = complete;
}

void
jvms_window_views_set_view_visible (JvmsWindowViews *self, const char *name, gboolean visible)
{
}

void
jvms_window_views_set_thread_filter (JvmsWindowViews *self, const char *text)
{
}

void
jvms_window_views_dump_state (JvmsWindowViews *self, GKeyFile *key_file)
{
  g_key_file_set_boolean (key_file, "views", "history", self->has_history);
  g_key_file_set_boolean (key_file, "views", "complete", self->complete);
}

static void
zoom_action (GtkWidget *widget, const char *name, GVariant *param)
{
}

void
jvms_window_views_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.zoom-back", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-forward", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-selection", NULL, zoom_action);
}
