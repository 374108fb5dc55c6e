/* jvms-disk-requests.h: each block I/O request of a device as an interval, from its
 * block_rq_insert (or its block_rq_issue when the kernel issued it without queueing it) to its
 * block_rq_complete, in the lowest free slot of the device (docs/attributes.md, "Disk"):
 *
 *   Disk/<major:minor>/requests/<slot>          int: pid of the process that issued it
 *   Disk/<major:minor>/requests/<slot>/bytes    int: its size (sectors x 512)
 *   Disk/<major:minor>/requests/<slot>/op       string: the kernel's rwbs ("W", "WS", "R", "FF")
 *   Disk/<major:minor>/requests/<slot>/issued   int: 0 while queued, 1 once issued to the device
 *
 * Requests overlap (the queue holds several): a slot holds one at a time, so that each request
 * is one interval of its own. A completion is matched to the oldest request outstanding at its
 * sector (a flush, issued at sector 0 with no data, completes at sector 2^64 - 1: flushes are
 * matched among flushes); one without a request (issued before the recording) is ignored. */
#pragma once

#include "jvms-writer.h"

G_BEGIN_DECLS

/* Slots of a device: requests beyond that many outstanding are counted (n_overflow), drawn only
 * in the device's queue depth, and said in a note (jvms_kernel_machine_add_disk_notes). An NVMe queue holds up to 1,023 commands, and a readahead burst
 * on a busy CI machine had more than 128 in flight (slots are made at their first use). */
#define JVMS_DISK_REQUESTS_MAX_SLOTS 1024
/* Requests outstanding that a device keeps track of: a stream of inserts never completed
 * (completions lost) must not grow without bound. */
#define JVMS_DISK_REQUESTS_MAX_PENDING 65536
/* A request with no completion this long before the trace's end is said in a note: a disk that
 * stalled that long, or more likely a completion the kernel did not record (a kernel that records
 * nothing in the idle task loses a completion interrupt on an idle CPU). Either way its interval
 * runs to the trace's end, and the note says so. Requests younger than this were most likely
 * still in flight when recording stopped (JFR's own dump writes at the end). */
#define JVMS_DISK_REQUESTS_LONG_NS (G_GINT64_CONSTANT (1000000000))

typedef struct _JvmsDiskRequests JvmsDiskRequests;

/* @device: "major:minor". */
JvmsDiskRequests *jvms_disk_requests_new        (JvmsWriter       *writer,
                                                 const char       *device);
void              jvms_disk_requests_free       (JvmsDiskRequests *self);
/* @pid: the process in whose context the event was recorded (-1 unknown). */
void              jvms_disk_requests_insert     (JvmsDiskRequests *self,
                                                 gint64            time,
                                                 guint64           sector,
                                                 guint32           nr_sector,
                                                 const char       *rwbs,
                                                 gint32            pid);
void              jvms_disk_requests_issue      (JvmsDiskRequests *self,
                                                 gint64            time,
                                                 guint64           sector,
                                                 guint32           nr_sector,
                                                 const char       *rwbs,
                                                 gint32            pid);
void              jvms_disk_requests_complete   (JvmsDiskRequests *self,
                                                 gint64            time,
                                                 guint64           sector);
/* Requests that found no free slot, or no room among the outstanding ones. */
guint64           jvms_disk_requests_n_overflow (JvmsDiskRequests *self);
/* Requests begun at or before @before and not completed yet (so far: at the trace's end, those
 * with no completion in the trace); *@oldest: when the oldest of them began (G_MAXINT64: none). */
guint64           jvms_disk_requests_n_outstanding (JvmsDiskRequests *self,
                                                    gint64            before,
                                                    gint64           *oldest);

G_END_DECLS
