/* jvms-jfr-samples.c: JFR events into the sample store. */
#include "jvms-jfr-samples.h"

#include <string.h>

#include "jvms-jfr-recording.h"
#include "jvms-threads.h"
#include "jvms-samples-private.h"

#define NS_PER_MS G_GINT64_CONSTANT (1000000)
/* The sampling period when the recording does not say: jdk.ExecutionSample's in the JDK's
 * default.jfc (docs/profile.md). */
#define DEFAULT_PERIOD_NS (20 * NS_PER_MS)
/* Distinct stacks (and methods) remembered per chunk; past it the cache starts again. A stack
 * missed costs its frames' interning again, not a wrong answer. */
#define CACHE_MAX         (1u << 20)
/* Slots of the direct-mapped cache of stacks by key (a power of two) */
#define KEY_SLOTS         (1u << 14)
/* Slots of the direct-mapped cache of frames */
#define FRAME_BITS        12
#define FRAME_SLOTS       (1u << FRAME_BITS)

/* A stack as its chunk's key names it */
typedef struct
{
  guint64 key;
  guint32 chunk;
  guint32 stack;  /* NONE: empty */
} KeySlot;

/* A thread as its chunk's key names it: its store id (NONE: empty) and tid */
typedef struct
{
  guint64 key;
  guint   chunk;
  guint32 thread;
  gint64  tid;
} ThreadSlot;

/* Slots of the direct-mapped cache of threads (a power of two) */
#define THREAD_SLOTS      256u

/* A frame of a stack trace as the reader gives it (its strings belong to its chunk, and equal
 * types have equal addresses there), and its store frame. */
typedef struct
{
  const char *class_name, *method_name, *type;
  gint32      line;
  guint32     frame;   /* NONE: empty slot */
} FrameSlot;

typedef enum
{
  RULE_ONE,              /* weight 1 */
  RULE_DURATION,         /* the event's duration */
  RULE_PERIOD,           /* the type's sampling period (jdk.ActiveSetting) */
  RULE_SAMPLING_PERIOD,  /* the event's samplingPeriod field, else the type's period */
  RULE_FIELD,            /* a field in bytes (weight_field, else weight_field2) */
} Rule;

typedef enum
{
  SPECIAL_NONE,
  SPECIAL_SETTING,       /* jdk.ActiveSetting */
  SPECIAL_COMPILATION,   /* jdk.Compilation */
  SPECIAL_TIMING,        /* jdk.MethodTiming */
} Special;

typedef struct
{
  Special             special;
  gboolean            sample;         /* the type has a stack trace field */
  const char         *type_name;
  JvmsSampleUnit      unit;
  guint32             store_type;     /* interned at its first sample */
  Rule                rule;
  gint64              period;         /* RULE_PERIOD without a jdk.ActiveSetting period (below) */
  guint64             type_id;        /* the JFR type id, what jdk.ActiveSetting names */
  JvmsSampleTypeFlags flags;
  const JvmsJfrField *thread;
  const JvmsJfrField *weight_field;
  const JvmsJfrField *weight_field2;
  const JvmsJfrField *detail_string;  /* state */
  const JvmsJfrField *detail_class;   /* objectClass, monitorClass, parkedClass */
  /* A type of the recording's samplers (jvms_jfr_recording_sampler_of) */
  gboolean            sampler;
  const JvmsJfrField *state;
  const JvmsJfrField *batch;          /* the samples one event stands for */
  int                 may_be_wall;    /* -1 not known yet, else whether any state makes an
                                       * event of this type a wall-clock sample */
  guint32             wall_store_type;  /* its wall-clock samples' type, interned at the first */
  const JvmsJfrField *object;         /* jdk.OldObjectSample */
  const JvmsJfrField *allocation_time;
  const JvmsJfrField *object_age;
  /* Fields whose pool key jvms_jfr_samples_stack_of_values takes from the event's values:
   * their index when the reader's jvms_jfr_event_get_stack_trace_key / _get_pool_key read one
   * (a constant-pool field, not an array), else -1. */
  gint                stack_index, thread_index, class_index;
  guint               n_fields;
  /* Settings, compilations, timings */
  const JvmsJfrField *id, *name, *value;
  const JvmsJfrField *method, *level, *succeeded, *osr;
  const JvmsJfrField *invocations, *minimum, *average, *maximum;
} TypeInfo;

struct _JvmsJfrSamples
{
  JvmsSamplesWriter *writer;
  GHashTable        *types;    /* const JvmsJfrType* -> TypeInfo* */
  GHashTable        *periods;  /* JFR type id (guint64*) -> period ns (gint64*) */
  /* Stacks by key, behind the cache of key_slots (below): the keys of the two chunks met last
   * (the stream reaches a chunk's last events beside the next one's first ones) each in a map of
   * its own, (key, 0) -> stack id; a map of all chunks' keys grew to 925,528 entries (48 MB) on
   * the bench's 1 GB recording, and a stack new to its chunk, looked up there twice, cost two
   * misses of cache and TLB. Older chunks (streams that interleave more) in `stacks`:
   * (key, chunk) -> stack id, as before. */
  JvmsSamplesIdMap   chunk_stacks[2];
  guint              stacks_chunk[2];   /* G_MAXUINT: none yet */
  JvmsSamplesIdMap   stacks;
  JvmsSamplesIdMap   methods;  /* (class name pointer, method name pointer | chunk << 48) -> method id:
                                * the reader's strings for a method constant live as long as its
                                * chunk and never move, and no two chunks share an index */
  const JvmsJfrType *last_type;  /* events of one type come in runs */
  TypeInfo          *last_info;
  GArray            *frame_ids;  /* guint32: the frames of the stack being interned */
  /* Store frames of the chunk's loading @frames_load (jvms_jfr_event_get_load) by the reader's
   * frame, direct-mapped: a program has far fewer distinct frames than its stacks hold, and a
   * frame new to the store costs two lookups (its method, then the frame) and the kind's name
   * compared. By loading, not by chunk: the reader loads a chunk again for its events out of
   * time order, and a slot of the loading freed before could match another frame's names at
   * the same addresses. */
  FrameSlot         *frame_slots;
  guint64            frames_load;
  /* Frame kinds by their type name's address in the loading @frames_load */
  const char        *kind_names[8];
  JvmsFrameKind      kind_of[8];
  /* Stacks by the low bits of their key, in front of the map: HotSpot numbers its stack traces
   * upwards, so the stacks a chunk uses sit in neighbouring slots, where the map's hash
   * scatters them (a cache miss an event on a large recording). */
  KeySlot           *key_slots;
  /* Threads of samples by the low bits of the key the event holds: samples of a few threads
   * interleave (a last-thread memo missed 93 % of them on the bench's 64 MB recording). */
  ThreadSlot        *thread_slots;
  /* The detail of the last sample's class (a store string id), by its chunk and key */
  gboolean           memo_class_known;
  guint64            memo_class_key;
  guint              memo_class_chunk;
  guint32            memo_class_detail;
  /* The stack of the last event asked for, by its place in the file */
  guint64            memo_offset;
  guint              memo_chunk;
  guint32            memo_stack;
  /* The thread's and class's pool keys of the event at (keys_offset, keys_chunk), taken from
   * its values by jvms_jfr_samples_stack_of_values for its sample (G_MAXUINT64: none) */
  guint64            keys_offset;
  guint              keys_chunk;
  gboolean           thread_keyed, class_keyed;
  guint64            thread_key, class_key;
  JvmsCpuStateFunc   cpu_state;
  gpointer           cpu_state_data;
  const JvmsRecordingInfo *recording;
  /* Batches of wall-clock samples whose later samples the stream has not reached yet: Pending
   * sorted by (next, seq), written as the stream passes each sample's time. */
  GSequence         *pending;
  guint64            pending_seq;
  gint64             pending_next;  /* the first one's time; G_MAXINT64 when none */
};

/* The rest of a batch: @remaining samples, the next at @next, then @spacing apart. */
typedef struct
{
  gint64           next;
  gint64           spacing;
  guint64          seq;        /* ties in time are written in the order the batches came */
  guint64          remaining;
  JvmsSampleRecord record;
} Pending;

static const struct
{
  const char         *name;
  Rule                rule;
  JvmsSampleUnit      unit;
  JvmsSampleTypeFlags flags;
  const char         *field, *field2;
} known[] = {
  { "jdk.ExecutionSample", RULE_PERIOD, JVMS_SAMPLE_UNIT_NS, JVMS_SAMPLE_TYPE_CPU | JVMS_SAMPLE_TYPE_SAMPLER, NULL, NULL },
  { "datadog.ExecutionSample", RULE_PERIOD, JVMS_SAMPLE_UNIT_NS, JVMS_SAMPLE_TYPE_CPU | JVMS_SAMPLE_TYPE_SAMPLER, NULL, NULL },
  { "jdk.CPUTimeSample", RULE_SAMPLING_PERIOD, JVMS_SAMPLE_UNIT_NS, JVMS_SAMPLE_TYPE_CPU | JVMS_SAMPLE_TYPE_SAMPLER, "samplingPeriod", NULL },
  { "jdk.NativeMethodSample", RULE_PERIOD, JVMS_SAMPLE_UNIT_NS, JVMS_SAMPLE_TYPE_SAMPLER, NULL, NULL },
  { "jdk.ObjectAllocationSample", RULE_FIELD, JVMS_SAMPLE_UNIT_BYTES, 0, "weight", NULL },
  { "jdk.ObjectAllocationInNewTLAB", RULE_FIELD, JVMS_SAMPLE_UNIT_BYTES, 0, "tlabSize", "allocationSize" },
  { "jdk.ObjectAllocationOutsideTLAB", RULE_FIELD, JVMS_SAMPLE_UNIT_BYTES, 0, "allocationSize", NULL },
};

JvmsJfrSamples *
jvms_jfr_samples_new (JvmsSamplesWriter *writer)
{
  JvmsJfrSamples *self = g_new0 (JvmsJfrSamples, 1);
  self->writer = writer;
  self->types = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->periods = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  jvms_samples_idmap_init (&self->stacks);
  for (guint i = 0; i < 2; i++)
    {
      jvms_samples_idmap_init (&self->chunk_stacks[i]);
      self->stacks_chunk[i] = G_MAXUINT;
    }
  jvms_samples_idmap_init (&self->methods);
  self->frame_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->frame_slots = g_new (FrameSlot, FRAME_SLOTS);
  self->frames_load = 0;
  self->memo_offset = G_MAXUINT64;
  self->keys_offset = G_MAXUINT64;
  self->thread_slots = g_new (ThreadSlot, THREAD_SLOTS);
  for (guint i = 0; i < THREAD_SLOTS; i++)
    self->thread_slots[i].thread = JVMS_SAMPLES_NONE;
  self->key_slots = g_new (KeySlot, KEY_SLOTS);
  for (guint i = 0; i < KEY_SLOTS; i++)
    self->key_slots[i].stack = JVMS_SAMPLES_NONE;
  self->pending = g_sequence_new (g_free);
  self->pending_next = G_MAXINT64;
  return self;
}

void
jvms_jfr_samples_free (JvmsJfrSamples *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->types);
  g_hash_table_unref (self->periods);
  jvms_samples_idmap_clear (&self->stacks);
  jvms_samples_idmap_clear (&self->chunk_stacks[0]);
  jvms_samples_idmap_clear (&self->chunk_stacks[1]);
  jvms_samples_idmap_clear (&self->methods);
  g_array_unref (self->frame_ids);
  g_free (self->frame_slots);
  g_free (self->thread_slots);
  g_free (self->key_slots);
  g_sequence_free (self->pending);
  g_free (self);
}

void
jvms_jfr_samples_set_cpu_state_func (JvmsJfrSamples *self, JvmsCpuStateFunc func, gpointer user_data)
{
  self->cpu_state = func;
  self->cpu_state_data = user_data;
}

void
jvms_jfr_samples_set_recording (JvmsJfrSamples *self, const JvmsRecordingInfo *recording)
{
  self->recording = recording;
}

gint64
jvms_jfr_samples_parse_period (const char *text)
{
  if (text == NULL)
    return -1;
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);
  if (end == text || !(v > 0) || v > 1e18)
    return -1;
  while (*end == ' ')
    end++;
  static const struct { const char *unit; double ns; } units[] = {
    { "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "µs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
    { "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 }, { "d", 86400e9 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (end, units[i].unit) == 0)
      {
        double ns = v * units[i].ns;
        return ns >= 1 && ns < 9e18 ? (gint64) ns : -1;
      }
  return -1;
}

/* The sampling period of type @name when no jdk.ActiveSetting says one: ddprof says its CPU
 * sampler's in its DatadogProfilerConfig (cpuInterval), which the recording's scan reads
 * (jvms-jfr-recording.c: its interval setting, else that); anything else 20 ms. */
static gint64
default_period (JvmsJfrSamples *self, const char *name)
{
  const JvmsSamplerInfo *cpu = self->recording != NULL ? &self->recording->samplers[JVMS_SAMPLER_CPU] : NULL;
  if (cpu != NULL && self->recording->writer == JVMS_WRITER_DD_TRACE && cpu->source == JVMS_INTERVAL_SETTING
      && cpu->ns > 0 && cpu->type != NULL && strcmp (name, "datadog.ExecutionSample") == 0
      && strcmp (cpu->type, name) == 0)
    return cpu->ns;
  return DEFAULT_PERIOD_NS;
}

/* The index of @field when jvms_jfr_event_get_pool_key reads its key (a constant-pool field, not
 * an array), else -1 */
static gint
pool_index (const JvmsJfrField *field)
{
  return field != NULL && jvms_jfr_field_is_constant_pool (field) && !jvms_jfr_field_is_array (field)
         ? (gint) jvms_jfr_field_get_index (field) : -1;
}

static TypeInfo *
type_info (JvmsJfrSamples *self, const JvmsJfrType *type)
{
  TypeInfo *ti = g_hash_table_lookup (self->types, type);
  if (ti != NULL)
    return ti;
  ti = g_new0 (TypeInfo, 1);
  ti->store_type = JVMS_SAMPLES_NONE;
  ti->type_id = jvms_jfr_type_get_id (type);
  const char *name = jvms_jfr_type_get_name (type);
  if (name == NULL)
    name = "?";
  if (strcmp (name, "jdk.ActiveSetting") == 0)
    {
      ti->special = SPECIAL_SETTING;
      ti->id = jvms_jfr_type_find_field (type, "id");
      ti->name = jvms_jfr_type_find_field (type, "name");
      ti->value = jvms_jfr_type_find_field (type, "value");
    }
  else if (strcmp (name, "jdk.Compilation") == 0)
    {
      ti->special = SPECIAL_COMPILATION;
      ti->method = jvms_jfr_type_find_field (type, "method");
      ti->level = jvms_jfr_type_find_field (type, "compileLevel");
      ti->succeeded = jvms_jfr_type_find_field (type, "succeded");   /* sic, as HotSpot names it */
      if (ti->succeeded == NULL)
        ti->succeeded = jvms_jfr_type_find_field (type, "succeeded");
      ti->osr = jvms_jfr_type_find_field (type, "isOsr");
    }
  else if (strcmp (name, "jdk.MethodTiming") == 0)
    {
      ti->special = SPECIAL_TIMING;
      ti->method = jvms_jfr_type_find_field (type, "method");
      ti->invocations = jvms_jfr_type_find_field (type, "invocations");
      ti->minimum = jvms_jfr_type_find_field (type, "minimum");
      ti->average = jvms_jfr_type_find_field (type, "average");
      ti->maximum = jvms_jfr_type_find_field (type, "maximum");
    }

  const JvmsJfrField *stack = jvms_jfr_type_find_field (type, "stackTrace");
  if (stack != NULL && jvms_jfr_type_is_event (type))
    {
      JvmsSampleUnit unit = JVMS_SAMPLE_UNIT_EVENTS;
      ti->rule = RULE_ONE;
      if (jvms_jfr_type_find_field (type, "duration") != NULL)
        {
          ti->rule = RULE_DURATION;
          unit = JVMS_SAMPLE_UNIT_NS;
        }
      for (gsize i = 0; i < G_N_ELEMENTS (known); i++)
        if (strcmp (name, known[i].name) == 0)
          {
            ti->rule = known[i].rule;
            unit = known[i].unit;
            ti->flags = known[i].flags;
            if (known[i].field != NULL)
              ti->weight_field = jvms_jfr_type_find_field (type, known[i].field);
            if (known[i].field2 != NULL)
              ti->weight_field2 = jvms_jfr_type_find_field (type, known[i].field2);
          }
      ti->thread = jvms_jfr_type_find_field (type, "sampledThread");
      if (ti->thread == NULL)
        ti->thread = jvms_jfr_type_find_field (type, "eventThread");
      if (ti->flags & JVMS_SAMPLE_TYPE_SAMPLER)
        ti->detail_string = jvms_jfr_type_find_field (type, "state");
      static const char *const class_fields[] = { "objectClass", "monitorClass", "parkedClass", "thrownClass" };
      for (gsize i = 0; i < G_N_ELEMENTS (class_fields) && ti->detail_class == NULL; i++)
        ti->detail_class = jvms_jfr_type_find_field (type, class_fields[i]);
      if (strcmp (name, "jdk.OldObjectSample") == 0)
        {
          ti->object = jvms_jfr_type_find_field (type, "object");
          ti->allocation_time = jvms_jfr_type_find_field (type, "allocationTime");
          ti->object_age = jvms_jfr_type_find_field (type, "objectAge");
        }
      /* A profiler's samplers may hold wall-clock samples (all or, told by their state, some). */
      ti->wall_store_type = JVMS_SAMPLES_NONE;
      ti->may_be_wall = -1;
      if (jvms_jfr_recording_sampler_of (NULL, name, NULL) >= 0)
        {
          ti->sampler = TRUE;
          ti->state = jvms_jfr_type_find_field (type, "state");
          ti->batch = jvms_jfr_recording_batch_field (type);
        }
      ti->sample = TRUE;
      ti->unit = unit;
      ti->type_name = name;
      ti->period = default_period (self, name);
    }
  ti->n_fields = jvms_jfr_type_get_n_fields (type);
  ti->stack_index = pool_index (jvms_jfr_type_get_stack_trace_field (type));
  ti->thread_index = pool_index (ti->thread);
  ti->class_index = pool_index (ti->detail_class);
  g_hash_table_insert (self->types, (gpointer) type, ti);
  return ti;
}

static JvmsFrameKind
frame_kind (const char *type)
{
  if (type == NULL)
    return JVMS_FRAME_KIND_UNKNOWN;
  static const struct { const char *name; JvmsFrameKind kind; } kinds[] = {
    { "Interpreted", JVMS_FRAME_KIND_INTERPRETED }, { "JIT compiled", JVMS_FRAME_KIND_JIT },
    { "Inlined", JVMS_FRAME_KIND_INLINED }, { "Native", JVMS_FRAME_KIND_NATIVE },
    { "C++", JVMS_FRAME_KIND_CPP }, { "Kernel", JVMS_FRAME_KIND_KERNEL },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strcmp (type, kinds[i].name) == 0)
      return kinds[i].kind;
  return JVMS_FRAME_KIND_UNKNOWN;
}

/* The store method of a frame's class and method names, by their addresses in the loading
 * @load of their chunk (jvms_jfr_event_get_load: keyed by the chunk, a loading freed and
 * another of the same chunk could put other names at the same addresses). User-space
 * addresses lie below 2^47: the load's id goes above, 17 bits in each word. */
static guint32
method_id (JvmsJfrSamples *self, guint64 load, const char *class_name, const char *method_name)
{
  guint64 a = (guint64) (guintptr) class_name ^ (load & 0x1ffff) << 47;
  guint64 b = (guint64) (guintptr) method_name ^ (load >> 17) << 47;
  JvmsSamplesIdSlot *slot;
  guint32 id = jvms_samples_idmap_lookup (&self->methods, a, b, &slot);
  if (id != JVMS_SAMPLES_NONE)
    return id;
  id = jvms_samples_writer_intern_method (self->writer, class_name, method_name);
  if (self->methods.used >= CACHE_MAX)
    {
      jvms_samples_idmap_clear (&self->methods);
      jvms_samples_idmap_init (&self->methods);
      jvms_samples_idmap_lookup (&self->methods, a, b, &slot);
    }
  jvms_samples_idmap_set (&self->methods, slot, a, b, id);
  return id;
}

/* The kind of a frame by its type name, remembered by the name's address in the chunk (the
 * reader keeps one copy per name; comparing names cost a few string comparisons a frame). */
static JvmsFrameKind
frame_kind_in_chunk (JvmsJfrSamples *self, const char *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->kind_names); i++)
    {
      if (self->kind_names[i] == type && type != NULL)
        return self->kind_of[i];
      if (self->kind_names[i] == NULL)
        {
          self->kind_names[i] = type;
          return self->kind_of[i] = frame_kind (type);
        }
    }
  return frame_kind (type);
}

/* The store frame of @f, a frame of the loading @load (self->frames_load) */
static guint32
frame_id (JvmsJfrSamples *self, guint64 load, const JvmsJfrFrame *f)
{
  /* Multiplied, the top bits depend on every bit below them. */
  guint64 h = ((guint64) (guintptr) f->method_name ^ (guint64) (guintptr) f->class_name << 17
               ^ (guint64) (guint32) f->line_number << 40) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  FrameSlot *slot = &self->frame_slots[h >> (64 - FRAME_BITS)];
  /* The class is compared although, with today's reader, equal method names mean one method
   * constant (each gets its own copy of its name: jfr-value.c, method_entry) and so one class:
   * dropped, no output changes (tried on the shared files, the bench's and ddprof's). It keeps
   * the cache right should the reader share equal names within a chunk, as it shares frame
   * types. */
  if (slot->frame != JVMS_SAMPLES_NONE && slot->method_name == f->method_name && slot->class_name == f->class_name
      && slot->line == f->line_number && slot->type == f->type)
    return slot->frame;
  guint32 frame;
  if (f->class_name == NULL || f->method_name == NULL)
    frame = jvms_samples_writer_intern_pseudo_frame (self->writer, "[unknown]");
  else
    frame = jvms_samples_writer_intern_frame (self->writer, method_id (self, load, f->class_name, f->method_name),
                                              f->line_number, frame_kind_in_chunk (self, f->type));
  *slot = (FrameSlot) { f->class_name, f->method_name, f->type, f->line_number, frame };
  return frame;
}

/* The map of stacks by key of chunk @chunk, and the second word of its keys (*@b) */
static JvmsSamplesIdMap *
stacks_of_chunk (JvmsJfrSamples *self, guint chunk, guint64 *b)
{
  *b = 0;
  if (self->stacks_chunk[0] == chunk)
    return &self->chunk_stacks[0];
  if (self->stacks_chunk[1] == chunk)
    return &self->chunk_stacks[1];
  /* A chunk after both (chunks come in file order): it takes the older one's map. */
  guint older = self->stacks_chunk[0] == G_MAXUINT ? 0 : self->stacks_chunk[1] == G_MAXUINT ? 1
                : self->stacks_chunk[0] < self->stacks_chunk[1] ? 0 : 1;
  guint newer = self->stacks_chunk[1 - older];
  if (newer == G_MAXUINT || chunk > newer)
    {
      jvms_samples_idmap_clear (&self->chunk_stacks[older]);
      jvms_samples_idmap_init (&self->chunk_stacks[older]);
      self->stacks_chunk[older] = chunk;
      return &self->chunk_stacks[older];
    }
  *b = chunk;
  return &self->stacks;
}

/* The stack of an event not asked for just before (stack_and_chunk, jvms_jfr_samples_stack_of_values):
 * each is interned once per (chunk, key). */
static G_GNUC_NO_INLINE guint32
stack_of_new_event (JvmsJfrSamples *self, const JvmsJfrEvent *ev, guint chunk, guint64 offset, gboolean keyed,
                    guint64 key)
{
  self->memo_offset = offset;
  self->memo_chunk = chunk;
  /* Known stacks by the key the event holds: resolving it would touch the reader's pool entry
   * and stack trace, two cache misses an event on a large recording. */
  JvmsSamplesIdSlot *slot = NULL;
  guint64 b;
  guint32 stack;
  if (keyed)
    {
      KeySlot *ks = &self->key_slots[key & (KEY_SLOTS - 1)];
      if (ks->stack != JVMS_SAMPLES_NONE && ks->key == key && ks->chunk == chunk)
        return self->memo_stack = ks->stack;
    }
  JvmsSamplesIdMap *map = stacks_of_chunk (self, chunk, &b);
  if (keyed && (stack = jvms_samples_idmap_lookup (map, key, b, &slot)) != JVMS_SAMPLES_NONE)
    {
      self->key_slots[key & (KEY_SLOTS - 1)] = (KeySlot) { key, chunk, stack };
      return self->memo_stack = stack;
    }
  self->memo_stack = JVMS_SAMPLES_NONE;
  const JvmsJfrStackTrace *st = jvms_jfr_event_get_stack_trace (ev);
  if (st == NULL)
    return JVMS_SAMPLES_NONE;
  /* Looked up already by the same key (interning below uses other maps: the slot stays). */
  if (!keyed || st->key != key)
    {
      stack = jvms_samples_idmap_lookup (map, st->key, b, &slot);
      if (stack != JVMS_SAMPLES_NONE)
        return self->memo_stack = stack;
    }
  guint n = MIN (st->n_frames, JVMS_SAMPLES_MAX_DEPTH);
  gboolean truncated = st->truncated || st->n_frames > n;
  /* Sized once: appending frame by frame cost a library call a frame. */
  GArray *ids = self->frame_ids;
  guint pseudo = truncated || n == 0;
  g_array_set_size (ids, n + pseudo);
  guint32 *out = (guint32 *) (gpointer) ids->data;
  if (truncated)
    *out++ = jvms_samples_writer_intern_pseudo_frame (self->writer, "[truncated]");
  else if (n == 0)
    *out++ = jvms_samples_writer_intern_pseudo_frame (self->writer, "[unknown]");
  /* Outermost first, as the writer's stack table grows; methods by their strings' addresses,
   * remembered per chunk (interning them by content would hash the strings every time). */
  guint64 load = jvms_jfr_event_get_load (ev);
  if (load != self->frames_load)
    {
      for (guint i = 0; i < FRAME_SLOTS; i++)
        self->frame_slots[i].frame = JVMS_SAMPLES_NONE;
      memset (self->kind_names, 0, sizeof self->kind_names);
      self->frames_load = load;
    }
  for (guint i = n; i-- > 0;)
    *out++ = frame_id (self, load, &st->frames[i]);
  stack = jvms_samples_writer_intern_frame_ids (self->writer, (const guint32 *) ids->data, ids->len);
  if (map->used >= CACHE_MAX)
    {
      jvms_samples_idmap_clear (map);
      jvms_samples_idmap_init (map);
      jvms_samples_idmap_lookup (map, st->key, b, &slot);
    }
  jvms_samples_idmap_set (map, slot, st->key, b, stack);
  self->key_slots[st->key & (KEY_SLOTS - 1)] = (KeySlot) { st->key, chunk, stack };
  return self->memo_stack = stack;
}

/* The event's stack, and its chunk's index in *@chunk. The event store and the samples ask for
 * the same event one after the other: the second call is a comparison, inlined into on_sample. */
static inline guint32
stack_and_chunk (JvmsJfrSamples *self, const JvmsJfrEvent *ev, guint *chunk)
{
  *chunk = jvms_jfr_event_get_chunk (ev)->index;
  guint64 offset = jvms_jfr_event_get_file_offset (ev);
  if (offset == self->memo_offset && *chunk == self->memo_chunk)
    return self->memo_stack;
  guint64 key = 0;
  gboolean keyed = jvms_jfr_event_get_stack_trace_key (ev, &key);
  return stack_of_new_event (self, ev, *chunk, offset, keyed, key);
}

/* The pool key of field @index from @values (every field of the event read) as
 * jvms_jfr_event_get_pool_key would read it: TRUE with *@key, or FALSE without one. */
static inline gboolean
value_key (const JvmsJfrValue *values, gint index, guint64 *key)
{
  if (index < 0)
    return FALSE;
  /* A constant-pool field read always held its key (from_pool, with a null value for a key
   * the chunk lacks). */
  *key = values[index].pool_key;
  return values[index].from_pool;
}

guint32
jvms_jfr_samples_stack_of_values (JvmsJfrSamples *self, const JvmsJfrEvent *ev, const JvmsJfrValue *values,
                                  guint n_good)
{
  guint chunk = jvms_jfr_event_get_chunk (ev)->index;
  guint64 offset = jvms_jfr_event_get_file_offset (ev);
  if (offset == self->memo_offset && chunk == self->memo_chunk)
    return self->memo_stack;
  const JvmsJfrType *type = jvms_jfr_event_get_type (ev);
  if (type != self->last_type)
    {
      self->last_type = type;
      self->last_info = type_info (self, type);
    }
  const TypeInfo *ti = self->last_info;
  guint64 key = 0;
  gboolean keyed;
  if (n_good < ti->n_fields)
    {
      /* Damaged: the reader finds what it can by the fields' offsets, as without values. */
      self->keys_offset = G_MAXUINT64;
      keyed = jvms_jfr_event_get_stack_trace_key (ev, &key);
    }
  else
    {
      /* Kept for the event's sample, which comes next (on_sample: thread_of, class_detail). */
      self->keys_offset = offset;
      self->keys_chunk = chunk;
      self->thread_keyed = value_key (values, ti->thread_index, &self->thread_key);
      self->class_keyed = value_key (values, ti->class_index, &self->class_key);
      keyed = value_key (values, ti->stack_index, &key);
    }
  return stack_of_new_event (self, ev, chunk, offset, keyed, key);
}

/* Whether the thread's and class's keys kept by jvms_jfr_samples_stack_of_values are @ev's. */
static inline gboolean
keys_kept_for (const JvmsJfrSamples *self, const JvmsJfrEvent *ev, guint chunk)
{
  return self->keys_offset == jvms_jfr_event_get_file_offset (ev) && self->keys_chunk == chunk;
}

static gint64
period_of (JvmsJfrSamples *self, const TypeInfo *ti)
{
  gint64 *period = g_hash_table_lookup (self->periods, &ti->type_id);
  return period != NULL ? *period : ti->period;
}

static guint64
weight_of (JvmsJfrSamples *self, const JvmsJfrEvent *ev, const TypeInfo *ti)
{
  gint64 v;
  switch (ti->rule)
    {
    case RULE_DURATION:
      return (guint64) MAX (jvms_jfr_event_get_duration_ns (ev), 0);
    case RULE_PERIOD:
      return (guint64) period_of (self, ti);
    case RULE_SAMPLING_PERIOD:
      if (ti->weight_field != NULL && jvms_jfr_event_get_time_ns (ev, ti->weight_field, &v) && v > 0)
        return (guint64) v;
      return (guint64) period_of (self, ti);
    case RULE_FIELD:
      if (ti->weight_field != NULL && jvms_jfr_event_get_int64 (ev, ti->weight_field, &v) && v >= 0)
        return (guint64) v;
      if (ti->weight_field2 != NULL && jvms_jfr_event_get_int64 (ev, ti->weight_field2, &v) && v >= 0)
        return (guint64) v;
      return 0;
    case RULE_ONE:
    default:
      return 1;
    }
}

/* A wall-clock sample of the recording's wall-clock sampler: its store type (interned at the
 * first), the weight of each of the samples it stands for (the wall-clock interval), how many
 * (@n) and how far apart (@spacing) they were taken; FALSE for any other sample. */
static gboolean
wall_sample (JvmsJfrSamples *self, const JvmsJfrEvent *ev, TypeInfo *ti, const char *state,
             guint32 *type, guint64 *weight, guint64 *n, gint64 *spacing)
{
  if (!ti->sampler || self->recording == NULL)
    return FALSE;
  /* Asked once per type (the answer compares type names): without a state, and with a state
   * other than STATE_DEFAULT ("" stands for any), the only two answers a state can give. */
  if (ti->may_be_wall < 0)
    ti->may_be_wall = jvms_jfr_recording_sampler_of (self->recording, ti->type_name, NULL) == JVMS_SAMPLER_WALL
                      || jvms_jfr_recording_sampler_of (self->recording, ti->type_name, "") == JVMS_SAMPLER_WALL;
  if (!ti->may_be_wall
      || jvms_jfr_recording_sampler_of (self->recording, ti->type_name, state) != JVMS_SAMPLER_WALL)
    return FALSE;
  const JvmsSamplerInfo *wall = &self->recording->samplers[JVMS_SAMPLER_WALL];
  gint64 interval = wall->source == JVMS_INTERVAL_SETTING || wall->source == JVMS_INTERVAL_DEFAULT
                    ? wall->ns : 0;
  if (ti->wall_store_type == JVMS_SAMPLES_NONE)
    ti->wall_store_type = jvms_samples_writer_intern_type (self->writer, ti->type_name, JVMS_SAMPLE_UNIT_NS,
                                                           JVMS_SAMPLE_TYPE_WALL | JVMS_SAMPLE_TYPE_SAMPLER);
  *type = ti->wall_store_type;
  /* At most 2^20 samples × an interval below 9.2e18 / 2^20 ns: the type's sum cannot overflow. */
  *weight = (guint64) CLAMP (interval, 0, G_MAXINT64 >> 21);
  *n = jvms_jfr_recording_batch_size (ev, ti->batch);
  /* As the threads view counts them (jvms-jfr-machine.c, sample_count): a batch with a duration
   * spans it, one without is an interval apart. */
  gint64 duration = jvms_jfr_event_get_duration_ns (ev);
  *spacing = CLAMP (duration > 0 && *n > 1 ? duration / (gint64) (*n - 1) : interval, 0, G_MAXINT64 >> 21);
  return TRUE;
}

/* @t + @d, ending at G_MAXINT64 (a file's times and durations are not trusted). */
static gint64
later (gint64 t, gint64 d)
{
  return t > G_MAXINT64 - d ? G_MAXINT64 : t + d;
}

static int
pending_compare (gconstpointer pa, gconstpointer pb, gpointer user_data)
{
  const Pending *a = pa, *b = pb;
  (void) user_data;
  if (a->next != b->next)
    return a->next < b->next ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Writes the batched samples taken at or before @time (all of them for G_MAXINT64), in time
 * order, so that the store's blocks stay in time order and each sample lies in the block (and
 * the range) of its own time. */
static void
flush_pending (JvmsJfrSamples *self, gint64 time)
{
  while (!g_sequence_is_empty (self->pending))
    {
      GSequenceIter *first = g_sequence_get_begin_iter (self->pending);
      Pending *p = g_sequence_get (first);
      if (p->next > time)
        break;
      p->record.time = p->next;
      jvms_samples_writer_add_record (self->writer, &p->record);
      if (--p->remaining == 0)
        {
          g_sequence_remove (first);
          continue;
        }
      p->next = later (p->next, p->spacing);
      g_sequence_sort_changed (first, pending_compare, NULL);
    }
  self->pending_next = g_sequence_is_empty (self->pending)
                       ? G_MAXINT64 : ((Pending *) g_sequence_get (g_sequence_get_begin_iter (self->pending)))->next;
}

void
jvms_jfr_samples_finish (JvmsJfrSamples *self)
{
  flush_pending (self, G_MAXINT64);
}

/* The sample's thread in the store (and its tid), by the thread's key in the event: resolving
 * the thread at every sample cost a point of indexing. */
static guint32
thread_of (JvmsJfrSamples *self, const JvmsJfrEvent *ev, const TypeInfo *ti, guint chunk, gint64 *tid)
{
  guint64 key = 0;
  gboolean keyed;
  if (keys_kept_for (self, ev, chunk))
    {
      keyed = self->thread_keyed;
      key = keyed ? self->thread_key : 0;
    }
  else
    keyed = ti->thread != NULL && jvms_jfr_event_get_pool_key (ev, ti->thread, &key);
  ThreadSlot *slot = &self->thread_slots[key & (THREAD_SLOTS - 1)];
  if (keyed && slot->thread != JVMS_SAMPLES_NONE && slot->key == key && slot->chunk == chunk)
    {
      *tid = slot->tid;
      return slot->thread;
    }
  const JvmsJfrThread *jt = NULL;
  if (ti->thread != NULL)
    jvms_jfr_event_get_thread_field (ev, ti->thread, &jt);
  *tid = jvms_threads_tid_of_jfr (jt);
  const char *name = jt == NULL ? NULL : jt->java_name != NULL ? jt->java_name : jt->os_name;
  guint32 thread = jvms_samples_writer_intern_thread (self->writer, *tid, name);
  /* Remembered only for a thread the pool has: a null or unresolved one may be named later. */
  if (keyed && jt != NULL)
    *slot = (ThreadSlot) { key, chunk, thread, *tid };
  return thread;
}

/* The store string of the class in @field of @ev (NONE without one), by its key in the event */
static guint32
class_detail (JvmsJfrSamples *self, const JvmsJfrEvent *ev, const JvmsJfrField *field, guint chunk)
{
  guint64 key = 0;
  gboolean keyed;
  /* The memo is of the type's detail_class, the only field asked for here. */
  if (keys_kept_for (self, ev, chunk))
    {
      keyed = self->class_keyed;
      key = keyed ? self->class_key : 0;
    }
  else
    keyed = jvms_jfr_event_get_pool_key (ev, field, &key);
  if (keyed && self->memo_class_known && key == self->memo_class_key && chunk == self->memo_class_chunk)
    return self->memo_class_detail;
  const char *name = NULL;
  jvms_jfr_event_get_class_name (ev, field, &name);
  self->memo_class_known = keyed;
  self->memo_class_key = key;
  self->memo_class_chunk = chunk;
  return self->memo_class_detail = jvms_samples_writer_intern_string (self->writer, name);
}

static void
on_sample (JvmsJfrSamples *self, const JvmsJfrEvent *ev, TypeInfo *ti)
{
  gint64 time = jvms_jfr_event_get_start_ns (ev);
  /* Only events that carry a stack trace: most types declare the field and leave it null. */
  guint chunk;
  guint32 stack = stack_and_chunk (self, ev, &chunk);
  if (stack == JVMS_SAMPLES_NONE)
    return;
  const char *state = NULL;
  if (ti->state != NULL)
    jvms_jfr_event_get_string (ev, ti->state, &state);
  gint64 tid;
  guint32 thread = thread_of (self, ev, ti, chunk, &tid);
  JvmsSampleRecord r = {
    .time = time,
    .thread = thread,
    .stack = stack,
    .detail = JVMS_SAMPLES_NONE,
  };
  const char *detail = NULL;
  guint64 n = 1;
  gint64 spacing = 0;
  if (wall_sample (self, ev, ti, state, &r.type, &r.weight, &n, &spacing))
    detail = state;
  else
    {
      if (ti->store_type == JVMS_SAMPLES_NONE)
        ti->store_type = jvms_samples_writer_intern_type (self->writer, ti->type_name, ti->unit, ti->flags);
      r.type = ti->store_type;
      r.weight = weight_of (self, ev, ti);
      if (ti->batch != NULL)
        {
          /* A sampler's event that stands for N samples (dd-trace's weight): N samples of one
           * period each, over the event's span when it has one, else all at its start (ddprof's
           * datadog.ExecutionSample has none). At most 2^20 samples of a weight below
           * 9.2e18 / 2^20: the type's sum cannot overflow. */
          n = jvms_jfr_recording_batch_size (ev, ti->batch);
          gint64 duration = jvms_jfr_event_get_duration_ns (ev);
          spacing = CLAMP (duration > 0 && n > 1 ? duration / (gint64) (n - 1) : 0, 0, G_MAXINT64 >> 21);
          if (n > 1)
            r.weight = MIN (r.weight, (guint64) G_MAXINT64 >> 21);
        }
      if ((ti->flags & JVMS_SAMPLE_TYPE_CPU) && self->cpu_state != NULL && tid > 0)
        r.state = self->cpu_state (tid, time, self->cpu_state_data);
      if (ti->detail_string != NULL)
        jvms_jfr_event_get_string (ev, ti->detail_string, &detail);
    }
  if (detail == NULL && ti->detail_class != NULL && ti->object == NULL)
    r.detail = class_detail (self, ev, ti->detail_class, chunk);
  else if (detail == NULL && ti->detail_class != NULL)
    jvms_jfr_event_get_class_name (ev, ti->detail_class, &detail);
  if (ti->object != NULL)
    {
      JvmsJfrValue v;
      if (jvms_jfr_event_get_value (ev, ti->object, &v) && v.kind == JVMS_JFR_VALUE_OBJECT)
        {
          const JvmsJfrField *type_field = jvms_jfr_type_find_field (v.object.type, "type");
          if (type_field != NULL)
            jvms_jfr_object_get_class_name (&v.object, type_field, &detail);
        }
      gint64 ns;
      r.old_object = TRUE;
      if (ti->allocation_time != NULL && jvms_jfr_event_get_time_ns (ev, ti->allocation_time, &ns))
        r.allocation_time = ns;
      if (ti->object_age != NULL && jvms_jfr_event_get_time_ns (ev, ti->object_age, &ns) && ns > 0)
        r.object_age = (guint64) ns;
    }
  if (r.detail == JVMS_SAMPLES_NONE && detail != NULL)
    r.detail = jvms_samples_writer_intern_string (self->writer, detail);
  if (time >= self->pending_next)
    flush_pending (self, time);
  jvms_samples_writer_add_record (self->writer, &r);
  if (n > 1 && spacing <= 0)
    {
      /* Taken all at once, as the threads view counts them: n samples at this time. */
      for (guint64 i = 1; i < n; i++)
        jvms_samples_writer_add_record (self->writer, &r);
    }
  else if (n > 1)
    {
      /* The batch's other samples, each at its own time as the stream reaches it. */
      Pending p = { later (time, spacing), spacing, self->pending_seq++, n - 1, r };
      g_sequence_insert_sorted (self->pending, g_memdup2 (&p, sizeof p), pending_compare, NULL);
      self->pending_next = MIN (self->pending_next, p.next);
    }
}

static guint32
method_of (JvmsJfrSamples *self, const JvmsJfrEvent *ev, const JvmsJfrField *field)
{
  if (field == NULL)
    return JVMS_SAMPLES_NONE;
  JvmsJfrObject obj;
  jvms_jfr_event_get_object (ev, &obj);
  const char *cls = NULL, *name = NULL, *desc = NULL;
  if (!jvms_jfr_object_get_method (&obj, field, &cls, &name, &desc) || cls == NULL || name == NULL)
    return jvms_samples_writer_intern_method (self->writer, NULL, "[unknown]");
  return jvms_samples_writer_intern_method (self->writer, cls, name);
}

static gint64
time_or (const JvmsJfrEvent *ev, const JvmsJfrField *f, gint64 fallback)
{
  gint64 v;
  return f != NULL && jvms_jfr_event_get_time_ns (ev, f, &v) ? v : fallback;
}

static void
on_special (JvmsJfrSamples *self, const JvmsJfrEvent *ev, const TypeInfo *ti)
{
  gint64 v;
  switch (ti->special)
    {
    case SPECIAL_SETTING:
      {
        const char *name = NULL, *value = NULL;
        gint64 id;
        if (ti->id == NULL || !jvms_jfr_event_get_int64 (ev, ti->id, &id)
            || !jvms_jfr_event_get_string (ev, ti->name, &name) || name == NULL
            || (strcmp (name, "period") != 0 && strcmp (name, "interval") != 0)
            || !jvms_jfr_event_get_string (ev, ti->value, &value))
          return;
        gint64 period = jvms_jfr_samples_parse_period (value);
        guint64 key = (guint64) id;
        /* Bounded by the event types of the recording that have a period. */
        if (period > 0 && g_hash_table_size (self->periods) < 4096)
          g_hash_table_insert (self->periods, g_memdup2 (&key, sizeof key), g_memdup2 (&period, sizeof period));
        else if (period <= 0)
          g_hash_table_remove (self->periods, &key);
      }
      break;
    case SPECIAL_COMPILATION:
      {
        gboolean ok = TRUE, osr = FALSE;
        if (ti->succeeded != NULL)
          jvms_jfr_event_get_boolean (ev, ti->succeeded, &ok);
        if (ti->osr != NULL)
          jvms_jfr_event_get_boolean (ev, ti->osr, &osr);
        JvmsSamplesCompilation c = {
          .time = GINT64_TO_LE (jvms_jfr_event_get_start_ns (ev)),
          .duration = GINT64_TO_LE (MAX (jvms_jfr_event_get_duration_ns (ev), 0)),
          .method = GUINT32_TO_LE (method_of (self, ev, ti->method)),
          .tier = GINT32_TO_LE (ti->level != NULL && jvms_jfr_event_get_int64 (ev, ti->level, &v) ? (gint32) CLAMP (v, -1, 1000) : -1),
          .flags = GUINT32_TO_LE ((ok ? 1u : 0u) | (osr ? 2u : 0u)),
        };
        jvms_samples_writer_add_compilation (self->writer, &c);
      }
      break;
    case SPECIAL_TIMING:
      {
        JvmsSamplesTiming t = {
          .time = GINT64_TO_LE (jvms_jfr_event_get_start_ns (ev)),
          .method = GUINT32_TO_LE (method_of (self, ev, ti->method)),
          .invocations = GINT64_TO_LE (ti->invocations != NULL && jvms_jfr_event_get_int64 (ev, ti->invocations, &v) ? v : -1),
          .minimum = GINT64_TO_LE (time_or (ev, ti->minimum, -1)),
          .average = GINT64_TO_LE (time_or (ev, ti->average, -1)),
          .maximum = GINT64_TO_LE (time_or (ev, ti->maximum, -1)),
        };
        jvms_samples_writer_add_timing (self->writer, &t);
      }
      break;
    case SPECIAL_NONE:
    default:
      break;
    }
}

void
jvms_jfr_samples_feed (JvmsJfrSamples *self, const JvmsJfrEvent *ev)
{
  const JvmsJfrType *type = jvms_jfr_event_get_type (ev);
  if (type != self->last_type)
    {
      self->last_type = type;
      self->last_info = type_info (self, type);
    }
  TypeInfo *ti = self->last_info;
  if (ti->special != SPECIAL_NONE)
    on_special (self, ev, ti);
  if (ti->sample)
    on_sample (self, ev, ti);
}
