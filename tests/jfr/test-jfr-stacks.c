/* Stack traces on files built byte by byte (issue 18's bad input): what a profiler needs to
 * draw [truncated] and [unknown] frames, and that no frame count, depth or string length is
 * trusted beyond what its record holds. Layout of the types as HotSpot writes them (see
 * ../shared/docs/jfr-format.md): StackTrace {truncated, frames: StackFrame[]}, StackFrame
 * {method (pool), lineNumber, bytecodeIndex, type (pool)}, Method {type (class, pool), name,
 * descriptor (symbols, pool), modifiers, hidden}, Class {name (symbol, pool)}. */
#include <string.h>

#include "jfr-writer.h"
#include "jvms-jfr.h"

enum
{
  ID_THREAD = 20, ID_STACK = 21, ID_FRAME = 22, ID_METHOD = 23, ID_CLASS = 24, ID_SYMBOL = 25,
  ID_FRAMETYPE = 26, ID_EVENT = 30,
};

/* Stack trace keys and what they hold. */
enum
{
  STACK_OK = 1,        /* three frames, all resolved */
  STACK_TRUNCATED,     /* the file's truncated flag */
  STACK_UNKNOWN,       /* the middle frame's method key is not in the pool */
  STACK_NO_CLASS,      /* the top frame's method names a class not in the pool */
  STACK_DEEP,          /* 9,000 frames: more than the reader decodes (8,192) */
  STACK_LYING,         /* claims 2^31 frames, holds two: the last constant of the record */
  N_STACKS = STACK_LYING,
};

#define DEEP_FRAMES 9000
#define UNDEFINED_METHOD 999

static void
class_elem (JfrMd *md, const char *name, guint64 id, guint n_fields)
{
  jfrw_md_class (md, name, id, n_fields);
}

static GByteArray *
metadata (void)
{
  JfrMd md;
  jfrw_md_init (&md);
  jfrw_md_elem (&md, "root", 2, 0);
  jfrw_md_elem (&md, "metadata", JFRW_N_BASIC_CLASSES + 8, 0);
  jfrw_md_basic_classes (&md);
  class_elem (&md, "java.lang.Thread", ID_THREAD, 1);
  jfrw_md_field (&md, "javaName", JFRW_STRING, FALSE, FALSE);
  class_elem (&md, "jdk.types.StackTrace", ID_STACK, 2);
  jfrw_md_field (&md, "truncated", JFRW_BOOLEAN, FALSE, FALSE);
  jfrw_md_field (&md, "frames", ID_FRAME, FALSE, TRUE);
  class_elem (&md, "jdk.types.StackFrame", ID_FRAME, 4);
  jfrw_md_field (&md, "method", ID_METHOD, TRUE, FALSE);
  jfrw_md_field (&md, "lineNumber", JFRW_INT, FALSE, FALSE);
  jfrw_md_field (&md, "bytecodeIndex", JFRW_INT, FALSE, FALSE);
  jfrw_md_field (&md, "type", ID_FRAMETYPE, TRUE, FALSE);
  class_elem (&md, "jdk.types.Method", ID_METHOD, 5);
  jfrw_md_field (&md, "type", ID_CLASS, TRUE, FALSE);
  jfrw_md_field (&md, "name", ID_SYMBOL, TRUE, FALSE);
  jfrw_md_field (&md, "descriptor", ID_SYMBOL, TRUE, FALSE);
  jfrw_md_field (&md, "modifiers", JFRW_INT, FALSE, FALSE);
  jfrw_md_field (&md, "hidden", JFRW_BOOLEAN, FALSE, FALSE);
  class_elem (&md, "java.lang.Class", ID_CLASS, 1);
  jfrw_md_field (&md, "name", ID_SYMBOL, TRUE, FALSE);
  jfrw_md_elem (&md, "class", 1, 3, "name", "jdk.types.Symbol", "id", "25", "simpleType", "true");
  jfrw_md_field (&md, "string", JFRW_STRING, FALSE, FALSE);
  jfrw_md_elem (&md, "class", 1, 3, "name", "jdk.types.FrameType", "id", "26", "simpleType", "true");
  jfrw_md_field (&md, "description", JFRW_STRING, FALSE, FALSE);
  jfrw_md_elem (&md, "class", 3, 3, "name", "test.Sample", "id", "30", "superType", "jdk.jfr.Event");
  jfrw_md_start_time (&md);
  jfrw_md_field (&md, "eventThread", ID_THREAD, TRUE, FALSE);
  jfrw_md_field (&md, "stackTrace", ID_STACK, TRUE, FALSE);
  jfrw_md_region (&md);
  return jfrw_md_finish (&md, 1);
}

/* A frame: method key, line, bytecode index, frame type key 1 ("JIT compiled"). */
static void
frame (JfrW *w, guint64 method, guint line)
{
  jfrw_varint (w, method);
  jfrw_varint (w, line);
  jfrw_varint (w, line * 2);
  jfrw_varint (w, 1);
}

static GByteArray *
checkpoint (void)
{
  JfrW w = { g_byte_array_new () };
  jfrw_checkpoint_begin (&w, 1000, 7);
  /* symbols: 1 "com/example/Hot", 2 "run", 3 "()V", 4 "work", 5 "spin" */
  static const char *symbols[] = { "com/example/Hot", "run", "()V", "work", "spin" };
  jfrw_varint (&w, ID_SYMBOL);
  jfrw_varint (&w, G_N_ELEMENTS (symbols));
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    {
      jfrw_varint (&w, i + 1);
      jfrw_utf8 (&w, symbols[i]);
    }
  jfrw_varint (&w, ID_CLASS);
  jfrw_varint (&w, 1);
  jfrw_varint (&w, 7);             /* class 7: com/example/Hot */
  jfrw_varint (&w, 1);
  /* methods: 1 run, 2 work, 3 spin (class 8: not in the pool) */
  jfrw_varint (&w, ID_METHOD);
  jfrw_varint (&w, 3);
  static const guint64 method_class[] = { 7, 7, 8 }, method_name[] = { 2, 4, 5 };
  for (guint i = 0; i < 3; i++)
    {
      jfrw_varint (&w, i + 1);
      jfrw_varint (&w, method_class[i]);
      jfrw_varint (&w, method_name[i]);
      jfrw_varint (&w, 3);
      jfrw_varint (&w, 1);
      jfrw_u8 (&w, 0);
    }
  jfrw_varint (&w, ID_FRAMETYPE);
  jfrw_varint (&w, 1);
  jfrw_varint (&w, 1);
  jfrw_utf8 (&w, "JIT compiled");
  jfrw_varint (&w, ID_THREAD);
  jfrw_varint (&w, 1);
  jfrw_varint (&w, 1);
  jfrw_utf8 (&w, "main");
  jfrw_varint (&w, ID_STACK);
  jfrw_varint (&w, N_STACKS - 1);
  jfrw_varint (&w, STACK_OK);      /* top frame first */
  jfrw_u8 (&w, 0);
  jfrw_varint (&w, 3);
  frame (&w, 2, 20); frame (&w, 2, 21); frame (&w, 1, 10);
  jfrw_varint (&w, STACK_TRUNCATED);
  jfrw_u8 (&w, 1);
  jfrw_varint (&w, 2);
  frame (&w, 2, 20); frame (&w, 1, 10);
  jfrw_varint (&w, STACK_UNKNOWN);
  jfrw_u8 (&w, 0);
  jfrw_varint (&w, 3);
  frame (&w, 2, 20); frame (&w, UNDEFINED_METHOD, 5); frame (&w, 1, 10);
  jfrw_varint (&w, STACK_NO_CLASS);
  jfrw_u8 (&w, 0);
  jfrw_varint (&w, 2);
  frame (&w, 3, 30); frame (&w, 1, 10);
  jfrw_varint (&w, STACK_DEEP);
  jfrw_u8 (&w, 0);
  jfrw_varint (&w, DEEP_FRAMES);
  for (guint i = 0; i < DEEP_FRAMES; i++)
    frame (&w, 1 + i % 2, 1 + i % 100);
  /* the last pool of the record: one stack claiming 2^31 frames, holding two */
  jfrw_varint (&w, ID_STACK);
  jfrw_varint (&w, 1);
  jfrw_varint (&w, STACK_LYING);
  jfrw_u8 (&w, 0);
  jfrw_varint (&w, G_GUINT64_CONSTANT (1) << 31);
  frame (&w, 2, 20); frame (&w, 1, 10);
  return w.b;
}

static GBytes *
build_file (void)
{
  JfrW w = { g_byte_array_new () };
  JfrChunkW c = { .start_nanos = G_GINT64_CONSTANT (1700000000000000000), .start_ticks = 1000 };
  jfrw_chunk_begin (&w, &c);
  g_autoptr(GByteArray) cp = checkpoint ();
  jfrw_chunk_record (&w, &c, 1, cp);
  g_autoptr(GByteArray) md = metadata ();
  jfrw_chunk_record (&w, &c, 0, md);
  for (guint k = STACK_OK; k <= STACK_LYING; k++)
    {
      JfrW e = { g_byte_array_new () };
      jfrw_varint (&e, 1000 + k);
      jfrw_varint (&e, 1);
      jfrw_varint (&e, k);
      jfrw_chunk_record (&w, &c, ID_EVENT, e.b);
      g_byte_array_unref (e.b);
    }
  jfrw_chunk_end (&w, &c);
  return g_byte_array_free_to_bytes (w.b);
}

static gboolean
any_warning_contains (JvmsJfrFile *file, const char *a, const char *b)
{
  const GPtrArray *w = jvms_jfr_file_get_warnings (file);
  for (guint i = 0; i < w->len; i++)
    {
      const char *m = ((const JvmsJfrWarning *) g_ptr_array_index (w, i))->message;
      if (strstr (m, a) != NULL && strstr (m, b) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
test_stacks (void)
{
  g_autoptr(GBytes) bytes = build_file ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "stacks.jfr", &error);
  g_assert_no_error (error);
  g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_TIME);
  const JvmsJfrEvent *e;
  guint seen = 0;
  while ((e = jvms_jfr_reader_next (reader)) != NULL)
    {
      guint k = (guint) (jvms_jfr_event_get_start_ticks (e) - 1000);
      const JvmsJfrStackTrace *st = jvms_jfr_event_get_stack_trace (e);
      seen |= 1u << k;
      switch (k)
        {
        case STACK_OK:
          g_assert_nonnull (st);
          g_assert_false (st->truncated);
          g_assert_cmpuint (st->n_frames, ==, 3);
          g_assert_cmpstr (st->frames[0].method_name, ==, "work");
          g_assert_cmpstr (st->frames[0].class_name, ==, "com.example.Hot");
          g_assert_cmpint (st->frames[0].line_number, ==, 20);
          g_assert_cmpstr (st->frames[0].type, ==, "JIT compiled");
          g_assert_cmpstr (st->frames[2].method_name, ==, "run");
          break;
        case STACK_TRUNCATED:
          /* the profiler's [truncated] root frame */
          g_assert_nonnull (st);
          g_assert_true (st->truncated);
          g_assert_cmpuint (st->n_frames, ==, 2);
          break;
        case STACK_UNKNOWN:
          /* an [unknown] frame between two known ones */
          g_assert_nonnull (st);
          g_assert_false (st->truncated);
          g_assert_cmpuint (st->n_frames, ==, 3);
          g_assert_cmpstr (st->frames[0].method_name, ==, "work");
          g_assert_null (st->frames[1].method_name);
          g_assert_null (st->frames[1].class_name);
          g_assert_cmpint (st->frames[1].line_number, ==, 5);
          g_assert_cmpstr (st->frames[2].method_name, ==, "run");
          break;
        case STACK_NO_CLASS:
          g_assert_nonnull (st);
          g_assert_cmpstr (st->frames[0].method_name, ==, "spin");
          g_assert_null (st->frames[0].class_name);
          g_assert_cmpstr (st->frames[1].class_name, ==, "com.example.Hot");
          break;
        case STACK_DEEP:
          /* decoded up to the reader's depth, and marked truncated */
          g_assert_nonnull (st);
          g_assert_true (st->truncated);
          g_assert_cmpuint (st->n_frames, ==, 8192);
          g_assert_cmpint (st->frames[8191].line_number, ==, 1 + 8191 % 100);
          break;
        case STACK_LYING:
          /* its frame count exceeds its record: the constant is dropped with a warning, the
           * event's stack is unresolved (an [unknown] stack), nothing is sized by the count */
          g_assert_null (st);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  g_assert_cmpuint (seen, ==, ((1u << (STACK_LYING + 1)) - 1) & ~1u);
  g_assert_true (any_warning_contains (file, "stacks.jfr: chunk 0: constant pool at offset",
                                       "entry 0 of 1 in the jdk.types.StackTrace pool is cut short or damaged"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/jfr/stacks/bad-input", test_stacks);
  return g_test_run ();
}
