/* jvms-history-builder.c: the streaming pass that writes a history file.
 *
 * Intervals are added to the tree when they end (modify() ends the attribute's current one).
 * One node per level is open at a time (h->open[level]); an interval [s, e) goes to the lowest
 * open node whose start is <= s, so that node's range holds it. A node that is full is closed
 * at T, the latest end seen so far (every interval already in it ends at or before T), along
 * with every open node below it; new empty nodes start at T. A node whose parent has no room
 * for another child takes the parent with it; closing the root adds a new root above it that
 * starts at the history start. Nodes are written as they close, children before parents, so a
 * parent records its children's file offsets.
 *
 * Memory: the open nodes (one per level, bounded by node_size), per-attribute state (current
 * interval, per-level markers, summary buckets) and encoding scratch: it grows with the number
 * of attributes and the tree depth, never with the number of intervals written.
 *
 * Threads. Until jvms_history_builder_get_history() hands the history out, only the builder's
 * thread touches it and no lock is taken. Afterwards every mutation (modify, attribute
 * creation, metadata, node writes, close) runs under h->lock, and every reader that finds
 * h->complete unset takes h->lock for the whole query, so readers see the open nodes, the
 * current intervals, the attribute tree, the string table and data_end in a state between two
 * builder calls: every interval ended before the reader took the lock is visible, none is
 * half-written. Nodes already on disk are read with pread() on the shared fd after the builder
 * wrote them under the lock (the lock orders the write before the read). close() sets
 * h->complete with a release store while still holding the lock, after the last mutation; a
 * reader that sees complete with an acquire load reads only fields that never change again,
 * so it needs no lock. The builder's own flag `shared` is only touched by its thread. */
#include "jvms-history-private.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

struct _JvmsHistoryBuilder
{
  JvmsHistory    *h;
  char           *tmp_path;
  gboolean        shared;
  gboolean        closed;
  gboolean        failed;
  guint           attr_cap;   /* capacity of the per-attribute arrays */
  JvmsNodeEncoder enc;
  guint32        *keys;       /* each attribute's object: its ancestor two levels below the root
                                 (a thread, a CPU), or itself above; the encoder puts an object's
                                 busy groups in one lz4 frame (jvms-history-format.h) */
  guint           n_keys;
};

/* The objects of the attributes added since the last node. */
static const guint32 *
frame_keys (JvmsHistoryBuilder *b)
{
  JvmsAttrTree *t = b->h->attrs;
  guint n = jvms_attr_tree_size (t);
  if (b->n_keys < n)
    {
      b->keys = g_renew (guint32, b->keys, n);
      /* A parent's id is smaller than its child's: its key is known. */
      for (guint a = b->n_keys; a < n; a++)
        {
          JvmsAttribute p = jvms_attr_tree_parent (t, a);
          b->keys[a] = p == JVMS_ATTRIBUTE_ROOT || jvms_attr_tree_parent (t, p) == JVMS_ATTRIBUTE_ROOT
                         ? a : b->keys[p];
        }
      b->n_keys = n;
    }
  return b->keys;
}

/* Room kept in every inner node for its children's references (3 varints each). */
#define CHILD_REF_BYTES     25u
/* The counts (children, groups, blocks), and one block entry more than one a
 * JVMS_NODE_BLOCK_GROUPS groups (the first block). */
#define NODE_FIXED_BYTES    (15u + JVMS_NODE_BLOCK_ENTRY_MAX)
/* A group's attribute and count, and its share of a block directory entry (at most
 * JVMS_NODE_BLOCK_ENTRY_MAX bytes a block of JVMS_NODE_BLOCK_GROUPS groups: a byte a group). */
#define GROUP_HEADER_BYTES(attr) (jvms_varint_len (attr) + 4u)
/* A group of more than JVMS_NODE_GROUP_ALONE intervals is a block of its own: it starts one
 * and the group after it another, two entries more at most (jvms_node_encode). */
#define BUSY_GROUP_BYTES    (2u * JVMS_NODE_BLOCK_ENTRY_MAX)

static inline void
blk (JvmsHistoryBuilder *b)
{
  if (b->shared)
    g_mutex_lock (&b->h->lock);
}

static inline void
unblk (JvmsHistoryBuilder *b)
{
  if (b->shared)
    g_mutex_unlock (&b->h->lock);
}

/* Inner nodes hold at least INNER_BYTES_PER_ATTRIBUTE per attribute. Why: when a node closes
 * at T, every attribute's interval still going started before T, so all of them end up in the
 * levels above. With node_size bytes for thousands of attributes, that wave alone fills the
 * parent, which closes, sending the next wave one level higher, and so on: the tree grows a
 * level every few splits (157 levels for 10,000 attributes at 64 KiB). Room for several waves
 * per inner node keeps the depth logarithmic. */
#define INNER_BYTES_PER_ATTRIBUTE 64u

static gsize
node_capacity (JvmsHistory *h, guint level)
{
  if (level == 0)
    return h->node_size;
  gsize inner = MAX ((gsize) h->node_size,
                     MIN ((gsize) INNER_BYTES_PER_ATTRIBUTE * jvms_attr_tree_size (h->attrs),
                          (gsize) JVMS_NODE_SIZE_MAX));
  return inner - JVMS_NODE_MAX_CHILDREN * CHILD_REF_BYTES;
}

static void
open_node_reset (JvmsOpenNode *n, gint64 start)
{
  n->start = start;
  n->n = 0;
  n->bytes = NODE_FIXED_BYTES;
  n->n_children = 0;
  n->serial++;
  /* serial 0 marks "never seen": skip it on wrap-around, and clear the markers then. */
  if (n->serial == 0)
    n->serial = 1;
}

static void
add_level (JvmsHistoryBuilder *b, gint64 start)
{
  JvmsHistory *h = b->h;
  h->open = g_renew (JvmsOpenNode, h->open, h->n_open + 1);
  JvmsOpenNode *n = &h->open[h->n_open];
  memset (n, 0, sizeof *n);
  n->seen = g_new0 (guint32, b->attr_cap);
  n->last_end = g_new0 (gint64, b->attr_cap);
  n->count = g_new0 (guint32, b->attr_cap);
  open_node_reset (n, start);
  h->n_open++;
}

static void
grow_attrs (JvmsHistoryBuilder *b, guint n_attrs)
{
  JvmsHistory *h = b->h;
  if (n_attrs <= b->attr_cap)
    return;
  guint cap = MAX (n_attrs, b->attr_cap * 2);
  cap = MAX (cap, 64u);
  h->current = g_renew (JvmsCurrent, h->current, cap);
  h->n_current_cap = cap;
  for (guint l = 0; l < h->n_open; l++)
    {
      JvmsOpenNode *n = &h->open[l];
      n->seen = g_renew (guint32, n->seen, cap);
      memset (n->seen + b->attr_cap, 0, (cap - b->attr_cap) * sizeof (guint32));
      n->last_end = g_renew (gint64, n->last_end, cap);
      n->count = g_renew (guint32, n->count, cap);
    }
  b->attr_cap = cap;
}

static gboolean
write_all (JvmsHistory *h, const guint8 *data, gsize n, guint64 offset, GError **error)
{
  gsize done = 0;
  while (done < n)
    {
      ssize_t w = pwrite (h->fd, data + done, n - done, (off_t) (offset + done));
      if (w < 0)
        {
          if (errno == EINTR)
            continue;
          int e = errno;
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO,
                       "%s: writing at offset %" G_GUINT64_FORMAT ": %s", h->path,
                       offset + done, g_strerror (e));
          return FALSE;
        }
      done += (gsize) w;
    }
  return TRUE;
}

gboolean
jvms_history_append_blob (JvmsHistory *h, const guint8 *blob, gsize n, guint64 *offset,
                          GError **error)
{
  if (!write_all (h, blob, n, h->data_end, error))
    return FALSE;
  *offset = h->data_end;
  h->data_end += n;
  return TRUE;
}

static gboolean
write_node (JvmsHistoryBuilder *b, guint level, gint64 end, JvmsNodeChild *out, GError **error)
{
  JvmsHistory *h = b->h;
  JvmsOpenNode *n = &h->open[level];
  gsize size = jvms_node_encode (&b->enc, frame_keys (b), jvms_attr_tree_size (h->attrs), level, n->start, end,
                                 n->iv, n->n, n->children, n->n_children);
  guint64 off;
  if (!jvms_history_append_blob (h, b->enc.blob, size, &off, error))
    return FALSE;
  guint32 usize = jvms_get_u32le (b->enc.blob + 12);
  if (usize > h->max_node_usize)
    h->max_node_usize = usize;
  h->n_nodes++;
  out->start = n->start;
  out->offset = off;
  out->csize = (guint32) (size - sizeof (JvmsNodeHeader));
  return TRUE;
}

/* Closes the open nodes of levels 0..@level (and above, while a parent has no room for one
 * more child) at the latest end time; empty ones are not written, only moved. */
static gboolean
split (JvmsHistoryBuilder *b, guint level, GError **error)
{
  JvmsHistory *h = b->h;
  gint64 T = h->end_time;
  guint top = level;

  while (top + 1 < h->n_open && h->open[top + 1].n_children >= JVMS_NODE_MAX_CHILDREN - 1)
    top++;
  if (top + 1 == h->n_open)
    {
      if (h->n_open >= JVMS_MAX_DEPTH)
        {
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                       "%s: the tree would pass %u levels; a larger node size is needed",
                       h->path, JVMS_MAX_DEPTH);
          return FALSE;
        }
      add_level (b, h->start_time);
    }
  for (guint i = 0; i <= top; i++)
    {
      JvmsOpenNode *n = &h->open[i];
      if (n->n > 0 || n->n_children > 0)
        {
          JvmsNodeChild ref;
          if (!write_node (b, i, T, &ref, error))
            return FALSE;
          JvmsOpenNode *parent = &h->open[i + 1];
          g_assert (parent->n_children < JVMS_NODE_MAX_CHILDREN);
          parent->children[parent->n_children++] = ref;
        }
      open_node_reset (n, T);
    }
  return TRUE;
}

static gboolean
tree_insert (JvmsHistoryBuilder *b, const JvmsRawInterval *iv, GError **error)
{
  JvmsHistory *h = b->h;
  for (;;)
    {
      guint L = 0;
      while (h->open[L].start > iv->start)
        L++; /* the root starts at the history start, so this stops */
      JvmsOpenNode *n = &h->open[L];
      gboolean seen = n->seen[iv->attr] == n->serial;
      gboolean contiguous = seen && n->last_end[iv->attr] == iv->start;
      gint64 ref = seen ? n->last_end[iv->attr] : n->start;
      gsize need = jvms_node_interval_bytes (iv->start, iv->end, ref, contiguous, iv->type, iv->bits);
      if (!seen)
        need += GROUP_HEADER_BYTES (iv->attr);
      else if (n->count[iv->attr] == JVMS_NODE_GROUP_ALONE)
        need += BUSY_GROUP_BYTES; /* it becomes a block of its own */
      if (n->bytes + need <= node_capacity (h, L))
        {
          if (n->n == n->cap)
            {
              n->cap = n->cap ? n->cap * 2 : 256;
              n->iv = g_renew (JvmsRawInterval, n->iv, n->cap);
            }
          n->iv[n->n++] = *iv;
          n->bytes += need;
          n->count[iv->attr] = seen ? n->count[iv->attr] + 1 : 1;
          n->seen[iv->attr] = n->serial;
          n->last_end[iv->attr] = iv->end;
          return TRUE;
        }
      if (!split (b, L, error))
        return FALSE;
    }
}

/* Ends @attr's current interval at @time (> its start). */
static gboolean
end_current (JvmsHistoryBuilder *b, JvmsAttribute attr, gint64 time, GError **error)
{
  JvmsHistory *h = b->h;
  JvmsCurrent *c = &h->current[attr];
  JvmsRawInterval iv = { c->start, time, c->bits, attr, c->type };
  if (time > h->end_time)
    h->end_time = time;
  if (!tree_insert (b, &iv, error))
    return FALSE;
  h->n_intervals++;
  if (h->summary_builder &&
      !jvms_summary_builder_add (h, h->summary_builder, attr, iv.start, iv.end, iv.type, iv.bits, error))
    return FALSE;
  return TRUE;
}

JvmsHistoryBuilder *
jvms_history_builder_new (const char                      *path,
                          gint64                           start_time,
                          const JvmsHistoryBuilderOptions *options,
                          GError                         **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  guint32 node_size = options && options->node_size ? options->node_size : JVMS_NODE_SIZE_DEFAULT;
  gsize budget = options ? options->cache_budget : 0;
  node_size = CLAMP (node_size, JVMS_NODE_SIZE_MIN, JVMS_NODE_SIZE_MAX);

  g_autofree char *tmp = g_strdup_printf ("%s.tmp-XXXXXX", path);
  int fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO,
                   "%s: cannot create a temporary file beside it: %s", path, g_strerror (e));
      return NULL;
    }
  JvmsHistoryBuilder *b = g_new0 (JvmsHistoryBuilder, 1);
  b->tmp_path = g_steal_pointer (&tmp);
  JvmsHistory *h = jvms_history_new_empty (path, fd, budget);
  b->h = h;
  h->start_time = start_time;
  h->end_time = start_time;
  h->node_size = node_size;
  h->data_end = JVMS_FILE_HEADER_SIZE;
  h->summary_builder = jvms_summary_builder_new ();

  /* A zeroed header region: a crash leaves a file without magic, never a plausible one. */
  guint8 zero[JVMS_FILE_HEADER_SIZE] = { 0 };
  if (!write_all (h, zero, sizeof zero, 0, error))
    {
      jvms_history_builder_free (b);
      return NULL;
    }
  add_level (b, start_time);
  return b;
}

static void
attr_created (JvmsHistoryBuilder *b, JvmsAttribute a)
{
  JvmsHistory *h = b->h;
  grow_attrs (b, a + 1);
  h->current[a].start = h->start_time;
  h->current[a].type = JVMS_VALUE_NULL;
  h->current[a].bits = 0;
  for (guint l = 0; l < h->n_open; l++)
    h->open[l].seen[a] = 0;
}

JvmsAttribute
jvms_history_builder_attribute_child (JvmsHistoryBuilder *b, JvmsAttribute parent, const char *name)
{
  g_return_val_if_fail (b != NULL && name != NULL && *name != '\0' && strchr (name, '/') == NULL,
                        JVMS_ATTRIBUTE_INVALID);
  gboolean created;
  blk (b);
  JvmsAttribute a = jvms_attr_tree_ensure (b->h->attrs, parent, name, strlen (name), &created);
  if (created)
    attr_created (b, a);
  unblk (b);
  return a;
}

JvmsAttribute
jvms_history_builder_attribute (JvmsHistoryBuilder *b, const char *path)
{
  g_return_val_if_fail (b != NULL && path != NULL && *path != '\0', JVMS_ATTRIBUTE_INVALID);
  JvmsAttribute cur = JVMS_ATTRIBUTE_ROOT;
  const char *p = path;

  /* Fast path: the whole path exists already, the usual case of a caller that does not cache. */
  blk (b);
  for (;;)
    {
      const char *slash = strchr (p, '/');
      gsize len = slash ? (gsize) (slash - p) : strlen (p);
      gboolean created;
      if (len == 0)
        {
          cur = JVMS_ATTRIBUTE_INVALID;
          break;
        }
      cur = jvms_attr_tree_ensure (b->h->attrs, cur, p, len, &created);
      if (cur == JVMS_ATTRIBUTE_INVALID)
        break;
      if (created)
        attr_created (b, cur);
      if (slash == NULL)
        break;
      p = slash + 1;
    }
  unblk (b);
  return cur;
}

static gboolean
modify_raw (JvmsHistoryBuilder *b, JvmsAttribute attr, gint64 time, guint8 type, guint64 bits,
            const char *str, GError **error)
{
  JvmsHistory *h = b->h;
  gboolean ok = TRUE;

  blk (b);
  if (b->closed || b->failed)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: the builder is %s", h->path, b->closed ? "closed" : "failed");
      ok = FALSE;
      goto out;
    }
  if (attr >= jvms_attr_tree_size (h->attrs))
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: unknown attribute %u", h->path, attr);
      ok = FALSE;
      goto out;
    }
  JvmsCurrent *c = &h->current[attr];
  if (G_UNLIKELY (time < c->start))
    {
      g_autofree char *name = jvms_attr_tree_path_of (h->attrs, attr);
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_TIME_ORDER,
                   "%s: attribute %s (%u): time %" G_GINT64_FORMAT " is before %" G_GINT64_FORMAT
                   ", the start of its current interval", h->path, name, attr, time, c->start);
      ok = FALSE;
      goto out;
    }
  if (type == JVMS_VALUE_STRING)
    bits = jvms_string_table_intern (h->strings, str);
  if (jvms_raw_value_equal (c->type, c->bits, type, bits))
    goto out;
  if (time > c->start)
    {
      if (!end_current (b, attr, time, error))
        {
          b->failed = TRUE;
          ok = FALSE;
          goto out;
        }
      c->start = time;
    }
  c->type = type;
  c->bits = bits;
out:
  unblk (b);
  return ok;
}

gboolean
jvms_history_builder_modify (JvmsHistoryBuilder *b, JvmsAttribute attribute, gint64 time,
                             const JvmsValue *value, GError **error)
{
  g_return_val_if_fail (b != NULL && value != NULL, FALSE);
  switch (value->type)
    {
    case JVMS_VALUE_NULL:
      return modify_raw (b, attribute, time, JVMS_VALUE_NULL, 0, NULL, error);
    case JVMS_VALUE_INT:
      return modify_raw (b, attribute, time, JVMS_VALUE_INT, (guint64) value->i, NULL, error);
    case JVMS_VALUE_DOUBLE:
      {
        guint64 bits;
        memcpy (&bits, &value->d, 8);
        return modify_raw (b, attribute, time, JVMS_VALUE_DOUBLE, bits, NULL, error);
      }
    case JVMS_VALUE_STRING:
      if (value->s == NULL)
        return modify_raw (b, attribute, time, JVMS_VALUE_NULL, 0, NULL, error);
      return modify_raw (b, attribute, time, JVMS_VALUE_STRING, 0, value->s, error);
    default:
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: unknown value type %d", b->h->path, (int) value->type);
      return FALSE;
    }
}

gboolean
jvms_history_builder_modify_int (JvmsHistoryBuilder *b, JvmsAttribute attribute, gint64 time,
                                 gint64 value, GError **error)
{
  g_return_val_if_fail (b != NULL, FALSE);
  return modify_raw (b, attribute, time, JVMS_VALUE_INT, (guint64) value, NULL, error);
}

gboolean
jvms_history_builder_modify_double (JvmsHistoryBuilder *b, JvmsAttribute attribute, gint64 time,
                                    double value, GError **error)
{
  g_return_val_if_fail (b != NULL, FALSE);
  guint64 bits;
  memcpy (&bits, &value, 8);
  return modify_raw (b, attribute, time, JVMS_VALUE_DOUBLE, bits, NULL, error);
}

gboolean
jvms_history_builder_modify_string (JvmsHistoryBuilder *b, JvmsAttribute attribute, gint64 time,
                                    const char *value, GError **error)
{
  g_return_val_if_fail (b != NULL, FALSE);
  if (value == NULL)
    return modify_raw (b, attribute, time, JVMS_VALUE_NULL, 0, NULL, error);
  return modify_raw (b, attribute, time, JVMS_VALUE_STRING, 0, value, error);
}

gboolean
jvms_history_builder_modify_null (JvmsHistoryBuilder *b, JvmsAttribute attribute, gint64 time,
                                  GError **error)
{
  g_return_val_if_fail (b != NULL, FALSE);
  return modify_raw (b, attribute, time, JVMS_VALUE_NULL, 0, NULL, error);
}

void
jvms_history_builder_set_metadata (JvmsHistoryBuilder *b, const char *key, const char *value)
{
  g_return_if_fail (b != NULL && key != NULL && value != NULL);
  blk (b);
  if (!b->closed)
    g_hash_table_replace (b->h->metadata, g_strdup (key), g_strdup (value));
  unblk (b);
}

JvmsHistory *
jvms_history_builder_get_history (JvmsHistoryBuilder *b)
{
  g_return_val_if_fail (b != NULL, NULL);
  b->shared = TRUE;
  return jvms_history_ref (b->h);
}

static gboolean
fsync_dir_of (const char *path, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  int dfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return TRUE; /* best effort: some file systems refuse to open directories */
  fsync (dfd);
  close (dfd);
  return TRUE;
}

static gboolean
close_locked (JvmsHistoryBuilder *b, gint64 end_time, GError **error)
{
  JvmsHistory *h = b->h;
  guint n_attrs = jvms_attr_tree_size (h->attrs);

  if (end_time < h->end_time)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_TIME_ORDER,
                   "%s: close time %" G_GINT64_FORMAT " is before %" G_GINT64_FORMAT
                   ", where an interval already ended", h->path, end_time, h->end_time);
      return FALSE;
    }
  for (guint a = 0; a < n_attrs; a++)
    if (h->current[a].start > end_time)
      {
        g_autofree char *name = jvms_attr_tree_path_of (h->attrs, a);
        g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_TIME_ORDER,
                     "%s: attribute %s (%u): close time %" G_GINT64_FORMAT " is before %" G_GINT64_FORMAT
                     ", the start of its current interval", h->path, name, a, end_time,
                     h->current[a].start);
        return FALSE;
      }
  b->failed = TRUE; /* until the end: a failure below leaves nothing usable */
  for (guint a = 0; a < n_attrs; a++)
    if (h->current[a].start < end_time)
      {
        if (!end_current (b, a, end_time, error))
          return FALSE;
        h->current[a].start = end_time;
      }
  h->end_time = end_time;

  /* Close every level, leaves first; the root is written even when empty. */
  JvmsNodeChild root = { 0 };
  for (guint i = 0; i < h->n_open; i++)
    {
      JvmsOpenNode *n = &h->open[i];
      gboolean is_root = i + 1 == h->n_open;
      if (n->n > 0 || n->n_children > 0 || is_root)
        {
          JvmsNodeChild ref;
          if (!write_node (b, i, end_time, &ref, error))
            return FALSE;
          if (is_root)
            root = ref;
          else
            h->open[i + 1].children[h->open[i + 1].n_children++] = ref;
        }
    }

  GBytes *dir = NULL;
  if (!jvms_summary_builder_finish (h, h->summary_builder, &dir, error))
    return FALSE;
  /* Its directory is serialized in @dir now: freed before the index is loaded from @dir, so
   * that the three copies (about 40 bytes per run each) are never all in memory. */
  jvms_summary_builder_free (h->summary_builder);
  h->summary_builder = NULL;
  h->root_offset = root.offset;
  h->root_csize = root.csize;
  h->depth = h->n_open;
  gboolean ok = jvms_history_write_tables (h, dir, error);
  if (ok)
    {
      /* The builder's own history answers summaries from the levels too, as a reopened one. */
      gsize dir_size;
      const guint8 *dir_data = g_bytes_get_data (dir, &dir_size);
      h->summary = jvms_summary_index_load (dir_data, dir_size, h->path, 0,
                                            jvms_attr_tree_size (h->attrs), h->data_end, error);
      ok = h->summary != NULL;
    }
  g_bytes_unref (dir);
  if (!ok)
    return FALSE;
  if (fsync (h->fd) != 0)
    {
      int e = errno;
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO, "%s: fsync: %s", b->tmp_path, g_strerror (e));
      return FALSE;
    }
  if (rename (b->tmp_path, h->path) != 0)
    {
      int e = errno;
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO, "%s: renaming %s into place: %s",
                   h->path, b->tmp_path, g_strerror (e));
      return FALSE;
    }
  fsync_dir_of (h->path, error);

  /* Open nodes and current intervals are no longer needed: queries read the root. */
  for (guint i = 0; i < h->n_open; i++)
    {
      g_free (h->open[i].iv);
      g_free (h->open[i].seen);
      g_free (h->open[i].last_end);
      g_free (h->open[i].count);
    }
  g_clear_pointer (&h->open, g_free);
  h->n_open = 0;
  g_clear_pointer (&h->current, g_free);
#ifdef __GLIBC__
  /* The builder's state was hundreds of thousands of small blocks (per attribute and level),
   * freed now; glibc keeps such memory for the process (on a 1.86 GB bundle: a 99 MB heap
   * with 16 MB in use after close), and a viewer lives for hours after its index is built. */
  malloc_trim (0);
#endif
  b->failed = FALSE;
  b->closed = TRUE;
  g_atomic_int_set (&h->complete, 1);
  return TRUE;
}

gboolean
jvms_history_builder_close (JvmsHistoryBuilder *b, gint64 end_time, GError **error)
{
  g_return_val_if_fail (b != NULL, FALSE);
  if (b->closed || b->failed)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: the builder is %s", b->h->path, b->closed ? "closed already" : "failed");
      return FALSE;
    }
  /* Always lock here: the lock also publishes the final state to readers of get_history. */
  g_mutex_lock (&b->h->lock);
  gboolean ok = close_locked (b, end_time, error);
  g_mutex_unlock (&b->h->lock);
  jvms_node_encoder_clear (&b->enc);
  g_clear_pointer (&b->keys, g_free);
  b->n_keys = 0;
  return ok;
}

void
jvms_history_builder_free (JvmsHistoryBuilder *b)
{
  if (b == NULL)
    return;
  if (!b->closed && b->tmp_path)
    unlink (b->tmp_path);
  jvms_node_encoder_clear (&b->enc);
  g_clear_pointer (&b->keys, g_free);
  b->n_keys = 0;
  if (b->h)
    {
      /* Readers may still hold the history: mark the builder gone so that it stays frozen. */
      jvms_history_unref (b->h);
    }
  g_free (b->tmp_path);
  g_free (b);
}

/* ---- memory, for tests ---- */

void
jvms_history_builder_memory (JvmsHistoryBuilder *b, JvmsBuilderMemory *m)
{
  JvmsHistory *h = b->h;
  memset (m, 0, sizeof *m);
  blk (b);
  m->n_attributes = jvms_attr_tree_size (h->attrs);
  m->n_open = h->n_open;
  for (guint l = 0; l < h->n_open; l++)
    m->open_nodes += (gsize) h->open[l].cap * sizeof (JvmsRawInterval);
  m->per_attribute = (gsize) b->attr_cap * (sizeof (JvmsCurrent) +
                                            h->n_open * (sizeof (guint32) + sizeof (gint64)));
  m->scratch = (gsize) (b->enc.n_count + b->enc.n_touched_cap + b->enc.n_order_cap) * sizeof (guint32) +
               b->enc.payload_cap + b->enc.blob_cap;
  if (h->summary_builder)
    jvms_summary_builder_memory (h->summary_builder, m);
  unblk (b);
}

void
jvms_history_builder_set_summary_budget (JvmsHistoryBuilder *b, gsize bytes)
{
  blk (b);
  if (b->h->summary_builder)
    jvms_summary_builder_set_budget (b->h->summary_builder, bytes);
  unblk (b);
}
