/* jvms-kernel-machine.h: kernel events (readers/kernel) into the kernel attributes of
 * docs/attributes.md: Threads/<tid>/kernel-state (+cpu, +syscall), CPUs/<n>/current-thread and
 * current-pid, per-thread and per-CPU counter rates, Disk/<dev>/queue and in-flight.
 *
 * A thread's state is written one transition late: the interval that ends at a transition is
 * emitted only when that transition is seen, so that a transition that contradicts it (a
 * switch-out of a thread never switched in: a lost switch record) can turn it into UNKNOWN
 * instead of a state the kernel never reported.
 *
 * Evidence: an event recorded in a thread's own context (its tid is the perf sample's: a wake-up
 * it emits, a syscall, a counter sample, its own switch-out) proves it is on that CPU then. When
 * the machine believed otherwise, a switch record is missing: the state it believed holds only
 * up to the last time it was certain (the transition that began it, or the last evidence of it),
 * is UNKNOWN from there to the evidence, and RUNNING on that CPU from the evidence on
 * (docs/analysis.md, "Missing switch records").
 */
#pragma once

#include "jvms-kernel-event.h"
#include "jvms-samples-format.h"
#include "jvms-threads.h"

G_BEGIN_DECLS

typedef struct _JvmsKernelMachine JvmsKernelMachine;

/* @offset_ns is added to every event time to put it on the index's axis (epoch ns). */
JvmsKernelMachine *jvms_kernel_machine_new    (JvmsWriter             *writer,
                                               JvmsThreads            *threads,
                                               gint64                  offset_ns);
void               jvms_kernel_machine_free   (JvmsKernelMachine      *self);
/* Whether an event's tid is the thread in whose context it was recorded (perf samples: yes, the
 * default) and so proves that thread on the event's CPU; FALSE where a reader infers it. */
void               jvms_kernel_machine_set_trust_context (JvmsKernelMachine *self,
                                                          gboolean           trust);
/* Whether waits keep their waker and device (kernel-state/waker, /device; the default): FALSE
 * only for bench-index, which measures what keeping them costs. */
void               jvms_kernel_machine_set_keep_wakers (JvmsKernelMachine *self,
                                                        gboolean           keep);
/* Events in non-decreasing time; time 0 ("no time", perf's synthesized records) is taken as
 * the history start. */
void               jvms_kernel_machine_feed   (JvmsKernelMachine      *self,
                                               const JvmsKernelEvent  *event);
/* Emits every pending interval; call before closing the builder at @end_time. */
void               jvms_kernel_machine_finish (JvmsKernelMachine      *self,
                                               gint64                  end_time);
guint64            jvms_kernel_machine_n_unknown (JvmsKernelMachine   *self);
guint64            jvms_kernel_machine_n_lost    (JvmsKernelMachine   *self);

/* How much of the threads' time the kernel layer could not tell, after finish. "JVM" threads
 * are those jvms_threads_is_jvm() accepts; thread time is the time from a thread's first kernel
 * state to the end of the trace or its exit. */
typedef struct
{
  guint64 n_missing_switches;   /* switch records found missing by evidence */
  guint64 n_missing_from_idle;  /* of those, switch-ins on a CPU believed idle */
  /* Of those, the ones next to threads perf recorded switches into and never an event of
   * their own (not even their switch-out): the kernel did not give the recording their events
   * (docs/analysis.md, "Silent threads"); how many such threads, the first few. */
  guint64 n_missing_silent;
  guint   n_silent_threads;
  gint64  silent_tids[4];
  gint64  jvm_unknown_ns, jvm_thread_ns;
  gint64  other_unknown_ns, other_thread_ns;
} JvmsKernelQuality;

void               jvms_kernel_machine_get_quality (JvmsKernelMachine *self,
                                                    JvmsKernelQuality *out);

/* A note (jvms_trace_index_dup_notes) for each disk some of whose block requests found every
 * request slot busy (JVMS_DISK_REQUESTS_MAX_SLOTS): they count in the device's queue depth but
 * have no interval of their own. "@path: disk 8:16: 3 block requests found ...", devices in
 * order of their numbers. Another for each disk with requests that had no completion although
 * begun JVMS_DISK_REQUESTS_LONG_NS or more before the end given to finish: "@path: disk 8:16: 2
 * block requests have no completion in the trace ...". */
void               jvms_kernel_machine_add_disk_notes (JvmsKernelMachine *self,
                                                       const char        *path,
                                                       GPtrArray         *notes);

/* The kernel state of thread @tid when a JFR sampler sampled it at @time, from the intervals
 * fed so far (the merged stream has reached @time). HotSpot's sampler stops the thread with a
 * signal and stamps the sample once the thread's handler answered, so the state at @time is the
 * handshake's; this looks through it (docs/profile.md, "Kernel state of a CPU sample"): what
 * held before the handler's system calls, ON_CPU (running or in a system call), WAITING
 * (runnable, waiting for a CPU), or UNKNOWN. */
JvmsCpuState       jvms_kernel_machine_sample_state (JvmsKernelMachine *self,
                                                     gint64             tid,
                                                     gint64             time);

G_END_DECLS
