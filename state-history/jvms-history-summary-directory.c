/* jvms-history-summary-directory.c: the summary directory, one entry per run (an attribute's
 * buckets at one level, or its change list, in a blob): written sorted at close(), loaded and
 * checked at open, and the blobs its entries point to, read through the node cache. */
#include "jvms-history-summary-private.h"

#include <stdlib.h>

static int
cmp_dir (const void *a, const void *b)
{
  const DirEntry *x = a, *y = b;
  if (x->attribute != y->attribute)
    return x->attribute < y->attribute ? -1 : 1;
  if (x->level != y->level)
    return x->level < y->level ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

/* The directory table (format in jvms-history-format.h): @dir sorted here, @finest[a] the
 * finest level of attribute a or -1. */
GBytes *
jvms_summary_directory_write (GArray *dir, const gint8 *finest, guint n_attrs)
{
  if (dir->len > 1)
    qsort (dir->data, dir->len, sizeof (DirEntry), cmp_dir);

  /* Sized exactly: a growing array would hold up to twice the directory (40 bytes a run). */
  gsize size = jvms_varint_len (n_attrs) + jvms_varint_len (dir->len) +
               (gsize) dir->len * sizeof (JvmsSummaryDirEntry);
  for (guint a = 0; a < n_attrs; a++)
    size += jvms_varint_len ((guint64) (finest[a] + 1));
  guint8 *out = g_malloc (size), *p = out;
  p = jvms_varint_put (p, n_attrs);
  for (guint a = 0; a < n_attrs; a++)
    p = jvms_varint_put (p, (guint64) (finest[a] + 1));
  p = jvms_varint_put (p, dir->len);
  for (guint i = 0; i < dir->len; i++, p += sizeof (JvmsSummaryDirEntry))
    {
      const DirEntry *e = &g_array_index (dir, DirEntry, i);
      jvms_put_u32le (p + 0, e->attribute);
      jvms_put_u32le (p + 4, e->level);
      jvms_put_u64le (p + 8, (guint64) e->first);
      jvms_put_u64le (p + 16, (guint64) e->last);
      jvms_put_u64le (p + 24, e->offset);
      jvms_put_u32le (p + 32, e->csize);
      jvms_put_u32le (p + 36, e->n);
    }
  g_assert ((gsize) (p - out) == size);
  return g_bytes_new_take (out, size);
}

/* ---- the loaded directory ---- */

void
jvms_summary_index_free (JvmsSummaryIndex *si)
{
  if (si == NULL)
    return;
  g_free (si->k0);
  g_free (si->dir);
  g_free (si->first);
  g_free (si);
}

gint
jvms_summary_index_finest (JvmsSummaryIndex *si, guint attribute)
{
  return si && attribute < si->n_attrs ? si->k0[attribute] : -1;
}

guint
jvms_summary_index_n_blobs (JvmsSummaryIndex *si)
{
  return si ? si->n_dir : 0;
}

void
jvms_summary_index_level_stats (JvmsSummaryIndex *si, guint level, guint *n_runs,
                                guint64 *n_items, guint *n_finest)
{
  *n_runs = 0;
  *n_items = 0;
  *n_finest = 0;
  for (guint i = 0; si && i < si->n_dir; i++)
    if (si->dir[i].level == level)
      {
        (*n_runs)++;
        *n_items += si->dir[i].n;
      }
  for (guint a = 0; si && a < si->n_attrs; a++)
    if (si->k0[a] >= 0 && (guint) si->k0[a] == level)
      (*n_finest)++;
}

JvmsSummaryIndex *
jvms_summary_index_load (const guint8 *data, gsize size, const char *file, guint64 offset,
                         guint n_attributes, guint64 data_end, GError **error)
{
  const guint8 *p = data, *end = data + size;
  guint64 n, v;
  JvmsSummaryIndex *si = g_new0 (JvmsSummaryIndex, 1);

  if (!jvms_varint_get (&p, end, &n) || n != n_attributes)
    goto bad;
  si->n_attrs = n_attributes;
  si->k0 = g_new (gint8, MAX (n_attributes, 1));
  for (guint a = 0; a < n_attributes; a++)
    {
      if (!jvms_varint_get (&p, end, &v) || v > N_LEVELS)
        goto bad;
      si->k0[a] = (gint8) ((gint) v - 1);
    }
  if (!jvms_varint_get (&p, end, &n) || n > (guint64) (end - p) / sizeof (JvmsSummaryDirEntry) ||
      (guint64) (end - p) != n * sizeof (JvmsSummaryDirEntry))
    goto bad;
  si->n_dir = (guint) n;
  si->dir = g_new (DirEntry, MAX (n, 1));
  si->first = g_new0 (guint, n_attributes + 1);
  for (guint i = 0; i < si->n_dir; i++, p += sizeof (JvmsSummaryDirEntry))
    {
      DirEntry *e = &si->dir[i];
      e->attribute = jvms_get_u32le (p);
      e->level = jvms_get_u32le (p + 4);
      e->first = (gint64) jvms_get_u64le (p + 8);
      e->last = (gint64) jvms_get_u64le (p + 16);
      e->offset = jvms_get_u64le (p + 24);
      e->csize = jvms_get_u32le (p + 32);
      e->n = jvms_get_u32le (p + 36);
      if (e->attribute >= n_attributes || e->level > CHANGES || si->k0[e->attribute] < 0 ||
          e->level < (guint) si->k0[e->attribute] || e->last < e->first || e->n == 0 ||
          e->offset < JVMS_FILE_HEADER_SIZE || e->offset >= data_end)
        goto bad;
      if (i > 0 && cmp_dir (&si->dir[i - 1], e) >= 0)
        goto bad;
    }
  /* first[a]: entries are sorted by attribute. */
  guint i = 0;
  for (guint a = 0; a <= n_attributes; a++)
    {
      while (i < si->n_dir && si->dir[i].attribute < a)
        i++;
      si->first[a] = i;
    }
  return si;

bad:
  g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
               "%s: the summary directory at offset %" G_GUINT64_FORMAT " is malformed "
               "(at table byte %" G_GSIZE_FORMAT ")", file, offset, (gsize) (p - data));
  jvms_summary_index_free (si);
  return NULL;
}

/* ---- blobs ---- */

/* Reads a summary blob through the cache. */
JvmsNode *
jvms_summary_get_blob (JvmsHistory *h, const DirEntry *e, GError **error)
{
  JvmsNode *n = jvms_node_cache_lookup (h->cache, e->offset);
  if (n)
    return n;
  JvmsNodeHeader hd;
  const guint8 *payload = jvms_blob_read_scratch (h->fd, h->map, h->path, e->offset, e->csize,
                                                  h->data_end, JVMS_NODE_SIZE_MAX, &hd, error);
  if (payload == NULL)
    return NULL;
  const guint8 *p = payload, *end = payload + hd.usize;
  guint64 n_runs;
  guint n_attrs = jvms_attr_tree_size (h->attrs);
  /* Each run takes at least 6 bytes, each bucket 3 and each change 1: bounds before
   * allocating; a first pass over the run headers splits the items into buckets and changes. */
  if (hd.level != JVMS_NODE_LEVEL_SUMMARY || !jvms_varint_get (&p, end, &n_runs) ||
      n_runs == 0 || n_runs > hd.usize / 6 || hd.n_intervals > hd.usize)
    goto bad;
  const guint8 *runs_at = p;
  guint64 n_changes = 0, n_buckets = 0;
  for (guint r = 0; r < n_runs; r++)
    {
      guint64 attr, level, first, cnt, len;
      if (!jvms_varint_get (&p, end, &attr) || !jvms_varint_get (&p, end, &level) ||
          !jvms_varint_get (&p, end, &first) || !jvms_varint_get (&p, end, &cnt) ||
          !jvms_varint_get (&p, end, &len) || attr >= n_attrs || level > CHANGES ||
          cnt == 0 || cnt > hd.n_intervals - n_changes - n_buckets || len > (guint64) (end - p) ||
          cnt > len)
        goto bad;
      if (level == CHANGES)
        n_changes += cnt;
      else if (cnt > len / 3)
        goto bad;
      else
        n_buckets += cnt;
      p += len;
    }
  if (p != end || n_changes + n_buckets != hd.n_intervals)
    goto bad;
  gsize bytes = sizeof (JvmsNode) + sizeof (Blob) + n_runs * sizeof (Run) + hd.usize;
  /* Level blobs are kept at once: a tenth of the summary, and every range at their zoom reads
   * them. Change lists, the rest, pass the cache's doorkeeper. */
  gboolean keep = e->level != CHANGES || jvms_node_cache_admit (h->cache, e->offset);
  JvmsNode *reused = keep ? NULL : jvms_node_transient_new (bytes);
  /* Only the headers and runs are zeroed: the bytes are all written below, and clearing a
   * large blob on every cache miss was a tenth of a zoomed view's frame. */
  n = reused ? reused : jvms_node_memory_alloc (bytes);
  if (n == NULL)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO,
                   "%s: summary blob at offset %" G_GUINT64_FORMAT ": out of memory", h->path,
                   e->offset);
      return NULL;
    }
  memset (n, 0, sizeof (JvmsNode) + sizeof (Blob) + n_runs * sizeof (Run));
  n->transient = reused != NULL;
  n->pooled = reused == NULL;
  n->ref_count = 1;
  n->offset = e->offset;
  n->bytes = bytes;
  n->level = JVMS_NODE_LEVEL_SUMMARY;
  n->n_intervals = hd.n_intervals;
  Blob *blob = (Blob *) (n + 1);
  blob->n_runs = (guint) n_runs;
  blob->runs = (Run *) (blob + 1);
  blob->bytes = (guint8 *) (blob->runs + n_runs);
  memcpy (blob->bytes, payload, hd.usize);
  n->buckets = blob;
  p = runs_at;
  for (guint r = 0; r < n_runs; r++)
    {
      guint64 attr = 0, level = 0, first = 0, cnt = 0, len = 0;
      /* Checked by the first pass. */
      jvms_varint_get (&p, end, &attr);
      jvms_varint_get (&p, end, &level);
      jvms_varint_get (&p, end, &first);
      jvms_varint_get (&p, end, &cnt);
      jvms_varint_get (&p, end, &len);
      Run *run = &blob->runs[r];
      run->attr = (guint32) attr;
      run->level = (guint32) level;
      run->n = (guint) cnt;
      run->data = blob->bytes + (p - payload);
      run->len = (guint32) len;
      run->first_index = jvms_unzigzag (first);
      p += len;
    }
  if (!keep)
    return n;
  JvmsNode *c = jvms_node_cache_insert (h->cache, n);
  jvms_node_unref (n);
  return c;

bad:
  g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
               "%s: summary blob at offset %" G_GUINT64_FORMAT " is malformed", h->path, e->offset);
  return NULL;
}

/* Every run of the directory read and decoded: what jvms_history_check adds for the summary. */
gboolean
jvms_summary_check_all (JvmsHistory *h, GError **error)
{
  g_autoptr (GArray) scratch = g_array_new (FALSE, FALSE, sizeof (Bucket));
  g_autoptr (GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  for (guint i = 0; h->summary && i < h->summary->n_dir; i++)
    {
      JvmsNode *n = jvms_summary_get_blob (h, &h->summary->dir[i], error);
      guint nb;
      if (n == NULL)
        return FALSE;
      const DirEntry *e = &h->summary->dir[i];
      gboolean ok = e->level == CHANGES
                      ? jvms_summary_blob_changes (h, n, e, changes, &nb, error) != NULL
                      : jvms_summary_blob_run (h, n, e, scratch, &nb, error) != NULL;
      jvms_node_unref (n);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}
