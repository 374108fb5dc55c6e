/* jfr-gen.c: see jfr-gen.h. What the bytes mean is written next to them. */
#include "jfr-gen.h"

#include <string.h>

typedef GByteArray Buf;

static void
put_u8 (Buf *b, guint8 v)
{
  g_byte_array_append (b, &v, 1);
}

/* JFR's LEB128: 7 bits a byte, the ninth byte holds 8. */
static void
put_varint (Buf *b, guint64 v)
{
  for (int i = 0; i < 8; i++)
    {
      if (v < 0x80)
        {
          put_u8 (b, (guint8) v);
          return;
        }
      put_u8 (b, (guint8) ((v & 0x7f) | 0x80));
      v >>= 7;
    }
  put_u8 (b, (guint8) v);
}

static void
put_be (Buf *b, guint64 v, guint n)
{
  for (guint i = 0; i < n; i++)
    put_u8 (b, (guint8) (v >> (8 * (n - 1 - i))));
}

/* A string of encoding 3 (UTF-8 bytes, length first); NULL is encoding 0. */
static void
put_string (Buf *b, const char *s)
{
  if (s == NULL)
    {
      put_u8 (b, 0);
      return;
    }
  put_u8 (b, 3);
  put_varint (b, strlen (s));
  g_byte_array_append (b, (const guint8 *) s, (guint) strlen (s));
}

/* A record: its size as a 4-byte varint (as HotSpot writes them, patched after), its type id,
 * its payload. */
static void
put_record (Buf *b, guint64 type, Buf *payload)
{
  g_autoptr(GByteArray) body = g_byte_array_new ();
  put_varint (body, type);
  g_byte_array_append (body, payload->data, payload->len);
  guint64 size = body->len + 4;
  put_u8 (b, (guint8) ((size & 0x7f) | 0x80));
  put_u8 (b, (guint8) (((size >> 7) & 0x7f) | 0x80));
  put_u8 (b, (guint8) (((size >> 14) & 0x7f) | 0x80));
  put_u8 (b, (guint8) ((size >> 21) & 0x7f));
  g_byte_array_append (b, body->data, body->len);
}

/* Type ids of the metadata below. */
enum
{
  T_BOOLEAN = 10, T_INT = 14, T_LONG = 15, T_STRING = 18,
  T_THREAD = 20, T_SYMBOL = 22, T_CLASS = 23,
  T_START = 31, T_SLEEP = 32, T_PARK = 33, T_MONITOR = 34, T_END = 35,
  T_TIMESTAMP = 40, T_TIMESPAN = 41,
};

/* The metadata's element tree refers to strings by their index in a table written first. */
typedef struct
{
  GPtrArray *strings;
  Buf       *tree;
} Md;

static guint
md_str (Md *md, const char *s)
{
  for (guint i = 0; i < md->strings->len; i++)
    if (strcmp (g_ptr_array_index (md->strings, i), s) == 0)
      return i;
  g_ptr_array_add (md->strings, g_strdup (s));
  return md->strings->len - 1;
}

/* An element: name, attributes (key, value pairs), then the number of children, which follow. */
static void
md_elem (Md *md, const char *name, guint n_children, guint n_attrs, ...)
{
  va_list ap;
  va_start (ap, n_attrs);
  put_varint (md->tree, md_str (md, name));
  put_varint (md->tree, n_attrs);
  for (guint i = 0; i < n_attrs; i++)
    {
      const char *k = va_arg (ap, const char *);
      const char *v = va_arg (ap, const char *);
      put_varint (md->tree, md_str (md, k));
      put_varint (md->tree, md_str (md, v));
    }
  va_end (ap);
  put_varint (md->tree, n_children);
}

static void
md_class (Md *md, const char *name, guint id, guint n_fields, gboolean event)
{
  g_autofree char *ids = g_strdup_printf ("%u", id);
  if (event)
    md_elem (md, "class", n_fields, 3, "name", name, "id", ids, "superType", "jdk.jfr.Event");
  else
    md_elem (md, "class", n_fields, 2, "name", name, "id", ids);
}

/* A field; @unit: NULL, or the value of a Timestamp (for "startTime") or Timespan annotation. */
static void
md_field (Md *md, const char *name, guint type, gboolean pooled, const char *unit)
{
  g_autofree char *types = g_strdup_printf ("%u", type);
  guint n_children = unit != NULL ? 1 : 0;
  if (pooled)
    md_elem (md, "field", n_children, 3, "name", name, "class", types, "constantPool", "true");
  else
    md_elem (md, "field", n_children, 2, "name", name, "class", types);
  if (unit != NULL)
    md_elem (md, "annotation", 0, 2, "class",
             strcmp (name, "startTime") == 0 ? "40" : "41", "value", unit);
}

static void
md_primitive (Md *md, const char *name, guint id)
{
  md_class (md, name, id, 0, FALSE);
}

static Buf *
build_metadata (void)
{
  Md md = { g_ptr_array_new_with_free_func (g_free), g_byte_array_new () };
  md_elem (&md, "root", 2, 0);
  md_elem (&md, "metadata", 14, 0);
  md_primitive (&md, "boolean", T_BOOLEAN);
  md_primitive (&md, "int", T_INT);
  md_primitive (&md, "long", T_LONG);
  md_primitive (&md, "java.lang.String", T_STRING);
  md_class (&md, "java.lang.Thread", T_THREAD, 4, FALSE);
  md_field (&md, "osName", T_STRING, FALSE, NULL);
  md_field (&md, "osThreadId", T_LONG, FALSE, NULL);
  md_field (&md, "javaName", T_STRING, FALSE, NULL);
  md_field (&md, "javaThreadId", T_LONG, FALSE, NULL);
  md_elem (&md, "class", 1, 3, "name", "jdk.types.Symbol", "id", "22", "simpleType", "true");
  md_field (&md, "string", T_STRING, FALSE, NULL);
  md_class (&md, "java.lang.Class", T_CLASS, 1, FALSE);
  md_field (&md, "name", T_SYMBOL, TRUE, NULL);
  /* Annotation classes declare their "value" (the JDK's jfr tool reads it through them). */
  md_elem (&md, "class", 1, 3, "name", "jdk.jfr.Timestamp", "id", "40",
           "superType", "java.lang.annotation.Annotation");
  md_field (&md, "value", T_STRING, FALSE, NULL);
  md_elem (&md, "class", 1, 3, "name", "jdk.jfr.Timespan", "id", "41",
           "superType", "java.lang.annotation.Annotation");
  md_field (&md, "value", T_STRING, FALSE, NULL);
  md_class (&md, "jdk.ThreadStart", T_START, 3, TRUE);
  md_field (&md, "startTime", T_LONG, FALSE, "TICKS");
  md_field (&md, "eventThread", T_THREAD, TRUE, NULL);
  md_field (&md, "thread", T_THREAD, TRUE, NULL);
  md_class (&md, "jdk.ThreadEnd", T_END, 3, TRUE);
  md_field (&md, "startTime", T_LONG, FALSE, "TICKS");
  md_field (&md, "eventThread", T_THREAD, TRUE, NULL);
  md_field (&md, "thread", T_THREAD, TRUE, NULL);
  md_class (&md, "jdk.ThreadSleep", T_SLEEP, 4, TRUE);
  md_field (&md, "startTime", T_LONG, FALSE, "TICKS");
  md_field (&md, "duration", T_LONG, FALSE, "TICKS");
  md_field (&md, "eventThread", T_THREAD, TRUE, NULL);
  md_field (&md, "time", T_LONG, FALSE, "NANOSECONDS");
  md_class (&md, "jdk.ThreadPark", T_PARK, 5, TRUE);
  md_field (&md, "startTime", T_LONG, FALSE, "TICKS");
  md_field (&md, "duration", T_LONG, FALSE, "TICKS");
  md_field (&md, "eventThread", T_THREAD, TRUE, NULL);
  md_field (&md, "parkedClass", T_CLASS, TRUE, NULL);
  md_field (&md, "address", T_LONG, FALSE, NULL);
  md_class (&md, "jdk.JavaMonitorEnter", T_MONITOR, 6, TRUE);
  md_field (&md, "startTime", T_LONG, FALSE, "TICKS");
  md_field (&md, "duration", T_LONG, FALSE, "TICKS");
  md_field (&md, "eventThread", T_THREAD, TRUE, NULL);
  md_field (&md, "monitorClass", T_CLASS, TRUE, NULL);
  md_field (&md, "previousOwner", T_THREAD, TRUE, NULL);
  md_field (&md, "address", T_LONG, FALSE, NULL);
  md_elem (&md, "region", 0, 1, "gmtOffset", "0");

  Buf *p = g_byte_array_new ();
  put_varint (p, 0);  /* startTime */
  put_varint (p, 0);  /* duration */
  put_varint (p, 1);  /* metadataId */
  put_varint (p, md.strings->len);
  for (guint i = 0; i < md.strings->len; i++)
    put_string (p, g_ptr_array_index (md.strings, i));
  g_byte_array_append (p, md.tree->data, md.tree->len);
  g_byte_array_unref (md.tree);
  g_ptr_array_unref (md.strings);
  return p;
}

/* The constant pools: threads (key = index + 1), symbols and classes (key = index + 1). */
static Buf *
build_checkpoint (const JfrGenThread *threads, guint n_threads, const char * const *classes,
                  guint n_classes)
{
  Buf *p = g_byte_array_new ();
  put_varint (p, 0); /* startTime */
  put_varint (p, 0); /* duration */
  put_varint (p, 0); /* delta to the previous checkpoint: none */
  put_u8 (p, 0);     /* kind */
  put_varint (p, 3); /* pools */
  put_varint (p, T_THREAD);
  put_varint (p, n_threads);
  for (guint i = 0; i < n_threads; i++)
    {
      put_varint (p, i + 1);
      put_string (p, threads[i].os_tid > 0 ? threads[i].name : NULL); /* osName */
      put_varint (p, (guint64) threads[i].os_tid);                    /* osThreadId */
      put_string (p, threads[i].name);                                /* javaName */
      put_varint (p, (guint64) threads[i].java_id);                   /* javaThreadId */
    }
  put_varint (p, T_SYMBOL);
  put_varint (p, n_classes);
  for (guint i = 0; i < n_classes; i++)
    {
      put_varint (p, i + 1);
      put_string (p, classes[i]);
    }
  put_varint (p, T_CLASS);
  put_varint (p, n_classes);
  for (guint i = 0; i < n_classes; i++)
    {
      put_varint (p, i + 1);
      put_varint (p, i + 1); /* name: the symbol */
    }
  return p;
}

static Buf *
build_event (const JfrGenEvent *e)
{
  Buf *p = g_byte_array_new ();
  put_varint (p, (guint64) e->start); /* startTime, ticks of 1 ns from the chunk start (0) */
  switch (e->kind)
    {
    case JFR_GEN_THREAD_START:
    case JFR_GEN_THREAD_END:
      put_varint (p, e->thread + 1); /* eventThread */
      put_varint (p, e->thread + 1); /* thread */
      break;
    case JFR_GEN_SLEEP:
      put_varint (p, (guint64) e->duration);
      put_varint (p, e->thread + 1);
      put_varint (p, (guint64) e->duration); /* time */
      break;
    case JFR_GEN_PARK:
      put_varint (p, (guint64) e->duration);
      put_varint (p, e->thread + 1);
      put_varint (p, e->klass + 1);
      put_varint (p, 0x1000 + e->klass); /* address */
      break;
    case JFR_GEN_MONITOR:
      put_varint (p, (guint64) e->duration);
      put_varint (p, e->thread + 1);
      put_varint (p, e->klass + 1);
      put_varint (p, e->owner); /* previousOwner: 0 is null */
      put_varint (p, 0x7f0000 + e->klass * 0x100); /* address */
      break;
    }
  return p;
}

static guint64
type_of (JfrGenKind kind)
{
  switch (kind)
    {
    case JFR_GEN_THREAD_START: return T_START;
    case JFR_GEN_THREAD_END: return T_END;
    case JFR_GEN_SLEEP: return T_SLEEP;
    case JFR_GEN_PARK: return T_PARK;
    case JFR_GEN_MONITOR: default: return T_MONITOR;
    }
}

GBytes *
jfr_gen_build (const JfrGenThread *threads, guint n_threads, const JfrGenEvent *events,
               guint n_events, const char * const *classes, guint n_classes)
{
  Buf *w = g_byte_array_new ();
  g_byte_array_set_size (w, 68); /* the header, written last */
  memset (w->data, 0, 68);
  guint64 cp_offset = w->len;
  g_autoptr(GByteArray) cp = build_checkpoint (threads, n_threads, classes, n_classes);
  put_record (w, 1, cp);
  guint64 md_offset = w->len;
  g_autoptr(GByteArray) md = build_metadata ();
  put_record (w, 0, md);
  gint64 end = 1;
  for (guint i = 0; i < n_events; i++)
    {
      g_autoptr(GByteArray) e = build_event (&events[i]);
      put_record (w, type_of (events[i].kind), e);
      end = MAX (end, events[i].start + events[i].duration + 1);
    }

  g_autoptr(GByteArray) hdr = g_byte_array_new ();
  g_byte_array_append (hdr, (const guint8 *) "FLR\0", 4);
  put_be (hdr, 2, 2);                   /* major */
  put_be (hdr, 1, 2);                   /* minor */
  put_be (hdr, w->len, 8);              /* chunk size */
  put_be (hdr, cp_offset, 8);           /* the last checkpoint */
  put_be (hdr, md_offset, 8);           /* the metadata */
  put_be (hdr, JFR_GEN_START_NANOS, 8); /* startNanos */
  put_be (hdr, (guint64) end, 8);       /* durationNanos */
  put_be (hdr, 0, 8);                   /* startTicks */
  put_be (hdr, 1000000000, 8);          /* ticksPerSecond */
  put_u8 (hdr, 0);                      /* state: finished */
  put_u8 (hdr, 0);
  put_be (hdr, 3, 2);                   /* features */
  g_assert_cmpuint (hdr->len, ==, 68);
  memcpy (w->data, hdr->data, 68);
  return g_byte_array_free_to_bytes (w);
}

void
jfr_gen_write (const char *path, const JfrGenThread *threads, guint n_threads,
               const JfrGenEvent *events, guint n_events, const char * const *classes,
               guint n_classes)
{
  g_autoptr(GBytes) bytes = jfr_gen_build (threads, n_threads, events, n_events, classes, n_classes);
  g_autoptr(GError) error = NULL;
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);
  g_file_set_contents (path, data, (gssize) size, &error);
  g_assert_no_error (error);
}
