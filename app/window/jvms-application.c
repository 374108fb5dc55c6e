/* jvms-application.c: application actions, accelerators, settings and opening files. */
#include "config.h"

#include "jvms-application.h"

#include <glib/gi18n.h>

#include "jvms-window-debug.h"
#include "jvms-window.h"

struct _JvmsApplication
{
  AdwApplication parent_instance;
  GSettings     *settings;
};

G_DEFINE_FINAL_TYPE (JvmsApplication, jvms_application, ADW_TYPE_APPLICATION)

JvmsApplication *
jvms_application_new (void)
{
  return g_object_new (JVMS_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/org/jvmscope/Jvmscope",
                       NULL);
}

GSettings *
jvms_application_get_settings (JvmsApplication *self)
{
  g_return_val_if_fail (JVMS_IS_APPLICATION (self), NULL);
  return self->settings;
}

void
jvms_application_add_recent (JvmsApplication *self, GFile *file)
{
  g_return_if_fail (JVMS_IS_APPLICATION (self));
  g_return_if_fail (G_IS_FILE (file));

  guint limit = g_settings_get_uint (self->settings, "recent-traces-limit");
  g_autofree char *uri = g_file_get_uri (file);
  g_auto(GStrv) old = g_settings_get_strv (self->settings, "recent-traces");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n = 0;

  if (limit > 0)
    {
      g_strv_builder_add (builder, uri);
      n++;
    }
  for (guint i = 0; old[i] != NULL && n < limit; i++)
    if (g_strcmp0 (old[i], uri) != 0)
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  g_auto(GStrv) list = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-traces", (const char * const *) list);
}

GFile *
jvms_application_find_sample (void)
{
  const char *const dirs[] = { PKGDATADIR, SOURCE_DATADIR };
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], "sample", "sample.jvmtrace", NULL);
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        return g_file_new_for_path (path);
    }
  return NULL;
}

/* The schema's color-scheme enum and AdwColorScheme differ in values: map by name. */
static gboolean
color_scheme_get_mapping (GValue *value, GVariant *variant, gpointer user_data)
{
  const char *nick = g_variant_get_string (variant, NULL);
  AdwColorScheme scheme = ADW_COLOR_SCHEME_DEFAULT;
  if (g_strcmp0 (nick, "light") == 0)
    scheme = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_strcmp0 (nick, "dark") == 0)
    scheme = ADW_COLOR_SCHEME_FORCE_DARK;
  g_value_set_enum (value, scheme);
  return TRUE;
}

static GVariant *
color_scheme_set_mapping (const GValue *value, const GVariantType *type, gpointer user_data)
{
  switch (g_value_get_enum (value))
    {
    case ADW_COLOR_SCHEME_FORCE_LIGHT:
    case ADW_COLOR_SCHEME_PREFER_LIGHT:
      return g_variant_new_string ("light");
    case ADW_COLOR_SCHEME_FORCE_DARK:
    case ADW_COLOR_SCHEME_PREFER_DARK:
      return g_variant_new_string ("dark");
    default:
      return g_variant_new_string ("auto");
    }
}

static JvmsWindow *
new_window (JvmsApplication *self)
{
  return jvms_window_new (self);
}

static void
jvms_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));
  if (window == NULL)
    window = GTK_WINDOW (new_window (JVMS_APPLICATION (app)));
  gtk_window_present (window);
}

static void
jvms_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  JvmsApplication *self = JVMS_APPLICATION (app);

  for (int i = 0; i < n_files; i++)
    {
      JvmsWindow *window = NULL;

      /* Reuse a window that shows only its start page, so that "jvmscope TRACE" after an
       * empty start does not leave an idle window behind. */
      for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l; l = l->next)
        if (JVMS_IS_WINDOW (l->data) && jvms_window_get_file (l->data) == NULL)
          {
            window = l->data;
            break;
          }
      if (window == NULL)
        window = new_window (self);
      jvms_debug_mark ("window built");
      jvms_window_open (window, files[i]);
      jvms_debug_mark ("trace opened in the window");
      gtk_window_present (GTK_WINDOW (window));
      jvms_debug_mark ("window presented");
    }
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GApplication *app = user_data;
  /* Closing each window first lets them save their size and cancel indexing. */
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));
  for (GList *l = windows; l; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
  /* With every window closed the program ends when its last hold goes: a recording being
   * written holds it until its bundle is complete (jvms-record-dialog.h). Only a window that
   * refused to close needs the loop stopped. */
  if (gtk_application_get_windows (GTK_APPLICATION (app)) != NULL)
    g_application_quit (app);
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = user_data;
  const char *developers[] = { "The Jvmscope developers", NULL };

  AdwAboutWindow *about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  gtk_window_set_transient_for (GTK_WINDOW (about), gtk_application_get_active_window (app));
  adw_about_window_set_application_name (about, _("Jvmscope"));
  adw_about_window_set_application_icon (about, APP_ID);
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_developer_name (about, _("The Jvmscope developers"));
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_comments (about, _("See what a Java virtual machine does over time, "
                                          "from Java code down to the CPU cores."));
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  /* Translators: replace with your name and e-mail, one per line. */
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  gtk_window_present (GTK_WINDOW (about));
}

static void
new_window_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  gtk_window_present (GTK_WINDOW (new_window (user_data)));
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_action },
  { .name = "about", .activate = about_action },
  { .name = "new-window", .activate = new_window_action },
};

static void
jvms_application_startup (GApplication *app)
{
  JvmsApplication *self = JVMS_APPLICATION (app);
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.open-folder", { "<Control><Shift>o", NULL } },
    { "win.record", { "<Control>r", NULL } },
    { "win.compare", { "<Control>k", NULL } },
    { "win.compare-folder", { "<Control><Shift>k", NULL } },
    { "win.close", { "<Control>w", NULL } },
    { "win.preferences", { "<Control>comma", NULL } },
    { "win.side-panel", { "F9", NULL } },
    { "win.event-table", { "F8", NULL } },
    { "win.event-filter", { "<Control><Shift>f", NULL } },
    { "win.search", { "<Control>f", NULL } },
    { "win.export-image", { "<Control>e", NULL } },
    { "win.export-statistics", { "<Control><Shift>e", NULL } },
    { "view.profiler", { "<Control><Shift>p", NULL } },
    { "view.explorer", { "<Control><Shift>x", NULL } },
    { "win.profile-search", { "<Control><Shift>s", NULL } },
    { "win.profile-choose-kind", { "<Control><Alt>k", NULL } },
    { "win.profile-colors", { "<Control><Alt>c", NULL } },
    { "win.profile-zoom-out", { "<Alt>Up", NULL } },
    { "win.profile-zoom-reset", { "<Alt>Home", NULL } },
    { "win.profile-expand-hottest", { "<Control>h", NULL } },
    { "win.profile-all-threads", { "<Control><Shift>a", NULL } },
    { "win.profile-page::flame", { "<Alt>1", NULL } },
    { "win.profile-page::tree", { "<Alt>2", NULL } },
    { "win.profile-page::callers", { "<Alt>3", NULL } },
    { "win.profile-page::methods", { "<Alt>4", NULL } },
    { "win.export-flame-graph", { "<Control><Alt>g", NULL } },
    { "win.export-folded", { "<Control><Alt>f", NULL } },
    { "win.export-methods", { "<Control><Alt>m", NULL } },
    { "win.cancel-loading", { NULL } },
    /* Each view shown or hidden (the View menu's toggles). */
    { "view.threads", { "<Control><Shift>t", NULL } },
    { "view.cpus", { "<Control><Shift>c", NULL } },
    { "view.locks", { "<Control><Shift>l", NULL } },
    { "view.gc", { "<Control><Shift>g", NULL } },
    { "view.gc-workers", { "<Control><Shift>w", NULL } },
    { "view.jit", { "<Control><Shift>j", NULL } },
    { "view.vm-operations", { "<Control><Shift>v", NULL } },
    { "view.allocation", { "<Control><Shift>m", NULL } },
    { "view.object-age", { "<Control><Shift>b", NULL } },
    { "view.counters", { "<Control><Shift>h", NULL } },
    { "view.disk", { "<Control><Shift>d", NULL } },
    { "view.events", { "<Control><Shift>n", NULL } },
    { "view.report", { "<Control><Shift>r", NULL } },
  };

  jvms_debug_mark ("startup");
  G_APPLICATION_CLASS (jvms_application_parent_class)->startup (app);
  jvms_debug_mark ("GTK and libadwaita started");

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions,
                                   G_N_ELEMENTS (app_actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    if (accels[i].accels[0] != NULL)
      gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action,
                                             accels[i].accels);

  g_autoptr(GAction) scheme = g_settings_create_action (self->settings, "color-scheme");
  g_action_map_add_action (G_ACTION_MAP (app), scheme);
  g_settings_bind_with_mapping (self->settings, "color-scheme",
                                adw_style_manager_get_default (), "color-scheme",
                                G_SETTINGS_BIND_DEFAULT,
                                color_scheme_get_mapping, color_scheme_set_mapping,
                                NULL, NULL);
}

static void
jvms_application_dispose (GObject *object)
{
  JvmsApplication *self = JVMS_APPLICATION (object);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (jvms_application_parent_class)->dispose (object);
}

static void
jvms_application_class_init (JvmsApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = jvms_application_dispose;
  app_class->activate = jvms_application_activate;
  app_class->open = jvms_application_open;
  app_class->startup = jvms_application_startup;
}

static void
jvms_application_init (JvmsApplication *self)
{
  /* Translators: what "jvmscope --help" shows after the program name. */
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[TRACE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Opens Java Flight Recorder files, perf.data files, "
                                              "LTTng trace folders and .jvmtrace bundles."));
  self->settings = g_settings_new (APP_ID);
}
