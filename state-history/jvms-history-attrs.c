/* jvms-history-attrs.c: the attribute tree: paths to dense ids and back. */
#include "jvms-history-private.h"

typedef struct
{
  guint32 parent;
  char   *name;
  GArray *children; /* JvmsAttribute; NULL until the first child */
} AttrEntry;

struct _JvmsAttrTree
{
  GArray     *entries;       /* AttrEntry by id */
  GArray     *root_children; /* JvmsAttribute */
  GHashTable *by_key;        /* AttrKey* -> id + 1 */
};

/* The hash key: (parent, name); owned keys point at the entry's name. */
typedef struct
{
  guint32     parent;
  gsize       len;
  const char *name;
} AttrKey;

static guint
attr_key_hash (gconstpointer p)
{
  const AttrKey *k = p;
  guint h = 5381u + k->parent * 2654435761u;
  for (gsize i = 0; i < k->len; i++)
    h = h * 33u + (guchar) k->name[i];
  return h;
}

static gboolean
attr_key_equal (gconstpointer a, gconstpointer b)
{
  const AttrKey *x = a, *y = b;
  return x->parent == y->parent && x->len == y->len && memcmp (x->name, y->name, x->len) == 0;
}

JvmsAttrTree *
jvms_attr_tree_new (void)
{
  JvmsAttrTree *t = g_new0 (JvmsAttrTree, 1);
  t->entries = g_array_new (FALSE, FALSE, sizeof (AttrEntry));
  t->root_children = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  t->by_key = g_hash_table_new_full (attr_key_hash, attr_key_equal, g_free, NULL);
  return t;
}

void
jvms_attr_tree_free (JvmsAttrTree *t)
{
  if (t == NULL)
    return;
  for (guint i = 0; i < t->entries->len; i++)
    {
      AttrEntry *e = &g_array_index (t->entries, AttrEntry, i);
      g_free (e->name);
      if (e->children)
        g_array_unref (e->children);
    }
  g_array_unref (t->entries);
  g_array_unref (t->root_children);
  g_hash_table_unref (t->by_key);
  g_free (t);
}

guint
jvms_attr_tree_size (JvmsAttrTree *t)
{
  return t->entries->len;
}

JvmsAttribute
jvms_attr_tree_lookup (JvmsAttrTree *t, JvmsAttribute parent, const char *name, gsize len)
{
  AttrKey k = { parent, len, name };
  gpointer v = g_hash_table_lookup (t->by_key, &k);
  return v ? (JvmsAttribute) (GPOINTER_TO_UINT (v) - 1) : JVMS_ATTRIBUTE_INVALID;
}

JvmsAttribute
jvms_attr_tree_ensure (JvmsAttrTree *t, JvmsAttribute parent, const char *name, gsize len,
                       gboolean *created)
{
  JvmsAttribute a = jvms_attr_tree_lookup (t, parent, name, len);
  *created = FALSE;
  if (a != JVMS_ATTRIBUTE_INVALID)
    return a;
  if (parent != JVMS_ATTRIBUTE_ROOT && parent >= t->entries->len)
    return JVMS_ATTRIBUTE_INVALID;
  if (t->entries->len >= G_MAXINT32)
    return JVMS_ATTRIBUTE_INVALID;

  AttrEntry e = { parent, g_strndup (name, len), NULL };
  a = t->entries->len;
  g_array_append_val (t->entries, e);
  AttrKey *k = g_new (AttrKey, 1);
  k->parent = parent;
  k->len = len;
  k->name = g_array_index (t->entries, AttrEntry, a).name;
  g_hash_table_insert (t->by_key, k, GUINT_TO_POINTER (a + 1));
  if (parent == JVMS_ATTRIBUTE_ROOT)
    g_array_append_val (t->root_children, a);
  else
    {
      AttrEntry *pe = &g_array_index (t->entries, AttrEntry, parent);
      if (pe->children == NULL)
        pe->children = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
      g_array_append_val (pe->children, a);
    }
  *created = TRUE;
  return a;
}

JvmsAttribute
jvms_attr_tree_lookup_path (JvmsAttrTree *t, const char *path)
{
  JvmsAttribute cur = JVMS_ATTRIBUTE_ROOT;
  const char *p = path;

  if (path == NULL || *path == '\0')
    return JVMS_ATTRIBUTE_INVALID;
  for (;;)
    {
      const char *slash = strchr (p, '/');
      gsize len = slash ? (gsize) (slash - p) : strlen (p);
      if (len == 0)
        return JVMS_ATTRIBUTE_INVALID;
      cur = jvms_attr_tree_lookup (t, cur, p, len);
      if (cur == JVMS_ATTRIBUTE_INVALID || slash == NULL)
        return cur;
      p = slash + 1;
    }
}

JvmsAttribute
jvms_attr_tree_parent (JvmsAttrTree *t, JvmsAttribute a)
{
  if (a >= t->entries->len)
    return JVMS_ATTRIBUTE_INVALID;
  return g_array_index (t->entries, AttrEntry, a).parent;
}

const char *
jvms_attr_tree_name (JvmsAttrTree *t, JvmsAttribute a)
{
  if (a >= t->entries->len)
    return NULL;
  return g_array_index (t->entries, AttrEntry, a).name;
}

char *
jvms_attr_tree_path_of (JvmsAttrTree *t, JvmsAttribute a)
{
  if (a >= t->entries->len)
    return NULL;
  g_autoptr (GPtrArray) parts = g_ptr_array_new ();
  for (JvmsAttribute cur = a; cur != JVMS_ATTRIBUTE_ROOT; cur = jvms_attr_tree_parent (t, cur))
    g_ptr_array_add (parts, (gpointer) jvms_attr_tree_name (t, cur));
  GString *s = g_string_new (NULL);
  for (guint i = parts->len; i > 0; i--)
    {
      if (i != parts->len)
        g_string_append_c (s, '/');
      g_string_append (s, parts->pdata[i - 1]);
    }
  return g_string_free (s, FALSE);
}

GArray *
jvms_attr_tree_children (JvmsAttrTree *t, JvmsAttribute parent)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  GArray *src = NULL;
  if (parent == JVMS_ATTRIBUTE_ROOT)
    src = t->root_children;
  else if (parent < t->entries->len)
    src = g_array_index (t->entries, AttrEntry, parent).children;
  if (src)
    g_array_append_vals (out, src->data, src->len);
  return out;
}

GBytes *
jvms_attr_tree_serialize (JvmsAttrTree *t)
{
  GByteArray *b = g_byte_array_new ();
  guint8 tmp[20];
  g_byte_array_append (b, tmp, jvms_varint_put (tmp, t->entries->len) - tmp);
  for (guint i = 0; i < t->entries->len; i++)
    {
      AttrEntry *e = &g_array_index (t->entries, AttrEntry, i);
      gsize len = strlen (e->name);
      guint64 p = e->parent == JVMS_ATTRIBUTE_ROOT ? 0 : (guint64) e->parent + 1;
      guint8 *q = jvms_varint_put (tmp, p);
      q = jvms_varint_put (q, len);
      g_byte_array_append (b, tmp, q - tmp);
      g_byte_array_append (b, (const guint8 *) e->name, len);
    }
  return g_byte_array_free_to_bytes (b);
}

JvmsAttrTree *
jvms_attr_tree_deserialize (const guint8 *data, gsize size, const char *file, guint64 offset,
                            GError **error)
{
  const guint8 *p = data, *end = data + size;
  guint64 n;
  g_autoptr (GString) why = NULL;

  if (!jvms_varint_get (&p, end, &n) || n > size)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: attribute table at offset %" G_GUINT64_FORMAT ": bad attribute count",
                   file, offset);
      return NULL;
    }
  JvmsAttrTree *t = jvms_attr_tree_new ();
  for (guint64 i = 0; i < n; i++)
    {
      guint64 parent, len;
      gboolean created;
      if (!jvms_varint_get (&p, end, &parent) || !jvms_varint_get (&p, end, &len) ||
          len > (guint64) (end - p) || len == 0 || parent > i ||
          memchr (p, '/', len) != NULL || memchr (p, '\0', len) != NULL)
        {
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                       "%s: attribute table at offset %" G_GUINT64_FORMAT
                       ": attribute %" G_GUINT64_FORMAT " is malformed (at table byte %" G_GSIZE_FORMAT ")",
                       file, offset, i, (gsize) (p - data));
          jvms_attr_tree_free (t);
          return NULL;
        }
      JvmsAttribute a = jvms_attr_tree_ensure (t, parent == 0 ? JVMS_ATTRIBUTE_ROOT : (JvmsAttribute) (parent - 1),
                                               (const char *) p, len, &created);
      if (!created || a != i)
        {
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                       "%s: attribute table at offset %" G_GUINT64_FORMAT
                       ": attribute %" G_GUINT64_FORMAT " duplicates a sibling's name",
                       file, offset, i);
          jvms_attr_tree_free (t);
          return NULL;
        }
      p += len;
    }
  if (p != end)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: attribute table at offset %" G_GUINT64_FORMAT ": %" G_GSIZE_FORMAT " trailing bytes",
                   file, offset, (gsize) (end - p));
      jvms_attr_tree_free (t);
      return NULL;
    }
  return t;
}
