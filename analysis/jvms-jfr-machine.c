/* jvms-jfr-machine.c: the JVM state machine (Daoud & Dagenais 2020, section 4.2, the user-space
 * side), driven by JFR events. */
#include "jvms-jfr-machine.h"

#include <string.h>

#include "jvms-allocation-classes.h"
#include "jvms-jfr-safepoints.h"
#include "jvms-jfr-recording.h"
#include "jvms-jfr-samples.h"
#include "jvms-states.h"
#include "jvms-thread-list.h"

#define NS_PER_MS           G_GINT64_CONSTANT (1000000)
/* jdk.ExecutionSample's period in default.jfc is 20 ms: a method is held for two periods. */
#define METHOD_HOLD_NS      (40 * NS_PER_MS)
#define ALLOC_BUCKET_NS     JVMS_ALLOCATION_BUCKET_NS
/* Notes kept from a profiler's own log (profiler.Log at WARN or ERROR). */
#define MAX_LOG_NOTES       16

typedef enum
{
  H_IGNORE,
  H_THREAD_START,
  H_THREAD_END,
  H_MONITOR_ENTER,
  H_MONITOR_WAIT,
  H_PARK,
  H_SLEEP,
  H_SOCKET,
  H_FILE,
  H_GC,
  H_GC_PAUSE,        /* GCPhasePause: level 0 and GC/pause */
  H_GC_PHASE,        /* GCPhasePauseLevel1..4 */
  H_GC_CONCURRENT,
  H_GC_PARALLEL,
  H_HEAP,
  H_METASPACE,
  H_COMPILATION,
  H_VM_OPERATION,
  H_SAFEPOINT_BEGIN,
  H_SAFEPOINT_SYNC,
  H_SAFEPOINT_END,
  H_EXECUTION_SAMPLE,
  H_NATIVE_SAMPLE,
  H_ALLOC_SAMPLE,
  H_ALLOC_TLAB,
  H_JVM_INFO,
  H_WALL_SAMPLE,     /* profiler.WallClockSample, profiler.WallClockSleeping, datadog.MethodSample */
  H_ALLOC_MARK,      /* datadog.ObjectSample */
  H_EXCEPTION_MARK,  /* datadog.ExceptionSample, jdk.JavaErrorThrow, jdk.JavaExceptionThrow */
  H_CPU_LOAD,        /* jdk.CPULoad */
  H_PROFILER_LOG,    /* profiler.Log */
  H_PROFILER_WINDOW, /* profiler.Window */
  H_ENDPOINT,        /* datadog.Endpoint */
} Handler;

/* Field handles, looked up once per JvmsJfrType (chunks with other metadata have other types). */
typedef struct
{
  Handler             handler;
  int                 level;
  const JvmsJfrField *thread;    /* thread, sampledThread */
  const JvmsJfrField *klass;     /* monitorClass, parkedClass, objectClass */
  const JvmsJfrField *address;
  const JvmsJfrField *owner;     /* previousOwner */
  const JvmsJfrField *name;      /* name, operation, path, host */
  const JvmsJfrField *name2;     /* cause, address (socket) */
  const JvmsJfrField *id;        /* gcId, compileId, safepointId */
  const JvmsJfrField *port;
  const JvmsJfrField *flag;      /* safepoint */
  const JvmsJfrField *size;      /* heapUsed, codeSize, weight, allocationSize */
  const JvmsJfrField *size2;     /* heapSpace, tlabSize, compileLevel, metaspace */
  const JvmsJfrField *stack;
  const JvmsJfrField *state;
  const JvmsJfrField *method;
  const JvmsJfrField *count;     /* samples, samplesCount, weight: samples one event stands for */
  const JvmsJfrField *load[3];   /* jvmUser, jvmSystem, machineTotal */
  gboolean            off_cpu;   /* profiler.WallClockSleeping: samples off CPU, no state */
} TypeInfo;

typedef struct
{
  JvmsThread   *thread;
  JvmsAttribute a_user;
  /* Made at their first value (lazy_child): JVMS_ATTRIBUTE_INVALID until then. */
  JvmsAttribute a_detail, a_monitor, a_owner, a_method, a_alloc;
  gint64        cursor;        /* end of the last interval written by the machine */
  gint64        pending_end;   /* end of the blocking interval not yet written, or G_MININT64 */
  gboolean      pending_native; /* that interval is a NATIVE window from native method samples */
  guint         stop_idx;      /* first stop-the-world window not yet applied */
  gboolean      alive;
  gboolean      running_set;
  gint64        method_expiry; /* G_MININT64 when no method shown */
  gint64        alloc_bucket;  /* G_MININT64 when none */
  guint64       alloc_bytes;
  JvmsNest     *gc_task;       /* GC/workers/<tid>/task */
  JvmsNest     *compilation;   /* JIT/<tid>/compilation + tier + size */
  JvmsNest     *endpoint;      /* Threads/<tid>/endpoint */
  gboolean      not_recorded_set; /* sampled recording: user-state NOT_RECORDED written */
  /* Threads/<tid>/samples/<kind>: the count so far of each kind (made at its first sample). */
  JvmsAttribute a_samples_folder;
  JvmsAttribute a_samples[JVMS_SAMPLED_N];
  guint64       n_samples[JVMS_SAMPLED_N];
} JThread;

typedef struct
{
  gint64      start, end;
  const char *detail;          /* interned */
} Stop;

typedef struct
{
  gint64   end;
  JThread *thread;
} PendingEnd;

/* A batch of wall-clock samples (one event standing for @remaining more, @spacing apart): each
 * is counted when the stream reaches it, so that a batch of 1000 idle samples over 10 s draws as
 * what it was, and the history still receives its intervals in about time order. */
typedef struct
{
  gint64   next;
  gint64   spacing;
  guint64  remaining;
  JThread *thread;
  guint    sampled;
} Ramp;


/* A blocked entry of a monitor not yet ended: when its thread acquires the monitor, and the
 * thread that held it until then (JFR's previousOwner: the one that released it to this one). */
typedef struct
{
  gint64 end;
  gint64 owner;
} LockEntry;

typedef struct
{
  JvmsAttribute a_class, a_owner, a_waiters;
  gint64        waiters;
  GArray       *ends;          /* LockEntry, by end: the blocked entries not yet ended */
} Lock;

struct _JvmsJfrMachine
{
  JvmsWriter        *writer;
  JvmsThreads       *threads;
  JvmsJfrSamples    *samples;   /* NULL when no sample store is written */
  gint64             recording_start;
  gint64             pid;
  GHashTable        *types;      /* const JvmsJfrType* -> TypeInfo* */
  GHashTable        *jthreads;   /* gint64 tid -> JThread* */
  GHashTable        *locks;      /* guint64 address -> Lock* */
  JvmsSafepoints    *safepoints; /* each safepoint's events until it is complete */
  gint64             safepoint_last; /* start of the last VM/safepoint interval pushed */
  gint64             finish_time;
  GArray            *stops;      /* Stop, by start: windows when Java threads are stopped */
  GArray            *ends;       /* PendingEnd heap */
  GHashTable        *stacks;     /* (chunk << 44 | stack key) -> CachedStack* */
  gpointer           uncached;
  JvmsNest          *gc_collection, *gc_pause, *gc_phase[5], *gc_concurrent;
  JvmsNest          *vm_operation, *vm_safepoint, *vm_safepoint_phase;
  JvmsAttribute      a_heap_used, a_heap_committed, a_metaspace;
  gboolean           have_alloc_samples;
  GStringChunk      *strings;    /* interned detail strings (class names are few) */
  /* The kind of recording (jvms-jfr-recording.h), or NULL: then thread states are inferred as
   * for the JDK's recorder. Its totals are counted here. */
  JvmsRecordingInfo *recording;
  gboolean           sampled;    /* no thread states recorded: threads are their samples */
  GArray            *ramps;      /* Ramp heap by next */
  JvmsAttribute      a_load[3];  /* Load/jvm-user, jvm-system, machine-total */
  gint64             load_since; /* where the next jdk.CPULoad's values begin */
  JvmsNest          *window;     /* Profiler/window */
  GPtrArray         *log_notes;  /* char*: profiler.Log warnings and errors */
  guint              n_log_dropped;
};

static void safepoint_done (const JvmsSafepoint *sp, gpointer user_data);

static void
jthread_free (gpointer data)
{
  JThread *j = data;
  jvms_nest_free (j->gc_task);
  jvms_nest_free (j->compilation);
  jvms_nest_free (j->endpoint);
  g_free (j);
}

static void
lock_free (gpointer data)
{
  Lock *l = data;
  g_array_unref (l->ends);
  g_free (l);
}

static JvmsNest *
nest_for (JvmsWriter *w, const char *p0, const char *p1, const char *p2)
{
  JvmsAttribute a[3];
  guint n = 0;
  a[n++] = jvms_writer_attribute (w, "%s", p0);
  if (p1 != NULL)
    a[n++] = jvms_writer_attribute (w, "%s", p1);
  if (p2 != NULL)
    a[n++] = jvms_writer_attribute (w, "%s", p2);
  return jvms_nest_new (w, n, a);
}

JvmsJfrMachine *
jvms_jfr_machine_new (JvmsWriter *writer, JvmsThreads *threads, JvmsSamplesWriter *samples,
                      gint64 recording_start)
{
  JvmsJfrMachine *self = g_new0 (JvmsJfrMachine, 1);
  self->writer = writer;
  self->threads = threads;
  /* JVMS_BENCH_NO_SAMPLES: bench-profile's index without stacks, its baseline. */
  self->samples = samples != NULL && g_getenv ("JVMS_BENCH_NO_SAMPLES") == NULL ? jvms_jfr_samples_new (samples) : NULL;
  self->recording_start = MAX (recording_start, jvms_writer_get_start (writer));
  self->pid = -1;
  self->types = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->jthreads = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, jthread_free);
  self->locks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, lock_free);
  self->safepoints = jvms_safepoints_new (safepoint_done, self);
  self->safepoint_last = G_MININT64;
  self->strings = g_string_chunk_new (1 << 14);
  self->stops = g_array_new (FALSE, FALSE, sizeof (Stop));
  self->ends = g_array_new (FALSE, FALSE, sizeof (PendingEnd));
  self->stacks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->gc_collection = nest_for (writer, "GC/collection", "GC/collection/name", "GC/collection/cause");
  self->gc_pause = nest_for (writer, "GC/pause", NULL, NULL);
  for (int i = 0; i < 5; i++)
    {
      g_autofree char *p = g_strdup_printf ("GC/phase/%d", i);
      self->gc_phase[i] = nest_for (writer, p, NULL, NULL);
    }
  self->gc_concurrent = nest_for (writer, "GC/concurrent-phase", NULL, NULL);
  self->vm_operation = nest_for (writer, "VM/operation", "VM/operation/safepoint", NULL);
  self->vm_safepoint = nest_for (writer, "VM/safepoint", NULL, NULL);
  self->vm_safepoint_phase = nest_for (writer, "VM/safepoint/phase", NULL, NULL);
  self->a_heap_used = jvms_writer_attribute (writer, "Memory/heap-used");
  self->a_heap_committed = jvms_writer_attribute (writer, "Memory/heap-committed");
  self->a_metaspace = jvms_writer_attribute (writer, "Memory/metaspace-used");
  self->ramps = g_array_new (FALSE, FALSE, sizeof (Ramp));
  self->a_load[0] = self->a_load[1] = self->a_load[2] = JVMS_ATTRIBUTE_INVALID;
  self->load_since = self->recording_start;
  self->log_notes = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
jvms_jfr_machine_set_recording (JvmsJfrMachine *self, JvmsRecordingInfo *recording)
{
  self->recording = recording;
  self->sampled = recording != NULL && !recording->thread_states;
  if (self->samples != NULL)
    jvms_jfr_samples_set_recording (self->samples, recording);
}

void
jvms_jfr_machine_add_notes (JvmsJfrMachine *self, GPtrArray *notes)
{
  for (guint i = 0; i < self->log_notes->len; i++)
    g_ptr_array_add (notes, g_strdup (g_ptr_array_index (self->log_notes, i)));
  if (self->n_log_dropped > 0)
    g_ptr_array_add (notes, g_strdup_printf ("the profiler logged %u more warnings or errors",
                                             self->n_log_dropped));
}

void
jvms_jfr_machine_free (JvmsJfrMachine *self)
{
  if (self == NULL)
    return;
  jvms_jfr_samples_free (self->samples);
  g_hash_table_unref (self->types);
  g_hash_table_unref (self->jthreads);
  g_hash_table_unref (self->locks);
  jvms_safepoints_free (self->safepoints);
  g_string_chunk_free (self->strings);
  g_array_unref (self->stops);
  g_array_unref (self->ends);
  g_hash_table_unref (self->stacks);
  g_free (self->uncached);
  jvms_nest_free (self->gc_collection);
  jvms_nest_free (self->gc_pause);
  for (int i = 0; i < 5; i++)
    jvms_nest_free (self->gc_phase[i]);
  jvms_nest_free (self->gc_concurrent);
  jvms_nest_free (self->vm_operation);
  jvms_nest_free (self->vm_safepoint);
  jvms_nest_free (self->vm_safepoint_phase);
  jvms_nest_free (self->window);
  g_array_unref (self->ramps);
  g_ptr_array_unref (self->log_notes);
  g_free (self);
}

void
jvms_jfr_machine_set_cpu_state_func (JvmsJfrMachine *self, JvmsCpuStateFunc func, gpointer user_data)
{
  if (self->samples != NULL)
    jvms_jfr_samples_set_cpu_state_func (self->samples, func, user_data);
}

guint32
jvms_jfr_machine_stack_of_values (JvmsJfrMachine *self, const JvmsJfrEvent *event, const JvmsJfrValue *values,
                                  guint n_good)
{
  return self->samples != NULL ? jvms_jfr_samples_stack_of_values (self->samples, event, values, n_good)
                               : JVMS_SAMPLES_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/* Types */

static const struct
{
  const char *name;
  Handler     handler;
  int         level;
} handlers[] = {
  { "jdk.ThreadStart", H_THREAD_START, 0 },
  { "jdk.ThreadEnd", H_THREAD_END, 0 },
  { "jdk.JavaMonitorEnter", H_MONITOR_ENTER, 0 },
  { "jdk.JavaMonitorWait", H_MONITOR_WAIT, 0 },
  { "jdk.ThreadPark", H_PARK, 0 },
  { "jdk.ThreadSleep", H_SLEEP, 0 },
  { "jdk.SocketRead", H_SOCKET, 0 },
  { "jdk.SocketWrite", H_SOCKET, 0 },
  { "jdk.FileRead", H_FILE, 0 },
  { "jdk.FileWrite", H_FILE, 0 },
  { "jdk.FileForce", H_FILE, 0 },
  { "jdk.GarbageCollection", H_GC, 0 },
  { "jdk.GCPhasePause", H_GC_PAUSE, 0 },
  { "jdk.GCPhasePauseLevel1", H_GC_PHASE, 1 },
  { "jdk.GCPhasePauseLevel2", H_GC_PHASE, 2 },
  { "jdk.GCPhasePauseLevel3", H_GC_PHASE, 3 },
  { "jdk.GCPhasePauseLevel4", H_GC_PHASE, 4 },
  { "jdk.GCPhaseConcurrent", H_GC_CONCURRENT, 0 },
  { "jdk.GCPhaseParallel", H_GC_PARALLEL, 0 },
  { "jdk.GCHeapSummary", H_HEAP, 0 },
  { "jdk.MetaspaceSummary", H_METASPACE, 0 },
  { "jdk.Compilation", H_COMPILATION, 0 },
  { "jdk.ExecuteVMOperation", H_VM_OPERATION, 0 },
  { "jdk.SafepointBegin", H_SAFEPOINT_BEGIN, 0 },
  { "jdk.SafepointStateSynchronization", H_SAFEPOINT_SYNC, 0 },
  { "jdk.SafepointEnd", H_SAFEPOINT_END, 0 },
  { "jdk.ExecutionSample", H_EXECUTION_SAMPLE, 0 },
  { "jdk.CPUTimeSample", H_EXECUTION_SAMPLE, 0 },
  { "jdk.NativeMethodSample", H_NATIVE_SAMPLE, 0 },
  { "jdk.ObjectAllocationSample", H_ALLOC_SAMPLE, 0 },
  { "jdk.ObjectAllocationInNewTLAB", H_ALLOC_TLAB, 0 },
  { "jdk.ObjectAllocationOutsideTLAB", H_ALLOC_TLAB, 0 },
  { "jdk.JVMInformation", H_JVM_INFO, 0 },
  { "datadog.ExecutionSample", H_EXECUTION_SAMPLE, 0 },
  { "profiler.WallClockSample", H_WALL_SAMPLE, 0 },
  { "profiler.WallClockSleeping", H_WALL_SAMPLE, 0 },
  { "datadog.MethodSample", H_WALL_SAMPLE, 0 },
  { "datadog.ObjectSample", H_ALLOC_MARK, 0 },
  { "datadog.ExceptionSample", H_EXCEPTION_MARK, 0 },
  { "jdk.JavaErrorThrow", H_EXCEPTION_MARK, 0 },
  { "jdk.JavaExceptionThrow", H_EXCEPTION_MARK, 0 },
  { "jdk.CPULoad", H_CPU_LOAD, 0 },
  { "profiler.Log", H_PROFILER_LOG, 0 },
  { "profiler.Window", H_PROFILER_WINDOW, 0 },
  { "datadog.Endpoint", H_ENDPOINT, 0 },
};

static const JvmsJfrField *
field (const JvmsJfrType *type, const char *name)
{
  return jvms_jfr_type_find_field (type, name);
}

static TypeInfo *
type_info (JvmsJfrMachine *self, const JvmsJfrType *type)
{
  TypeInfo *ti = g_hash_table_lookup (self->types, type);
  if (ti != NULL)
    return ti;
  ti = g_new0 (TypeInfo, 1);
  ti->handler = H_IGNORE;
  const char *name = jvms_jfr_type_get_name (type);
  for (gsize i = 0; name != NULL && i < G_N_ELEMENTS (handlers); i++)
    if (strcmp (name, handlers[i].name) == 0)
      {
        ti->handler = handlers[i].handler;
        ti->level = handlers[i].level;
      }
  ti->thread = field (type, "eventThread");
  ti->stack = field (type, "stackTrace");
  switch (ti->handler)
    {
    case H_THREAD_START:
    case H_THREAD_END:
      ti->thread = field (type, "thread");
      break;
    case H_MONITOR_ENTER:
      ti->klass = field (type, "monitorClass");
      ti->address = field (type, "address");
      ti->owner = field (type, "previousOwner");
      break;
    case H_MONITOR_WAIT:
      ti->klass = field (type, "monitorClass");
      ti->address = field (type, "address");
      break;
    case H_PARK:
      ti->klass = field (type, "parkedClass");
      break;
    case H_SOCKET:
      ti->name = field (type, "host");
      ti->name2 = field (type, "address");
      ti->port = field (type, "port");
      break;
    case H_FILE:
      ti->name = field (type, "path");
      break;
    case H_GC:
      ti->id = field (type, "gcId");
      ti->name = field (type, "name");
      ti->name2 = field (type, "cause");
      break;
    case H_GC_PAUSE:
    case H_GC_PHASE:
    case H_GC_CONCURRENT:
    case H_GC_PARALLEL:
      ti->name = field (type, "name");
      break;
    case H_HEAP:
      ti->size = field (type, "heapUsed");
      ti->size2 = field (type, "heapSpace");
      break;
    case H_METASPACE:
      ti->size2 = field (type, "metaspace");
      break;
    case H_COMPILATION:
      ti->method = field (type, "method");
      ti->size = field (type, "codeSize");
      ti->size2 = field (type, "compileLevel");
      break;
    case H_VM_OPERATION:
      ti->name = field (type, "operation");
      ti->flag = field (type, "safepoint");
      ti->id = field (type, "safepointId");
      break;
    case H_SAFEPOINT_BEGIN:
    case H_SAFEPOINT_SYNC:
    case H_SAFEPOINT_END:
      ti->id = field (type, "safepointId");
      break;
    case H_EXECUTION_SAMPLE:
    case H_NATIVE_SAMPLE:
    case H_WALL_SAMPLE:
      /* dd-trace's samples name their thread eventThread. */
      if (field (type, "sampledThread") != NULL)
        ti->thread = field (type, "sampledThread");
      ti->state = field (type, "state");
      ti->count = jvms_jfr_recording_batch_field (type);
      ti->off_cpu = g_strcmp0 (name, "profiler.WallClockSleeping") == 0;
      break;
    case H_CPU_LOAD:
      ti->load[0] = field (type, "jvmUser");
      ti->load[1] = field (type, "jvmSystem");
      ti->load[2] = field (type, "machineTotal");
      break;
    case H_PROFILER_LOG:
      ti->name = field (type, "message");
      ti->name2 = field (type, "level");
      break;
    case H_ENDPOINT:
      ti->name = field (type, "endpoint");
      ti->name2 = field (type, "operation");
      break;
    case H_ALLOC_SAMPLE:
      ti->klass = field (type, "objectClass");
      ti->size = field (type, "weight");
      break;
    case H_ALLOC_TLAB:
      ti->klass = field (type, "objectClass");
      ti->size = field (type, "allocationSize");
      ti->size2 = field (type, "tlabSize");
      break;
    case H_JVM_INFO:
      ti->id = field (type, "pid");
      break;
    case H_IGNORE:
    default:
      break;
    }
  g_hash_table_insert (self->types, (gpointer) type, ti);
  return ti;
}

/* ------------------------------------------------------------------------------------------ */
/* Threads */

static JThread *
jthread_get (JvmsJfrMachine *self, const JvmsJfrThread *jt, gint64 time)
{
  if (jt == NULL)
    return NULL;
  gint64 tid = jvms_threads_tid_of_jfr (jt);
  if (tid == 0)
    return NULL;
  JThread *j = g_hash_table_lookup (self->jthreads, &tid);
  if (j == NULL)
    {
      j = g_new0 (JThread, 1);
      j->thread = jvms_threads_get (self->threads, tid, time);
      JvmsAttribute f = j->thread->folder;
      j->a_user = jvms_writer_child (self->writer, f, "user-state");
      j->a_detail = j->a_monitor = j->a_owner = JVMS_ATTRIBUTE_INVALID;
      j->a_method = j->a_alloc = JVMS_ATTRIBUTE_INVALID;
      j->a_samples_folder = JVMS_ATTRIBUTE_INVALID;
      for (guint k = 0; k < JVMS_SAMPLED_N; k++)
        j->a_samples[k] = JVMS_ATTRIBUTE_INVALID;
      j->method_expiry = G_MININT64;
      j->alloc_bucket = G_MININT64;
      j->cursor = G_MININT64;
      j->pending_end = G_MININT64;
      g_hash_table_insert (self->jthreads, &j->thread->tid, j);
    }
  const char *name = jt->java_name != NULL ? jt->java_name : jt->os_name;
  if (!j->thread->from_jfr || g_strcmp0 (name, j->thread->java_name) != 0)
    jvms_threads_set_java (self->threads, j->thread, name, jt->java_thread_id);
  if (self->pid > 0 && j->thread->pid != self->pid)
    jvms_threads_set_pid (self->threads, j->thread, (gint32) self->pid);
  return j;
}

/* A thread's attribute @name under @parent, made when it first takes a value: most threads never
 * block, get sampled or allocate, and each attribute costs the builder memory for the whole
 * build (a file of 100,000 threads took 1.2 GB). Until then a null write is a no-op
 * (jvms_writer_set ignores JVMS_ATTRIBUTE_INVALID), which is the value it would have held. */
static JvmsAttribute
lazy_child (JvmsJfrMachine *self, JvmsAttribute *slot, JvmsAttribute parent, const char *name)
{
  if (*slot == JVMS_ATTRIBUTE_INVALID)
    *slot = jvms_writer_child (self->writer, parent, name);
  return *slot;
}

static void
set_detail (JvmsJfrMachine *self, JThread *j, gint64 t, const char *detail)
{
  if (detail == NULL)
    jvms_writer_set_null (self->writer, j->a_detail, t);
  else
    jvms_writer_set_string (self->writer, lazy_child (self, &j->a_detail, j->a_user, "detail"), t,
                            detail);
}

/* ------------------------------------------------------------------------------------------ */
/* Min-heaps by time: pending ends and batched samples. Their elements begin with the time
 * (a gint64) the heap orders them by. */

static gint64
heap_key (GArray *heap, guint i)
{
  gint64 key;
  memcpy (&key, heap->data + (gsize) i * g_array_get_element_size (heap), sizeof key);
  return key;
}

static void
heap_swap (GArray *heap, guint a, guint b)
{
  guint size = g_array_get_element_size (heap);
  guint8 tmp[64];
  g_assert (size <= sizeof tmp);
  memcpy (tmp, heap->data + (gsize) a * size, size);
  memcpy (heap->data + (gsize) a * size, heap->data + (gsize) b * size, size);
  memcpy (heap->data + (gsize) b * size, tmp, size);
}

static void
heap_push (GArray *heap, gconstpointer element)
{
  g_array_append_vals (heap, element, 1);
  for (guint i = heap->len - 1; i > 0;)
    {
      guint parent = (i - 1) / 2;
      if (heap_key (heap, parent) <= heap_key (heap, i))
        break;
      heap_swap (heap, parent, i);
      i = parent;
    }
}

/* Removes the earliest element into @out. */
static void
heap_pop (GArray *heap, gpointer out)
{
  guint size = g_array_get_element_size (heap);
  memcpy (out, heap->data, size);
  heap_swap (heap, 0, heap->len - 1);
  g_array_set_size (heap, heap->len - 1);
  guint n = heap->len;
  for (guint i = 0;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      if (l < n && heap_key (heap, l) < heap_key (heap, m))
        m = l;
      if (r < n && heap_key (heap, r) < heap_key (heap, m))
        m = r;
      if (m == i)
        break;
      heap_swap (heap, m, i);
      i = m;
    }
}

/* A Java thread seen for the first time was running since it started, or since the recording
 * began when its start was not recorded. */
static void
ensure_running (JvmsJfrMachine *self, JThread *j, gint64 since)
{
  if (j->running_set || j->thread->java_id <= 0)
    return;
  j->running_set = TRUE;
  j->alive = TRUE;
  j->cursor = MAX (j->cursor, since);
  jvms_writer_set_int (self->writer, j->a_user, since, JVMS_USER_STATE_RUNNING);
}

/* A recording without thread states: a thread the machine meets is NOT_RECORDED from the
 * recording's start (or its recorded start), never RUNNING: between its samples nothing says
 * what it did (docs/attributes.md). */
static void
ensure_not_recorded (JvmsJfrMachine *self, JThread *j, gint64 since)
{
  if (j->not_recorded_set)
    return;
  j->not_recorded_set = TRUE;
  j->alive = TRUE;
  jvms_writer_set_int (self->writer, j->a_user, since, JVMS_USER_STATE_NOT_RECORDED);
}

/* One more sample of kind @k for @j at @t: Threads/<tid>/samples/<kind> holds the count so far,
 * so that the samples in any range are two values apart and a view reads a pixel column's
 * samples from the summary's min and max (docs/attributes.md, "Samples"). */
static void
count_one (JvmsJfrMachine *self, JThread *j, gint64 t, JvmsSampled k)
{
  if (j->a_samples[k] == JVMS_ATTRIBUTE_INVALID)
    {
      if (j->a_samples_folder == JVMS_ATTRIBUTE_INVALID)
        j->a_samples_folder = jvms_writer_child (self->writer, j->thread->folder, "samples");
      j->a_samples[k] = jvms_writer_child (self->writer, j->a_samples_folder, jvms_sampled_name (k));
    }
  j->n_samples[k]++;
  if (self->recording != NULL)
    self->recording->totals[k]++;
  jvms_writer_set_int (self->writer, j->a_samples[k], t, (gint64) j->n_samples[k]);
}

/* Counts the batched samples the stream has reached by @time. */
static void
flush_ramps (JvmsJfrMachine *self, gint64 time)
{
  while (self->ramps->len > 0 && g_array_index (self->ramps, Ramp, 0).next <= time)
    {
      Ramp r;
      heap_pop (self->ramps, &r);
      count_one (self, r.thread, r.next, r.sampled);
      if (--r.remaining > 0)
        {
          r.next += r.spacing;
          heap_push (self->ramps, &r);
        }
    }
}

/* @n samples of kind @k from @t, @spacing apart (0: all at @t). A thread's batch never
 * overlaps its next sample of the same kind (the writer batches only while nothing else is
 * sampled), so the counts stay in time order. */
static void
count_samples (JvmsJfrMachine *self, JThread *j, gint64 t, JvmsSampled k, guint64 n, gint64 spacing)
{
  if (n == 0)
    return;
  count_one (self, j, t, k);
  if (n == 1)
    return;
  if (spacing <= 0)
    {
      /* All at once: one step of n (a writer that merged samples without saying when). */
      j->n_samples[k] += n - 1;
      if (self->recording != NULL)
        self->recording->totals[k] += n - 1;
      jvms_writer_set_int (self->writer, j->a_samples[k], t, (gint64) j->n_samples[k]);
      return;
    }
  Ramp r = { t + spacing, spacing, n - 1, j, k };
  heap_push (self->ramps, &r);
}

static const char *
intern (JvmsJfrMachine *self, const char *s)
{
  return s != NULL ? g_string_chunk_insert_const (self->strings, s) : NULL;
}

/* Writes the stop-the-world windows that fall in a running thread's gap [cursor, @upto): the
 * gap is only known once the thread's next blocking event (or its end) is seen, so a blocking
 * event that starts while the world is being stopped or resumed keeps its exact start. */
static void
fill_gap (JvmsJfrMachine *self, JThread *j, gint64 upto)
{
  JvmsWriter *w = self->writer;
  if (!j->running_set)
    return;
  while (j->stop_idx < self->stops->len)
    {
      Stop *stop = &g_array_index (self->stops, Stop, j->stop_idx);
      if (stop->start >= upto)
        break;
      gint64 s = MAX (stop->start, j->cursor);
      gint64 e = MIN (stop->end, upto);
      if (s < e)
        {
          jvms_writer_set_int (w, j->a_user, s, JVMS_USER_STATE_SAFEPOINT);
          set_detail (self, j, s, stop->detail);
          jvms_writer_set_int (w, j->a_user, e, JVMS_USER_STATE_RUNNING);
          jvms_writer_set_null (w, j->a_detail, e);
          j->cursor = e;
        }
      if (stop->end > upto)
        break;
      j->stop_idx++;
    }
}

static void
add_stop (JvmsJfrMachine *self, gint64 start, gint64 end, const char *detail)
{
  Stop stop = { .start = start, .end = MAX (start, end), .detail = intern (self, detail) };
  g_array_append_val (self->stops, stop);
  /* Windows arrive in start order but for the one extended back to its SafepointBegin. */
  for (guint i = self->stops->len - 1; i > 0; i--)
    {
      Stop *a = &g_array_index (self->stops, Stop, i - 1), *b = a + 1;
      if (a->start <= b->start)
        break;
      Stop tmp = *a;
      *a = *b;
      *b = tmp;
    }
}

/* A whole safepoint (jvms-jfr-safepoints.h): VM/safepoint and its phases, and the window in which
 * the Java threads that run are stopped, from the arm to the end, named by its operation. */
static void
safepoint_done (const JvmsSafepoint *sp, gpointer user_data)
{
  JvmsJfrMachine *self = user_data;
  JvmsValue v = JVMS_VALUE_INIT_INT (sp->id);
  jvms_nest_push (self->vm_safepoint, sp->start, sp->end, &v);
  for (guint i = 0; i < sp->n_phases; i++)
    {
      JvmsValue phase = JVMS_VALUE_INIT_STRING (sp->phases[i].name);
      jvms_nest_push (self->vm_safepoint_phase, sp->phases[i].start, sp->phases[i].end, &phase);
    }
  self->safepoint_last = MAX (self->safepoint_last, sp->start);
  add_stop (self, sp->stop_start, sp->end, sp->operation);
}

/* ------------------------------------------------------------------------------------------ */
/* Ends of blocking intervals, in a min-heap by time */

static void
defer_end (JvmsJfrMachine *self, JThread *j)
{
  PendingEnd e = { j->pending_end, j };
  heap_push (self->ends, &e);
}

static void
write_end (JvmsJfrMachine *self, JThread *j)
{
  JvmsWriter *w = self->writer;
  gint64 end = j->pending_end;
  j->pending_end = G_MININT64;
  j->pending_native = FALSE;
  if (j->alive)
    jvms_writer_set_int (w, j->a_user, end, JVMS_USER_STATE_RUNNING);
  else
    jvms_writer_set_null (w, j->a_user, end);
  jvms_writer_set_null (w, j->a_detail, end);
  jvms_writer_set_null (w, j->a_monitor, end);
  jvms_writer_set_null (w, j->a_owner, end);
}

/* Writes every pending end reached by @time. */
static void
flush_ends (JvmsJfrMachine *self, gint64 time)
{
  while (self->ends->len > 0 && g_array_index (self->ends, PendingEnd, 0).end <= time)
    {
      PendingEnd e;
      heap_pop (self->ends, &e);
      /* A stale entry: the interval was extended by a nested event since. */
      if (e.thread->pending_end == e.end)
        write_end (self, e.thread);
    }
}

void
jvms_jfr_machine_advance (JvmsJfrMachine *self, gint64 time)
{
  flush_ends (self, time);
  flush_ramps (self, time);
}

/* NATIVE from native method samples: a running thread found in native code at @t is NATIVE from
 * @t until a sample finds it in Java, a blocking event begins, or two sampling periods pass. */
static void
native_window (JvmsJfrMachine *self, JThread *j, gint64 t, gboolean in_native)
{
  JvmsWriter *w = self->writer;
  if (!in_native)
    {
      if (j->pending_native && j->pending_end > t)
        {
          j->pending_end = t;
          write_end (self, j);
          j->cursor = t;
        }
      return;
    }
  if (!j->alive || (!j->pending_native && (j->pending_end > t || j->cursor > t)))
    return;
  if (!j->pending_native)
    {
      fill_gap (self, j, t);
      if (jvms_writer_last_time (w, j->a_user) > t)
        return;
      jvms_writer_set_int (w, j->a_user, t, JVMS_USER_STATE_NATIVE);
      jvms_writer_set_null (w, j->a_detail, t);
    }
  j->pending_native = TRUE;
  j->pending_end = MAX (j->pending_end, t + METHOD_HOLD_NS);
  j->cursor = MAX (j->cursor, j->pending_end);
  defer_end (self, j);
}

static void
blocking (JvmsJfrMachine *self, JThread *j, gint64 start, gint64 end, JvmsUserState state,
          const char *detail, gboolean has_monitor, guint64 monitor, gint64 owner)
{
  ensure_running (self, j, self->recording_start);
  if (j->pending_native)
    {
      /* A blocking event ends what native samples suggested: its own start is exact. */
      j->pending_end = G_MININT64;
      j->pending_native = FALSE;
      j->cursor = MIN (j->cursor, start);
    }
  fill_gap (self, j, start);
  JvmsWriter *w = self->writer;
  jvms_writer_set_int (w, j->a_user, start, state);
  set_detail (self, j, start, detail);
  if (has_monitor)
    jvms_writer_set_int (w, lazy_child (self, &j->a_monitor, j->a_user, "monitor"), start,
                         (gint64) monitor);
  else
    jvms_writer_set_null (w, j->a_monitor, start);
  /* 0: no owner known; a virtual thread's tid is negative (jvms-thread-list.h). */
  if (owner != 0)
    jvms_writer_set_int (w, lazy_child (self, &j->a_owner, j->a_user, "owner"), start, owner);
  else
    jvms_writer_set_null (w, j->a_owner, start);

  /* The end lies ahead of the stream: it is written when the stream gets there, so that the
   * history receives intervals in about the order they end (a state history tree places a
   * node's start at the latest end it has seen; ends far ahead would push every later interval
   * into the upper levels). An event nested in an earlier one of the same thread extends it. */
  end = MAX (end, start);
  j->pending_end = MAX (j->pending_end, end);
  defer_end (self, j);
  j->cursor = MAX (j->cursor, j->pending_end);
}

/* ------------------------------------------------------------------------------------------ */
/* Locks */

static gint
compare_entry_end (gconstpointer a, gconstpointer b)
{
  gint64 x = ((const LockEntry *) a)->end, y = ((const LockEntry *) b)->end;
  return x < y ? -1 : x > y;
}

/* The holder while threads wait: the previousOwner of the entry that ends first (it holds the
 * monitor until it hands it to that entry's thread); null when nobody waits or JFR names none. */
static void
lock_show_owner (JvmsJfrMachine *self, Lock *l, gint64 time)
{
  gint64 owner = l->ends->len > 0 ? g_array_index (l->ends, LockEntry, 0).owner : 0;
  if (owner != 0)
    jvms_writer_set_int (self->writer, l->a_owner, time, owner);
  else
    jvms_writer_set_null (self->writer, l->a_owner, time);
}

static void
lock_advance (JvmsJfrMachine *self, Lock *l, gint64 time)
{
  while (l->ends->len > 0)
    {
      gint64 end = g_array_index (l->ends, LockEntry, 0).end;
      if (end > time)
        break;
      g_array_remove_index (l->ends, 0);
      l->waiters--;
      jvms_writer_set_int (self->writer, l->a_waiters, end, l->waiters);
      if (l->waiters == 0)
        jvms_writer_set_null (self->writer, l->a_waiters, end);
      lock_show_owner (self, l, end);
    }
}

static void
lock_enter (JvmsJfrMachine *self, guint64 address, const char *klass, gint64 owner, gint64 start,
            gint64 end)
{
  Lock *l = g_hash_table_lookup (self->locks, &address);
  if (l == NULL)
    {
      l = g_new0 (Lock, 1);
      l->ends = g_array_new (FALSE, FALSE, sizeof (LockEntry));
      char key[32];
      g_snprintf (key, sizeof key, "0x%" G_GINT64_MODIFIER "x", address);
      JvmsAttribute folder = jvms_writer_attribute (self->writer, "Locks/%s", key);
      l->a_class = jvms_writer_child (self->writer, folder, "class");
      l->a_owner = jvms_writer_child (self->writer, folder, "owner");
      l->a_waiters = jvms_writer_child (self->writer, folder, "waiters");
      g_hash_table_insert (self->locks, g_memdup2 (&address, sizeof address), l);
    }
  lock_advance (self, l, start);
  l->waiters++;
  jvms_writer_set_int (self->writer, l->a_waiters, start, l->waiters);
  jvms_writer_set_string (self->writer, l->a_class, start, klass);
  /* Bounded by the threads that can wait at once; a hostile file cannot grow it past that
   * without also growing the thread table. */
  if (l->ends->len < 65536)
    {
      LockEntry e = { MAX (end, start), owner };
      g_array_append_val (l->ends, e);
      g_array_sort (l->ends, compare_entry_end);
    }
  lock_show_owner (self, l, start);
}

/* ------------------------------------------------------------------------------------------ */
/* Samples */

static void
method_string (char *buf, gsize size, const JvmsJfrFrame *f)
{
  g_snprintf (buf, size, "%s.%s", f->class_name != NULL ? f->class_name : "?",
              f->method_name != NULL ? f->method_name : "?");
}

static guint
sample_frames (const JvmsJfrStackTrace *st, JvmsSampleFrame *frames, GStringChunk *chunk)
{
  if (st == NULL)
    return 0;
  guint n = MIN (st->n_frames, JVMS_SAMPLES_MAX_FRAMES);
  for (guint i = 0; i < n; i++)
    {
      char buf[512];
      method_string (buf, sizeof buf, &st->frames[i]);
      frames[i].method = g_string_chunk_insert_const (chunk, buf);
      frames[i].line = st->frames[i].line_number;
    }
  return n;
}

typedef struct
{
  guint           n;
  JvmsSampleFrame frames[];
} CachedStack;

#define STACK_CACHE_MAX 65536

/* Samples share stack traces (a constant pool entry per chunk): their frames are resolved to
 * interned strings once per (chunk, key). The cache is dropped whole when full, which bounds
 * it whatever the number of distinct stacks. */
static const JvmsSampleFrame *
resolve_stack (JvmsJfrMachine *self, const JvmsJfrEvent *ev, const JvmsJfrStackTrace *st,
               guint *n_frames)
{
  *n_frames = 0;
  if (st == NULL)
    return NULL;
  guint chunk = jvms_jfr_event_get_chunk (ev)->index;
  gboolean cacheable = st->key < (G_GUINT64_CONSTANT (1) << 44) && chunk < (1u << 20);
  guint64 key = ((guint64) chunk << 44) | st->key;
  CachedStack *c = cacheable ? g_hash_table_lookup (self->stacks, &key) : NULL;
  if (c == NULL)
    {
      guint n = MIN (st->n_frames, JVMS_SAMPLES_MAX_FRAMES);
      c = g_malloc (sizeof (CachedStack) + n * sizeof (JvmsSampleFrame));
      c->n = n;
      sample_frames (st, c->frames, self->strings);
      if (!cacheable)
        {
          /* Kept until the next uncacheable stack. */
          g_free (self->uncached);
          self->uncached = c;
        }
      else
        {
          if (g_hash_table_size (self->stacks) >= STACK_CACHE_MAX)
            g_hash_table_remove_all (self->stacks);
          g_hash_table_insert (self->stacks, g_memdup2 (&key, sizeof key), c);
        }
    }
  *n_frames = c->n;
  return c->frames;
}

static void
show_method (JvmsJfrMachine *self, JThread *j, gint64 t, const JvmsSampleFrame *frames, guint n_frames)
{
  JvmsWriter *w = self->writer;
  if (j->method_expiry != G_MININT64 && j->method_expiry < t)
    jvms_writer_set_null (w, j->a_method, j->method_expiry);
  if (n_frames == 0)
    {
      j->method_expiry = G_MININT64;
      jvms_writer_set_null (w, j->a_method, t);
      return;
    }
  jvms_writer_set_string (w, lazy_child (self, &j->a_method, j->thread->folder, "method"), t,
                          frames[0].method);
  j->method_expiry = t + METHOD_HOLD_NS;
}

static void
alloc_flush (JvmsJfrMachine *self, JThread *j)
{
  if (j->alloc_bucket == G_MININT64)
    return;
  gint64 at = j->alloc_bucket * ALLOC_BUCKET_NS;
  JvmsAttribute a_alloc = lazy_child (self, &j->a_alloc, j->thread->folder, "allocation-rate");
  jvms_writer_set_double (self->writer, a_alloc, at,
                          (double) j->alloc_bytes * 1e9 / (double) ALLOC_BUCKET_NS);
  jvms_writer_set_null (self->writer, j->a_alloc, at + ALLOC_BUCKET_NS);
}

static void
alloc_add (JvmsJfrMachine *self, JThread *j, gint64 t, guint64 bytes)
{
  gint64 bucket = t / ALLOC_BUCKET_NS;
  if (bucket != j->alloc_bucket)
    {
      alloc_flush (self, j);
      j->alloc_bucket = bucket;
      j->alloc_bytes = 0;
    }
  j->alloc_bytes += bytes;
}

/* ------------------------------------------------------------------------------------------ */

static const char *
class_of (const JvmsJfrEvent *ev, const JvmsJfrField *f)
{
  const char *s = NULL;
  if (f == NULL || !jvms_jfr_event_get_class_name (ev, f, &s))
    return NULL;
  return s;
}

static const char *
string_of (const JvmsJfrEvent *ev, const JvmsJfrField *f)
{
  const char *s = NULL;
  if (f == NULL || !jvms_jfr_event_get_string (ev, f, &s))
    return NULL;
  return s;
}

static gint64
int_of (const JvmsJfrEvent *ev, const JvmsJfrField *f, gint64 fallback)
{
  gint64 v;
  if (f == NULL || !jvms_jfr_event_get_int64 (ev, f, &v))
    return fallback;
  return v;
}

static JThread *
event_thread (JvmsJfrMachine *self, const JvmsJfrEvent *ev, TypeInfo *ti, gint64 t)
{
  const JvmsJfrThread *jt = NULL;
  if (ti->thread != NULL)
    jvms_jfr_event_get_thread_field (ev, ti->thread, &jt);
  return jthread_get (self, jt, t);
}

static void
on_sample (JvmsJfrMachine *self, const JvmsJfrEvent *ev, JThread *j, gint64 t)
{
  guint n_frames;
  const JvmsSampleFrame *frames = resolve_stack (self, ev, jvms_jfr_event_get_stack_trace (ev), &n_frames);
  show_method (self, j, t, frames, n_frames);
}

static gint64
virtual_space_committed (const JvmsJfrEvent *ev, const JvmsJfrField *f, const char *name)
{
  JvmsJfrValue v;
  if (f == NULL || !jvms_jfr_event_get_value (ev, f, &v) || v.kind != JVMS_JFR_VALUE_OBJECT)
    return -1;
  const JvmsJfrField *sub = jvms_jfr_type_find_field (v.object.type, name);
  gint64 out;
  if (sub == NULL || !jvms_jfr_object_get_int64 (&v.object, sub, &out))
    return -1;
  return out;
}

/* The kind of an execution or wall-clock sample of a recording without thread states
 * (docs/writers.md): its sampler's (jvms_jfr_recording_sampler_of), and for a wall-clock sample
 * the state it carries. */
static JvmsSampled
sample_kind (JvmsJfrMachine *self, const JvmsJfrEvent *ev, const TypeInfo *ti)
{
  if (ti->handler == H_NATIVE_SAMPLE)
    return JVMS_SAMPLED_NATIVE;
  if (ti->off_cpu)
    return JVMS_SAMPLED_OFF_CPU;
  const char *state = string_of (ev, ti->state);
  if (jvms_jfr_recording_sampler_of (self->recording, jvms_jfr_event_get_type_name (ev), state) == JVMS_SAMPLER_CPU)
    return JVMS_SAMPLED_CPU;
  const JvmsJfrStackTrace *st = jvms_jfr_event_get_stack_trace (ev);
  return jvms_jfr_recording_classify (self->recording->writer, state, st != NULL ? st->frames : NULL,
                                      st != NULL ? st->n_frames : 0);
}

/* How many samples one event stands for, and how far apart they were taken. */
static guint64
sample_count (const JvmsJfrEvent *ev, const TypeInfo *ti, gint64 duration, gint64 interval,
              gint64 *spacing)
{
  guint64 n = jvms_jfr_recording_batch_size (ev, ti->count);
  /* A batch with a duration spans it; one without, the sampler's interval each. */
  *spacing = duration > 0 && n > 1 ? duration / (gint64) (n - 1) : interval;
  return n;
}

/* The events of a recording without thread states (jvms_jfr_machine_set_recording): samples
 * and marks are counted, no state is inferred between them. FALSE for what the usual handling
 * takes (GC, load, identity ...), allocation samples included (the allocation rate is real). */
static gboolean
feed_sampled (JvmsJfrMachine *self, const JvmsJfrEvent *ev, TypeInfo *ti, JThread *j, gint64 start,
              gint64 end)
{
  switch (ti->handler)
    {
    case H_THREAD_START:
      if (j != NULL)
        ensure_not_recorded (self, j, start);
      return TRUE;
    case H_THREAD_END:
      if (j != NULL)
        {
          ensure_not_recorded (self, j, self->recording_start);
          j->alive = FALSE;
          jvms_writer_set_null (self->writer, j->a_user, start);
        }
      return TRUE;
    case H_MONITOR_ENTER:
    case H_MONITOR_WAIT:
    case H_PARK:
      /* A profiler's lock samples (async-profiler samples contended time): marks. */
      if (j != NULL)
        {
          ensure_not_recorded (self, j, self->recording_start);
          count_one (self, j, start, JVMS_SAMPLED_LOCK);
          guint64 address = 0;
          if (ti->handler == H_MONITOR_ENTER && ti->address != NULL
              && jvms_jfr_event_get_uint64 (ev, ti->address, &address))
            lock_enter (self, address, intern (self, class_of (ev, ti->klass)), 0, start, end);
        }
      return TRUE;
    case H_SLEEP:
    case H_SOCKET:
    case H_FILE:
      return TRUE;
    case H_EXECUTION_SAMPLE:
    case H_NATIVE_SAMPLE:
    case H_WALL_SAMPLE:
      /* Execution samples beside CPU-time samples: the same running threads, not counted twice. */
      if (ti->handler == H_EXECUTION_SAMPLE
          && jvms_jfr_recording_sampler_of (self->recording, jvms_jfr_event_get_type_name (ev), NULL) == JVMS_SAMPLER_EXECUTION)
        return TRUE;
      if (j != NULL)
        {
          ensure_not_recorded (self, j, self->recording_start);
          JvmsSampled k = sample_kind (self, ev, ti);
          gint64 spacing;
          guint64 n = sample_count (ev, ti, end - start, jvms_recording_info_interval (self->recording, k),
                                    &spacing);
          count_samples (self, j, start, k, n, spacing);
          if (k == JVMS_SAMPLED_CPU)
            on_sample (self, ev, j, start);
        }
      return TRUE;
    case H_ALLOC_SAMPLE:
    case H_ALLOC_TLAB:
      if (j != NULL)
        {
          ensure_not_recorded (self, j, self->recording_start);
          count_one (self, j, start, JVMS_SAMPLED_ALLOC);
        }
      return FALSE;
    case H_ALLOC_MARK:
    case H_EXCEPTION_MARK:
      if (j != NULL)
        {
          ensure_not_recorded (self, j, self->recording_start);
          count_one (self, j, start, ti->handler == H_ALLOC_MARK ? JVMS_SAMPLED_ALLOC : JVMS_SAMPLED_EXCEPTION);
        }
      return TRUE;
    default:
      return FALSE;
    }
}

/* jdk.CPULoad: the JVM's user and system CPU and the machine's, each a fraction of all CPUs,
 * measured since the previous one: the values hold from there to this event. */
static void
on_cpu_load (JvmsJfrMachine *self, const JvmsJfrEvent *ev, const TypeInfo *ti, gint64 t)
{
  static const char * const names[3] = { "Load/jvm-user", "Load/jvm-system", "Load/machine-total" };
  for (guint i = 0; i < 3; i++)
    {
      double v;
      if (ti->load[i] == NULL || !jvms_jfr_event_get_double (ev, ti->load[i], &v) || !(v >= 0) || v > 1e6)
        continue;
      if (self->a_load[i] == JVMS_ATTRIBUTE_INVALID)
        self->a_load[i] = jvms_writer_attribute (self->writer, "%s", names[i]);
      jvms_writer_set_double (self->writer, self->a_load[i], MIN (self->load_since, t), v);
      jvms_writer_set_null (self->writer, self->a_load[i], t);
    }
  self->load_since = t;
}

/* profiler.Log: what the profiler warned of (missing kernel symbols, a failed attach) is a note
 * on the recording; its debug and info lines are not. */
static void
on_profiler_log (JvmsJfrMachine *self, const JvmsJfrEvent *ev, const TypeInfo *ti)
{
  const char *level = string_of (ev, ti->name2), *message = string_of (ev, ti->name);
  if (message == NULL || level == NULL || (strcmp (level, "WARN") != 0 && strcmp (level, "ERROR") != 0))
    return;
  if (self->log_notes->len >= MAX_LOG_NOTES)
    {
      self->n_log_dropped++;
      return;
    }
  g_autofree char *text = g_strdup_printf ("the profiler logged [%s] %s", level, message);
  g_strdelimit (text, "\n\r\t", ' ');
  g_ptr_array_add (self->log_notes, g_steal_pointer (&text));
}

void
jvms_jfr_machine_feed (JvmsJfrMachine *self, const JvmsJfrEvent *ev)
{
  /* Every event with a stack trace is a sample, whatever else it means. */
  if (self->samples != NULL)
    jvms_jfr_samples_feed (self->samples, ev);
  TypeInfo *ti = type_info (self, jvms_jfr_event_get_type (ev));
  if (ti->handler == H_IGNORE)
    return;
  JvmsWriter *w = self->writer;
  gint64 start = jvms_jfr_event_get_start_ns (ev);
  gint64 end = jvms_jfr_event_get_end_ns (ev);
  gint64 wstart = jvms_writer_get_start (w);
  if (start < wstart)
    start = wstart;
  if (end < start)
    end = start;
  flush_ends (self, start);
  jvms_safepoints_advance (self->safepoints, start);
  flush_ramps (self, start);

  JThread *j = event_thread (self, ev, ti, start);
  if (self->sampled && feed_sampled (self, ev, ti, j, start, end))
    return;

  switch (ti->handler)
    {
    case H_THREAD_START:
      if (j != NULL && j->thread->java_id > 0 && !j->running_set)
        ensure_running (self, j, start);
      break;
    case H_THREAD_END:
      if (j != NULL)
        {
          ensure_running (self, j, self->recording_start);
          fill_gap (self, j, start);
          j->alive = FALSE;
          jvms_writer_set_null (w, j->a_user, start);
        }
      break;
    case H_MONITOR_ENTER:
    case H_MONITOR_WAIT:
      if (j != NULL)
        {
          const char *klass = intern (self, class_of (ev, ti->klass));
          guint64 address = 0;
          gboolean has_address = ti->address != NULL && jvms_jfr_event_get_uint64 (ev, ti->address, &address);
          gint64 owner = 0;
          if (ti->handler == H_MONITOR_ENTER && ti->owner != NULL)
            {
              const JvmsJfrThread *o = NULL;
              if (jvms_jfr_event_get_thread_field (ev, ti->owner, &o) && o != NULL)
                owner = jvms_threads_tid_of_jfr (o);
            }
          blocking (self, j, start, end,
                    ti->handler == H_MONITOR_ENTER ? JVMS_USER_STATE_BLOCKED : JVMS_USER_STATE_WAITING,
                    klass, has_address, address, owner);
          if (ti->handler == H_MONITOR_ENTER && has_address)
            lock_enter (self, address, klass, owner, start, end);
        }
      break;
    case H_PARK:
      if (j != NULL)
        blocking (self, j, start, end, JVMS_USER_STATE_PARKED, class_of (ev, ti->klass), FALSE, 0, 0);
      break;
    case H_SLEEP:
      if (j != NULL)
        blocking (self, j, start, end, JVMS_USER_STATE_SLEEPING, NULL, FALSE, 0, 0);
      break;
    case H_SOCKET:
      if (j != NULL)
        {
          const char *host = string_of (ev, ti->name);
          if (host == NULL || host[0] == '\0')
            host = string_of (ev, ti->name2);
          g_autofree char *detail = g_strdup_printf ("%s:%" G_GINT64_FORMAT, host != NULL ? host : "?",
                                                     int_of (ev, ti->port, 0));
          blocking (self, j, start, end, JVMS_USER_STATE_SOCKET_IO, detail, FALSE, 0, 0);
        }
      break;
    case H_FILE:
      if (j != NULL)
        blocking (self, j, start, end, JVMS_USER_STATE_FILE_IO, string_of (ev, ti->name), FALSE, 0, 0);
      break;
    case H_GC:
      {
        JvmsValue v[3] = {
          JVMS_VALUE_INIT_INT (int_of (ev, ti->id, -1)),
          JVMS_VALUE_INIT_STRING (string_of (ev, ti->name)),
          JVMS_VALUE_INIT_STRING (string_of (ev, ti->name2)),
        };
        jvms_nest_push (self->gc_collection, start, end, v);
      }
      break;
    case H_GC_PAUSE:
      {
        JvmsValue v = JVMS_VALUE_INIT_STRING (string_of (ev, ti->name));
        jvms_nest_push (self->gc_pause, start, end, &v);
        jvms_nest_push (self->gc_phase[0], start, end, &v);
      }
      break;
    case H_GC_PHASE:
      {
        JvmsValue v = JVMS_VALUE_INIT_STRING (string_of (ev, ti->name));
        jvms_nest_push (self->gc_phase[CLAMP (ti->level, 0, 4)], start, end, &v);
      }
      break;
    case H_GC_CONCURRENT:
      {
        JvmsValue v = JVMS_VALUE_INIT_STRING (string_of (ev, ti->name));
        jvms_nest_push (self->gc_concurrent, start, end, &v);
      }
      break;
    case H_GC_PARALLEL:
      if (j != NULL)
        {
          if (j->gc_task == NULL)
            {
              g_autofree char *key = jvms_thread_key (j->thread->tid);
              g_autofree char *path = g_strdup_printf ("GC/workers/%s/task", key);
              j->gc_task = nest_for (w, path, NULL, NULL);
            }
          JvmsValue v = JVMS_VALUE_INIT_STRING (string_of (ev, ti->name));
          jvms_nest_push (j->gc_task, start, end, &v);
        }
      break;
    case H_HEAP:
      {
        gint64 used = int_of (ev, ti->size, -1);
        if (used >= 0)
          jvms_writer_set_int (w, self->a_heap_used, start, used);
        gint64 committed = virtual_space_committed (ev, ti->size2, "committedSize");
        if (committed >= 0)
          jvms_writer_set_int (w, self->a_heap_committed, start, committed);
      }
      break;
    case H_METASPACE:
      {
        gint64 used = virtual_space_committed (ev, ti->size2, "used");
        if (used >= 0)
          jvms_writer_set_int (w, self->a_metaspace, start, used);
      }
      break;
    case H_COMPILATION:
      if (j != NULL)
        {
          if (j->compilation == NULL)
            {
              g_autofree char *key = jvms_thread_key (j->thread->tid);
              g_autofree char *p0 = g_strdup_printf ("JIT/%s/compilation", key);
              g_autofree char *p1 = g_strdup_printf ("JIT/%s/compilation/tier", key);
              g_autofree char *p2 = g_strdup_printf ("JIT/%s/compilation/size", key);
              j->compilation = nest_for (w, p0, p1, p2);
            }
          const char *cls = NULL, *mname = NULL, *desc = NULL;
          g_autofree char *method = NULL;
          JvmsJfrObject obj;
          jvms_jfr_event_get_object (ev, &obj);
          if (ti->method != NULL && jvms_jfr_object_get_method (&obj, ti->method, &cls, &mname, &desc))
            method = g_strdup_printf ("%s.%s", cls != NULL ? cls : "?", mname != NULL ? mname : "?");
          JvmsValue v[3] = {
            JVMS_VALUE_INIT_STRING (method),
            JVMS_VALUE_INIT_INT (int_of (ev, ti->size2, -1)),
            JVMS_VALUE_INIT_INT (int_of (ev, ti->size, -1)),
          };
          jvms_nest_push (j->compilation, start, end, v);
        }
      break;
    case H_VM_OPERATION:
      {
        gboolean at_safepoint = FALSE;
        if (ti->flag != NULL)
          jvms_jfr_event_get_boolean (ev, ti->flag, &at_safepoint);
        const char *op = string_of (ev, ti->name);
        JvmsValue v[2] = { JVMS_VALUE_INIT_STRING (op), JVMS_VALUE_INIT_INT (at_safepoint ? 1 : 0) };
        jvms_nest_push (self->vm_operation, start, end, v);
        if (at_safepoint)
          jvms_safepoints_operation (self->safepoints, int_of (ev, ti->id, 0), start, end, op);
      }
      break;
    case H_SAFEPOINT_BEGIN:
      jvms_safepoints_begin (self->safepoints, int_of (ev, ti->id, 0), start, end);
      break;
    case H_SAFEPOINT_SYNC:
      jvms_safepoints_sync (self->safepoints, int_of (ev, ti->id, 0), start, end);
      break;
    case H_SAFEPOINT_END:
      jvms_safepoints_end (self->safepoints, int_of (ev, ti->id, 0), start, end);
      break;
    case H_EXECUTION_SAMPLE:
    case H_NATIVE_SAMPLE:
      if (j != NULL)
        {
          ensure_running (self, j, self->recording_start);
          native_window (self, j, start, ti->handler == H_NATIVE_SAMPLE);
          on_sample (self, ev, j, start);
        }
      break;
    case H_ALLOC_SAMPLE:
      self->have_alloc_samples = TRUE;
      if (j != NULL)
        {
          alloc_add (self, j, start, (guint64) MAX (0, int_of (ev, ti->size, 0)));
        }
      break;
    case H_ALLOC_TLAB:
      if (j != NULL && !self->have_alloc_samples)
        {
          gint64 bytes = int_of (ev, ti->size2, -1);
          if (bytes < 0)
            bytes = int_of (ev, ti->size, 0);
          alloc_add (self, j, start, (guint64) MAX (0, bytes));
        }
      break;
    case H_JVM_INFO:
      {
        gint64 pid = int_of (ev, ti->id, -1);
        if (pid > 0 && self->pid != pid)
          {
            self->pid = pid;
            jvms_threads_set_subject (self->threads, (gint32) pid, JVMS_SUBJECT_JFR);
          }
      }
      break;
    case H_CPU_LOAD:
      on_cpu_load (self, ev, ti, start);
      break;
    case H_PROFILER_LOG:
      on_profiler_log (self, ev, ti);
      break;
    case H_PROFILER_WINDOW:
      {
        /* Outside its windows the profiler took no sample. */
        if (self->window == NULL)
          self->window = nest_for (w, "Profiler/window", NULL, NULL);
        JvmsValue v = JVMS_VALUE_INIT_INT (1);
        jvms_nest_push (self->window, start, MAX (end, start + 1), &v);
      }
      break;
    case H_ENDPOINT:
      if (j != NULL)
        {
          if (j->endpoint == NULL)
            {
              g_autofree char *key = jvms_thread_key (j->thread->tid);
              g_autofree char *path = g_strdup_printf ("Threads/%s/endpoint", key);
              j->endpoint = nest_for (w, path, NULL, NULL);
            }
          const char *endpoint = string_of (ev, ti->name);
          if (endpoint == NULL || endpoint[0] == '\0')
            endpoint = string_of (ev, ti->name2);
          JvmsValue v = JVMS_VALUE_INIT_STRING (endpoint != NULL ? endpoint : "?");
          jvms_nest_push (j->endpoint, start, end, &v);
        }
      break;
    case H_WALL_SAMPLE:
    case H_ALLOC_MARK:
    case H_EXCEPTION_MARK:
      /* With thread states recorded, samples are marks on them (the sample store has them). */
    case H_IGNORE:
    default:
      break;
    }
}

/* A safepoint that began but whose operation and end never came: the one JFR takes to stop the
 * recording is written at its very end, without the rest. The world was stopped at least while
 * the SafepointBegin event lasted (reaching the safepoint): shown for that long, so that every
 * safepoint JFR counts is in the index. One older than a safepoint already shown cannot be
 * placed in time order any more (events were lost): left out. */
static void
safepoint_unfinished (const JvmsSafepoint *sp, gpointer user_data)
{
  JvmsJfrMachine *self = user_data;
  gint64 end = MIN (MAX (sp->end, sp->start + 1), self->finish_time);
  if (sp->start < self->safepoint_last || sp->start >= self->finish_time)
    return;
  JvmsValue v = JVMS_VALUE_INIT_INT (sp->id);
  jvms_nest_push (self->vm_safepoint, sp->start, end, &v);
  self->safepoint_last = sp->start;
}

void
jvms_jfr_machine_finish (JvmsJfrMachine *self, gint64 end_time)
{
  flush_ends (self, G_MAXINT64);
  flush_ramps (self, G_MAXINT64);
  if (self->samples != NULL)
    jvms_jfr_samples_finish (self->samples);
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, self->jthreads);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      JThread *j = value;
      if (j->alive)
        fill_gap (self, j, end_time);
      if (j->method_expiry != G_MININT64 && j->method_expiry < end_time)
        jvms_writer_set_null (self->writer, j->a_method, j->method_expiry);
      alloc_flush (self, j);
      if (j->gc_task != NULL)
        jvms_nest_finish (j->gc_task);
      if (j->compilation != NULL)
        jvms_nest_finish (j->compilation);
      if (j->endpoint != NULL)
        jvms_nest_finish (j->endpoint);
    }
  g_hash_table_iter_init (&iter, self->locks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    lock_advance (self, value, G_MAXINT64);
  jvms_nest_finish (self->gc_collection);
  jvms_nest_finish (self->gc_pause);
  for (int i = 0; i < 5; i++)
    jvms_nest_finish (self->gc_phase[i]);
  jvms_nest_finish (self->gc_concurrent);
  jvms_nest_finish (self->vm_operation);
  self->finish_time = end_time;
  jvms_safepoints_finish (self->safepoints, safepoint_unfinished, self);
  jvms_nest_finish (self->vm_safepoint);
  jvms_nest_finish (self->vm_safepoint_phase);
  if (self->window != NULL)
    jvms_nest_finish (self->window);
}
