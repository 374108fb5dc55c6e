/* jvms-ctf.h: LTTng kernel traces (CTF 1.8 folders) read through libbabeltrace2.
 *
 * The reader runs a babeltrace2 graph of `source.ctf.fs` and a sink of its own, one input port
 * per data stream, and merges the streams by event time itself: babeltrace2's muxer stops at
 * the first packet whose beginning precedes the previous packet's end, which LTTng 2.1-era
 * traces do, and the events themselves are what must be in order.
 *
 * Events come as JvmsKernelEvents in non-decreasing time order. Times are the clock
 * snapshots in ns from the clock's origin (the Unix epoch for LTTng's monotonic clock with its
 * offset). The CPU is the packet context's `cpu_id`. pid and tid come from the event's
 * context fields when the trace was recorded with them (`lttng add-context -k -t pid -t tid`),
 * otherwise tid is the thread the last sched_switch put on that CPU and pid the process that
 * statedump, fork and exec events said owns that tid (-1 when not known yet).
 *
 * Normalisations, so that analysis sees the same values as from perf: sched_switch prios are
 * the kernel's p->prio (LTTng subtracts 100 in sched_switch only), prev_state is mapped to
 * JvmsTaskState bits whatever the traced kernel's version, block rwbs is rendered as the
 * kernel's text ("WS", "R"...) from LTTng's flag integer.
 *
 * Damage: a missing or unparsable metadata file fails the open, with the TSDL line and
 * babeltrace2's causes in the message. A stream file babeltrace2 cannot index (cut, zero-filled,
 * a broken packet header, a packet of size 0 on which babeltrace2 would loop) is read up to its
 * last good packet, and resumed at the next good packet, from a repaired copy in a temporary
 * folder, with a warning naming the file and the byte ranges skipped. An error while decoding
 * events of one stream ends that stream only (warning); the others go on.
 */
#pragma once

#include <glib.h>

#include "jvms-kernel-event.h"

G_BEGIN_DECLS

#define JVMS_CTF_ERROR (jvms_ctf_error_quark ())
GQuark jvms_ctf_error_quark (void);

typedef enum
{
  JVMS_CTF_ERROR_NOT_FOUND,  /* the folder does not exist or holds no metadata file */
  JVMS_CTF_ERROR_METADATA,   /* the metadata file cannot be read or parsed */
  JVMS_CTF_ERROR_STREAM,     /* no stream file could be read */
  JVMS_CTF_ERROR_BABELTRACE, /* libbabeltrace2 failed otherwise (plugin missing, out of memory) */
} JvmsCtfError;

typedef enum
{
  JVMS_CTF_READER_DEFAULT    = 0,
  /* Fill only type, name, time and cpu: no payload field is read (counting). */
  JVMS_CTF_READER_NAMES_ONLY = 1 << 0,
} JvmsCtfReaderFlags;

/* What the trace says about itself; strings are NULL when the trace does not say. */
typedef struct
{
  const char *hostname;        /* env.hostname */
  const char *domain;          /* env.domain: "kernel" or "ust" */
  const char *sysname;         /* env.sysname */
  const char *kernel_release;  /* env.kernel_release ("3.6.11-1-ARCH") */
  const char *kernel_version;  /* env.kernel_version ("#1 SMP PREEMPT ...") */
  const char *tracer_name;     /* env.tracer_name ("lttng-modules") */
  gint        tracer_major, tracer_minor, tracer_patchlevel; /* -1 when absent */

  const char *clock_name;      /* the stream clock ("monotonic") */
  guint64     clock_frequency; /* Hz */
  gint64      clock_offset_seconds;
  guint64     clock_offset_cycles;
  gboolean    clock_origin_is_unix_epoch;

  /* From the packet index (packet timestamps, before any event is read), ns from origin;
   * 0 when the trace holds no packet. */
  gint64      begin_ns, end_ns;
  guint       n_streams;       /* data streams (one per CPU and channel for LTTng) */
} JvmsCtfTraceInfo;

typedef struct _JvmsCtfReader JvmsCtfReader;

/* Opens the trace in @folder (the folder holding `metadata`, e.g. `.../kernel`; a session
 * folder is accepted too: every trace up to three levels below it is read and merged). NULL
 * with @error, naming the folder and what is wrong, when nothing can be read. The first call
 * loads babeltrace2's ctf plugin, after setting BABELTRACE_PLUGIN_CTF_METADATA_LOG_LEVEL=E in
 * the environment when unset (see docs/formats.md). */
JvmsCtfReader          *jvms_ctf_reader_open         (const char          *folder,
                                                      JvmsCtfReaderFlags   flags,
                                                      GError             **error);
void                    jvms_ctf_reader_free         (JvmsCtfReader       *self);

/* The trace folders jvms_ctf_reader_open() reads for @folder: @folder itself when it holds an
 * entry named `metadata` (of any type: the open says what is wrong with one that is not a
 * file), otherwise every such folder up to three levels below it, sorted. Folders reached
 * through a symbolic link are not entered, a folder seen twice (a bind mount) is entered once,
 * and the search gives up after 10,000 folders. An empty array when there is none. */
GPtrArray              *jvms_ctf_find_traces         (const char          *folder);

const JvmsCtfTraceInfo *jvms_ctf_reader_get_info     (JvmsCtfReader       *self);

/* Fills @event with the next event. FALSE at the end (error unset) or when the graph itself
 * failed (error set; every event before delivered). Strings in @event stay valid until the
 * next call. */
gboolean                jvms_ctf_reader_next         (JvmsCtfReader       *self,
                                                      JvmsKernelEvent     *event,
                                                      GError             **error);

/* Damage survived so far, each message naming the file and what is wrong. */
GPtrArray              *jvms_ctf_reader_get_warnings (JvmsCtfReader       *self);

/* Complete once jvms_ctf_reader_next() has returned FALSE. */
gint64                  jvms_ctf_reader_get_first_time   (JvmsCtfReader   *self); /* or 0 */
gint64                  jvms_ctf_reader_get_last_time    (JvmsCtfReader   *self); /* or 0 */
/* Events the tracer said it discarded (the sum of the LOST events delivered). */
guint64                 jvms_ctf_reader_get_discarded    (JvmsCtfReader   *self);
/* Events stamped before an event already delivered from the same stream: delivered with the
 * previous time (their own is lost), and counted here. */
guint64                 jvms_ctf_reader_get_n_unordered  (JvmsCtfReader   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsCtfReader, jvms_ctf_reader_free)

G_END_DECLS
