/* jvms-samples-format.h: the on-disk layout of the sample store X.samples (format 6), kept beside
 * each index X.jvmsidx. docs/profile.md explains what it is for; this file says what every byte
 * means. Everything is little-endian; every size below is asserted at the end of the file.
 *
 * The store holds every JFR event that carries a stack trace, as a *sample*: a time, a thread, an
 * event type, a stack and a weight. Frames and stacks are stored once each:
 *
 *   string  bytes, no NUL (class names, method names, event type names, thread names, details)
 *   method  (class string, method name string): what the call tree and the folded output merge on
 *           (overloads share one method: "package.Class.method" has no signature)
 *   frame   (method, line, frame kind): what JFR recorded at one level of a stack
 *   stack   (parent stack, frame): a prefix tree, the root frame's stack has no parent. A stack's
 *           parent always has a smaller id, so walking parents ends.
 *   path    (parent path, method): the same prefix tree with frames merged by method, which is
 *           what a call tree shows; each stack names its path, so a query folds stacks into a
 *           tree by array lookups, without hashing.
 *
 * Samples are cut, in time order, into level-0 *blocks* of JVMS_SAMPLES_BLOCK_SAMPLES samples
 * (the last may hold fewer). Above them, level k >= 1 holds one *node* per complete run of 2^k
 * consecutive blocks (node m covers blocks [m 2^k, (m + 1) 2^k)): the samples of those blocks
 * summed per (type, thread, stack). A range of whole blocks is the union of at most two nodes per
 * level, so a query of any range reads O(log blocks) nodes plus the raw samples of at most four
 * blocks at its ends (docs/profile.md, "Why any range costs the same"). A node with more than 99
 * sums for 100 samples (counted on its threads' sums) is left out (its entry has offset and sizes
 * 0): a query reads its two halves instead, which hold about as many sums. Every node of an odd
 * level is left out too, so that the levels written are 4 apart (half the nodes' encoding and lz4
 * while indexing, for up to four nodes a level read where two were; docs/benchmarks.md, issue 18,
 * ninth pass). Stores written before hold odd levels' nodes; readers read either alike. From level
 * JVMS_SAMPLES_ALL_THREADS_LEVEL up, a node also holds, for each type, the sums per stack over all
 * its threads (a section whose thread is NONE, after that type's threads): a query of all threads
 * reads those alone, however many threads shared the stacks (on a 1 GB recording of 376 threads a
 * whole-trace query of parking events read 2.29 M sums of 71,047 distinct stacks; 0.15 M with them).
 *
 * File
 *   JvmsSamplesHeader at offset 0 (written last: zeros mean the file was never completed)
 *   blocks and nodes, in the order they were completed, each 8-byte aligned: a block's samples
 *   stored raw, a node's sums lz4-compressed unless lz4 would not shrink them (then raw). A
 *   payload whose compressed size equals its raw size is stored raw (format 6; before it every
 *   payload was lz4), any other is lz4
 *   tables, each 8-byte aligned, at the offsets the directory gives
 *   the directory: n_tables x JvmsSamplesTable, at header.directory_offset
 *
 * A reader checks: magic, version, header size, file size, that the directory and every table
 * lie inside the file with the size their count implies (count x entry size, strings against
 * their offsets), that every id a table holds points into its table (a stack's or path's parent
 * below it, frames, methods, strings), that each stack's path is its parent's path extended by
 * its frame's method, that blocks and nodes lie inside the file (a raw payload's bytes, a compressed one's
 * compressed bytes), that each lz4 payload decompresses to exactly its declared size, and, while decoding, every varint against what
 * remains of its block and every id against its table, and that a node's all-threads sections
 * lie at the levels that have them, one after each type's threads and nowhere else. A store that fails is reported with the
 * file, the offset and the structure, never read further.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JVMS_SAMPLES_MAGIC          "JVMSSMP2"
#define JVMS_SAMPLES_VERSION        6u
#define JVMS_SAMPLES_NONE           0xFFFFFFFFu
/* Samples per level-0 block: the raw samples a query may decode at each end of its range. */
#define JVMS_SAMPLES_BLOCK_SAMPLES  4096u
/* Frames kept per stack: HotSpot records 64 by default and 2048 at most (-XX:FlightRecorder
 * stackdepth); what lies above is dropped and the stack marked truncated. */
#define JVMS_SAMPLES_MAX_DEPTH      2048u
/* The lowest level whose nodes hold all-threads sections (thread NONE). */
#define JVMS_SAMPLES_ALL_THREADS_LEVEL 2u
/* Levels above blocks: 2^40 blocks is far more than any file can hold. */
#define JVMS_SAMPLES_MAX_LEVELS     40u
/* An lz4 payload never expands a block or node beyond this (what a reader will allocate). */
#define JVMS_SAMPLES_MAX_PAYLOAD    (256u << 20)

typedef struct
{
  char    magic[8];          /* JVMS_SAMPLES_MAGIC */
  guint32 version;           /* JVMS_SAMPLES_VERSION */
  guint32 header_size;       /* sizeof (JvmsSamplesHeader) */
  guint64 file_size;         /* the whole file, in bytes */
  guint64 directory_offset;  /* where the JvmsSamplesTable array starts */
  guint32 n_tables;          /* entries of the directory (at most 64) */
  guint32 flags;             /* JvmsSamplesFlags */
  gint64  first_time;        /* earliest sample time, epoch ns (0 when there is no sample) */
  gint64  last_time;         /* latest sample time */
  guint32 block_samples;     /* JVMS_SAMPLES_BLOCK_SAMPLES when written */
  guint32 reserved;          /* 0 */
} JvmsSamplesHeader;

typedef enum
{
  /* The trace had a kernel layer: CPU samples carry the thread's kernel state. */
  JVMS_SAMPLES_FLAG_KERNEL_STATES = 1 << 0,
} JvmsSamplesFlags;

typedef enum
{
  JVMS_SAMPLES_TABLE_STRINGS      = 'S', /* count strings: u32 offsets[count + 1] (from the end
                                          * of the offsets), then the bytes; offsets grow */
  JVMS_SAMPLES_TABLE_METHODS      = 'M', /* JvmsSamplesMethod[count] */
  JVMS_SAMPLES_TABLE_FRAMES       = 'F', /* JvmsSamplesFrame[count] */
  JVMS_SAMPLES_TABLE_STACKS       = 'K', /* JvmsSamplesStack[count] */
  JVMS_SAMPLES_TABLE_THREADS      = 'T', /* JvmsSamplesThread[count] */
  JVMS_SAMPLES_TABLE_TYPES        = 'Y', /* JvmsSamplesType[count] */
  JVMS_SAMPLES_TABLE_BLOCKS       = 'B', /* JvmsSamplesBlock[count], in time order */
  JVMS_SAMPLES_TABLE_LEVEL        = 'L', /* JvmsSamplesNode[count] of level table.level, node m
                                          * covering blocks [m 2^level, (m + 1) 2^level) */
  JVMS_SAMPLES_TABLE_COMPILATIONS = 'C', /* JvmsSamplesCompilation[count], in time order */
  JVMS_SAMPLES_TABLE_TIMINGS      = 'I', /* JvmsSamplesTiming[count], in time order */
  JVMS_SAMPLES_TABLE_PATHS        = 'P', /* JvmsSamplesPath[count] */
  JVMS_SAMPLES_TABLE_STACK_PATHS  = 'Q', /* u32[count = stacks]: the path of each stack */
} JvmsSamplesTableTag;

typedef struct
{
  guint32 tag;               /* JvmsSamplesTableTag */
  guint32 level;             /* LEVEL: 1..JVMS_SAMPLES_MAX_LEVELS; others 0 */
  guint64 offset;            /* from the start of the file */
  guint64 size;              /* bytes */
  guint64 count;             /* entries */
} JvmsSamplesTable;

typedef struct
{
  guint32 class_name;        /* string id: "java.util.HashMap$Node" as the JFR reader names it,
                              * or NONE for the pseudo-frames "[truncated]" and "[unknown]" */
  guint32 name;              /* string id: "get", "<init>", "[truncated]" */
} JvmsSamplesMethod;

typedef enum
{
  JVMS_FRAME_KIND_UNKNOWN     = 0,
  JVMS_FRAME_KIND_INTERPRETED = 1,   /* JFR "Interpreted" */
  JVMS_FRAME_KIND_JIT         = 2,   /* "JIT compiled" */
  JVMS_FRAME_KIND_INLINED     = 3,   /* "Inlined" */
  JVMS_FRAME_KIND_NATIVE      = 4,   /* "Native" */
  JVMS_FRAME_KIND_CPP         = 5,   /* "C++" (async-profiler) */
  JVMS_FRAME_KIND_KERNEL      = 6,   /* "Kernel" (async-profiler) */
} JvmsFrameKind;
#define JVMS_FRAME_KIND_N 7

typedef struct
{
  guint32 method;            /* method id */
  gint32  line;              /* -1 when unknown */
  guint32 kind;              /* JvmsFrameKind */
} JvmsSamplesFrame;

typedef struct
{
  guint32 parent;            /* stack id < this one, or NONE for a root frame */
  guint32 frame;             /* frame id */
} JvmsSamplesStack;

typedef struct
{
  guint32 parent;            /* path id < this one, or NONE for an outermost method */
  guint32 method;            /* method id */
  guint32 frame_kinds;       /* bit (1 << JvmsFrameKind) of every frame kind its stacks had in
                              * the whole store */
} JvmsSamplesPath;

typedef struct
{
  gint64  tid;               /* the index's thread key: the OS thread id, or minus the Java thread
                              * id when JFR gave none, or 0 for events without a thread */
  guint32 name;              /* string id of the Java name (else the OS name), or NONE */
  guint32 reserved;          /* 0 */
} JvmsSamplesThread;

/* What one sample of a type weighs (docs/profile.md, "Kinds and weights"). */
typedef enum
{
  JVMS_SAMPLE_UNIT_EVENTS  = 0,      /* weight = 1 per event */
  JVMS_SAMPLE_UNIT_NS      = 1,      /* weight = duration, or the sampling period for samplers */
  JVMS_SAMPLE_UNIT_BYTES   = 2,      /* weight = bytes allocated */
} JvmsSampleUnit;

typedef enum
{
  /* A sampler of running code (jdk.ExecutionSample, jdk.CPUTimeSample, datadog.ExecutionSample):
   * weight = its sampling period in ns, kernel state recorded, entries carry the state split. */
  JVMS_SAMPLE_TYPE_CPU     = 1 << 0,
  /* A sampler whose weight is its period (jdk.NativeMethodSample too): counted in samples. */
  JVMS_SAMPLE_TYPE_SAMPLER = 1 << 1,
  /* A wall-clock sampler of a profiler (profiler.WallClockSample, profiler.WallClockSleeping,
   * datadog.MethodSample, async-profiler's jdk.ExecutionSample with a thread state before 4.0):
   * a sample stands for the thread's time whatever its state; weight = the samples the event
   * stands for (a batch counts N) × the wall-clock interval in ns, detail = its state. With
   * SAMPLER. A writer's jdk.ExecutionSample that holds both CPU and wall-clock samples is two
   * types of the same name, one with this flag (docs/writers.md). */
  JVMS_SAMPLE_TYPE_WALL    = 1 << 2,
} JvmsSampleTypeFlags;

typedef struct
{
  guint32 name;              /* string id: "jdk.ExecutionSample" */
  guint32 unit;              /* JvmsSampleUnit */
  guint32 flags;             /* JvmsSampleTypeFlags */
  guint32 reserved;          /* 0 */
  guint64 n_samples;         /* samples of this type in the store */
  guint64 weight;            /* their summed weight */
} JvmsSamplesType;

typedef struct
{
  guint64 offset;            /* payload (stored raw: compressed_size = raw_size) */
  guint32 compressed_size;
  guint32 raw_size;          /* <= JVMS_SAMPLES_MAX_PAYLOAD */
  gint64  first_time;        /* its first and last sample times */
  gint64  last_time;
  guint32 n_samples;         /* 1..block_samples */
  guint32 reserved;          /* 0 */
} JvmsSamplesBlock;

typedef struct
{
  guint64 offset;            /* payload, lz4 unless compressed_size = raw_size (then raw);
                              * 0 with both sizes 0 for a node left out */
  guint32 compressed_size;
  guint32 raw_size;          /* <= JVMS_SAMPLES_MAX_PAYLOAD */
} JvmsSamplesNode;

typedef struct
{
  gint64  time;              /* start, epoch ns */
  gint64  duration;          /* ns */
  guint32 method;            /* method id of the compiled method */
  gint32  tier;              /* compileLevel, -1 when not recorded */
  guint32 flags;             /* bit 0: succeeded, bit 1: on-stack replacement */
  guint32 reserved;
} JvmsSamplesCompilation;

/* jdk.MethodTiming (JDK 25, JEP 520): exact invocation counts and times of chosen methods, as the
 * JVM reports them every chunk (counts since the method was instrumented). */
typedef struct
{
  gint64  time;
  guint32 method;
  guint32 reserved;
  gint64  invocations;
  gint64  minimum;           /* ns, -1 when not recorded */
  gint64  average;
  gint64  maximum;
} JvmsSamplesTiming;

/* Payloads, as stored raw or once lz4-decompressed (varint = unsigned LEB128, at most 10 bytes; zigzag for signed):
 *
 * Block: n_samples records, each
 *   varint  time - previous time (the first: time - block.first_time)
 *   u8      head: bits 0-1 kernel state (JvmsCpuState), bit 2 has a stack, bit 3 has a detail,
 *           bit 4 has the old-object pair; other bits 0
 *   varint  type id, varint thread id, [varint stack id], varint weight, [varint detail string id]
 *   [zigzag allocation time - time, varint object age ns]        (jdk.OldObjectSample)
 *
 * Node: varint n_sections, then n_sections x (varint type, varint thread, varint n_entries,
 *   varint bytes), sections in increasing (type, thread), then each section's entries. At levels
 *   >= JVMS_SAMPLES_ALL_THREADS_LEVEL each type's threads are followed by its section of thread
 *   NONE (0xFFFFFFFF): the same entries added over the threads. Entries of a section:
 *   varint stack + 1 - previous (stack + 1, 0 for "no stack") of the section, increasing
 *   varint count, varint weight, and for CPU types varint on_cpu, varint waiting (samples)
 */
typedef enum
{
  JVMS_CPU_STATE_UNKNOWN = 0,        /* no kernel layer, or the kernel did not say */
  JVMS_CPU_STATE_ON_CPU  = 1,        /* running (or in a system call) on a CPU */
  JVMS_CPU_STATE_WAITING = 2,        /* runnable, waiting for a CPU */
} JvmsCpuState;
#define JVMS_CPU_STATE_N 3

#define JVMS_SAMPLE_HEAD_STATE_MASK 0x03u
#define JVMS_SAMPLE_HEAD_STACK      0x04u
#define JVMS_SAMPLE_HEAD_DETAIL     0x08u
#define JVMS_SAMPLE_HEAD_OLD_OBJECT 0x10u

G_STATIC_ASSERT (sizeof (JvmsSamplesHeader) == 64);
G_STATIC_ASSERT (sizeof (JvmsSamplesTable) == 32);
G_STATIC_ASSERT (sizeof (JvmsSamplesMethod) == 8);
G_STATIC_ASSERT (sizeof (JvmsSamplesFrame) == 12);
G_STATIC_ASSERT (sizeof (JvmsSamplesStack) == 8);
G_STATIC_ASSERT (sizeof (JvmsSamplesPath) == 12);
G_STATIC_ASSERT (sizeof (JvmsSamplesThread) == 16);
G_STATIC_ASSERT (sizeof (JvmsSamplesType) == 32);
G_STATIC_ASSERT (sizeof (JvmsSamplesBlock) == 40);
G_STATIC_ASSERT (sizeof (JvmsSamplesNode) == 16);
G_STATIC_ASSERT (sizeof (JvmsSamplesCompilation) == 32);
G_STATIC_ASSERT (sizeof (JvmsSamplesTiming) == 48);

G_END_DECLS
