/* jvms-states.h: the values of the state attributes of a Jvmscope index.
 *
 * docs/attributes.md is the layout these values live in; the numbers below are stored in index
 * files, so they never change meaning: new states get new numbers, and any change to the layout
 * bumps JVMS_ANALYSIS_VERSION so that old indexes are rebuilt.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Stored as the index metadata "analysis-version": an index written by another version is
 * rebuilt, never read with the wrong meaning. */
#define JVMS_ANALYSIS_VERSION 25

/* Threads/<tid>/user-state: what the JVM says the thread does (JFR layer). */
typedef enum
{
  JVMS_USER_STATE_RUNNING   = 0, /* running Java, as far as JFR knows */
  JVMS_USER_STATE_BLOCKED   = 1, /* entering a contended monitor: jdk.JavaMonitorEnter */
  JVMS_USER_STATE_WAITING   = 2, /* Object.wait: jdk.JavaMonitorWait */
  JVMS_USER_STATE_PARKED    = 3, /* LockSupport.park: jdk.ThreadPark */
  JVMS_USER_STATE_SLEEPING  = 4, /* Thread.sleep: jdk.ThreadSleep */
  JVMS_USER_STATE_SOCKET_IO = 5, /* jdk.SocketRead, jdk.SocketWrite */
  JVMS_USER_STATE_FILE_IO   = 6, /* jdk.FileRead, jdk.FileWrite, jdk.FileForce */
  JVMS_USER_STATE_SAFEPOINT = 7, /* stopped at a safepoint or by a GC pause */
  JVMS_USER_STATE_NATIVE    = 8, /* in native code (native method samples) */
  /* The recording holds no thread-state events (a profiler's samples only: docs/writers.md):
   * the thread existed, what it did between its samples is not recorded. Never charged. */
  JVMS_USER_STATE_NOT_RECORDED = 9,
} JvmsUserState;
#define JVMS_USER_STATE_N 10

/* Threads/<tid>/kernel-state: what the kernel says the thread does (kernel layer). */
typedef enum
{
  JVMS_KERNEL_STATE_RUNNING    = 0, /* on a CPU, in user space or the kernel outside a syscall */
  JVMS_KERNEL_STATE_RUNNABLE   = 1, /* preempted or woken, waiting for a CPU */
  JVMS_KERNEL_STATE_SYSCALL    = 2, /* in a system call, on a CPU */
  JVMS_KERNEL_STATE_BLOCKED    = 3, /* off CPU, sleeping (S) */
  JVMS_KERNEL_STATE_BLOCKED_IO = 4, /* off CPU, uninterruptible (D) */
  JVMS_KERNEL_STATE_EXITED     = 5,
  JVMS_KERNEL_STATE_UNKNOWN    = 6, /* a switch-out without a switch-in, or events lost */
} JvmsKernelState;
#define JVMS_KERNEL_STATE_N 7

/* Threads/<tid>/kernel-state/waker: who ended a wait, packed in one int: the tid of the thread
 * in whose context the wake-up ran (sched_waking's; 0 for the idle task) in the low 32 bits, and
 * JVMS_WAKER_IN_IRQ when it ran in an interrupt (hardirq, softirq, NMI): then the thread it
 * interrupted is not the cause, a device or a timer is. */
#define JVMS_WAKER_IN_IRQ (G_GINT64_CONSTANT (1) << 32)
/* A wait in the disk's uninterruptible sleep ended by an interrupt this soon after a block
 * request completed on that CPU was ended by that disk (kernel-state/device). */
#define JVMS_WAKER_DISK_NS (1000 * 1000)

static inline gint64
jvms_waker_pack (gint64 tid, gboolean in_irq)
{
  return (tid & G_GINT64_CONSTANT (0xffffffff)) | (in_irq ? JVMS_WAKER_IN_IRQ : 0);
}

static inline gint64
jvms_waker_tid (gint64 packed)
{
  return packed & G_GINT64_CONSTANT (0xffffffff);
}

static inline gboolean
jvms_waker_in_irq (gint64 packed)
{
  return (packed & JVMS_WAKER_IN_IRQ) != 0;
}

/* Threads/<tid>/kind. */
typedef enum
{
  JVMS_THREAD_KIND_JAVA          = 0, /* an application thread of the traced JVM */
  JVMS_THREAD_KIND_GC            = 1, /* GC workers, G1 concurrent and refinement threads */
  JVMS_THREAD_KIND_JIT           = 2, /* C1/C2/JVMCI compiler threads, the sweeper */
  JVMS_THREAD_KIND_VM            = 3, /* VM Thread, service, signal, reference, finalizer ... */
  JVMS_THREAD_KIND_JFR           = 4, /* Flight Recorder's own threads */
  JVMS_THREAD_KIND_OTHER_PROCESS = 5, /* a thread of another process (kernel layer only) */
} JvmsThreadKind;
#define JVMS_THREAD_KIND_N 6

/* Threads/<tid>/samples/<name>: what the samples of a thread said, one counter per kind of
 * sample (docs/attributes.md, "Samples"). On-CPU samples; wall-clock samples by the state they
 * carry (off CPU in a system call is classified by its stack where the stack tells); marks. */
typedef enum
{
  JVMS_SAMPLED_CPU       = 0,  /* an on-CPU sample: the thread ran Java code */
  JVMS_SAMPLED_RUNNING   = 1,  /* wall clock: running or runnable */
  JVMS_SAMPLED_SLEEPING  = 2,  /* wall clock: in Thread.sleep */
  JVMS_SAMPLED_PARKED    = 3,  /* wall clock: parked (LockSupport.park, a condition) */
  JVMS_SAMPLED_WAITING   = 4,  /* wall clock: Object.wait */
  JVMS_SAMPLED_BLOCKED   = 5,  /* wall clock: entering a contended monitor */
  JVMS_SAMPLED_SOCKET_IO = 6,  /* wall clock: in socket I/O or a poll */
  JVMS_SAMPLED_FILE_IO   = 7,  /* wall clock: in file I/O */
  JVMS_SAMPLED_NATIVE    = 8,  /* in native code (jdk.NativeMethodSample) */
  JVMS_SAMPLED_OFF_CPU   = 9,  /* wall clock: off CPU in a system call the stack does not name */
  JVMS_SAMPLED_UNKNOWN   = 10, /* wall clock: the sample carries no state */
  JVMS_SAMPLED_ALLOC     = 11, /* marks: allocation samples */
  JVMS_SAMPLED_LOCK      = 12, /* marks: lock samples (a profiler's monitor and park events) */
  JVMS_SAMPLED_EXCEPTION = 13, /* marks: exception samples */
} JvmsSampled;
#define JVMS_SAMPLED_N 14
/* The kinds that are time (a thread's share of its samples); the others are marks. */
#define JVMS_SAMPLED_IS_TIME(s) ((guint) (s) <= JVMS_SAMPLED_UNKNOWN)

/* Short lower-case names ("running", "blocked-io", "other-process"), as the CLI, the JSON
 * outputs and the views' legends use them. Out-of-range values give NULL. */
const char     *jvms_user_state_name         (JvmsUserState   state);
const char     *jvms_kernel_state_name       (JvmsKernelState state);
const char     *jvms_thread_kind_name        (JvmsThreadKind  kind);
/* "cpu", "running", ..., "off-cpu", "unknown", "alloc", "lock", "exception". */
const char     *jvms_sampled_name            (JvmsSampled     sampled);

/* The inverse of the name functions; FALSE for an unknown name. */
gboolean        jvms_user_state_from_name    (const char      *name,
                                              JvmsUserState   *out);
gboolean        jvms_kernel_state_from_name  (const char      *name,
                                              JvmsKernelState *out);
gboolean        jvms_thread_kind_from_name   (const char      *name,
                                              JvmsThreadKind  *out);
gboolean        jvms_sampled_from_name       (const char      *name,
                                              JvmsSampled     *out);

/* Classifies a thread from what is known of it. @name is the Java name or the kernel comm
 * (cut to 15 bytes: the patterns are prefixes that survive the cut); NULL when unknown.
 * @in_jvm: the thread belongs to the traced JVM's process (or is known to JFR).
 * @java_thread_id: JFR's javaThreadId, 0 for JVM-internal threads, -1 when unknown.
 * Name patterns come first (HotSpot's own Java-level threads such as "Finalizer" or
 * "JFR Periodic Tasks" have a javaThreadId but are not application threads); a thread of the
 * JVM that matches no pattern is JAVA, whatever its id. */
JvmsThreadKind  jvms_thread_kind_classify    (const char      *name,
                                              gboolean         in_jvm,
                                              gint64           java_thread_id);

G_END_DECLS
