/* jvms-quanta.h: the scheduling quanta of the JVM's threads, read from an index (issue 22,
 * docs/records.md): one record per thread, CPU and stretch on that CPU between a switch-in and a
 * switch-out.
 *
 * Derived from Threads/<tid>/kernel-state and kernel-state/cpu (docs/attributes.md) alone: a
 * quantum is a run of RUNNING and SYSCALL intervals on one CPU, back to back. The kernel machine
 * writes the state after a switch-out from sched_switch's prev_state (R or preempted: RUNNABLE;
 * D: BLOCKED_IO; dead: EXITED; else BLOCKED), and nothing else turns an on-CPU state into those,
 * so the interval after a quantum says how it ended. A quantum is `complete` when the interval
 * before it is a wait that only a switch-in ends (RUNNABLE, BLOCKED, BLOCKED_IO) and the one
 * after it is one of those four: its start and end are recorded switches. Others began at the
 * trace's start, at the first evidence of a thread whose switch-in was lost, or ended at lost
 * events or the trace's end: their times are what the index proves, never stretched.
 *
 * Columns (jvms-record-table.h): `start` (ns from the history's start), `epoch_ns`, `duration`
 * (ns, metric), `tid`, `thread`, `cpu`, `method` (the top Java frame of the thread's latest
 * execution sample at the switch-out: Threads/<tid>/method at the quantum's last nanosecond,
 * else the latest sample within the quantum; missing when none), `preempted` (1 preempted,
 * 0 blocked or exited, missing when the end was not a switch), `end` ("preempted", "blocked",
 * "blocked-io", "exited", "unknown"), `complete` (1 or 0), then one metric per counter the trace
 * sampled for the thread (`cycles`, `instructions`, `task-clock`...).
 *
 * Counters per quantum are estimated (the column's basis says so): the trace holds a counter
 * sample every N events, and each sample's N events are spread over the thread's on-CPU time
 * since its previous sample, in proportion. So the estimates of a thread's quanta add up to
 * its sampled total (but the events before its first sample), and a quantum with no sample near
 * it gets its share of its neighbours'.
 *
 * Threads: any (reads the history only).
 */
#pragma once

#include "jvms-history.h"
#include "jvms-record-table.h"

G_BEGIN_DECLS

/* The quanta of the JVM's threads (Threads/<tid>/kind not other-process) that start in
 * [@from, @to) (epoch ns), ordered by thread then start. NULL with a JVMS_HISTORY_ERROR when a
 * node the query reads is damaged. */
JvmsRecordTable *jvms_quanta_read (JvmsHistory  *history,
                                   gint64        from,
                                   gint64        to,
                                   GError      **error);

G_END_DECLS
