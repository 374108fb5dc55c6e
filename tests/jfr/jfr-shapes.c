/* jfr-shapes.c: see jfr-shapes.h. */
#include "jfr-shapes.h"

#include "jfr-writer.h"

#define START_NANOS G_GINT64_CONSTANT (1700000000000000000)
#define START_TICKS 1000
#define PLAIN_ID    20
#define DAG_EVENT   21
#define REF_EVENT   22
#define NODE_ID     23
#define DAG_BASE    100

/* test.Plain: startTime, value int. One child of the metadata element. */
static void
plain_class (JfrMd *md)
{
  jfrw_md_elem (md, "class", 2, 3, "name", "test.Plain", "id", "20", "superType", "jdk.jfr.Event");
  jfrw_md_start_time (md);
  jfrw_md_field (md, "value", JFRW_INT, FALSE, FALSE);
}

static GByteArray *
plain_event (gint64 ticks, guint value)
{
  JfrW e = { g_byte_array_new () };
  jfrw_varint (&e, (guint64) ticks);
  jfrw_varint (&e, value);
  return e.b;
}

static void
add_plain_events (JfrW *w, JfrChunkW *c, guint n, gint64 first_ticks)
{
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GByteArray) e = plain_event (first_ticks + i, i);
      jfrw_chunk_record (w, c, PLAIN_ID, e);
    }
}

static void
chunk_begin (JfrW *w, JfrChunkW *c, gint64 start_ticks)
{
  *c = (JfrChunkW) { .start_nanos = START_NANOS + (start_ticks - START_TICKS),
                     .start_ticks = start_ticks };
  jfrw_chunk_begin (w, c);
}

static void
dag_class (JfrMd *md, guint k, guint fanout, gboolean leaf_int)
{
  char name[32], id[24];
  g_snprintf (name, sizeof name, "test.D%u", k);
  g_snprintf (id, sizeof id, "%u", DAG_BASE + k);
  guint n = k == 0 ? (leaf_int ? 1 : 0) : fanout;
  jfrw_md_elem (md, "class", n, 2, "name", name, "id", id);
  for (guint f = 0; f < n; f++)
    {
      char fname[16];
      g_snprintf (fname, sizeof fname, "f%u", f);
      jfrw_md_field (md, fname, k == 0 ? JFRW_INT : DAG_BASE + k - 1, FALSE, FALSE);
    }
}

GBytes *
jfr_shape_dag (guint levels, guint fanout, gboolean leaf_int, gboolean reversed,
               gboolean in_pool, gboolean in_event, guint n_events)
{
  g_return_val_if_fail (levels > 0, NULL);
  JfrMd md;
  jfrw_md_init (&md);
  jfrw_md_elem (&md, "root", 2, 0);
  jfrw_md_elem (&md, "metadata", JFRW_N_BASIC_CLASSES + 2 + levels, 0);
  jfrw_md_basic_classes (&md);
  plain_class (&md);
  char top[24];
  g_snprintf (top, sizeof top, "%u", DAG_BASE + levels - 1);
  /* bottom-up, the event class comes last: every class below it is known when it is met */
  if (!reversed)
    {
      jfrw_md_elem (&md, "class", 2, 3, "name", "test.Dag", "id", "21", "superType", "jdk.jfr.Event");
      jfrw_md_elem (&md, "field", 0, 2, "name", "d", "class", top);
      jfrw_md_start_time (&md);
    }
  for (guint i = 0; i < levels; i++)
    dag_class (&md, reversed ? i : levels - 1 - i, fanout, leaf_int);
  if (reversed)
    {
      jfrw_md_elem (&md, "class", 2, 3, "name", "test.Dag", "id", "21", "superType", "jdk.jfr.Event");
      jfrw_md_elem (&md, "field", 0, 2, "name", "d", "class", top);
      jfrw_md_start_time (&md);
    }
  jfrw_md_region (&md);
  g_autoptr(GByteArray) meta = jfrw_md_finish (&md, 1);

  JfrW w = { g_byte_array_new () };
  JfrChunkW c;
  chunk_begin (&w, &c, START_TICKS);
  if (in_pool)
    {
      JfrW cp = { g_byte_array_new () };
      jfrw_checkpoint_begin (&cp, START_TICKS, 1);
      jfrw_varint (&cp, DAG_BASE + levels - 1);
      jfrw_varint (&cp, 1);
      jfrw_varint (&cp, 1);         /* key; the value takes no byte when D0 is empty */
      if (leaf_int)
        jfrw_varint (&cp, 7);       /* the first leaf only: the rest is missing */
      jfrw_chunk_record (&w, &c, 1, cp.b);
      g_byte_array_unref (cp.b);
    }
  jfrw_chunk_record (&w, &c, 0, meta);
  if (in_event)
    for (guint i = 0; i < MAX (n_events, 1); i++)
      {
        JfrW e = { g_byte_array_new () };
        if (leaf_int)
          jfrw_varint (&e, 7);
        jfrw_varint (&e, START_TICKS + i);
        jfrw_chunk_record (&w, &c, DAG_EVENT, e.b);
        g_byte_array_unref (e.b);
      }
  add_plain_events (&w, &c, n_events, START_TICKS + 10);
  jfrw_chunk_end (&w, &c);
  return g_byte_array_free_to_bytes (w.b);
}

GBytes *
jfr_shape_constants (guint fanout, guint levels, guint n_events)
{
  JfrMd md;
  jfrw_md_init (&md);
  jfrw_md_elem (&md, "root", 2, 0);
  jfrw_md_elem (&md, "metadata", JFRW_N_BASIC_CLASSES + 3, 0);
  jfrw_md_basic_classes (&md);
  plain_class (&md);
  jfrw_md_elem (&md, "class", 2, 3, "name", "test.Ref", "id", "22", "superType", "jdk.jfr.Event");
  jfrw_md_start_time (&md);
  jfrw_md_field (&md, "node", NODE_ID, TRUE, FALSE);
  jfrw_md_class (&md, "test.Node", NODE_ID, fanout);
  for (guint f = 0; f < fanout; f++)
    {
      char fname[16];
      g_snprintf (fname, sizeof fname, "n%u", f);
      jfrw_md_field (&md, fname, NODE_ID, TRUE, FALSE);
    }
  jfrw_md_region (&md);
  g_autoptr(GByteArray) meta = jfrw_md_finish (&md, 1);

  JfrW w = { g_byte_array_new () };
  JfrChunkW c;
  chunk_begin (&w, &c, START_TICKS);
  JfrW cp = { g_byte_array_new () };
  jfrw_checkpoint_begin (&cp, START_TICKS, 1);
  jfrw_varint (&cp, NODE_ID);
  jfrw_varint (&cp, MAX (levels, 1));
  for (guint k = 1; k <= MAX (levels, 1); k++)
    {
      jfrw_varint (&cp, k);
      for (guint f = 0; f < fanout; f++)
        jfrw_varint (&cp, levels == 0 ? k : k - 1);
    }
  jfrw_chunk_record (&w, &c, 1, cp.b);
  g_byte_array_unref (cp.b);
  jfrw_chunk_record (&w, &c, 0, meta);
  for (guint i = 0; i < n_events; i++)
    {
      JfrW e = { g_byte_array_new () };
      jfrw_varint (&e, START_TICKS + i);
      jfrw_varint (&e, MAX (levels, 1));
      jfrw_chunk_record (&w, &c, REF_EVENT, e.b);
      g_byte_array_unref (e.b);
    }
  jfrw_chunk_end (&w, &c);
  return g_byte_array_free_to_bytes (w.b);
}

static GByteArray *
plain_metadata (guint variant, gboolean high_id)
{
  JfrMd md;
  jfrw_md_init (&md);
  jfrw_md_elem (&md, "root", 2, 0);
  jfrw_md_elem (&md, "metadata", JFRW_N_BASIC_CLASSES + 1 + (high_id ? 1 : 0), 0);
  jfrw_md_basic_classes (&md);
  if (high_id)
    jfrw_md_class (&md, "test.High", 65000, 0);
  if (variant == 0)
    plain_class (&md);
  else
    {
      /* the same layout under another field name: contents differ, ids stay */
      char fname[24];
      g_snprintf (fname, sizeof fname, "value%u", variant);
      jfrw_md_elem (&md, "class", 2, 3, "name", "test.Plain", "id", "20", "superType", "jdk.jfr.Event");
      jfrw_md_start_time (&md);
      jfrw_md_field (&md, fname, JFRW_INT, FALSE, FALSE);
    }
  jfrw_md_region (&md);
  return jfrw_md_finish (&md, variant + 1);
}

GBytes *
jfr_shape_many_chunks (guint n_chunks, gboolean distinct_metadata, gboolean high_id)
{
  JfrW w = { g_byte_array_new () };
  GByteArray *shared = distinct_metadata ? NULL : plain_metadata (0, high_id);
  for (guint k = 0; k < n_chunks; k++)
    {
      JfrChunkW c;
      chunk_begin (&w, &c, START_TICKS + (gint64) k * 1000);
      GByteArray *meta = shared ? shared : plain_metadata (k, high_id);
      jfrw_chunk_record (&w, &c, 0, meta);
      if (meta != shared)
        g_byte_array_unref (meta);
      add_plain_events (&w, &c, 1, c.start_ticks + 1);
      jfrw_chunk_end (&w, &c);
    }
  if (shared)
    g_byte_array_unref (shared);
  return g_byte_array_free_to_bytes (w.b);
}

GBytes *
jfr_shape_tiny_elements (guint n_tiny, guint n_events)
{
  JfrMd md;
  jfrw_md_init (&md);
  jfrw_md_str (&md, "x");   /* index 0: each tiny element is 00 00 00 */
  jfrw_md_elem (&md, "root", 2 + n_tiny, 0);
  jfrw_md_elem (&md, "metadata", JFRW_N_BASIC_CLASSES + 1, 0);
  jfrw_md_basic_classes (&md);
  plain_class (&md);
  jfrw_md_region (&md);
  for (guint i = 0; i < n_tiny; i++)
    jfrw_md_elem (&md, "x", 0, 0);
  g_autoptr(GByteArray) meta = jfrw_md_finish (&md, 1);
  JfrW w = { g_byte_array_new () };
  JfrChunkW c;
  chunk_begin (&w, &c, START_TICKS);
  jfrw_chunk_record (&w, &c, 0, meta);
  add_plain_events (&w, &c, n_events, START_TICKS + 1);
  jfrw_chunk_end (&w, &c);
  return g_byte_array_free_to_bytes (w.b);
}

GBytes *
jfr_shape_plain (guint n_chunks, guint events_per_chunk)
{
  JfrW w = { g_byte_array_new () };
  g_autoptr(GByteArray) meta = plain_metadata (0, FALSE);
  for (guint k = 0; k < n_chunks; k++)
    {
      JfrChunkW c;
      chunk_begin (&w, &c, START_TICKS + (gint64) k * 1000000);
      jfrw_chunk_record (&w, &c, 0, meta);
      add_plain_events (&w, &c, events_per_chunk, c.start_ticks + 1);
      jfrw_chunk_end (&w, &c);
    }
  return g_byte_array_free_to_bytes (w.b);
}
