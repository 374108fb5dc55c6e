/* jvms-history-node-memo.c: the groups of a read node that queries of a few attributes ask
 * for again and again, decoded once and kept with the node.
 *
 * Why: a node keeps its group area as stored so that a query decodes only the groups it asks
 * for (jvms-history-format.h), but the critical path asks a thread's few attributes over short
 * windows hundreds of times in the same nodes; decoding a group from its start at each query
 * cost twice what decoding the whole node once did. So a block's groups are indexed (attribute,
 * where each starts) the first time a query seeks into the block, and a group is decoded into
 * columns the first time it is asked for; later queries find an attribute by a binary search
 * over the blocks and a scan of at most JVMS_NODE_BLOCK_GROUPS attributes, and its first
 * interval in the range by a binary search, as over the fully decoded nodes before. Only
 * what is asked is kept, charged to the node cache (jvms_node_cache_charge, by the caller: once
 * a query, not once a group).
 *
 * A node is shared by the threads that query it, so each slot is filled once by a
 * compare-and-exchange; a thread that loses the race frees its copy and uses the winner's. */
#include "jvms-history-private.h"

typedef struct
{
  guint             n_groups;
  guint32           attr[JVMS_NODE_BLOCK_GROUPS];
  JvmsGroupMark     mark[JVMS_NODE_BLOCK_GROUPS];
  JvmsGroupColumns *cols[JVMS_NODE_BLOCK_GROUPS]; /* atomic, NULL until asked */
} MemoBlock;

void
jvms_node_memo_free (JvmsNode *node)
{
  for (guint b = 0; b < node->n_blocks; b++)
    {
      MemoBlock *m = node->memo[b];
      if (m == NULL)
        continue;
      for (guint g = 0; g < m->n_groups; g++)
        g_free (m->cols[g]);
      g_free (m);
    }
}

/* Block @b's groups indexed: every group header and interval of the block is read (and so
 * checked) once. */
static MemoBlock *
memo_block (JvmsNode *node, guint b, const char *file, gsize *charge, GError **error)
{
  MemoBlock *m = g_atomic_pointer_get (&node->memo[b]);
  if (m != NULL)
    return m;
  m = g_new0 (MemoBlock, 1);
  JvmsGroupReader r;
  jvms_group_reader_init (&r, node, file);
  /* Enter the block as a seek does: by its first attribute. */
  int got = jvms_group_reader_seek (&r, node->blocks[b].attr, error);
  while (got > 0 && r.block == b)
    {
      m->attr[m->n_groups] = r.attr;
      jvms_group_reader_mark (&r, &m->mark[m->n_groups]);
      m->n_groups++;
      JvmsRawInterval iv;
      while ((got = jvms_group_reader_next (&r, &iv, error)) > 0)
        ;
      if (got < 0 || r.p == r.block_end || r.in_block == JVMS_NODE_BLOCK_GROUPS)
        break;
      got = jvms_group_reader_next_group (&r, error);
    }
  if (got < 0)
    {
      g_free (m);
      return NULL;
    }
  /* The block read to its end: its groups and intervals as the directory says. */
  guint want = b + 1 < node->n_blocks ? JVMS_NODE_BLOCK_GROUPS
                                      : node->n_groups - b * JVMS_NODE_BLOCK_GROUPS;
  if (m->n_groups != want || r.p != r.block_end || r.k != r.block_end_k)
    {
      g_free (m);
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: node at offset %" G_GUINT64_FORMAT ": block %u does not hold the %u "
                   "groups and %u intervals its directory says", file, node->offset, b, want,
                   node->blocks[b + 1].first - node->blocks[b].first);
      return NULL;
    }
  if (!g_atomic_pointer_compare_and_exchange (&node->memo[b], NULL, m))
    {
      g_free (m);
      return g_atomic_pointer_get (&node->memo[b]);
    }
  *charge += sizeof *m;
  return m;
}

static JvmsGroupColumns *
columns_decode (JvmsNode *node, const JvmsGroupMark *mark, const char *file, GError **error)
{
  gsize n = mark->count;
  JvmsGroupColumns *c = g_malloc (sizeof *c + n * (8 + 8 + 8 + 1));
  c->n = (guint32) n;
  c->starts = (gint64 *) (c + 1);
  c->ends = c->starts + n;
  c->bits = (guint64 *) (c->ends + n);
  c->types = (guint8 *) (c->bits + n);
  JvmsGroupReader r;
  jvms_group_reader_restore (&r, node, file, mark);
  JvmsRawInterval iv;
  int got;
  guint k = 0;
  while ((got = jvms_group_reader_next (&r, &iv, error)) > 0)
    {
      c->starts[k] = iv.start;
      c->ends[k] = iv.end;
      c->bits[k] = iv.bits;
      c->types[k] = iv.type;
      k++;
    }
  if (got < 0)
    {
      g_free (c);
      return NULL;
    }
  return c;
}

int
jvms_node_memo_group (JvmsNode *node, guint32 attr, const char *file, gsize *charge,
                      const JvmsGroupColumns **out, GError **error)
{
  /* The last block starting at or before @attr. */
  guint b = jvms_node_blocks_upto (node, attr);
  if (b == 0)
    return 0;
  MemoBlock *m = memo_block (node, b - 1, file, charge, error);
  if (m == NULL)
    return -1;
  guint g = 0;
  while (g < m->n_groups && m->attr[g] < attr)
    g++;
  if (g == m->n_groups || m->attr[g] != attr)
    return 0;
  JvmsGroupColumns *c = g_atomic_pointer_get (&m->cols[g]);
  if (c == NULL)
    {
      c = columns_decode (node, &m->mark[g], file, error);
      if (c == NULL)
        return -1;
      if (g_atomic_pointer_compare_and_exchange (&m->cols[g], NULL, c))
        *charge += sizeof *c + (gsize) c->n * 25;
      else
        {
          g_free (c);
          c = g_atomic_pointer_get (&m->cols[g]);
        }
    }
  *out = c;
  return 1;
}
