/* jvms-history.c: opening a history file, the header and tables, accessors. */
#include "jvms-history-private.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK (jvms-history-error-quark, jvms_history_error)

gboolean
jvms_value_equal (const JvmsValue *a, const JvmsValue *b)
{
  if (a->type != b->type)
    return FALSE;
  switch (a->type)
    {
    case JVMS_VALUE_NULL:
      return TRUE;
    case JVMS_VALUE_INT:
      return a->i == b->i;
    case JVMS_VALUE_DOUBLE:
      /* Bit identity, as the builder compares: NaN equals itself, 0.0 differs from -0.0. */
      return memcmp (&a->d, &b->d, sizeof (double)) == 0;
    case JVMS_VALUE_STRING:
      return g_strcmp0 (a->s, b->s) == 0;
    default:
      return FALSE;
    }
}

JvmsHistory *
jvms_history_new_empty (const char *path, int fd, gsize cache_budget)
{
  JvmsHistory *h = g_new0 (JvmsHistory, 1);
  h->ref_count = 1;
  h->path = g_strdup (path);
  h->fd = fd;
  h->cache = jvms_node_cache_new (cache_budget);
  g_mutex_init (&h->lock);
  g_mutex_init (&h->overlay_lock);
  g_mutex_init (&h->checked_lock);
  h->checked = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  h->overlay = g_hash_table_new (g_str_hash, g_str_equal);
  h->attrs = jvms_attr_tree_new ();
  h->strings = jvms_string_table_new ();
  h->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return h;
}

JvmsHistory *
jvms_history_ref (JvmsHistory *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
jvms_history_unref (JvmsHistory *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  if (self->open)
    {
      for (guint i = 0; i < self->n_open; i++)
        {
          g_free (self->open[i].iv);
          g_free (self->open[i].seen);
          g_free (self->open[i].last_end);
          g_free (self->open[i].count);
        }
      g_free (self->open);
    }
  g_free (self->current);
  if (self->summary_builder)
    jvms_summary_builder_free (self->summary_builder);
  if (self->summary)
    jvms_summary_index_free (self->summary);
  jvms_node_cache_free (self->cache);
  if (self->map != NULL)
    munmap ((void *) self->map, self->map_size);
  jvms_attr_tree_free (self->attrs);
  jvms_string_table_free (self->strings);
  g_hash_table_unref (self->metadata);
  g_hash_table_unref (self->overlay);
  g_mutex_clear (&self->overlay_lock);
  g_hash_table_unref (self->checked); /* after the cache: its nodes point into it */
  g_mutex_clear (&self->checked_lock);
  if (self->fd >= 0)
    close (self->fd);
  g_mutex_clear (&self->lock);
  g_free (self->path);
  g_free (self);
}

/* ---- header (de)serialization: field by field, little-endian ---- */

#define HDR_FIELDS(X)                                     \
  X (u32, version, 8) X (u32, header_size, 12)            \
  X (u32, flags, 16) X (u32, node_size, 20)               \
  X (i64, start_time, 24) X (i64, end_time, 32)           \
  X (u64, n_intervals, 40) X (u64, file_size, 48)         \
  X (u64, data_end, 56) X (u64, root_offset, 64)          \
  X (u32, root_csize, 72) X (u32, depth, 76)              \
  X (u32, n_attributes, 80) X (u32, n_strings, 84)        \
  X (u64, n_nodes, 88) X (u64, summary_bytes, 96)         \
  X (u32, max_node_usize, 168)
#define TABLE_AT(i) (104 + 16 * (i))
#define HDR_CRC_AT  (TABLE_AT (4) + 12)
G_STATIC_ASSERT (HDR_CRC_AT == G_STRUCT_OFFSET (JvmsFileHeader, header_crc));
G_STATIC_ASSERT (TABLE_AT (0) == G_STRUCT_OFFSET (JvmsFileHeader, attributes));

static void
put_i64 (guint8 *p, gint64 v)
{
  jvms_put_u64le (p, (guint64) v);
}

static gint64
get_i64 (const guint8 *p)
{
  return (gint64) jvms_get_u64le (p);
}

#define put_u32 jvms_put_u32le
#define put_u64 jvms_put_u64le
#define get_u32 jvms_get_u32le
#define get_u64 jvms_get_u64le

static void
header_write (guint8 *p, const JvmsFileHeader *h)
{
  memset (p, 0, JVMS_FILE_HEADER_SIZE);
  memcpy (p, JVMS_HISTORY_MAGIC, 8);
#define W(t, f, o) put_##t (p + o, h->f);
  HDR_FIELDS (W)
#undef W
  const JvmsTableRef *tables[4] = { &h->attributes, &h->strings, &h->metadata, &h->summary };
  for (int i = 0; i < 4; i++)
    {
      put_u64 (p + TABLE_AT (i), tables[i]->offset);
      put_u32 (p + TABLE_AT (i) + 8, tables[i]->size);
      put_u32 (p + TABLE_AT (i) + 12, tables[i]->crc);
    }
  put_u32 (p + HDR_CRC_AT, jvms_crc32c (p, HDR_CRC_AT));
}

static void
header_parse (const guint8 *p, JvmsFileHeader *h)
{
  memset (h, 0, sizeof *h);
  memcpy (h->magic, p, 8);
#define R(t, f, o) h->f = get_##t (p + o);
  HDR_FIELDS (R)
#undef R
  JvmsTableRef *tables[4] = { &h->attributes, &h->strings, &h->metadata, &h->summary };
  for (int i = 0; i < 4; i++)
    {
      tables[i]->offset = get_u64 (p + TABLE_AT (i));
      tables[i]->size = get_u32 (p + TABLE_AT (i) + 8);
      tables[i]->crc = get_u32 (p + TABLE_AT (i) + 12);
    }
  h->header_crc = get_u32 (p + HDR_CRC_AT);
}

static GBytes *
metadata_serialize (GHashTable *md)
{
  GByteArray *b = g_byte_array_new ();
  guint8 tmp[10];
  g_autoptr (GList) keys = g_hash_table_get_keys (md);
  keys = g_list_sort (keys, (GCompareFunc) strcmp);
  g_byte_array_append (b, tmp, jvms_varint_put (tmp, g_hash_table_size (md)) - tmp);
  for (GList *l = keys; l; l = l->next)
    {
      const char *k = l->data, *v = g_hash_table_lookup (md, k);
      g_byte_array_append (b, tmp, jvms_varint_put (tmp, strlen (k)) - tmp);
      g_byte_array_append (b, (const guint8 *) k, strlen (k));
      g_byte_array_append (b, tmp, jvms_varint_put (tmp, strlen (v)) - tmp);
      g_byte_array_append (b, (const guint8 *) v, strlen (v));
    }
  return g_byte_array_free_to_bytes (b);
}

static gboolean
metadata_parse (GHashTable *md, const guint8 *data, gsize size, const char *file, guint64 offset,
                GError **error)
{
  const guint8 *p = data, *end = data + size;
  guint64 n;
  if (!jvms_varint_get (&p, end, &n) || n > size)
    goto bad;
  for (guint64 i = 0; i < n; i++)
    {
      guint64 kl, vl;
      if (!jvms_varint_get (&p, end, &kl) || kl > (guint64) (end - p) || memchr (p, 0, kl))
        goto bad;
      char *k = g_strndup ((const char *) p, kl);
      p += kl;
      if (!jvms_varint_get (&p, end, &vl) || vl > (guint64) (end - p) || memchr (p, 0, vl))
        {
          g_free (k);
          goto bad;
        }
      g_hash_table_replace (md, k, g_strndup ((const char *) p, vl));
      p += vl;
    }
  if (p == end)
    return TRUE;
bad:
  g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
               "%s: metadata table at offset %" G_GUINT64_FORMAT " is malformed", file, offset);
  return FALSE;
}

static gboolean
write_table (JvmsHistory *h, GBytes *bytes, JvmsTableRef *ref, GError **error)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (bytes, &n);
  if (n > G_MAXUINT32)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: a table of %" G_GSIZE_FORMAT " bytes is too large", h->path, n);
      return FALSE;
    }
  ref->size = (guint32) n;
  ref->crc = jvms_crc32c (d, n);
  /* Tables follow the data area; data_end is not moved so that it keeps bounding the nodes. */
  ref->offset = h->file_size;
  gsize done = 0;
  while (done < n)
    {
      ssize_t w = pwrite (h->fd, d + done, n - done, (off_t) (ref->offset + done));
      if (w < 0)
        {
          if (errno == EINTR)
            continue;
          int e = errno;
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO, "%s: writing a table: %s",
                       h->path, g_strerror (e));
          return FALSE;
        }
      done += (gsize) w;
    }
  h->file_size += n;
  return TRUE;
}

gboolean
jvms_history_write_tables (JvmsHistory *h, GBytes *summary_dir, GError **error)
{
  JvmsFileHeader hd = { 0 };
  h->file_size = h->data_end;
  g_autoptr (GBytes) attrs = jvms_attr_tree_serialize (h->attrs);
  g_autoptr (GBytes) strings = jvms_string_table_serialize (h->strings);
  g_autoptr (GBytes) md = metadata_serialize (h->metadata);
  if (!write_table (h, attrs, &hd.attributes, error) ||
      !write_table (h, strings, &hd.strings, error) ||
      !write_table (h, md, &hd.metadata, error) ||
      !write_table (h, summary_dir, &hd.summary, error))
    return FALSE;
  memcpy (hd.magic, JVMS_HISTORY_MAGIC, 8);
  hd.version = JVMS_HISTORY_VERSION;
  hd.header_size = sizeof (JvmsFileHeader);
  hd.flags = JVMS_HISTORY_FLAG_COMPLETE;
  hd.node_size = h->node_size;
  hd.max_node_usize = h->max_node_usize;
  hd.start_time = h->start_time;
  hd.end_time = h->end_time;
  hd.n_intervals = h->n_intervals;
  hd.file_size = h->file_size;
  hd.data_end = h->data_end;
  hd.root_offset = h->root_offset;
  hd.root_csize = h->root_csize;
  hd.depth = h->depth;
  hd.n_attributes = jvms_attr_tree_size (h->attrs);
  hd.n_strings = jvms_string_table_size (h->strings);
  hd.n_nodes = h->n_nodes;
  hd.summary_bytes = h->summary_bytes;
  guint8 buf[JVMS_FILE_HEADER_SIZE];
  header_write (buf, &hd);
  if (pwrite (h->fd, buf, sizeof buf, 0) != (ssize_t) sizeof buf)
    {
      int e = errno;
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO, "%s: writing the header: %s",
                   h->path, g_strerror (e));
      return FALSE;
    }
  return TRUE;
}

static guint8 *
read_table (JvmsHistory *h, const JvmsTableRef *ref, const char *what, GError **error)
{
  if (ref->offset < h->data_end || ref->offset > h->file_size || ref->size > h->file_size - ref->offset)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: the %s table (offset %" G_GUINT64_FORMAT ", %u bytes) lies outside the "
                   "table area [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ")",
                   h->path, what, ref->offset, ref->size, h->data_end, h->file_size);
      return NULL;
    }
  g_autofree guint8 *buf = g_malloc (MAX (ref->size, 1));
  if (!jvms_read_exact (h->fd, buf, ref->size, ref->offset, h->path, what, error))
    return NULL;
  guint32 crc = jvms_crc32c (buf, ref->size);
  if (crc != ref->crc)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CHECKSUM,
                   "%s: the %s table at offset %" G_GUINT64_FORMAT " fails its checksum "
                   "(stored %08x, computed %08x)", h->path, what, ref->offset, ref->crc, crc);
      return NULL;
    }
  return g_steal_pointer (&buf);
}

JvmsHistory *
jvms_history_open (const char *path, gsize cache_budget, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO, "%s: %s", path, g_strerror (e));
      return NULL;
    }
  g_autoptr (JvmsHistory) h = jvms_history_new_empty (path, fd, cache_budget);
  struct stat st;
  if (fstat (fd, &st) != 0)
    {
      int e = errno;
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO, "%s: %s", path, g_strerror (e));
      return NULL;
    }
  guint64 actual = (guint64) st.st_size;
  guint8 buf[JVMS_FILE_HEADER_SIZE] = { 0 };
  gsize have = (gsize) MIN (actual, (guint64) sizeof buf);
  if (!jvms_read_exact (fd, buf, have, 0, path, "file header", error))
    return NULL;
  if (memcmp (buf, JVMS_HISTORY_MAGIC, MIN (have, 8)) != 0 || have == 0)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_NOT_HISTORY,
                   "%s: not a history file (bad magic)", path);
      return NULL;
    }
  if (have < 12)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_TRUNCATED,
                   "%s: truncated in the file header (%" G_GSIZE_FORMAT " bytes)", path, have);
      return NULL;
    }
  JvmsFileHeader hd;
  header_parse (buf, &hd);
  if (hd.version != JVMS_HISTORY_VERSION)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_VERSION,
                   "%s: format version %u, this program reads version %u", path, hd.version,
                   JVMS_HISTORY_VERSION);
      return NULL;
    }
  if (have < JVMS_FILE_HEADER_SIZE)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_TRUNCATED,
                   "%s: truncated in the file header (%" G_GSIZE_FORMAT " of %u bytes)", path,
                   have, JVMS_FILE_HEADER_SIZE);
      return NULL;
    }
  guint32 crc = jvms_crc32c (buf, HDR_CRC_AT);
  if (crc != hd.header_crc)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CHECKSUM,
                   "%s: the file header fails its checksum (stored %08x, computed %08x)", path,
                   hd.header_crc, crc);
      return NULL;
    }
  if (!(hd.flags & JVMS_HISTORY_FLAG_COMPLETE))
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: the history was never completed", path);
      return NULL;
    }
  if (actual < hd.file_size)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_TRUNCATED,
                   "%s: truncated: %" G_GUINT64_FORMAT " bytes, the header says %" G_GUINT64_FORMAT,
                   path, actual, hd.file_size);
      return NULL;
    }
  if (actual > hd.file_size)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: %" G_GUINT64_FORMAT " bytes follow the end the header gives (%" G_GUINT64_FORMAT ")",
                   path, actual - hd.file_size, hd.file_size);
      return NULL;
    }
  if (hd.header_size != sizeof (JvmsFileHeader) || hd.node_size < JVMS_NODE_SIZE_MIN ||
      hd.node_size > JVMS_NODE_SIZE_MAX || hd.data_end < JVMS_FILE_HEADER_SIZE ||
      hd.data_end > hd.file_size || hd.end_time < hd.start_time || hd.depth == 0 || hd.depth > JVMS_MAX_DEPTH ||
      hd.root_csize == 0 || hd.max_node_usize > JVMS_NODE_SIZE_MAX)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: the file header is inconsistent (node size %u, data end %" G_GUINT64_FORMAT
                   ", depth %u)", path, hd.node_size, hd.data_end, hd.depth);
      return NULL;
    }
  h->start_time = hd.start_time;
  h->end_time = hd.end_time;
  h->n_intervals = hd.n_intervals;
  h->node_size = hd.node_size;
  h->max_node_usize = hd.max_node_usize;
  h->data_end = hd.data_end;
  h->file_size = hd.file_size;
  h->root_offset = hd.root_offset;
  h->root_csize = hd.root_csize;
  h->depth = hd.depth;
  h->n_nodes = hd.n_nodes;
  h->summary_bytes = hd.summary_bytes;

  g_autofree guint8 *at = read_table (h, &hd.attributes, "attribute", error);
  if (at == NULL)
    return NULL;
  JvmsAttrTree *attrs = jvms_attr_tree_deserialize (at, hd.attributes.size, path, hd.attributes.offset, error);
  if (attrs == NULL)
    return NULL;
  jvms_attr_tree_free (h->attrs);
  h->attrs = attrs;
  g_autofree guint8 *stb = read_table (h, &hd.strings, "string", error);
  if (stb == NULL)
    return NULL;
  JvmsStringTable *strings = jvms_string_table_deserialize (stb, hd.strings.size, path, hd.strings.offset, error);
  if (strings == NULL)
    return NULL;
  jvms_string_table_free (h->strings);
  h->strings = strings;
  g_autofree guint8 *mdb = read_table (h, &hd.metadata, "metadata", error);
  if (mdb == NULL || !metadata_parse (h->metadata, mdb, hd.metadata.size, path, hd.metadata.offset, error))
    return NULL;
  g_autofree guint8 *sdb = read_table (h, &hd.summary, "summary directory", error);
  if (sdb == NULL)
    return NULL;
  h->summary = jvms_summary_index_load (sdb, hd.summary.size, path, hd.summary.offset,
                                        jvms_attr_tree_size (h->attrs), h->data_end, error);
  if (h->summary == NULL)
    return NULL;
  if (hd.n_attributes != jvms_attr_tree_size (h->attrs) || hd.n_strings != jvms_string_table_size (h->strings))
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: the header counts %u attributes and %u strings, the tables hold %u and %u",
                   path, hd.n_attributes, hd.n_strings, jvms_attr_tree_size (h->attrs),
                   jvms_string_table_size (h->strings));
      return NULL;
    }
  /* The file mapped read-only, as LMDB reads its database: a node's blob is then read where
   * the page cache holds it, without a copy into a fresh allocation (docs/state-history.md,
   * *Reading from a mapping*). Only the node area: the tables are read once, above. Where mmap
   * fails (or the file is not a regular one), nodes are read with pread() as before. */
  if (S_ISREG (st.st_mode) && h->data_end <= G_MAXSIZE)
    {
      void *m = mmap (NULL, (gsize) h->data_end, PROT_READ, MAP_SHARED, fd, 0);
      if (m != MAP_FAILED)
        {
          h->map = m;
          h->map_size = (gsize) h->data_end;
        }
    }
  h->complete = 1;
  /* Reading the root now turns a damaged root into an open() error rather than a query one. */
  g_autoptr (JvmsNode) root = jvms_history_get_node (h, h->root_offset, h->root_csize, h->depth - 1,
                                                     h->start_time, h->end_time, error);
  if (root == NULL)
    return NULL;
  if (root->end != h->end_time)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: the root node ends at %" G_GINT64_FORMAT ", the history at %" G_GINT64_FORMAT,
                   path, root->end, h->end_time);
      return NULL;
    }
  return g_steal_pointer (&h);
}

JvmsNode *
jvms_history_get_node (JvmsHistory *self, guint64 offset, guint32 csize, guint32 expect_level,
                       gint64 expect_start, gint64 max_end, GError **error)
{
  JvmsNode *n = jvms_node_cache_lookup (self->cache, offset);
  if (n == NULL)
    {
      /* A node read from the mapping before, evicted and read again: its header and table
       * passed their CRC32C then, and its frames that passed theirs are marked. */
      JvmsCheckedNode *ck = NULL;
      if (self->map != NULL)
        {
          g_mutex_lock (&self->checked_lock);
          ck = g_hash_table_lookup (self->checked, &offset);
          g_mutex_unlock (&self->checked_lock);
        }
      n = jvms_node_read (self->fd, self->map, self->path, offset, csize, self->data_end,
                          MAX (self->node_size, self->max_node_usize),
                          jvms_attr_tree_size (self->attrs), jvms_string_table_size (self->strings),
                          ck != NULL, error);
      if (n == NULL)
        return NULL;
      if (self->map != NULL && ck == NULL)
        {
          JvmsCheckedNode *fresh = g_malloc0 (G_STRUCT_OFFSET (JvmsCheckedNode, frames)
                                              + ((n->n_frames + 63) / 64) * sizeof (guint64));
          fresh->offset = offset;
          fresh->n_frames = n->n_frames;
          g_mutex_lock (&self->checked_lock);
          ck = g_hash_table_lookup (self->checked, &offset);
          if (ck == NULL)
            {
              g_hash_table_insert (self->checked, &fresh->offset, fresh);
              ck = g_steal_pointer (&fresh);
            }
          g_mutex_unlock (&self->checked_lock);
          g_free (fresh);
        }
      /* The bitmap is as long as the node's frames were at its first read: a count that
       * differs now (the file changed under the mapping, which docs/state-history.md rules
       * out) must not index past it. */
      if (ck != NULL && ck->n_frames == n->n_frames)
        n->checked = ck->frames;
      JvmsNode *c = jvms_node_cache_insert (self->cache, n);
      jvms_node_unref (n);
      n = c;
    }
  if (n->level != expect_level || n->start != expect_start || n->end > max_end ||
      (n->level > 0 && n->n_children > 0 && n->children[n->n_children - 1].start >= n->end &&
       n->end > n->start))
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node at offset %" G_GUINT64_FORMAT " is level %u over [%" G_GINT64_FORMAT
                   ", %" G_GINT64_FORMAT "), its parent expects level %u from %" G_GINT64_FORMAT
                   " to at most %" G_GINT64_FORMAT, self->path, offset, n->level, n->start, n->end,
                   expect_level, expect_start, max_end);
      jvms_node_unref (n);
      return NULL;
    }
  return n;
}

void
jvms_history_value_out (JvmsHistory *self, guint8 type, guint64 bits, JvmsValue *out)
{
  out->type = type;
  switch (type)
    {
    case JVMS_VALUE_INT:
      out->i = (gint64) bits;
      break;
    case JVMS_VALUE_DOUBLE:
      memcpy (&out->d, &bits, 8);
      break;
    case JVMS_VALUE_STRING:
      out->s = jvms_string_table_get (self->strings, (guint32) bits);
      break;
    default:
      out->i = 0;
      break;
    }
}

/* ---- accessors ---- */

void
jvms_history_set_cache_budget (JvmsHistory *self, gsize cache_budget)
{
  g_return_if_fail (self != NULL);
  jvms_node_cache_set_budget (self->cache, cache_budget);
}

const char *
jvms_history_get_path (JvmsHistory *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

#define LOCKED_GET(type, expr)                                   \
  {                                                              \
    g_return_val_if_fail (self != NULL, 0);                      \
    gboolean locked_ = jvms_history_lock_if_live (self);         \
    type v_ = (expr);                                            \
    jvms_history_unlock_if (self, locked_);                      \
    return v_;                                                   \
  }

gint64 jvms_history_get_start_time (JvmsHistory *self) LOCKED_GET (gint64, self->start_time)
gint64 jvms_history_get_end_time (JvmsHistory *self) LOCKED_GET (gint64, self->end_time)
guint64 jvms_history_get_n_intervals (JvmsHistory *self) LOCKED_GET (guint64, self->n_intervals)
guint jvms_history_get_n_attributes (JvmsHistory *self) LOCKED_GET (guint, jvms_attr_tree_size (self->attrs))
static const char *
stored_metadata (JvmsHistory *self, const char *key)
  LOCKED_GET (const char *, g_hash_table_lookup (self->metadata, key))

const char *
jvms_history_get_metadata (JvmsHistory *self, const char *key)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_mutex_lock (&self->overlay_lock);
  const char *laid = key != NULL ? g_hash_table_lookup (self->overlay, key) : NULL;
  g_mutex_unlock (&self->overlay_lock);
  return laid != NULL ? laid : stored_metadata (self, key);
}

void
jvms_history_set_metadata_overlay (JvmsHistory *self, const char *key, const char *value)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (key != NULL);
  g_mutex_lock (&self->overlay_lock);
  /* Interned: a string a reader got before stays valid whatever is laid over it later, and
   * the few values a user chooses among are kept once each. */
  if (value != NULL)
    g_hash_table_replace (self->overlay, (gpointer) g_intern_string (key), (gpointer) g_intern_string (value));
  else
    g_hash_table_remove (self->overlay, key);
  g_mutex_unlock (&self->overlay_lock);
}
JvmsAttribute jvms_history_lookup (JvmsHistory *self, const char *path)
  LOCKED_GET (JvmsAttribute, jvms_attr_tree_lookup_path (self->attrs, path))
JvmsAttribute jvms_history_lookup_child (JvmsHistory *self, JvmsAttribute parent, const char *name)
  LOCKED_GET (JvmsAttribute, name ? jvms_attr_tree_lookup (self->attrs, parent, name, strlen (name)) : JVMS_ATTRIBUTE_INVALID)
JvmsAttribute jvms_history_get_parent (JvmsHistory *self, JvmsAttribute attribute)
  LOCKED_GET (JvmsAttribute, jvms_attr_tree_parent (self->attrs, attribute))
const char *jvms_history_get_name (JvmsHistory *self, JvmsAttribute attribute)
  LOCKED_GET (const char *, jvms_attr_tree_name (self->attrs, attribute))
char *jvms_history_get_path_of (JvmsHistory *self, JvmsAttribute attribute)
  LOCKED_GET (char *, jvms_attr_tree_path_of (self->attrs, attribute))
GArray *jvms_history_list_children (JvmsHistory *self, JvmsAttribute parent)
  LOCKED_GET (GArray *, jvms_attr_tree_children (self->attrs, parent))

gboolean
jvms_history_is_complete (JvmsHistory *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return g_atomic_int_get (&self->complete) != 0;
}
