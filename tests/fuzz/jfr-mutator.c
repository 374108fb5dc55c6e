/* jfr-mutator.c: see jfr-mutator.h. Layouts as in ../shared/docs/jfr-format.md: a chunk is a
 * 68-byte header then records (size:varint, type:varint, payload); a metadata record's payload
 * is startTime, duration, metadataId, a string table and an element tree. */
#include "jfr-mutator.h"

#include <string.h>

/* ---- reading ---- */

typedef struct
{
  const guint8 *p, *end;
  gboolean      bad;
} Rd;

static guint64
rd_varint (Rd *r)
{
  guint64 v = 0;
  for (int i = 0; i < 9; i++)
    {
      if (r->p >= r->end)
        {
          r->bad = TRUE;
          return 0;
        }
      guint8 b = *r->p++;
      if (i == 8)
        return v | ((guint64) b << 56);
      v |= (guint64) (b & 0x7f) << (7 * i);
      if (b < 0x80)
        return v;
    }
  return v;
}

static void
put_varint (GByteArray *b, guint64 v)
{
  for (int i = 0; i < 8; i++)
    {
      guint8 c = (guint8) (v & 0x7f);
      v >>= 7;
      if (v == 0)
        {
          g_byte_array_append (b, &c, 1);
          return;
        }
      c |= 0x80;
      g_byte_array_append (b, &c, 1);
    }
  guint8 last = (guint8) v;
  g_byte_array_append (b, &last, 1);
}

static guint64
be64 (const guint8 *p)
{
  guint64 v = 0;
  for (int i = 0; i < 8; i++)
    v = (v << 8) | p[i];
  return v;
}

static void
set_be64 (guint8 *p, guint64 v)
{
  for (int i = 7; i >= 0; i--, v >>= 8)
    p[i] = (guint8) v;
}

/* ---- the file as chunks of records ---- */

#define RAW_TYPE G_MAXUINT64   /* bytes that did not parse as records, kept as they are */

typedef struct
{
  guint64     type;
  GByteArray *payload;
} Record;

typedef struct
{
  guint8  header[68];
  GArray *records;   /* Record */
} Chunk;

static void
record_clear (gpointer p)
{
  Record *r = p;
  g_byte_array_unref (r->payload);
}

static Chunk *
chunk_new (const guint8 *header)
{
  Chunk *c = g_new0 (Chunk, 1);
  memcpy (c->header, header, 68);
  c->records = g_array_new (FALSE, FALSE, sizeof (Record));
  g_array_set_clear_func (c->records, record_clear);
  return c;
}

static void
chunk_free (gpointer p)
{
  Chunk *c = p;
  g_array_unref (c->records);
  g_free (c);
}

static void
add_record (Chunk *c, guint64 type, const guint8 *data, gsize len)
{
  Record r = { type, g_byte_array_new () };
  g_byte_array_append (r.payload, data, (guint) len);
  g_array_append_val (c->records, r);
}

/* NULL when @data does not start with a chunk. */
static GPtrArray *
parse_file (const guint8 *data, gsize size)
{
  if (size < 68 || memcmp (data, "FLR\0", 4) != 0)
    return NULL;
  GPtrArray *chunks = g_ptr_array_new_with_free_func (chunk_free);
  gsize p = 0;
  while (p + 68 <= size && memcmp (data + p, "FLR\0", 4) == 0)
    {
      Chunk *c = chunk_new (data + p);
      g_ptr_array_add (chunks, c);
      guint64 csize = be64 (data + p + 8);
      if (csize < 68 || csize > size - p)
        csize = size - p;
      gsize pos = 68;
      while (pos < csize)
        {
          Rd r = { data + p + pos, data + p + csize, FALSE };
          guint64 rsize = rd_varint (&r);
          guint64 type = rd_varint (&r);
          gsize head = (gsize) (r.p - (data + p + pos));
          if (r.bad || rsize < head || rsize > csize - pos || type == RAW_TYPE)
            {
              add_record (c, RAW_TYPE, data + p + pos, (gsize) (csize - pos));
              break;
            }
          add_record (c, type, r.p, (gsize) (rsize - head));
          pos += (gsize) rsize;
        }
      p += (gsize) csize;
    }
  if (p < size && chunks->len > 0)
    add_record (g_ptr_array_index (chunks, chunks->len - 1), RAW_TYPE, data + p, size - p);
  return chunks;
}

/* Writes the chunks with every record size, chunk size and header offset made consistent. */
static GByteArray *
write_file (GPtrArray *chunks)
{
  GByteArray *out = g_byte_array_new ();
  for (guint i = 0; i < chunks->len; i++)
    {
      Chunk *c = g_ptr_array_index (chunks, i);
      gsize start = out->len;
      g_byte_array_append (out, c->header, 68);
      guint64 cp = 0, md = 0;
      for (guint k = 0; k < c->records->len; k++)
        {
          Record *r = &g_array_index (c->records, Record, k);
          if (r->type == RAW_TYPE)
            {
              g_byte_array_append (out, r->payload->data, r->payload->len);
              continue;
            }
          GByteArray *t = g_byte_array_new ();
          put_varint (t, r->type);
          guint64 size = 4 + t->len + r->payload->len;
          guint64 at = out->len - start;
          if (size < (1u << 28))
            {
              /* padded to 4 bytes, as HotSpot patches sizes */
              guint8 s[4] = { (guint8) ((size & 0x7f) | 0x80), (guint8) (((size >> 7) & 0x7f) | 0x80),
                              (guint8) (((size >> 14) & 0x7f) | 0x80), (guint8) ((size >> 21) & 0x7f) };
              g_byte_array_append (out, s, 4);
            }
          else
            {
              /* nine bytes, the longest (legal) form */
              size = size - 4 + 9;
              guint8 s9[9];
              for (int b = 0; b < 8; b++)
                s9[b] = (guint8) (((size >> (7 * b)) & 0x7f) | 0x80);
              s9[8] = (guint8) (size >> 56);
              g_byte_array_append (out, s9, 9);
            }
          g_byte_array_append (out, t->data, t->len);
          g_byte_array_append (out, r->payload->data, r->payload->len);
          g_byte_array_unref (t);
          if (r->type == 0)
            md = at;
          else if (r->type == 1)
            cp = at;
        }
      set_be64 (out->data + start + 8, out->len - start);
      set_be64 (out->data + start + 16, cp);
      set_be64 (out->data + start + 24, md);
    }
  return out;
}

/* ---- metadata as a tree ---- */

typedef struct _Elem Elem;
struct _Elem
{
  guint64    name;
  GArray    *attrs;      /* guint64 key, value, … */
  GPtrArray *children;   /* Elem * */
};

typedef struct
{
  GByteArray *prefix;    /* startTime, duration, metadataId as they were */
  GPtrArray  *raw;       /* GByteArray *: each string as written */
  GPtrArray  *text;      /* char *: each string's bytes, for lookups ("" when not text) */
  Elem       *root;
} Meta;

static void
elem_free (gpointer p)
{
  Elem *e = p;
  if (e == NULL)
    return;
  g_array_unref (e->attrs);
  g_ptr_array_unref (e->children);
  g_free (e);
}

static Elem *
elem_new (guint64 name)
{
  Elem *e = g_new0 (Elem, 1);
  e->name = name;
  e->attrs = g_array_new (FALSE, FALSE, sizeof (guint64));
  e->children = g_ptr_array_new_with_free_func (elem_free);
  return e;
}

static Elem *
read_elem (Rd *r, guint64 n_strings, guint depth)
{
  if (depth > 16)
    return NULL;
  guint64 name = rd_varint (r);
  guint64 n_attrs = rd_varint (r);
  if (r->bad || name >= n_strings || n_attrs > (guint64) (r->end - r->p))
    return NULL;
  Elem *e = elem_new (name);
  for (guint64 i = 0; i < 2 * n_attrs; i++)
    {
      guint64 s = rd_varint (r);
      if (r->bad || s >= n_strings)
        {
          /* the lookups index the string table with it */
          elem_free (e);
          return NULL;
        }
      g_array_append_val (e->attrs, s);
    }
  guint64 n_children = rd_varint (r);
  if (r->bad || n_children > (guint64) (r->end - r->p))
    {
      elem_free (e);
      return NULL;
    }
  for (guint64 i = 0; i < n_children; i++)
    {
      Elem *c = read_elem (r, n_strings, depth + 1);
      if (c == NULL)
        {
          elem_free (e);
          return NULL;
        }
      g_ptr_array_add (e->children, c);
    }
  return e;
}

static void
write_elem (GByteArray *out, const Elem *e)
{
  put_varint (out, e->name);
  put_varint (out, e->attrs->len / 2);
  for (guint i = 0; i < e->attrs->len; i++)
    put_varint (out, g_array_index (e->attrs, guint64, i));
  put_varint (out, e->children->len);
  for (guint i = 0; i < e->children->len; i++)
    write_elem (out, g_ptr_array_index (e->children, i));
}

static void
meta_free (Meta *m)
{
  g_byte_array_unref (m->prefix);
  g_ptr_array_unref (m->raw);
  g_ptr_array_unref (m->text);
  elem_free (m->root);
  g_free (m);
}

/* One string of the table: its bytes as written, and its text when it is text. */
static gboolean
read_string (Rd *r, GByteArray *raw, GString *text)
{
  const guint8 *start = r->p;
  if (r->p >= r->end)
    return FALSE;
  guint8 enc = *r->p++;
  switch (enc)
    {
    case 0:
    case 1:
      break;
    case 3:
    case 5:
      {
        guint64 n = rd_varint (r);
        if (r->bad || n > (guint64) (r->end - r->p))
          return FALSE;
        g_string_append_len (text, (const char *) r->p, (gssize) n);
        r->p += n;
        break;
      }
    case 4:
      {
        guint64 n = rd_varint (r);
        if (r->bad || n > (guint64) (r->end - r->p))
          return FALSE;
        for (guint64 i = 0; i < n && !r->bad; i++)
          g_string_append_c (text, (char) (rd_varint (r) & 0x7f));
        break;
      }
    default:
      return FALSE;
    }
  if (r->bad)
    return FALSE;
  g_byte_array_append (raw, start, (guint) (r->p - start));
  return TRUE;
}

static Meta *
meta_parse (const GByteArray *payload)
{
  if (payload->len == 0)
    return NULL;   /* its data may be NULL: no arithmetic on it */
  Rd r = { payload->data, payload->data + payload->len, FALSE };
  rd_varint (&r);
  rd_varint (&r);
  rd_varint (&r);
  if (r.bad)
    return NULL;
  Meta *m = g_new0 (Meta, 1);
  m->prefix = g_byte_array_new ();
  g_byte_array_append (m->prefix, payload->data, (guint) (r.p - payload->data));
  m->raw = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  m->text = g_ptr_array_new_with_free_func (g_free);
  guint64 n = rd_varint (&r);
  if (r.bad || n > payload->len)
    goto fail;
  for (guint64 i = 0; i < n; i++)
    {
      GByteArray *raw = g_byte_array_new ();
      GString *text = g_string_new (NULL);
      gboolean ok = read_string (&r, raw, text);
      g_ptr_array_add (m->raw, raw);
      g_ptr_array_add (m->text, g_string_free (text, FALSE));
      if (!ok)
        goto fail;
    }
  m->root = read_elem (&r, n, 0);
  if (m->root == NULL)
    goto fail;
  return m;

fail:
  meta_free (m);
  return NULL;
}

static GByteArray *
meta_write (const Meta *m)
{
  GByteArray *out = g_byte_array_new ();
  g_byte_array_append (out, m->prefix->data, m->prefix->len);
  put_varint (out, m->raw->len);
  for (guint i = 0; i < m->raw->len; i++)
    {
      GByteArray *s = g_ptr_array_index (m->raw, i);
      g_byte_array_append (out, s->data, s->len);
    }
  write_elem (out, m->root);
  return out;
}

/* The index of string @s, added (encoding 3) when the table lacks it. */
static guint64
meta_string (Meta *m, const char *s)
{
  for (guint i = 0; i < m->text->len; i++)
    if (strcmp (g_ptr_array_index (m->text, i), s) == 0)
      return i;
  GByteArray *raw = g_byte_array_new ();
  guint8 enc = 3;
  g_byte_array_append (raw, &enc, 1);
  put_varint (raw, strlen (s));
  g_byte_array_append (raw, (const guint8 *) s, (guint) strlen (s));
  g_ptr_array_add (m->raw, raw);
  g_ptr_array_add (m->text, g_strdup (s));
  return m->text->len - 1;
}

static gboolean
named (const Meta *m, const Elem *e, const char *name)
{
  return strcmp (g_ptr_array_index (m->text, e->name), name) == 0;
}

/* The value index of attribute @key of @e, or G_MAXUINT64. */
static guint64
attr_of (const Meta *m, const Elem *e, const char *key)
{
  for (guint i = 0; i + 1 < e->attrs->len; i += 2)
    if (strcmp (g_ptr_array_index (m->text, g_array_index (e->attrs, guint64, i)), key) == 0)
      return g_array_index (e->attrs, guint64, i + 1);
  return G_MAXUINT64;
}

static void
set_attr (Meta *m, Elem *e, const char *key, guint64 value)
{
  for (guint i = 0; i + 1 < e->attrs->len; i += 2)
    if (strcmp (g_ptr_array_index (m->text, g_array_index (e->attrs, guint64, i)), key) == 0)
      {
        g_array_index (e->attrs, guint64, i + 1) = value;
        return;
      }
  guint64 k = meta_string (m, key);
  g_array_append_val (e->attrs, k);
  g_array_append_val (e->attrs, value);
}

static Elem *
elem_copy (const Elem *e)
{
  Elem *c = elem_new (e->name);
  g_array_append_vals (c->attrs, e->attrs->data, e->attrs->len);
  for (guint i = 0; i < e->children->len; i++)
    g_ptr_array_add (c->children, elem_copy (g_ptr_array_index (e->children, i)));
  return c;
}

/* The metadata element and its classes; FALSE when the tree has none. */
static gboolean
classes_of (const Meta *m, Elem **meta, GPtrArray *classes)
{
  *meta = NULL;
  for (guint i = 0; i < m->root->children->len && *meta == NULL; i++)
    if (named (m, g_ptr_array_index (m->root->children, i), "metadata"))
      *meta = g_ptr_array_index (m->root->children, i);
  if (*meta == NULL)
    return FALSE;
  for (guint i = 0; i < (*meta)->children->len; i++)
    {
      Elem *c = g_ptr_array_index ((*meta)->children, i);
      if (named (m, c, "class") && attr_of (m, c, "id") != G_MAXUINT64)
        g_ptr_array_add (classes, c);
    }
  return classes->len > 0;
}

/* A field of a class, chosen at random; NULL when no class has one. */
static Elem *
pick_field (const Meta *m, GPtrArray *classes, GRand *rand, Elem **owner)
{
  for (int tries = 0; tries < 16; tries++)
    {
      Elem *c = g_ptr_array_index (classes, g_rand_int_range (rand, 0, (gint32) classes->len));
      GPtrArray *fields = g_ptr_array_new ();
      for (guint i = 0; i < c->children->len; i++)
        if (named (m, g_ptr_array_index (c->children, i), "field"))
          g_ptr_array_add (fields, g_ptr_array_index (c->children, i));
      Elem *f = fields->len ? g_ptr_array_index (fields, g_rand_int_range (rand, 0, (gint32) fields->len)) : NULL;
      g_ptr_array_unref (fields);
      if (f != NULL)
        {
          *owner = c;
          return f;
        }
    }
  return NULL;
}

/* One structural edit of the metadata; FALSE when it found nothing to edit. */
static gboolean
edit_metadata (Meta *m, GRand *rand)
{
  Elem *meta;
  g_autoptr(GPtrArray) classes = g_ptr_array_new ();
  if (!classes_of (m, &meta, classes))
    return FALSE;
  Elem *owner = NULL;
  switch (g_rand_int_range (rand, 0, 7))
    {
    case 0:   /* fan-out: a field repeated */
      {
        Elem *f = pick_field (m, classes, rand, &owner);
        if (f == NULL)
          return FALSE;
        guint n = (guint) g_rand_int_range (rand, 1, 8);
        for (guint i = 0; i < n; i++)
          g_ptr_array_add (owner->children, elem_copy (f));
        return TRUE;
      }
    case 1:   /* a field pointed at another class: DAGs, cycles, empty classes inline */
      {
        Elem *f = pick_field (m, classes, rand, &owner);
        if (f == NULL)
          return FALSE;
        Elem *to = g_ptr_array_index (classes, g_rand_int_range (rand, 0, (gint32) classes->len));
        set_attr (m, f, "class", attr_of (m, g_rand_boolean (rand) ? owner : to, "id"));
        return TRUE;
      }
    case 2:   /* a field made a constant-pool reference, or an array */
      {
        Elem *f = pick_field (m, classes, rand, &owner);
        if (f == NULL)
          return FALSE;
        if (g_rand_boolean (rand))
          set_attr (m, f, "constantPool", meta_string (m, g_rand_boolean (rand) ? "true" : "false"));
        else
          set_attr (m, f, "dimension", meta_string (m, g_rand_boolean (rand) ? "1" : "0"));
        return TRUE;
      }
    case 3:   /* classes declared in the reverse order */
      {
        GPtrArray *c = meta->children;
        for (guint i = 0, j = c->len ? c->len - 1 : 0; i < j; i++, j--)
          {
            gpointer t = c->pdata[i];
            c->pdata[i] = c->pdata[j];
            c->pdata[j] = t;
          }
        return TRUE;
      }
    case 4:   /* a chain of new classes, each holding a few fields of the one before */
      {
        guint levels = (guint) g_rand_int_range (rand, 2, 40);
        guint fan = (guint) g_rand_int_range (rand, 1, 4);
        guint64 base = 90000 + (guint64) g_rand_int_range (rand, 0, 1000) * 100;
        guint64 below = attr_of (m, g_ptr_array_index (classes, g_rand_int_range (rand, 0, (gint32) classes->len)), "id");
        for (guint k = 0; k < levels; k++)
          {
            char id[32], name[48];
            g_snprintf (id, sizeof id, "%" G_GUINT64_FORMAT, base + k);
            g_snprintf (name, sizeof name, "fuzz.C%" G_GUINT64_FORMAT, base + k);
            Elem *c = elem_new (meta_string (m, "class"));
            set_attr (m, c, "name", meta_string (m, name));
            set_attr (m, c, "id", meta_string (m, id));
            for (guint f = 0; f < fan && (k > 0 || g_rand_boolean (rand)); f++)
              {
                Elem *fe = elem_new (meta_string (m, "field"));
                char fname[16];
                g_snprintf (fname, sizeof fname, "f%u", f);
                set_attr (m, fe, "name", meta_string (m, fname));
                set_attr (m, fe, "class", below);
                g_ptr_array_add (c->children, fe);
              }
            below = meta_string (m, id);
            g_ptr_array_insert (meta->children, g_rand_boolean (rand) ? 0 : -1, c);
          }
        /* and a field of some class holding the last one */
        Elem *f = pick_field (m, classes, rand, &owner);
        if (f != NULL)
          set_attr (m, f, "class", below);
        return TRUE;
      }
    case 5:   /* tiny elements the format gives no meaning */
      {
        guint n = (guint) g_rand_int_range (rand, 1, 2000);
        guint64 name = meta_string (m, "x");
        for (guint i = 0; i < n; i++)
          g_ptr_array_add (m->root->children, elem_new (name));
        return TRUE;
      }
    default:  /* a class dropped or duplicated */
      {
        guint i = (guint) g_rand_int_range (rand, 0, (gint32) meta->children->len);
        if (g_rand_boolean (rand))
          g_ptr_array_remove_index (meta->children, i);
        else
          g_ptr_array_add (meta->children, elem_copy (g_ptr_array_index (meta->children, i)));
        return TRUE;
      }
    }
}

/* ---- the mutator ---- */

gsize
jfr_mutate (guint8 *data, gsize size, gsize max_size, guint seed, JfrMutateBytes mutate_bytes)
{
  GPtrArray *chunks = parse_file (data, size);
  if (chunks == NULL || chunks->len == 0)
    {
      if (chunks != NULL)
        g_ptr_array_unref (chunks);
      return mutate_bytes (data, size, max_size);
    }
  GRand *rand = g_rand_new_with_seed (seed);
  gboolean done = FALSE;
  for (int tries = 0; tries < 4 && !done; tries++)
    {
      Chunk *c = g_ptr_array_index (chunks, g_rand_int_range (rand, 0, (gint32) chunks->len));
      guint n = c->records->len;
      Record *r = n ? &g_array_index (c->records, Record, g_rand_int_range (rand, 0, (gint32) n)) : NULL;
      switch (g_rand_int_range (rand, 0, 10))
        {
        case 0: case 1: case 2: case 3:  /* the metadata's structure */
          for (guint k = 0; k < n && !done; k++)
            {
              Record *md = &g_array_index (c->records, Record, k);
              if (md->type != 0)
                continue;
              Meta *m = meta_parse (md->payload);
              if (m == NULL)
                continue;
              if (edit_metadata (m, rand))
                {
                  g_byte_array_unref (md->payload);
                  md->payload = meta_write (m);
                  done = TRUE;
                }
              meta_free (m);
            }
          break;
        case 4: case 5:   /* a record's bytes, its framing kept */
          if (r != NULL && r->type != RAW_TYPE)
            {
              gsize cap = r->payload->len + 64;
              g_byte_array_set_size (r->payload, (guint) cap);
              gsize len = mutate_bytes (r->payload->data, cap - 64, cap);
              g_byte_array_set_size (r->payload, (guint) len);
              done = TRUE;
            }
          break;
        case 6:   /* a record repeated (a checkpoint twice, an event many times) */
          if (r != NULL)
            {
              /* copied first: inserting moves the records */
              guint64 type = r->type;
              g_autoptr(GByteArray) bytes = g_byte_array_new ();
              g_byte_array_append (bytes, r->payload->data, r->payload->len);
              guint times = g_rand_boolean (rand) ? 1 : (guint) g_rand_int_range (rand, 2, 64);
              for (guint t = 0; t < times; t++)
                {
                  Record more = { type, g_byte_array_new () };
                  g_byte_array_append (more.payload, bytes->data, bytes->len);
                  g_array_insert_val (c->records, (guint) g_rand_int_range (rand, 0, (gint32) c->records->len + 1), more);
                }
              done = TRUE;
            }
          break;
        case 7:   /* a record dropped */
          if (n > 0)
            {
              g_array_remove_index (c->records, (guint) g_rand_int_range (rand, 0, (gint32) n));
              done = TRUE;
            }
          break;
        case 8:   /* a chunk repeated, as is or with another start time (many chunks) */
          {
            guint times = (guint) g_rand_int_range (rand, 1, 16);
            for (guint t = 0; t < times; t++)
              {
                Chunk *d = chunk_new (c->header);
                for (guint k = 0; k < n; k++)
                  {
                    Record *s = &g_array_index (c->records, Record, k);
                    add_record (d, s->type, s->payload->data, s->payload->len);
                  }
                if (g_rand_boolean (rand))
                  set_be64 (d->header + 32, be64 (d->header + 32) + t + 1);
                g_ptr_array_add (chunks, d);
              }
            done = TRUE;
          }
          break;
        default:  /* the header's state or flags */
          c->header[64] = (guint8) g_rand_int_range (rand, 0, 256);
          if (g_rand_boolean (rand))
            c->header[67] ^= (guint8) (1u << g_rand_int_range (rand, 0, 2));
          done = TRUE;
          break;
        }
    }
  g_rand_free (rand);
  gsize out_size = size;
  if (done)
    {
      GByteArray *out = write_file (chunks);
      if (out->len <= max_size)
        {
          memcpy (data, out->data, out->len);
          out_size = out->len;
        }
      else
        done = FALSE;
      g_byte_array_unref (out);
    }
  g_ptr_array_unref (chunks);
  return done ? out_size : mutate_bytes (data, size, max_size);
}
