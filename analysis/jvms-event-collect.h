/* jvms-event-collect.h: the indexer's events into an event store (docs/events.md, "What is
 * stored").
 *
 * Every JFR event becomes a row of its type: start time, duration (0 for types without one),
 * thread (eventThread, else sampledThread; numbered as docs/attributes.md numbers threads), and
 * every other field as the JFR reader gives it: numbers, booleans and strings as they are,
 * @Timestamp fields as epoch ns, @Timespan fields as ns, threads, classes and methods as their
 * names, a stack trace as its top frame (and the row's stack id in the sample store, when the
 * stack hook gives one), simple types as the value they wrap, other objects flattened into
 * "field.member" (four levels at most), arrays as text.
 *
 * From the kernel layer: each system call as a row "syscall:NAME" from entry to exit (its
 * latency) with its return value; each block request as "block:request" from insertion (or
 * issue) to completion, with its device, sector, size, flags and time queued; process fork,
 * exec and exit; lost-event records. Scheduler events are the index's intervals and are not
 * repeated here.
 */
#pragma once

#include "jvms-event-writer.h"
#include "jvms-jfr.h"
#include "jvms-kernel-event.h"

G_BEGIN_DECLS

typedef struct _JvmsEventCollect JvmsEventCollect;

/* The stack id of @event in the sample store's stack table, or JVMS_EVENT_NONE. @values are
 * the event's fields as jvms_jfr_event_get_values() read them, the first @n_good read before
 * any damage: the sample store takes the keys it needs from them rather than read them again. */
typedef guint32 (*JvmsEventStackFunc) (const JvmsJfrEvent *event,
                                       const JvmsJfrValue *values,
                                       guint               n_good,
                                       gpointer            user_data);

/* Writes into @writer, which must outlive it. */
JvmsEventCollect *jvms_event_collect_new            (JvmsEventWriter       *writer);
void              jvms_event_collect_free           (JvmsEventCollect      *self);
void              jvms_event_collect_set_stack_func (JvmsEventCollect      *self,
                                                     JvmsEventStackFunc     func,
                                                     gpointer               user_data);
/* Events in the merged stream's order (non-decreasing start time across both calls). */
void              jvms_event_collect_jfr            (JvmsEventCollect      *self,
                                                     const JvmsJfrEvent    *event);
/* @offset moves the kernel clock onto the epoch axis. Untimed events are ignored. */
void              jvms_event_collect_kernel         (JvmsEventCollect      *self,
                                                     const JvmsKernelEvent *event,
                                                     gint64                 offset);
/* The trace ended: system calls and requests still open keep an unknown duration. */
void              jvms_event_collect_finish         (JvmsEventCollect      *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsEventCollect, jvms_event_collect_free)

G_END_DECLS
