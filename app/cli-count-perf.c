/* Placeholder until the perf reader lands: says plainly that the format is not read yet. */
#include <gio/gio.h>
#include "cli-count.h"

gboolean
jvms_cli_count_perf (const char *path, JvmsCliCounts *out, GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               "%s: reading this format is not implemented yet", path);
  return FALSE;
}
