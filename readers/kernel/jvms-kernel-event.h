/* jvms-kernel-event.h: one kernel event, as both kernel readers (readers/perf, readers/ctf)
 * deliver it. Analysis consumes this struct and never the formats behind it.
 *
 * Times are nanoseconds on the trace's own kernel clock (perf: the clock it recorded with,
 * CLOCK_MONOTONIC for our bundles; LTTng: its clock in ns from its origin, the Unix epoch for
 * the default monotonic clock with offset). Readers deliver events in non-decreasing time
 * order. Strings point into the reader and stay valid until the next call that reads an event.
 * Time 0 means "no time": perf's synthesized records for threads that existed before the
 * recording carry it; they come at their position in the stream, outside the time order.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  JVMS_KERNEL_EVENT_SCHED_SWITCH,
  JVMS_KERNEL_EVENT_SCHED_WAKING,
  JVMS_KERNEL_EVENT_SCHED_WAKEUP,
  JVMS_KERNEL_EVENT_SCHED_WAKEUP_NEW,
  JVMS_KERNEL_EVENT_SCHED_MIGRATE,
  JVMS_KERNEL_EVENT_PROCESS_FORK,    /* sched_process_fork, or a perf FORK record */
  JVMS_KERNEL_EVENT_PROCESS_EXEC,
  JVMS_KERNEL_EVENT_PROCESS_EXIT,    /* sched_process_exit, or a perf EXIT record */
  JVMS_KERNEL_EVENT_COMM,            /* a thread's name changed (perf COMM record, task_rename) */
  JVMS_KERNEL_EVENT_SYSCALL_ENTER,
  JVMS_KERNEL_EVENT_SYSCALL_EXIT,
  JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT,
  JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE,
  JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE,
  JVMS_KERNEL_EVENT_COUNTER_SAMPLE,  /* a hardware counter overflowed (or was read) */
  JVMS_KERNEL_EVENT_LOST,            /* the recorder dropped events: a gap, on @cpu if known */
  JVMS_KERNEL_EVENT_OTHER,           /* any other event: only its @name is meaningful */
} JvmsKernelEventType;

/* Scheduler task states, as in the kernel's TASK_REPORT bits (prev_state of sched_switch). */
typedef enum
{
  JVMS_TASK_RUNNING         = 0x000, /* preempted: still runnable */
  JVMS_TASK_INTERRUPTIBLE   = 0x001, /* S */
  JVMS_TASK_UNINTERRUPTIBLE = 0x002, /* D */
  JVMS_TASK_STOPPED         = 0x004, /* T */
  JVMS_TASK_TRACED          = 0x008, /* t */
  JVMS_TASK_DEAD            = 0x010, /* X */
  JVMS_TASK_ZOMBIE          = 0x020, /* Z */
  JVMS_TASK_PARKED          = 0x040, /* P */
  JVMS_TASK_IDLE            = 0x080, /* I */
  JVMS_TASK_PREEMPTED       = 0x100, /* R+ : preempted while runnable (TASK_REPORT_MAX bit) */
} JvmsTaskState;

#define JVMS_KERNEL_COMM_LEN 16

typedef struct
{
  JvmsKernelEventType type;
  /* The event's name in the source format ("sched:sched_switch" for perf tracepoints,
   * "sched_switch" for LTTng, "cycles" for a counter, "PERF_RECORD_COMM"...): what
   * `jvmscope-cli summary` counts. */
  const char *name;
  gint64      time;
  gint32      cpu;  /* -1 when unknown */
  gint32      pid;  /* the process and thread in whose context the event was recorded; */
  gint32      tid;  /* -1 when unknown */
  union
  {
    struct
    {
      gint32 prev_tid, next_tid;
      gint32 prev_prio, next_prio;
      guint32 prev_state; /* JvmsTaskState bits, normalized across kernel versions */
      char   prev_comm[JVMS_KERNEL_COMM_LEN];
      char   next_comm[JVMS_KERNEL_COMM_LEN];
    } sched_switch;
    struct /* WAKING, WAKEUP, WAKEUP_NEW: @tid is woken by the event's own tid (its context) */
    {
      gint32 tid;
      gint32 target_cpu;
      char   comm[JVMS_KERNEL_COMM_LEN];
      /* 1: the event ran in an interrupt (hardirq, softirq or NMI: the thread it interrupted is
       * not the waker); 0: in a task's context; -1: the trace does not say. */
      gint32 in_irq;
    } wakeup;
    struct
    {
      gint32 tid;
      gint32 orig_cpu, dest_cpu;
      char   comm[JVMS_KERNEL_COMM_LEN];
    } migrate;
    struct
    {
      gint32 parent_pid, parent_tid;
      gint32 child_pid, child_tid;
      char   child_comm[JVMS_KERNEL_COMM_LEN];
    } fork;
    struct /* EXEC, EXIT, COMM: the thread and its (new) name */
    {
      gint32      pid, tid;
      char        comm[JVMS_KERNEL_COMM_LEN];
      const char *filename; /* EXEC only; NULL otherwise */
    } task;
    struct
    {
      gint64      id;    /* syscall number */
      const char *sys;   /* its x86_64 name ("read"), NULL when unknown */
      gint64      ret;   /* EXIT only */
    } syscall;
    struct
    {
      guint32 dev;        /* major << 20 | minor, as the kernel's dev_t in tracepoints */
      guint64 sector;
      guint32 nr_sector;
      char    rwbs[12];   /* the kernel's RWBS_LEN grew from 8 to 10 */
    } block;
    struct
    {
      const char *counter; /* "cycles", "instructions", "cache-misses", "cache-references" */
      guint64     period;  /* events counted since the previous sample of this counter */
      guint64     value;   /* the counter's running value when read (0 when unknown) */
      /* Read by a sched_switch that leads a counter group (perf record -a
       * '{sched:sched_switch,task-clock,...}:S'): the counters count the whole CPU, so @period
       * is what the CPU counted since its previous switch, the run of the thread this switch
       * takes off it, @prev_tid (the sample's own @tid is -1 for a thread that is exiting);
       * delivered before the switch itself. Every read a tracepoint leads is delivered, 0
       * included (a run without a page fault has 0 of them, not an unknown number). */
      gboolean    at_switch;
      gint32      prev_tid;    /* meaningful with @at_switch only */
    } counter;
    struct
    {
      guint64 lost;        /* number of events dropped */
    } lost;
  };
} JvmsKernelEvent;

G_END_DECLS
