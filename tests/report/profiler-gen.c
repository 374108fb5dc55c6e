/* profiler-gen.c: see profiler-gen.h. Type ids are async-profiler's (jfrMetadata.h), so that its
 * settings name its types as it does. */
#include "profiler-gen.h"

#include <string.h>

#include "jfr-writer.h"

enum
{
  T_CLASS = 21, T_THREAD = 22, T_FRAME_TYPE = 24, T_THREAD_STATE = 25, T_STACK_TRACE = 26,
  T_STACK_FRAME = 27, T_METHOD = 28, T_SYMBOL = 31,
  T_EXECUTION_SAMPLE = 101, T_ALLOC_IN_NEW_TLAB = 102, T_ACTIVE_RECORDING = 107,
  T_ACTIVE_SETTING = 108, T_LOG = 116, T_WINDOW = 117, T_WALL_CLOCK_SAMPLE = 119, T_DD_CONFIG = 120,
  T_DD_ENDPOINT = 121,
};

/* A span's leading fields, as both writers declare them: startTime, duration, eventThread. */
static void
span_fields (JfrMd *md)
{
  jfrw_md_start_time (md);
  jfrw_md_elem (md, "field", 1, 2, "name", "duration", "class", "6");
  jfrw_md_elem (md, "annotation", 0, 2, "class", "11", "value", "TICKS");
  jfrw_md_field (md, "eventThread", T_THREAD, TRUE, FALSE);
}

static void
field_cp (JfrMd *md, const char *name, guint64 type)
{
  jfrw_md_field (md, name, type, TRUE, FALSE);
}

static void
field (JfrMd *md, const char *name, guint64 type)
{
  jfrw_md_field (md, name, type, FALSE, FALSE);
}

static void
event_class (JfrMd *md, const char *name, guint64 id, guint n_fields)
{
  char ids[24];
  g_snprintf (ids, sizeof ids, "%" G_GUINT64_FORMAT, id);
  jfrw_md_elem (md, "class", n_fields, 3, "name", name, "id", ids, "superType", "jdk.jfr.Event");
}

static void
simple_class (JfrMd *md, const char *name, guint64 id, const char *field_name)
{
  char ids[24];
  g_snprintf (ids, sizeof ids, "%" G_GUINT64_FORMAT, id);
  jfrw_md_elem (md, "class", 1, 3, "name", name, "id", ids, "simpleType", "true");
  field (md, field_name, JFRW_STRING);
}

/* A long of milliseconds, as ddprof declares its intervals (F_DURATION_MILLIS). */
static void
field_millis (JfrMd *md, const char *name)
{
  jfrw_md_elem (md, "field", 1, 2, "name", name, "class", "6");
  jfrw_md_elem (md, "annotation", 0, 2, "class", "11", "value", "MILLISECONDS");
}

/* ddprof's sample types: the fields jfrMetadata.cpp declares first, in its order. */
static void
dd_sample_class (JfrMd *md, const char *name, guint64 id)
{
  event_class (md, name, id, 5);
  jfrw_md_start_time (md);
  field_cp (md, "eventThread", T_THREAD);
  field_cp (md, "stackTrace", T_STACK_TRACE);
  field_cp (md, "state", T_THREAD_STATE);
  field (md, "weight", JFRW_LONG);
}

static GByteArray *
metadata (gboolean dd_trace)
{
  JfrMd md;
  jfrw_md_init (&md);
  jfrw_md_elem (&md, "root", 2, 0);
  jfrw_md_elem (&md, "metadata", JFRW_N_BASIC_CLASSES + (dd_trace ? 12 : 15), 0);
  jfrw_md_basic_classes (&md);
  jfrw_md_class (&md, "java.lang.Thread", T_THREAD, 4);
  field (&md, "osName", JFRW_STRING);
  field (&md, "osThreadId", JFRW_LONG);
  field (&md, "javaName", JFRW_STRING);
  field (&md, "javaThreadId", JFRW_LONG);
  simple_class (&md, "jdk.types.Symbol", T_SYMBOL, "string");
  jfrw_md_class (&md, "java.lang.Class", T_CLASS, 1);
  field_cp (&md, "name", T_SYMBOL);
  simple_class (&md, "jdk.types.FrameType", T_FRAME_TYPE, "description");
  simple_class (&md, "jdk.types.ThreadState", T_THREAD_STATE, "name");
  jfrw_md_class (&md, "jdk.types.Method", T_METHOD, 3);
  field_cp (&md, "type", T_CLASS);
  field_cp (&md, "name", T_SYMBOL);
  field_cp (&md, "descriptor", T_SYMBOL);
  jfrw_md_class (&md, "jdk.types.StackFrame", T_STACK_FRAME, 4);
  field_cp (&md, "method", T_METHOD);
  field (&md, "lineNumber", JFRW_INT);
  field (&md, "bytecodeIndex", JFRW_INT);
  field_cp (&md, "type", T_FRAME_TYPE);
  jfrw_md_class (&md, "jdk.types.StackTrace", T_STACK_TRACE, 2);
  field (&md, "truncated", JFRW_BOOLEAN);
  jfrw_md_field (&md, "frames", T_STACK_FRAME, FALSE, TRUE);

  if (dd_trace)
    {
      dd_sample_class (&md, "datadog.ExecutionSample", T_EXECUTION_SAMPLE);
      dd_sample_class (&md, "datadog.MethodSample", T_WALL_CLOCK_SAMPLE);
      event_class (&md, "datadog.DatadogProfilerConfig", T_DD_CONFIG, 4);
      jfrw_md_start_time (&md);
      field_millis (&md, "cpuInterval");
      field_millis (&md, "wallInterval");
      field (&md, "version", JFRW_STRING);
      event_class (&md, "datadog.Endpoint", T_DD_ENDPOINT, 5);
      span_fields (&md);
      field (&md, "endpoint", JFRW_STRING);
      field (&md, "operation", JFRW_STRING);
      jfrw_md_region (&md);
      return jfrw_md_finish (&md, 1);
    }
  event_class (&md, "jdk.ExecutionSample", T_EXECUTION_SAMPLE, 4);
  jfrw_md_start_time (&md);
  field_cp (&md, "sampledThread", T_THREAD);
  field_cp (&md, "stackTrace", T_STACK_TRACE);
  field_cp (&md, "state", T_THREAD_STATE);
  event_class (&md, "jdk.ObjectAllocationInNewTLAB", T_ALLOC_IN_NEW_TLAB, 6);
  jfrw_md_start_time (&md);
  field_cp (&md, "eventThread", T_THREAD);
  field_cp (&md, "stackTrace", T_STACK_TRACE);
  field_cp (&md, "objectClass", T_CLASS);
  field (&md, "allocationSize", JFRW_LONG);
  field (&md, "tlabSize", JFRW_LONG);
  event_class (&md, "jdk.ActiveRecording", T_ACTIVE_RECORDING, 1);
  jfrw_md_start_time (&md);
  event_class (&md, "jdk.ActiveSetting", T_ACTIVE_SETTING, 4);
  jfrw_md_start_time (&md);
  field (&md, "id", JFRW_LONG);
  field (&md, "name", JFRW_STRING);
  field (&md, "value", JFRW_STRING);
  event_class (&md, "profiler.Log", T_LOG, 3);
  jfrw_md_start_time (&md);
  field (&md, "level", JFRW_STRING);
  field (&md, "message", JFRW_STRING);
  event_class (&md, "profiler.WallClockSample", T_WALL_CLOCK_SAMPLE, 5);
  jfrw_md_start_time (&md);
  field_cp (&md, "sampledThread", T_THREAD);
  field_cp (&md, "stackTrace", T_STACK_TRACE);
  field_cp (&md, "state", T_THREAD_STATE);
  field (&md, "samples", JFRW_INT);
  event_class (&md, "profiler.Window", T_WINDOW, 3);
  span_fields (&md);
  jfrw_md_region (&md);
  return jfrw_md_finish (&md, 1);
}

/* A string table: each distinct string once, its key its index + 1. */
static guint
key_of (GPtrArray *table, const char *s)
{
  for (guint i = 0; i < table->len; i++)
    if (strcmp (g_ptr_array_index (table, i), s) == 0)
      return i + 1;
  g_ptr_array_add (table, g_strdup (s));
  return table->len;
}

static const char *
sample_state (const ProfilerGenSample *s)
{
  return s->state != NULL ? s->state : s->kind == PROFILER_GEN_CPU ? "STATE_DEFAULT" : NULL;
}

/* The pools: threads, classes, symbols, methods, frame types, states, stacks. */
static GByteArray *
checkpoint (const ProfilerGenThread *threads, guint n_threads, const ProfilerGenStack *stacks,
            guint n_stacks, const ProfilerGenSample *samples, guint n_samples, GPtrArray *states)
{
  g_autoptr(GPtrArray) symbols = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) classes = g_ptr_array_new_with_free_func (g_free);  /* internal names */
  g_autoptr(GPtrArray) methods = g_ptr_array_new_with_free_func (g_free);  /* "class\tname" */
  /* frames[s][f]: method key */
  g_autoptr(GArray) frame_methods = g_array_new (FALSE, TRUE, sizeof (guint));
  for (guint s = 0; s < n_stacks; s++)
    for (guint f = 0; f < 4; f++)
      {
        guint m = 0;
        const char *full = stacks[s].frames[f];
        if (full != NULL)
          {
            const char *dot = strrchr (full, '.');
            g_autofree char *cls = g_strndup (full, dot - full);
            g_strdelimit (cls, ".", '/');
            key_of (classes, cls);
            g_autofree char *key = g_strdup_printf ("%s\t%s", cls, dot + 1);
            m = key_of (methods, key);
          }
        g_array_append_val (frame_methods, m);
      }
  for (guint i = 0; i < n_samples; i++)
    if (sample_state (&samples[i]) != NULL)
      key_of (states, sample_state (&samples[i]));

  JfrW w = { g_byte_array_new () };
  jfrw_checkpoint_begin (&w, 0, 7);
  jfrw_varint (&w, T_THREAD);
  jfrw_varint (&w, n_threads);
  for (guint i = 0; i < n_threads; i++)
    {
      jfrw_varint (&w, i + 1);
      jfrw_utf8 (&w, threads[i].name);
      jfrw_varint (&w, (guint64) threads[i].os_tid);
      jfrw_utf8 (&w, threads[i].name);
      jfrw_varint (&w, i + 1);
    }
  /* Methods refer to classes and symbols: write those after collecting them all. */
  g_autoptr(GByteArray) method_pool = g_byte_array_new ();
  {
    JfrW m = { method_pool };
    jfrw_varint (&m, T_METHOD);
    jfrw_varint (&m, methods->len);
    for (guint i = 0; i < methods->len; i++)
      {
        g_auto(GStrv) parts = g_strsplit (g_ptr_array_index (methods, i), "\t", 2);
        jfrw_varint (&m, i + 1);
        jfrw_varint (&m, key_of (classes, parts[0]));
        jfrw_varint (&m, key_of (symbols, parts[1]));
        jfrw_varint (&m, key_of (symbols, "()V"));
      }
  }
  jfrw_varint (&w, T_CLASS);
  jfrw_varint (&w, classes->len);
  for (guint i = 0; i < classes->len; i++)
    {
      jfrw_varint (&w, i + 1);
      jfrw_varint (&w, key_of (symbols, g_ptr_array_index (classes, i)));
    }
  jfrw_varint (&w, T_SYMBOL);
  jfrw_varint (&w, symbols->len);
  for (guint i = 0; i < symbols->len; i++)
    {
      jfrw_varint (&w, i + 1);
      jfrw_utf8 (&w, g_ptr_array_index (symbols, i));
    }
  jfrw_bytes (&w, method_pool->data, method_pool->len);
  jfrw_varint (&w, T_FRAME_TYPE);
  jfrw_varint (&w, 1);
  jfrw_varint (&w, 1);
  jfrw_utf8 (&w, "JIT compiled");
  jfrw_varint (&w, T_THREAD_STATE);
  jfrw_varint (&w, states->len);
  for (guint i = 0; i < states->len; i++)
    {
      jfrw_varint (&w, i + 1);
      jfrw_utf8 (&w, g_ptr_array_index (states, i));
    }
  jfrw_varint (&w, T_STACK_TRACE);
  jfrw_varint (&w, n_stacks);
  for (guint s = 0; s < n_stacks; s++)
    {
      guint n = 0;
      while (n < 4 && stacks[s].frames[n] != NULL)
        n++;
      jfrw_varint (&w, s + 1);
      jfrw_u8 (&w, 0);         /* truncated */
      jfrw_varint (&w, n);
      for (guint f = 0; f < n; f++)
        {
          jfrw_varint (&w, g_array_index (frame_methods, guint, s * 4 + f));
          jfrw_varint (&w, 10 + f); /* lineNumber */
          jfrw_varint (&w, 0);      /* bytecodeIndex */
          jfrw_varint (&w, 1);      /* type: JIT compiled */
        }
    }
  return w.b;
}

static void
setting (JfrW *file, JfrChunkW *c, guint64 id, const char *name, const char *value)
{
  if (value == NULL)
    return;
  JfrW e = { g_byte_array_new () };
  jfrw_varint (&e, 0);
  jfrw_varint (&e, id);
  jfrw_utf8 (&e, name);
  jfrw_utf8 (&e, value);
  jfrw_chunk_record (file, c, T_ACTIVE_SETTING, e.b);
  g_byte_array_unref (e.b);
}

/* The header's duration (jfrw_chunk_end writes 1 s): at offset 40, big-endian. */
static void
set_duration (GByteArray *b, gsize start, gint64 duration)
{
  for (guint i = 0; i < 8; i++)
    b->data[start + 40 + i] = (guint8) ((guint64) duration >> (8 * (7 - i)));
}

/* A span (profiler.Window, datadog.Endpoint): FALSE for any other kind. */
static gboolean
span_event (JfrW *w, JfrChunkW *c, const ProfilerGenSample *s)
{
  if (s->kind != PROFILER_GEN_WINDOW && s->kind != PROFILER_GEN_ENDPOINT)
    return FALSE;
  JfrW e = { g_byte_array_new () };
  jfrw_varint (&e, (guint64) s->time);
  jfrw_varint (&e, (guint64) s->duration);
  jfrw_varint (&e, s->thread + 1);
  if (s->kind == PROFILER_GEN_ENDPOINT)
    {
      jfrw_utf8 (&e, s->endpoint);
      jfrw_utf8 (&e, "servlet.request");
    }
  jfrw_chunk_record (w, c, s->kind == PROFILER_GEN_WINDOW ? T_WINDOW : T_DD_ENDPOINT, e.b);
  g_byte_array_unref (e.b);
  return TRUE;
}

/* ddprof's events: its config, then each sample with its state and weight. */
static void
dd_events (JfrW *w, JfrChunkW *c, const ProfilerGenSettings *settings,
           const ProfilerGenSample *samples, guint n_samples, GPtrArray *states)
{
  if (settings->dd_cpu_interval_ms > 0 || settings->dd_wall_interval_ms > 0)
    {
      JfrW e = { g_byte_array_new () };
      jfrw_varint (&e, 0);
      jfrw_varint (&e, (guint64) settings->dd_cpu_interval_ms);
      jfrw_varint (&e, (guint64) settings->dd_wall_interval_ms);
      jfrw_utf8 (&e, "1.2.3");
      jfrw_chunk_record (w, c, T_DD_CONFIG, e.b);
      g_byte_array_unref (e.b);
    }
  for (guint i = 0; i < n_samples; i++)
    {
      const ProfilerGenSample *s = &samples[i];
      g_assert (s->kind == PROFILER_GEN_CPU || s->kind == PROFILER_GEN_WALL || s->kind == PROFILER_GEN_ENDPOINT);
      if (span_event (w, c, s))
        continue;
      JfrW e = { g_byte_array_new () };
      jfrw_varint (&e, (guint64) s->time);
      jfrw_varint (&e, s->thread + 1);
      jfrw_varint (&e, s->stack + 1);
      jfrw_varint (&e, sample_state (s) != NULL ? key_of (states, sample_state (s)) : 0);
      jfrw_varint (&e, MAX (s->samples, 1));
      jfrw_chunk_record (w, c, s->kind == PROFILER_GEN_CPU ? T_EXECUTION_SAMPLE : T_WALL_CLOCK_SAMPLE, e.b);
      g_byte_array_unref (e.b);
    }
}

GBytes *
profiler_gen_build (const ProfilerGenSettings *settings, const ProfilerGenThread *threads,
                    guint n_threads, const ProfilerGenStack *stacks, guint n_stacks,
                    const ProfilerGenSample *samples, guint n_samples, gint64 duration)
{
  JfrW w = { g_byte_array_new () };
  JfrChunkW c = { .start_nanos = PROFILER_GEN_START_NANOS };
  jfrw_chunk_begin (&w, &c);
  g_autoptr(GPtrArray) states = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GByteArray) cp = checkpoint (threads, n_threads, stacks, n_stacks, samples, n_samples, states);
  jfrw_chunk_record (&w, &c, 1, cp);
  g_autoptr(GByteArray) md = metadata (settings->dd_trace);
  jfrw_chunk_record (&w, &c, 0, md);
  if (settings->dd_trace)
    {
      dd_events (&w, &c, settings, samples, n_samples, states);
      jfrw_chunk_end (&w, &c);
      set_duration (w.b, c.start, duration);
      return g_byte_array_free_to_bytes (w.b);
    }

  setting (&w, &c, T_ACTIVE_RECORDING, "version", settings->version);
  setting (&w, &c, T_ACTIVE_RECORDING, "event", settings->event);
  setting (&w, &c, T_EXECUTION_SAMPLE, "enabled", "true");
  setting (&w, &c, T_EXECUTION_SAMPLE, "interval", settings->interval);
  setting (&w, &c, T_EXECUTION_SAMPLE, "wall", settings->wall);
  {
    JfrW e = { g_byte_array_new () };
    jfrw_varint (&e, 0);
    jfrw_utf8 (&e, "WARN");
    jfrw_utf8 (&e, "a warning of the profiler\nover two lines");
    jfrw_chunk_record (&w, &c, T_LOG, e.b);
    g_byte_array_unref (e.b);
  }
  for (guint i = 0; i < n_samples; i++)
    {
      const ProfilerGenSample *s = &samples[i];
      g_assert (s->kind != PROFILER_GEN_ENDPOINT);
      if (span_event (&w, &c, s))
        continue;
      JfrW e = { g_byte_array_new () };
      guint state = sample_state (s) != NULL ? key_of (states, sample_state (s)) : 0;
      jfrw_varint (&e, (guint64) s->time);
      jfrw_varint (&e, s->thread + 1);
      jfrw_varint (&e, s->stack + 1);
      switch (s->kind)
        {
        case PROFILER_GEN_CPU:
          jfrw_varint (&e, state);
          jfrw_chunk_record (&w, &c, T_EXECUTION_SAMPLE, e.b);
          break;
        case PROFILER_GEN_WALL:
          jfrw_varint (&e, state);
          jfrw_varint (&e, MAX (s->samples, 1));
          jfrw_chunk_record (&w, &c, T_WALL_CLOCK_SAMPLE, e.b);
          break;
        case PROFILER_GEN_ALLOC:
        default:
          jfrw_varint (&e, 1);       /* objectClass: the first class of the pool */
          jfrw_varint (&e, 64);      /* allocationSize */
          jfrw_varint (&e, 65536);   /* tlabSize */
          jfrw_chunk_record (&w, &c, T_ALLOC_IN_NEW_TLAB, e.b);
          break;
        }
      g_byte_array_unref (e.b);
    }
  jfrw_chunk_end (&w, &c);
  set_duration (w.b, c.start, duration);
  return g_byte_array_free_to_bytes (w.b);
}

void
profiler_gen_write (const char *path, const ProfilerGenSettings *settings,
                    const ProfilerGenThread *threads, guint n_threads, const ProfilerGenStack *stacks,
                    guint n_stacks, const ProfilerGenSample *samples, guint n_samples, gint64 duration)
{
  g_autoptr(GBytes) bytes = profiler_gen_build (settings, threads, n_threads, stacks, n_stacks,
                                                samples, n_samples, duration);
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);
  g_autoptr(GError) error = NULL;
  g_file_set_contents (path, data, (gssize) size, &error);
  g_assert_no_error (error);
}
