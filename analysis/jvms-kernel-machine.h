/* jvms-kernel-machine.h: kernel events (readers/kernel) into the kernel attributes of
 * docs/attributes.md: Threads/<tid>/kernel-state (+cpu, +syscall), CPUs/<n>/current-thread and
 * current-pid, per-thread and per-CPU counter rates, Disk/<dev>/queue and in-flight.
 *
 * A thread's state is written one transition late: the interval that ends at a transition is
 * emitted only when that transition is seen, so that a transition that contradicts it (a
 * switch-out of a thread never switched in: a lost switch record) can turn it into UNKNOWN
 * instead of a state the kernel never reported.
 */
#pragma once

#include "jvms-kernel-event.h"
#include "jvms-threads.h"

G_BEGIN_DECLS

typedef struct _JvmsKernelMachine JvmsKernelMachine;

/* @offset_ns is added to every event time to put it on the index's axis (epoch ns). */
JvmsKernelMachine *jvms_kernel_machine_new    (JvmsWriter             *writer,
                                               JvmsThreads            *threads,
                                               gint64                  offset_ns);
void               jvms_kernel_machine_free   (JvmsKernelMachine      *self);
/* Events in non-decreasing time; time 0 ("no time", perf's synthesized records) is taken as
 * the history start. */
void               jvms_kernel_machine_feed   (JvmsKernelMachine      *self,
                                               const JvmsKernelEvent  *event);
/* Emits every pending interval; call before closing the builder at @end_time. */
void               jvms_kernel_machine_finish (JvmsKernelMachine      *self,
                                               gint64                  end_time);
guint64            jvms_kernel_machine_n_unknown (JvmsKernelMachine   *self);
guint64            jvms_kernel_machine_n_lost    (JvmsKernelMachine   *self);

G_END_DECLS
