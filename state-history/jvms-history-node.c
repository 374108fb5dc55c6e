/* jvms-history-node.c: node encoding (builder side) and checked decoding (reader side).
 * The payload layout is documented in jvms-history-format.h. */
#include "jvms-history-private.h"

#include <errno.h>
#include <lz4.h>
#include <stdlib.h>
#include <unistd.h>

#define NODE_HEADER_CRC_FROM 8 /* the crc covers the header after magic and crc */

void
jvms_node_encoder_clear (JvmsNodeEncoder *enc)
{
  g_free (enc->count);
  g_free (enc->touched);
  g_free (enc->order);
  g_free (enc->payload);
  g_free (enc->groups);
  g_free (enc->blocks);
  g_free (enc->blob);
  g_free (enc->parts);
  g_free (enc->cuts);
  memset (enc, 0, sizeof *enc);
}

static int
cmp_u32 (const void *a, const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

static void
ensure_cap (void **p, gsize *cap, gsize want, gsize elem)
{
  if (*cap >= want)
    return;
  gsize n = MAX (want, *cap * 2);
  g_free (*p);
  *p = g_malloc (n * elem);
  *cap = n;
}

/* Block @b of the @n_blocks of an encoded node (of @n_groups groups and @n intervals) is a busy
 * group alone. */
static gboolean
block_busy_at (const JvmsNodeBlock *blocks, guint n_blocks, guint n_groups, guint n, guint b)
{
  guint32 group_next = b + 1 < n_blocks ? blocks[b + 1].group : n_groups;
  guint32 first_next = b + 1 < n_blocks ? blocks[b + 1].first : n;
  return group_next - blocks[b].group == 1 && first_next - blocks[b].first > JVMS_NODE_GROUP_ALONE;
}

void
jvms_node_header_write (guint8 *p, const JvmsNodeHeader *h);
void
jvms_node_header_write (guint8 *p, const JvmsNodeHeader *h)
{
  jvms_put_u32le (p + 0, h->magic);
  jvms_put_u32le (p + 4, h->crc);
  jvms_put_u32le (p + 8, h->csize);
  jvms_put_u32le (p + 12, h->usize);
  jvms_put_u32le (p + 16, h->level);
  jvms_put_u32le (p + 20, h->n_intervals);
  jvms_put_u64le (p + 24, (guint64) h->start);
  jvms_put_u64le (p + 32, (guint64) h->end);
}

static void
node_header_parse (const guint8 *p, JvmsNodeHeader *h)
{
  h->magic = jvms_get_u32le (p + 0);
  h->crc = jvms_get_u32le (p + 4);
  h->csize = jvms_get_u32le (p + 8);
  h->usize = jvms_get_u32le (p + 12);
  h->level = jvms_get_u32le (p + 16);
  h->n_intervals = jvms_get_u32le (p + 20);
  h->start = (gint64) jvms_get_u64le (p + 24);
  h->end = (gint64) jvms_get_u64le (p + 32);
}

/* The header of the blob whose @csize stored bytes follow it in enc->blob, and its CRC32C over
 * the header's checked part and the first @covered of those bytes (all of them but a tree
 * node's frames, which carry their own): the last step of every blob written. */
static gsize
seal_blob (JvmsNodeEncoder *enc, gsize csize, gsize covered, gsize usize, guint32 level,
           guint32 n_items, gint64 start, gint64 end)
{
  JvmsNodeHeader h = {
    .magic = JVMS_NODE_MAGIC,
    .csize = (guint32) csize,
    .usize = (guint32) usize,
    .level = level,
    .n_intervals = n_items,
    .start = start,
    .end = end,
  };
  jvms_node_header_write (enc->blob, &h);
  guint32 crc = jvms_crc32c (enc->blob + NODE_HEADER_CRC_FROM, sizeof (JvmsNodeHeader) - NODE_HEADER_CRC_FROM);
  crc = jvms_crc32c_update (crc, enc->blob + sizeof (JvmsNodeHeader), covered);
  jvms_put_u32le (enc->blob + 4, crc);
  return sizeof (JvmsNodeHeader) + csize;
}

gsize
jvms_blob_frame (JvmsNodeEncoder *enc, const guint8 *payload, gsize usize, guint32 level,
                 guint32 n_items, gint64 start, gint64 end)
{
  gsize bound = (gsize) LZ4_compressBound ((int) usize);
  ensure_cap ((void **) &enc->blob, &enc->blob_cap, bound + sizeof (JvmsNodeHeader), 1);
  int csize = LZ4_compress_default ((const char *) payload, (char *) enc->blob + sizeof (JvmsNodeHeader),
                                    (int) usize, (int) bound);
  g_assert (csize > 0); /* cannot fail with a bound-sized destination */
  return seal_blob (enc, (gsize) csize, (gsize) csize, usize, level, n_items, start, end);
}

gsize
jvms_node_frame (JvmsNodeEncoder *enc, const guint8 *payload, gsize usize, gsize head,
                 const guint32 *cuts, guint n_cuts, guint32 level, guint32 n_items, gint64 start,
                 gint64 end)
{
  g_assert (head > 0 && head <= usize);
  gsize area = usize - head;
  /* The frames' starts: 0, then the cuts inside the area, increasing. */
  guint n_frames = 0;
  g_autofree guint32 *starts = g_new (guint32, (gsize) n_cuts + 2);
  if (area > 0)
    {
      starts[n_frames++] = 0;
      for (guint i = 0; i < n_cuts; i++)
        if (cuts[i] > starts[n_frames - 1] && cuts[i] < area)
          starts[n_frames++] = cuts[i];
    }
  starts[n_frames] = (guint32) area;
  /* Each part compressed into enc->parts, then the table of their sizes in front. */
  gsize bound = (gsize) LZ4_compressBound ((int) head);
  for (guint f = 0; f < n_frames; f++)
    bound += (gsize) LZ4_compressBound ((int) (starts[f + 1] - starts[f]));
  ensure_cap ((void **) &enc->parts, &enc->parts_cap, bound, 1);
  g_autofree guint32 *csizes = g_new (guint32, (gsize) n_frames + 1);
  guint8 *q = enc->parts;
  for (guint f = 0; f <= n_frames; f++)
    {
      const guint8 *from = f == 0 ? payload : payload + head + starts[f - 1];
      gsize n = f == 0 ? head : starts[f] - starts[f - 1];
      int c = LZ4_compress_default ((const char *) from, (char *) q, (int) n,
                                    (int) (enc->parts + bound - q));
      g_assert (c > 0); /* cannot fail with bound-sized room */
      csizes[f] = (guint32) c;
      q += c;
    }
  gsize parts = (gsize) (q - enc->parts);
  gsize table_max = 20 + (gsize) n_frames * 14;
  ensure_cap ((void **) &enc->blob, &enc->blob_cap, sizeof (JvmsNodeHeader) + table_max + parts, 1);
  guint8 *p = enc->blob + sizeof (JvmsNodeHeader);
  p = jvms_varint_put (p, csizes[0]);
  p = jvms_varint_put (p, n_frames);
  const guint8 *frame_c = enc->parts + csizes[0];
  for (guint f = 0; f < n_frames; f++)
    {
      p = jvms_varint_put (p, starts[f + 1] - starts[f]);
      p = jvms_varint_put (p, csizes[f + 1]);
      jvms_put_u32le (p, jvms_crc32c (frame_c, csizes[f + 1]));
      p += 4;
      frame_c += csizes[f + 1];
    }
  /* The header's CRC32C covers the table and the head; each frame is covered by its own. */
  gsize covered = (gsize) (p - enc->blob) - sizeof (JvmsNodeHeader) + csizes[0];
  memcpy (p, enc->parts, parts);
  p += parts;
  gsize csize = (gsize) (p - enc->blob) - sizeof (JvmsNodeHeader);
  return seal_blob (enc, csize, covered, usize, level, n_items, start, end);
}

gsize
jvms_node_encode (JvmsNodeEncoder       *enc,
                  const guint32         *keys,
                  guint                  n_attributes,
                  guint32                level,
                  gint64                 start,
                  gint64                 end,
                  const JvmsRawInterval *iv,
                  guint                  n,
                  const JvmsNodeChild   *children,
                  guint                  n_children)
{
  if (enc->n_count < n_attributes)
    {
      guint32 *c = g_new0 (guint32, n_attributes);
      g_free (enc->count);
      enc->count = c;
      enc->n_count = n_attributes;
    }
  gsize cap = enc->n_touched_cap;
  ensure_cap ((void **) &enc->touched, &cap, (gsize) n * 2 + 1, sizeof (guint32));
  enc->n_touched_cap = (guint) cap;
  cap = enc->n_order_cap;
  ensure_cap ((void **) &enc->order, &cap, (gsize) n + 1, sizeof (guint32));
  enc->n_order_cap = (guint) cap;

  /* Counting sort by attribute, stable: within an attribute, insertion (end) order is start
   * order because an attribute's intervals never overlap. */
  guint32 *count = enc->count;
  guint32 *touched = enc->touched;
  guint nt = 0;
  for (guint i = 0; i < n; i++)
    if (count[iv[i].attr]++ == 0)
      touched[nt++] = iv[i].attr;
  /* In attribute order: scanning the counts beats sorting when attributes are few next to
   * the intervals of a node (the usual case); qsort otherwise. */
  if ((gsize) n_attributes <= (gsize) n * 4)
    {
      nt = 0;
      for (guint a = 0; a < n_attributes; a++)
        if (count[a])
          touched[nt++] = a;
    }
  else
    qsort (touched, nt, sizeof (guint32), cmp_u32);
  guint32 *gstart = touched + nt; /* start position of group g, then its end after placing */
  guint32 pos = 0;
  for (guint g = 0; g < nt; g++)
    {
      guint32 c = count[touched[g]];
      count[touched[g]] = pos;
      gstart[g] = pos;
      pos += c;
    }
  for (guint i = 0; i < n; i++)
    enc->order[count[iv[i].attr]++] = i;

  /* The group area first, into its own buffer: the block directory in front of it holds its
   * offsets. */
  gsize worst = 16 + (gsize) nt * 20 + (gsize) n * 30;
  ensure_cap ((void **) &enc->groups, &enc->groups_cap, worst, 1);
  /* A block ends after JVMS_NODE_BLOCK_GROUPS groups, and before and after a group of more than
   * JVMS_NODE_GROUP_ALONE intervals: at most one block a group. */
  gsize dir_cap = enc->n_blocks_cap;
  ensure_cap ((void **) &enc->blocks, &dir_cap, (gsize) nt + 1, sizeof (JvmsNodeBlock));
  enc->n_blocks_cap = (guint) dir_cap;
  guint n_blocks = 0, in_block = 0;
  gboolean prev_alone = FALSE;
  guint8 *q = enc->groups;
  guint32 prev_attr = 0;
  for (guint g = 0; g < nt; g++)
    {
      guint32 a = touched[g];
      guint32 first = gstart[g], last = count[a];
      count[a] = 0; /* leave the scratch zeroed for the next node */
      gboolean alone = last - first > JVMS_NODE_GROUP_ALONE;
      if (g == 0 || in_block == JVMS_NODE_BLOCK_GROUPS || alone || prev_alone)
        {
          enc->blocks[n_blocks++] = (JvmsNodeBlock) { a, (guint32) (q - enc->groups), first, g };
          in_block = 0;
        }
      else
        q = jvms_varint_put (q, a - prev_attr);
      in_block++;
      prev_alone = alone;
      q = jvms_varint_put (q, last - first);
      prev_attr = a;
      gint64 ref = start;
      for (guint32 k = first; k < last; k++)
        {
          const JvmsRawInterval *r = &iv[enc->order[k]];
          gboolean contiguous = k > first && r->start == ref;
          guint8 tag = r->type | (contiguous ? 4 : 0);
          gboolean inline_val = (r->type == JVMS_VALUE_INT || r->type == JVMS_VALUE_STRING) && r->bits <= 30;
          if (inline_val)
            tag |= (guint8) ((r->bits + 1) << 3);
          *q++ = tag;
          if (!contiguous)
            q = jvms_varint_put (q, (guint64) r->start - (guint64) ref);
          q = jvms_varint_put (q, (guint64) r->end - (guint64) r->start);
          if (!inline_val)
            {
              if (r->type == JVMS_VALUE_INT)
                q = jvms_varint_put (q, jvms_zigzag ((gint64) r->bits));
              else if (r->type == JVMS_VALUE_STRING)
                q = jvms_varint_put (q, r->bits);
              else if (r->type == JVMS_VALUE_DOUBLE)
                {
                  jvms_put_u64le (q, r->bits);
                  q += 8;
                }
            }
          ref = r->end;
        }
    }
  gsize area = (gsize) (q - enc->groups);

  worst = 32 + (gsize) n_children * 30 + (gsize) n_blocks * 20 + area;
  ensure_cap ((void **) &enc->payload, &enc->payload_cap, worst, 1);
  guint8 *p = enc->payload;

  p = jvms_varint_put (p, n_children);
  gint64 prev = start;
  for (guint c = 0; c < n_children; c++)
    {
      p = jvms_varint_put (p, (guint64) children[c].start - (guint64) prev);
      p = jvms_varint_put (p, children[c].offset);
      p = jvms_varint_put (p, children[c].csize);
      prev = children[c].start;
    }
  p = jvms_varint_put (p, nt);
  p = jvms_varint_put (p, n_blocks);
  JvmsNodeBlock before = { 0, 0, 0, 0 };
  for (guint k = 0; k < n_blocks; k++)
    {
      const JvmsNodeBlock *e = &enc->blocks[k];
      p = jvms_varint_put (p, e->attr - before.attr);
      p = jvms_varint_put (p, e->offset - before.offset);
      p = jvms_varint_put (p, e->first - before.first);
      p = jvms_varint_put (p, e->group - before.group);
      before = *e;
    }
  enc->head = (gsize) (p - enc->payload);
  memcpy (p, enc->groups, area);
  p += area;
  gsize usize = (gsize) (p - enc->payload);

  /* The frames (format 6): a frame goes on over the next block while that block's first
   * attribute has the frame's first block's object (@keys), or while neither holds a busy group
   * and the frame stays within JVMS_NODE_FRAME_SMALL bytes. */
  g_free (enc->cuts);
  enc->cuts = g_new (guint32, (gsize) n_blocks + 1);
  enc->n_cuts = 0;
  guint f = 0;
  gboolean frame_busy = n_blocks > 0 && block_busy_at (enc->blocks, n_blocks, nt, n, 0);
  for (guint b = 1; b < n_blocks; b++)
    {
      gboolean busy = block_busy_at (enc->blocks, n_blocks, nt, n, b);
      guint32 kf = keys != NULL ? keys[enc->blocks[f].attr] : enc->blocks[f].attr;
      guint32 kb = keys != NULL ? keys[enc->blocks[b].attr] : enc->blocks[b].attr;
      gsize through = (b + 1 < n_blocks ? enc->blocks[b + 1].offset : area) - enc->blocks[f].offset;
      if (kf == kb || (!frame_busy && !busy && through <= JVMS_NODE_FRAME_SMALL))
        frame_busy = frame_busy || busy;
      else
        {
          enc->cuts[enc->n_cuts++] = enc->blocks[b].offset;
          f = b;
          frame_busy = busy;
        }
    }
  return jvms_node_frame (enc, enc->payload, usize, enc->head, enc->cuts, enc->n_cuts, level, n,
                          start, end);
}

static gboolean
read_exact (int fd, void *buf, gsize n, guint64 offset, const char *file, const char *what,
            GError **error)
{
  gsize done = 0;
  while (done < n)
    {
      ssize_t r = pread (fd, (guint8 *) buf + done, n - done, (off_t) (offset + done));
      if (r < 0)
        {
          if (errno == EINTR)
            continue;
          int e = errno;
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO,
                       "%s: reading %s at offset %" G_GUINT64_FORMAT ": %s", file, what,
                       offset, g_strerror (e));
          return FALSE;
        }
      if (r == 0)
        {
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_TRUNCATED,
                       "%s: %s at offset %" G_GUINT64_FORMAT ": file ends after %" G_GSIZE_FORMAT
                       " of its %" G_GSIZE_FORMAT " bytes", file, what, offset, done, n);
          return FALSE;
        }
      done += (gsize) r;
    }
  return TRUE;
}

gboolean
jvms_read_exact (int fd, void *buf, gsize n, guint64 offset, const char *file, const char *what,
                 GError **error)
{
  return read_exact (fd, buf, n, offset, file, what, error);
}

/* Each thread's buffers for a blob being read, kept from one read to the next: every cache miss
 * used to read into two fresh allocations (compressed bytes and payload, up to 150 KiB), and
 * on a virtual machine the page faults of fresh memory cost as much as the lz4 decoding. Both
 * sizes are bounded before use (the payload by the node size, the compressed bytes by lz4's
 * bound for it); freed when the thread ends. */
typedef struct
{
  guint8 *data;
  gsize   size;
} Scratch;

/* Buffers for nodes read and not kept: a few, since a query holds a blob of a level while it
 * reads one of a change list. */
#define TRANSIENT_SLOTS 4

typedef struct
{
  JvmsNode *node;
  gsize     capacity;
} TransientSlot;

typedef struct
{
  Scratch       compressed, payload;
  TransientSlot transient[TRANSIENT_SLOTS];
} BlobScratch;

static void
blob_scratch_free (gpointer data)
{
  BlobScratch *s = data;
  g_free (s->compressed.data);
  g_free (s->payload.data);
  /* The thread is ending: its transient nodes were used and released on it. */
  for (guint i = 0; i < TRANSIENT_SLOTS; i++)
    g_free (s->transient[i].node);
  g_free (s);
}

static GPrivate blob_scratch_key = G_PRIVATE_INIT (blob_scratch_free);

static BlobScratch *
blob_scratch (void)
{
  BlobScratch *s = g_private_get (&blob_scratch_key);
  if (s == NULL)
    {
      s = g_new0 (BlobScratch, 1);
      g_private_set (&blob_scratch_key, s);
    }
  return s;
}

static guint8 *
scratch_reserve (Scratch *s, gsize n)
{
  if (s->size < n)
    {
      g_free (s->data);
      s->data = g_try_malloc (n);
      s->size = s->data ? n : 0;
    }
  return s->data;
}

/* Reads the blob at @offset into @framed (its header and @csize bytes: NULL for this thread's
 * buffer), or finds it in @map (the file mapped, at least data_end bytes: no read, no copy), and
 * checks it: where it lies, its header, its checksum and its payload's size. Returns its
 * compressed bytes (after the header in the buffer or the mapping), NULL on error. */
/* The bytes of a tree node's blob (@cbuf, @csize) that its header's CRC32C covers: its frame
 * table and its head's lz4 block (format 7; each frame has its own, checked when the frame is
 * decompressed, jvms_node_frame_ensure). A table that does not parse within the blob is checked
 * over the whole blob, which a damaged one then fails (CHECKSUM, as before format 7); one that
 * parses but is wrong is CORRUPT at jvms_node_read. */
static gsize
node_covered (const guint8 *cbuf, gsize csize)
{
  const guint8 *t = cbuf, *tend = cbuf + csize;
  guint64 head_csize = 0, n_frames = 0, v = 0;
  if (!jvms_varint_get (&t, tend, &head_csize) || !jvms_varint_get (&t, tend, &n_frames)
      || n_frames > (guint64) (tend - t) / 6)
    return csize;
  for (guint64 f = 0; f < n_frames; f++)
    if (!jvms_varint_get (&t, tend, &v) || !jvms_varint_get (&t, tend, &v) || tend - t < 4)
      return csize;
    else
      t += 4;
  if (head_csize > (guint64) (tend - t))
    return csize;
  return (gsize) (t - cbuf) + (gsize) head_csize;
}

static const guint8 *
blob_load (int             fd,
           const guint8   *map,
           const char     *file,
           guint64         offset,
           guint32         csize,
           guint64         data_end,
           guint32         max_usize,
           gboolean        tree_node,
           gboolean        checked,
           guint8         *framed,
           JvmsNodeHeader *out_header,
           GError        **error)
{
  guint8 hb[sizeof (JvmsNodeHeader)];
  JvmsNodeHeader h;

  if (offset < JVMS_FILE_HEADER_SIZE || offset > data_end ||
      data_end - offset < sizeof (JvmsNodeHeader) ||
      (guint64) csize > data_end - offset - sizeof (JvmsNodeHeader))
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node reference to offset %" G_GUINT64_FORMAT " (%u bytes) lies outside "
                   "the node area [%u, %" G_GUINT64_FORMAT ")",
                   file, offset, csize, JVMS_FILE_HEADER_SIZE, data_end);
      return NULL;
    }
  /* No valid blob compresses worse than lz4's bound for the largest payload; a node's frames
   * (format 6) add their table and an lz4 block's few bytes each, a frame holding a block or
   * more: twice the bound is well beyond what the builder writes, and bounds the allocation. */
  if ((guint64) csize > 2 * (guint64) LZ4_COMPRESSBOUND (max_usize) + 64)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node at offset %" G_GUINT64_FORMAT ": %u compressed bytes exceed what "
                   "a payload of at most %u bytes can take", file, offset, csize, max_usize);
      return NULL;
    }
  const guint8 *src;
  if (map != NULL)
    src = map + offset; /* inside the mapping: the checks above bound it by data_end */
  else
    {
      /* Header and payload in one read: the reference gives the size, and a cold view reads
       * thousands of small blobs, a system call each. */
      if (framed == NULL)
        framed = scratch_reserve (&blob_scratch ()->compressed, sizeof hb + csize);
      if (framed == NULL)
        {
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO,
                       "%s: node at offset %" G_GUINT64_FORMAT ": out of memory", file, offset);
          return NULL;
        }
      if (!read_exact (fd, framed, sizeof hb + csize, offset, file, "node", error))
        return NULL;
      src = framed;
    }
  memcpy (hb, src, sizeof hb);
  const guint8 *cbuf = src + sizeof hb;
  node_header_parse (hb, &h);
  if (h.magic != JVMS_NODE_MAGIC)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node at offset %" G_GUINT64_FORMAT ": bad node magic %08x",
                   file, offset, h.magic);
      return NULL;
    }
  if (h.csize != csize)
    {
      /* Either the reference or the header is damaged; the crc below covers only what the
       * header says, so a mismatch is reported as such. */
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CHECKSUM,
                   "%s: node at offset %" G_GUINT64_FORMAT ": its header says %u compressed "
                   "bytes, its parent %u", file, offset, h.csize, csize);
      return NULL;
    }
  /* @checked: these bytes of the mapping passed this check at an earlier read (the file is
   * mapped read-only and never rewritten in place). */
  guint32 crc = h.crc;
  if (!checked)
    {
      crc = jvms_crc32c (hb + NODE_HEADER_CRC_FROM, sizeof hb - NODE_HEADER_CRC_FROM);
      crc = jvms_crc32c_update (crc, cbuf, tree_node ? node_covered (cbuf, csize) : csize);
    }
  if (crc != h.crc)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CHECKSUM,
                   "%s: node at offset %" G_GUINT64_FORMAT ": checksum mismatch (stored %08x, "
                   "computed %08x)", file, offset, h.crc, crc);
      return NULL;
    }
  if (h.usize > max_usize || h.usize == 0)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node at offset %" G_GUINT64_FORMAT ": payload of %u bytes exceeds the "
                   "node size %u", file, offset, h.usize, max_usize);
      return NULL;
    }
  *out_header = h;
  return cbuf;
}

/* Reads, checks and decompresses the blob at @offset (one lz4 block: a summary blob) into
 * @payload_scratch when given (grown to the payload's size), else into a new allocation. */
static guint8 *
blob_read (int             fd,
           const guint8   *map,
           const char     *file,
           guint64         offset,
           guint32         csize,
           guint64         data_end,
           guint32         max_usize,
           Scratch        *payload_scratch,
           JvmsNodeHeader *out_header,
           GError        **error)
{
  JvmsNodeHeader h;
  if ((guint64) csize > (guint64) LZ4_COMPRESSBOUND (max_usize))
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node at offset %" G_GUINT64_FORMAT ": %u compressed bytes exceed what "
                   "a payload of at most %u bytes can take", file, offset, csize, max_usize);
      return NULL;
    }
  const guint8 *cbuf = blob_load (fd, map, file, offset, csize, data_end, max_usize, FALSE, FALSE,
                                  NULL, &h, error);
  if (cbuf == NULL)
    return NULL;
  guint8 *payload = payload_scratch ? scratch_reserve (payload_scratch, h.usize)
                                    : g_try_malloc (h.usize);
  if (payload == NULL)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO,
                   "%s: node at offset %" G_GUINT64_FORMAT ": out of memory", file, offset);
      return NULL;
    }
  int got = LZ4_decompress_safe ((const char *) cbuf, (char *) payload, (int) csize, (int) h.usize);
  if (got != (int) h.usize)
    {
      if (payload_scratch == NULL)
        g_free (payload);
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node at offset %" G_GUINT64_FORMAT ": lz4 payload does not decompress "
                   "to its %u bytes", file, offset, h.usize);
      return NULL;
    }
  *out_header = h;
  return payload;
}

guint8 *
jvms_blob_read (int             fd,
                const guint8   *map,
                const char     *file,
                guint64         offset,
                guint32         csize,
                guint64         data_end,
                guint32         max_usize,
                JvmsNodeHeader *out_header,
                GError        **error)
{
  return blob_read (fd, map, file, offset, csize, data_end, max_usize, NULL, out_header, error);
}

const guint8 *
jvms_blob_read_scratch (int             fd,
                        const guint8   *map,
                        const char     *file,
                        guint64         offset,
                        guint32         csize,
                        guint64         data_end,
                        guint32         max_usize,
                        JvmsNodeHeader *out_header,
                        GError        **error)
{
  return blob_read (fd, map, file, offset, csize, data_end, max_usize, &blob_scratch ()->payload,
                    out_header, error);
}

#define CORRUPT(...)                                                                        \
  G_STMT_START                                                                              \
  {                                                                                         \
    g_autofree char *what_ = g_strdup_printf (__VA_ARGS__);                                 \
    g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,                     \
                 "%s: node at offset %" G_GUINT64_FORMAT ": %s", file, offset, what_);      \
    goto fail;                                                                              \
  }                                                                                         \
  G_STMT_END

/* Block @b of @node is one group of more than JVMS_NODE_GROUP_ALONE intervals. */
static gboolean
node_block_busy (const JvmsNode *node, guint b)
{
  return jvms_node_block_groups (node, b) == 1
         && node->blocks[b + 1].first - node->blocks[b].first > JVMS_NODE_GROUP_ALONE;
}

JvmsNode *
jvms_node_read (int           fd,
                const guint8 *map,
                const char   *file,
                guint64     offset,
                guint32     csize,
                guint64     data_end,
                guint32     node_size,
                guint       n_attributes,
                guint32     n_strings,
                gboolean    checked,
                GError    **error)
{
  JvmsNodeHeader h;
  JvmsNode *node = NULL;
  /* The blob is read into its own allocation, which the node keeps, or found in the file's
   * mapping: its frames are decompressed from there when first met (format 6); the head
   * (children and block directory) at once, into this thread's buffer. */
  guint8 *payload = NULL;
  if ((guint64) csize > 2 * (guint64) LZ4_COMPRESSBOUND (node_size) + 64
      || (map == NULL && (payload = g_try_malloc (sizeof (JvmsNodeHeader) + (gsize) csize)) == NULL))
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node at offset %" G_GUINT64_FORMAT ": %u compressed bytes exceed what "
                   "a payload of at most %u bytes can take", file, offset, csize, node_size);
      return NULL;
    }
  const guint8 *cbuf = blob_load (fd, map, file, offset, csize, data_end, node_size, TRUE,
                                  checked && map != NULL, payload, &h, error);
  if (cbuf == NULL)
    {
      g_free (payload);
      return NULL;
    }
  const guint8 *stored = cbuf - sizeof (JvmsNodeHeader);

  /* The frame table: the head's compressed size, the frames' sizes. */
  const guint8 *t = cbuf, *tend = cbuf + csize;
  guint64 head_csize = 0, n_frames = 0;
  if (!jvms_varint_get (&t, tend, &head_csize) || !jvms_varint_get (&t, tend, &n_frames)
      || n_frames > (guint64) (tend - t) / 6)
    CORRUPT ("bad frame table");
  const guint8 *frames_at = t;
  guint64 area = 0, frames_csize = 0;
  for (guint64 f = 0; f < n_frames; f++)
    {
      guint64 us = 0, cs = 0;
      if (!jvms_varint_get (&t, tend, &us) || !jvms_varint_get (&t, tend, &cs) || us == 0
          || cs == 0 || us > h.usize || cs > (guint64) LZ4_COMPRESSBOUND ((int) us) || tend - t < 4)
        CORRUPT ("frame %" G_GUINT64_FORMAT " has bad sizes", f);
      t += 4; /* its CRC32C */
      area += us;
      frames_csize += cs;
    }
  if (area >= h.usize || head_csize == 0 || head_csize > (guint64) (tend - t)
      || frames_csize != (guint64) (tend - t) - head_csize)
    CORRUPT ("its frames do not add up to its %u bytes (%u compressed)", h.usize, csize);
  const guint8 *head_c = t;
  guint32 head_usize = h.usize - (guint32) area;
  guint8 *head = scratch_reserve (&blob_scratch ()->payload, head_usize);
  if (head == NULL)
    {
      g_free (payload);
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO,
                   "%s: node at offset %" G_GUINT64_FORMAT ": out of memory", file, offset);
      return NULL;
    }
  if (LZ4_decompress_safe ((const char *) head_c, (char *) head, (int) head_csize, (int) head_usize)
      != (int) head_usize)
    CORRUPT ("its head does not decompress to its %u bytes", head_usize);

  const guint8 *p = head, *pend = head + head_usize;
  guint64 n_children, n_groups, v;

  if (h.level == JVMS_NODE_LEVEL_SUMMARY || h.level > 64)
    CORRUPT ("level %u is not a tree level", h.level);
  if (h.end < h.start)
    CORRUPT ("its range ends (%" G_GINT64_FORMAT ") before it starts (%" G_GINT64_FORMAT ")", h.end, h.start);
  /* Each interval takes at least 2 payload bytes: a bound before allocating from the count. */
  if (h.n_intervals > h.usize / 2)
    CORRUPT ("%u intervals cannot fit in %u bytes", h.n_intervals, h.usize);
  if (!jvms_varint_get (&p, pend, &n_children) || n_children > JVMS_NODE_MAX_CHILDREN ||
      (h.level == 0 && n_children != 0))
    CORRUPT ("bad child count");
  /* Children are parsed after the allocation; skip them to read the group count. */
  const guint8 *children_at = p;
  for (guint64 c = 0; c < n_children * 3; c++)
    if (!jvms_varint_get (&p, pend, &v))
      CORRUPT ("child list runs past the payload");
  if (!jvms_varint_get (&p, pend, &n_groups) || n_groups > h.n_intervals || n_groups > n_attributes)
    CORRUPT ("bad group count");
  /* From one block a group to one every JVMS_NODE_BLOCK_GROUPS groups. */
  guint64 n_blocks = 0;
  if (!jvms_varint_get (&p, pend, &n_blocks) || n_blocks > n_groups
      || n_blocks < (n_groups + JVMS_NODE_BLOCK_GROUPS - 1) / JVMS_NODE_BLOCK_GROUPS)
    CORRUPT ("bad block count");
  /* Each entry takes at least 4 bytes: a bound before allocating from the count. */
  if (n_blocks > (guint64) (pend - p) / 4)
    CORRUPT ("%" G_GUINT64_FORMAT " block entries cannot fit in the payload", n_blocks);
  /* The directory is read once, into the node, after the allocation (the bound above and the
   * payload's size bound that): a pass over it here only to find its end was half of reading a
   * node on a long critical path (docs/benchmarks.md, the fifteenth run). */
  const guint8 *blocks_at = p;
  /* A frame holds a block or more. */
  if (n_frames > n_blocks || (n_blocks > 0 && n_frames == 0))
    CORRUPT ("%" G_GUINT64_FORMAT " frames for %" G_GUINT64_FORMAT " blocks", n_frames, n_blocks);

  gsize bytes = sizeof (JvmsNode) + n_children * sizeof (JvmsNodeChild) +
                (n_blocks + 1) * sizeof (JvmsNodeBlock) + n_blocks * sizeof (gpointer) +
                n_frames * sizeof (JvmsNodeFrame);
  node = g_try_malloc (bytes + area);
  if (node == NULL)
    {
      g_free (payload);
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_IO,
                   "%s: node at offset %" G_GUINT64_FORMAT ": out of memory", file, offset);
      return NULL;
    }
  memset (node, 0, sizeof *node);
  node->ref_count = 1;
  node->offset = offset;
  /* A mapped blob is the page cache's memory, not the node's: not charged. */
  node->bytes = bytes + area + (payload != NULL ? sizeof (JvmsNodeHeader) + csize : 0);
  node->payload_owned = payload != NULL;
  node->payload = stored;
  payload = NULL;
  node->start = h.start;
  node->end = h.end;
  node->level = h.level;
  node->n_intervals = h.n_intervals;
  node->n_children = (guint32) n_children;
  node->n_groups = (guint32) n_groups;
  node->n_blocks = (guint32) n_blocks;
  node->n_attributes = n_attributes;
  node->n_strings = n_strings;
  guint8 *mem = (guint8 *) (node + 1);
  node->children = (JvmsNodeChild *) mem;
  mem += n_children * sizeof (JvmsNodeChild);
  /* Pointers before the 4-byte entries, so that both are aligned. */
  node->memo = (gpointer *) mem;
  memset (node->memo, 0, n_blocks * sizeof (gpointer));
  mem += n_blocks * sizeof (gpointer);
  node->blocks = (JvmsNodeBlock *) mem;
  mem += (n_blocks + 1) * sizeof (JvmsNodeBlock);
  node->frames = (JvmsNodeFrame *) mem;
  node->n_frames = (guint32) n_frames;
  mem += n_frames * sizeof (JvmsNodeFrame);
  node->area = mem;
  {
    const guint8 *ft = frames_at;
    guint32 uoff = 0, coff = (guint32) (head_c + head_csize - node->payload);
    for (guint f = 0; f < n_frames; f++)
      {
        guint64 us = 0, cs = 0;
        jvms_varint_get (&ft, tend, &us);
        jvms_varint_get (&ft, tend, &cs);
        node->frames[f] = (JvmsNodeFrame) { uoff, (guint32) us, coff, (guint32) cs,
                                            jvms_get_u32le (ft), 0 };
        ft += 4;
        uoff += (guint32) us;
        coff += (guint32) cs;
      }
  }

  const guint8 *q = children_at;
  gint64 prev = h.start;
  for (guint c = 0; c < n_children; c++)
    {
      guint64 d = 0, off = 0, cs = 0;
      jvms_varint_get (&q, pend, &d);
      jvms_varint_get (&q, pend, &off);
      jvms_varint_get (&q, pend, &cs);
      if (d > (guint64) h.end - (guint64) prev || (c > 0 && d == 0))
        CORRUPT ("child %u starts outside the node's range", c);
      if (off >= offset || cs == 0 || cs > G_MAXUINT32)
        CORRUPT ("child %u has a bad reference (offset %" G_GUINT64_FORMAT ")", c, off);
      prev = (gint64) ((guint64) prev + d);
      node->children[c].start = prev;
      node->children[c].offset = off;
      node->children[c].csize = (guint32) cs;
    }

  /* The directory: attributes, offsets, first intervals and first groups strictly increasing
   * (a block holds at least one group of one interval), the first block at 0, all inside the
   * area, the intervals and the groups, at most JVMS_NODE_BLOCK_GROUPS groups a block; the
   * sentinel closes the last block. Each block's contents are checked when decoded
   * (jvms_group_reader_next_group). */
  q = blocks_at;
  guint64 attr = 0, at = 0, first = 0, group = 0;
  for (guint b = 0; b < n_blocks; b++)
    {
      guint64 da = 0, doff = 0, dfirst = 0, dgroup = 0;
      /* Unrolled (jvms_varint_get_fast, the same results): a long critical path reads the
       * directories of thousands of nodes, hundreds of blocks each, of offsets of 2 bytes. */
      if (!jvms_varint_get_fast (&q, pend, &da) || !jvms_varint_get_fast (&q, pend, &doff)
          || !jvms_varint_get_fast (&q, pend, &dfirst) || !jvms_varint_get_fast (&q, pend, &dgroup))
        CORRUPT ("block directory runs past the payload");
      if ((b > 0 && (da == 0 || doff == 0 || dfirst == 0 || dgroup == 0))
          || (b == 0 && (doff != 0 || dfirst != 0 || dgroup != 0)))
        CORRUPT ("block %u does not follow the previous one", b);
      if (da >= n_attributes - attr || doff >= area - at || dfirst >= (guint64) h.n_intervals - first
          || dgroup >= n_groups - group || dgroup > JVMS_NODE_BLOCK_GROUPS)
        CORRUPT ("block %u lies outside the node's attributes, bytes, intervals or groups", b);
      attr += da;
      at += doff;
      first += dfirst;
      group += dgroup;
      node->blocks[b] = (JvmsNodeBlock) { (guint32) attr, (guint32) at, (guint32) first, (guint32) group };
    }
  if (q != pend)
    CORRUPT ("%" G_GSIZE_FORMAT " bytes after its block directory", (gsize) (pend - q));
  if (n_blocks == 0 && (area != 0 || h.n_intervals != 0))
    CORRUPT ("no groups, yet %" G_GSIZE_FORMAT " bytes and %u intervals", area, h.n_intervals);
  if (n_blocks > 0 && n_groups - group > JVMS_NODE_BLOCK_GROUPS)
    CORRUPT ("block %u holds more than %u groups", (guint) n_blocks - 1, JVMS_NODE_BLOCK_GROUPS);
  node->blocks[n_blocks] = (JvmsNodeBlock) { G_MAXUINT32, (guint32) area, h.n_intervals, (guint32) n_groups };
  /* A block holds fewer than JVMS_NODE_BLOCK_GROUPS groups, but for the last, only where a busy
   * group cuts it (jvms_node_encode): it is one, or the next block is one. What a read node's
   * blocks may cost in memory is bounded by that (docs/state-history.md). */
  for (guint b = 0; b + 1 < n_blocks; b++)
    if (jvms_node_block_groups (node, b) < JVMS_NODE_BLOCK_GROUPS && !node_block_busy (node, b)
        && !node_block_busy (node, b + 1))
      CORRUPT ("block %u holds %u groups, yet no busy group cuts it", b, jvms_node_block_groups (node, b));
  /* Each frame starts where a block does (the first at 0, as the first block). */
  for (guint f = 0, b = 0; f < node->n_frames; f++)
    {
      while (b < n_blocks && node->blocks[b].offset < node->frames[f].uoff)
        b++;
      if (b == n_blocks || node->blocks[b].offset != node->frames[f].uoff)
        CORRUPT ("frame %u starts inside a block", f);
    }
  return node;

fail:
  if (node != NULL && node->payload_owned)
    g_free ((gpointer) node->payload);
  g_free (node);
  g_free (payload);
  return NULL;
}

#undef CORRUPT
#define CORRUPT(...)                                                                        \
  G_STMT_START                                                                              \
  {                                                                                         \
    g_autofree char *what_ = g_strdup_printf (__VA_ARGS__);                                 \
    g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,                     \
                 "%s: node at offset %" G_GUINT64_FORMAT ": %s", r->file, r->node->offset,  \
                 what_);                                                                    \
    return -1;                                                                              \
  }                                                                                         \
  G_STMT_END

void
jvms_group_reader_init (JvmsGroupReader *r, const JvmsNode *node, const char *file)
{
  memset (r, 0, sizeof *r);
  r->node = node;
  r->file = file;
  r->block = node->n_blocks;
}

#define FRAME_LOCK_BIT 0
#define FRAME_DONE     JVMS_NODE_FRAME_DONE

int
jvms_node_frame_ensure (const JvmsNode *node, guint b, const char *file, GError **error)
{
  if (node->n_frames == 0)
    return 0;
  /* The last frame starting at or before the block. */
  guint32 at = node->blocks[b].offset;
  guint lo = 0, hi = node->n_frames;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (node->frames[mid].uoff <= at)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* Frames and blocks are shared by the threads that query the node: filled once, under the
   * frame's bit lock, then only read. */
  JvmsNodeFrame *f = (JvmsNodeFrame *) &node->frames[lo - 1];
  if (g_atomic_int_get (&f->state) & FRAME_DONE)
    return 0;
  int rc = 0;
  g_bit_lock (&f->state, FRAME_LOCK_BIT);
  if (!(g_atomic_int_get (&f->state) & FRAME_DONE))
    {
      /* Its bytes checked as they are first read (format 7): a damaged frame fails the query
       * that meets it, naming the node and the frame, and the other frames read. */
      guint fi = lo - 1;
      guint64 *word = node->checked != NULL ? &node->checked[fi / 64] : NULL;
      guint64 bit = G_GUINT64_CONSTANT (1) << (fi % 64);
      guint32 crc = word != NULL && (__atomic_load_n (word, __ATOMIC_RELAXED) & bit)
                      ? f->crc
                      : jvms_crc32c (node->payload + f->coff, f->csize);
      if (word != NULL && crc == f->crc)
        __atomic_fetch_or (word, bit, __ATOMIC_RELAXED);
      int got = crc == f->crc ? LZ4_decompress_safe ((const char *) node->payload + f->coff,
                                                     (char *) node->area + f->uoff,
                                                     (int) f->csize, (int) f->usize)
                              : -1;
      if (got == (int) f->usize)
        g_atomic_int_or ((guint *) &f->state, FRAME_DONE);
      else if (crc != f->crc)
        {
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CHECKSUM,
                       "%s: node at offset %" G_GUINT64_FORMAT ": frame %u fails its checksum "
                       "(stored %08x, computed %08x)", file, node->offset, lo - 1, f->crc, crc);
          rc = -1;
        }
      else
        {
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                       "%s: node at offset %" G_GUINT64_FORMAT ": frame %u does not decompress "
                       "to its %u bytes", file, node->offset, lo - 1, f->usize);
          rc = -1;
        }
    }
  g_bit_unlock (&f->state, FRAME_LOCK_BIT);
  return rc;
}

static int
block_enter (JvmsGroupReader *r, guint b, GError **error)
{
  const JvmsNode *n = r->node;
  if (jvms_node_frame_ensure (n, b, r->file, error) < 0)
    return -1;
  r->block = b;
  r->in_block = 0;
  r->p = n->area + n->blocks[b].offset;
  r->block_end = n->area + n->blocks[b + 1].offset;
  r->k = n->blocks[b].first;
  r->block_end_k = n->blocks[b + 1].first;
  r->left = 0;
  return 0;
}

/* The header of the group at r->p; the previous group's intervals are all read. */
static int
group_header (JvmsGroupReader *r, GError **error)
{
  const JvmsNode *n = r->node;
  guint64 d = 0, cnt;
  if (r->in_block == 0)
    r->attr = n->blocks[r->block].attr;
  else if (!jvms_varint_get (&r->p, r->block_end, &d) || d == 0 || d >= n->n_attributes - r->attr)
    CORRUPT ("group %u of block %u has a bad attribute", r->in_block, r->block);
  r->attr += (guint32) d;
  if (!jvms_varint_get (&r->p, r->block_end, &cnt) || cnt == 0 || cnt > r->block_end_k - r->k)
    CORRUPT ("group of attribute %u has a bad count", r->attr);
  r->in_block++;
  r->n_groups++;
  r->left = (guint32) cnt;
  r->ref = n->start;
  return 1;
}

int
jvms_group_reader_next (JvmsGroupReader *r, JvmsRawInterval *out, GError **error)
{
  if (r->left == 0)
    return 0;
  /* One interval through the group's decoding loop. */
  guint32 left = r->left;
  r->left = 1;
  int got = jvms_group_reader_decode (r, &out->start, &out->end, &out->bits, &out->type, error);
  if (got < 0)
    return -1;
  r->left = left - 1;
  out->attr = r->attr;
  return 1;
}
JvmsNode *
jvms_node_transient_new (gsize bytes)
{
  BlobScratch *s = blob_scratch ();
  for (guint i = 0; i < TRANSIENT_SLOTS; i++)
    {
      TransientSlot *t = &s->transient[i];
      if (t->node != NULL && g_atomic_int_get (&t->node->ref_count) != 0)
        continue;
      if (t->capacity < bytes)
        {
          g_free (t->node);
          /* Grown with room to spare: blobs differ in size from one read to the next. */
          t->capacity = MAX (bytes, t->capacity + t->capacity / 2);
          t->node = g_try_malloc (t->capacity);
          if (t->node == NULL)
            {
              t->capacity = 0;
              return NULL;
            }
        }
      return t->node;
    }
  return NULL;
}

JvmsNode *
jvms_node_ref (JvmsNode *node)
{
  g_atomic_int_inc (&node->ref_count);
  return node;
}

void
jvms_node_unref (JvmsNode *node)
{
  if (node && g_atomic_int_dec_and_test (&node->ref_count) && !node->transient)
    {
      if (node->memo != NULL)
        jvms_node_memo_free (node);
      if (node->payload_owned)
        g_free ((gpointer) node->payload);
      if (node->pooled)
        jvms_node_memory_free (node, node->bytes);
      else
        g_free (node);
    }
}

gssize
jvms_node_child_at (const JvmsNode *node, gint64 t)
{
  guint lo = 0, hi = node->n_children;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (node->children[mid].start <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo == 0 ? -1 : (gssize) lo - 1;
}

int
jvms_group_reader_decode (JvmsGroupReader *r, gint64 *starts, gint64 *ends, guint64 *bits,
                          guint8 *types, GError **error)
{
  /* jvms_group_reader_next's loop with the reader's state in locals: a block of the critical
   * path's CPUs holds thousands of intervals, decoded here once each. */
  const JvmsNode *n = r->node;
  const guint8 *p = r->p, *pend = r->block_end;
  gint64 ref = r->ref;
  /* The node's fields in locals: the columns' stores may alias them (gint64s), and the compiler
   * loaded them again at every interval. */
  const guint64 node_end = (guint64) n->end;
  const gint64 node_start = n->start;
  const guint32 n_strings = n->n_strings;
  guint32 k = r->k, j = 0, count = r->left;
  /* One interval's grammar, its varints read by GET. Its range checked in two compares (sd >
   * room, len == 0 or len > room - sd): where sd <= room, len - 1 wraps to the largest value
   * for len == 0. */
#define DECODE_ONE(GET)                                                                             \
      guint8 tag = *p++;                                                                            \
      guint8 type = tag & 3;                                                                        \
      guint small = tag >> 3;                                                                       \
      if (tag & 4)                                                                                  \
        {                                                                                           \
          if (ref == node_start)                                                                    \
            {                                                                                       \
              r->k = k;                                                                             \
              CORRUPT ("interval %u continues nothing", k);                                         \
            }                                                                                       \
        }                                                                                           \
      else if (!GET (&p, pend, &sd))                                                                \
        goto runs_past;                                                                             \
      if (!GET (&p, pend, &len))                                                                    \
        goto runs_past;                                                                             \
      guint64 room = node_end - (guint64) ref;                                                      \
      if (sd > room || len - 1 >= room - sd)                                                        \
        CORRUPT ("interval %u (attribute %u) lies outside the node's range", k, r->attr);           \
      switch (type)                                                                                 \
        {                                                                                           \
        case JVMS_VALUE_INT:                                                                        \
          if (small)                                                                                \
            val = small - 1;                                                                        \
          else if (!GET (&p, pend, &val))                                                           \
            goto runs_past;                                                                         \
          else                                                                                      \
            val = (guint64) jvms_unzigzag (val);                                                    \
          break;                                                                                    \
        case JVMS_VALUE_STRING:                                                                     \
          if (small)                                                                                \
            val = small - 1;                                                                        \
          else if (!GET (&p, pend, &val))                                                           \
            goto runs_past;                                                                         \
          if (val >= n_strings)                                                                     \
            CORRUPT ("interval %u refers to string %" G_GUINT64_FORMAT " of %u", k, val, n_strings);\
          break;                                                                                    \
        case JVMS_VALUE_DOUBLE:                                                                     \
          if (small)                                                                                \
            CORRUPT ("interval %u has a bad tag %02x", k, tag);                                     \
          if (pend - p < 8)                                                                         \
            goto runs_past;                                                                         \
          val = jvms_get_u64le (p);                                                                 \
          p += 8;                                                                                   \
          break;                                                                                    \
        default:                                                                                    \
          if (small)                                                                                \
            CORRUPT ("interval %u has a bad tag %02x", k, tag);                                     \
          break;                                                                                    \
        }                                                                                           \
      gint64 s = (gint64) ((guint64) ref + sd);                                                     \
      starts[j] = s;                                                                                \
      ends[j] = (gint64) ((guint64) s + len);                                                       \
      bits[j] = val;                                                                                \
      types[j] = type;                                                                              \
      ref = ends[j];
  /* While 32 bytes remain, an interval's (a tag, three varints of 10 bytes at most, or two and
   * a double) cannot run past them: no bound checked but the varints' own (a long path decodes
   * millions; docs/benchmarks.md, the fifteenth run). Then the last ones, checked. */
  for (; j < count && pend - p >= 32; j++, k++)
    {
      guint64 sd = 0, len, val = 0;
      DECODE_ONE (jvms_varint_get_roomy)
    }
  for (; j < count; j++, k++)
    {
      guint64 sd = 0, len, val = 0;
      if (p >= pend)
        goto runs_past;
      DECODE_ONE (jvms_varint_get_fast)
    }
#undef DECODE_ONE
  r->p = p;
  r->k = k;
  r->left = 0;
  r->ref = ref;
  return 0;

runs_past:
  CORRUPT ("interval %u runs past its block", k);
}

/* Past one varint within [*pp, end): FALSE when it runs past the end or over 10 bytes. */
static inline gboolean
varint_skip (const guint8 **pp, const guint8 *end)
{
  const guint8 *p = *pp;
  const guint8 *stop = end - p > 10 ? p + 10 : end;
  while (p < stop)
    if (*p++ < 0x80)
      {
        *pp = p;
        return TRUE;
      }
  return FALSE;
}

int
jvms_group_reader_skip (JvmsGroupReader *r, GError **error)
{
  /* jvms_group_reader_decode's grammar without its values: a varint's bytes are passed over,
   * not summed, and times are not checked (the decoding does, when the group is asked). */
  const guint8 *p = r->p, *pend = r->block_end;
  guint32 k = r->k;
  for (guint32 j = 0, count = r->left; j < count; j++, k++)
    {
      if (p >= pend)
        goto runs_past;
      guint8 tag = *p++;
      guint8 type = tag & 3;
      guint small = tag >> 3;
      if (!(tag & 4) && !varint_skip (&p, pend))
        goto runs_past;
      if (!varint_skip (&p, pend))
        goto runs_past;
      switch (type)
        {
        case JVMS_VALUE_INT:
        case JVMS_VALUE_STRING:
          if (!small && !varint_skip (&p, pend))
            goto runs_past;
          break;
        case JVMS_VALUE_DOUBLE:
          if (small)
            CORRUPT ("interval %u has a bad tag %02x", k, tag);
          if (pend - p < 8)
            goto runs_past;
          p += 8;
          break;
        default:
          if (small)
            CORRUPT ("interval %u has a bad tag %02x", k, tag);
          break;
        }
    }
  r->p = p;
  r->k = k;
  r->left = 0;
  return 0;

runs_past:
  CORRUPT ("interval %u runs past its block", k);
}

/* Past the current group's intervals not read. */
static int
group_skip (JvmsGroupReader *r, GError **error)
{
  JvmsRawInterval iv;
  int got;
  while ((got = jvms_group_reader_next (r, &iv, error)) > 0)
    ;
  return got;
}

int
jvms_group_reader_next_group (JvmsGroupReader *r, GError **error)
{
  const JvmsNode *n = r->node;
  if (n->n_blocks == 0)
    return 0;
  if (r->block == n->n_blocks)
    {
      if (block_enter (r, 0, error) < 0)
        return -1;
    }
  else if (group_skip (r, error) < 0)
    return -1;
  if (r->in_block > 0 && r->p == r->block_end)
    {
      /* The block is done: it must have held its groups and intervals exactly. */
      guint want = jvms_node_block_groups (n, r->block);
      if (r->in_block != want || r->k != r->block_end_k)
        CORRUPT ("block %u holds %u groups and %u intervals, its directory %u and %u", r->block,
                 r->in_block, r->k - n->blocks[r->block].first, want,
                 r->block_end_k - n->blocks[r->block].first);
      if (r->block + 1 == n->n_blocks)
        return 0;
      if (n->blocks[r->block + 1].attr <= r->attr)
        CORRUPT ("block %u starts at attribute %u, not after %u", r->block + 1,
                 n->blocks[r->block + 1].attr, r->attr);
      if (block_enter (r, r->block + 1, error) < 0)
        return -1;
    }
  else if (r->in_block == jvms_node_block_groups (n, r->block))
    CORRUPT ("block %u runs on past %u groups", r->block, jvms_node_block_groups (n, r->block));
  return group_header (r, error);
}

guint
jvms_node_blocks_upto (const JvmsNode *node, guint32 attr)
{
  guint lo = 0, hi = node->n_blocks;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (node->blocks[mid].attr <= attr)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

int
jvms_group_reader_seek (JvmsGroupReader *r, guint32 attr, GError **error)
{
  /* The last block starting at or before @attr. */
  guint b = jvms_node_blocks_upto (r->node, attr);
  if (b == 0)
    return 0;
  if (block_enter (r, b - 1, error) < 0)
    return -1;
  for (;;)
    {
      if (group_header (r, error) < 0)
        return -1;
      if (r->attr == attr)
        return 1;
      if (r->attr > attr)
        break;
      if (group_skip (r, error) < 0)
        return -1;
      if (r->p == r->block_end || r->in_block == jvms_node_block_groups (r->node, r->block))
        break;
    }
  r->left = 0; /* not found: no interval to read */
  return 0;
}

int
jvms_node_find (const JvmsNode *node, guint32 attr, gint64 t, const char *file,
                JvmsRawInterval *out, GError **error)
{
  JvmsGroupReader r;
  jvms_group_reader_init (&r, node, file);
  int got = jvms_group_reader_seek (&r, attr, error);
  if (got <= 0)
    return got;
  /* A group's intervals do not overlap and come in start order. */
  while ((got = jvms_group_reader_next (&r, out, error)) > 0 && out->start <= t)
    if (t < out->end)
      return 1;
  return got < 0 ? -1 : 0;
}

gboolean
jvms_node_check_groups (const JvmsNode *node, const char *file, GError **error)
{
  JvmsGroupReader r;
  jvms_group_reader_init (&r, node, file);
  int got;
  while ((got = jvms_group_reader_next_group (&r, error)) > 0)
    ;
  if (got < 0)
    return FALSE;
  /* next_group checked every block it closed; a node without groups has none to close. */
  if (r.n_groups != node->n_groups)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node at offset %" G_GUINT64_FORMAT ": holds %u groups, its payload says %u",
                   file, node->offset, r.n_groups, node->n_groups);
      return FALSE;
    }
  return TRUE;
}
