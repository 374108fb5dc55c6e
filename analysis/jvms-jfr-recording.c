/* jvms-jfr-recording.c: the writer, thread states and samplers of a JFR file (docs/writers.md). */
#include "jvms-jfr-recording.h"

#include <string.h>

#include "jvms-jfr-samples.h"

#define NS_PER_MS          G_GINT64_CONSTANT (1000000)
/* The JDK's default.jfc: jdk.ExecutionSample and jdk.NativeMethodSample every 20 ms. */
#define JDK_DEFAULT_PERIOD (20 * NS_PER_MS)
/* async-profiler's DEFAULT_INTERVAL (arguments.h) for CPU samplers, five times it for wall
 * clock (wallClock.cpp); dd-trace's DEFAULT_CPU_INTERVAL and DEFAULT_WALL_INTERVAL. */
#define PROFILER_CPU_DEFAULT  (10 * NS_PER_MS)
#define PROFILER_WALL_DEFAULT (50 * NS_PER_MS)
#define MAX_SETTINGS       4096

/* The JDK's events that say what a thread waits for: with one of them on, the recording has
 * thread states (docs/writers.md). */
static const char * const state_types[] = {
  "jdk.JavaMonitorEnter", "jdk.JavaMonitorWait", "jdk.ThreadPark", "jdk.ThreadSleep",
  "jdk.SocketRead", "jdk.SocketWrite", "jdk.FileRead", "jdk.FileWrite", "jdk.FileForce",
};

typedef struct
{
  JvmsWriterKind writer;
  GHashTable    *counts;    /* type name (file's) -> guint64* events */
  GHashTable    *settings;  /* "type\tname" -> value (last seen) */
  char          *jvm_version;
  char          *dd_version;
  gint64         dd_cpu, dd_wall;
  gint64         cpu_time_period;  /* the last jdk.CPUTimeSample's samplingPeriod, ns */
} Scan;

static guint64
count_of (Scan *s, const char *type)
{
  guint64 *n = g_hash_table_lookup (s->counts, type);
  return n != NULL ? *n : 0;
}

static const char *
setting (Scan *s, const char *type, const char *name)
{
  g_autofree char *key = g_strdup_printf ("%s\t%s", type, name);
  return g_hash_table_lookup (s->settings, key);
}

static gboolean
enabled (Scan *s, const char *type)
{
  return g_strcmp0 (setting (s, type, "enabled"), "true") == 0;
}

/* A setting as an integer (async-profiler writes ns and counts as digits), else -1. */
static gint64
setting_int (Scan *s, const char *type, const char *name)
{
  const char *v = setting (s, type, name);
  if (v == NULL || v[0] == '\0')
    return -1;
  char *end = NULL;
  gint64 n = g_ascii_strtoll (v, &end, 10);
  return end != NULL && *end == '\0' ? n : -1;
}

/* Whose metadata a chunk has: the profilers declare their own event types. */
static JvmsWriterKind
chunk_writer (JvmsJfrFile *file, guint chunk)
{
  gboolean profiler = FALSE, jdk = FALSE;
  for (guint i = 0; i < jvms_jfr_file_get_n_types (file, chunk); i++)
    {
      const char *name = jvms_jfr_file_get_type (file, chunk, i) != NULL
        ? jvms_jfr_type_get_name (jvms_jfr_file_get_type (file, chunk, i)) : NULL;
      if (name == NULL)
        continue;
      if (strcmp (name, "datadog.ExecutionSample") == 0 || strcmp (name, "datadog.MethodSample") == 0
          || strcmp (name, "datadog.DatadogProfilerConfig") == 0)
        return JVMS_WRITER_DD_TRACE;
      if (g_str_has_prefix (name, "profiler."))
        profiler = TRUE;
      else if (g_str_has_prefix (name, "jdk."))
        jdk = TRUE;
    }
  return profiler ? JVMS_WRITER_ASYNC_PROFILER : jdk ? JVMS_WRITER_JDK : JVMS_WRITER_UNKNOWN;
}

static const char *
type_name_of_id (JvmsJfrFile *file, guint chunk, gint64 id)
{
  for (guint i = 0; i < jvms_jfr_file_get_n_types (file, chunk); i++)
    {
      const JvmsJfrType *t = jvms_jfr_file_get_type (file, chunk, i);
      if (t != NULL && (gint64) jvms_jfr_type_get_id (t) == id)
        return jvms_jfr_type_get_name (t);
    }
  return NULL;
}

static void
on_setting (Scan *s, JvmsJfrFile *file, const JvmsJfrEvent *ev, GHashTable *type_names)
{
  const JvmsJfrType *type = jvms_jfr_event_get_type (ev);
  const JvmsJfrField *f_id = jvms_jfr_type_find_field (type, "id");
  const JvmsJfrField *f_name = jvms_jfr_type_find_field (type, "name");
  const JvmsJfrField *f_value = jvms_jfr_type_find_field (type, "value");
  gint64 id;
  const char *name = NULL, *value = NULL;
  if (f_id == NULL || !jvms_jfr_event_get_int64 (ev, f_id, &id)
      || !jvms_jfr_event_get_string (ev, f_name, &name) || name == NULL)
    return;
  if (!jvms_jfr_event_get_string (ev, f_value, &value))
    value = NULL;
  /* The id names a type of the chunk the setting is in (async-profiler: its categories). */
  guint chunk = jvms_jfr_event_get_chunk (ev)->index;
  g_autofree char *cache_key = g_strdup_printf ("%u:%" G_GINT64_FORMAT, chunk, id);
  const char *type_name = g_hash_table_lookup (type_names, cache_key);
  if (type_name == NULL)
    {
      type_name = type_name_of_id (file, chunk, id);
      if (type_name == NULL)
        return;
      if (g_hash_table_size (type_names) < MAX_SETTINGS)
        g_hash_table_insert (type_names, g_steal_pointer (&cache_key), (gpointer) type_name);
    }
  g_autofree char *key = g_strdup_printf ("%s\t%s", type_name, name);
  if (g_hash_table_size (s->settings) < MAX_SETTINGS || g_hash_table_contains (s->settings, key))
    g_hash_table_replace (s->settings, g_steal_pointer (&key), g_strdup (value != NULL ? value : ""));
}

static void
add_count (GHashTable *table, const char *name, guint64 n)
{
  guint64 *c = g_hash_table_lookup (table, name);
  if (c == NULL)
    {
      c = g_new0 (guint64, 1);
      g_hash_table_insert (table, g_strdup (name), c);
    }
  *c += n;
}

static void
on_dd_config (Scan *s, const JvmsJfrEvent *ev)
{
  const JvmsJfrType *type = jvms_jfr_event_get_type (ev);
  const JvmsJfrField *cpu = jvms_jfr_type_find_field (type, "cpuInterval");
  const JvmsJfrField *wall = jvms_jfr_type_find_field (type, "wallInterval");
  const JvmsJfrField *version = jvms_jfr_type_find_field (type, "version");
  gint64 v;
  if (cpu != NULL && jvms_jfr_event_get_time_ns (ev, cpu, &v) && v > 0)
    s->dd_cpu = v;
  if (wall != NULL && jvms_jfr_event_get_time_ns (ev, wall, &v) && v > 0)
    s->dd_wall = v;
  const char *str = NULL;
  if (s->dd_version == NULL && version != NULL && jvms_jfr_event_get_string (ev, version, &str) && str != NULL)
    s->dd_version = g_strdup (str);
}

/* "OpenJDK 64-Bit Server VM (17.0.9+9-Ubuntu-123.10) for ..." -> "17.0.9". */
static char *
jdk_version (const char *jvm_version)
{
  if (jvm_version == NULL)
    return NULL;
  const char *open = strchr (jvm_version, '(');
  if (open == NULL)
    return NULL;
  open++;
  gsize n = strcspn (open, "+) -");
  return n > 0 && n < 32 ? g_strndup (open, n) : NULL;
}

static void
set_sampler (JvmsRecordingInfo *info, JvmsSamplerKind kind, const char *type, gint64 ns,
             JvmsIntervalSource source)
{
  JvmsSamplerInfo *s = &info->samplers[kind];
  g_free (s->type);
  s->type = g_strdup (type);
  s->ns = ns;
  s->source = ns > 0 ? source : JVMS_INTERVAL_EVENTS;
}

/* The JDK: a sampler's "period" setting ("20 ms"), else default.jfc's 20 ms. */
static void
jdk_sampler (Scan *s, JvmsRecordingInfo *info, JvmsSamplerKind kind, const char *type)
{
  if (count_of (s, type) == 0 && !enabled (s, type))
    return;
  gint64 period = jvms_jfr_samples_parse_period (setting (s, type, "period"));
  if (period > 0)
    set_sampler (info, kind, type, period, JVMS_INTERVAL_SETTING);
  else
    set_sampler (info, kind, type, JDK_DEFAULT_PERIOD, JVMS_INTERVAL_DEFAULT);
}

static gboolean
cpu_like (const char *event)
{
  return event == NULL || strcmp (event, "cpu") == 0 || strcmp (event, "itimer") == 0
         || strcmp (event, "ctimer") == 0;
}

/* async-profiler (arguments.cpp, wallClock.cpp, flightRecorder.cpp writeSettings): its
 * settings are on jdk.ExecutionSample's type (interval, wall) and jdk.ActiveRecording's
 * (event, version). CPU samples are jdk.ExecutionSample; wall-clock samples are
 * profiler.WallClockSample from 4.0, jdk.ExecutionSample with a RUNNABLE or SLEEPING state
 * before (mixed with CPU samples, whose state is STATE_DEFAULT, when both were asked for). */
static void
profiler_samplers (Scan *s, JvmsRecordingInfo *info)
{
  const char *exec = "jdk.ExecutionSample";
  const char *event = setting (s, "jdk.ActiveRecording", "event");
  gint64 interval = setting_int (s, exec, "interval");
  gint64 wall = setting_int (s, exec, "wall");
  gint64 used_wall = setting_int (s, exec, "usedWallInterval");
  guint64 n_exec = count_of (s, exec);
  const char *wall_type = count_of (s, "profiler.WallClockSample") > 0 ? "profiler.WallClockSample"
                          : count_of (s, "profiler.WallClockSleeping") > 0 && n_exec == 0
                            ? "profiler.WallClockSleeping" : exec;
  gboolean wall_event = event != NULL && strcmp (event, "wall") == 0;
  if (wall_event || wall >= 0 || count_of (s, "profiler.WallClockSample") > 0
      || count_of (s, "profiler.WallClockSleeping") > 0)
    {
      gint64 ns = wall >= 0 ? wall : wall_event ? interval : 0;
      if (used_wall > 0)
        ns = used_wall;
      if (ns > 0)
        set_sampler (info, JVMS_SAMPLER_WALL, wall_type, ns, JVMS_INTERVAL_SETTING);
      else
        set_sampler (info, JVMS_SAMPLER_WALL, wall_type, PROFILER_WALL_DEFAULT, JVMS_INTERVAL_DEFAULT);
    }
  if (wall_event || (n_exec == 0 && !enabled (s, exec)))
    return;
  if (!cpu_like (event))
    /* cycles, cache-misses, a Java method: one sample per so many events, not per time. */
    set_sampler (info, JVMS_SAMPLER_CPU, exec, MAX (interval, 0), JVMS_INTERVAL_EVENTS);
  else if (interval > 0)
    set_sampler (info, JVMS_SAMPLER_CPU, exec, interval, JVMS_INTERVAL_SETTING);
  else
    set_sampler (info, JVMS_SAMPLER_CPU, exec, PROFILER_CPU_DEFAULT, JVMS_INTERVAL_DEFAULT);
}

/* dd-trace-java's ddprof: "interval" settings on its sample types, else its
 * DatadogProfilerConfig, else its defaults (arguments.h). */
static void
dd_samplers (Scan *s, JvmsRecordingInfo *info)
{
  static const struct { const char *type; JvmsSamplerKind kind; gint64 deflt; } types[] = {
    { "datadog.ExecutionSample", JVMS_SAMPLER_CPU, PROFILER_CPU_DEFAULT },
    { "datadog.MethodSample", JVMS_SAMPLER_WALL, PROFILER_WALL_DEFAULT },
  };
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      const char *type = types[i].type;
      if (count_of (s, type) == 0 && !enabled (s, type))
        continue;
      gint64 ns = setting_int (s, type, "interval");
      if (ns <= 0)
        ns = types[i].kind == JVMS_SAMPLER_CPU ? s->dd_cpu : s->dd_wall;
      if (ns > 0)
        set_sampler (info, types[i].kind, type, ns, JVMS_INTERVAL_SETTING);
      else
        set_sampler (info, types[i].kind, type, types[i].deflt, JVMS_INTERVAL_DEFAULT);
    }
}

JvmsRecordingInfo *
jvms_jfr_recording_scan (JvmsJfrFile *file)
{
  JvmsRecordingInfo *info = jvms_recording_info_new ();
  Scan s = { 0 };
  s.counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s.settings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) type_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* The writer of the first chunk that declares a profiler's types, else the JDK's. */
  gboolean jdk_chunks = FALSE;
  for (guint c = 0; c < jvms_jfr_file_get_n_chunks (file); c++)
    {
      JvmsWriterKind w = chunk_writer (file, c);
      if (w == JVMS_WRITER_DD_TRACE || w == JVMS_WRITER_ASYNC_PROFILER)
        {
          if (s.writer != JVMS_WRITER_DD_TRACE)
            s.writer = w;
        }
      else if (w == JVMS_WRITER_JDK)
        jdk_chunks = TRUE;
    }
  if (s.writer == JVMS_WRITER_UNKNOWN && jdk_chunks)
    s.writer = JVMS_WRITER_JDK;

  /* Counts per type object, named afterwards: a pointer hash per event. */
  g_autoptr(GHashTable) per_type = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  {
    g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_FILE);
    const JvmsJfrEvent *ev;
    while ((ev = jvms_jfr_reader_next (reader)) != NULL)
      {
        const JvmsJfrType *type = jvms_jfr_event_get_type (ev);
        guint64 *n = g_hash_table_lookup (per_type, type);
        if (n == NULL)
          {
            n = g_new0 (guint64, 1);
            g_hash_table_insert (per_type, (gpointer) type, n);
          }
        (*n)++;
        const char *name = jvms_jfr_type_get_name (type);
        if (name == NULL)
          continue;
        if (strcmp (name, "jdk.ActiveSetting") == 0)
          on_setting (&s, file, ev, type_names);
        else if (strcmp (name, "jdk.JVMInformation") == 0 && s.jvm_version == NULL)
          {
            const char *v = NULL;
            const JvmsJfrField *f = jvms_jfr_type_find_field (type, "jvmVersion");
            if (f != NULL && jvms_jfr_event_get_string (ev, f, &v) && v != NULL)
              s.jvm_version = g_strdup (v);
          }
        else if (strcmp (name, "datadog.DatadogProfilerConfig") == 0)
          on_dd_config (&s, ev);
        else if (strcmp (name, "jdk.CPUTimeSample") == 0)
          {
            /* Each sample says its period (its throttle setting may be a rate: "500/s"). */
            const JvmsJfrField *f = jvms_jfr_type_find_field (type, "samplingPeriod");
            gint64 v;
            if (f != NULL && jvms_jfr_event_get_time_ns (ev, f, &v) && v > 0)
              s.cpu_time_period = v;
          }
      }
  }
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, per_type);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *name = jvms_jfr_type_get_name (key);
      if (name != NULL)
        add_count (s.counts, name, *(guint64 *) value);
    }

  info->writer = s.writer;
  switch (s.writer)
    {
    case JVMS_WRITER_JDK:
      info->version = jdk_version (s.jvm_version);
      for (guint i = 0; i < G_N_ELEMENTS (state_types); i++)
        if (enabled (&s, state_types[i]) || count_of (&s, state_types[i]) > 0)
          info->thread_states = TRUE;
      if (count_of (&s, "jdk.CPUTimeSample") > 0)
        {
          /* JDK 25's CPU-time sampler is the CPU sampler: it samples the CPU time each thread
           * used. Execution samples of the same threads would count that time again: they are
           * listed, not counted. */
          if (s.cpu_time_period > 0)
            set_sampler (info, JVMS_SAMPLER_CPU, "jdk.CPUTimeSample", s.cpu_time_period, JVMS_INTERVAL_SETTING);
          else
            jdk_sampler (&s, info, JVMS_SAMPLER_CPU, "jdk.CPUTimeSample");
          jdk_sampler (&s, info, JVMS_SAMPLER_EXECUTION, "jdk.ExecutionSample");
        }
      else
        jdk_sampler (&s, info, JVMS_SAMPLER_CPU, "jdk.ExecutionSample");
      jdk_sampler (&s, info, JVMS_SAMPLER_NATIVE, "jdk.NativeMethodSample");
      break;
    case JVMS_WRITER_ASYNC_PROFILER:
      info->version = g_strdup (setting (&s, "jdk.ActiveRecording", "version"));
      profiler_samplers (&s, info);
      break;
    case JVMS_WRITER_DD_TRACE:
      info->version = g_strdup (s.dd_version != NULL ? s.dd_version
                                : setting (&s, "jdk.ActiveRecording", "version"));
      dd_samplers (&s, info);
      break;
    case JVMS_WRITER_UNKNOWN:
    default:
      break;
    }
  if (info->version != NULL && info->version[0] == '\0')
    g_clear_pointer (&info->version, g_free);

  g_hash_table_unref (s.counts);
  g_hash_table_unref (s.settings);
  g_free (s.jvm_version);
  g_free (s.dd_version);
  return info;
}

/* ------------------------------------------------------------------------------------------ */

static const struct
{
  const char  *class_name;   /* NULL: any class */
  const char  *method;       /* NULL: any method of the class */
  JvmsSampled  sampled;
} blocking_frames[] = {
  { "java.lang.Thread", "sleep", JVMS_SAMPLED_SLEEPING },
  { "java.lang.Thread", "sleep0", JVMS_SAMPLED_SLEEPING },
  { "java.lang.Thread", "sleepNanos", JVMS_SAMPLED_SLEEPING },
  { "java.lang.Thread", "sleepNanos0", JVMS_SAMPLED_SLEEPING },
  { "jdk.internal.misc.Unsafe", "park", JVMS_SAMPLED_PARKED },
  { "sun.misc.Unsafe", "park", JVMS_SAMPLED_PARKED },
  { "java.lang.Object", "wait", JVMS_SAMPLED_WAITING },
  { "java.lang.Object", "wait0", JVMS_SAMPLED_WAITING },
  { "sun.nio.ch.EPoll", NULL, JVMS_SAMPLED_SOCKET_IO },
  { "sun.nio.ch.KQueue", NULL, JVMS_SAMPLED_SOCKET_IO },
  { "sun.nio.ch.Net", NULL, JVMS_SAMPLED_SOCKET_IO },
  { "sun.nio.ch.SocketDispatcher", NULL, JVMS_SAMPLED_SOCKET_IO },
  { "sun.nio.ch.DatagramDispatcher", NULL, JVMS_SAMPLED_SOCKET_IO },
  { "sun.nio.ch.ServerSocketChannelImpl", NULL, JVMS_SAMPLED_SOCKET_IO },
  { "java.net.SocketInputStream", NULL, JVMS_SAMPLED_SOCKET_IO },
  { "java.net.SocketOutputStream", NULL, JVMS_SAMPLED_SOCKET_IO },
  { "java.net.PlainSocketImpl", NULL, JVMS_SAMPLED_SOCKET_IO },
  { "java.io.FileInputStream", NULL, JVMS_SAMPLED_FILE_IO },
  { "java.io.FileOutputStream", NULL, JVMS_SAMPLED_FILE_IO },
  { "java.io.RandomAccessFile", NULL, JVMS_SAMPLED_FILE_IO },
  { "sun.nio.ch.FileDispatcherImpl", NULL, JVMS_SAMPLED_FILE_IO },
  { "sun.nio.ch.UnixFileDispatcherImpl", NULL, JVMS_SAMPLED_FILE_IO },
};

/* Java frames looked at below the native ones: the blocking method is the top Java frame, or a
 * few below it (a JDK helper between). */
#define JAVA_FRAMES_LOOKED_AT 4

static JvmsSampled
classify_stack (const JvmsJfrFrame *frames, guint n_frames)
{
  guint java = 0;
  for (guint i = 0; frames != NULL && i < n_frames && java < JAVA_FRAMES_LOOKED_AT; i++)
    {
      const JvmsJfrFrame *f = &frames[i];
      if (f->class_name == NULL || f->method_name == NULL
          || g_strcmp0 (f->type, "Native") == 0 || g_strcmp0 (f->type, "C++") == 0
          || g_strcmp0 (f->type, "Kernel") == 0)
        continue;
      java++;
      for (guint k = 0; k < G_N_ELEMENTS (blocking_frames); k++)
        if (strcmp (f->class_name, blocking_frames[k].class_name) == 0
            && (blocking_frames[k].method == NULL || strcmp (f->method_name, blocking_frames[k].method) == 0))
          return blocking_frames[k].sampled;
    }
  return JVMS_SAMPLED_OFF_CPU;
}

JvmsSampled
jvms_jfr_recording_classify (JvmsWriterKind writer, const char *state, const JvmsJfrFrame *frames,
                             guint n_frames)
{
  /* The JDK's java.lang.Thread.State names (jdk.types.ThreadState), async-profiler's and
   * dd-trace's (docs/writers.md). */
  static const struct { const char *name; JvmsSampled sampled; } states[] = {
    { "STATE_RUNNABLE", JVMS_SAMPLED_RUNNING }, { "RUNNABLE", JVMS_SAMPLED_RUNNING },
    { "STATE_PARKED", JVMS_SAMPLED_PARKED }, { "STATE_PARKED_TIMED", JVMS_SAMPLED_PARKED },
    { "PARKED", JVMS_SAMPLED_PARKED },
    { "STATE_IN_OBJECT_WAIT", JVMS_SAMPLED_WAITING },
    { "STATE_IN_OBJECT_WAIT_TIMED", JVMS_SAMPLED_WAITING }, { "WAITING", JVMS_SAMPLED_WAITING },
    { "STATE_BLOCKED_ON_MONITOR_ENTER", JVMS_SAMPLED_BLOCKED }, { "CONTENDED", JVMS_SAMPLED_BLOCKED },
    { "STATE_IN_NATIVE", JVMS_SAMPLED_NATIVE },
  };
  if (state == NULL)
    return JVMS_SAMPLED_UNKNOWN;
  /* async-profiler: "interrupted in a system call" (wallClock.cpp getThreadState); dd-trace:
   * in a system call. What the thread waits for is in its stack. */
  if ((writer == JVMS_WRITER_ASYNC_PROFILER && strcmp (state, "STATE_SLEEPING") == 0)
      || strcmp (state, "SYSCALL") == 0)
    return classify_stack (frames, n_frames);
  /* The JDK's and dd-trace's SLEEPING is Thread.sleep. */
  if (strcmp (state, "STATE_SLEEPING") == 0 || strcmp (state, "SLEEPING") == 0)
    return JVMS_SAMPLED_SLEEPING;
  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    if (strcmp (state, states[i].name) == 0)
      return states[i].sampled;
  return JVMS_SAMPLED_UNKNOWN;
}

int
jvms_jfr_recording_sampler_of (const JvmsRecordingInfo *recording, const char *type, const char *state)
{
  if (type == NULL)
    return -1;
  if (strcmp (type, "jdk.NativeMethodSample") == 0)
    return JVMS_SAMPLER_NATIVE;
  static const char *const wall_types[] = {
    "profiler.WallClockSample", "profiler.WallClockSleeping", "datadog.MethodSample",
  };
  for (guint i = 0; i < G_N_ELEMENTS (wall_types); i++)
    if (strcmp (type, wall_types[i]) == 0)
      return JVMS_SAMPLER_WALL;
  if (strcmp (type, "jdk.ExecutionSample") != 0 && strcmp (type, "datadog.ExecutionSample") != 0
      && strcmp (type, "jdk.CPUTimeSample") != 0)
    return -1;
  if (recording == NULL)
    return JVMS_SAMPLER_CPU;
  const JvmsSamplerInfo *execution = &recording->samplers[JVMS_SAMPLER_EXECUTION];
  if (execution->source != JVMS_INTERVAL_NONE && g_strcmp0 (execution->type, type) == 0)
    return JVMS_SAMPLER_EXECUTION;
  const JvmsSamplerInfo *cpu = &recording->samplers[JVMS_SAMPLER_CPU];
  const JvmsSamplerInfo *wall = &recording->samplers[JVMS_SAMPLER_WALL];
  gboolean is_wall = wall->source != JVMS_INTERVAL_NONE && g_strcmp0 (wall->type, type) == 0;
  gboolean is_cpu = !is_wall || (cpu->source != JVMS_INTERVAL_NONE && g_strcmp0 (cpu->type, type) == 0);
  if (is_cpu && (!is_wall || state == NULL || strcmp (state, "STATE_DEFAULT") == 0))
    return JVMS_SAMPLER_CPU;
  return JVMS_SAMPLER_WALL;
}

const JvmsJfrField *
jvms_jfr_recording_batch_field (const JvmsJfrType *type)
{
  const JvmsJfrField *f = jvms_jfr_type_find_field (type, "samples");
  if (f == NULL)
    f = jvms_jfr_type_find_field (type, "samplesCount");
  const char *name = jvms_jfr_type_get_name (type);
  if (f == NULL && name != NULL && g_str_has_prefix (name, "datadog."))
    f = jvms_jfr_type_find_field (type, "weight");
  return f;
}

guint64
jvms_jfr_recording_batch_size (const JvmsJfrEvent *event, const JvmsJfrField *field)
{
  gint64 n = 1;
  if (field == NULL || !jvms_jfr_event_get_int64 (event, field, &n) || n < 1)
    n = 1;
  return (guint64) MIN (n, JVMS_JFR_MAX_BATCH);
}
