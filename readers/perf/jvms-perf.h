/* jvms-perf.h: a native reader of perf.data files as perf 6.1 (Debian 12) writes them.
 *
 * The reader maps the file, reads its header, attributes and feature sections at open, then
 * streams the record stream (compressed records included) as JvmsKernelEvents in non-decreasing
 * time order: records are ordered only per CPU ring buffer in the file, so they are merged per
 * FINISHED_ROUND as perf does, within a bounded window.
 *
 * Records without a timestamp (the records perf synthesizes for threads that existed before the
 * recording, or every record of an attribute without sample_id_all) are delivered with time 0 at
 * their position in the stream; only events with a time take part in the order.
 *
 * Damage: jvms_perf_reader_next() delivers every complete record before the damage, then
 * returns FALSE with an error naming the file, the offset and the structure. Damage that can be
 * survived (a feature section, one event format, an unknown record type) becomes a warning.
 */
#pragma once

#include <glib.h>

#include "jvms-kernel-event.h"

G_BEGIN_DECLS

#define JVMS_PERF_ERROR (jvms_perf_error_quark ())
GQuark jvms_perf_error_quark (void);

typedef enum
{
  JVMS_PERF_ERROR_IO,          /* the file could not be opened or read (I/O error, shrank) */
  JVMS_PERF_ERROR_NOT_PERF,    /* no PERFILE2 magic */
  JVMS_PERF_ERROR_UNSUPPORTED, /* big-endian files, pipe-mode streams, version 1 */
  JVMS_PERF_ERROR_TRUNCATED,   /* the file ends inside a structure */
  JVMS_PERF_ERROR_CORRUPT,     /* a structure holds impossible values */
} JvmsPerfError;

typedef enum
{
  JVMS_PERF_READER_DEFAULT   = 0,
  /* Deliver records in file order, without the time merge. Counter values read with a group
   * (PERF_SAMPLE_READ) become events only when they moved since the previous read, in delivery
   * order: their counts then differ slightly from perf script's, which reads in time order. */
  JVMS_PERF_READER_UNORDERED = 1 << 0,
  /* Fill only type, name, time, cpu, pid and tid: no tracepoint field is read. */
  JVMS_PERF_READER_NAMES_ONLY = 1 << 1,
} JvmsPerfReaderFlags;

/* CLOCK_DATA feature: one reading of the wall clock and of the recording clock taken together,
 * what aligns perf time with other clocks. */
typedef struct
{
  gboolean present;
  guint32  version;
  gint32   clockid;    /* the recording clock (CLOCK_MONOTONIC = 1 for our bundles) */
  guint64  tod_ns;     /* wall-clock time, ns since the Unix epoch */
  guint64  clockid_ns; /* the recording clock at the same instant */
} JvmsPerfClockData;

/* One event attribute (one -e of perf record). */
typedef struct
{
  const char *name;          /* as `perf script` prints it: "sched:sched_switch", "cycles" */
  guint32     type;          /* PERF_TYPE_* */
  guint64     config;        /* for tracepoints: the event id in the format texts */
  guint64     sample_type;   /* PERF_SAMPLE_* bits */
  guint64     read_format;   /* PERF_FORMAT_* bits */
  guint64     sample_period; /* or frequency when @freq */
  gboolean    freq;
  gboolean    use_clockid;
  gint32      clockid;
  guint       n_ids;
} JvmsPerfAttr;

typedef struct _JvmsPerfReader JvmsPerfReader;

/* Opens @path and reads everything before the record stream; the stream is read as it is
 * walked (pread, no file mapping: a file that shrinks or fails to read while open stops the
 * stream with JVMS_PERF_ERROR_IO naming the offset, after every event before it). NULL with
 * @error when the file is not a perf.data file this reader can read at all. */
JvmsPerfReader   *jvms_perf_reader_open           (const char          *path,
                                                   JvmsPerfReaderFlags  flags,
                                                   GError             **error);
/* The same on bytes in memory (fuzzing, tests); @name is used in messages. */
JvmsPerfReader   *jvms_perf_reader_open_bytes     (GBytes              *bytes,
                                                   const char          *name,
                                                   JvmsPerfReaderFlags  flags,
                                                   GError             **error);
void              jvms_perf_reader_free           (JvmsPerfReader      *self);

/* Fills @event with the next event. Returns FALSE at the end of the stream (error unset) or at
 * damage that stops the stream (error set, every event before it delivered). Strings in @event
 * stay valid until the next call. */
gboolean          jvms_perf_reader_next           (JvmsPerfReader      *self,
                                                   JvmsKernelEvent     *event,
                                                   GError             **error);

/* Damage survived so far, each message naming the file, offset and structure. */
GPtrArray        *jvms_perf_reader_get_warnings   (JvmsPerfReader      *self);

/* Bytes of the header sections (attributes, their ids, feature sections) read so far, repeats
 * included: a count tests use to check that a hostile header costs work in proportion to the
 * file. */
guint64           jvms_perf_reader_get_header_bytes_read (JvmsPerfReader *self);

/* Header information, available after open. */
guint             jvms_perf_reader_get_n_attrs    (JvmsPerfReader      *self);
const JvmsPerfAttr *jvms_perf_reader_get_attr     (JvmsPerfReader      *self,
                                                   guint                index);
/* CPUs online when recorded (NRCPUS feature), or -1 when the file does not say. */
gint              jvms_perf_reader_get_n_cpus     (JvmsPerfReader      *self);
/* The recording clock: from CLOCK_DATA, else from the attributes' clockid, else -1 (perf's
 * default clock, which is not CLOCK_MONOTONIC). */
gint              jvms_perf_reader_get_clockid    (JvmsPerfReader      *self);
const JvmsPerfClockData *jvms_perf_reader_get_clock_data (JvmsPerfReader *self);
const char       *jvms_perf_reader_get_hostname   (JvmsPerfReader      *self); /* NULL if absent */
const char       *jvms_perf_reader_get_os_release (JvmsPerfReader      *self); /* NULL if absent */
const char       *jvms_perf_reader_get_perf_version (JvmsPerfReader    *self); /* NULL if absent */
guint64           jvms_perf_reader_get_file_size  (JvmsPerfReader      *self);
/* Bytes of the record stream consumed so far, for progress. */
guint64           jvms_perf_reader_get_data_size  (JvmsPerfReader      *self);
guint64           jvms_perf_reader_get_data_consumed (JvmsPerfReader   *self);

/* Stream information, complete once jvms_perf_reader_next() has returned FALSE. */
/* The first and last non-zero event times delivered, or 0. */
gint64            jvms_perf_reader_get_first_time (JvmsPerfReader      *self);
gint64            jvms_perf_reader_get_last_time  (JvmsPerfReader      *self);
/* Events dropped by the recorder: the sum of LOST records, or perf's LOST_SAMPLES totals when
 * larger (perf 6.1 writes both for the same losses; they are never added). */
guint64           jvms_perf_reader_get_lost       (JvmsPerfReader      *self);
/* perf's LOST_SAMPLES totals alone: the samples the kernel counted as dropped for each event
 * (perf 6.0+ writes them when it stops; LOST records say where, these say how many). */
guint64           jvms_perf_reader_get_lost_samples (JvmsPerfReader    *self);
/* Events that arrived after a later event had been delivered (beyond the merge window). */
guint64           jvms_perf_reader_get_n_unordered (JvmsPerfReader     *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsPerfReader, jvms_perf_reader_free)

G_END_DECLS
