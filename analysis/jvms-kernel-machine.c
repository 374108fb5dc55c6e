/* jvms-kernel-machine.c: the kernel state machine (Daoud & Dagenais 2020, section 4.2, the
 * kernel side): sched_switch, wake-ups, syscalls, process life cycle, counters, block I/O. */
#include "jvms-kernel-machine.h"

#include <string.h>

#include "jvms-disk-requests.h"
#include "jvms-states.h"

typedef struct
{
  const char   *counter; /* interned */
  JvmsAttribute attribute;
  gint64        last_time;
  guint64       last_value;
  gboolean      have_last;
} CounterRate;

/* The last intervals emitted for a thread, for the kernel state of a JFR sample
 * (jvms_kernel_machine_sample_state): the sampler's handshake with the thread is a dozen short
 * intervals at most. */
#define RECENT_N 32

typedef struct
{
  gint64 start;
  gint32 state;
  gint32 taken_by; /* RUNNABLE after a preemption: the thread switched in (tid), else 0 */
} Recent;

typedef struct
{
  JvmsThread     *thread;
  JvmsAttribute   a_state, a_cpu, a_syscall, a_waker;
  JvmsAttribute   a_device;        /* made at the first wait a disk ended */
  Recent          recent[RECENT_N];
  guint           recent_next;     /* where the next emitted interval goes */
  guint           recent_n;
  gboolean        has_pending;
  JvmsKernelState pending_state;
  gint64          pending_start;
  gint32          pending_taken_by; /* as Recent's taken_by, for the pending interval */
  gint64          certain_until;   /* the pending state is proven up to here */
  gint32          pending_cpu;
  const char     *pending_syscall; /* interned */
  gboolean        in_syscall;
  const char     *syscall;         /* interned */
  gboolean        exiting;
  gint64          pending_waker;   /* who ended the pending wait (packed, jvms-states.h); -1: none */
  const char     *pending_device;  /* the disk whose completion ended it (interned), or NULL */
  GArray         *counters;        /* CounterRate */
  GArray         *switch_counters; /* CounterRate: Threads/<tid>/switch-counters/<name> */
  gint64          unknown_ns;      /* emitted time in UNKNOWN */
  gint64          known_ns;        /* emitted time in any other state but EXITED */
  guint64         n_own;           /* events recorded in its own context (its switch-outs too) */
  guint64         n_blamed;        /* missing switch records next to its runs */
} KThread;

typedef struct
{
  JvmsAttribute a_thread, a_pid;
  gint64        current_tid;
  gint64        completed_at;      /* the last block request completed on this CPU, and its disk */
  const char   *completed_disk;    /* interned "major:minor" */
  gboolean      seen;              /* current_tid is known (a switch on it was seen) */
  GArray       *counters;          /* CounterRate */
  GArray       *switch_reads;      /* CounterRate: the time of each counter's last switch read */
} KCpu;

typedef struct
{
  JvmsAttribute     a_queue, a_in_flight;
  gint64            queue, in_flight;
  const char       *name;          /* "major:minor", interned (disks are bounded) */
  JvmsDiskRequests *requests;      /* each request an interval */
} KDisk;

struct _JvmsKernelMachine
{
  JvmsWriter  *writer;
  JvmsThreads *threads;
  gint64       offset;
  GHashTable  *kthreads;  /* gint64 tid -> KThread* */
  GPtrArray   *cpus;      /* KCpu*, index = cpu */
  GHashTable  *disks;     /* dev -> KDisk* */
  guint64      n_unknown;
  guint64      n_lost;
  guint64      n_missing;
  guint64      n_missing_from_idle;
  gint64       end_time;    /* given to finish: the disk notes' "before the end" */
  gboolean     trust_context;
  gboolean     keep_wakers;
};

static void
counters_free (GArray *a)
{
  if (a != NULL)
    g_array_unref (a);
}

static void
kthread_free (gpointer data)
{
  KThread *k = data;
  counters_free (k->counters);
  counters_free (k->switch_counters);
  g_free (k);
}

static void
kdisk_free (gpointer data)
{
  KDisk *d = data;
  jvms_disk_requests_free (d->requests);
  g_free (d);
}

static void
kcpu_free (gpointer data)
{
  KCpu *c = data;
  if (c != NULL)
    {
      counters_free (c->counters);
      counters_free (c->switch_reads);
    }
  g_free (c);
}

JvmsKernelMachine *
jvms_kernel_machine_new (JvmsWriter *writer, JvmsThreads *threads, gint64 offset_ns)
{
  JvmsKernelMachine *self = g_new0 (JvmsKernelMachine, 1);
  self->writer = writer;
  self->threads = threads;
  self->offset = offset_ns;
  self->trust_context = TRUE;
  self->keep_wakers = TRUE;
  self->kthreads = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, kthread_free);
  self->cpus = g_ptr_array_new_with_free_func (kcpu_free);
  self->disks = g_hash_table_new_full (NULL, NULL, NULL, kdisk_free);
  return self;
}

void
jvms_kernel_machine_free (JvmsKernelMachine *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->kthreads);
  g_ptr_array_unref (self->cpus);
  g_hash_table_unref (self->disks);
  g_free (self);
}

guint64
jvms_kernel_machine_n_unknown (JvmsKernelMachine *self)
{
  return self->n_unknown;
}

guint64
jvms_kernel_machine_n_lost (JvmsKernelMachine *self)
{
  return self->n_lost;
}

void
jvms_kernel_machine_set_trust_context (JvmsKernelMachine *self, gboolean trust)
{
  self->trust_context = trust;
}

void
jvms_kernel_machine_set_keep_wakers (JvmsKernelMachine *self, gboolean keep)
{
  self->keep_wakers = keep;
}

static int
guint_cmp (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? -1 : x > y;
}

void
jvms_kernel_machine_add_disk_notes (JvmsKernelMachine *self, const char *path, GPtrArray *notes)
{
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  GHashTableIter iter;
  gpointer key;
  g_hash_table_iter_init (&iter, self->disks);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint k = GPOINTER_TO_UINT (key);
      g_array_append_val (keys, k);
    }
  /* In the devices' order: the same trace gives the same notes. */
  g_array_sort (keys, guint_cmp);
  for (guint i = 0; i < keys->len; i++)
    {
      KDisk *d = g_hash_table_lookup (self->disks, GUINT_TO_POINTER (g_array_index (keys, guint, i)));
      guint64 n = jvms_disk_requests_n_overflow (d->requests);
      if (n > 0)
        g_ptr_array_add (notes, g_strdup_printf ("%s: disk %s: %" G_GUINT64_FORMAT " block %s found all %d "
                                                 "request slots busy: counted in the queue depth, not "
                                                 "drawn as requests", path, d->name, n,
                                                 n == 1 ? "request" : "requests",
                                                 JVMS_DISK_REQUESTS_MAX_SLOTS));
      gint64 oldest;
      n = jvms_disk_requests_n_outstanding (d->requests, self->end_time - JVMS_DISK_REQUESTS_LONG_NS, &oldest);
      if (n > 0)
        g_ptr_array_add (notes, g_strdup_printf ("%s: disk %s: %" G_GUINT64_FORMAT " block %s no completion in "
                                                 "the trace although begun more than %.0f s before its end "
                                                 "(the oldest %.3f s before): drawn up to the end. A disk "
                                                 "stalled that long, or a completion the kernel did not "
                                                 "record (as in an interrupt on an idle CPU where it records "
                                                 "nothing in the idle task)",
                                                 path, d->name, n, n == 1 ? "request has" : "requests have",
                                                 JVMS_DISK_REQUESTS_LONG_NS / 1e9,
                                                 (self->end_time - oldest) / 1e9));
    }
}

void
jvms_kernel_machine_get_quality (JvmsKernelMachine *self, JvmsKernelQuality *out)
{
  memset (out, 0, sizeof *out);
  out->n_missing_switches = self->n_missing;
  out->n_missing_from_idle = self->n_missing_from_idle;
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, self->kthreads);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      KThread *k = value;
      if (k->n_own == 0 && k->n_blamed > 0)
        {
          /* Switched in, never heard from: the kernel gave the recording none of its events. */
          out->n_missing_silent += k->n_blamed;
          if (out->n_silent_threads < G_N_ELEMENTS (out->silent_tids))
            out->silent_tids[out->n_silent_threads] = k->thread->tid;
          out->n_silent_threads++;
        }
      if (jvms_threads_is_jvm (self->threads, k->thread))
        {
          out->jvm_unknown_ns += k->unknown_ns;
          out->jvm_thread_ns += k->unknown_ns + k->known_ns;
        }
      else
        {
          out->other_unknown_ns += k->unknown_ns;
          out->other_thread_ns += k->unknown_ns + k->known_ns;
        }
    }
}

static KThread *
kthread_get (JvmsKernelMachine *self, gint64 tid, gint64 time)
{
  KThread *k = g_hash_table_lookup (self->kthreads, &tid);
  if (k != NULL)
    return k;
  k = g_new0 (KThread, 1);
  k->thread = jvms_threads_get (self->threads, tid, time);
  k->a_state = jvms_writer_child (self->writer, k->thread->folder, "kernel-state");
  k->a_cpu = jvms_writer_child (self->writer, k->a_state, "cpu");
  k->a_syscall = jvms_writer_child (self->writer, k->a_state, "syscall");
  k->a_waker = jvms_writer_child (self->writer, k->a_state, "waker");
  k->a_device = JVMS_ATTRIBUTE_INVALID;
  k->pending_waker = -1;
  g_hash_table_insert (self->kthreads, &k->thread->tid, k);
  return k;
}

static KCpu *
kcpu_get (JvmsKernelMachine *self, gint32 cpu)
{
  /* CPU numbers come from the file: a hostile one must not make a huge array. */
  if (cpu < 0 || cpu >= 65536)
    return NULL;
  if ((guint) cpu >= self->cpus->len)
    g_ptr_array_set_size (self->cpus, cpu + 1);
  KCpu *c = g_ptr_array_index (self->cpus, cpu);
  if (c == NULL)
    {
      c = g_new0 (KCpu, 1);
      c->a_thread = jvms_writer_attribute (self->writer, "CPUs/%d/current-thread", cpu);
      c->a_pid = jvms_writer_attribute (self->writer, "CPUs/%d/current-pid", cpu);
      g_ptr_array_index (self->cpus, cpu) = c;
    }
  return c;
}

static gboolean
is_on_cpu (JvmsKernelState s)
{
  return s == JVMS_KERNEL_STATE_RUNNING || s == JVMS_KERNEL_STATE_SYSCALL;
}

/* Off CPU, and not waiting for one: what a wake-up ends. */
static gboolean
is_wait (JvmsKernelState s)
{
  return s == JVMS_KERNEL_STATE_BLOCKED || s == JVMS_KERNEL_STATE_BLOCKED_IO || s == JVMS_KERNEL_STATE_UNKNOWN;
}

/* Writes the pending interval, which ends at @end. */
static void
emit_pending (JvmsKernelMachine *self, KThread *k, gint64 end)
{
  if (!k->has_pending)
    return;
  gint64 t = k->pending_start;
  gint64 span = MAX (end - t, 0);
  if (k->pending_state == JVMS_KERNEL_STATE_UNKNOWN)
    {
      self->n_unknown++;
      k->unknown_ns += span;
    }
  else if (k->pending_state != JVMS_KERNEL_STATE_EXITED)
    k->known_ns += span;
  k->recent[k->recent_next] = (Recent) { t, k->pending_state, k->pending_taken_by };
  k->recent_next = (k->recent_next + 1) % RECENT_N;
  k->recent_n = MIN (k->recent_n + 1, RECENT_N);
  jvms_writer_set_int (self->writer, k->a_state, t, k->pending_state);
  if (is_on_cpu (k->pending_state) && k->pending_cpu >= 0)
    jvms_writer_set_int (self->writer, k->a_cpu, t, k->pending_cpu);
  else
    jvms_writer_set_null (self->writer, k->a_cpu, t);
  jvms_writer_set_string (self->writer, k->a_syscall, t, k->pending_syscall);
  /* A wait carries who ended it from its start on, until the next wait: one interval per wait
   * (none where the waker stays the same), written now that the wake-up is known. */
  if (is_wait (k->pending_state) && self->keep_wakers)
    {
      if (k->pending_waker >= 0)
        jvms_writer_set_int (self->writer, k->a_waker, t, k->pending_waker);
      else
        jvms_writer_set_null (self->writer, k->a_waker, t);
      if (k->pending_device != NULL && k->a_device == JVMS_ATTRIBUTE_INVALID)
        k->a_device = jvms_writer_child (self->writer, k->a_state, "device");
      jvms_writer_set_string (self->writer, k->a_device, t, k->pending_device);
      k->pending_waker = -1;
      k->pending_device = NULL;
    }
}

static void
transition (JvmsKernelMachine *self, KThread *k, gint64 time, JvmsKernelState state, gint32 cpu,
            const char *syscall)
{
  if (k->has_pending && k->pending_state == state && k->pending_cpu == cpu
      && k->pending_syscall == syscall)
    return;
  emit_pending (self, k, time);
  k->has_pending = TRUE;
  k->pending_state = state;
  k->pending_start = time;
  k->pending_taken_by = 0;
  k->certain_until = time;
  k->pending_cpu = cpu;
  k->pending_syscall = syscall;
}

/* What the machine believed of @k is contradicted by what the kernel reports next: it held
 * until the last time it was proven, the rest is unknown. FALSE when nothing was believed. */
static gboolean
contradicted (JvmsKernelMachine *self, KThread *k)
{
  if (!k->has_pending || k->pending_state == JVMS_KERNEL_STATE_UNKNOWN)
    return FALSE;
  if (k->certain_until > k->pending_start)
    {
      emit_pending (self, k, k->certain_until);
      k->pending_start = k->certain_until;
    }
  k->pending_state = JVMS_KERNEL_STATE_UNKNOWN;
  k->pending_cpu = -1;
  k->pending_syscall = NULL;
  return TRUE;
}

/* HotSpot names its own threads so: a process running one is a JVM. Which JVM is the recorded
 * one is not for names to say (the bundle, JFR or the user say it: jvms_threads_set_subject). */
static gboolean
is_hotspot_name (const char *comm)
{
  return comm != NULL
         && (g_str_has_prefix (comm, "VM Thread") || g_str_has_prefix (comm, "GC Thread#")
             || g_str_has_prefix (comm, "C2 CompilerThre") || g_str_has_prefix (comm, "C1 CompilerThre"));
}

static void
note_pid (JvmsKernelMachine *self, KThread *k, gint32 pid)
{
  if (pid <= 0 || k->thread->pid == pid)
    return;
  jvms_threads_set_pid (self->threads, k->thread, pid);
  /* Its name may have come first (a switch names both threads, a sample gives the pid). */
  if (is_hotspot_name (k->thread->comm))
    jvms_threads_add_jvm_pid (self->threads, pid);
}

static void
note_comm (JvmsKernelMachine *self, KThread *k, const char *comm)
{
  if (comm == NULL || comm[0] == '\0')
    return;
  char buf[JVMS_KERNEL_COMM_LEN + 1];
  g_strlcpy (buf, comm, sizeof buf);
  jvms_threads_set_comm (self->threads, k->thread, buf);
  if (k->thread->pid > 0 && is_hotspot_name (buf))
    jvms_threads_add_jvm_pid (self->threads, k->thread->pid);
}

static JvmsKernelState
state_after_switch_out (KThread *k, guint32 prev_state)
{
  if (k->exiting || (prev_state & (JVMS_TASK_DEAD | JVMS_TASK_ZOMBIE)) != 0)
    return JVMS_KERNEL_STATE_EXITED;
  if (prev_state == JVMS_TASK_RUNNING || (prev_state & JVMS_TASK_PREEMPTED) != 0)
    return JVMS_KERNEL_STATE_RUNNABLE;
  if ((prev_state & JVMS_TASK_UNINTERRUPTIBLE) != 0)
    return JVMS_KERNEL_STATE_BLOCKED_IO;
  return JVMS_KERNEL_STATE_BLOCKED;
}

static void
set_cpu_current (JvmsKernelMachine *self, gint32 cpu, gint64 time, KThread *k)
{
  KCpu *c = kcpu_get (self, cpu);
  if (c == NULL)
    return;
  c->current_tid = k != NULL ? k->thread->tid : 0;
  c->seen = TRUE;
  if (k == NULL)
    {
      jvms_writer_set_null (self->writer, c->a_thread, time);
      jvms_writer_set_null (self->writer, c->a_pid, time);
      return;
    }
  jvms_writer_set_int (self->writer, c->a_thread, time, k->thread->tid);
  if (k->thread->pid > 0)
    jvms_writer_set_int (self->writer, c->a_pid, time, k->thread->pid);
  else
    jvms_writer_set_null (self->writer, c->a_pid, time);
}

/* A switch-out is consistent only for a thread we saw switched in on that CPU. */
static gboolean
k_on_cpu_here (KThread *k, gint32 cpu)
{
  return k->has_pending && is_on_cpu (k->pending_state) && (cpu < 0 || k->pending_cpu == cpu);
}

/* @k is on @cpu at @t (an event in its own context says so). @set_cpu: make it the CPU's
 * current thread when the CPU is believed idle or was never seen switching. */
static void
on_cpu_evidence (JvmsKernelMachine *self, KThread *k, gint64 t, gint32 cpu, gboolean set_cpu)
{
  if (k_on_cpu_here (k, cpu))
    {
      k->certain_until = t;
      return;
    }
  if (cpu < 0)
    {
      /* On some CPU, which one is not said: what was believed ends, nothing more is known. */
      if (contradicted (self, k))
        self->n_missing++;
      return;
    }
  KCpu *c = kcpu_get (self, cpu);
  gboolean was_elsewhere = k->has_pending && is_on_cpu (k->pending_state);
  KThread *current = c != NULL && c->seen && c->current_tid > 0 && c->current_tid != k->thread->tid
                     ? g_hash_table_lookup (self->kthreads, &c->current_tid) : NULL;
  if (contradicted (self, k))
    {
      /* Its switch-in here is missing, and its switch-out there when it ran elsewhere. */
      self->n_missing += was_elsewhere ? 2 : 1;
      if (c != NULL && c->seen && c->current_tid == 0)
        self->n_missing_from_idle++;
      if (current != NULL)
        current->n_blamed += 1;
      if (was_elsewhere)
        k->n_blamed += 1;
    }
  /* The thread believed on this CPU is not: the record that switched it out is the one just
   * counted (one record, the other thread's switch-in), so it is not counted again when that
   * thread is next switched in. */
  if (current != NULL && k_on_cpu_here (current, cpu))
    contradicted (self, current);
  if (k->in_syscall)
    transition (self, k, t, JVMS_KERNEL_STATE_SYSCALL, cpu, k->syscall);
  else
    transition (self, k, t, JVMS_KERNEL_STATE_RUNNING, cpu, NULL);
  if (set_cpu && c != NULL && (!c->seen || c->current_tid == 0 || current != NULL))
    set_cpu_current (self, cpu, t, k);
}

/* Any event recorded in a thread's context; perf's untimed synthesized records are not. */
static void
context_evidence (JvmsKernelMachine *self, const JvmsKernelEvent *ev, gint64 t)
{
  if (!self->trust_context || ev->tid <= 0 || ev->cpu < 0 || ev->time == 0)
    return;
  KThread *k = kthread_get (self, ev->tid, t);
  note_pid (self, k, ev->pid);
  on_cpu_evidence (self, k, t, ev->cpu, TRUE);
}

static void
on_switch (JvmsKernelMachine *self, const JvmsKernelEvent *ev, gint64 t)
{
  gint32 cpu = ev->cpu;
  if (ev->sched_switch.prev_tid > 0)
    {
      KThread *prev = kthread_get (self, ev->sched_switch.prev_tid, t);
      note_pid (self, prev, ev->tid == ev->sched_switch.prev_tid ? ev->pid : -1);
      note_comm (self, prev, ev->sched_switch.prev_comm);
      /* Its own switch-out: evidence, unless it is the first we hear of it (the trace began
       * while it ran). */
      if (prev->has_pending)
        on_cpu_evidence (self, prev, t, cpu, FALSE);
      JvmsKernelState next_state = state_after_switch_out (prev, ev->sched_switch.prev_state);
      transition (self, prev, t, next_state, -1, prev->in_syscall ? prev->syscall : NULL);
      if (next_state == JVMS_KERNEL_STATE_RUNNABLE && prev->pending_start == t)
        prev->pending_taken_by = MAX (ev->sched_switch.next_tid, 0);
    }
  KThread *next = NULL;
  if (ev->sched_switch.next_tid > 0)
    {
      next = kthread_get (self, ev->sched_switch.next_tid, t);
      note_comm (self, next, ev->sched_switch.next_comm);
      /* Already on a CPU: its switch-out was not recorded. */
      if (next->has_pending && is_on_cpu (next->pending_state) && contradicted (self, next))
        {
          self->n_missing++;
          next->n_blamed++;
        }
      next->exiting = FALSE;
      if (next->in_syscall)
        transition (self, next, t, JVMS_KERNEL_STATE_SYSCALL, cpu, next->syscall);
      else
        transition (self, next, t, JVMS_KERNEL_STATE_RUNNING, cpu, NULL);
    }
  set_cpu_current (self, cpu, t, next);
}

/* Who ended a wait: the thread in whose context the wake-up ran, flagged when that was an
 * interrupt (jvms-states.h); -1 when the trace does not say. A block request completed on that
 * CPU just before, in an interrupt, names the disk. */
static void
note_waker (JvmsKernelMachine *self, KThread *k, const JvmsKernelEvent *ev, gint64 t)
{
  k->pending_waker = ev->tid >= 0 ? jvms_waker_pack (ev->tid, ev->wakeup.in_irq == 1) : -1;
  k->pending_device = NULL;
  KCpu *c = ev->wakeup.in_irq != 0 && k->pending_state == JVMS_KERNEL_STATE_BLOCKED_IO
            ? kcpu_get (self, ev->cpu) : NULL;
  if (c != NULL && c->completed_disk != NULL && t - c->completed_at <= JVMS_WAKER_DISK_NS)
    k->pending_device = c->completed_disk;
}

static void
on_wakeup (JvmsKernelMachine *self, const JvmsKernelEvent *ev, gint64 t)
{
  if (ev->wakeup.tid <= 0)
    return;
  KThread *k = kthread_get (self, ev->wakeup.tid, t);
  note_comm (self, k, ev->wakeup.comm);
  if (ev->type == JVMS_KERNEL_EVENT_SCHED_WAKEUP_NEW)
    {
      k->exiting = FALSE;
      k->in_syscall = FALSE;
      if (!k->has_pending || !is_on_cpu (k->pending_state))
        transition (self, k, t, JVMS_KERNEL_STATE_RUNNABLE, -1, NULL);
      return;
    }
  if (!k->has_pending)
    {
      transition (self, k, t, JVMS_KERNEL_STATE_RUNNABLE, -1, NULL);
      return;
    }
  switch (k->pending_state)
    {
    case JVMS_KERNEL_STATE_BLOCKED:
    case JVMS_KERNEL_STATE_BLOCKED_IO:
    case JVMS_KERNEL_STATE_UNKNOWN:
      note_waker (self, k, ev, t);
      transition (self, k, t, JVMS_KERNEL_STATE_RUNNABLE, -1, k->in_syscall ? k->syscall : NULL);
      break;
    default:
      /* Already runnable or running (sched_wakeup after sched_waking), or exited. */
      break;
    }
}

static const char *
syscall_name (const JvmsKernelEvent *ev)
{
  if (ev->syscall.sys != NULL)
    return g_intern_string (ev->syscall.sys);
  char buf[32];
  g_snprintf (buf, sizeof buf, "syscall_%" G_GINT64_FORMAT, ev->syscall.id);
  return g_intern_string (buf);
}

static void
on_syscall (JvmsKernelMachine *self, const JvmsKernelEvent *ev, gint64 t)
{
  if (ev->tid <= 0)
    return;
  KThread *k = kthread_get (self, ev->tid, t);
  note_pid (self, k, ev->pid);
  /* A syscall event is recorded by the thread itself: it is on ev->cpu now. */
  if (k->has_pending)
    on_cpu_evidence (self, k, t, ev->cpu, TRUE);
  gint32 cpu = ev->cpu >= 0 ? ev->cpu : (k->has_pending ? k->pending_cpu : -1);
  if (ev->type == JVMS_KERNEL_EVENT_SYSCALL_ENTER)
    {
      k->in_syscall = TRUE;
      k->syscall = syscall_name (ev);
      transition (self, k, t, JVMS_KERNEL_STATE_SYSCALL, cpu, k->syscall);
    }
  else
    {
      k->in_syscall = FALSE;
      k->syscall = NULL;
      transition (self, k, t, JVMS_KERNEL_STATE_RUNNING, cpu, NULL);
    }
}

static void
on_task (JvmsKernelMachine *self, const JvmsKernelEvent *ev, gint64 t)
{
  switch (ev->type)
    {
    case JVMS_KERNEL_EVENT_PROCESS_FORK:
      if (ev->fork.child_tid > 0)
        {
          KThread *child = kthread_get (self, ev->fork.child_tid, t);
          note_pid (self, child, ev->fork.child_pid);
          note_comm (self, child, ev->fork.child_comm);
        }
      if (ev->fork.parent_tid > 0)
        note_pid (self, kthread_get (self, ev->fork.parent_tid, t), ev->fork.parent_pid);
      break;
    case JVMS_KERNEL_EVENT_PROCESS_EXEC:
    case JVMS_KERNEL_EVENT_COMM:
    case JVMS_KERNEL_EVENT_PROCESS_EXIT:
      {
        gint32 tid = ev->task.tid > 0 ? ev->task.tid : ev->tid;
        if (tid <= 0)
          return;
        KThread *k = kthread_get (self, tid, t);
        note_pid (self, k, ev->task.pid > 0 ? ev->task.pid : ev->pid);
        note_comm (self, k, ev->task.comm);
        if (ev->type == JVMS_KERNEL_EVENT_PROCESS_EXEC && k->thread->pid > 0)
          jvms_threads_note_exec (self->threads, k->thread->pid, ev->task.filename);
        if (ev->type == JVMS_KERNEL_EVENT_PROCESS_EXIT)
          k->exiting = TRUE;
      }
      break;
    default:
      break;
    }
}

/* @folder's counter @name under @group ("counters", "switch-counters"), made at its first use;
 * no attribute when @folder is JVMS_ATTRIBUTE_INVALID. */
static CounterRate *
counter_find_in (JvmsKernelMachine *self, GArray **counters, JvmsAttribute folder, const char *group,
                 const char *name)
{
  if (*counters == NULL)
    *counters = g_array_new (FALSE, TRUE, sizeof (CounterRate));
  for (guint i = 0; i < (*counters)->len; i++)
    {
      CounterRate *r = &g_array_index (*counters, CounterRate, i);
      if (r->counter == name)
        return r;
    }
  if ((*counters)->len >= 16)
    return NULL;
  CounterRate r = { .counter = name, .attribute = JVMS_ATTRIBUTE_INVALID };
  if (folder != JVMS_ATTRIBUTE_INVALID)
    r.attribute = jvms_writer_child (self->writer, jvms_writer_child (self->writer, folder, group), name);
  g_array_append_val (*counters, r);
  return &g_array_index (*counters, CounterRate, (*counters)->len - 1);
}

static CounterRate *
counter_find (JvmsKernelMachine *self, GArray **counters, JvmsAttribute folder, const char *name)
{
  return counter_find_in (self, counters, folder, "counters", name);
}

/* The rate over the span since the previous sample is written at that previous sample. */
static void
counter_sample (JvmsKernelMachine *self, CounterRate *r, gint64 t, const JvmsKernelEvent *ev)
{
  if (r == NULL)
    return;
  guint64 delta;
  if (ev->counter.period > 0)
    delta = ev->counter.period;
  else if (r->have_last && ev->counter.value >= r->last_value)
    delta = ev->counter.value - r->last_value;
  else
    delta = 0;
  if (r->have_last && t > r->last_time)
    jvms_writer_set_double (self->writer, r->attribute, r->last_time,
                            (double) delta * 1e9 / (double) (t - r->last_time));
  r->have_last = TRUE;
  r->last_time = t;
  r->last_value = ev->counter.value;
}

/* A counter a sched_switch read (the event comes before that switch): the CPU counted
 * @period since its previous switch read, all of it in the run this switch ends, of the thread
 * it switches out (prev_tid). That thread's switch-counters/<name> holds the count over exactly
 * that run, [previous read, this one), and null after it, so a quantum (jvms-quanta.c) takes it
 * only when its own ends are those two switches. Not a rate: the count of one run is exact. */
static void
on_switch_read (JvmsKernelMachine *self, const JvmsKernelEvent *ev, const char *name, gint64 t)
{
  KCpu *c = kcpu_get (self, ev->cpu);
  if (c == NULL)
    return;
  CounterRate *cr = counter_find_in (self, &c->switch_reads, JVMS_ATTRIBUTE_INVALID, NULL, name);
  if (cr == NULL)
    return;
  gint64 since = cr->last_time;
  gboolean known = cr->have_last && since < t;
  cr->have_last = TRUE;
  cr->last_time = t;
  if (!known || ev->counter.prev_tid <= 0)
    return;
  KThread *k = kthread_get (self, ev->counter.prev_tid, t);
  /* Read in its context: the sample's process is its own (as for its switch-out). */
  if (ev->tid == ev->counter.prev_tid)
    note_pid (self, k, ev->pid);
  /* Only the recorded JVM's runs become quanta: another process's thread, known as such, would
   * cost the index two intervals a counter a run for nothing. Without a subject (a kernel-only
   * trace, where any JVM may be the one looked at), every thread's. */
  gint32 jvm = jvms_threads_get_subject (self->threads);
  if (jvm > 0 && k->thread->pid > 0 && k->thread->pid != jvm)
    return;
  CounterRate *r = counter_find_in (self, &k->switch_counters, k->thread->folder, "switch-counters", name);
  /* A run that would begin before the thread's previous one ended is not one of its runs
   * (events were lost in between): no value rather than a moved one. */
  if (r == NULL || since < jvms_writer_last_time (self->writer, r->attribute))
    return;
  jvms_writer_set_int (self->writer, r->attribute, since, (gint64) MIN (ev->counter.period, (guint64) G_MAXINT64));
  jvms_writer_set_null (self->writer, r->attribute, t);
}

static void
on_counter (JvmsKernelMachine *self, const JvmsKernelEvent *ev, gint64 t)
{
  if (ev->counter.counter == NULL)
    return;
  const char *name = g_intern_string (ev->counter.counter);
  if (ev->counter.at_switch)
    {
      on_switch_read (self, ev, name, t);
      return;
    }
  if (ev->tid > 0)
    {
      KThread *k = kthread_get (self, ev->tid, t);
      note_pid (self, k, ev->pid);
      counter_sample (self, counter_find (self, &k->counters, k->thread->folder, name), t, ev);
    }
  KCpu *c = kcpu_get (self, ev->cpu);
  if (c != NULL)
    {
      JvmsAttribute folder = jvms_writer_attribute (self->writer, "CPUs/%d", ev->cpu);
      counter_sample (self, counter_find (self, &c->counters, folder, name), t, ev);
    }
}

static void
on_block (JvmsKernelMachine *self, const JvmsKernelEvent *ev, gint64 t)
{
  guint32 dev = ev->block.dev;
  KDisk *d = g_hash_table_lookup (self->disks, GUINT_TO_POINTER (dev + 1));
  if (d == NULL)
    {
      if (g_hash_table_size (self->disks) >= 4096)
        return;
      g_autofree char *device = g_strdup_printf ("%u:%u", dev >> 20, dev & 0xfffff);
      d = g_new0 (KDisk, 1);
      d->a_queue = jvms_writer_attribute (self->writer, "Disk/%s/queue", device);
      d->a_in_flight = jvms_writer_attribute (self->writer, "Disk/%s/in-flight", device);
      d->name = g_intern_string (device);
      d->requests = jvms_disk_requests_new (self->writer, device);
      g_hash_table_insert (self->disks, GUINT_TO_POINTER (dev + 1), d);
    }
  switch (ev->type)
    {
    case JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT:
      jvms_writer_set_int (self->writer, d->a_queue, t, ++d->queue);
      jvms_disk_requests_insert (d->requests, t, ev->block.sector, ev->block.nr_sector,
                                 ev->block.rwbs, ev->pid);
      break;
    case JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE:
      jvms_writer_set_int (self->writer, d->a_in_flight, t, ++d->in_flight);
      jvms_disk_requests_issue (d->requests, t, ev->block.sector, ev->block.nr_sector,
                                ev->block.rwbs, ev->pid);
      break;
    case JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE:
      {
        KCpu *c = kcpu_get (self, ev->cpu);
        if (c != NULL)
          {
            c->completed_at = t;
            c->completed_disk = d->name;
          }
      }
      jvms_disk_requests_complete (d->requests, t, ev->block.sector);
      /* A request issued before the recording began completes without its insert: never
       * below zero. */
      if (d->queue > 0)
        jvms_writer_set_int (self->writer, d->a_queue, t, --d->queue);
      if (d->in_flight > 0)
        jvms_writer_set_int (self->writer, d->a_in_flight, t, --d->in_flight);
      break;
    default:
      break;
    }
}

static void
on_lost (JvmsKernelMachine *self, const JvmsKernelEvent *ev, gint64 t)
{
  self->n_lost += ev->lost.lost;
  /* A switch read after the gap counts since the last one before it: no run's count. */
  for (guint i = 0; i < self->cpus->len; i++)
    {
      KCpu *c = g_ptr_array_index (self->cpus, i);
      if (c != NULL && c->switch_reads != NULL && (ev->cpu < 0 || (guint) ev->cpu == i))
        for (guint j = 0; j < c->switch_reads->len; j++)
          g_array_index (c->switch_reads, CounterRate, j).have_last = FALSE;
    }
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, self->kthreads);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      KThread *k = value;
      /* What ran on that CPU (or anywhere, when the CPU is unknown) is unknown from here until
       * its next switch. */
      if (k->has_pending && is_on_cpu (k->pending_state)
          && (ev->cpu < 0 || k->pending_cpu == ev->cpu))
        transition (self, k, t, JVMS_KERNEL_STATE_UNKNOWN, -1, NULL);
    }
}

void
jvms_kernel_machine_feed (JvmsKernelMachine *self, const JvmsKernelEvent *ev)
{
  gint64 start = jvms_writer_get_start (self->writer);
  gint64 t = start;
  /* A damaged time must not wrap around the axis. */
  if (ev->time != 0 && __builtin_add_overflow (ev->time, self->offset, &t))
    t = self->offset > 0 ? G_MAXINT64 : G_MININT64;
  if (t < start)
    t = start;
  switch (ev->type)
    {
    case JVMS_KERNEL_EVENT_SCHED_SWITCH:
      on_switch (self, ev, t);
      break;
    case JVMS_KERNEL_EVENT_SCHED_WAKING:
    case JVMS_KERNEL_EVENT_SCHED_WAKEUP:
    case JVMS_KERNEL_EVENT_SCHED_WAKEUP_NEW:
      context_evidence (self, ev, t);
      on_wakeup (self, ev, t);
      break;
    case JVMS_KERNEL_EVENT_SYSCALL_ENTER:
    case JVMS_KERNEL_EVENT_SYSCALL_EXIT:
      on_syscall (self, ev, t);
      break;
    case JVMS_KERNEL_EVENT_PROCESS_FORK:
    case JVMS_KERNEL_EVENT_PROCESS_EXEC:
    case JVMS_KERNEL_EVENT_PROCESS_EXIT:
    case JVMS_KERNEL_EVENT_COMM:
      on_task (self, ev, t);
      break;
    case JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT:
    case JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE:
    case JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE:
      context_evidence (self, ev, t);
      on_block (self, ev, t);
      break;
    case JVMS_KERNEL_EVENT_COUNTER_SAMPLE:
      /* A switch's reads: the switch that follows is the evidence, judged as without them. */
      if (!ev->counter.at_switch)
        context_evidence (self, ev, t);
      on_counter (self, ev, t);
      break;
    case JVMS_KERNEL_EVENT_LOST:
      on_lost (self, ev, t);
      break;
    case JVMS_KERNEL_EVENT_SCHED_MIGRATE:
      context_evidence (self, ev, t);
      break;
    /* OTHER carries perf's non-sample records too, whose tid is not always the current one. */
    case JVMS_KERNEL_EVENT_OTHER:
    default:
      break;
    }
  /* Heard from (after the handlers, which make the threads they name): a thread perf records
   * only switches into is one whose own events the kernel does not give the recording
   * (jvms_kernel_machine_get_quality). */
  if (ev->tid > 0 && ev->cpu >= 0 && ev->time != 0 && ev->type != JVMS_KERNEL_EVENT_OTHER
      && ev->type != JVMS_KERNEL_EVENT_LOST
      && !(ev->type == JVMS_KERNEL_EVENT_COUNTER_SAMPLE && ev->counter.at_switch))
    {
      gint64 tid = ev->tid;
      KThread *k = g_hash_table_lookup (self->kthreads, &tid);
      if (k != NULL)
        k->n_own++;
    }
}

static void
counters_finish (JvmsKernelMachine *self, GArray *counters)
{
  if (counters == NULL)
    return;
  for (guint i = 0; i < counters->len; i++)
    {
      CounterRate *r = &g_array_index (counters, CounterRate, i);
      if (r->have_last)
        jvms_writer_set_null (self->writer, r->attribute, r->last_time);
    }
}

void
jvms_kernel_machine_finish (JvmsKernelMachine *self, gint64 end_time)
{
  self->end_time = end_time;
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, self->kthreads);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      KThread *k = value;
      emit_pending (self, k, end_time);
      k->has_pending = FALSE;
      counters_finish (self, k->counters);
    }
  for (guint i = 0; i < self->cpus->len; i++)
    {
      KCpu *c = g_ptr_array_index (self->cpus, i);
      if (c != NULL)
        counters_finish (self, c->counters);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The kernel state under a JFR sample */

#define HANDSHAKE_NS  (1000 * 1000)
#define SUSPENSION_NS (20 * 1000 * 1000)
#define HANDLER_NS    (50 * 1000)

static JvmsCpuState
cpu_state_of (gint32 state)
{
  switch (state)
    {
    case JVMS_KERNEL_STATE_RUNNING:
    case JVMS_KERNEL_STATE_SYSCALL:
      return JVMS_CPU_STATE_ON_CPU;
    case JVMS_KERNEL_STATE_RUNNABLE:
      return JVMS_CPU_STATE_WAITING;
    default:
      return JVMS_CPU_STATE_UNKNOWN;
    }
}

/* Whether @taken_by (a tid, 0: unknown) is a thread of @k's own process. */
static gboolean
taken_by_own (JvmsKernelMachine *self, KThread *k, gint32 taken_by)
{
  if (taken_by <= 0 || k->thread->pid <= 0)
    return FALSE;
  gint64 key = taken_by;
  KThread *other = g_hash_table_lookup (self->kthreads, &key);
  return other != NULL && other->thread->pid == k->thread->pid;
}

JvmsCpuState
jvms_kernel_machine_sample_state (JvmsKernelMachine *self, gint64 tid, gint64 time)
{
  KThread *k = g_hash_table_lookup (self->kthreads, &tid);
  if (k == NULL || !k->has_pending)
    return JVMS_CPU_STATE_UNKNOWN;
  /* Newest first: the interval still open, then those emitted. */
  Recent list[RECENT_N + 1];
  guint n = 0;
  list[n++] = (Recent) { k->pending_start, k->pending_state, k->pending_taken_by };
  for (guint i = 0; i < k->recent_n; i++)
    list[n++] = k->recent[(k->recent_next + RECENT_N - 1 - i) % RECENT_N];
  guint at = 0;
  while (at < n && list[at].start > time)
    at++;
  if (at == n)
    return JVMS_CPU_STATE_UNKNOWN;
#define DURATION(i) (list[(i) - 1].start - list[(i)].start)   /* i > 0 */
  /* The sampler's handshake: the thread ran its signal handler (a few system calls) and was
   * suspended until the sample was taken, so what held at the sample's instant is the
   * handshake. Back, first, to the handler's last system call: over the suspension (blocked,
   * however long the sampler took, up to 20 ms) and what followed it (anything newer than
   * 1 ms). No system call there (a trace without system calls, or a handler that made none
   * the kernel recorded): the first interval older than that held when the signal came — the
   * handler's short run and the suspension or preemption after it are newer (a thread sampled
   * while running shows RUNNING begun long ago, one that waited for a CPU RUNNABLE). */
  guint i = at;
  while (i < n && list[i].state != JVMS_KERNEL_STATE_SYSCALL)
    {
      gboolean suspended = list[i].state == JVMS_KERNEL_STATE_BLOCKED && list[i].start > time - SUSPENSION_NS;
      if (!suspended && list[i].start <= time - HANDSHAKE_NS)
        return cpu_state_of (list[i].state);
      i++;
    }
  if (i == n)
    return cpu_state_of (list[at].state);
  /* Then over the handler: its system calls and the short runs between two of them (a long run
   * is the thread's own work before the signal, with the previous handshake's calls behind it;
   * walking on through those ends in the previous suspension)... */
  while (i + 1 < n && (list[i].state == JVMS_KERNEL_STATE_SYSCALL
                       || (list[i].state == JVMS_KERNEL_STATE_RUNNING && DURATION (i) < HANDLER_NS
                           && list[i + 1].state == JVMS_KERNEL_STATE_SYSCALL)))
    i++;
  /* ...its first run, when short (a long one is the thread running when the signal came)... */
  if (i + 1 < n && i > 0 && list[i].state == JVMS_KERNEL_STATE_RUNNING && DURATION (i) < HANDLER_NS)
    i++;
  /* ...and the moment the sampler thread took the CPU to send its signal: short, or taken by
   * a thread of the sampled thread's own process (the sampler), however long the sampler then
   * ran before signalling, up to the handshake's bound. Under load that run is often longer
   * than HANDLER_NS (a median of 45 us on a 2-CPU machine with other work, a fifth of samples
   * above 50 us), and the thread would be charged as waiting for a CPU that the sampling
   * itself took from it. */
  if (i + 1 < n && i > 0 && list[i].state == JVMS_KERNEL_STATE_RUNNABLE
      && (DURATION (i) < HANDLER_NS || (DURATION (i) < HANDSHAKE_NS && taken_by_own (self, k, list[i].taken_by))))
    i++;
#undef DURATION
  return cpu_state_of (list[i].state);
}
