/* jfr-writer.c: see jfr-writer.h. */
#include "jfr-writer.h"

#include <stdarg.h>
#include <string.h>

void
jfrw_u8 (JfrW *w, guint8 v)
{
  g_byte_array_append (w->b, &v, 1);
}

void
jfrw_varint (JfrW *w, guint64 v)
{
  for (int i = 0; i < 8; i++)
    {
      if (v < 0x80)
        {
          jfrw_u8 (w, (guint8) v);
          return;
        }
      jfrw_u8 (w, (guint8) ((v & 0x7f) | 0x80));
      v >>= 7;
    }
  jfrw_u8 (w, (guint8) v);
}

void
jfrw_be (JfrW *w, guint64 v, guint n)
{
  for (guint i = 0; i < n; i++)
    jfrw_u8 (w, (guint8) (v >> (8 * (n - 1 - i))));
}

void
jfrw_bytes (JfrW *w, const void *data, gsize len)
{
  g_byte_array_append (w->b, data, (guint) len);
}

void
jfrw_utf8 (JfrW *w, const char *s)
{
  jfrw_u8 (w, 3);
  jfrw_varint (w, strlen (s));
  jfrw_bytes (w, s, strlen (s));
}

gsize
jfrw_record (JfrW *w, guint64 type, const GByteArray *payload)
{
  gsize at = w->b->len;
  JfrW head = { g_byte_array_new () };
  jfrw_varint (&head, type);
  guint64 size = head.b->len + payload->len + 4;
  g_assert (size < (1u << 28));
  jfrw_u8 (w, (guint8) ((size & 0x7f) | 0x80));
  jfrw_u8 (w, (guint8) (((size >> 7) & 0x7f) | 0x80));
  jfrw_u8 (w, (guint8) (((size >> 14) & 0x7f) | 0x80));
  jfrw_u8 (w, (guint8) ((size >> 21) & 0x7f));
  jfrw_bytes (w, head.b->data, head.b->len);
  jfrw_bytes (w, payload->data, payload->len);
  g_byte_array_unref (head.b);
  return at;
}

void
jfrw_md_init (JfrMd *md)
{
  md->strings = g_ptr_array_new_with_free_func (g_free);
  md->index = g_hash_table_new (g_str_hash, g_str_equal);
  md->tree.b = g_byte_array_new ();
  md->string_count = 0;
}

guint
jfrw_md_str (JfrMd *md, const char *s)
{
  gpointer at = g_hash_table_lookup (md->index, s);
  if (at != NULL)
    return GPOINTER_TO_UINT (at) - 1;
  char *copy = g_strdup (s);
  g_ptr_array_add (md->strings, copy);
  g_hash_table_insert (md->index, copy, GUINT_TO_POINTER (md->strings->len));
  return md->strings->len - 1;
}

void
jfrw_md_elem (JfrMd *md, const char *name, guint n_children, guint n_attrs, ...)
{
  va_list ap;
  va_start (ap, n_attrs);
  jfrw_varint (&md->tree, jfrw_md_str (md, name));
  jfrw_varint (&md->tree, n_attrs);
  for (guint i = 0; i < n_attrs; i++)
    {
      const char *k = va_arg (ap, const char *);
      const char *v = va_arg (ap, const char *);
      jfrw_varint (&md->tree, jfrw_md_str (md, k));
      jfrw_varint (&md->tree, jfrw_md_str (md, v));
    }
  va_end (ap);
  jfrw_varint (&md->tree, n_children);
}

void
jfrw_md_class (JfrMd *md, const char *name, guint64 id, guint n_children)
{
  char ids[24];
  g_snprintf (ids, sizeof ids, "%" G_GUINT64_FORMAT, id);
  jfrw_md_elem (md, "class", n_children, 2, "name", name, "id", ids);
}

void
jfrw_md_field (JfrMd *md, const char *name, guint64 class_id, gboolean cp, gboolean array)
{
  char ids[24];
  g_snprintf (ids, sizeof ids, "%" G_GUINT64_FORMAT, class_id);
  if (cp && array)
    jfrw_md_elem (md, "field", 0, 4, "name", name, "class", ids, "constantPool", "true", "dimension", "1");
  else if (cp)
    jfrw_md_elem (md, "field", 0, 3, "name", name, "class", ids, "constantPool", "true");
  else if (array)
    jfrw_md_elem (md, "field", 0, 3, "name", name, "class", ids, "dimension", "1");
  else
    jfrw_md_elem (md, "field", 0, 2, "name", name, "class", ids);
}

GByteArray *
jfrw_md_finish (JfrMd *md, guint64 metadata_id)
{
  JfrW p = { g_byte_array_new () };
  jfrw_varint (&p, 0);            /* startTime */
  jfrw_varint (&p, 0);            /* duration */
  jfrw_varint (&p, metadata_id);
  jfrw_varint (&p, md->string_count ? md->string_count : md->strings->len);
  for (guint i = 0; i < md->strings->len; i++)
    jfrw_utf8 (&p, g_ptr_array_index (md->strings, i));
  jfrw_bytes (&p, md->tree.b->data, md->tree.b->len);
  g_byte_array_unref (md->tree.b);
  g_hash_table_unref (md->index);
  g_ptr_array_unref (md->strings);
  memset (md, 0, sizeof *md);
  return p.b;
}

void
jfrw_chunk_begin (JfrW *w, JfrChunkW *c)
{
  c->start = w->b->len;
  c->cp_offset = c->md_offset = 0;
  if (c->ticks_per_second == 0)
    c->ticks_per_second = 1000000000;
  guint8 zero[68] = { 0 };
  jfrw_bytes (w, zero, sizeof zero);
}

gsize
jfrw_chunk_record (JfrW *w, JfrChunkW *c, guint64 type, const GByteArray *payload)
{
  gsize at = jfrw_record (w, type, payload) - c->start;
  if (type == 0)
    c->md_offset = at;
  else if (type == 1)
    c->cp_offset = at;
  return at;
}

void
jfrw_chunk_end (JfrW *w, JfrChunkW *c)
{
  if (c->cp_offset == 0)
    {
      /* the JDK's reader expects a checkpoint where the header points */
      JfrW cp = { g_byte_array_new () };
      jfrw_checkpoint_begin (&cp, c->start_ticks, 0);
      jfrw_chunk_record (w, c, 1, cp.b);
      g_byte_array_unref (cp.b);
    }
  JfrW h = { g_byte_array_new () };
  jfrw_bytes (&h, "FLR\0", 4);
  jfrw_be (&h, 2, 2);
  jfrw_be (&h, 1, 2);
  jfrw_be (&h, w->b->len - c->start, 8);
  jfrw_be (&h, c->cp_offset, 8);
  jfrw_be (&h, c->md_offset, 8);
  jfrw_be (&h, (guint64) c->start_nanos, 8);
  jfrw_be (&h, 1000000000, 8);                /* duration */
  jfrw_be (&h, (guint64) c->start_ticks, 8);
  jfrw_be (&h, (guint64) c->ticks_per_second, 8);
  jfrw_u8 (&h, c->state);
  jfrw_u8 (&h, 0);
  jfrw_be (&h, 3, 2);                         /* compressed integers, final chunk */
  memcpy (w->b->data + c->start, h.b->data, 68);
  g_byte_array_unref (h.b);
}

void
jfrw_checkpoint_begin (JfrW *w, gint64 start_ticks, guint64 n_pools)
{
  jfrw_varint (w, (guint64) start_ticks);
  jfrw_varint (w, 0);             /* duration */
  jfrw_varint (w, 0);             /* delta: first checkpoint */
  jfrw_u8 (w, 0);                 /* kind */
  jfrw_varint (w, n_pools);
}

void
jfrw_md_basic_classes (JfrMd *md)
{
  static const char *names[] = { "boolean", "byte", "short", "char", "int", "long", "float",
                                 "double", "java.lang.String" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    jfrw_md_class (md, names[i], i + 1, 0);
  /* the JDK's reader wants the annotation's value declared as a field */
  jfrw_md_elem (md, "class", 1, 3, "name", "jdk.jfr.Timestamp", "id", "10",
                "superType", "java.lang.annotation.Annotation");
  jfrw_md_field (md, "value", JFRW_STRING, FALSE, FALSE);
  jfrw_md_elem (md, "class", 1, 3, "name", "jdk.jfr.Timespan", "id", "11",
                "superType", "java.lang.annotation.Annotation");
  jfrw_md_field (md, "value", JFRW_STRING, FALSE, FALSE);
}

void
jfrw_md_start_time (JfrMd *md)
{
  jfrw_md_elem (md, "field", 1, 2, "name", "startTime", "class", "6");
  jfrw_md_elem (md, "annotation", 0, 2, "class", "10", "value", "TICKS");
}

void
jfrw_md_region (JfrMd *md)
{
  jfrw_md_elem (md, "region", 0, 2, "locale", "en_US", "gmtOffset", "0");
}
