/* jvms-history-format.h: every on-disk structure of a history file, declared once.
 *
 * A history file (format version JVMS_HISTORY_VERSION, below: 7). All integers are
 * little-endian. Offsets are from the start of the file. "crc" is CRC32C (Castagnoli), see
 * jvms-history-crc.c for why.
 *
 *   offset 0     JvmsFileHeader (JVMS_FILE_HEADER_SIZE bytes, zero padded)
 *   then         node blobs, in the order the nodes were closed (children before parents):
 *                  JvmsNodeHeader, then csize bytes (the node blob, below) that decompress to
 *                  exactly usize bytes of node payload (below)
 *   then         summary blobs (JvmsNodeHeader with level
 *                JVMS_NODE_LEVEL_SUMMARY, lz4 block of summary payload: level buckets and
 *                change lists; jvms-history-summary-codec.c)
 *   then         tables, each a raw byte range [offset, offset + size) whose crc is stored in
 *                the header (JvmsTableRef): attributes, strings, metadata, summary directory
 *   file_size    end of file; nothing after it.
 *
 * The file is written under "<path>.tmp-XXXXXX": nodes first, then at close the tables and
 * finally the header (flags |= COMPLETE), fsync, rename to <path>, fsync of the directory. A
 * header without COMPLETE is never renamed into place; jvms_history_open() refuses it.
 *
 * The tree (after Montplaisir 2013): every node covers a time range [start, end). The root
 * covers [history start, history end). An inner node's children are in time order and tile its
 * range: child i covers [child[i].start, child[i+1].start), the last one up to the parent's end.
 * An interval [s, e) is stored in exactly one node N with N.start <= s and e <= N.end, so the
 * node holding the interval at t is on the single root-to-leaf path of t: a query for one time
 * reads one node per level. Intervals are added when they end; a node is closed (its end fixed,
 * written to disk) when it is full, and a new one starts at the close time.
 *
 * Node blob (format 7; the header's crc covers the frame table and the head's lz4 block, each
 * frame's own crc its lz4 block): the payload below in lz4 blocks (LZ4_compress_default), its
 * head (the bytes before the group area) in one and its group area in frames of whole blocks,
 * each an lz4 block of its own, so that a reader decompresses only the frames holding the groups
 * it asks for, and checks only the bytes it reads:
 *   varint head_csize   compressed bytes of the head
 *   varint n_frames     0 when the node has no group, else 1 to n_blocks
 *   n_frames x { varint usize (> 0), varint csize (> 0), u32 crc }: frame f holds the area bytes
 *            after the frames before it; each starts where a block does (the first at 0), and
 *            they add up to the area: the head is usize (the header's) less the frames' usizes;
 *            crc is the CRC32C of its csize bytes, checked when the frame is first decompressed
 *   head_csize bytes: the head's lz4 block; then each frame's, in order (csize adds up)
 *   Which blocks share a frame is the writer's choice; the reader checks only the above. The
 *   builder gives a frame the blocks of one object (an attribute's ancestor two levels below the
 *   root: a thread, a CPU; busy groups are blocks of their own, below) and puts blocks without
 *   a busy group together up to JVMS_NODE_FRAME_SMALL bytes. Why: a node holds every attribute
 *   that changed during its range, the critical path asks a thread's few and the CPUs', and
 *   decompressing whole nodes was 0.74 G of its 2.48 G instructions on the p99 question of
 *   bench/causality; a frame a busy group lost most of lz4's gain (a thread's states, system
 *   calls and switch counters change at the same times and compress together: node bytes
 *   +40 %), a frame an object +7 % (docs/benchmarks.md, tenth run). Why a crc a frame (format
 *   7): checking the whole blob at every read was a tenth of that question's CPU time once the
 *   blobs were read from a mapping, for bytes it mostly did not decompress (eleventh run).
 *   Summary blobs are one lz4 block of their whole payload, all of it under the header's crc.
 *
 * Node payload (uncompressed; leaves at most node_size bytes, inner nodes at most
 * max_node_usize, see the builder for why inner nodes grow with the attribute count):
 *   varint n_children
 *   n_children x { varint start - previous start (the first: - node start),
 *                  varint file offset of the child's JvmsNodeHeader, varint child csize }
 *   varint n_groups
 *   varint n_blocks
 *   n_blocks x block entry (the block directory):
 *     varint attribute of the block's first group - the previous entry's (the first: - 0)
 *     varint byte offset of the block in the group area - the previous entry's (the first: 0)
 *     varint index of the block's first interval - the previous entry's (the first: 0)
 *     varint index of the block's first group - the previous entry's (the first: 0)
 *   the group area: n_groups x group, in increasing attribute order, cut into blocks of 1 to
 *   JVMS_NODE_BLOCK_GROUPS groups: a block ends after JVMS_NODE_BLOCK_GROUPS groups, before a
 *   group of more than JVMS_NODE_GROUP_ALONE intervals and after it (such a group is a block
 *   of its own); block b runs from its offset to the next block's (the last: to the end of the
 *   payload) and holds the groups and intervals from its first indexes to the next block's
 *   (the last: to n_groups and the header's n_intervals):
 *     varint attribute - previous group's attribute; absent for the first group of a block,
 *            whose attribute is the block's
 *     varint count (>= 1)
 *     count x interval, in increasing start order:
 *       byte tag:  bits 0-1  value type (JvmsValueType)
 *                  bit  2    contiguous: start = end of the previous interval of this group
 *                  bits 3-7  k: for INT and STRING, k > 0 means the value is k - 1 and no
 *                            value bytes follow; k = 0 means they follow. 0 for NULL/DOUBLE.
 *       if not contiguous: varint start - (previous end in group, or node start for the first)
 *       varint end - start (> 0)
 *       value bytes: INT zigzag varint; DOUBLE 8 bytes (IEEE 754 bits, little-endian);
 *                    STRING varint id into the string table; NULL nothing.
 *   Why blocks: a node holds every attribute that changed during its range (11,316 of them on
 *   a 40 s bundle), while a range query asks for a few. The directory lets a reader find an
 *   attribute's group by a binary search over the blocks and a walk of at most
 *   JVMS_NODE_BLOCK_GROUPS - 1 groups, and decode only the groups it wants, as an LSM table's
 *   restart points let a reader seek inside a block (LevelDB's table format). Why a busy group
 *   is a block of its own (format 5): the walk to a group passes over the groups before it in
 *   its block, and a busy one (a thread's switch counters, hundreds of intervals in a node)
 *   cost the critical path more to pass over than all it decoded (docs/benchmarks.md); alone,
 *   a seek lands on it or past it. A reader keeps
 *   the group area as it is and decodes a group when a query asks for it, checking every
 *   length then; jvms_history_check decodes all of them.
 *   Varints are LEB128 (7 bits a byte, low first, at most 10 bytes); zigzag maps signed to
 *   unsigned ((n << 1) ^ (n >> 63)).
 *
 * Attribute table: varint n; n x { varint parent + 1 (0: the root), varint name length, name
 *   bytes (UTF-8, no NUL, no '/') }, in id order; a parent id is always smaller than its child's.
 * String table: varint n; n x { varint length, bytes (no NUL) }, in id order.
 * Metadata table: varint n; n x { varint key length, key, varint value length, value }.
 *
 * Summary levels (for jvms_history_query_summary; design in docs/state-history.md). Level k
 * cuts time into buckets of 2^(JVMS_SUMMARY_BASE_SHIFT + k * JVMS_SUMMARY_LEVEL_SHIFT) ns;
 * bucket b covers [b << shift, (b + 1) << shift). Per attribute, levels start at its finest
 * level k0 (chosen from its first intervals) and only buckets holding a value change are
 * stored: between two stored buckets the value is constant.
 * Summary blob payload: varint n_runs, then n_runs x run. A run is one attribute's buckets at
 * one level, in increasing order (a blob flushed when a run reached 4 KiB holds one run; the
 * final flush packs many short runs into blobs of about 64 KiB):
 *   varint attribute, varint level, zigzag varint first bucket index, varint n,
 *   varint byte length of the n buckets that follow
 *   n x bucket:
 *     varint index - previous index (0 for the first)
 *     byte flags: bit 0 INSIDE: a change strictly inside the bucket
 *                 bit 1 AT_START: a change exactly at the bucket's start
 *                 bit 2 NUMERIC: min and max follow
 *                 bit 3 DOM_IS_LAST, bit 4 DOM_IS_FIRST: the dominant value is vl / vf
 *     first bucket of the blob only: value before the bucket's start
 *     if AT_START: value vf at the bucket start (else vf = the value before, which is the
 *                  previous bucket's vl: values do not change between stored buckets)
 *     if INSIDE: varint f - bucket start, varint l - f (first and last change inside), value vl
 *                (else vl = vf)
 *     unless DOM_IS_LAST or DOM_IS_FIRST: value dom (held longest in the bucket, approximate)
 *     if NUMERIC: value min, value max (exact over the values held in the bucket)
 *   value = byte tag (as an interval's, without the contiguous bit) then its bytes.
 * Change list runs (level JVMS_SUMMARY_LEVEL_CHANGES, one per attribute per flush): the exact
 * time and new value of every change of the attribute (the start of an interval whose value
 * differs from the previous one), for summaries whose columns are narrower than the
 * attribute's finest level. The run header's "first bucket" is the first change's time (ns).
 *   n x change: varint x; code = x & 7, d = x >> 3
 *     first change: d = 0 (its time is the run's first time)
 *     others: d = time - previous change's time (>= 1); d = 0 means the delta is >= 2^60 and
 *             follows as its own varint
 *     code 0..5: the integer 0..5; 6: null; 7: a value follows
 * Summary directory table: varint n_attributes; n_attributes x varint (k0 + 1, 0: no levels);
 *   varint n; n x JvmsSummaryDirEntry (little-endian, 40 bytes), sorted by (attribute, level,
 *   first bucket).
 */
#pragma once

#include <glib.h>

#define JVMS_HISTORY_MAGIC         "JVMSHST\x01" /* 8 bytes; the \x01 catches 7-bit transfers */
#define JVMS_HISTORY_VERSION       7u /* 2: summary change lists; 3: summary levels 2 times apart;
                                         4: a block directory in every node;
                                         5: busy groups a block of their own;
                                         6: a node's group area in lz4 frames;
                                         7: a crc a frame */
#define JVMS_FILE_HEADER_SIZE      256u
#define JVMS_NODE_MAGIC            0x444E564Au /* "JVND" little-endian */
#define JVMS_NODE_LEVEL_SUMMARY    0xFFFFu
#define JVMS_HISTORY_FLAG_COMPLETE (1u << 0)

/* Node sizes accepted from a file: below the minimum a node could not hold its own children,
 * above the maximum a hostile header could make us allocate without bound. */
#define JVMS_NODE_SIZE_MIN         4096u
#define JVMS_NODE_SIZE_MAX         (16u * 1024u * 1024u)
#define JVMS_NODE_SIZE_DEFAULT     (64u * 1024u)
/* Levels of the tree: a file claiming more is corrupt, a builder refuses to grow more. */
#define JVMS_MAX_DEPTH             64u
/* Groups per block of a node's group area (see the node payload above): a seek walks at most
 * this many less one; the directory costs at most 13 bytes a block (under a byte a group). */
#define JVMS_NODE_BLOCK_GROUPS     16u
/* A group of more intervals than this is a block of its own (see the node payload above). */
#define JVMS_NODE_GROUP_ALONE      32u
/* A frame of small blocks (no busy group) goes on over the next small block while it stays within
 * this many bytes (see the node blob above). */
#define JVMS_NODE_FRAME_SMALL      4096u
/* A block entry's bytes at most: 4 varints (attribute, offset and first interval under 2^32,
 * groups at most JVMS_NODE_BLOCK_GROUPS). */
#define JVMS_NODE_BLOCK_ENTRY_MAX  16u
/* Children per inner node: bounds the fan-in so that a node's child list stays small. */
#define JVMS_NODE_MAX_CHILDREN     64u

/* A byte range of the file holding one table, with its checksum. */
typedef struct
{
  guint64 offset; /* from the start of the file */
  guint32 size;   /* bytes */
  guint32 crc;    /* CRC32C of the size bytes */
} JvmsTableRef;
G_STATIC_ASSERT (sizeof (JvmsTableRef) == 16);

/* The file header, at offset 0. Written last (complete) at close. */
typedef struct
{
  char         magic[8];        /* JVMS_HISTORY_MAGIC */
  guint32      version;         /* JVMS_HISTORY_VERSION; any other is refused */
  guint32      header_size;     /* sizeof (JvmsFileHeader): the part covered by header_crc */
  guint32      flags;           /* JVMS_HISTORY_FLAG_COMPLETE once closed */
  guint32      node_size;       /* max uncompressed payload of a node, bytes */
  gint64       start_time;      /* ns: start of the history */
  gint64       end_time;        /* ns: end given to close() */
  guint64      n_intervals;     /* intervals stored in the tree */
  guint64      file_size;       /* bytes: the whole file; shorter is TRUNCATED */
  guint64      data_end;        /* nodes and summary blobs lie in [JVMS_FILE_HEADER_SIZE, data_end) */
  guint64      root_offset;     /* JvmsNodeHeader of the root node */
  guint32      root_csize;      /* its compressed payload size */
  guint32      depth;           /* levels: the root is at level depth - 1, leaves at 0 */
  guint32      n_attributes;
  guint32      n_strings;
  guint64      n_nodes;         /* tree nodes (not summary blobs) */
  guint64      summary_bytes;   /* bytes of summary blobs, for jvmscope-history-stat */
  JvmsTableRef attributes;
  JvmsTableRef strings;
  JvmsTableRef metadata;
  JvmsTableRef summary;         /* the summary directory */
  guint32      max_node_usize;  /* the largest node payload written: inner nodes may pass
                                   node_size (see jvms-history-builder.c); <= JVMS_NODE_SIZE_MAX */
  guint32      reserved[2];     /* zero */
  guint32      header_crc;      /* CRC32C of the bytes before this field */
} JvmsFileHeader;
G_STATIC_ASSERT (sizeof (JvmsFileHeader) == 184);
G_STATIC_ASSERT (sizeof (JvmsFileHeader) <= JVMS_FILE_HEADER_SIZE);

/* Before every node and summary blob. */
typedef struct
{
  guint32 magic;       /* JVMS_NODE_MAGIC: catches an offset that points elsewhere */
  guint32 crc;         /* CRC32C of this header after this field, then of the csize bytes (a
                          tree node's: of its frame table and head, see the node blob above) */
  guint32 csize;       /* compressed payload bytes following this header */
  guint32 usize;       /* payload bytes once decompressed; <= max (node_size, max_node_usize) */
  guint32 level;       /* 0 for leaves; JVMS_NODE_LEVEL_SUMMARY for summary blobs */
  guint32 n_intervals; /* intervals in the payload (summary: buckets) */
  gint64  start;       /* ns: start of the node's range */
  gint64  end;         /* ns: end of the node's range (exclusive) */
} JvmsNodeHeader;
G_STATIC_ASSERT (sizeof (JvmsNodeHeader) == 40);

#define JVMS_SUMMARY_BASE_SHIFT  10u /* level 0 buckets: 1024 ns */
#define JVMS_SUMMARY_LEVEL_SHIFT 1u  /* each level 2 times coarser */
#define JVMS_SUMMARY_N_LEVELS    47u /* the coarsest: 2^56 ns, about 2.3 years */
#define JVMS_SUMMARY_LEVEL_CHANGES JVMS_SUMMARY_N_LEVELS /* directory level of change lists */

/* One entry of the summary directory table: one run (buckets of one attribute at one level) in
 * a summary blob; several entries may share a blob. Sorted by (attribute, level, first bucket). */
typedef struct
{
  guint32 attribute;
  guint32 level;        /* summary level k < JVMS_SUMMARY_N_LEVELS, or JVMS_SUMMARY_LEVEL_CHANGES */
  gint64  first_bucket; /* index of the first bucket in the blob (bucket b covers [b*w, (b+1)*w));
                         * change lists: the time of the first change */
  gint64  last_bucket;  /* index of the last one; change lists: the time of the last change */
  guint64 offset;       /* the blob's JvmsNodeHeader */
  guint32 csize;        /* its compressed size */
  guint32 n_buckets;
} JvmsSummaryDirEntry;
G_STATIC_ASSERT (sizeof (JvmsSummaryDirEntry) == 40);
