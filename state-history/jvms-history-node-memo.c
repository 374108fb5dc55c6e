/* jvms-history-node-memo.c: the groups of a read node that queries of a few attributes ask
 * for again and again, decoded once and kept with the node.
 *
 * Why: a node keeps its group area as stored so that a query decodes only the groups it asks
 * for (jvms-history-format.h), but the critical path asks a thread's few attributes over short
 * windows hundreds of times in the same nodes; decoding a group from its start at each query
 * cost twice what decoding the whole node once did. So a block (JVMS_NODE_BLOCK_GROUPS groups)
 * is decoded into columns the first time a query seeks into it: reaching a group means reading
 * the groups before it in its block anyway, and the critical path's CPUs hold most of a node's
 * intervals, which it wants. Later queries find an attribute by a binary search over the blocks
 * and a scan of at most JVMS_NODE_BLOCK_GROUPS attributes, and the first interval in the range
 * by a binary search, as over the fully decoded nodes before. Only the blocks asked are kept,
 * charged to the node cache (jvms_node_cache_charge, by the caller: once a query, not once a
 * block).
 *
 * A block's groups are decoded when asked, not all at its first ask: a seek into the block passes
 * over the groups it does not want (their structure checked, their values not read: under half
 * the work), and remembers where each starts; a group of a few intervals is decoded anyway. A
 * thread's windows on the critical path ask 8 of its attributes, and the blocks they landed in
 * held its busy switch counters and the next thread's states: on the long path of
 * bench/causality, two thirds of the 9.9 M intervals its blocks held were not asked, and
 * passing over them was a quarter of the path's instructions. Since format 5 a busy group (more
 * than JVMS_NODE_GROUP_ALONE intervals) is a block of its own, met only when asked; the groups
 * passed over are the few small ones of a block of many. A query of a whole block (a full
 * query, a range of many attributes) decodes the groups as it goes, in the same one pass.
 *
 * A node is shared by the threads that query it, so each block slot is filled once by a
 * compare-and-exchange (a thread that loses the race frees its copy and uses the winner's), and
 * each group is decoded once under a bit lock of its own; a group decoded is never written
 * again. */
#include "jvms-history-private.h"

/* A group's state bits: decoded (its columns hold its intervals), and the lock its decoding
 * holds. */
#define GROUP_LOCK_BIT 0
#define GROUP_DONE     2

/* A group of at most this many intervals is decoded when its block is first met even if not
 * asked: passing over it saves little, and decoding it later costs a call and a lock (on
 * bench/history's 1,000 attributes, a few intervals a group, its queries took 20 % more
 * instructions when every group not asked was passed over). The busy groups the critical path
 * passes over hold hundreds. */
#define GROUP_EAGER 32

typedef struct
{
  guint            n_groups;
  guint32          attr[JVMS_NODE_BLOCK_GROUPS];
  const guint8    *at[JVMS_NODE_BLOCK_GROUPS];    /* where its intervals start in the area */
  guint32          first[JVMS_NODE_BLOCK_GROUPS]; /* node-wide index of its first interval */
  gint             state[JVMS_NODE_BLOCK_GROUPS]; /* GROUP_DONE and the lock bit */
  JvmsGroupColumns cols[JVMS_NODE_BLOCK_GROUPS];  /* views into the block's columns below */
} MemoBlock;

/* A node's blocks after its first are carved from chunks of its own, freed with it: a malloc
 * and a free for each block decoded (5.6 a node on bench/causality's p99 question, tens of
 * kilobytes each) were 8 % of a long critical path's CPU (docs/benchmarks.md, the twelfth
 * run), most of it glibc's search of its bins for blocks of that size and its merging of them
 * when freed. A node's first block, and a block of MEMO_ALONE bytes or more, has a chunk of its
 * own, of its size: a node a query asks one block of (a view's few attributes) holds no more
 * than before. The chunks are charged to the node cache whole. */
#define MEMO_CHUNK (128 * 1024)
#define MEMO_ALONE (MEMO_CHUNK / 2)

typedef struct MemoChunk MemoChunk;
struct MemoChunk
{
  MemoChunk *next;
  gsize      used, size;  /* bytes after the header */
  gsize      pad;         /* the header a multiple of 16 bytes */
};

void
jvms_node_memo_free (JvmsNode *node)
{
  for (MemoChunk *c = node->memo_arena, *next; c != NULL; c = next)
    {
      next = c->next;
      g_free (c);
    }
  node->memo_arena = NULL;
}

/* @bytes of @node's chunks (16-byte aligned), the bytes of any new chunk added to @charge. The
 * first chunk is the one carved from (MEMO_CHUNK bytes) once there is one. */
static gpointer
memo_alloc (JvmsNode *node, gsize bytes, gsize *charge)
{
  bytes = (bytes + 15) & ~(gsize) 15;
  g_bit_lock (&node->memo_lock, 0);
  MemoChunk *c = node->memo_arena;
  gboolean carve = c != NULL && bytes < MEMO_ALONE;
  gpointer out;
  if (carve && c->size - c->used >= bytes)
    {
      out = (guint8 *) (c + 1) + c->used;
      c->used += bytes;
    }
  else
    {
      gsize size = carve ? MEMO_CHUNK : bytes;
      MemoChunk *n = g_malloc (sizeof *n + size);
      n->used = bytes;
      n->size = size;
      *charge += sizeof *n + size;
      if (carve || c == NULL)
        {
          n->next = c;
          node->memo_arena = n;
        }
      else
        {
          /* A block alone goes behind the chunk being carved, which stays first. */
          n->next = c->next;
          c->next = n;
        }
      out = n + 1;
    }
  g_bit_unlock (&node->memo_lock, 0);
  return out;
}

/* Gives back @m (@bytes, from memo_alloc) where it was the last carved, or frees its chunk where
 * it had one of its own: a damaged block read again at every query must not grow its node's
 * chunks. Returns the bytes of a chunk freed (memo_alloc charged them). */
static gsize
memo_unalloc (JvmsNode *node, gpointer m, gsize bytes)
{
  bytes = (bytes + 15) & ~(gsize) 15;
  MemoChunk *freed = NULL;
  g_bit_lock (&node->memo_lock, 0);
  MemoChunk *c = node->memo_arena;
  if (c != NULL && (gpointer) (c + 1) == m && c->used == bytes && c->size == bytes)
    {
      node->memo_arena = c->next;
      freed = c;
    }
  else if (c != NULL && (guint8 *) (c + 1) + c->used == (guint8 *) m + bytes)
    c->used -= bytes;
  else if (c != NULL && c->next != NULL && (gpointer) (c->next + 1) == m)
    {
      freed = c->next;
      c->next = freed->next;
    }
  g_bit_unlock (&node->memo_lock, 0);
  gsize size = freed != NULL ? sizeof *freed + freed->size : 0;
  g_free (freed);
  return size;
}

/* A reader on group @g of block @b, as the seek left it at the group's first interval. */
static void
reader_at (JvmsGroupReader *r, JvmsNode *node, const char *file, guint b, const MemoBlock *m,
           guint g)
{
  jvms_group_reader_init (r, node, file);
  r->block = b;
  r->in_block = g + 1;
  r->p = m->at[g];
  r->block_end = node->area + node->blocks[b + 1].offset;
  r->k = m->first[g];
  r->block_end_k = node->blocks[b + 1].first;
  r->attr = m->attr[g];
  r->left = m->cols[g].n;
  r->ref = node->start;
}

/* Group @g of @m decoded into its columns, once (group_decode's slow path). */
G_GNUC_NO_INLINE static int
group_decode_locked (JvmsNode *node, guint b, MemoBlock *m, guint g, const char *file,
                     GError **error)
{
  g_bit_lock (&m->state[g], GROUP_LOCK_BIT);
  int got = 0;
  if (!(g_atomic_int_get (&m->state[g]) & GROUP_DONE))
    {
      JvmsGroupReader r;
      reader_at (&r, node, file, b, m, g);
      JvmsGroupColumns *c = &m->cols[g];
      got = jvms_group_reader_decode (&r, c->starts, c->ends, c->bits, c->types, error);
      if (got == 0)
        g_atomic_int_or ((guint *) &m->state[g], GROUP_DONE);
    }
  g_bit_unlock (&m->state[g], GROUP_LOCK_BIT);
  return got;
}

static inline int
group_decode (JvmsNode *node, guint b, MemoBlock *m, guint g, const char *file, GError **error)
{
  if (g_atomic_int_get (&m->state[g]) & GROUP_DONE)
    return 0;
  return group_decode_locked (node, b, m, g, file, error);
}

/* Block @b's groups found (and, with @decode, decoded; else those of the @n_asked attributes of
 * @asked, increasing, and the small ones), every group header and interval of the block read
 * (and so its structure checked) once, into one allocation: the MemoBlock, then the block's
 * columns. */
static MemoBlock *
memo_block (JvmsNode *node, guint b, gboolean decode, const guint32 *asked, guint n_asked,
            const char *file, gsize *charge, GError **error)
{
  MemoBlock *m = g_atomic_pointer_get (&node->memo[b]);
  if (m != NULL)
    return m;
  /* The directory gives the block's interval count: at most the node's, which the payload's
   * size bounds (jvms_node_read). */
  gsize n = node->blocks[b + 1].first - node->blocks[b].first;
  gsize bytes = sizeof *m + n * (8 + 8 + 8 + 1);
  gsize carved = 0;
  m = memo_alloc (node, bytes, &carved);
  memset (m, 0, sizeof *m); /* the columns are written when their groups are decoded */
  gint64 *starts = (gint64 *) (m + 1);
  gint64 *ends = starts + n;
  guint64 *bits = (guint64 *) (ends + n);
  guint8 *types = (guint8 *) (bits + n);
  JvmsGroupReader r;
  jvms_group_reader_init (&r, node, file);
  /* Enter the block as a seek does: by its first attribute. */
  int got = jvms_group_reader_seek (&r, node->blocks[b].attr, error);
  gsize k = 0;
  while (got > 0 && r.block == b)
    {
      guint g = m->n_groups++;
      JvmsGroupColumns *c = &m->cols[g];
      m->attr[g] = r.attr;
      m->at[g] = r.p;
      m->first[g] = r.k;
      c->starts = starts + k;
      c->ends = ends + k;
      c->bits = bits + k;
      c->types = types + k;
      /* The reader refuses a group count past the block's intervals: k stays below n. */
      c->n = r.left;
      while (n_asked > 0 && *asked < r.attr)
        asked++, n_asked--;
      if (decode || c->n <= GROUP_EAGER || (n_asked > 0 && *asked == r.attr))
        {
          if (jvms_group_reader_decode (&r, starts + k, ends + k, bits + k, types + k, error) < 0)
            {
              got = -1;
              break;
            }
          m->state[g] = GROUP_DONE;
        }
      else if (jvms_group_reader_skip (&r, error) < 0)
        {
          got = -1;
          break;
        }
      k += c->n;
      if (r.p == r.block_end || r.in_block == jvms_node_block_groups (node, b))
        break;
      got = jvms_group_reader_next_group (&r, error);
    }
  if (got < 0)
    {
      *charge += carved - memo_unalloc (node, m, bytes);
      return NULL;
    }
  /* The block read to its end: its groups and intervals as the directory says. */
  guint want = jvms_node_block_groups (node, b);
  if (m->n_groups != want || r.p != r.block_end || k != n)
    {
      *charge += carved - memo_unalloc (node, m, bytes);
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node at offset %" G_GUINT64_FORMAT ": block %u does not hold the %u "
                   "groups and %" G_GSIZE_FORMAT " intervals its directory says", file,
                   node->offset, b, want, n);
      return NULL;
    }
  if (!g_atomic_pointer_compare_and_exchange (&node->memo[b], NULL, m))
    {
      /* Another thread decoded the block first: this copy given back where it can be. */
      *charge += carved - memo_unalloc (node, m, bytes);
      return g_atomic_pointer_get (&node->memo[b]);
    }
  *charge += carved;
  return m;
}

/* Block @b holds one group (a busy one, format 5) and it is not @attr's: the directory says
 * so without reading the block, which a seek of an attribute the node lacks would otherwise
 * index (and pass over the busy group) for nothing. */
static inline gboolean
block_lacks (const JvmsNode *node, guint b, guint32 attr)
{
  return jvms_node_block_groups (node, b) == 1 && node->blocks[b].attr != attr;
}

int
jvms_node_memo_group (JvmsNode *node, guint32 attr, const char *file, gsize *charge,
                      const JvmsGroupColumns **out, GError **error)
{
  /* The last block starting at or before @attr. */
  guint b = jvms_node_blocks_upto (node, attr);
  if (b == 0 || block_lacks (node, b - 1, attr))
    return 0;
  MemoBlock *m = memo_block (node, b - 1, FALSE, &attr, 1, file, charge, error);
  if (m == NULL)
    return -1;
  guint g = 0;
  while (g < m->n_groups && m->attr[g] < attr)
    g++;
  if (g == m->n_groups || m->attr[g] != attr)
    return 0;
  if (group_decode (node, b - 1, m, g, file, error) < 0)
    return -1;
  *out = &m->cols[g];
  return 1;
}

int
jvms_node_memo_block (JvmsNode *node, guint b, const char *file, gsize *charge,
                      const guint32 **attrs, const JvmsGroupColumns **cols, GError **error)
{
  MemoBlock *m = memo_block (node, b, TRUE, NULL, 0, file, charge, error);
  if (m == NULL)
    return -1;
  for (guint g = 0; g < m->n_groups; g++)
    if (group_decode (node, b, m, g, file, error) < 0)
      return -1;
  *attrs = m->attr;
  *cols = m->cols;
  return (int) m->n_groups;
}

int
jvms_node_memo_set (JvmsNode *node, const guint32 *set, guint n_set, const char *file,
                    gsize *charge, const JvmsGroupColumns **cols, GError **error)
{
  for (guint i = 0; i < n_set; i++)
    {
      cols[i] = NULL;
      guint b = jvms_node_blocks_upto (node, set[i]);
      if (b == 0 || block_lacks (node, b - 1, set[i]))
        continue;
      /* The attributes asked after this one that the block holds are decoded as it is read. */
      MemoBlock *m = memo_block (node, b - 1, FALSE, set + i, n_set - i, file, charge, error);
      if (m == NULL)
        return -1;
      guint g = 0;
      while (g < m->n_groups && m->attr[g] < set[i])
        g++;
      if (g == m->n_groups || m->attr[g] != set[i])
        continue;
      if (group_decode (node, b - 1, m, g, file, error) < 0)
        return -1;
      cols[i] = &m->cols[g];
    }
  return 0;
}
