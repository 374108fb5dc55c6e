/* jvms-recorder-clock-private.h: what the recorder captures to put JFR ticks on perf's CLOCK_MONOTONIC.
 *
 * On Linux with ticksPerSecond == 1e9, JFR ticks are CLOCK_MONOTONIC nanoseconds minus a
 * constant D, the JVM's clock reading at start-up (see docs/recording.md). Two ways to get D:
 * the JVM's own log lines decorated with timenanos (CLOCK_MONOTONIC) and uptimenanos (ticks),
 * or a bridge through wall time: the JFR chunk header pairs a wall time with a tick count, and
 * the recorder pairs wall time with CLOCK_MONOTONIC itself.
 */
#pragma once

#include <glib.h>

typedef struct
{
  gint64 offset_ns;        /* D: the largest timenanos − uptimenanos */
  gint64 spread_ns;        /* largest minus smallest difference over all lines */
  guint n_lines;
} JvmsClockLog;

/* Parses a log written with -Xlog:...:timenanos,uptimenanos (or VM.log decorators=...).
 * Lines without both decorations are ignored; fails when none has them. */
gboolean jvms_clock_log_parse (const char *path, JvmsClockLog *out, GError **error);

/* The fixed part of a JFR chunk header (big-endian, 68 bytes at the start of the file). */
typedef struct
{
  guint16 major, minor;
  gint64 start_nanos;      /* wall time, ns since the epoch */
  gint64 start_ticks;
  gint64 ticks_per_second;
} JvmsJfrChunkStart;

gboolean jvms_jfr_chunk_start_read (const char *path, JvmsJfrChunkStart *out, GError **error);

/* What a JFR file covers, in ticks: from its first chunk's start to its last chunk's end. */
typedef struct
{
  gint64 start_ticks, end_ticks;
  gint64 ticks_per_second;
  guint  n_chunks;
} JvmsJfrSpan;

/* Whether @path holds whole chunks only: each chunk header's size leads to the next header and
 * the last one to the end of the file (a file JFR is still copying out ends inside a chunk).
 * FALSE without an error for an empty or incomplete file; an error for one that is not JFR. */
gboolean jvms_jfr_file_span (const char *path, JvmsJfrSpan *span, GError **error);

/* CLOCK_MONOTONIC − CLOCK_REALTIME in ns, from the tightest of a few bracketed readings;
 * *bracket_ns receives the width of that bracket (the reading's uncertainty). */
gint64 jvms_clock_monotonic_minus_realtime (gint64 *bracket_ns);

gint64 jvms_clock_monotonic_ns (void);
