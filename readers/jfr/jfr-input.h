/* jfr-input.h: bounded decoding of the JFR primitives (varints, fixed big-endian numbers).
 *
 * A JfrIn never reads past @end: a read that would sets @bad, returns 0 and leaves @p at @end,
 * so callers check @bad once after a group of reads instead of after every byte.
 */
#pragma once

#include <glib.h>
#include <string.h>

typedef struct
{
  const guint8 *p;
  const guint8 *end;
  gboolean      compressed; /* chunk flag bit 0: short/char/int/long are varints */
  gboolean      bad;
} JfrIn;

static inline void
jfr_in_init (JfrIn *in, const guint8 *p, const guint8 *end, gboolean compressed)
{
  in->p = p;
  in->end = end;
  in->compressed = compressed;
  in->bad = FALSE;
}

static inline guint64
jfr_in_fail (JfrIn *in)
{
  in->bad = TRUE;
  in->p = in->end;
  return 0;
}

/* Unsigned LEB128 of at most 9 bytes, the ninth contributing all 8 bits. Non-minimal
 * encodings (padded sizes) are legal. */
static inline guint64
jfr_in_varint (JfrIn *in)
{
  const guint8 *p = in->p;
  if (G_LIKELY (in->end - p >= 9))
    {
      guint64 b = p[0];
      if (G_LIKELY (b < 0x80)) { in->p = p + 1; return b; }
      guint64 v = b & 0x7f;
      for (int i = 1; i < 8; i++)
        {
          b = p[i];
          v |= (b & 0x7f) << (7 * i);
          if (b < 0x80) { in->p = p + i + 1; return v; }
        }
      v |= (guint64) p[8] << 56;
      in->p = p + 9;
      return v;
    }
  guint64 v = 0;
  for (int i = 0; i < 8; i++)
    {
      if (p >= in->end)
        return jfr_in_fail (in);
      guint64 b = *p++;
      v |= (b & 0x7f) << (7 * i);
      if (b < 0x80) { in->p = p; return v; }
    }
  if (p >= in->end)
    return jfr_in_fail (in);
  v |= (guint64) *p++ << 56;
  in->p = p;
  return v;
}

/* Steps over a varint without assembling its value: the offset pass of every event does this
 * for most fields. */
static inline void
jfr_in_skip_varint (JfrIn *in)
{
  const guint8 *p = in->p;
  if (G_LIKELY (in->end - p >= 9))
    {
      for (int i = 0; i < 8; i++)
        if (p[i] < 0x80)
          {
            in->p = p + i + 1;
            return;
          }
      in->p = p + 9;
      return;
    }
  jfr_in_varint (in);
}

static inline guint64
jfr_in_be (JfrIn *in, guint n)
{
  if ((gsize) (in->end - in->p) < n)
    return jfr_in_fail (in);
  guint64 v = 0;
  for (guint i = 0; i < n; i++)
    v = (v << 8) | in->p[i];
  in->p += n;
  return v;
}

static inline guint8
jfr_in_u8 (JfrIn *in)
{
  if (G_UNLIKELY (in->p >= in->end))
    return (guint8) jfr_in_fail (in);
  return *in->p++;
}

/* A short/char/int/long of @width bytes: a varint in compressed chunks, big-endian fixed
 * width otherwise. Returned zero-extended from the wire; callers truncate to the width. */
static inline guint64
jfr_in_int (JfrIn *in, guint width)
{
  if (G_LIKELY (in->compressed))
    return jfr_in_varint (in);
  return jfr_in_be (in, width);
}

/* Record sizes, type ids, counts and keys: longs (or ints) on the wire. */
static inline guint64
jfr_in_long (JfrIn *in)
{
  return jfr_in_int (in, 8);
}

static inline gboolean
jfr_in_skip (JfrIn *in, guint64 n)
{
  if ((guint64) (in->end - in->p) < n)
    {
      jfr_in_fail (in);
      return FALSE;
    }
  in->p += n;
  return TRUE;
}

static inline guint64
jfr_in_left (const JfrIn *in)
{
  return (guint64) (in->end - in->p);
}

static inline guint64
jfr_read_be64 (const guint8 *p)
{
  guint64 v = 0;
  for (int i = 0; i < 8; i++)
    v = (v << 8) | p[i];
  return v;
}
