/* perf-file.h: the on-disk layout of a perf.data file (tools/perf/Documentation/
 * perf.data-file-format.txt), as far as this reader needs it. Everything is little-endian:
 * byte-swapped files are refused at open. The kernel records themselves (perf_event_header,
 * perf_event_attr, PERF_SAMPLE_* bits) come from <linux/perf_event.h>.
 */
#pragma once

#include <glib.h>
#include <linux/perf_event.h>

/* "PERFILE2" read as a little-endian u64; the byte-swapped value marks a big-endian file. */
#define PERF_MAGIC2      G_GUINT64_CONSTANT (0x32454c4946524550)
#define PERF_MAGIC2_SWAP G_GUINT64_CONSTANT (0x50455246494c4532)
#define PERF_MAGIC1      G_GUINT64_CONSTANT (0x454c494652455000) /* "PERFILE" v1 */

typedef struct
{
  guint64 offset;
  guint64 size;
} PerfFileSection;
G_STATIC_ASSERT (sizeof (PerfFileSection) == 16);

/* The file header, at offset 0. */
typedef struct
{
  guint64         magic;
  guint64         size;       /* of this header: 104 in file mode, 16 in pipe mode */
  guint64         attr_size;  /* of one PerfFileAttr entry: the attr plus its ids section */
  PerfFileSection attrs;
  PerfFileSection data;
  PerfFileSection event_types; /* unused since 2012 */
  guint64         features[4]; /* bit n set: feature n has a section after the data */
} PerfFileHeader;
G_STATIC_ASSERT (sizeof (PerfFileHeader) == 104);

/* Feature numbers (HEADER_* in tools/perf/util/header.h). */
enum
{
  PERF_FEAT_TRACING_DATA = 1,
  PERF_FEAT_BUILD_ID     = 2,
  PERF_FEAT_HOSTNAME     = 3,
  PERF_FEAT_OSRELEASE    = 4,
  PERF_FEAT_VERSION      = 5,
  PERF_FEAT_ARCH         = 6,
  PERF_FEAT_NRCPUS       = 7,
  PERF_FEAT_EVENT_DESC   = 12,
  PERF_FEAT_SAMPLE_TIME  = 21,
  PERF_FEAT_CLOCKID      = 23,
  PERF_FEAT_COMPRESSED   = 27,
  PERF_FEAT_CLOCK_DATA   = 29,
  PERF_FEAT_BITS         = 256,
};

/* Record types perf itself writes into the stream (PERF_RECORD_USER_TYPE_START and up). */
enum
{
  PERF_REC_HEADER_ATTR         = 64,
  PERF_REC_HEADER_EVENT_TYPE   = 65,
  PERF_REC_HEADER_TRACING_DATA = 66,
  PERF_REC_HEADER_BUILD_ID     = 67,
  PERF_REC_FINISHED_ROUND      = 68,
  PERF_REC_ID_INDEX            = 69,
  PERF_REC_AUXTRACE_INFO       = 70,
  PERF_REC_AUXTRACE            = 71,
  PERF_REC_AUXTRACE_ERROR      = 72,
  PERF_REC_THREAD_MAP          = 73,
  PERF_REC_CPU_MAP             = 74,
  PERF_REC_STAT_CONFIG         = 75,
  PERF_REC_STAT                = 76,
  PERF_REC_STAT_ROUND          = 77,
  PERF_REC_EVENT_UPDATE        = 78,
  PERF_REC_TIME_CONV           = 79,
  PERF_REC_HEADER_FEATURE      = 80,
  PERF_REC_COMPRESSED          = 81, /* header, then zstd bytes up to header.size */
  PERF_REC_FINISHED_INIT       = 82,
  PERF_REC_COMPRESSED2         = 83, /* header, u64 data_size, zstd bytes; size padded to 8 */
};

/* CLOCK_DATA feature body. */
typedef struct
{
  guint32 version;
  guint32 clockid;
  guint64 wall_clock_ns;
  guint64 clockid_time_ns;
} PerfClockDataFeature;
G_STATIC_ASSERT (sizeof (PerfClockDataFeature) == 24);

/* COMPRESSED feature body: what the -z stream was written with. */
typedef struct
{
  guint32 version;
  guint32 type;     /* 1: zstd */
  guint32 level;
  guint32 ratio;
  guint32 mmap_len; /* the largest decompressed size of one compressed record */
} PerfCompressedFeature;
G_STATIC_ASSERT (sizeof (PerfCompressedFeature) == 20);

/* EVENT_UPDATE record body after the header: u64 type, u64 id, then the payload. */
enum
{
  PERF_EVENT_UPDATE_NAME = 2,
};
