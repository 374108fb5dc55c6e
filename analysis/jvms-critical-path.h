/* jvms-critical-path.h: the critical path of a thread over a range — the chain of work it waited
 * on (docs/critical-path.md).
 *
 * Walking back from the end of the range: while the thread ran (or waited for a CPU), the path
 * is the thread itself; while it waited, the path is the thread that ended the wait (its kernel
 * waker, else for a monitor JFR's previous owner), over the wait, recursively — what the waker
 * did from the start of the wait until it woke the thread, and whom it waited for in turn. Where
 * the waker is a device, a timer, an interrupt or not recorded, the path stays on the waiting
 * thread with that cause. The segments cover the range exactly, in time order, and add up to
 * it. After the critical path analysis of Trace Compass (Giraldeau and Dagenais, "Wait analysis
 * of distributed systems using kernel tracing", 2016), carried across the JVM's layer.
 */
#pragma once

#include <gio/gio.h>

#include "jvms-evidence.h"
#include "jvms-history.h"

G_BEGIN_DECLS

typedef struct
{
  gint64      tid;
  const char *name;    /* the thread's name (the path's strings) */
  const char *state;   /* "running", "runnable", "blocked", "blocked-io", "unknown" (kernel); the
                        * user state's name where only JFR speaks ("parked", "blocked"...) */
  const char *cause;   /* why the path is here: "running", "waiting for a CPU", "in read",
                        * "disk 8:0", "interrupt", "timer or interrupt (idle CPU)",
                        * "no wake-up recorded", "not followed: ..." */
  gint64      from, to;
} JvmsPathSegment;

/* Where the path moved from one thread to another: @waker ended @woken's wait at @at. Over
 * [@from, @at) the path followed the waker for this wait: from the wait's start, or the start of
 * the part of the path @woken was asked over, to the wake-up. It is this hand-off's part of the
 * waker's cause intervals (JvmsPathCause: a waker's are the union of its hand-offs' and of the
 * waits it had not ended by the range's end), what the window's link to the hand-off selects. */
typedef struct
{
  gint64 waker, woken;
  gint64 at;
  gint64 from;
} JvmsPathHandoff;

/* A thread the path waited on (issue 20), with the report's meaning of a cause's intervals
 * (docs/report.md): where that thread was the cause, on the path. */
typedef struct
{
  const char *kind;     /* "waker": it ended a wait the path follows it over (the kernel's
                         * waker); "holder": it released a monitor the path waited on (JFR's
                         * previous owner, without a kernel waker); "preempted-by": it ran on
                         * the CPU a thread of the path waited for (runnable) */
  gint64      tid;
  const char *name;
  gint64      pid;      /* -1 when unknown */
  gint64      ns;       /* the union of all its intervals */
  /* JvmsEvidenceInterval: its longest (at most JVMS_EVIDENCE_MAX_INTERVALS), disjoint, the
   * longest first, ties earliest first. A waker's or holder's are the parts of the waits it
   * ended that lie in the range (from the wait's start, or the part of the path it was asked
   * over, to the wake-up: the path follows it there, and whom it waited on in turn); a
   * preempter's its running on that CPU while the path's thread waited for it. */
  GArray     *intervals;
} JvmsPathCause;

typedef struct
{
  gint64        tid;
  const char   *name;
  gint64        from, to;     /* the range, clamped to the history */
  GArray       *segments;     /* JvmsPathSegment, in time order, covering [from, to) */
  GArray       *handoffs;     /* JvmsPathHandoff, in time order */
  GArray       *causes;       /* JvmsPathCause, most ns first (ties: kind, then tid) */
  guint         n_threads;    /* distinct threads on the path */
  guint         n_queries;    /* history queries made: one per thread visited */
  gboolean      truncated;    /* a bound stopped following (depth or segments) */
  GStringChunk *strings;
} JvmsCriticalPath;

/* The path of thread @tid over [@from, @to) of @history. FALSE with an error when the history
 * cannot be read (damage) or @tid is no thread of it. */
JvmsCriticalPath *jvms_critical_path_compute (JvmsHistory    *history,
                                              gint64          tid,
                                              gint64          from,
                                              gint64          to,
                                              GCancellable   *cancellable,
                                              GError        **error);
/* The same in a worker thread. */
void              jvms_critical_path_compute_async  (JvmsHistory         *history,
                                                     gint64               tid,
                                                     gint64               from,
                                                     gint64               to,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
JvmsCriticalPath *jvms_critical_path_compute_finish (GAsyncResult        *result,
                                                     GError             **error);
void              jvms_critical_path_free    (JvmsCriticalPath *self);

/* Time on the path per thread, most first: an array of JvmsPathSegment whose from is 0 and to
 * the thread's nanoseconds (state and cause NULL). */
GArray           *jvms_critical_path_by_thread (const JvmsCriticalPath *self);

/* The JSON of docs/critical-path.md; @start is the history's start (offsets count from it). */
char             *jvms_critical_path_to_json (const JvmsCriticalPath *self,
                                              gint64                  start);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsCriticalPath, jvms_critical_path_free)

G_END_DECLS
