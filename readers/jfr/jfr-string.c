/* jfr-string.c: JFR strings to UTF-8. */
#include "jfr-string.h"

static void
append_replacement (GString *out)
{
  g_string_append_len (out, "\xEF\xBF\xBD", 3);
}

/* Modified UTF-8 (Java's DataOutput / HotSpot Symbols): NUL is C0 80 and supplementary
 * characters are surrogate pairs of 3-byte sequences. Only taken when the bytes are not
 * already valid UTF-8, which is rare. */
static void
append_modified_utf8 (GString *out, const guint8 *p, gsize n)
{
  gsize i = 0;
  while (i < n)
    {
      guint8 c = p[i];
      if (c == 0)
        {
          append_replacement (out);
          i++;
          continue;
        }
      if (c < 0x80)
        {
          g_string_append_c (out, (char) c);
          i++;
          continue;
        }
      gunichar u;
      gsize len;
      if ((c & 0xE0) == 0xC0 && i + 1 < n && (p[i + 1] & 0xC0) == 0x80)
        {
          u = ((gunichar) (c & 0x1F) << 6) | (p[i + 1] & 0x3F);
          len = 2;
        }
      else if ((c & 0xF0) == 0xE0 && i + 2 < n && (p[i + 1] & 0xC0) == 0x80
               && (p[i + 2] & 0xC0) == 0x80)
        {
          u = ((gunichar) (c & 0x0F) << 12) | ((gunichar) (p[i + 1] & 0x3F) << 6)
              | (p[i + 2] & 0x3F);
          len = 3;
        }
      else if ((c & 0xF8) == 0xF0 && i + 3 < n && (p[i + 1] & 0xC0) == 0x80
               && (p[i + 2] & 0xC0) == 0x80 && (p[i + 3] & 0xC0) == 0x80)
        {
          u = ((gunichar) (c & 0x07) << 18) | ((gunichar) (p[i + 1] & 0x3F) << 12)
              | ((gunichar) (p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F);
          len = 4;
        }
      else
        {
          append_replacement (out);
          i++;
          continue;
        }
      if (u >= 0xD800 && u < 0xDC00 && len == 3 && i + 5 < n && p[i + 3] == 0xED
          && (p[i + 4] & 0xF0) == 0xB0 && (p[i + 5] & 0xC0) == 0x80)
        {
          gunichar lo = 0xD000 | ((gunichar) (p[i + 4] & 0x3F) << 6) | (p[i + 5] & 0x3F);
          u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
          len = 6;
        }
      /* U+0000 (C0 80) cannot be part of a C string */
      if (u == 0 || (u >= 0xD800 && u < 0xE000) || u > 0x10FFFF)
        append_replacement (out);
      else
        g_string_append_unichar (out, u);
      i += len;
    }
}

int
jfr_string_read (JfrIn *in, GString *out, guint64 *pool_key)
{
  guint8 encoding = jfr_in_u8 (in);
  if (in->bad)
    return -1;
  switch (encoding)
    {
    case JFR_STRING_NULL:
    case JFR_STRING_EMPTY:
      return encoding;
    case JFR_STRING_POOL:
      *pool_key = jfr_in_long (in);
      return in->bad ? -1 : encoding;
    case JFR_STRING_UTF8:
    case JFR_STRING_LATIN1:
      {
        guint64 n = jfr_in_int (in, 4);
        if (in->bad || n > jfr_in_left (in))
          {
            jfr_in_fail (in);
            return -1;
          }
        const guint8 *p = in->p;
        in->p += n;
        if (encoding == JFR_STRING_LATIN1)
          {
            for (guint64 i = 0; i < n; i++)
              {
                if (p[i] == 0)
                  append_replacement (out);
                else if (p[i] < 0x80)
                  g_string_append_c (out, (char) p[i]);
                else
                  g_string_append_unichar (out, p[i]);
              }
          }
        else if (g_utf8_validate ((const char *) p, (gssize) n, NULL))
          g_string_append_len (out, (const char *) p, (gssize) n);
        else
          append_modified_utf8 (out, p, n);
        return encoding;
      }
    case JFR_STRING_UTF16:
      {
        guint64 n = jfr_in_int (in, 4);
        /* every char takes at least one byte */
        if (in->bad || n > jfr_in_left (in))
          {
            jfr_in_fail (in);
            return -1;
          }
        for (guint64 i = 0; i < n; i++)
          {
            gunichar c = (guint16) jfr_in_int (in, 2);
            if (in->bad)
              return -1;
            if (c >= 0xD800 && c < 0xDC00)
              {
                /* a high surrogate: pair it with the next unit when that is a low one */
                if (i + 1 < n)
                  {
                    JfrIn save = *in;
                    gunichar lo = (guint16) jfr_in_int (in, 2);
                    if (!in->bad && lo >= 0xDC00 && lo < 0xE000)
                      {
                        g_string_append_unichar (out, 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00));
                        i++;
                        continue;
                      }
                    *in = save;
                  }
                append_replacement (out);
              }
            else if ((c >= 0xDC00 && c < 0xE000) || c == 0)
              append_replacement (out);
            else if (c < 0x80)
              g_string_append_c (out, (char) c);
            else
              g_string_append_unichar (out, c);
          }
        return encoding;
      }
    default:
      jfr_in_fail (in);
      return -1;
    }
}

gboolean
jfr_string_skip (JfrIn *in)
{
  guint8 encoding = jfr_in_u8 (in);
  if (in->bad)
    return FALSE;
  switch (encoding)
    {
    case JFR_STRING_NULL:
    case JFR_STRING_EMPTY:
      return TRUE;
    case JFR_STRING_POOL:
      jfr_in_long (in);
      return !in->bad;
    case JFR_STRING_UTF8:
    case JFR_STRING_LATIN1:
      {
        guint64 n = jfr_in_int (in, 4);
        return !in->bad && jfr_in_skip (in, n);
      }
    case JFR_STRING_UTF16:
      {
        guint64 n = jfr_in_int (in, 4);
        if (in->bad || n > jfr_in_left (in))
          {
            jfr_in_fail (in);
            return FALSE;
          }
        if (in->compressed)
          {
            for (guint64 i = 0; i < n && !in->bad; i++)
              jfr_in_varint (in);
            return !in->bad;
          }
        return jfr_in_skip (in, n * 2);
      }
    default:
      jfr_in_fail (in);
      return FALSE;
    }
}
