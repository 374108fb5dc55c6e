/* jvms-samples-private.h: what the sample store's writer and reader share: varints and the
 * (type, thread, stack) sums of a node. */
#pragma once

#include <glib.h>
#include <string.h>

#include "jvms-samples-format.h"

G_BEGIN_DECLS

/* One sum of a node, and of a query before it becomes a tree. */
typedef struct
{
  guint32 type;
  guint32 thread;
  guint32 stack;      /* NONE for samples without a stack */
  guint32 reserved;
  guint64 count;
  guint64 weight;
  guint64 on_cpu;
  guint64 waiting;
} JvmsSamplesSum;

/* Writes @v at @p, which has room for 10 bytes: the byte after it. */
static inline guint8 *
jvms_samples_varint_at (guint8 *p, guint64 v)
{
  while (v >= 0x80)
    {
      *p++ = (guint8) (v | 0x80);
      v >>= 7;
    }
  *p++ = (guint8) v;
  return p;
}

/* Room for @n more bytes at the end of @b: where they go. Growing once per record and writing
 * its varints with jvms_samples_varint_at costs one call where a call per varint (a block of
 * 4096 samples writes 30,000 of them) was a fiftieth of indexing. */
static inline guint8 *
jvms_samples_reserve (GByteArray *b, guint n)
{
  guint len = b->len;
  g_byte_array_set_size (b, len + n);
  b->len = len;
  return b->data + len;
}

/* The end of what was written at @b's end since jvms_samples_reserve(). */
static inline void
jvms_samples_commit (GByteArray *b, const guint8 *end)
{
  b->len = (guint) (end - b->data);
}

static inline void
jvms_samples_put_varint (GByteArray *b, guint64 v)
{
  jvms_samples_commit (b, jvms_samples_varint_at (jvms_samples_reserve (b, 10), v));
}

static inline guint64
jvms_samples_zigzag (gint64 v)
{
  return ((guint64) v << 1) ^ (guint64) (v >> 63);
}

static inline gint64
jvms_samples_unzigzag (guint64 v)
{
  return (gint64) (v >> 1) ^ -(gint64) (v & 1);
}

/* FALSE when the varint runs past @end or over 10 bytes. */
static inline gboolean
jvms_samples_get_varint (const guint8 **p, const guint8 *end, guint64 *out)
{
  guint64 v = 0;
  const guint8 *q = *p;
  for (guint shift = 0; shift < 70; shift += 7)
    {
      if (q >= end)
        return FALSE;
      guint8 byte = *q++;
      v |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *p = q;
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

/* An id map: two 64-bit words -> a 32-bit id, open addressing (the writer's interning, the
 * call tree's children). */

typedef struct
{
  guint64 a, b;
  guint32 id;    /* NONE: empty slot */
} JvmsSamplesIdSlot;

typedef struct
{
  JvmsSamplesIdSlot  *slots;
  gsize  mask;
  gsize  used;
} JvmsSamplesIdMap;

static inline void
jvms_samples_idmap_init (JvmsSamplesIdMap *m)
{
  m->mask = 1023;
  m->used = 0;
  m->slots = g_new (JvmsSamplesIdSlot, m->mask + 1);
  for (gsize i = 0; i <= m->mask; i++)
    m->slots[i].id = JVMS_SAMPLES_NONE;
}

static inline void
jvms_samples_idmap_clear (JvmsSamplesIdMap *m)
{
  g_clear_pointer (&m->slots, g_free);
}

static inline gsize
jvms_samples_idmap_hash (guint64 a, guint64 b)
{
  guint64 h = a * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) ^ (b + G_GUINT64_CONSTANT (0x632BE59BD9B4E019));
  h ^= h >> 32;
  h *= G_GUINT64_CONSTANT (0xD6E8FEB86659FD93);
  h ^= h >> 29;
  return (gsize) h;
}

G_ALWAYS_INLINE static inline JvmsSamplesIdSlot *
jvms_samples_idmap_find (JvmsSamplesIdMap *m, guint64 a, guint64 b)
{
  for (gsize i = jvms_samples_idmap_hash (a, b) & m->mask;; i = (i + 1) & m->mask)
    {
      JvmsSamplesIdSlot *s = &m->slots[i];
      if (s->id == JVMS_SAMPLES_NONE || (s->a == a && s->b == b))
        return s;
    }
}

static inline void
jvms_samples_idmap_grow (JvmsSamplesIdMap *m)
{
  JvmsSamplesIdSlot *old = m->slots;
  gsize old_n = m->mask + 1;
  m->mask = old_n * 2 - 1;
  m->slots = g_new (JvmsSamplesIdSlot, m->mask + 1);
  for (gsize i = 0; i <= m->mask; i++)
    m->slots[i].id = JVMS_SAMPLES_NONE;
  for (gsize i = 0; i < old_n; i++)
    if (old[i].id != JVMS_SAMPLES_NONE)
      *jvms_samples_idmap_find (m, old[i].a, old[i].b) = old[i];
  g_free (old);
}

/* The id of (@a, @b), or NONE with *@slot where a new one goes. Inlined: a call cost a fifth of
 * a lookup. */
G_ALWAYS_INLINE static inline guint32
jvms_samples_idmap_lookup (JvmsSamplesIdMap *m, guint64 a, guint64 b, JvmsSamplesIdSlot **slot)
{
  if ((m->used + 1) * 4 > (m->mask + 1) * 3)
    jvms_samples_idmap_grow (m);
  JvmsSamplesIdSlot *s = jvms_samples_idmap_find (m, a, b);
  *slot = s;
  return s->id;
}

static inline void
jvms_samples_idmap_set (JvmsSamplesIdMap *m, JvmsSamplesIdSlot *slot, guint64 a, guint64 b, guint32 id)
{
  slot->a = a;
  slot->b = b;
  slot->id = id;
  m->used++;
}

/* A value per id (stack, path) for one query at a time, kept by the calling thread from query to
 * query: fresh pages cost more to fault in than the query's work, and a generation number
 * forgets the previous query's values without clearing them. */
typedef struct
{
  guint32 *value;
  guint32 *generation_of;
  gsize    n;
  guint32  generation;
} JvmsDenseMemo;

static inline void
jvms_dense_memo_begin (JvmsDenseMemo *m, gsize n)
{
  if (m->n < n)
    {
      m->value = g_renew (guint32, m->value, n);
      m->generation_of = g_renew (guint32, m->generation_of, n);
      memset (m->generation_of + m->n, 0, (n - m->n) * sizeof (guint32));
      m->n = n;
    }
  if (++m->generation == 0)
    {
      memset (m->generation_of, 0, m->n * sizeof (guint32));
      m->generation = 1;
    }
}

/* NONE when @i has no value in this query. */
static inline guint32
jvms_dense_memo_get (const JvmsDenseMemo *m, gsize i)
{
  return m->generation_of[i] == m->generation ? m->value[i] : 0xFFFFFFFFu;
}

static inline void
jvms_dense_memo_set (JvmsDenseMemo *m, gsize i, guint32 v)
{
  m->generation_of[i] = m->generation;
  m->value[i] = v;
}

static inline void
jvms_dense_memo_clear (JvmsDenseMemo *m)
{
  g_free (m->value);
  g_free (m->generation_of);
  memset (m, 0, sizeof *m);
}

/* For tests: the sample types a writer takes (at most, and by default, the 2^24 its open run
 * packs), so that a store refused for too many types needs no 2^24 types interned. */
void jvms_samples_writer_set_max_types (struct _JvmsSamplesWriter *self, guint32 max_types);

G_END_DECLS
