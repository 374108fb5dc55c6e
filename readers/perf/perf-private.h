/* perf-private.h: the reader's state, shared by its files (jvms-perf-reader.c: file, header and
 * stream; perf-header.c: attributes and feature sections; perf-decode.c: records to events). */
#pragma once

#include <zstd.h>

#include "jvms-perf.h"
#include "perf-file.h"
#include "perf-order.h"
#include "perf-tracing.h"

typedef struct
{
  JvmsPerfAttr          pub;
  struct perf_event_attr attr;    /* zero-filled past the size the file declares */
  char                 *name;     /* owned; pub.name points here */
  const char           *counter;  /* the counter's plain name ("cycles"), owned by name or static */
  char                 *counter_owned;
  const PerfTpDecoder  *tp;       /* tracepoints whose format was found */
  gboolean              usable;   /* FALSE when the attr was damaged: its samples are skipped */
} PerfAttr;

/* One sample id (one attr on one CPU or thread) and the counter value last read through it,
 * for PERF_SAMPLE_READ, where perf reports the difference to the previous read. */
typedef struct
{
  guint64   id;
  PerfAttr *attr;
  guint64   last_value;
  gboolean  seen;       /* read at least once: last_value is a read, not the zero it starts at */
} PerfIdSlot;

/* A sample or a non-sample record's sample_id trailer, parsed. */
typedef struct
{
  guint64       id;
  guint64       time;
  guint64       period;
  gint32        pid, tid, cpu;
  gboolean      has_time;
  const guint8 *raw;
  guint32       raw_size;
  const guint8 *read;
  gsize         read_size;
} PerfSample;

#define PERF_OUT_MAX 64
#define PERF_SLOT_CACHE 61

struct _JvmsPerfReader
{
  char               *path;
  /* A file is read with pread into an anonymous mapping of its size at open, never mapped
   * itself: a file that shrinks while open would raise SIGBUS on a mapped page past its new end,
   * and an I/O error would too. The parts outside the record stream are read as the header
   * code asks for them (perf_reader_load), the record stream ahead of the cursor. */
  int                 fd;              /* -1 for bytes in memory */
  guint8             *mirror;          /* the anonymous mapping, size bytes */
  guint64             loaded_upto;     /* the record stream is read up to here */
  GBytes             *bytes;
  const guint8       *data;
  gsize               size;
  JvmsPerfReaderFlags flags;
  PerfFileHeader      header;
  GPtrArray          *warnings;
  guint64             header_bytes_read; /* by perf_reader_load, repeats included */

  PerfAttr           *attrs;
  guint               n_attrs;
  GHashTable         *id_to_slot;      /* &PerfIdSlot.id -> PerfIdSlot * (owned) */
  PerfIdSlot         *slot_cache[PERF_SLOT_CACHE];
  gint                sample_id_pos;   /* u64 index of the id in samples, -1 when none */
  gint                trailer_id_pos;  /* u64 index from the end in sample_id trailers, -1 */
  GPtrArray          *retired_names;   /* names replaced by EVENT_UPDATE, kept for events out */

  PerfTracing        *tracing;
  gint                n_cpus;
  JvmsPerfClockData   clock;
  gint                clockid;
  char               *hostname, *os_release, *perf_version;
  guint64             comp_mmap_len;

  /* The record stream. */
  guint64             data_start, data_end, pos;
  guint64             released_upto;   /* mapping pages before it were given back */
  gboolean            finalized;       /* header written at exit: features are there */
  ZSTD_DStream       *zstd;
  PerfChunk          *chunk;           /* the decompressed block being walked */
  gsize               chunk_pos;
  guint64             chunk_offset;    /* the compressed record it came from */
  guint8             *carry;           /* a record cut at the end of the previous block */
  gsize               carry_len;
  gsize               live_chunk_bytes;
  PerfOrder           order;
  gboolean            at_end;
  gboolean            warned_end;
  GError             *stop_error;

  /* Events decoded from one record: a group read gives one per counter. */
  JvmsKernelEvent     out[PERF_OUT_MAX];
  guint               n_out, out_pos;
  char                filename[4096];

  gint64              first_time, last_time, last_delivered;
  guint64             lost, lost_samples, n_unordered;
  guint64             n_unknown_id, n_bad_samples, n_unknown_type;
  guint64             first_unknown_id_offset, first_bad_sample_offset, first_unknown_type_offset;
  guint32             first_unknown_type;
};

/* jvms-perf-reader.c: makes [offset, offset + size) of the file readable at self->data. FALSE
 * with @error naming the file and offset when it cannot be read (I/O error, or the file shrank
 * since open). Always TRUE for bytes in memory. */
gboolean perf_reader_load          (JvmsPerfReader *self, guint64 offset, guint64 size, GError **error);

/* perf-header.c */
gboolean perf_header_read_attrs    (JvmsPerfReader *self, GError **error);
void     perf_header_read_features (JvmsPerfReader *self);
void     perf_header_name_attrs    (JvmsPerfReader *self);
void     perf_reader_warn          (JvmsPerfReader *self, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* perf-decode.c */
PerfAttr *perf_decode_attr_of     (JvmsPerfReader *self, const guint8 *rec, gsize size);
/* The record's time, 0 when it has none. */
guint64   perf_decode_time        (JvmsPerfReader *self, const guint8 *rec, gsize size);
/* Decodes one kernel record into self->out. */
void      perf_decode_record      (JvmsPerfReader *self, const guint8 *rec, gsize size, guint64 offset);
const char *perf_record_type_name (guint32 type);
