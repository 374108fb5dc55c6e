/* jvms-history-strings.c: the string table: each distinct string value stored once per file. */
#include "jvms-history-private.h"

struct _JvmsStringTable
{
  GPtrArray  *by_id; /* char*, owned; each its own allocation so pointers stay put */
  GHashTable *ids;   /* char* (borrowed from by_id) -> id + 1 */
};

JvmsStringTable *
jvms_string_table_new (void)
{
  JvmsStringTable *st = g_new0 (JvmsStringTable, 1);
  st->by_id = g_ptr_array_new_with_free_func (g_free);
  st->ids = g_hash_table_new (g_str_hash, g_str_equal);
  return st;
}

void
jvms_string_table_free (JvmsStringTable *st)
{
  if (st == NULL)
    return;
  g_hash_table_unref (st->ids);
  g_ptr_array_unref (st->by_id);
  g_free (st);
}

guint32
jvms_string_table_intern (JvmsStringTable *st, const char *s)
{
  gpointer v = g_hash_table_lookup (st->ids, s);
  if (v)
    return GPOINTER_TO_UINT (v) - 1;
  char *copy = g_strdup (s);
  guint32 id = st->by_id->len;
  g_ptr_array_add (st->by_id, copy);
  g_hash_table_insert (st->ids, copy, GUINT_TO_POINTER (id + 1));
  return id;
}

guint32
jvms_string_table_lookup (JvmsStringTable *st, const char *s)
{
  gpointer v = s ? g_hash_table_lookup (st->ids, s) : NULL;
  return v ? GPOINTER_TO_UINT (v) - 1 : G_MAXUINT32;
}

const char *
jvms_string_table_get (JvmsStringTable *st, guint32 id)
{
  return id < st->by_id->len ? st->by_id->pdata[id] : NULL;
}

guint32
jvms_string_table_size (JvmsStringTable *st)
{
  return st->by_id->len;
}

GBytes *
jvms_string_table_serialize (JvmsStringTable *st)
{
  GByteArray *b = g_byte_array_new ();
  guint8 tmp[10];
  g_byte_array_append (b, tmp, jvms_varint_put (tmp, st->by_id->len) - tmp);
  for (guint i = 0; i < st->by_id->len; i++)
    {
      const char *s = st->by_id->pdata[i];
      gsize len = strlen (s);
      g_byte_array_append (b, tmp, jvms_varint_put (tmp, len) - tmp);
      g_byte_array_append (b, (const guint8 *) s, len);
    }
  return g_byte_array_free_to_bytes (b);
}

JvmsStringTable *
jvms_string_table_deserialize (const guint8 *data, gsize size, const char *file, guint64 offset,
                               GError **error)
{
  const guint8 *p = data, *end = data + size;
  guint64 n;

  if (!jvms_varint_get (&p, end, &n) || n > size)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: string table at offset %" G_GUINT64_FORMAT ": bad string count",
                   file, offset);
      return NULL;
    }
  JvmsStringTable *st = jvms_string_table_new ();
  for (guint64 i = 0; i < n; i++)
    {
      guint64 len;
      if (!jvms_varint_get (&p, end, &len) || len > (guint64) (end - p) ||
          memchr (p, '\0', len) != NULL)
        {
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                       "%s: string table at offset %" G_GUINT64_FORMAT
                       ": string %" G_GUINT64_FORMAT " is malformed", file, offset, i);
          jvms_string_table_free (st);
          return NULL;
        }
      char *copy = g_strndup ((const char *) p, len);
      /* Duplicates would make interning ambiguous; the writer never produces them. */
      if (g_hash_table_contains (st->ids, copy))
        {
          g_free (copy);
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                       "%s: string table at offset %" G_GUINT64_FORMAT
                       ": string %" G_GUINT64_FORMAT " is a duplicate", file, offset, i);
          jvms_string_table_free (st);
          return NULL;
        }
      g_ptr_array_add (st->by_id, copy);
      g_hash_table_insert (st->ids, copy, GUINT_TO_POINTER ((guint) i + 1));
      p += len;
    }
  if (p != end)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: string table at offset %" G_GUINT64_FORMAT ": trailing bytes", file, offset);
      jvms_string_table_free (st);
      return NULL;
    }
  return st;
}
