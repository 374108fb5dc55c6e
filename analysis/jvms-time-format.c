/* jvms-time-format.c: see the header. */
#include "jvms-time-format.h"

#include <math.h>

G_DEFINE_ENUM_TYPE (JvmsTimeUnit, jvms_time_unit,
  G_DEFINE_ENUM_VALUE (JVMS_TIME_UNIT_AUTO, "auto"),
  G_DEFINE_ENUM_VALUE (JVMS_TIME_UNIT_NANOSECONDS, "nanoseconds"),
  G_DEFINE_ENUM_VALUE (JVMS_TIME_UNIT_MICROSECONDS, "microseconds"),
  G_DEFINE_ENUM_VALUE (JVMS_TIME_UNIT_MILLISECONDS, "milliseconds"),
  G_DEFINE_ENUM_VALUE (JVMS_TIME_UNIT_SECONDS, "seconds"))

G_DEFINE_ENUM_TYPE (JvmsTimeOrigin, jvms_time_origin,
  G_DEFINE_ENUM_VALUE (JVMS_TIME_ORIGIN_TRACE_START, "trace-start"),
  G_DEFINE_ENUM_VALUE (JVMS_TIME_ORIGIN_WALL_CLOCK, "wall-clock"))

#define SECOND G_GINT64_CONSTANT (1000000000)

/* Nanoseconds per unit and the SI symbol, which no language translates; indexed by unit (AUTO
 * has none of its own and is resolved before use). */
static const struct
{
  gint64      scale;
  const char *symbol;
} units[] = {
  [JVMS_TIME_UNIT_AUTO] = { SECOND, "s" },
  [JVMS_TIME_UNIT_NANOSECONDS] = { 1, "ns" },
  [JVMS_TIME_UNIT_MICROSECONDS] = { 1000, "µs" },
  [JVMS_TIME_UNIT_MILLISECONDS] = { 1000000, "ms" },
  [JVMS_TIME_UNIT_SECONDS] = { SECOND, "s" },
};

static JvmsTimeUnit
valid_unit (JvmsTimeUnit unit)
{
  return (guint) unit < G_N_ELEMENTS (units) ? unit : JVMS_TIME_UNIT_AUTO;
}

/* The fewest decimals (at most 9) that write @resolution exactly in units of @scale ns: the
 * remainder is carried one decimal at a time, so no product can overflow. */
static int
decimals_for (gint64 resolution,
              gint64 scale)
{
  gint64 rest;
  int decimals = 0;

  if (resolution <= 0)
    resolution = MAX (scale / 1000, 1);
  for (rest = resolution % scale; rest != 0 && decimals < 9; decimals++)
    rest = rest * 10 % scale;
  return decimals;
}

JvmsTimeUnit
jvms_time_unit_resolve (JvmsTimeUnit unit,
                        gint64       ns,
                        gint64       resolution)
{
  static const JvmsTimeUnit larger_first[] = {
    JVMS_TIME_UNIT_SECONDS, JVMS_TIME_UNIT_MILLISECONDS, JVMS_TIME_UNIT_MICROSECONDS,
  };
  double magnitude = fabs ((double) ns);
  JvmsTimeUnit chosen = JVMS_TIME_UNIT_NANOSECONDS;

  unit = valid_unit (unit);
  if (unit != JVMS_TIME_UNIT_AUTO)
    return unit;
  for (guint i = 0; i < G_N_ELEMENTS (larger_first); i++)
    if (magnitude >= (double) units[larger_first[i]].scale)
      {
        chosen = larger_first[i];
        break;
      }
  /* Rounded to its decimals, a value just below the next unit would read "1000.000 ms": write
   * it in that unit instead. */
  if (chosen != JVMS_TIME_UNIT_SECONDS)
    {
      int decimals = decimals_for (resolution, units[chosen].scale);
      double shift = pow (10, decimals);
      if (round (magnitude / (double) units[chosen].scale * shift) >= 1000 * shift)
        chosen++;
    }
  return chosen;
}

static char *
format_in_unit (gint64       ns,
                JvmsTimeUnit unit,
                gint64       resolution,
                gboolean     show_sign)
{
  const char *sign = show_sign && ns >= 0 ? "+" : "";
  gint64 scale;

  unit = jvms_time_unit_resolve (unit, ns, resolution);
  scale = units[unit].scale;
  if (scale == 1)
    return g_strdup_printf ("%s%" G_GINT64_FORMAT " %s", sign, ns, units[unit].symbol);
  return g_strdup_printf ("%s%.*f %s", sign, decimals_for (resolution, scale),
                          (double) ns / (double) scale, units[unit].symbol);
}

char *
jvms_time_format_duration (gint64       ns,
                           JvmsTimeUnit unit)
{
  return format_in_unit (ns, unit, 0, FALSE);
}

static char *
format_time_of_day (gint64 time,
                    gint64 resolution)
{
  gint64 seconds = time >= 0 ? time / SECOND : (time - (SECOND - 1)) / SECOND;
  gint64 fraction = time - seconds * SECOND;
  int decimals = decimals_for (resolution > 0 ? resolution : 1000, SECOND);
  g_autoptr(GDateTime) local = g_date_time_new_from_unix_local (seconds);
  g_autofree char *clock = local != NULL ? g_date_time_format (local, "%H:%M:%S") : g_strdup ("?");
  char digits[16];

  if (decimals == 0)
    return g_steal_pointer (&clock);
  g_snprintf (digits, sizeof digits, "%09" G_GINT64_FORMAT, fraction);
  digits[decimals] = '\0';
  return g_strdup_printf ("%s.%s", clock, digits);
}

char *
jvms_time_format_instant (gint64         time,
                          gint64         trace_start,
                          JvmsTimeUnit   unit,
                          JvmsTimeOrigin origin,
                          gint64         resolution,
                          gboolean       show_sign)
{
  if (origin == JVMS_TIME_ORIGIN_WALL_CLOCK)
    return format_time_of_day (time, resolution);
  return format_in_unit (time - trace_start, unit, resolution, show_sign);
}
