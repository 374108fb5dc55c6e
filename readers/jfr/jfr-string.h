/* jfr-string.h: the six encodings of a JFR string, decoded into valid UTF-8. */
#pragma once

#include "jfr-input.h"

enum
{
  JFR_STRING_NULL = 0,
  JFR_STRING_EMPTY = 1,
  JFR_STRING_POOL = 2,     /* varint key into the java.lang.String pool */
  JFR_STRING_UTF8 = 3,     /* HotSpot's modified UTF-8 (CESU-8, NUL as C0 80) */
  JFR_STRING_UTF16 = 4,    /* char count, then each UTF-16 code unit as a varint */
  JFR_STRING_LATIN1 = 5,
};

/* Reads one string. Returns its encoding (JFR_STRING_*), or -1 when the bytes are damaged
 * (unknown encoding, or a length beyond @in's end; @in->bad is then set). For encodings 3-5
 * the text is appended to @out (always valid UTF-8, invalid input becomes U+FFFD); for 2 the
 * key is stored in @pool_key. */
int      jfr_string_read (JfrIn   *in,
                          GString *out,
                          guint64 *pool_key);
/* Skips one string; FALSE when damaged. */
gboolean jfr_string_skip (JfrIn   *in);
