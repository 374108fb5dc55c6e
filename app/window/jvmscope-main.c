/* jvmscope: the window. "jvmscope [TRACE...]" opens each trace in a window. */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "jvms-application.h"
#include "jvms-window-debug.h"

/* Run from the build tree, the program finds the settings schema compiled there, so that
 * "build/app/jvmscope" works without GSETTINGS_SCHEMA_DIR; an installed program uses the
 * system's schemas only. */
static gboolean
running_from_build_tree (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe ? g_path_get_dirname (exe) : NULL;
  return dir != NULL && g_strcmp0 (dir, JVMS_BUILD_APPDIR) == 0;
}

static void
use_build_tree_schemas (void)
{
  const char *old = g_getenv ("GSETTINGS_SCHEMA_DIR");
  g_autofree char *value = old && *old
    ? g_strconcat (old, G_SEARCHPATH_SEPARATOR_S, JVMS_BUILD_SCHEMADIR, NULL)
    : g_strdup (JVMS_BUILD_SCHEMADIR);
  g_setenv ("GSETTINGS_SCHEMA_DIR", value, TRUE);
}

int
main (int argc, char **argv)
{
  jvms_debug_mark ("main");
  gboolean uninstalled = running_from_build_tree ();
  if (uninstalled)
    use_build_tree_schemas ();

  /* Uninstalled, the catalogues are the ones built beside the program, so that the README's
   * first command already speaks the user's language. */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, uninstalled ? JVMS_BUILD_LOCALEDIR : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name (_("Jvmscope"));

  /* Without its schema GSettings aborts; say what is missing instead. */
  g_autoptr(GSettingsSchema) schema =
    g_settings_schema_source_lookup (g_settings_schema_source_get_default (), APP_ID, TRUE);
  if (schema == NULL)
    {
      g_printerr (_("jvmscope: the settings schema %s is not installed "
                    "(uninstalled: set GSETTINGS_SCHEMA_DIR to the build folder’s data/)\n"),
                  APP_ID);
      return 1;
    }

  g_autoptr(JvmsApplication) app = jvms_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
