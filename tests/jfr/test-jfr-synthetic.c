/* Tests of readers/jfr on files built here byte by byte: every primitive and string encoding,
 * arrays, nested and constant-pool values, reference cycles, time order, and hostile sizes and
 * counts. What the bytes mean is written next to them (see docs in jfr-format.md). */
#include <string.h>

#include "jfr-writer.h"
#include "jvms-jfr.h"

/* ---- the tiny JFR writer of jfr-writer.c, under the short names used below ---- */

typedef JfrW W;
typedef JfrMd Md;
#define put_u8 jfrw_u8
#define put_varint jfrw_varint
#define put_be jfrw_be
#define put_utf8 jfrw_utf8
#define put_record jfrw_record
#define md_elem jfrw_md_elem

typedef struct
{
  guint64 string_count_override;   /* 0 = real count */
  guint64 array_length_override;   /* 0 = real */
  guint64 pool_count_override;     /* 0 = real */
  gboolean zero_size_record;       /* append a record of size 0 after the events */
  guint64 ticks_per_second;        /* 0 = 1e9 */
} Hostile;

#define START_NANOS  G_GINT64_CONSTANT (1700000000000000000)
#define START_TICKS  1000

static void
primitive (Md *md, const char *name, const char *id)
{
  md_elem (md, "class", 0, 2, "name", name, "id", id);
}

static void
field (Md *md, const char *name, const char *cls, gboolean cp, gboolean array, const char *annotation_class,
       const char *annotation_value)
{
  guint n_attrs = 2 + (cp ? 1 : 0) + (array ? 1 : 0);
  guint n_children = annotation_class ? 1 : 0;
  if (cp && array)
    md_elem (md, "field", n_children, n_attrs, "name", name, "class", cls, "constantPool", "true", "dimension", "1");
  else if (cp)
    md_elem (md, "field", n_children, n_attrs, "name", name, "class", cls, "constantPool", "true");
  else if (array)
    md_elem (md, "field", n_children, n_attrs, "name", name, "class", cls, "dimension", "1");
  else
    md_elem (md, "field", n_children, n_attrs, "name", name, "class", cls);
  if (annotation_class)
    md_elem (md, "annotation", 0, 2, "class", annotation_class, "value", annotation_value);
}

static GByteArray *
build_metadata (const Hostile *h)
{
  Md md;
  jfrw_md_init (&md);
  md_elem (&md, "root", 2, 0);
  md_elem (&md, "metadata", 17, 0);
  primitive (&md, "boolean", "10");
  primitive (&md, "byte", "11");
  primitive (&md, "short", "12");
  primitive (&md, "char", "13");
  primitive (&md, "int", "14");
  primitive (&md, "long", "15");
  primitive (&md, "float", "16");
  primitive (&md, "double", "17");
  primitive (&md, "java.lang.String", "18");
  md_elem (&md, "class", 5, 2, "name", "java.lang.Thread", "id", "20");
  field (&md, "osName", "18", FALSE, FALSE, NULL, NULL);
  field (&md, "osThreadId", "15", FALSE, FALSE, NULL, NULL);
  field (&md, "javaName", "18", FALSE, FALSE, NULL, NULL);
  field (&md, "javaThreadId", "15", FALSE, FALSE, NULL, NULL);
  field (&md, "group", "21", TRUE, FALSE, NULL, NULL);
  md_elem (&md, "class", 2, 2, "name", "jdk.types.ThreadGroup", "id", "21");
  field (&md, "parent", "21", TRUE, FALSE, NULL, NULL);
  field (&md, "name", "18", FALSE, FALSE, NULL, NULL);
  md_elem (&md, "class", 1, 3, "name", "jdk.types.Symbol", "id", "22", "simpleType", "true");
  field (&md, "string", "18", FALSE, FALSE, NULL, NULL);
  md_elem (&md, "class", 2, 2, "name", "java.lang.Class", "id", "23");
  field (&md, "name", "22", TRUE, FALSE, NULL, NULL);
  field (&md, "modifiers", "14", FALSE, FALSE, NULL, NULL);
  md_elem (&md, "class", 2, 2, "name", "test.Sub", "id", "24");
  field (&md, "a", "14", FALSE, FALSE, NULL, NULL);
  field (&md, "b", "18", FALSE, FALSE, NULL, NULL);
  md_elem (&md, "class", 0, 3, "name", "jdk.jfr.Timestamp", "id", "40", "superType", "java.lang.annotation.Annotation");
  md_elem (&md, "class", 0, 3, "name", "jdk.jfr.Timespan", "id", "41", "superType", "java.lang.annotation.Annotation");
  md_elem (&md, "class", 19, 3, "name", "test.Event", "id", "30", "superType", "jdk.jfr.Event");
  field (&md, "startTime", "15", FALSE, FALSE, "40", "TICKS");
  field (&md, "duration", "15", FALSE, FALSE, "41", "TICKS");
  field (&md, "eventThread", "20", TRUE, FALSE, NULL, NULL);
  field (&md, "b", "10", FALSE, FALSE, NULL, NULL);
  field (&md, "y", "11", FALSE, FALSE, NULL, NULL);
  field (&md, "s", "12", FALSE, FALSE, NULL, NULL);
  field (&md, "c", "13", FALSE, FALSE, NULL, NULL);
  field (&md, "i", "14", FALSE, FALSE, NULL, NULL);
  field (&md, "l", "15", FALSE, FALSE, NULL, NULL);
  field (&md, "f", "16", FALSE, FALSE, NULL, NULL);
  field (&md, "d", "17", FALSE, FALSE, NULL, NULL);
  field (&md, "str", "18", FALSE, FALSE, NULL, NULL);
  field (&md, "sym", "22", TRUE, FALSE, NULL, NULL);
  field (&md, "cls", "23", TRUE, FALSE, NULL, NULL);
  field (&md, "arr", "14", FALSE, TRUE, NULL, NULL);
  field (&md, "sub", "24", FALSE, FALSE, NULL, NULL);
  field (&md, "subs", "24", FALSE, TRUE, NULL, NULL);
  field (&md, "strs", "18", FALSE, TRUE, NULL, NULL);
  field (&md, "wait", "15", FALSE, FALSE, "41", "MILLISECONDS");
  md_elem (&md, "region", 0, 1, "gmtOffset", "0");

  md.string_count = h->string_count_override;
  return jfrw_md_finish (&md, 42);
}

static GByteArray *
build_checkpoint (const Hostile *h)
{
  W p = { g_byte_array_new () };
  put_varint (&p, START_TICKS);
  put_varint (&p, 0);
  put_varint (&p, 0);          /* delta: first checkpoint */
  put_u8 (&p, 0);              /* kind */
  put_varint (&p, h->pool_count_override ? h->pool_count_override : 5);
  /* String pool */
  put_varint (&p, 18); put_varint (&p, 1);
  put_varint (&p, 7); put_utf8 (&p, "pooled");
  /* ThreadGroup: key 5 is its own parent (a cycle) */
  put_varint (&p, 21); put_varint (&p, 1);
  put_varint (&p, 5); put_varint (&p, 5); put_utf8 (&p, "grp");
  /* Thread 1 */
  put_varint (&p, 20); put_varint (&p, 1);
  put_varint (&p, 1); put_utf8 (&p, "worker-os"); put_varint (&p, 4242);
  put_utf8 (&p, "worker"); put_varint (&p, 17); put_varint (&p, 5);
  /* Symbols */
  put_varint (&p, 22); put_varint (&p, 3);
  put_varint (&p, 3); put_utf8 (&p, "com/example/Foo");
  put_varint (&p, 4); put_utf8 (&p, "[J");
  put_varint (&p, 6); put_utf8 (&p, "[Ljava/lang/String;");
  /* Classes */
  put_varint (&p, 23); put_varint (&p, 3);
  put_varint (&p, 9); put_varint (&p, 3); put_varint (&p, 1);
  put_varint (&p, 10); put_varint (&p, 4); put_varint (&p, 0);
  put_varint (&p, 11); put_varint (&p, 6); put_varint (&p, 0);
  return p.b;
}

/* Event @n: string encoding and values vary with @n. */
static GByteArray *
build_event (guint n, gint64 ticks, const Hostile *h)
{
  W p = { g_byte_array_new () };
  put_varint (&p, (guint64) ticks);
  put_varint (&p, 500);                      /* duration, ticks */
  put_varint (&p, n == 3 ? 99 : 1);          /* eventThread (99: undefined) */
  put_u8 (&p, n & 1);                        /* boolean */
  put_u8 (&p, 0xFE);                         /* byte -2 */
  put_varint (&p, 0xFFFF);                   /* short -1 */
  put_varint (&p, 0xE9);                     /* char é */
  put_varint (&p, 0xFFFFFFFF);               /* int -1: 5 bytes */
  put_varint (&p, G_MAXUINT64);              /* long -1: 9 bytes */
  put_be (&p, 0x3FC00000, 4);                /* float 1.5 */
  put_be (&p, 0xC004000000000000ULL, 8);     /* double -2.5 */
  switch (n % 9)                             /* str */
    {
    case 0: put_u8 (&p, 0); break;                           /* null */
    case 1: put_u8 (&p, 1); break;                           /* "" */
    case 2: put_u8 (&p, 2); put_varint (&p, 7); break;       /* pool → "pooled" */
    case 3:                                                  /* modified UTF-8: a\0b */
      put_u8 (&p, 3); put_varint (&p, 4);
      put_u8 (&p, 'a'); put_u8 (&p, 0xC0); put_u8 (&p, 0x80); put_u8 (&p, 'b');
      break;
    case 4:                                                  /* UTF-16: "x😀" */
      put_u8 (&p, 4); put_varint (&p, 3);
      put_varint (&p, 'x'); put_varint (&p, 0xD83D); put_varint (&p, 0xDE00);
      break;
    case 5:                                                  /* Latin-1 "café" */
      put_u8 (&p, 5); put_varint (&p, 4);
      put_u8 (&p, 'c'); put_u8 (&p, 'a'); put_u8 (&p, 'f'); put_u8 (&p, 0xE9);
      break;
    case 6:                                                  /* UTF-16, ASCII: "host" */
      put_u8 (&p, 4); put_varint (&p, 4);
      put_varint (&p, 'h'); put_varint (&p, 'o'); put_varint (&p, 's'); put_varint (&p, 't');
      break;
    case 7:                                                  /* Latin-1, ASCII: "abc" */
      put_u8 (&p, 5); put_varint (&p, 3);
      put_u8 (&p, 'a'); put_u8 (&p, 'b'); put_u8 (&p, 'c');
      break;
    default:                                                 /* UTF-16: a, U+0000, é */
      put_u8 (&p, 4); put_varint (&p, 3);
      put_varint (&p, 'a'); put_varint (&p, 0); put_varint (&p, 0xE9);
    }
  put_varint (&p, 3);                        /* sym */
  put_varint (&p, n % 3 == 0 ? 9 : n % 3 == 1 ? 10 : 11); /* cls */
  put_varint (&p, h->array_length_override ? h->array_length_override : 3); /* arr */
  put_varint (&p, 1); put_varint (&p, 2); put_varint (&p, 3);
  put_varint (&p, n); put_utf8 (&p, "inner");  /* sub */
  put_varint (&p, 2);                          /* subs */
  put_varint (&p, 10); put_u8 (&p, 0);
  put_varint (&p, 20); put_utf8 (&p, "second");
  put_varint (&p, 2);                          /* strs */
  put_utf8 (&p, "one"); put_u8 (&p, 2); put_varint (&p, 7);
  put_varint (&p, 1500);                       /* wait, ms */
  return p.b;
}

#define N_EVENTS 12

static GBytes *
build_file (const Hostile *h)
{
  W w = { g_byte_array_new () };
  /* header, patched at the end */
  g_byte_array_set_size (w.b, 68);
  memset (w.b->data, 0, 68);
  GByteArray *cp = build_checkpoint (h);
  guint64 cp_offset = w.b->len;
  put_record (&w, 1, cp);
  g_byte_array_unref (cp);
  GByteArray *md = build_metadata (h);
  guint64 md_offset = w.b->len;
  put_record (&w, 0, md);
  g_byte_array_unref (md);
  /* events out of time order: two "thread buffers" */
  for (guint n = 0; n < N_EVENTS; n++)
    {
      gint64 ticks = START_TICKS + (n % 2 == 0 ? (gint64) n * 100 : (gint64) (N_EVENTS - n) * 100 + 50);
      GByteArray *e = build_event (n, ticks, h);
      put_record (&w, 30, e);
      g_byte_array_unref (e);
    }
  if (h->zero_size_record)
    {
      put_u8 (&w, 0);
      put_u8 (&w, 30);
    }
  W hdr = { g_byte_array_new () };
  g_byte_array_append (hdr.b, (const guint8 *) "FLR\0", 4);
  put_be (&hdr, 2, 2);
  put_be (&hdr, 1, 2);
  put_be (&hdr, w.b->len, 8);
  put_be (&hdr, cp_offset, 8);
  put_be (&hdr, md_offset, 8);
  put_be (&hdr, START_NANOS, 8);
  put_be (&hdr, 1000000000, 8);
  put_be (&hdr, START_TICKS, 8);
  put_be (&hdr, h->ticks_per_second ? h->ticks_per_second : 1000000000, 8);
  put_u8 (&hdr, 0);
  put_u8 (&hdr, 0);
  put_be (&hdr, 3, 2);
  memcpy (w.b->data, hdr.b->data, 68);
  g_byte_array_unref (hdr.b);
  return g_byte_array_free_to_bytes (w.b);
}

static const JvmsJfrField *
F (const JvmsJfrType *t, const char *name)
{
  const JvmsJfrField *f = jvms_jfr_type_find_field (t, name);
  g_assert_nonnull (f);
  return f;
}

static void
test_values (void)
{
  Hostile h = { 0 };
  g_autoptr(GBytes) bytes = build_file (&h);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "synthetic.jfr", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_jfr_file_get_n_chunks (file), ==, 1);
  const JvmsJfrType *type = jvms_jfr_file_find_type (file, 0, "test.Event");
  g_assert_nonnull (type);
  g_assert_true (jvms_jfr_type_is_event (type));
  g_assert_cmpint (jvms_jfr_field_get_unit (F (type, "startTime")), ==, JVMS_JFR_UNIT_TIMESTAMP_TICKS);
  g_assert_cmpint (jvms_jfr_field_get_unit (F (type, "wait")), ==, JVMS_JFR_UNIT_TIMESPAN_MS);

  g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_TIME);
  const JvmsJfrEvent *e;
  gint64 last = G_MININT64;
  guint seen = 0;
  guint64 seen_mask = 0;
  while ((e = jvms_jfr_reader_next (reader)) != NULL)
    {
      JvmsJfrObject o;
      jvms_jfr_event_get_object (e, &o);
      gint64 start = jvms_jfr_event_get_start_ns (e);
      g_assert_cmpint (start, >=, last);
      last = start;
      g_assert_cmpint (jvms_jfr_event_get_duration_ns (e), ==, 500);
      g_assert_cmpint (jvms_jfr_event_get_end_ns (e), ==, start + 500);
      gint64 sub_a;
      JvmsJfrObject sub;
      g_assert_true (jvms_jfr_object_get_object (&o, F (type, "sub"), &sub));
      g_assert_true (jvms_jfr_object_get_int64 (&sub, F (jvms_jfr_field_get_type (F (type, "sub")), "a"), &sub_a));
      guint n = (guint) sub_a;
      g_assert_cmpuint (n, <, N_EVENTS);
      seen_mask |= 1u << n;
      g_assert_cmpint (start, ==, START_NANOS + (n % 2 == 0 ? (gint64) n * 100 : (gint64) (N_EVENTS - n) * 100 + 50));
      seen++;

      gint64 i64; guint64 u64; double d; gboolean b; const char *s;
      g_assert_true (jvms_jfr_event_get_boolean (e, F (type, "b"), &b));
      g_assert_cmpint (b, ==, (gboolean) (n & 1));
      g_assert_true (jvms_jfr_event_get_int64 (e, F (type, "y"), &i64));
      g_assert_cmpint (i64, ==, -2);
      g_assert_true (jvms_jfr_event_get_int64 (e, F (type, "s"), &i64));
      g_assert_cmpint (i64, ==, -1);
      g_assert_true (jvms_jfr_event_get_uint64 (e, F (type, "s"), &u64));
      g_assert_cmpuint (u64, ==, 0xFFFF);
      g_assert_true (jvms_jfr_event_get_int64 (e, F (type, "c"), &i64));
      g_assert_cmpint (i64, ==, 0xE9);
      g_assert_true (jvms_jfr_event_get_int64 (e, F (type, "i"), &i64));
      g_assert_cmpint (i64, ==, -1);
      g_assert_true (jvms_jfr_event_get_uint64 (e, F (type, "i"), &u64));
      g_assert_cmpuint (u64, ==, 0xFFFFFFFFu);
      g_assert_true (jvms_jfr_event_get_int64 (e, F (type, "l"), &i64));
      g_assert_cmpint (i64, ==, -1);
      g_assert_true (jvms_jfr_event_get_double (e, F (type, "f"), &d));
      g_assert_cmpfloat (d, ==, 1.5);
      g_assert_true (jvms_jfr_event_get_double (e, F (type, "d"), &d));
      g_assert_cmpfloat (d, ==, -2.5);
      g_assert_true (jvms_jfr_event_get_time_ns (e, F (type, "wait"), &i64));
      g_assert_cmpint (i64, ==, 1500000000);

      /* modified UTF-8's NUL (C0 80) cannot live in a C string: it becomes U+FFFD */
      static const char *expected[] = { NULL, "", "pooled", "a\xEF\xBF\xBD" "b", "x\xF0\x9F\x98\x80", "caf\xC3\xA9",
                                        "host", "abc", "a\xEF\xBF\xBD\xC3\xA9" };
      gboolean has = jvms_jfr_event_get_string (e, F (type, "str"), &s);
      if (n % 9 == 0)
        g_assert_false (has);
      else
        {
          g_assert_true (has);
          g_assert_cmpstr (s, ==, expected[n % 9]);
        }
      JvmsJfrValue v;
      g_assert_true (jvms_jfr_event_get_value (e, F (type, "str"), &v));
      g_assert_cmpint (v.from_pool, ==, n % 9 == 2);

      g_assert_true (jvms_jfr_event_get_string (e, F (type, "sym"), &s));
      g_assert_cmpstr (s, ==, "com/example/Foo");
      g_assert_true (jvms_jfr_event_get_class_name (e, F (type, "cls"), &s));
      g_assert_cmpstr (s, ==, n % 3 == 0 ? "com.example.Foo" : n % 3 == 1 ? "long[]" : "java.lang.String[]");

      const JvmsJfrThread *t = jvms_jfr_event_get_thread (e);
      if (n == 3)
        g_assert_null (t);    /* key 99 is not defined: null, like the JDK */
      else
        {
          g_assert_nonnull (t);
          g_assert_cmpstr (t->os_name, ==, "worker-os");
          g_assert_cmpstr (t->java_name, ==, "worker");
          g_assert_cmpint (t->os_thread_id, ==, 4242);
          g_assert_cmpint (t->java_thread_id, ==, 17);
          g_assert_cmpstr (t->group_name, ==, "grp");
        }

      /* arrays */
      g_assert_true (jvms_jfr_event_get_value (e, F (type, "arr"), &v));
      g_assert_cmpint (v.kind, ==, JVMS_JFR_VALUE_ARRAY);
      g_assert_cmpuint (v.array.length, ==, 3);
      JvmsJfrArrayIter it;
      JvmsJfrValue el;
      gint64 sum = 0;
      jvms_jfr_array_iter_init (&it, &v);
      while (jvms_jfr_array_iter_next (&it, &el))
        sum += el.i;
      g_assert_cmpint (sum, ==, 6);
      g_assert_true (jvms_jfr_event_get_value (e, F (type, "subs"), &v));
      g_assert_cmpuint (v.array.length, ==, 2);
      jvms_jfr_array_iter_init (&it, &v);
      g_assert_true (jvms_jfr_array_iter_next (&it, &el));
      g_assert_cmpint (el.kind, ==, JVMS_JFR_VALUE_OBJECT);
      g_assert_true (jvms_jfr_array_iter_next (&it, &el));
      g_assert_true (jvms_jfr_object_get_string (&el.object, F (el.type, "b"), &s));
      g_assert_cmpstr (s, ==, "second");
      g_assert_false (jvms_jfr_array_iter_next (&it, &el));
      g_assert_true (jvms_jfr_event_get_value (e, F (type, "strs"), &v));
      jvms_jfr_array_iter_init (&it, &v);
      g_assert_true (jvms_jfr_array_iter_next (&it, &el));
      g_assert_cmpstr (el.s, ==, "one");
      g_assert_true (jvms_jfr_array_iter_next (&it, &el));
      g_assert_cmpstr (el.s, ==, "pooled");

      /* the ThreadGroup cycle: parent of parent of … stays resolvable, no recursion */
      JvmsJfrValue tv;
      g_assert_true (jvms_jfr_event_get_value (e, F (type, "eventThread"), &tv));
      if (n != 3)
        {
          JvmsJfrObject g = tv.object;
          for (int k = 0; k < 5; k++)
            {
              JvmsJfrObject parent;
              g_assert_true (jvms_jfr_object_get_object (&g, jvms_jfr_type_get_field (g.type, k == 0 ? 4 : 0), &parent));
              g = parent;
            }
        }
    }
  g_assert_cmpuint (seen, ==, N_EVENTS);
  g_assert_cmpuint (seen_mask, ==, (1u << N_EVENTS) - 1);
  g_assert_cmpuint (jvms_jfr_file_get_warnings (file)->len, ==, 0);
}

static gboolean
any_warning_contains (JvmsJfrFile *file, const char *needle)
{
  const GPtrArray *w = jvms_jfr_file_get_warnings (file);
  for (guint i = 0; i < w->len; i++)
    if (strstr (((const JvmsJfrWarning *) g_ptr_array_index (w, i))->message, needle) != NULL)
      return TRUE;
  return FALSE;
}

static guint
count_events (JvmsJfrFile *file, gboolean touch)
{
  g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_TIME);
  guint n = 0;
  const JvmsJfrEvent *e;
  while ((e = jvms_jfr_reader_next (reader)) != NULL)
    {
      n++;
      if (!touch)
        continue;
      JvmsJfrObject o;
      jvms_jfr_event_get_object (e, &o);
      for (guint i = 0; i < jvms_jfr_type_get_n_fields (o.type); i++)
        {
          JvmsJfrValue v;
          jvms_jfr_object_get_value (&o, jvms_jfr_type_get_field (o.type, i), &v);
        }
    }
  return n;
}

static void
test_hostile_string_count (void)
{
  Hostile h = { .string_count_override = G_GUINT64_CONSTANT (2147483647) };
  g_autoptr(GBytes) bytes = build_file (&h);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "strings.jfr", &error);
  g_assert_null (file);
  g_assert_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "strings.jfr"));
  g_assert_nonnull (strstr (error->message, "string count"));
  g_assert_nonnull (strstr (error->message, "offset"));
}

static void
test_hostile_array_length (void)
{
  Hostile h = { .array_length_override = G_GUINT64_CONSTANT (1) << 60 };
  g_autoptr(GBytes) bytes = build_file (&h);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "array.jfr", &error);
  g_assert_no_error (error);
  const JvmsJfrType *type = jvms_jfr_file_find_type (file, 0, "test.Event");
  g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_TIME);
  const JvmsJfrEvent *e;
  guint n = 0;
  while ((e = jvms_jfr_reader_next (reader)) != NULL)
    {
      JvmsJfrValue v;
      gint64 i64;
      n++;
      /* fields before the damage read fine, the array and what follows do not */
      g_assert_true (jvms_jfr_event_get_int64 (e, F (type, "i"), &i64));
      g_assert_false (jvms_jfr_event_get_value (e, F (type, "arr"), &v));
      g_assert_false (jvms_jfr_event_get_value (e, F (type, "sub"), &v));
    }
  g_assert_cmpuint (n, ==, N_EVENTS);
}

static void
test_hostile_pool_count (void)
{
  Hostile h = { .pool_count_override = G_GUINT64_CONSTANT (2147483647) };
  g_autoptr(GBytes) bytes = build_file (&h);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "pools.jfr", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_events (file, TRUE), ==, N_EVENTS);
  g_assert_true (any_warning_contains (file, "pool count 2147483647"));
}

static void
test_hostile_zero_size (void)
{
  Hostile h = { .zero_size_record = TRUE };
  g_autoptr(GBytes) bytes = build_file (&h);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "zero.jfr", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_events (file, TRUE), ==, N_EVENTS);
  g_assert_true (any_warning_contains (file, "size 0 < minimum"));
}

static void
test_hostile_ticks (void)
{
  Hostile h = { .ticks_per_second = G_MAXUINT64 };
  g_autoptr(GBytes) bytes = build_file (&h);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "tps.jfr", &error);
  /* 2^64-1 is -1 as a signed Java long: rejected like 0 */
  g_assert_null (file);
  g_assert_nonnull (error);
}

static void
test_header_errors (void)
{
  Hostile h = { 0 };
  g_autoptr(GBytes) good = build_file (&h);
  gsize size;
  const guint8 *data = g_bytes_get_data (good, &size);
  struct { gsize len; guint patch_at; guint8 patch; int code; const char *needle; } cases[] = {
    { 0, 0, 0, JVMS_JFR_ERROR_EMPTY, "empty file" },
    { 10, G_MAXUINT, 0, JVMS_JFR_ERROR_NOT_JFR, "truncated at 10 of 68" },
    { G_MAXSIZE, 1, 'X', JVMS_JFR_ERROR_NOT_JFR, "magic at offset 0 is 46 58 52 00" },
    { G_MAXSIZE, 5, 3, JVMS_JFR_ERROR_VERSION, "version 3.1" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize len = MIN (cases[i].len, size);
      guint8 *copy = g_memdup2 (data, size);
      if (cases[i].patch_at < len)
        copy[cases[i].patch_at] = cases[i].patch;
      g_autoptr(GBytes) bytes = g_bytes_new_take (copy, len);
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "bad.jfr", &error);
      g_assert_null (file);
      g_assert_error (error, JVMS_JFR_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].needle) == NULL)
        g_error ("case %zu: \"%s\" lacks \"%s\"", i, error->message, cases[i].needle);
    }
}

/* Two copies of the chunk back to back: the duplicate is dropped with a note. Then a chunk
 * followed by garbage: everything of the chunk, and a warning about the trailing bytes. */
static void
test_chunks (void)
{
  Hostile h = { 0 };
  g_autoptr(GBytes) one = build_file (&h);
  gsize size;
  const guint8 *data = g_bytes_get_data (one, &size);

  g_autoptr(GByteArray) two = g_byte_array_new ();
  g_byte_array_append (two, data, (guint) size);
  g_byte_array_append (two, data, (guint) size);
  g_autoptr(GBytes) twice = g_bytes_new (two->data, two->len);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (twice, "twice.jfr", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_jfr_file_get_n_chunks (file), ==, 1);
  g_assert_true (any_warning_contains (file, "duplicate"));
  g_assert_cmpuint (count_events (file, TRUE), ==, N_EVENTS);

  g_autoptr(GByteArray) tail = g_byte_array_new ();
  g_byte_array_append (tail, data, (guint) size);
  g_byte_array_append (tail, (const guint8 *) "garbage!", 8);
  g_autoptr(GBytes) trailing = g_bytes_new (tail->data, tail->len);
  g_autoptr(JvmsJfrFile) file2 = jvms_jfr_file_open_bytes (trailing, "tail.jfr", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_events (file2, TRUE), ==, N_EVENTS);
  g_assert_true (any_warning_contains (file2, "8 trailing bytes"));
}

/* A copy of the one-chunk file whose header says it started @later_ns after the first and at
 * tick @ticks, appended to the first. */
static JvmsJfrFile *
open_two_runs (GBytes *one, gint64 later_ns, gint64 ticks)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (one, &size);
  g_autoptr(GByteArray) two = g_byte_array_new ();
  g_byte_array_append (two, data, (guint) size);
  g_byte_array_append (two, data, (guint) size);
  W at = { g_byte_array_new () };
  put_be (&at, START_NANOS + later_ns, 8);   /* header offset 32: start nanos */
  put_be (&at, 1000000000, 8);               /* 40: duration */
  put_be (&at, ticks, 8);                    /* 48: start ticks */
  memcpy (two->data + size + 32, at.b->data, 24);
  g_byte_array_unref (at.b);
  g_autoptr(GBytes) bytes = g_bytes_new (two->data, two->len);
  g_autoptr(GError) error = NULL;
  JvmsJfrFile *file = jvms_jfr_file_open_bytes (bytes, "two-runs.jfr", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_jfr_file_get_n_chunks (file), ==, 2);
  return file;
}

/* The time base across chunks. The same JVM's next chunk (ticks 40 s on, its start read 300 ns
 * apart) keeps the first chunk's base; another JVM's run appended to the file (its ticks restart
 * while its start is 40 s later) takes its own, or its events would be laid over the first
 * run's time. */
static void
test_time_base (void)
{
  Hostile h = { 0 };
  g_autoptr(GBytes) one = build_file (&h);
  const gint64 later = G_GINT64_CONSTANT (40000000000);

  g_autoptr(JvmsJfrFile) same = open_two_runs (one, later, START_TICKS + later + 300);
  const JvmsJfrChunkInfo *c = jvms_jfr_file_get_chunk (same, 1);
  g_assert_cmpint (c->base_nanos, ==, START_NANOS);
  g_assert_cmpint (c->base_ticks, ==, START_TICKS);

  g_autoptr(JvmsJfrFile) next = open_two_runs (one, later, START_TICKS);
  c = jvms_jfr_file_get_chunk (next, 1);
  g_assert_cmpint (c->base_nanos, ==, START_NANOS + later);
  g_assert_cmpint (c->base_ticks, ==, START_TICKS);
  g_assert_cmpint (jvms_jfr_chunk_ticks_to_epoch_ns (c, START_TICKS + 100), ==, START_NANOS + later + 100);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/jfr/synthetic/values", test_values);
  g_test_add_func ("/jfr/synthetic/chunks", test_chunks);
  g_test_add_func ("/jfr/synthetic/time-base", test_time_base);
  g_test_add_func ("/jfr/synthetic/header-errors", test_header_errors);
  g_test_add_func ("/jfr/synthetic/hostile-string-count", test_hostile_string_count);
  g_test_add_func ("/jfr/synthetic/hostile-array-length", test_hostile_array_length);
  g_test_add_func ("/jfr/synthetic/hostile-pool-count", test_hostile_pool_count);
  g_test_add_func ("/jfr/synthetic/hostile-zero-size", test_hostile_zero_size);
  g_test_add_func ("/jfr/synthetic/hostile-ticks", test_hostile_ticks);
  return g_test_run ();
}
