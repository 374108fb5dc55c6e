/* jvms-event-format.h: the on-disk layout of the event store (X.events beside X.jvmsidx), shared
 * by its writer (jvms-event-writer.c) and its reader (jvms-event-store.c). docs/events.md
 * describes the same layout for people.
 *
 * The store keeps every event of a trace as a row: a fixed header (time, duration, type, thread,
 * stack) and its fields as typed values. Rows are in non-decreasing start time (the order of the
 * indexer's merged stream), numbered from 0 (the row id), and cut into blocks. A directory says,
 * for each block, where it lies and what times it covers; another says, for each *stream* (the
 * rows of one type, of one thread, or of one (type, thread) pair), in which blocks it has rows and
 * how many it had before each of them. So a page of the rows of a set of streams at any position
 * of any time range costs a few binary searches and the blocks that hold the page.
 *
 * Everything is little-endian, and the structures below are read in place from the mapped file
 * (the store is a cache of this machine's; a big-endian build fails at compile time rather than
 * misread). Every section starts at a multiple of 8 bytes. Every offset and count read from a
 * file is checked against the file's size before use; a store that fails a check is refused
 * whole at open (header, tables, directories) or, for a block, when that block is read.
 *
 *   offset 0      JvmsEventFileHeader (128 bytes)
 *   blocks        n_blocks lz4 blocks (LZ4 block format, no frame), each decoding to
 *                   u32 n_rows, u32 row_offset[n_rows] (from the block's start), rows
 *                 A row is a JvmsEventRowHeader (48 bytes) followed by payload_len bytes of
 *                 n_values values, each: u16 field (index in its type's field list), u8 kind
 *                 (JvmsEventValueKind), then by kind: nothing (NULL, FALSE, TRUE); 8 bytes
 *                 (INT, DOUBLE, TIMESTAMP, TIMESPAN, RESULT_NULL, LATE); u32 length, that many
 *                 bytes of UTF-8 and a NUL (STRING: read in place as a C string).
 *   late table    n_late x JvmsEventLate: the durations (and results) of rows whose block was
 *                 written before they ended (a system call blocked for seconds). Such a row's
 *                 duration is -(slot + 2), and its result value, if any, is LATE with the slot.
 *   types         n_types records: u32 name length, name, u32 label length, label (0: none),
 *                 u32 flags (JvmsEventTypeFlags), u32 n_fields, then per field: u32 name length,
 *                 name ("heapSpace.committedSize" for a flattened member), u32 label length,
 *                 label, u32 unit (JvmsEventUnit)
 *   blocks dir    n_blocks x JvmsEventBlockEntry
 *   streams dir   n_streams x JvmsEventStreamEntry, sorted by (kind, type, tid)
 *   postings      n_postings x JvmsEventPosting: each stream's run, in block order
 *
 * Durations: >= 0 the event's duration in ns (0 for instant events); -1 unknown (the end was
 * never seen: a system call still blocked when the trace ended is closed at the trace's end
 * instead, so -1 is rare); <= -2 a late slot.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JVMS_EVENT_MAGIC        "JVMSEVT1"
#define JVMS_EVENT_VERSION      1
/* A block holds at most this many rows, or this many raw bytes (a row larger than that has a
 * block of its own). */
#define JVMS_EVENT_BLOCK_ROWS   1024
#define JVMS_EVENT_BLOCK_BYTES  (64 * 1024)
/* Bounds checked on read; the writer keeps within them. */
#define JVMS_EVENT_MAX_BLOCK_RAW  (16 * 1024 * 1024)
#define JVMS_EVENT_MAX_TYPES      65536
#define JVMS_EVENT_MAX_FIELDS     1024    /* per type */
#define JVMS_EVENT_MAX_NAME       4096    /* bytes of a type or field name or label */
#define JVMS_EVENT_MAX_STRING     (64 * 1024) /* bytes of a string value (longer are cut) */

#define JVMS_EVENT_NONE         0xFFFFFFFFu
#define JVMS_EVENT_ANY_TID      G_MININT64   /* a stream of every thread */
#define JVMS_EVENT_DURATION_UNKNOWN (-1)

typedef struct
{
  char    magic[8];         /* JVMS_EVENT_MAGIC */
  guint32 version;          /* JVMS_EVENT_VERSION */
  guint32 header_size;      /* sizeof (JvmsEventFileHeader) */
  guint64 n_rows;
  gint64  last_time;        /* the latest start time */
  guint64 n_blocks;
  guint64 blocks_dir_offset;
  guint64 n_late;
  guint64 late_offset;
  guint64 n_types;
  guint64 types_offset;
  guint64 types_size;       /* bytes of the types section */
  guint64 n_streams;
  guint64 streams_offset;
  guint64 n_postings;
  guint64 postings_offset;
  guint64 file_size;        /* the whole file, checked against what is on disk */
} JvmsEventFileHeader;

typedef struct
{
  gint64  time;             /* start, epoch ns */
  gint64  duration;         /* see above */
  gint64  tid;              /* thread as docs/attributes.md numbers it: kernel tid, -javaThreadId
                             * for a thread without one (virtual); 0 none */
  guint32 type;             /* index in the types section */
  guint32 stack;            /* stack id in the sample store's stack table (X.samples), or NONE */
  guint32 payload_len;
  guint16 n_values;
  guint16 flags;            /* JVMS_EVENT_ROW_HAS_RESULT: the first value is the type's result */
  guint32 reserved;
  guint32 reserved2;
} JvmsEventRowHeader;

#define JVMS_EVENT_ROW_HAS_RESULT 0x1

typedef enum
{
  JVMS_EVENT_VALUE_NULL,
  JVMS_EVENT_VALUE_FALSE,
  JVMS_EVENT_VALUE_TRUE,
  JVMS_EVENT_VALUE_INT,        /* i64 */
  JVMS_EVENT_VALUE_DOUBLE,     /* IEEE-754 double */
  JVMS_EVENT_VALUE_STRING,     /* u32 length, bytes, NUL */
  JVMS_EVENT_VALUE_TIMESTAMP,  /* i64 epoch ns */
  JVMS_EVENT_VALUE_TIMESPAN,   /* i64 ns */
  JVMS_EVENT_VALUE_RESULT_NULL,/* 8 bytes of 0: a result placeholder never filled */
  JVMS_EVENT_VALUE_LATE,       /* u64 late slot: the value is that slot's result */
  JVMS_EVENT_N_VALUE_KINDS
} JvmsEventValueKind;

typedef struct
{
  gint64 duration;
  gint64 result;               /* G_MININT64: none */
} JvmsEventLate;

typedef enum
{
  JVMS_EVENT_TYPE_JFR      = 1 << 0,  /* a JFR event type */
  JVMS_EVENT_TYPE_KERNEL   = 1 << 1,  /* made from kernel events */
  JVMS_EVENT_TYPE_DURATION = 1 << 2,  /* its rows have durations */
  JVMS_EVENT_TYPE_SYSCALL  = 1 << 3,  /* a system call ("syscall:NAME") */
} JvmsEventTypeFlags;

/* How to show a number (the JFR annotations). */
typedef enum
{
  JVMS_EVENT_UNIT_NONE,
  JVMS_EVENT_UNIT_BYTES,
  JVMS_EVENT_UNIT_PERCENT,      /* 0..1 */
  JVMS_EVENT_UNIT_ADDRESS,
  JVMS_EVENT_UNIT_HZ,
  JVMS_EVENT_UNIT_BITS,
  JVMS_EVENT_N_UNITS
} JvmsEventUnit;

typedef struct
{
  guint64 offset;           /* of the compressed block */
  guint32 compressed_size;
  guint32 raw_size;
  guint64 first_row;
  guint32 n_rows;
  guint32 reserved;
  gint64  first_time;       /* the block's first row's time, raised to the previous block's
                             * last_time: non-decreasing over blocks, for binary searches */
  gint64  last_time;        /* the greatest start time up to and including this block */
} JvmsEventBlockEntry;

typedef enum
{
  JVMS_EVENT_STREAM_TYPE   = 0,  /* one type, every thread (tid = JVMS_EVENT_ANY_TID) */
  JVMS_EVENT_STREAM_THREAD = 1,  /* one thread, every type (type = NONE) */
  JVMS_EVENT_STREAM_PAIR   = 2,  /* one type on one thread */
} JvmsEventStreamKind;

typedef struct
{
  guint32 kind;             /* JvmsEventStreamKind */
  guint32 type;             /* NONE for a thread stream */
  gint64  tid;              /* JVMS_EVENT_ANY_TID for a type stream */
  guint64 n_rows;
  guint64 first_posting;    /* index in the postings section */
  guint64 n_postings;
} JvmsEventStreamEntry;

typedef struct
{
  guint32 block;
  guint32 count;            /* rows of the stream in that block */
  guint64 before;           /* rows of the stream in earlier blocks */
} JvmsEventPosting;

G_STATIC_ASSERT (G_BYTE_ORDER == G_LITTLE_ENDIAN);
G_STATIC_ASSERT (sizeof (JvmsEventFileHeader) == 128);
G_STATIC_ASSERT (sizeof (JvmsEventRowHeader) == 48);
G_STATIC_ASSERT (sizeof (JvmsEventLate) == 16);
G_STATIC_ASSERT (sizeof (JvmsEventBlockEntry) == 48);
G_STATIC_ASSERT (sizeof (JvmsEventStreamEntry) == 40);
G_STATIC_ASSERT (sizeof (JvmsEventPosting) == 16);

G_END_DECLS
