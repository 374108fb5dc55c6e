/* jvms-history-private.h: what the files of state-history/ share; not installed, not API. */
#pragma once

#include "jvms-history.h"
#include "jvms-history-format.h"
#include "jvms-history-varint.h"

#include <string.h>

G_BEGIN_DECLS

/* ---- checksums (jvms-history-crc.c) ---- */
guint32 jvms_crc32c        (const void *data, gsize n);
guint32 jvms_crc32c_update (guint32 crc, const void *data, gsize n);

/* ---- values ---- */
/* A value as stored: the type and 64 bits (int, double bits, or string id). */
typedef struct
{
  guint64 bits;
  guint8  type;
} JvmsRawValue;

static inline gboolean
jvms_raw_value_equal (guint8 ta, guint64 a, guint8 tb, guint64 b)
{
  return ta == tb && (ta == JVMS_VALUE_NULL || a == b);
}

/* ---- attribute tree (jvms-history-attrs.c) ---- */
typedef struct _JvmsAttrTree JvmsAttrTree;

JvmsAttrTree  *jvms_attr_tree_new        (void);
void           jvms_attr_tree_free       (JvmsAttrTree *tree);
guint          jvms_attr_tree_size       (JvmsAttrTree *tree);
JvmsAttribute  jvms_attr_tree_lookup     (JvmsAttrTree *tree, JvmsAttribute parent, const char *name, gsize len);
/* Returns the existing child or creates it. *created is set when it did. */
JvmsAttribute  jvms_attr_tree_ensure     (JvmsAttrTree *tree, JvmsAttribute parent, const char *name, gsize len, gboolean *created);
JvmsAttribute  jvms_attr_tree_lookup_path (JvmsAttrTree *tree, const char *path);
JvmsAttribute  jvms_attr_tree_parent     (JvmsAttrTree *tree, JvmsAttribute a);
const char    *jvms_attr_tree_name       (JvmsAttrTree *tree, JvmsAttribute a);
char          *jvms_attr_tree_path_of    (JvmsAttrTree *tree, JvmsAttribute a);
GArray        *jvms_attr_tree_children   (JvmsAttrTree *tree, JvmsAttribute parent);
GBytes        *jvms_attr_tree_serialize  (JvmsAttrTree *tree);
JvmsAttrTree  *jvms_attr_tree_deserialize (const guint8 *data, gsize size, const char *file, guint64 offset, GError **error);

/* ---- string table (jvms-history-strings.c) ---- */
typedef struct _JvmsStringTable JvmsStringTable;

JvmsStringTable *jvms_string_table_new        (void);
void             jvms_string_table_free       (JvmsStringTable *st);
guint32          jvms_string_table_intern     (JvmsStringTable *st, const char *s);
/* NULL when out of range. The pointer is stable for the table's life. */
/* The id of an interned string, G_MAXUINT32 when absent. */
guint32          jvms_string_table_lookup     (JvmsStringTable *st, const char *s);
const char      *jvms_string_table_get        (JvmsStringTable *st, guint32 id);
guint32          jvms_string_table_size       (JvmsStringTable *st);
GBytes          *jvms_string_table_serialize  (JvmsStringTable *st);
JvmsStringTable *jvms_string_table_deserialize (const guint8 *data, gsize size, const char *file, guint64 offset, GError **error);

/* ---- nodes (jvms-history-node.c) ---- */
typedef struct
{
  gint64  start;
  guint64 offset; /* of the child's JvmsNodeHeader */
  guint32 csize;
} JvmsNodeChild;

/* An interval as the builder keeps it before a node is encoded. */
typedef struct
{
  gint64  start;
  gint64  end;
  guint64 bits;
  guint32 attr;
  guint8  type;
} JvmsRawInterval;

/* One entry of a node's block directory (jvms-history-format.h): the block's first attribute,
 * its byte offset in the group area, the index of its first interval and of its first group. */
typedef struct
{
  guint32 attr;
  guint32 offset;
  guint32 first;
  guint32 group;
} JvmsNodeBlock;

/* One lz4 frame of a read node's group area (format 6, jvms-history-format.h): area bytes
 * [uoff, uoff + usize), compressed at [coff, coff + csize) of the node's blob with the CRC32C
 * @crc (format 7); checked and decompressed once, under a bit lock of @state, the first time a
 * reader enters one of its blocks. */
typedef struct
{
  guint32 uoff, usize;
  guint32 coff, csize;
  guint32 crc;
  gint    state; /* JVMS_NODE_FRAME_DONE once decompressed, and the lock bit 0 */
} JvmsNodeFrame;
#define JVMS_NODE_FRAME_DONE 2

/* A read node: its children and block directory decoded and checked, its group area kept as
 * stored (decompressed) and decoded group by group when a query asks (JvmsGroupReader), so
 * that a query of a few attributes decodes only theirs. One allocation; shared through the
 * cache by reference count. Immutable once read, so readers need no lock. */
typedef struct
{
  gint           ref_count;
  guint64        offset;
  gsize          bytes; /* memory held, charged to the cache */
  gint64         start;
  gint64         end;
  guint32        level;
  guint32        n_intervals;
  guint32        n_children;
  guint32        n_groups;
  guint32        n_blocks;
  guint32        n_attributes; /* of the history, and its strings: the bounds a group is checked */
  guint32        n_strings;    /* against when decoded */
  JvmsNodeChild *children;
  JvmsNodeBlock *blocks;      /* n_blocks + 1: the last is {G_MAXUINT32, area size, n_intervals,
                                 n_groups} */
  guint8        *area;        /* the group area: a read node's frames are decompressed into it
                                 when a reader first enters one of their blocks
                                 (jvms_node_frame_ensure) */
  const guint8  *payload;     /* a read node's blob as stored (its frames compressed): in the
                                 file's mapping, or a copy freed with the node (@payload_owned);
                                 NULL for others */
  gboolean       payload_owned;
  JvmsNodeFrame *frames;      /* n_frames: the group area's lz4 frames (format 6) */
  guint32        n_frames;
  guint64       *checked;     /* bit f (atomic): frame f's CRC32C matched in this or an earlier
                                 read of the node from the mapping (the history's, not owned;
                                 NULL where not kept) */
  gpointer      *memo;        /* n_blocks slots (atomic): a block's groups decoded once for the
                                 queries of a few attributes (jvms-history-node-memo.c) */
  gpointer       memo_arena;  /* the chunks the memo's blocks are carved from, freed with the
                                 node (jvms-history-node-memo.c) */
  gint           memo_lock;   /* bit 0: held while a block is carved */
  gsize          charged;     /* memo bytes charged to the cache (under its lock) */
  gpointer       buckets;     /* summary blobs: their runs (Blob, jvms-history-summary-private.h) */
  gboolean       transient;   /* from jvms_node_transient_new: not freed by the last unref */
  gboolean       pooled;      /* from jvms_node_memory_alloc (@bytes of it), not g_malloc */
} JvmsNode;

/* Reads a node's groups: a group found by jvms_group_reader_seek or the next one by
 * jvms_group_reader_next_group, then its intervals in start order by jvms_group_reader_next.
 * Every varint and length is checked as it is read: a damaged group is CORRUPT (naming @file and
 * the node), never read past its block. Those return 1 (a group, an interval), 0 (none left)
 * or -1 with @error set. */
typedef struct
{
  const JvmsNode *node;
  const char     *file;
  guint           block;       /* of the current group; node->n_blocks before the first */
  guint           in_block;    /* groups of the block read, the current one included */
  const guint8   *p;           /* next byte of the block */
  const guint8   *block_end;
  guint32         k;           /* node-wide index of the next interval */
  guint32         block_end_k; /* the block's intervals end there */
  guint32         attr;        /* the current group's attribute */
  guint32         left;        /* its intervals not yet read */
  gint64          ref;         /* end of its previous interval, the node start before the first */
  guint32         n_groups;    /* groups read in all */
} JvmsGroupReader;

void jvms_group_reader_init       (JvmsGroupReader *r, const JvmsNode *node, const char *file);
int  jvms_group_reader_next_group (JvmsGroupReader *r, GError **error);
/* How many of @node's blocks start at or before @attr (the last of them may hold it). */
guint jvms_node_blocks_upto       (const JvmsNode *node, guint32 attr);
/* The groups of @node's block @b (the directory says; checked when the node is read). */
static inline guint
jvms_node_block_groups (const JvmsNode *node, guint b)
{
  return node->blocks[b + 1].group - node->blocks[b].group;
}
/* The group of @attr: 1 when the node holds one (the reader is on it), 0 when not. */
int  jvms_group_reader_seek       (JvmsGroupReader *r, guint32 attr, GError **error);
/* The current group's next interval into @out (out->attr set). */
int  jvms_group_reader_next       (JvmsGroupReader *r, JvmsRawInterval *out, GError **error);
/* One group decoded into columns, in start order. */
typedef struct
{
  guint32  n;
  gint64  *starts;
  gint64  *ends;
  guint64 *bits;
  guint8  *types;
} JvmsGroupColumns;

/* ---- decoded groups kept with a node (jvms-history-node-memo.c) ---- */
/* The columns of @attr's group in @node, decoded at the first ask and kept with the node while
 * it lives (the bytes added to *@charge, for the caller to charge to the node cache): 1 with
 * *out set, 0 when the node has no such group, -1 on damage. */
int  jvms_node_memo_group (JvmsNode *node, guint32 attr, const char *file, gsize *charge,
                           const JvmsGroupColumns **out, GError **error);
/* Block @b of @node decoded the same way: its groups' attributes and columns (*attrs, *cols),
 * and returns how many, or -1 on damage. */
int  jvms_node_memo_block (JvmsNode *node, guint b, const char *file, gsize *charge,
                           const guint32 **attrs, const JvmsGroupColumns **cols, GError **error);
/* jvms_node_memo_group for each of the @n_set attributes of @set (increasing): cols[i] its
 * columns, NULL when the node has no such group; the asked groups of a block are decoded as the
 * block is first read. 0, or -1 on damage. */
int  jvms_node_memo_set   (JvmsNode *node, const guint32 *set, guint n_set, const char *file,
                           gsize *charge, const JvmsGroupColumns **cols, GError **error);
void jvms_node_memo_free  (JvmsNode *node);

/* The current group's intervals left (r->left of them) into the four columns, in one loop
 * with the same checks as jvms_group_reader_next: 0, or -1 on damage. */
int  jvms_group_reader_decode     (JvmsGroupReader *r, gint64 *starts, gint64 *ends,
                                   guint64 *bits, guint8 *types, GError **error);
/* Past the current group's intervals left, their structure checked (tags, lengths, the
 * block's end) but not their values: 0, or -1 on damage. */
int  jvms_group_reader_skip       (JvmsGroupReader *r, GError **error);
/* Decodes every group and interval of @node: what jvms_history_check does to each node. */
gboolean jvms_node_check_groups   (const JvmsNode *node, const char *file, GError **error);

/* Encoding scratch owned by the builder: zeroed at first, grown by jvms_node_encode as
 * attributes are added, freed by jvms_node_encoder_clear. */
typedef struct
{
  guint32 *count;    /* per attribute, zero between calls */
  guint    n_count;
  guint32 *touched;
  guint    n_touched_cap;
  guint32 *order;
  guint    n_order_cap;
  guint8  *payload;
  gsize    payload_cap;
  guint8  *groups;   /* the group area, before the block directory is written in front of it */
  gsize    groups_cap;
  JvmsNodeBlock *blocks;
  guint    n_blocks_cap;
  guint8  *blob;     /* JvmsNodeHeader + compressed payload */
  gsize    blob_cap;
  guint8  *parts;    /* the lz4 blocks of a node's head and frames, before they are framed */
  gsize    parts_cap;
  guint32 *cuts;     /* the last node's frame starts after the first (group area offsets) */
  guint    n_cuts;
  gsize    head;     /* the last node's payload bytes before its group area */
} JvmsNodeEncoder;

void     jvms_node_encoder_clear (JvmsNodeEncoder *enc);
/* Encodes and compresses a node; returns the blob (header + compressed) in enc->blob. @keys
 * (NULL: each attribute its own) gives each attribute its object, whose busy groups share an
 * lz4 frame (jvms-history-format.h); the payload stays in enc->payload, its head's length in
 * enc->head and its frames' starts in enc->cuts. */
gsize    jvms_node_encode        (JvmsNodeEncoder       *enc,
                                  const guint32         *keys,
                                  guint                  n_attributes,
                                  guint32                level,
                                  gint64                 start,
                                  gint64                 end,
                                  const JvmsRawInterval *iv,
                                  guint                  n,
                                  const JvmsNodeChild   *children,
                                  guint                  n_children);
/* Payload bytes an interval adds to a node, given whether it continues the attribute's chain
 * and the start reference (previous end in group or node start). Exact, see the format. */
static inline gsize
jvms_node_interval_bytes (gint64 start, gint64 end, gint64 ref, gboolean contiguous,
                          guint8 type, guint64 bits)
{
  gsize n = 1 + jvms_varint_len ((guint64) end - (guint64) start);
  if (!contiguous)
    n += jvms_varint_len ((guint64) start - (guint64) ref);
  switch (type)
    {
    case JVMS_VALUE_INT:
      if (bits > 30)
        n += jvms_varint_len (jvms_zigzag ((gint64) bits));
      break;
    case JVMS_VALUE_DOUBLE:
      n += 8;
      break;
    case JVMS_VALUE_STRING:
      if (bits > 30)
        n += jvms_varint_len (bits);
      break;
    default:
      break;
    }
  return n;
}

/* Reads, checks and decodes the node at @offset: from @map (the whole file mapped, NULL when
 * not) without a copy, else by pread() of @fd. @expect_level/@expect_start/@expect_end are
 * what its parent says (G_MININT64 etc. to skip); mismatch is CORRUPT. */
JvmsNode *jvms_node_read   (int            fd,
                            const guint8  *map,
                            const char    *file,
                            guint64        offset,
                            guint32        csize,
                            guint64        data_end,
                            guint32        node_size,
                            guint          n_attributes,
                            guint32        n_strings,
                            gboolean       checked,
                            GError       **error);
/* Reads and checks a framed blob (node or summary): returns the decompressed payload. */
guint8   *jvms_blob_read   (int             fd,
                            const guint8   *map,
                            const char     *file,
                            guint64         offset,
                            guint32         csize,
                            guint64         data_end,
                            guint32         max_usize,
                            JvmsNodeHeader *out_header,
                            GError        **error);
/* The same into this thread's buffer, valid until its next read: for decoding at once. */
const guint8 *jvms_blob_read_scratch (int             fd,
                                      const guint8   *map,
                                      const char     *file,
                                      guint64         offset,
                                      guint32         csize,
                                      guint64         data_end,
                                      guint32         max_usize,
                                      JvmsNodeHeader *out_header,
                                      GError        **error);
/* Frames a tree node's @usize payload bytes into enc->blob (format 7): header, frame table
 * (each frame's sizes and CRC32C), the @head bytes before the group area as one lz4 block, the
 * area as one lz4 block a frame, the frames starting at 0 and at the @n_cuts increasing area
 * offsets @cuts (those past the area are dropped). Returns the blob size. */
gsize     jvms_node_frame  (JvmsNodeEncoder *enc,
                            const guint8    *payload,
                            gsize            usize,
                            gsize            head,
                            const guint32   *cuts,
                            guint            n_cuts,
                            guint32          level,
                            guint32          n_items,
                            gint64           start,
                            gint64           end);
/* The frame holding block @b of @node checked and decompressed (once; thread-safe): 0, or -1
 * with CHECKSUM when its bytes fail their CRC32C, CORRUPT when they do not decompress to its
 * size. */
int       jvms_node_frame_ensure (const JvmsNode *node, guint b, const char *file, GError **error);
/* Frames @usize payload bytes into enc->blob: header + lz4 block. Returns the blob size. */
gsize     jvms_blob_frame  (JvmsNodeEncoder *enc,
                            const guint8    *payload,
                            gsize            usize,
                            guint32          level,
                            guint32          n_items,
                            gint64           start,
                            gint64           end);
/* pread()s exactly @n bytes at @offset; an error names @file and @what otherwise. */
gboolean  jvms_read_exact  (int          fd,
                            void        *buf,
                            gsize        n,
                            guint64      offset,
                            const char  *file,
                            const char  *what,
                            GError     **error);
JvmsNode *jvms_node_ref    (JvmsNode *node);
void     jvms_node_unref   (JvmsNode *node);
/* @bytes for a node that will not be cached, from buffers of the calling thread reused once
 * their node's last reference is dropped (no allocation, no fresh memory); NULL when the
 * thread holds all of them. The node must not leave the thread. Set ->transient. */
JvmsNode *jvms_node_transient_new (gsize bytes);
/* ---- memory for cached summary blobs (jvms-history-memory.c) ---- */
/* A block of at least @size bytes, from memory a background thread touched ahead of use (fresh
 * memory faults in a page at a time, and a first frame at a new zoom keeps megabytes); NULL when
 * out of memory. Free it with jvms_node_memory_free and the same @size. */
gpointer  jvms_node_memory_alloc (gsize size);
void      jvms_node_memory_free  (gpointer block, gsize size);
/* Starts the background thread, if not yet: at a complete history's first summary query, so
 * that programs which never draw (the command line) do not touch memory for nothing. */
void      jvms_node_memory_prepare (void);
/* Regions of 2 MiB carved so far. */
guint64   jvms_node_memory_regions (void);

/* @attr's interval of @node that holds @t, into @out: 1, 0 when none, -1 on damage. */
int      jvms_node_find    (const JvmsNode *node, guint32 attr, gint64 t, const char *file,
                            JvmsRawInterval *out, GError **error);
/* The child whose range holds @t (the last child with start <= t), or -1. */
gssize   jvms_node_child_at (const JvmsNode *node, gint64 t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsNode, jvms_node_unref)

/* ---- node cache (jvms-history-cache.c) ---- */
typedef struct _JvmsNodeCache JvmsNodeCache;

#define JVMS_NODE_CACHE_DEFAULT_BUDGET ((gsize) 64 * 1024 * 1024)
JvmsNodeCache *jvms_node_cache_new     (gsize budget);
void           jvms_node_cache_set_budget (JvmsNodeCache *cache, gsize budget);
void           jvms_node_cache_free    (JvmsNodeCache *cache);
/* Returns a new reference or NULL. */
JvmsNode      *jvms_node_cache_lookup  (JvmsNodeCache *cache, guint64 offset);
/* Inserts (or returns the copy another thread inserted first): a new reference. */
JvmsNode      *jvms_node_cache_insert  (JvmsNodeCache *cache, JvmsNode *node);
/* Whether a node at @offset that missed should be kept: TRUE when it missed before (the
 * doorkeeper remembers a bounded number of offsets). For summary blobs, which a new zoom range
 * reads by the thousand and mostly once; the others are read with jvms_node_transient_new. */
gboolean       jvms_node_cache_admit   (JvmsNodeCache *cache, guint64 offset);
void           jvms_node_cache_stats   (JvmsNodeCache *cache, guint64 *hits, guint64 *misses, gsize *bytes);
/* The budget, and the most bytes the cache held since it was set (for tests: never above it). */
void           jvms_node_cache_limits  (JvmsNodeCache *cache, gsize *budget, gsize *peak);
void           jvms_node_cache_drop_all (JvmsNodeCache *cache);
/* Adds @bytes that @node keeps beside its own (decoded groups) to what the cache holds, when
 * the node is in it, evicting the least recently used to stay within the budget. */
void           jvms_node_cache_charge  (JvmsNodeCache *cache, JvmsNode *node, gsize bytes);

/* ---- the tree being built (jvms-history-builder.c) ---- */
typedef struct
{
  gint64           start;
  JvmsRawInterval *iv;
  guint            n;
  guint            cap;
  gsize            bytes;       /* payload bytes so far (exact upper bound) */
  JvmsNodeChild    children[JVMS_NODE_MAX_CHILDREN];
  guint            n_children;
  guint32          serial;      /* changes every time the level starts a new node */
  guint32         *seen;        /* per attribute: serial of the node it last appeared in */
  gint64          *last_end;    /* per attribute: end of its last interval in this node */
  guint32         *count;       /* per attribute: its intervals in this node (when seen) */
} JvmsOpenNode;

/* Per attribute: the interval that has not ended yet. */
typedef struct
{
  gint64  start;
  guint64 bits;
  guint8  type;
} JvmsCurrent;

/* ---- summary levels (jvms-history-summary-*.c, jvms-history-summary-private.h) ---- */
typedef struct _JvmsSummaryBuilder JvmsSummaryBuilder;
typedef struct _JvmsSummaryIndex   JvmsSummaryIndex;

/* ---- the history ---- */
/* A node of the mapping whose header passed its CRC32C: bit f of @frames is set once frame f
 * has passed its own (JvmsNode.checked). */
typedef struct
{
  guint64 offset;
  guint32 n_frames;  /* the bitmap's frames: a node read again with another count (its bytes
                        changed under the mapping) does not use it */
  guint64 frames[];
} JvmsCheckedNode;

struct _JvmsHistory
{
  gint             ref_count;
  char            *path;
  int              fd;
  /* A complete history's file mapped read-only (jvms_history_open; NULL where mmap failed, and
   * while building): nodes are read from it without a copy (docs/state-history.md, *Reading
   * from a mapping*). Unmapped after the cache, whose nodes point into it. */
  const guint8    *map;
  gsize            map_size;
  JvmsNodeCache   *cache;

  /* While building, everything below is guarded by @lock (see jvms-history-builder.c for the
   * reasoning); once @complete is set it never changes again and is read without the lock. */
  GMutex           lock;
  gint             complete; /* atomic */

  gint64           start_time;
  gint64           end_time;
  guint64          n_intervals;
  guint32          node_size;      /* largest payload a node may have (read side: with inner nodes) */
  guint32          max_node_usize; /* builder: the largest payload written */
  guint64          data_end;
  JvmsAttrTree    *attrs;
  JvmsStringTable *strings;
  GHashTable      *metadata;
  /* jvms_history_set_metadata_overlay: interned key -> interned value, under overlay_lock
   * (a reader thread may look while the main thread sets). */
  GHashTable      *overlay;
  GMutex           overlay_lock;
  /* The nodes read from the mapping whose header and table passed their CRC32C: offset ->
   * JvmsCheckedNode, under checked_lock, so that a node read again after eviction checks
   * only the frames no read has checked (docs/state-history.md, *Reading from a mapping*). */
  GHashTable      *checked;
  GMutex           checked_lock;

  /* complete: the root on disk */
  guint64          root_offset;
  guint32          root_csize;
  guint32          depth;
  guint64          n_nodes;
  guint64          file_size;
  guint64          summary_bytes;

  /* building: open nodes by level (0 = leaf) and current intervals; NULL when complete */
  JvmsOpenNode    *open;
  guint            n_open;
  JvmsCurrent     *current;
  guint            n_current_cap;

  JvmsSummaryIndex *summary;       /* read side of the summary levels */
  JvmsSummaryBuilder *summary_builder; /* while building: the open buckets */
};

/* Lock for a query: only while the history may still change. Returns whether it locked. */
static inline gboolean
jvms_history_lock_if_live (JvmsHistory *self)
{
  if (g_atomic_int_get (&self->complete))
    return FALSE;
  g_mutex_lock (&self->lock);
  return TRUE;
}

static inline void
jvms_history_unlock_if (JvmsHistory *self, gboolean locked)
{
  if (locked)
    g_mutex_unlock (&self->lock);
}

JvmsHistory *jvms_history_new_empty (const char *path, int fd, gsize cache_budget);
/* Fetches a node through the cache. */
JvmsNode    *jvms_history_get_node  (JvmsHistory *self, guint64 offset, guint32 csize,
                                     guint32 expect_level, gint64 expect_start, gint64 expect_end,
                                     GError **error);
void         jvms_history_value_out (JvmsHistory *self, guint8 type, guint64 bits, JvmsValue *out);
/* Calls @func for every interval of the @want attributes (all when NULL) intersecting
 * [t0, t1]. With @want, each attribute's in time order from a complete history's tree (an open
 * node's may not be); without, in no particular order. Caller holds the lock if live. */
typedef void (*JvmsVisitFunc) (gpointer data, guint32 attr, gint64 start, gint64 end, guint8 type,
                               guint64 bits);
gboolean     jvms_history_visit     (JvmsHistory *self, gint64 t0, gint64 t1, const guint8 *want,
                                     JvmsVisitFunc func, gpointer data, GError **error);
/* The same for the @n_set attributes of @set (increasing, no repeats; those @want marks): a node
 * holding many more attributes is read by seeking each one's group, not by walking them all. */
gboolean     jvms_history_visit_set (JvmsHistory *self, gint64 t0, gint64 t1, const guint8 *want,
                                     const guint32 *set, guint n_set, JvmsVisitFunc func,
                                     gpointer data, GError **error);
/* @attributes increasing, without repeats: a new array of *n_out. */
guint32     *jvms_attribute_set     (const JvmsAttribute *attributes, guint n_attributes, guint *n_out);

/* Writes the tables (attributes, strings, metadata, @summary_dir) and the header: close(). */
gboolean     jvms_history_write_tables (JvmsHistory *h, GBytes *summary_dir, GError **error);

/* What a builder holds, by the parts that docs/state-history.md ("Memory while building")
 * bounds: bytes allocated, not bytes used. For tests (jvms_history_builder_memory). */
typedef struct
{
  guint n_attributes;
  guint n_open;            /* open tree levels */
  gsize open_nodes;        /* the open nodes' interval arrays */
  gsize per_attribute;     /* current intervals, node markers, summary state, levels and buffers */
  guint summary_levels;    /* summary levels allocated, over all attributes */
  gsize summary_pending;   /* encoded buckets and changes waiting for a flush */
  gsize summary_pack;      /* the shared blob being packed and its runs */
  guint summary_runs;      /* runs written so far */
  gsize summary_directory; /* their directory entries */
  gsize scratch;           /* encoding buffers */
} JvmsBuilderMemory;

void         jvms_history_builder_memory (JvmsHistoryBuilder *b, JvmsBuilderMemory *out);
/* The summary's pending budget (32 MiB by default, 0 restores it): for tests that must reach
 * it without building gigabytes. */
void         jvms_history_builder_set_summary_budget (JvmsHistoryBuilder *b, gsize bytes);

/* summary: the builder (jvms-history-summary-cascade.c) */
JvmsSummaryBuilder *jvms_summary_builder_new    (void);
void                jvms_summary_builder_free   (JvmsSummaryBuilder *sb);
/* An interval of @attr ended. Returns FALSE with @error when writing a blob failed. */
gboolean            jvms_summary_builder_add    (JvmsHistory *h, JvmsSummaryBuilder *sb,
                                                 guint32 attr, gint64 start, gint64 end,
                                                 guint8 type, guint64 bits, GError **error);
gboolean            jvms_summary_builder_finish (JvmsHistory *h, JvmsSummaryBuilder *sb,
                                                 GBytes **directory, GError **error);
void                jvms_summary_builder_memory (JvmsSummaryBuilder *sb, JvmsBuilderMemory *m);
void                jvms_summary_builder_set_budget (JvmsSummaryBuilder *sb, gsize bytes);
/* Writes a framed blob at the end of the data; returns its offset. */
gboolean            jvms_history_append_blob    (JvmsHistory *h, const guint8 *blob, gsize n,
                                                 guint64 *offset, GError **error);
/* summary: the directory (jvms-history-summary-directory.c) */
/* The finest summary level of @attribute, or -1 when it has none (few intervals). */
gint                jvms_summary_index_finest   (JvmsSummaryIndex *si, guint attribute);
guint               jvms_summary_index_n_blobs  (JvmsSummaryIndex *si);
/* Directory runs and items (buckets, or changes for JVMS_SUMMARY_LEVEL_CHANGES) at @level, and
 * the attributes whose finest level it is: what jvmscope-history-stat prints. */
void                jvms_summary_index_level_stats (JvmsSummaryIndex *si, guint level,
                                                    guint *n_runs, guint64 *n_items,
                                                    guint *n_finest);
JvmsSummaryIndex   *jvms_summary_index_load     (const guint8 *data, gsize size, const char *file,
                                                 guint64 offset, guint n_attributes,
                                                 guint64 data_end, GError **error);
void                jvms_summary_index_free     (JvmsSummaryIndex *si);
/* Reads and decodes every run of the directory: for jvms_history_check. */
gboolean            jvms_summary_check_all      (JvmsHistory *h, GError **error);

G_END_DECLS
