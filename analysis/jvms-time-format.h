/* jvms-time-format.h: how Jvmscope writes times, the one place that knows time units, their
 * symbols, rounding and times of day. The views' ruler and tooltips, the side panel, the
 * findings and the index's notes all write through it, in the unit and from the origin the
 * user chose (the settings time-unit and time-origin, whose nicks these enums carry).
 *
 * Times are nanoseconds since the Unix epoch (docs/attributes.md); an offset is written from
 * the trace start, a time of day in the local time zone. GTK-free. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The schema's org.jvmscope.Jvmscope.TimeUnit, nicks "auto", "nanoseconds", "microseconds",
 * "milliseconds", "seconds" (registered as a GEnum so that g_settings_bind binds the key to
 * a property of this type). */
typedef enum
{
  JVMS_TIME_UNIT_AUTO = 0,
  JVMS_TIME_UNIT_NANOSECONDS,
  JVMS_TIME_UNIT_MICROSECONDS,
  JVMS_TIME_UNIT_MILLISECONDS,
  JVMS_TIME_UNIT_SECONDS,
} JvmsTimeUnit;

/* The schema's org.jvmscope.Jvmscope.TimeOrigin, nicks "trace-start", "wall-clock". */
typedef enum
{
  JVMS_TIME_ORIGIN_TRACE_START = 0,
  JVMS_TIME_ORIGIN_WALL_CLOCK,
} JvmsTimeOrigin;

#define JVMS_TYPE_TIME_UNIT (jvms_time_unit_get_type ())
GType jvms_time_unit_get_type (void) G_GNUC_CONST;
#define JVMS_TYPE_TIME_ORIGIN (jvms_time_origin_get_type ())
GType jvms_time_origin_get_type (void) G_GNUC_CONST;

/* Precision: a time is written with the fewest decimals that write @resolution (ns) exactly in
 * its unit: ticks 2.5 ms apart as "7.5 ms", a resolution of 1 µs in seconds with 6 decimals.
 * A @resolution of 0 or less asks for the default: a thousandth of the unit (three decimals,
 * none for nanoseconds), or a microsecond for a time of day.
 *
 * AUTO: the largest unit in which the value, rounded to those decimals, is at least 1, so that
 * 999,999,999 ns is "1.000 s", never "1000.000 ms". */

/* The fixed unit @unit stands for when writing @ns at @resolution (@unit itself unless AUTO). */
JvmsTimeUnit jvms_time_unit_resolve     (JvmsTimeUnit    unit,
                                         gint64          ns,
                                         gint64          resolution);
/* A duration: "1.500 ms", "250 ns", "1.000 s" (AUTO), at the default resolution. */
char        *jvms_time_format_duration  (gint64          ns,
                                         JvmsTimeUnit    unit);
/* An instant @time: its offset from @trace_start in @unit ("2.261 s"; "+2.261 s" with
 * @show_sign, so that it does not read as a duration), or for WALL_CLOCK its local time of day
 * ("14:03:22.123456"), cut (not rounded) to the decimals @resolution asks for, as a clock
 * shows the second it is in. */
char        *jvms_time_format_instant   (gint64          time,
                                         gint64          trace_start,
                                         JvmsTimeUnit    unit,
                                         JvmsTimeOrigin  origin,
                                         gint64          resolution,
                                         gboolean        show_sign);

G_END_DECLS
