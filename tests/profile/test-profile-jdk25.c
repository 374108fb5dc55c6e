/* JDK 25's profiling events, read and indexed: jdk.CPUTimeSample (JEP 509, weighted by its own
 * samplingPeriod, a CPU sampler), jdk.MethodTrace (JEP 520, by its duration) and jdk.MethodTiming
 * (JEP 520, the method table's exact columns); and the stack table's bad-input rules on a real
 * stack: JFR's truncated flag gives a [truncated] root frame, a method id missing from the
 * constant pool an [unknown] frame. JDK 25 is not installed: the file is written here byte by
 * byte, with the field layouts of JDK 25's metadata.xml (`--write PATH` writes it alone). */
#include <glib/gstdio.h>
#include <string.h>

#include "jvms-profile.h"
#include "jvms-report.h"
#include "jvms-trace-index.h"

/* ---- bytes ---------------------------------------------------------------------------------- */

static void
u8 (GByteArray *b, guint8 v)
{
  g_byte_array_append (b, &v, 1);
}

/* JFR's compressed integers: 7 bits a byte, the ninth byte whole. */
static void
varint (GByteArray *b, guint64 v)
{
  for (int i = 0; i < 8 && v >= 0x80; i++, v >>= 7)
    u8 (b, (guint8) (v | 0x80));
  u8 (b, (guint8) v);
}

static void
utf8 (GByteArray *b, const char *s)
{
  u8 (b, 3);            /* string encoding 3: UTF-8 bytes with a length */
  varint (b, strlen (s));
  g_byte_array_append (b, (const guint8 *) s, (guint) strlen (s));
}

static void
big_endian (GByteArray *b, guint64 v, guint n)
{
  while (n-- > 0)
    u8 (b, (guint8) (v >> (8 * n)));
}

/* A record: its size as a 4-byte padded varint (as HotSpot writes it), its type, its payload. */
static void
record (GByteArray *file, guint64 type, GByteArray *payload)
{
  g_autoptr(GByteArray) body = g_byte_array_new ();
  varint (body, type);
  g_byte_array_append (body, payload->data, payload->len);
  guint64 size = body->len + 4;
  for (int i = 0; i < 3; i++)
    u8 (file, (guint8) (((size >> (7 * i)) & 0x7f) | 0x80));
  u8 (file, (guint8) ((size >> 21) & 0x7f));
  g_byte_array_append (file, body->data, body->len);
}

/* ---- metadata: elements with attributes, strings by index ------------------------------------ */

typedef struct
{
  GPtrArray  *strings;
  GByteArray *tree;
} Metadata;

static guint
string_index (Metadata *m, const char *s)
{
  for (guint i = 0; i < m->strings->len; i++)
    if (strcmp (g_ptr_array_index (m->strings, i), s) == 0)
      return i;
  g_ptr_array_add (m->strings, g_strdup (s));
  return m->strings->len - 1;
}

/* An element: name, attributes as NULL-terminated key/value pairs, then its children count. */
static void
element (Metadata *m, const char *name, guint n_children, ...)
{
  va_list ap;
  g_autoptr(GPtrArray) attrs = g_ptr_array_new ();
  va_start (ap, n_children);
  for (const char *k; (k = va_arg (ap, const char *)) != NULL;)
    {
      g_ptr_array_add (attrs, (gpointer) k);
      g_ptr_array_add (attrs, va_arg (ap, char *));
    }
  va_end (ap);
  varint (m->tree, string_index (m, name));
  varint (m->tree, attrs->len / 2);
  for (guint i = 0; i < attrs->len; i++)
    varint (m->tree, string_index (m, g_ptr_array_index (attrs, i)));
  varint (m->tree, n_children);
}

/* A field, with an optional annotation (@Timestamp / @Timespan "TICKS"). */
static void
field (Metadata *m, const char *name, const char *class_id, gboolean pool, gboolean array,
       const char *annotation)
{
  const char *cp = pool ? "true" : NULL;
  guint n = annotation != NULL;
  if (array && pool)
    element (m, "field", n, "name", name, "class", class_id, "constantPool", cp, "dimension", "1", NULL);
  else if (array)
    element (m, "field", n, "name", name, "class", class_id, "dimension", "1", NULL);
  else if (pool)
    element (m, "field", n, "name", name, "class", class_id, "constantPool", cp, NULL);
  else
    element (m, "field", n, "name", name, "class", class_id, NULL);
  if (annotation != NULL)
    element (m, "annotation", 0, "class", annotation, "value", "TICKS", NULL);
}

enum
{
  T_BOOLEAN = 4, T_INT = 8, T_LONG = 9, T_STRING = 10,
  T_THREAD = 20, T_SYMBOL = 22, T_CLASS = 23, T_METHOD = 24, T_FRAME = 25, T_FRAME_TYPE = 26,
  T_STACK = 27, A_TIMESTAMP = 40, A_TIMESPAN = 41,
  E_CPU_TIME = 60, E_METHOD_TRACE = 61, E_METHOD_TIMING = 62, E_EXECUTION = 63,
};

static GByteArray *
metadata (void)
{
  Metadata m = { g_ptr_array_new_with_free_func (g_free), g_byte_array_new () };
  element (&m, "root", 2, NULL);
  element (&m, "metadata", 17, NULL);
  element (&m, "class", 0, "name", "boolean", "id", "4", NULL);
  element (&m, "class", 0, "name", "int", "id", "8", NULL);
  element (&m, "class", 0, "name", "long", "id", "9", NULL);
  element (&m, "class", 0, "name", "java.lang.String", "id", "10", NULL);
  element (&m, "class", 4, "name", "java.lang.Thread", "id", "20", NULL);
  field (&m, "osName", "10", FALSE, FALSE, NULL);
  field (&m, "osThreadId", "9", FALSE, FALSE, NULL);
  field (&m, "javaName", "10", FALSE, FALSE, NULL);
  field (&m, "javaThreadId", "9", FALSE, FALSE, NULL);
  element (&m, "class", 1, "name", "jdk.types.Symbol", "id", "22", "simpleType", "true", NULL);
  field (&m, "string", "10", FALSE, FALSE, NULL);
  element (&m, "class", 1, "name", "java.lang.Class", "id", "23", NULL);
  field (&m, "name", "22", TRUE, FALSE, NULL);
  element (&m, "class", 5, "name", "jdk.types.Method", "id", "24", NULL);
  field (&m, "type", "23", TRUE, FALSE, NULL);
  field (&m, "name", "22", TRUE, FALSE, NULL);
  field (&m, "descriptor", "22", TRUE, FALSE, NULL);
  field (&m, "modifiers", "8", FALSE, FALSE, NULL);
  field (&m, "hidden", "4", FALSE, FALSE, NULL);
  element (&m, "class", 4, "name", "jdk.types.StackFrame", "id", "25", NULL);
  field (&m, "method", "24", TRUE, FALSE, NULL);
  field (&m, "lineNumber", "8", FALSE, FALSE, NULL);
  field (&m, "bytecodeIndex", "8", FALSE, FALSE, NULL);
  field (&m, "type", "26", TRUE, FALSE, NULL);
  element (&m, "class", 1, "name", "jdk.types.FrameType", "id", "26", "simpleType", "true", NULL);
  field (&m, "description", "10", FALSE, FALSE, NULL);
  element (&m, "class", 2, "name", "jdk.types.StackTrace", "id", "27", NULL);
  field (&m, "truncated", "4", FALSE, FALSE, NULL);
  field (&m, "frames", "25", FALSE, TRUE, NULL);
  element (&m, "class", 0, "name", "jdk.jfr.Timestamp", "id", "40", "superType", "java.lang.annotation.Annotation", NULL);
  element (&m, "class", 0, "name", "jdk.jfr.Timespan", "id", "41", "superType", "java.lang.annotation.Annotation", NULL);
  /* JDK 25, metadata.xml: CPUTimeSample (thread="false", stackTrace and eventThread declared). */
  element (&m, "class", 6, "name", "jdk.CPUTimeSample", "id", "60", "superType", "jdk.jfr.Event", NULL);
  field (&m, "startTime", "9", FALSE, FALSE, "40");
  field (&m, "stackTrace", "27", TRUE, FALSE, NULL);
  field (&m, "eventThread", "20", TRUE, FALSE, NULL);
  field (&m, "failed", "4", FALSE, FALSE, NULL);
  field (&m, "samplingPeriod", "9", FALSE, FALSE, "41");
  field (&m, "biased", "4", FALSE, FALSE, NULL);
  /* MethodTrace: thread, stackTrace and duration (startTime="true"), then method. */
  element (&m, "class", 5, "name", "jdk.MethodTrace", "id", "61", "superType", "jdk.jfr.Event", NULL);
  field (&m, "startTime", "9", FALSE, FALSE, "40");
  field (&m, "duration", "9", FALSE, FALSE, "41");
  field (&m, "eventThread", "20", TRUE, FALSE, NULL);
  field (&m, "stackTrace", "27", TRUE, FALSE, NULL);
  field (&m, "method", "24", TRUE, FALSE, NULL);
  /* MethodTiming: no thread, no stack, periodic. */
  element (&m, "class", 6, "name", "jdk.MethodTiming", "id", "62", "superType", "jdk.jfr.Event", NULL);
  field (&m, "startTime", "9", FALSE, FALSE, "40");
  field (&m, "method", "24", TRUE, FALSE, NULL);
  field (&m, "invocations", "9", FALSE, FALSE, NULL);
  field (&m, "minimum", "9", FALSE, FALSE, "41");
  field (&m, "average", "9", FALSE, FALSE, "41");
  field (&m, "maximum", "9", FALSE, FALSE, "41");
  element (&m, "class", 3, "name", "jdk.ExecutionSample", "id", "63", "superType", "jdk.jfr.Event", NULL);
  field (&m, "startTime", "9", FALSE, FALSE, "40");
  field (&m, "sampledThread", "20", TRUE, FALSE, NULL);
  field (&m, "stackTrace", "27", TRUE, FALSE, NULL);
  element (&m, "region", 0, "gmtOffset", "0", NULL);

  GByteArray *p = g_byte_array_new ();
  varint (p, 0);             /* startTime */
  varint (p, 0);             /* duration */
  varint (p, 1);             /* metadata id */
  varint (p, m.strings->len);
  for (guint i = 0; i < m.strings->len; i++)
    utf8 (p, g_ptr_array_index (m.strings, i));
  g_byte_array_append (p, m.tree->data, m.tree->len);
  g_byte_array_unref (m.tree);
  g_ptr_array_unref (m.strings);
  return p;
}

#define START_NANOS G_GINT64_CONSTANT (1750000000000000000)
#define START_TICKS 1000

/* Threads, symbols, classes, methods, frame types and three stack traces. */
static GByteArray *
checkpoint (void)
{
  GByteArray *p = g_byte_array_new ();
  varint (p, START_TICKS);
  varint (p, 0);
  varint (p, 0);              /* delta to the previous checkpoint: none */
  u8 (p, 0);                  /* kind */
  varint (p, 6);              /* pools */
  varint (p, T_THREAD); varint (p, 1);
  varint (p, 1); utf8 (p, "main"); varint (p, 4242); utf8 (p, "main"); varint (p, 1);
  varint (p, T_SYMBOL); varint (p, 6);
  varint (p, 1); utf8 (p, "com/example/Hot");
  varint (p, 2); utf8 (p, "compute");
  varint (p, 3); utf8 (p, "run");
  varint (p, 4); utf8 (p, "com/example/Main$Inner");
  varint (p, 5); utf8 (p, "main");
  varint (p, 6); utf8 (p, "()V");
  varint (p, T_CLASS); varint (p, 2);
  varint (p, 10); varint (p, 1);
  varint (p, 11); varint (p, 4);
  varint (p, T_METHOD); varint (p, 3);
  varint (p, 50); varint (p, 10); varint (p, 2); varint (p, 6); varint (p, 1); u8 (p, 0);  /* Hot.compute */
  varint (p, 51); varint (p, 10); varint (p, 3); varint (p, 6); varint (p, 1); u8 (p, 0);  /* Hot.run */
  varint (p, 52); varint (p, 11); varint (p, 5); varint (p, 6); varint (p, 9); u8 (p, 0);  /* Main$Inner.main */
  varint (p, T_FRAME_TYPE); varint (p, 3);
  varint (p, 1); utf8 (p, "JIT compiled");
  varint (p, 2); utf8 (p, "Interpreted");
  varint (p, 3); utf8 (p, "Inlined");
  varint (p, T_STACK); varint (p, 3);
  /* 100: compute <- run <- main */
  varint (p, 100); u8 (p, 0); varint (p, 3);
  varint (p, 50); varint (p, 12); varint (p, 4); varint (p, 1);
  varint (p, 51); varint (p, 20); varint (p, 7); varint (p, 3);
  varint (p, 52); varint (p, 30); varint (p, 1); varint (p, 2);
  /* 101: compute, the rest cut off by the JVM's depth limit */
  varint (p, 101); u8 (p, 1); varint (p, 1);
  varint (p, 50); varint (p, 12); varint (p, 4); varint (p, 1);
  /* 102: a method id (999) the chunk never defines, called from main */
  varint (p, 102); u8 (p, 0); varint (p, 2);
  varint (p, 999); varint (p, 5); varint (p, 0); varint (p, 1);
  varint (p, 52); varint (p, 30); varint (p, 1); varint (p, 2);
  return p;
}

static GBytes *
build_file (void)
{
  g_autoptr(GByteArray) file = g_byte_array_new ();
  g_byte_array_set_size (file, 68);
  memset (file->data, 0, 68);
  g_autoptr(GByteArray) cp = checkpoint ();
  guint64 cp_offset = file->len;
  record (file, 1, cp);
  g_autoptr(GByteArray) md = metadata ();
  guint64 md_offset = file->len;
  record (file, 0, md);

  /* CPU time samples: two on the full stack, one truncated; 5 ms periods (1 tick = 1 ns). */
  guint64 stacks[] = { 100, 100, 101 };
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(GByteArray) e = g_byte_array_new ();
      varint (e, START_TICKS + 1000 * (i + 1));
      varint (e, stacks[i]);
      varint (e, 1);
      u8 (e, 0);
      varint (e, 5000000);
      u8 (e, i == 2);
      record (file, E_CPU_TIME, e);
    }
  /* Method traces of Hot.compute: 2 ms and 3 ms. */
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GByteArray) e = g_byte_array_new ();
      varint (e, START_TICKS + 5000 + 100 * i);
      varint (e, 2000000 + 1000000 * i);
      varint (e, 1);
      varint (e, 100);
      varint (e, 50);
      record (file, E_METHOD_TRACE, e);
    }
  /* An execution sample on the stack with an undefined method. */
  {
    g_autoptr(GByteArray) e = g_byte_array_new ();
    varint (e, START_TICKS + 6000);
    varint (e, 1);
    varint (e, 102);
    record (file, E_EXECUTION, e);
  }
  /* Method timing of Hot.compute at the chunk's end. */
  {
    g_autoptr(GByteArray) e = g_byte_array_new ();
    varint (e, START_TICKS + 9000);
    varint (e, 50);
    varint (e, 1234);
    varint (e, 150);
    varint (e, 2500);
    varint (e, 3000000);
    record (file, E_METHOD_TIMING, e);
  }

  g_autoptr(GByteArray) h = g_byte_array_new ();
  g_byte_array_append (h, (const guint8 *) "FLR\0", 4);
  big_endian (h, 2, 2);                  /* major */
  big_endian (h, 1, 2);                  /* minor */
  big_endian (h, file->len, 8);          /* chunk size */
  big_endian (h, cp_offset, 8);
  big_endian (h, md_offset, 8);
  big_endian (h, START_NANOS, 8);
  big_endian (h, 10000, 8);              /* duration ns */
  big_endian (h, START_TICKS, 8);
  big_endian (h, 1000000000, 8);         /* ticks per second */
  big_endian (h, 3, 4);                  /* compressed integers, final chunk */
  memcpy (file->data, h->data, 68);
  return g_bytes_new (file->data, file->len);
}

/* ---- the test ------------------------------------------------------------------------------- */

static JvmsCallTree *
query (JvmsProfile *profile, JvmsProfileKind kind, const char *event_type)
{
  g_autoptr(GError) error = NULL;
  JvmsProfileQuery q = { .from = G_MININT64, .to = G_MAXINT64, .kind = kind, .event_type = event_type };
  JvmsCallTree *tree = jvms_profile_query (profile, &q, NULL, &error);
  g_assert_no_error (error);
  return tree;
}

static void
test_jdk25 (void)
{
  g_autofree char *dir = g_dir_make_tmp ("jvmscope-jdk25-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "jdk25.jfr", NULL);
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);
  g_autoptr(GBytes) bytes = build_file ();
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (path, &error);
  g_assert_no_error (error);
  jvms_trace_index_set_cache_dir (index, cache);
  g_assert_true (jvms_trace_index_load (index, NULL, &error));
  g_assert_no_error (error);
  g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (index);
  g_assert_cmpuint (g_strv_length (warnings), ==, 0);
  g_autoptr(JvmsProfile) profile = jvms_profile_open (jvms_trace_index_get_samples_path (index), &error);
  g_assert_no_error (error);

  /* CPU: the CPU time sampler with the execution sample; the truncated and unknown frames. */
  g_autoptr(JvmsCallTree) cpu = query (profile, JVMS_PROFILE_KIND_CPU, NULL);
  g_autofree char *cpu_folded = jvms_call_tree_to_folded (cpu, 0);
  g_assert_cmpstr (cpu_folded, ==,
                   "com.example.Main$Inner.main;com.example.Hot.run;com.example.Hot.compute 2\n"
                   "[truncated];com.example.Hot.compute 1\n"
                   "com.example.Main$Inner.main;[unknown] 1\n");
  const char * const *types = jvms_call_tree_get_event_types (cpu);
  g_assert_cmpuint (g_strv_length ((GStrv) types), ==, 2);

  /* jdk.CPUTimeSample alone, in samples; in wall time each weighs its samplingPeriod (5 ms),
   * the execution sample its type's default period (20 ms: the file has no setting). */
  g_autoptr(JvmsCallTree) cpu_time = query (profile, JVMS_PROFILE_KIND_EVENT_TYPE, "jdk.CPUTimeSample");
  g_assert_cmpuint (jvms_call_tree_get_total (cpu_time), ==, 3);
  g_assert_cmpstr (jvms_call_tree_get_unit (cpu_time), ==, "samples");
  g_autoptr(JvmsCallTree) wall = query (profile, JVMS_PROFILE_KIND_WALL, NULL);
  g_assert_cmpuint (jvms_call_tree_get_total (wall), ==, 3 * 5000000 + 20000000);

  /* jdk.MethodTrace: durations, in ns, on the traced stack. */
  g_autoptr(JvmsCallTree) trace = query (profile, JVMS_PROFILE_KIND_EVENT_TYPE, "jdk.MethodTrace");
  g_autofree char *trace_folded = jvms_call_tree_to_folded (trace, 0);
  g_assert_cmpstr (trace_folded, ==, "com.example.Main$Inner.main;com.example.Hot.run;com.example.Hot.compute 5000000\n");
  g_assert_cmpstr (jvms_call_tree_get_unit (trace), ==, "ns");

  /* jdk.MethodTiming: the exact columns of Hot.compute's row; frame kinds kept per node. */
  gboolean seen = FALSE;
  for (guint i = 0; i < jvms_call_tree_get_n_methods (cpu); i++)
    {
      const JvmsCallTreeMethod *m = jvms_call_tree_get_method_row (cpu, i);
      if (strcmp (jvms_call_tree_get_method_name (cpu, m->method), "com.example.Hot.compute") != 0)
        continue;
      seen = TRUE;
      g_assert_cmpint (m->invocations, ==, 1234);
      g_assert_cmpint (m->time_min, ==, 150);
      g_assert_cmpint (m->time_avg, ==, 2500);
      g_assert_cmpint (m->time_max, ==, 3000000);
      g_assert_cmpuint (m->self, ==, 3);
    }
  g_assert_true (seen);
  const JvmsCallTreeNode *main_node = jvms_call_tree_get_node (cpu, jvms_call_tree_get_node (cpu, 0)->first_child);
  g_assert_cmpstr (jvms_call_tree_get_method_name (cpu, main_node->method), ==, "com.example.Main$Inner.main");
  g_assert_cmpuint (main_node->frame_kinds, ==, 1u << JVMS_FRAME_KIND_INTERPRETED);
  const JvmsCallTreeNode *run_node = jvms_call_tree_get_node (cpu, main_node->first_child);
  g_assert_cmpuint (run_node->frame_kinds, ==, 1u << JVMS_FRAME_KIND_INLINED);

  /* What the window's kind chooser offers: the kinds with samples in the store. */
  g_assert_cmpuint (jvms_profile_count_samples (profile, JVMS_PROFILE_KIND_CPU, NULL), ==, 4);
  g_assert_cmpuint (jvms_profile_count_samples (profile, JVMS_PROFILE_KIND_WALL, NULL), ==, 4);
  g_assert_cmpuint (jvms_profile_count_samples (profile, JVMS_PROFILE_KIND_EVENT_TYPE, "jdk.MethodTrace"), ==, 2);
  g_assert_cmpuint (jvms_profile_count_samples (profile, JVMS_PROFILE_KIND_EVENT_TYPE, "jdk.CPUTimeSample"), ==, 3);
  g_assert_cmpuint (jvms_profile_count_samples (profile, JVMS_PROFILE_KIND_EVENT_TYPE, "jdk.ThreadPark"), ==, 0);
  g_assert_cmpuint (jvms_profile_count_samples (profile, JVMS_PROFILE_KIND_CPU_WAITING, NULL), ==, 0);
  for (JvmsProfileKind k = JVMS_PROFILE_KIND_ALLOC; k <= JVMS_PROFILE_KIND_EXCEPTION; k++)
    g_assert_cmpuint (jvms_profile_count_samples (profile, k, NULL), ==, 0);

  /* The report says what the recording holds: CPU-time samples every 5 ms (their
   * samplingPeriod), the execution sample beside them listed and not counted; program logic
   * estimated from the three CPU-time samples, led by the method on their stacks' tops. */
  g_autoptr(JvmsHistory) history = jvms_trace_index_dup_history (index);
  JvmsReportOptions options = {
    .from = jvms_history_get_start_time (history), .to = jvms_history_get_end_time (history),
    .samples_path = jvms_trace_index_get_samples_path (index),
  };
  g_autoptr(JvmsReport) report = jvms_report_compute (history, &options, &error);
  g_assert_no_error (error);
  const JvmsSamplerInfo *cpu_sampler = &report->recording->samplers[JVMS_SAMPLER_CPU];
  g_assert_cmpstr (cpu_sampler->type, ==, "jdk.CPUTimeSample");
  g_assert_cmpint (cpu_sampler->ns, ==, 5000000);
  g_assert_cmpint (report->recording->samplers[JVMS_SAMPLER_EXECUTION].source, ==, JVMS_INTERVAL_DEFAULT);
  g_autofree char *said = jvms_recording_info_describe (report->recording, FALSE);
  g_assert_cmpstr (said, ==, "sampled by the JDK: CPU time every 5 ms, execution samples every 20 ms "
                             "(the writer's default), not counted beside CPU time; no thread states recorded");
  g_assert_cmpuint (report->findings->len, ==, 1);
  const JvmsFinding *logic = g_ptr_array_index (report->findings, 0);
  g_assert_cmpint (logic->kind, ==, JVMS_FINDING_PROGRAM_LOGIC);
  g_assert_cmpint (logic->estimated_ns, ==, 3 * 5000000);
  g_assert_cmpint (logic->evidence.execution_samples, ==, 3);
  g_assert_cmpuint (logic->evidence.hot_methods->len, ==, 1);
  const JvmsEvidenceAmount *hot = &g_array_index (logic->evidence.hot_methods, JvmsEvidenceAmount, 0);
  g_assert_cmpstr (hot->name, ==, "com.example.Hot.compute");
  g_assert_cmpint (hot->value, ==, 3);
  /* The thread's sample counters: the CPU-time samples, and nothing of the execution sample. */
  g_assert_cmpuint (report->threads->len, ==, 1);
  const JvmsReportThread *main_thread = &g_array_index (report->threads, JvmsReportThread, 0);
  for (guint k = 0; k < JVMS_SAMPLED_N; k++)
    g_assert_cmpuint (main_thread->sampled[k], ==, k == JVMS_SAMPLED_CPU ? 3 : 0);
  /* The index's own counts, which the threads view's sample lanes and the recording's totals
   * are: the indexer (feed_sampled in jvms-jfr-machine.c) skips the execution sample beside
   * CPU-time samples. The checks above cannot see that skip: an execution sample the indexer
   * counted would be of kind "unknown" (a wall-clock sample without a state: it is not the CPU
   * sampler's type), which the report's estimate charges nothing (the recording has no
   * wall-clock sampler, so no interval), and the profile reads the store, which keeps every
   * sample anyway. So: Threads/4242/samples holds the three CPU samples and no other kind, and
   * the recording's totals say the same. */
  JvmsAttribute samples_folder = jvms_history_lookup (history, "Threads/4242/samples");
  g_assert_cmpuint (samples_folder, !=, JVMS_ATTRIBUTE_INVALID);
  g_autoptr(GArray) sampled = jvms_history_list_children (history, samples_folder);
  g_assert_cmpuint (sampled->len, ==, 1);
  JvmsAttribute cpu_count = g_array_index (sampled, JvmsAttribute, 0);
  g_assert_cmpstr (jvms_history_get_name (history, cpu_count), ==, jvms_sampled_name (JVMS_SAMPLED_CPU));
  JvmsInterval last;
  g_assert_true (jvms_history_query_single (history, cpu_count, jvms_history_get_end_time (history), &last, &error));
  g_assert_no_error (error);
  g_assert_cmpint (last.value.type, ==, JVMS_VALUE_INT);
  g_assert_cmpint (last.value.i, ==, 3);
  for (guint k = 0; k < JVMS_SAMPLED_N; k++)
    g_assert_cmpuint (report->recording->totals[k], ==, k == JVMS_SAMPLED_CPU ? 3 : 0);
  g_autofree char *text = jvms_report_to_text (report, "jdk25.jfr");
  g_assert_null (strstr (text, "[unknown] samples"));
  g_assert_nonnull (strstr (text, "stacks (jdk.CPUTimeSample)"));
  g_clear_pointer (&report, jvms_report_free);
  g_clear_pointer (&history, jvms_history_unref);

  g_unlink (path);
  g_clear_object (&profile);
  g_clear_object (&index);
  g_autoptr(GDir) d = g_dir_open (cache, 0, NULL);
  for (const char *name; d != NULL && (name = g_dir_read_name (d)) != NULL;)
    {
      g_autofree char *p = g_build_filename (cache, name, NULL);
      g_unlink (p);
    }
  g_rmdir (cache);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  /* `test-profile-jdk25 --write PATH` writes the file alone: to open it in the window. */
  if (argc == 3 && strcmp (argv[1], "--write") == 0)
    {
      g_autoptr(GBytes) bytes = build_file ();
      return g_file_set_contents (argv[2], g_bytes_get_data (bytes, NULL),
                                  (gssize) g_bytes_get_size (bytes), NULL) ? 0 : 1;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/jdk25", test_jdk25);
  return g_test_run ();
}
