/* jvms-synthetic-history.c: events are generated in global time order (a heap of the next
 * change of every entity), as a real trace delivers them, so the tree has a real shape. */
#include "jvms-synthetic-history.h"

#include <math.h>
#include <string.h>

#include "jvms-state-names.h"

enum
{
  ENTITY_THREAD,
  ENTITY_CPU,
  ENTITY_LOCK,
  ENTITY_GC,
  ENTITY_COUNTERS,
  ENTITY_DISK,
};

typedef struct
{
  gint64 time;
  guint  type;
  guint  index;
} Next;

typedef struct
{
  gint64        tid;
  gint64        kind;
  JvmsAttribute user, detail, monitor, owner, kernel, cpu, method;
  JvmsAttribute counters[4];
  JvmsAttribute task, compilation, tier, size, allocation; /* new_views: as its kind has */
  double        ipc;
} Thread;

static const char *const methods[] = {
  "com.example.Shop.checkout", "com.example.Cart.add", "java.util.HashMap.get",
  "com.example.Db.query", "java.lang.String.hashCode", "com.example.Json.write",
};
static const char *const classes[] = {
  "java.lang.Object", "com.example.Inventory", "java.util.concurrent.ConcurrentHashMap",
  "com.example.Cache",
};
static const char *const phases[] = { "Pre Evacuate Collection Set", "Merge Heap Roots",
                                      "Evacuate Collection Set", "Post Evacuate Collection Set" };

void
jvms_synthetic_options_init (JvmsSyntheticOptions *o)
{
  o->n_threads = 48;
  o->n_cpus = 8;
  o->n_locks = 6;
  o->n_intervals = 200000;
  o->start_time = G_GINT64_CONSTANT (1700000000000000000);
  o->seed = 42;
  o->mean_gap_ns = 200000;
  o->new_views = FALSE;
}

#define N_DISKS 2
#define N_SLOTS 16

/* A disk of new_views: its queue and request slots (docs/attributes.md, Disk). */
typedef struct
{
  JvmsAttribute queue, in_flight;
  JvmsAttribute pid[N_SLOTS], bytes[N_SLOTS], op[N_SLOTS], issued[N_SLOTS];
  int           state[N_SLOTS]; /* 0 free, 1 queued, 2 issued */
  gint64        queued, flying;
} Disk;

static const char *const tasks[] = { "G1 Evacuate Regions", "G1 Merge Heap Roots", "G1 Scan Roots",
                                     "G1 Rebuild Free List", "G1 Clear Card Table" };
static const char *const operations[] = { "G1CollectForAllocation", "HandshakeAllThreads",
                                          "ICBufferFull", "Cleanup", "ThreadDump" };

/* Min-heap on time. */
static void
heap_push (GArray *heap,
           Next    n)
{
  guint i;
  g_array_append_val (heap, n);
  i = heap->len - 1;
  while (i > 0)
    {
      guint p = (i - 1) / 2;
      Next *a = &g_array_index (heap, Next, p), *b = &g_array_index (heap, Next, i), t;
      if (a->time <= b->time)
        break;
      t = *a, *a = *b, *b = t;
      i = p;
    }
}

static Next
heap_pop (GArray *heap)
{
  Next top = g_array_index (heap, Next, 0);
  guint i = 0;

  g_array_index (heap, Next, 0) = g_array_index (heap, Next, heap->len - 1);
  g_array_set_size (heap, heap->len - 1);
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      Next t;
      if (l < heap->len && g_array_index (heap, Next, l).time < g_array_index (heap, Next, m).time)
        m = l;
      if (r < heap->len && g_array_index (heap, Next, r).time < g_array_index (heap, Next, m).time)
        m = r;
      if (m == i)
        break;
      t = g_array_index (heap, Next, m);
      g_array_index (heap, Next, m) = g_array_index (heap, Next, i);
      g_array_index (heap, Next, i) = t;
      i = m;
    }
  return top;
}

/* Exponential gaps with a floor: states from a microsecond to many milliseconds. */
static gint64
gap (GRand  *rand,
     gint64  mean)
{
  double u = g_rand_double_range (rand, 1e-9, 1.0);
  return MAX ((gint64) (-log (u) * (double) mean), 500);
}

static JvmsAttribute
attr (JvmsHistoryBuilder *b,
      const char         *folder,
      gint64              a,
      const char         *part)
{
  g_autofree char *path = g_strdup_printf ("%s/%" G_GINT64_FORMAT "/%s", folder, a, part);
  return jvms_history_builder_attribute (b, path);
}

/* What a thread of new_views writes at a change of its state: a GC worker's task, a compiler's
 * compilation, the VM thread's operation and safepoint while it runs (null otherwise), a Java
 * thread's allocation rate. */
static gboolean
write_new_views (JvmsHistoryBuilder *b, GRand *rand, const Thread *th, gboolean running, gint64 t,
                 JvmsAttribute vm_operation, JvmsAttribute vm_at_safepoint,
                 JvmsAttribute vm_safepoint, JvmsAttribute vm_phase, gint64 *safepoint_id,
                 guint64 *written, GError **error)
{
  gboolean ok = TRUE;
  if (th->task != JVMS_ATTRIBUTE_INVALID)
    ok = running ? jvms_history_builder_modify_string (b, th->task, t, tasks[g_rand_int_range (rand, 0, G_N_ELEMENTS (tasks))], error)
                 : jvms_history_builder_modify_null (b, th->task, t, error);
  if (ok && th->compilation != JVMS_ATTRIBUTE_INVALID)
    {
      if (running)
        ok = jvms_history_builder_modify_string (b, th->compilation, t, methods[g_rand_int_range (rand, 0, G_N_ELEMENTS (methods))], error)
             && jvms_history_builder_modify_int (b, th->tier, t, g_rand_int_range (rand, 1, 5), error)
             && jvms_history_builder_modify_int (b, th->size, t, g_rand_int_range (rand, 64, 65536), error);
      else
        ok = jvms_history_builder_modify_null (b, th->compilation, t, error)
             && jvms_history_builder_modify_null (b, th->tier, t, error)
             && jvms_history_builder_modify_null (b, th->size, t, error);
      *written += 2;
    }
  if (ok && th->kind == JVMS_THREAD_KIND_VM)
    {
      gboolean at_safepoint = running && g_rand_boolean (rand);
      if (running)
        ok = jvms_history_builder_modify_string (b, vm_operation, t, operations[g_rand_int_range (rand, 0, G_N_ELEMENTS (operations))], error)
             && jvms_history_builder_modify_int (b, vm_at_safepoint, t, at_safepoint, error);
      else
        ok = jvms_history_builder_modify_null (b, vm_operation, t, error)
             && jvms_history_builder_modify_null (b, vm_at_safepoint, t, error);
      if (ok && at_safepoint)
        ok = jvms_history_builder_modify_int (b, vm_safepoint, t, ++*safepoint_id, error)
             && jvms_history_builder_modify_string (b, vm_phase, t, g_rand_boolean (rand) ? "synchronizing" : "operation", error);
      else if (ok)
        ok = jvms_history_builder_modify_null (b, vm_safepoint, t, error)
             && jvms_history_builder_modify_null (b, vm_phase, t, error);
      *written += 3;
    }
  if (ok && th->allocation != JVMS_ATTRIBUTE_INVALID)
    ok = running ? jvms_history_builder_modify_double (b, th->allocation, t, g_rand_double_range (rand, 1e5, 2e9), error)
                 : jvms_history_builder_modify_null (b, th->allocation, t, error);
  if (ok && (th->task != JVMS_ATTRIBUTE_INVALID || th->compilation != JVMS_ATTRIBUTE_INVALID
             || th->kind == JVMS_THREAD_KIND_VM || th->allocation != JVMS_ATTRIBUTE_INVALID))
    (*written)++;
  return ok;
}

/* One step of a disk of new_views: a free slot takes a request (queued), a queued one is
 * issued, an issued one completes; the queue and in-flight counts follow. */
static gboolean
write_disk (JvmsHistoryBuilder *b, GRand *rand, Disk *d, guint n_all, const Thread *threads,
            gint64 t, guint64 *written, GError **error)
{
  static const char *const ops[] = { "W", "WS", "R", "RA", "FF" };
  guint k = g_rand_int_range (rand, 0, N_SLOTS);
  gboolean ok;
  if (d->state[k] == 0)
    {
      ok = jvms_history_builder_modify_int (b, d->pid[k], t, threads[g_rand_int_range (rand, 0, n_all)].tid, error)
           && jvms_history_builder_modify_int (b, d->bytes[k], t, 512 * g_rand_int_range (rand, 1, 2048), error)
           && jvms_history_builder_modify_string (b, d->op[k], t, ops[g_rand_int_range (rand, 0, G_N_ELEMENTS (ops))], error)
           && jvms_history_builder_modify_int (b, d->issued[k], t, 0, error)
           && jvms_history_builder_modify_int (b, d->queue, t, ++d->queued, error);
      *written += 5;
    }
  else if (d->state[k] == 1)
    {
      ok = jvms_history_builder_modify_int (b, d->issued[k], t, 1, error)
           && jvms_history_builder_modify_int (b, d->in_flight, t, ++d->flying, error);
      *written += 2;
    }
  else
    {
      ok = jvms_history_builder_modify_null (b, d->pid[k], t, error)
           && jvms_history_builder_modify_null (b, d->bytes[k], t, error)
           && jvms_history_builder_modify_null (b, d->op[k], t, error)
           && jvms_history_builder_modify_null (b, d->issued[k], t, error)
           && jvms_history_builder_modify_int (b, d->queue, t, --d->queued, error)
           && jvms_history_builder_modify_int (b, d->in_flight, t, --d->flying, error);
      *written += 6;
    }
  d->state[k] = (d->state[k] + 1) % 3;
  return ok;
}

gboolean
jvms_synthetic_history_write (const char                 *path,
                              const JvmsSyntheticOptions *o,
                              GError                    **error)
{
  g_autoptr(JvmsHistoryBuilder) b = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (o->seed);
  g_autoptr(GArray) heap = g_array_new (FALSE, FALSE, sizeof (Next));
  g_autofree Thread *threads = NULL;
  g_autofree JvmsAttribute *cpu_thread = NULL;
  g_autofree JvmsAttribute *cpu_pid = NULL;
  g_autofree JvmsAttribute *cpu_counters = NULL;
  g_autofree JvmsAttribute *lock_owner = NULL;
  g_autofree JvmsAttribute *lock_waiters = NULL;
  JvmsAttribute gc_collection, gc_name, gc_pause, gc_phase[1], heap_used, heap_committed;
  guint n_all = o->n_threads + 4; /* plus threads of other processes */
  gint64 t = o->start_time, heap_value = 64 << 20;
  guint64 written = 0;
  gint64 gc_id = 0;
  int gc_step = 0;
  Disk disks[N_DISKS];
  JvmsAttribute vm_operation = JVMS_ATTRIBUTE_INVALID, vm_at_safepoint = JVMS_ATTRIBUTE_INVALID;
  JvmsAttribute vm_safepoint = JVMS_ATTRIBUTE_INVALID, vm_phase = JVMS_ATTRIBUTE_INVALID;
  gint64 safepoint_id = 0;

#define MOD(call) G_STMT_START { if (!(call)) return FALSE; written++; } G_STMT_END

  b = jvms_history_builder_new (path, o->start_time, NULL, error);
  if (b == NULL)
    return FALSE;
  jvms_history_builder_set_metadata (b, "layers", "jfr,kernel");
  jvms_history_builder_set_metadata (b, "jvm-pid", "1000");

  threads = g_new0 (Thread, n_all);
  for (guint i = 0; i < n_all; i++)
    {
      Thread *th = &threads[i];
      g_autofree char *name = NULL;
      static const char *const counter_names[] = { "cycles", "instructions", "cache-misses",
                                                   "cache-references" };

      th->tid = 1000 + i;
      if (i >= o->n_threads)
        th->kind = JVMS_THREAD_KIND_OTHER_PROCESS, th->tid = 5000 + i;
      else if (i < 4)
        th->kind = JVMS_THREAD_KIND_GC;
      else if (i < 6)
        th->kind = JVMS_THREAD_KIND_JIT;
      else if (i < 7)
        th->kind = JVMS_THREAD_KIND_VM;
      else if (i < 8)
        th->kind = JVMS_THREAD_KIND_JFR;
      else
        th->kind = JVMS_THREAD_KIND_JAVA;
      switch (th->kind)
        {
        case JVMS_THREAD_KIND_GC: name = g_strdup_printf ("GC Thread#%u", i); break;
        case JVMS_THREAD_KIND_JIT: name = g_strdup_printf ("C%u CompilerThread0", i - 2); break;
        case JVMS_THREAD_KIND_VM: name = g_strdup ("VM Thread"); break;
        case JVMS_THREAD_KIND_JFR: name = g_strdup ("JFR Recorder Thread"); break;
        case JVMS_THREAD_KIND_OTHER_PROCESS: name = g_strdup_printf ("kworker/%u", i); break;
        default: name = g_strdup_printf ("worker-%u", i - 8); break;
        }
      MOD (jvms_history_builder_modify_string (b, attr (b, "Threads", th->tid, "name"), t, name, error));
      MOD (jvms_history_builder_modify_int (b, attr (b, "Threads", th->tid, "kind"), t, th->kind, error));
      MOD (jvms_history_builder_modify_int (b, attr (b, "Threads", th->tid, "pid"), t,
                                            th->kind == JVMS_THREAD_KIND_OTHER_PROCESS ? 77 : 1000, error));
      th->user = attr (b, "Threads", th->tid, "user-state");
      th->detail = attr (b, "Threads", th->tid, "user-state/detail");
      th->monitor = attr (b, "Threads", th->tid, "user-state/monitor");
      th->owner = attr (b, "Threads", th->tid, "user-state/owner");
      th->kernel = attr (b, "Threads", th->tid, "kernel-state");
      th->cpu = attr (b, "Threads", th->tid, "kernel-state/cpu");
      th->method = attr (b, "Threads", th->tid, "method");
      for (int c = 0; c < 4; c++)
        {
          g_autofree char *p = g_strdup_printf ("counters/%s", counter_names[c]);
          th->counters[c] = th->kind == JVMS_THREAD_KIND_JAVA && i < 16
                              ? attr (b, "Threads", th->tid, p) : JVMS_ATTRIBUTE_INVALID;
        }
      th->ipc = g_rand_double_range (rand, 0.4, 2.5);
      th->task = th->compilation = th->tier = th->size = th->allocation = JVMS_ATTRIBUTE_INVALID;
      if (o->new_views && th->kind == JVMS_THREAD_KIND_GC)
        th->task = attr (b, "GC/workers", th->tid, "task");
      if (o->new_views && th->kind == JVMS_THREAD_KIND_JIT)
        {
          th->compilation = attr (b, "JIT", th->tid, "compilation");
          th->tier = attr (b, "JIT", th->tid, "compilation/tier");
          th->size = attr (b, "JIT", th->tid, "compilation/size");
        }
      if (o->new_views && th->kind == JVMS_THREAD_KIND_JAVA)
        th->allocation = attr (b, "Threads", th->tid, "allocation-rate");
      heap_push (heap, (Next) { t + gap (rand, o->mean_gap_ns), ENTITY_THREAD, i });
    }
  cpu_thread = g_new (JvmsAttribute, o->n_cpus);
  cpu_pid = g_new (JvmsAttribute, o->n_cpus);
  cpu_counters = g_new (JvmsAttribute, o->n_cpus * 2);
  for (guint c = 0; c < o->n_cpus; c++)
    {
      cpu_thread[c] = attr (b, "CPUs", c, "current-thread");
      cpu_pid[c] = attr (b, "CPUs", c, "current-pid");
      cpu_counters[2 * c] = attr (b, "CPUs", c, "counters/cycles");
      cpu_counters[2 * c + 1] = attr (b, "CPUs", c, "counters/instructions");
      heap_push (heap, (Next) { t + gap (rand, o->mean_gap_ns / 2), ENTITY_CPU, c });
    }
  lock_owner = g_new (JvmsAttribute, o->n_locks);
  lock_waiters = g_new (JvmsAttribute, o->n_locks);
  for (guint l = 0; l < o->n_locks; l++)
    {
      g_autofree char *folder = g_strdup_printf ("Locks/0x7f00%06x", 0x1000 * (l + 1));
      g_autofree char *cls = g_strdup_printf ("%s/class", folder);
      g_autofree char *own = g_strdup_printf ("%s/owner", folder);
      g_autofree char *wai = g_strdup_printf ("%s/waiters", folder);
      MOD (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, cls), t,
                                               classes[l % G_N_ELEMENTS (classes)], error));
      lock_owner[l] = jvms_history_builder_attribute (b, own);
      lock_waiters[l] = jvms_history_builder_attribute (b, wai);
      heap_push (heap, (Next) { t + gap (rand, o->mean_gap_ns * 4), ENTITY_LOCK, l });
    }
  gc_collection = jvms_history_builder_attribute (b, "GC/collection");
  gc_name = jvms_history_builder_attribute (b, "GC/collection/name");
  gc_pause = jvms_history_builder_attribute (b, "GC/pause");
  /* Only the levels a collector uses exist, as in an index the analysis writes. */
  gc_phase[0] = jvms_history_builder_attribute (b, "GC/phase/0");
  heap_used = jvms_history_builder_attribute (b, "Memory/heap-used");
  heap_committed = jvms_history_builder_attribute (b, "Memory/heap-committed");
  MOD (jvms_history_builder_modify_int (b, heap_committed, t, 256 << 20, error));
  heap_push (heap, (Next) { t + o->mean_gap_ns * 50, ENTITY_GC, 0 });
  heap_push (heap, (Next) { t + 1000000, ENTITY_COUNTERS, 0 });
  if (o->new_views)
    {
      vm_operation = jvms_history_builder_attribute (b, "VM/operation");
      vm_at_safepoint = jvms_history_builder_attribute (b, "VM/operation/safepoint");
      vm_safepoint = jvms_history_builder_attribute (b, "VM/safepoint");
      vm_phase = jvms_history_builder_attribute (b, "VM/safepoint/phase");
      for (guint d = 0; d < N_DISKS; d++)
        {
          g_autofree char *folder = g_strdup_printf ("Disk/%s", d == 0 ? "8:0" : "259:0");
          g_autofree char *queue = g_strdup_printf ("%s/queue", folder);
          g_autofree char *flying = g_strdup_printf ("%s/in-flight", folder);
          memset (&disks[d], 0, sizeof disks[d]);
          disks[d].queue = jvms_history_builder_attribute (b, queue);
          disks[d].in_flight = jvms_history_builder_attribute (b, flying);
          for (guint k = 0; k < N_SLOTS; k++)
            {
              g_autofree char *slot = g_strdup_printf ("%s/requests/%u", folder, k);
              g_autofree char *bytes = g_strdup_printf ("%s/bytes", slot);
              g_autofree char *op = g_strdup_printf ("%s/op", slot);
              g_autofree char *issued = g_strdup_printf ("%s/issued", slot);
              disks[d].pid[k] = jvms_history_builder_attribute (b, slot);
              disks[d].bytes[k] = jvms_history_builder_attribute (b, bytes);
              disks[d].op[k] = jvms_history_builder_attribute (b, op);
              disks[d].issued[k] = jvms_history_builder_attribute (b, issued);
            }
          heap_push (heap, (Next) { t + gap (rand, o->mean_gap_ns), ENTITY_DISK, d });
        }
    }

  while (written < o->n_intervals)
    {
      Next n = heap_pop (heap);
      t = n.time;
      switch (n.type)
        {
        case ENTITY_THREAD:
          {
            Thread *th = &threads[n.index];
            guint r = g_rand_int_range (rand, 0, 100);
            gint64 kstate, ustate;

            if (r < 45)
              kstate = JVMS_KERNEL_STATE_RUNNING, ustate = JVMS_USER_STATE_RUNNING;
            else if (r < 55)
              kstate = JVMS_KERNEL_STATE_RUNNABLE, ustate = JVMS_USER_STATE_RUNNING;
            else if (r < 62)
              kstate = JVMS_KERNEL_STATE_SYSCALL, ustate = JVMS_USER_STATE_SOCKET_IO;
            else if (r < 72)
              kstate = JVMS_KERNEL_STATE_BLOCKED, ustate = JVMS_USER_STATE_BLOCKED;
            else if (r < 82)
              kstate = JVMS_KERNEL_STATE_BLOCKED, ustate = JVMS_USER_STATE_PARKED;
            else if (r < 88)
              kstate = JVMS_KERNEL_STATE_BLOCKED, ustate = JVMS_USER_STATE_WAITING;
            else if (r < 92)
              kstate = JVMS_KERNEL_STATE_BLOCKED_IO, ustate = JVMS_USER_STATE_FILE_IO;
            else if (r < 96)
              kstate = JVMS_KERNEL_STATE_BLOCKED, ustate = JVMS_USER_STATE_SLEEPING;
            else
              kstate = JVMS_KERNEL_STATE_RUNNING, ustate = JVMS_USER_STATE_NATIVE;
            if (th->kind == JVMS_THREAD_KIND_OTHER_PROCESS)
              ustate = -1;
            MOD (jvms_history_builder_modify_int (b, th->kernel, t, kstate, error));
            if (kstate == JVMS_KERNEL_STATE_RUNNING)
              MOD (jvms_history_builder_modify_int (b, th->cpu, t,
                                                    g_rand_int_range (rand, 0, o->n_cpus), error));
            else
              MOD (jvms_history_builder_modify_null (b, th->cpu, t, error));
            if (ustate >= 0)
              {
                MOD (jvms_history_builder_modify_int (b, th->user, t, ustate, error));
                if (ustate == JVMS_USER_STATE_BLOCKED)
                  {
                    guint l = g_rand_int_range (rand, 0, MAX (o->n_locks, 1));
                    MOD (jvms_history_builder_modify_int (b, th->monitor, t,
                                                          0x7f0000000000 + 0x1000 * (l + 1), error));
                    MOD (jvms_history_builder_modify_string (b, th->detail, t,
                                                             classes[l % G_N_ELEMENTS (classes)], error));
                    MOD (jvms_history_builder_modify_int (b, th->owner, t,
                                                          1008 + g_rand_int_range (rand, 0, MAX (o->n_threads, 9) - 8),
                                                          error));
                  }
                else
                  {
                    MOD (jvms_history_builder_modify_null (b, th->monitor, t, error));
                    MOD (jvms_history_builder_modify_null (b, th->owner, t, error));
                    MOD (jvms_history_builder_modify_null (b, th->detail, t, error));
                  }
                if (ustate == JVMS_USER_STATE_RUNNING)
                  MOD (jvms_history_builder_modify_string (b, th->method, t,
                                                           methods[g_rand_int_range (rand, 0, G_N_ELEMENTS (methods))],
                                                           error));
              }
            if (o->new_views && !write_new_views (b, rand, th, kstate == JVMS_KERNEL_STATE_RUNNING, t,
                                                  vm_operation, vm_at_safepoint, vm_safepoint, vm_phase,
                                                  &safepoint_id, &written, error))
              return FALSE;
            heap_push (heap, (Next) { t + gap (rand, o->mean_gap_ns), ENTITY_THREAD, n.index });
          }
          break;
        case ENTITY_CPU:
          {
            guint pick = g_rand_int_range (rand, 0, n_all + 2);
            if (pick >= n_all)
              {
                MOD (jvms_history_builder_modify_null (b, cpu_thread[n.index], t, error));
                MOD (jvms_history_builder_modify_null (b, cpu_pid[n.index], t, error));
              }
            else
              {
                MOD (jvms_history_builder_modify_int (b, cpu_thread[n.index], t, threads[pick].tid, error));
                MOD (jvms_history_builder_modify_int (b, cpu_pid[n.index], t,
                                                      threads[pick].kind == JVMS_THREAD_KIND_OTHER_PROCESS ? 77 : 1000,
                                                      error));
              }
            heap_push (heap, (Next) { t + gap (rand, o->mean_gap_ns / 2), ENTITY_CPU, n.index });
          }
          break;
        case ENTITY_LOCK:
          if (g_rand_boolean (rand))
            {
              MOD (jvms_history_builder_modify_int (b, lock_owner[n.index], t,
                                                    1008 + g_rand_int_range (rand, 0, MAX (o->n_threads, 9) - 8),
                                                    error));
              MOD (jvms_history_builder_modify_int (b, lock_waiters[n.index], t,
                                                    g_rand_int_range (rand, 1, 6), error));
            }
          else
            {
              MOD (jvms_history_builder_modify_null (b, lock_owner[n.index], t, error));
              MOD (jvms_history_builder_modify_null (b, lock_waiters[n.index], t, error));
            }
          heap_push (heap, (Next) { t + gap (rand, o->mean_gap_ns * 4), ENTITY_LOCK, n.index });
          break;
        case ENTITY_GC:
          /* A young collection in six steps: start, four phases, end. */
          if (gc_step == 0)
            {
              gc_id++;
              MOD (jvms_history_builder_modify_int (b, gc_collection, t, gc_id, error));
              MOD (jvms_history_builder_modify_string (b, gc_name, t, gc_id % 5 ? "G1New" : "G1Old", error));
              MOD (jvms_history_builder_modify_string (b, gc_pause, t, "Pause Young (Normal)", error));
              MOD (jvms_history_builder_modify_int (b, heap_used, t, heap_value, error));
            }
          if (gc_step < 4)
            MOD (jvms_history_builder_modify_string (b, gc_phase[0], t, phases[gc_step], error));
          if (gc_step == 4)
            {
              MOD (jvms_history_builder_modify_null (b, gc_collection, t, error));
              MOD (jvms_history_builder_modify_null (b, gc_name, t, error));
              MOD (jvms_history_builder_modify_null (b, gc_pause, t, error));
              MOD (jvms_history_builder_modify_null (b, gc_phase[0], t, error));
              heap_value = 48 << 20;
              MOD (jvms_history_builder_modify_int (b, heap_used, t, heap_value, error));
            }
          gc_step = (gc_step + 1) % 5;
          heap_push (heap, (Next) { t + (gc_step == 0 ? o->mean_gap_ns * 200 : o->mean_gap_ns * 2),
                                    ENTITY_GC, 0 });
          break;
        case ENTITY_COUNTERS:
          /* Every millisecond: heap grows with allocation; counter rates move around. */
          heap_value += g_rand_int_range (rand, 0, 2 << 20);
          MOD (jvms_history_builder_modify_int (b, heap_used, t, heap_value, error));
          for (guint i = 0; i < n_all; i++)
            if (threads[i].counters[0] != JVMS_ATTRIBUTE_INVALID)
              {
                double cycles = g_rand_double_range (rand, 1e8, 3e9);
                double refs = g_rand_double_range (rand, 1e6, 5e7);
                threads[i].ipc = CLAMP (threads[i].ipc + g_rand_double_range (rand, -0.2, 0.2), 0.2, 3.5);
                MOD (jvms_history_builder_modify_double (b, threads[i].counters[0], t, cycles, error));
                MOD (jvms_history_builder_modify_double (b, threads[i].counters[1], t, cycles * threads[i].ipc, error));
                MOD (jvms_history_builder_modify_double (b, threads[i].counters[2], t,
                                                         refs * g_rand_double_range (rand, 0.01, 0.4), error));
                MOD (jvms_history_builder_modify_double (b, threads[i].counters[3], t, refs, error));
              }
          for (guint c = 0; c < o->n_cpus; c++)
            {
              double cycles = g_rand_double_range (rand, 5e8, 3e9);
              MOD (jvms_history_builder_modify_double (b, cpu_counters[2 * c], t, cycles, error));
              MOD (jvms_history_builder_modify_double (b, cpu_counters[2 * c + 1], t,
                                                       cycles * g_rand_double_range (rand, 0.5, 2.0), error));
            }
          heap_push (heap, (Next) { t + 1000000, ENTITY_COUNTERS, 0 });
          break;
        case ENTITY_DISK:
          if (!write_disk (b, rand, &disks[n.index], n_all, threads, t, &written, error))
            return FALSE;
          heap_push (heap, (Next) { t + gap (rand, o->mean_gap_ns), ENTITY_DISK, n.index });
          break;
        default:
          g_assert_not_reached ();
        }
    }
#undef MOD
  return jvms_history_builder_close (b, t + 1, error);
}

GArray *
jvms_synthetic_object_samples (gint64  start,
                               gint64  end,
                               guint   n,
                               guint32 seed)
{
  static const char *const sites[] = { "com.example.Cache.put", "com.example.Shop.checkout",
                                       "com.example.Json.write" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  GArray *samples = g_array_new (FALSE, FALSE, sizeof (JvmsObjectAgeSample));

  for (guint i = 0; i < n; i++)
    {
      JvmsObjectAgeSample s;
      s.time = start + (gint64) (g_rand_double (rand) * (double) (end - start));
      s.allocation_time = start + (gint64) (g_rand_double (rand) * g_rand_double (rand) *
                                            (double) (s.time - start));
      s.bytes_since = (s.time - s.allocation_time) * 100;
      s.class_name = classes[g_rand_int_range (rand, 0, G_N_ELEMENTS (classes))];
      s.site = sites[g_rand_int_range (rand, 0, G_N_ELEMENTS (sites))];
      s.count = g_rand_int_range (rand, 1, 20);
      g_array_append_val (samples, s);
    }
  return samples;
}
