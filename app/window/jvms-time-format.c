/* jvms-time-format.c: see the header. */
#include "config.h"

#include "jvms-time-format.h"

#include <glib/gi18n.h>

char *
jvms_time_format_duration (double ns, JvmsTimeUnit unit)
{
  double magnitude = ABS (ns);
  if (unit == JVMS_TIME_UNIT_AUTO)
    unit = magnitude >= 1e9 ? JVMS_TIME_UNIT_SECONDS
         : magnitude >= 1e6 ? JVMS_TIME_UNIT_MILLISECONDS
         : magnitude >= 1e3 ? JVMS_TIME_UNIT_MICROSECONDS
         : JVMS_TIME_UNIT_NANOSECONDS;
  switch (unit)
    {
    case JVMS_TIME_UNIT_SECONDS:
      return g_strdup_printf (_("%.3f s"), ns / 1e9);
    case JVMS_TIME_UNIT_MILLISECONDS:
      return g_strdup_printf (_("%.3f ms"), ns / 1e6);
    case JVMS_TIME_UNIT_MICROSECONDS:
      return g_strdup_printf (_("%.3f µs"), ns / 1e3);
    case JVMS_TIME_UNIT_NANOSECONDS:
    case JVMS_TIME_UNIT_AUTO:
    default:
      return g_strdup_printf (_("%.0f ns"), ns);
    }
}

char *
jvms_time_format_instant (gint64 time, gint64 trace_start, JvmsTimeUnit unit,
                          JvmsTimeOrigin origin)
{
  if (origin == JVMS_TIME_ORIGIN_WALL_CLOCK)
    {
      g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (time / G_TIME_SPAN_SECOND / 1000);
      g_autoptr(GDateTime) local = utc ? g_date_time_to_local (utc) : NULL;
      if (local != NULL)
        {
          g_autofree char *clock = g_date_time_format (local, "%H:%M:%S");
          return g_strdup_printf ("%s.%06d", clock, (int) ((time % 1000000000) / 1000));
        }
    }
  g_autofree char *relative = jvms_time_format_duration ((double) (time - trace_start), unit);
  return g_strconcat (time >= trace_start ? "+" : "", relative, NULL);
}
