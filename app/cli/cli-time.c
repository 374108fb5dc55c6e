/* cli-time.c: time arguments. */
#include "cli-time.h"

#include <math.h>
#include <string.h>

gboolean
jvms_cli_parse_offset (const char *text, gint64 *out)
{
  if (text == NULL)
    return FALSE;
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (v))
    return FALSE;
  static const struct { const char *suffix; double scale; } units[] = {
    { "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "µs", 1e3 }, { "ns", 1 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (end, units[i].suffix) == 0)
      {
        double ns = v * units[i].scale;
        if (fabs (ns) > 9e18)
          return FALSE;
        *out = (gint64) llround (ns);
        return TRUE;
      }
  return FALSE;
}
