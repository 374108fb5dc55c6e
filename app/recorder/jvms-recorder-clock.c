/* jvms-recorder-clock.c: the JVM clock log, the JFR chunk header and the wall-time bridge. */
#include "config.h"

#include "jvms-recorder-clock-private.h"

#include <errno.h>
#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Reads "[<digits>ns]" at *p and advances past it. */
static gboolean
read_ns_decoration (const char **p, gint64 *value)
{
  const char *s = *p;
  if (*s != '[' || !g_ascii_isdigit (s[1]))
    return FALSE;
  char *end = NULL;
  errno = 0;
  guint64 v = g_ascii_strtoull (s + 1, &end, 10);
  if (errno != 0 || v > G_MAXINT64 || end[0] != 'n' || end[1] != 's' || end[2] != ']')
    return FALSE;
  *value = (gint64) v;
  *p = end + 3;
  return TRUE;
}

gboolean
jvms_clock_log_parse (const char *path, JvmsClockLog *out, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents (path, &text, &len, error))
    return FALSE;

  gint64 max_diff = G_MININT64, min_diff = G_MAXINT64;
  guint n = 0;
  for (char *line = text, *next; line != NULL && *line != '\0'; line = next)
    {
      next = strchr (line, '\n');
      if (next != NULL)
        *next++ = '\0';
      /* timenanos comes first: the order HotSpot prints decorations in, whatever the option's order. */
      const char *p = line;
      gint64 time_ns, uptime_ns;
      if (!read_ns_decoration (&p, &time_ns) || !read_ns_decoration (&p, &uptime_ns))
        continue;
      gint64 diff = time_ns - uptime_ns;
      max_diff = MAX (max_diff, diff);
      min_diff = MIN (min_diff, diff);
      n++;
    }
  if (n == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: no line starts with [<timenanos>ns][<uptimenanos>ns]", path);
      return FALSE;
    }
  out->offset_ns = max_diff;
  out->spread_ns = max_diff - min_diff;
  out->n_lines = n;
  return TRUE;
}

static gint64
read_be64 (const guint8 *p)
{
  guint64 v = 0;
  for (int i = 0; i < 8; i++)
    v = (v << 8) | p[i];
  return (gint64) v;
}

/* magic(4) major(2) minor(2) size(8) cpool(8) metadata(8) startNanos(8) duration(8)
 * startTicks(8) ticksPerSecond(8) features(4), big-endian */
enum { CHUNK_HEADER_SIZE = 68 };

static gboolean
read_chunk_header (GInputStream *in, const char *path, goffset offset, guint8 *buf, gsize *got, GError **error)
{
  *got = 0;
  if (!g_seekable_seek (G_SEEKABLE (in), offset, G_SEEK_SET, NULL, error)
      || !g_input_stream_read_all (in, buf, CHUNK_HEADER_SIZE, got, NULL, error))
    return FALSE;
  if (*got == CHUNK_HEADER_SIZE && memcmp (buf, "FLR\0", 4) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: offset %" G_GOFFSET_FORMAT ": no JFR chunk magic \"FLR\\0\"", path, offset);
      return FALSE;
    }
  return TRUE;
}

gboolean
jvms_jfr_chunk_start_read (const char *path, JvmsJfrChunkStart *out, GError **error)
{
  guint8 buf[CHUNK_HEADER_SIZE];
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, error);
  if (in == NULL)
    return FALSE;
  gsize got = 0;
  if (!read_chunk_header (G_INPUT_STREAM (in), path, 0, buf, &got, error))
    return FALSE;
  if (got < sizeof buf)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: %" G_GSIZE_FORMAT " bytes, shorter than a JFR chunk header (%d)",
                   path, got, CHUNK_HEADER_SIZE);
      return FALSE;
    }
  out->major = (guint16) (buf[4] << 8 | buf[5]);
  out->minor = (guint16) (buf[6] << 8 | buf[7]);
  out->start_nanos = read_be64 (buf + 32);
  out->start_ticks = read_be64 (buf + 48);
  out->ticks_per_second = read_be64 (buf + 56);
  if (out->ticks_per_second <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: offset 56: ticksPerSecond %" G_GINT64_FORMAT " is not positive",
                   path, out->ticks_per_second);
      return FALSE;
    }
  return TRUE;
}

gboolean
jvms_jfr_file_span (const char *path, JvmsJfrSpan *span, GError **error)
{
  memset (span, 0, sizeof *span);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, error);
  if (in == NULL)
    return FALSE;
  g_autoptr(GFileInfo) info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL, error);
  if (info == NULL)
    return FALSE;
  goffset size = g_file_info_get_size (info), offset = 0;
  while (offset < size)
    {
      guint8 buf[CHUNK_HEADER_SIZE];
      gsize got;
      if (!read_chunk_header (G_INPUT_STREAM (in), path, offset, buf, &got, error))
        return FALSE;
      gint64 chunk_size = read_be64 (buf + 8);
      gint64 duration_ns = read_be64 (buf + 40);
      gint64 start_ticks = read_be64 (buf + 48);
      gint64 tps = read_be64 (buf + 56);
      /* A header not yet written whole, or a chunk that goes past the end: still being written. */
      if (got < CHUNK_HEADER_SIZE || chunk_size < CHUNK_HEADER_SIZE || chunk_size > size - offset
          || tps <= 0 || duration_ns < 0)
        return FALSE;
      if (span->n_chunks++ == 0)
        {
          span->start_ticks = start_ticks;
          span->ticks_per_second = tps;
        }
      /* duration_ns * tps / 1e9 without overflow for any duration a file can hold */
      span->end_ticks = start_ticks + (gint64) ((double) duration_ns * (double) tps / 1e9);
      offset += chunk_size;
    }
  return span->n_chunks > 0;
}

static gint64
timespec_ns (const struct timespec *ts)
{
  return (gint64) ts->tv_sec * G_GINT64_CONSTANT (1000000000) + ts->tv_nsec;
}

gint64
jvms_clock_monotonic_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return timespec_ns (&ts);
}

gint64
jvms_clock_monotonic_minus_realtime (gint64 *bracket_ns)
{
  gint64 best_width = G_MAXINT64, best = 0;
  for (int i = 0; i < 16; i++)
    {
      struct timespec a, r, b;
      clock_gettime (CLOCK_MONOTONIC, &a);
      clock_gettime (CLOCK_REALTIME, &r);
      clock_gettime (CLOCK_MONOTONIC, &b);
      gint64 width = timespec_ns (&b) - timespec_ns (&a);
      if (width < best_width)
        {
          best_width = width;
          best = timespec_ns (&a) + width / 2 - timespec_ns (&r);
        }
    }
  if (bracket_ns != NULL)
    *bracket_ns = best_width;
  return best;
}
