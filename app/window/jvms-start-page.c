/* jvms-start-page.c: the start page and its list of recent traces. */
#include "config.h"

#include "jvms-start-page.h"

#include <adwaita.h>
#include <glib/gi18n.h>

struct _JvmsStartPage
{
  GtkWidget   parent_instance;

  GSettings  *settings;
  GtkWidget  *status_page;
  GtkWidget  *recent_box;
  GtkListBox *recent_list;
  GtkWidget  *sample_button;
};

G_DEFINE_FINAL_TYPE (JvmsStartPage, jvms_start_page, GTK_TYPE_WIDGET)

static void
reload_recent (JvmsStartPage *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);

  g_auto(GStrv) uris = g_settings_get_strv (self->settings, "recent-traces");
  guint shown = 0;
  for (guint i = 0; uris[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uris[i]);
      /* A trace that was deleted or moved is not offered (docs/desktop-integration.md). */
      if (!g_file_query_exists (file, NULL))
        continue;

      g_autofree char *name = g_file_get_basename (file);
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *where = parent ? g_file_get_parse_name (parent) : g_strdup ("");
      g_autofree char *title = g_markup_escape_text (name, -1);
      g_autofree char *subtitle = g_markup_escape_text (where, -1);

      GtkWidget *row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 gtk_image_new_from_icon_name ("go-next-symbolic"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.open-recent");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", uris[i]);
      gtk_list_box_append (self->recent_list, row);
      shown++;
    }
  gtk_widget_set_visible (self->recent_box, shown > 0);
}

void
jvms_start_page_set_settings (JvmsStartPage *self, GSettings *settings)
{
  g_return_if_fail (JVMS_IS_START_PAGE (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  if (!g_set_object (&self->settings, settings))
    return;
  g_signal_connect_object (settings, "changed::recent-traces",
                           G_CALLBACK (reload_recent), self, G_CONNECT_SWAPPED);
  reload_recent (self);
}

static void
jvms_start_page_dispose (GObject *object)
{
  JvmsStartPage *self = JVMS_START_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), JVMS_TYPE_START_PAGE);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (jvms_start_page_parent_class)->dispose (object);
}

static void
jvms_start_page_class_init (JvmsStartPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jvms_start_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jvmscope/Jvmscope/jvms-start-page.ui");
  gtk_widget_class_bind_template_child (widget_class, JvmsStartPage, status_page);
  gtk_widget_class_bind_template_child (widget_class, JvmsStartPage, recent_box);
  gtk_widget_class_bind_template_child (widget_class, JvmsStartPage, recent_list);
  gtk_widget_class_bind_template_child (widget_class, JvmsStartPage, sample_button);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
jvms_start_page_init (JvmsStartPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_visible (self->recent_box, FALSE);
}
