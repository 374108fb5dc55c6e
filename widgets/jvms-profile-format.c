/* jvms-profile-format.c: weights and shares as the profiler's views write them. */
#include "config.h"

#include "jvms-profile-format.h"

#include <glib/gi18n.h>

#include "jvms-number-format.h"
#include "jvms-time-format.h"

char *
jvms_profile_format_value (const char *unit, guint64 value)
{
  if (g_strcmp0 (unit, "bytes") == 0)
    return g_format_size_full (value, G_FORMAT_SIZE_IEC_UNITS);
  if (g_strcmp0 (unit, "ns") == 0)
    return jvms_time_format_duration ((gint64) MIN (value, (guint64) G_MAXINT64), JVMS_TIME_UNIT_AUTO);
  return jvms_number_format_count (value);
}

char *
jvms_profile_format_weight (const char *unit, guint64 value)
{
  g_autofree char *number = jvms_number_format_count (value);
  gulong n = (gulong) MIN (value, G_MAXULONG);
  if (g_strcmp0 (unit, "samples") == 0)
    /* Translators: a weight in the profiler; %s is a number. */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample", "%s samples", n), number);
  if (g_strcmp0 (unit, "events") == 0)
    /* Translators: a weight in the profiler; %s is a number. */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event", "%s events", n), number);
  return jvms_profile_format_value (unit, value);
}

char *
jvms_profile_format_share (guint64 part, guint64 whole)
{
  double share = whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
  /* Translators: a percentage; keep the %% sign, and the space before it as your language
   * writes it. */
  return g_strdup_printf (_("%.1f %%"), share);
}
