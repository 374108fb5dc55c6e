/* jvms-history-varint.h: LEB128 varints and zigzag, with bounds-checked decoding.
 * Decoders take a cursor and an end pointer and return FALSE on a varint that runs past the
 * end or over 10 bytes: the caller turns that into a CORRUPT error naming the structure. */
#pragma once

#include <glib.h>
#include <string.h>

static inline guint
jvms_varint_len (guint64 v)
{
  guint n = 1;
  while (v >= 0x80)
    {
      v >>= 7;
      n++;
    }
  return n;
}

static inline guint8 *
jvms_varint_put (guint8 *p, guint64 v)
{
  while (v >= 0x80)
    {
      *p++ = (guint8) (v | 0x80);
      v >>= 7;
    }
  *p++ = (guint8) v;
  return p;
}

static inline gboolean
jvms_varint_get (const guint8 **pp, const guint8 *end, guint64 *out)
{
  const guint8 *p = *pp;
  guint64 v = 0;
  guint shift = 0;

  /* The fast path: one byte, the common case for tags and small deltas. */
  if (G_LIKELY (p < end && *p < 0x80))
    {
      *out = *p;
      *pp = p + 1;
      return TRUE;
    }
  /* One bound for the loop: the end, or the 10 bytes a varint may take when the end is further
   * (then no bounds check per byte: change lists' time deltas take 2 or 3). */
  const guint8 *stop = end - p > 10 ? p + 10 : end;
  while (p < stop)
    {
      guint8 b = *p++;
      v |= (guint64) (b & 0x7F) << shift;
      if (b < 0x80)
        {
          /* The 10th byte may only carry the top bit. */
          if (shift == 63 && b > 1)
            return FALSE;
          *out = v;
          *pp = p;
          return TRUE;
        }
      shift += 7;
    }
  return FALSE;
}

/* jvms_varint_get where the caller knows 10 bytes remain: unrolled for up to 4 bytes (no bound
 * to check at each byte), longer ones through jvms_varint_get. Same results. */
G_ALWAYS_INLINE static inline gboolean
jvms_varint_get_roomy (const guint8 **pp, const guint8 *end, guint64 *out)
{
  const guint8 *p = *pp;
  guint64 b = p[0];
  if (b < 0x80)
    {
      *out = b;
      *pp = p + 1;
      return TRUE;
    }
  guint64 v = b & 0x7F;
  b = p[1];
  v |= (b & 0x7F) << 7;
  if (b < 0x80)
    {
      *out = v;
      *pp = p + 2;
      return TRUE;
    }
  b = p[2];
  v |= (b & 0x7F) << 14;
  if (b < 0x80)
    {
      *out = v;
      *pp = p + 3;
      return TRUE;
    }
  b = p[3];
  v |= (b & 0x7F) << 21;
  if (b < 0x80)
    {
      *out = v;
      *pp = p + 4;
      return TRUE;
    }
  return jvms_varint_get (pp, end, out);
}

/* jvms_varint_get, unrolled for up to 4 bytes where 10 bytes remain (no bound to check at each
 * byte): the group decoder's times, durations and values take 1 to 3 bytes each, and its loop
 * of a shift and two compares a byte was most of decoding an interval. Same results. */
G_ALWAYS_INLINE static inline gboolean
jvms_varint_get_fast (const guint8 **pp, const guint8 *end, guint64 *out)
{
  if (G_LIKELY (end - *pp >= 10))
    return jvms_varint_get_roomy (pp, end, out);
  return jvms_varint_get (pp, end, out);
}

static inline guint64
jvms_zigzag (gint64 v)
{
  return ((guint64) v << 1) ^ (guint64) (v >> 63);
}

static inline gint64
jvms_unzigzag (guint64 v)
{
  return (gint64) (v >> 1) ^ -(gint64) (v & 1);
}

static inline void
jvms_put_u32le (guint8 *p, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

static inline guint32
jvms_get_u32le (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static inline void
jvms_put_u64le (guint8 *p, guint64 v)
{
  v = GUINT64_TO_LE (v);
  memcpy (p, &v, 8);
}

static inline guint64
jvms_get_u64le (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}
