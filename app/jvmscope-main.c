/* jvmscope: the window. "jvmscope [TRACE...]" opens each trace in a window. */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "jvms-application.h"

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name (_("Jvmscope"));

  g_autoptr(JvmsApplication) app = jvms_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
