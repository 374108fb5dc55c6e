/* jvms-jfr-safepoints.h: a safepoint's JFR events gathered into one safepoint.
 *
 * HotSpot records a safepoint as up to four events sharing a safepointId, each stamped with its
 * start and delivered by the JFR reader in start order:
 *
 *   jdk.SafepointBegin                 [begin ............ sync end]  the VM thread waits for
 *                                                                     the GC's concurrent threads
 *                                                                     to yield, arms the poll,
 *                                                                     waits for every thread
 *   jdk.SafepointStateSynchronization          [sync ..... ]          from the arm to the last
 *                                                                     thread's arrival
 *   jdk.ExecuteVMOperation                                 [op ....]  the operation itself
 *   jdk.SafepointEnd                                            [end] disarm, wake the threads,
 *                                                                     let the GC threads resume
 *
 * Java threads run freely until the poll is armed (the start of the synchronisation): the window
 * in which they are stopped is [sync start, end end), not [begin, end). The collector keeps each
 * safepoint's events until its SafepointEnd comes (or, when the recording has none, until the
 * stream is past its operation), then hands the whole safepoint to a callback with its phases
 * (docs/attributes.md, VM/safepoint/phase). Memory: at most JVMS_SAFEPOINTS_MAX open ones.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JVMS_SAFEPOINTS_MAX 1024

/* The phases, as VM/safepoint/phase names them. */
#define JVMS_SAFEPOINT_PHASE_BEGIN         "begin"
#define JVMS_SAFEPOINT_PHASE_SYNCHRONIZING "synchronizing"
#define JVMS_SAFEPOINT_PHASE_OPERATION     "operation"
#define JVMS_SAFEPOINT_PHASE_RESUMING      "resuming"

typedef struct
{
  const char *name;        /* one of the JVMS_SAFEPOINT_PHASE_ names */
  gint64      start, end;
} JvmsSafepointPhase;

/* G_MININT64 for an event that was not recorded. */
typedef struct
{
  gint64      id;
  gint64      begin_start, begin_end;
  gint64      sync_start, sync_end;
  gint64      op_start, op_end;
  const char *operation;   /* jdk.ExecuteVMOperation's operation; NULL when not recorded */
  gint64      end_start, end_end;
  /* Computed when complete: */
  gint64      start, end;  /* the whole safepoint */
  gint64      stop_start;  /* where Java threads begin to be stopped: the arm */
  guint       n_phases;
  JvmsSafepointPhase phases[4];
} JvmsSafepoint;

typedef void (*JvmsSafepointFunc) (const JvmsSafepoint *safepoint,
                                   gpointer             user_data);

typedef struct _JvmsSafepoints JvmsSafepoints;

/* @done is called once per safepoint that has an operation or an end, in the order they
 * complete (their start order: safepoints do not overlap). */
JvmsSafepoints *jvms_safepoints_new       (JvmsSafepointFunc done,
                                           gpointer          user_data);
void            jvms_safepoints_free      (JvmsSafepoints   *self);
void            jvms_safepoints_begin     (JvmsSafepoints   *self,
                                           gint64            id,
                                           gint64            start,
                                           gint64            end);
void            jvms_safepoints_sync      (JvmsSafepoints   *self,
                                           gint64            id,
                                           gint64            start,
                                           gint64            end);
/* @operation is copied. */
void            jvms_safepoints_operation (JvmsSafepoints   *self,
                                           gint64            id,
                                           gint64            start,
                                           gint64            end,
                                           const char       *operation);
void            jvms_safepoints_end       (JvmsSafepoints   *self,
                                           gint64            id,
                                           gint64            start,
                                           gint64            end);
/* The stream reached @time: safepoints whose operation ended more than a millisecond before
 * (their SafepointEnd would have come) are complete without it. */
void            jvms_safepoints_advance   (JvmsSafepoints   *self,
                                           gint64            time);
/* Completes what can be; @unfinished is called for each safepoint that only began (the one JFR
 * takes to stop the recording has no operation and no end), in start order. */
void            jvms_safepoints_finish    (JvmsSafepoints   *self,
                                           JvmsSafepointFunc unfinished,
                                           gpointer          user_data);

G_END_DECLS
