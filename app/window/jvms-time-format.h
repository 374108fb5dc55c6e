/* jvms-time-format.h: durations and instants as the window's own text shows them (side panel,
 * findings), following the time-unit and time-origin settings. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The values of the schema's org.jvmscope.Jvmscope.TimeUnit and .TimeOrigin enums. */
typedef enum
{
  JVMS_TIME_UNIT_AUTO = 0,
  JVMS_TIME_UNIT_NANOSECONDS,
  JVMS_TIME_UNIT_MICROSECONDS,
  JVMS_TIME_UNIT_MILLISECONDS,
  JVMS_TIME_UNIT_SECONDS,
} JvmsTimeUnit;

typedef enum
{
  JVMS_TIME_ORIGIN_TRACE_START = 0,
  JVMS_TIME_ORIGIN_WALL_CLOCK,
} JvmsTimeOrigin;

/* "1.500 ms"; AUTO picks the largest unit the value reaches. */
char *jvms_time_format_duration (double          ns,
                                 JvmsTimeUnit    unit);
/* @time (ns since the Unix epoch) from @trace_start in @unit ("+2.345 s"), or as the local time
 * of day with microseconds ("14:03:22.123456") for WALL_CLOCK. */
char *jvms_time_format_instant  (gint64          time,
                                 gint64          trace_start,
                                 JvmsTimeUnit    unit,
                                 JvmsTimeOrigin  origin);

G_END_DECLS
