/* jvms-history-cache.c: decoded nodes kept under a byte budget, shared by every query of a
 * history. One mutex guards the table and the LRU list; it is held only for lookups and
 * inserts, never while reading or decoding a node, so a slow disk read blocks no other query.
 * Two threads that miss on the same node both decode it; the second insert returns the first
 * copy and drops its own. */
#include "jvms-history-private.h"

typedef struct
{
  JvmsNode *node;
  GList     link; /* in lru: head = most recent */
} Entry;

struct _JvmsNodeCache
{
  GMutex      lock;
  gsize       budget;
  gsize       bytes;
  gsize       peak;  /* the most bytes held since the budget was set: what tests bound */
  GHashTable *table; /* guint64* offset (in node) -> Entry* */
  GQueue      lru;
  guint64     hits;
  guint64     misses;
  /* Offsets offered once and not kept (offset + 1; 0 is empty), direct-mapped: a doorkeeper
   * in front of the LRU. Bounded; a collision only forgets an offer. */
  guint64    *offered;
};

/* 64 Ki offers (512 KiB): more than the blobs of a few views' frames. */
#define OFFERED_SLOTS (1u << 16)

static guint
off_hash (gconstpointer p)
{
  guint64 v = *(const guint64 *) p;
  return (guint) (v ^ (v >> 29));
}

static gboolean
off_equal (gconstpointer a, gconstpointer b)
{
  return *(const guint64 *) a == *(const guint64 *) b;
}

JvmsNodeCache *
jvms_node_cache_new (gsize budget)
{
  JvmsNodeCache *c = g_new0 (JvmsNodeCache, 1);
  g_mutex_init (&c->lock);
  c->budget = budget ? budget : JVMS_NODE_CACHE_DEFAULT_BUDGET;
  c->table = g_hash_table_new (off_hash, off_equal);
  g_queue_init (&c->lru);
  c->offered = g_new0 (guint64, OFFERED_SLOTS);
  return c;
}

static void
entry_drop (JvmsNodeCache *c, Entry *e)
{
  g_hash_table_remove (c->table, &e->node->offset);
  g_queue_unlink (&c->lru, &e->link);
  c->bytes -= e->node->bytes + e->node->charged;
  e->node->charged = 0;
  jvms_node_unref (e->node);
  g_free (e);
}

void
jvms_node_cache_drop_all (JvmsNodeCache *c)
{
  g_mutex_lock (&c->lock);
  while (c->lru.tail)
    entry_drop (c, c->lru.tail->data);
  g_mutex_unlock (&c->lock);
}

void
jvms_node_cache_free (JvmsNodeCache *c)
{
  if (c == NULL)
    return;
  jvms_node_cache_drop_all (c);
  g_hash_table_unref (c->table);
  g_free (c->offered);
  g_mutex_clear (&c->lock);
  g_free (c);
}

JvmsNode *
jvms_node_cache_lookup (JvmsNodeCache *c, guint64 offset)
{
  JvmsNode *n = NULL;
  g_mutex_lock (&c->lock);
  Entry *e = g_hash_table_lookup (c->table, &offset);
  if (e)
    {
      g_queue_unlink (&c->lru, &e->link);
      g_queue_push_head_link (&c->lru, &e->link);
      n = jvms_node_ref (e->node);
      c->hits++;
    }
  else
    c->misses++;
  g_mutex_unlock (&c->lock);
  return n;
}

static JvmsNode *insert_locked (JvmsNodeCache *c, JvmsNode *node);

JvmsNode *
jvms_node_cache_insert (JvmsNodeCache *c, JvmsNode *node)
{
  g_mutex_lock (&c->lock);
  JvmsNode *n = insert_locked (c, node);
  g_mutex_unlock (&c->lock);
  return n;
}

/* The two doorkeeper slots of @key (an offset + 1). */
static inline void
offered_slots (guint64 key, guint *s1, guint *s2)
{
  guint64 hash = key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  *s1 = (guint) (hash >> 48) & (OFFERED_SLOTS - 1);
  *s2 = (guint) (hash >> 24) & (OFFERED_SLOTS - 1);
}

/* Moves the offer in @slot to its other slot when that one is empty (one cuckoo step). */
static gboolean
offered_move (JvmsNodeCache *c, guint slot)
{
  guint a1, a2;
  offered_slots (c->offered[slot], &a1, &a2);
  guint alt = a1 == slot ? a2 : a1;
  if (c->offered[alt] != 0)
    return FALSE;
  c->offered[alt] = c->offered[slot];
  c->offered[slot] = 0;
  return TRUE;
}

/* Why: a zoom to a new range reads thousands of summary blobs that the next range will not
 * need; keeping each one cost a fresh allocation, its memory faulted in (6 us a page on the
 * VMs we measure on), and the eviction of something useful, which made a cold frame twice a
 * warm one. A blob needed again (the same range redrawn, a scroll back, a zoom step) is kept
 * from its second read on, as a doorkeeper does in front of an LRU. */
gboolean
jvms_node_cache_admit (JvmsNodeCache *c, guint64 offset)
{
  /* Two slots a blob: with one, two blobs of a range falling in the same slot (a few hundred
   * blobs in 65,536 slots: about an even chance for some pair, depending on the file's layout)
   * pushed each other out and neither was ever kept. Where both are taken, the offer in one of
   * them moves to its own other slot when that is free: three blobs meeting on two slots (a
   * layout of format 7 in test /history/summary-cache-admission) otherwise forgot one. */
  guint64 key = offset + 1;
  guint s1, s2;
  offered_slots (key, &s1, &s2);
  gboolean admit = TRUE;
  g_mutex_lock (&c->lock);
  if (c->offered[s1] == key)
    c->offered[s1] = 0;
  else if (c->offered[s2] == key)
    c->offered[s2] = 0;
  else
    {
      admit = FALSE;
      guint s = c->offered[s1] == 0 || c->offered[s2] != 0 ? s1 : s2;
      if (c->offered[s] != 0 && !offered_move (c, s) && s == s1 && offered_move (c, s2))
        s = s2;
      c->offered[s] = key;
    }
  g_mutex_unlock (&c->lock);
  return admit;
}

static JvmsNode *
insert_locked (JvmsNodeCache *c, JvmsNode *node)
{
  JvmsNode *n;
  Entry *e = g_hash_table_lookup (c->table, &node->offset);
  if (e)
    n = jvms_node_ref (e->node);
  else
    {
      /* Evict before inserting; a node larger than the whole budget is returned uncached. */
      while (c->lru.tail && c->bytes + node->bytes > c->budget)
        entry_drop (c, c->lru.tail->data);
      n = jvms_node_ref (node);
      if (node->bytes <= c->budget)
        {
          e = g_new0 (Entry, 1);
          e->node = jvms_node_ref (node);
          e->link.data = e;
          g_hash_table_insert (c->table, &e->node->offset, e);
          g_queue_push_head_link (&c->lru, &e->link);
          c->bytes += node->bytes;
          c->peak = MAX (c->peak, c->bytes);
        }
    }
  return n;
}

/* A smaller budget evicts at once, least recently used first; nodes that queries still hold
 * stay alive through their own references. */
void
jvms_node_cache_set_budget (JvmsNodeCache *c, gsize budget)
{
  g_mutex_lock (&c->lock);
  c->budget = budget ? budget : JVMS_NODE_CACHE_DEFAULT_BUDGET;
  while (c->lru.tail && c->bytes > c->budget)
    entry_drop (c, c->lru.tail->data);
  c->peak = c->bytes;
  g_mutex_unlock (&c->lock);
}

void
jvms_node_cache_stats (JvmsNodeCache *c, guint64 *hits, guint64 *misses, gsize *bytes)
{
  g_mutex_lock (&c->lock);
  if (hits)
    *hits = c->hits;
  if (misses)
    *misses = c->misses;
  if (bytes)
    *bytes = c->bytes;
  g_mutex_unlock (&c->lock);
}

void
jvms_node_cache_limits (JvmsNodeCache *c, gsize *budget, gsize *peak)
{
  g_mutex_lock (&c->lock);
  *budget = c->budget;
  *peak = c->peak;
  g_mutex_unlock (&c->lock);
}

/* Only a node the cache holds is charged: one it let go lives on through the queries holding it,
 * and what they decode into it is freed with their last reference. That memory is bounded by
 * the nodes a query holds at once (one path from the root) and a node's payload
 * (docs/state-history.md, "Memory of a node the cache let go while a query held it"). */
void
jvms_node_cache_charge (JvmsNodeCache *c, JvmsNode *node, gsize bytes)
{
  g_mutex_lock (&c->lock);
  Entry *e = g_hash_table_lookup (c->table, &node->offset);
  if (e != NULL && e->node == node)
    {
      node->charged += bytes;
      c->bytes += bytes;
      /* The node itself may go too: the query holding it keeps it alive until it is done. */
      while (c->lru.tail && c->bytes > c->budget)
        entry_drop (c, c->lru.tail->data);
      c->peak = MAX (c->peak, c->bytes);
    }
  g_mutex_unlock (&c->lock);
}
