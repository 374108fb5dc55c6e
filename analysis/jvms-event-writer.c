/* jvms-event-writer.c: the event store's writer (jvms-event-format.h). */
#include "jvms-event-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <lz4.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Blocks kept in memory after they are full, so that rows ending soon after are finished in
 * place (a system call of a few microseconds) without a late slot. */
#define RING_BLOCKS     8
/* Postings rearranged per pass at close: 2^21 x 16 bytes = 32 MiB. */
#define POSTINGS_BUDGET (G_GUINT64_CONSTANT (1) << 21)

typedef struct
{
  char    *name;
  char    *label;
  guint32  unit;
} Field;

typedef struct
{
  char       *name;
  char       *label;
  guint32     flags;
  GPtrArray  *fields;    /* Field* */
  GHashTable *by_name;   /* name -> index + 1 */
} Type;

typedef struct
{
  guint32 kind;
  guint32 type;
  gint64  tid;
} StreamKey;

typedef struct
{
  StreamKey key;
  guint32   id;          /* creation order: the spill's stream number */
  guint64   n_rows;
  guint64   n_postings;
  gint64    cur_block;   /* the block being counted, -1 before any */
  guint32   cur_count;
  guint64   first_posting;
  guint64   fill;
} Stream;

typedef struct
{
  GByteArray *raw;       /* rows, back to back */
  GArray     *offsets;   /* guint32: each row's offset in raw */
  guint64     first_row;
  guint       n_pending;
} Block;

/* A posting as it is spilled while blocks are written, before streams are sorted. */
typedef struct
{
  guint32 stream;
  guint32 block;
  guint32 count;
  guint32 pad;
  guint64 before;
} SpillPosting;

typedef struct
{
  gint64  row;
  guint64 slot;
} LateRow;

struct _JvmsEventWriter
{
  char       *path;
  char       *tmp_path;
  FILE       *out;
  guint64     out_pos;
  int         late_fd;
  FILE       *blocks_tmp;
  FILE       *postings_tmp;
  guint64     n_late;
  GHashTable *late_rows;     /* &LateRow.row -> LateRow* */

  GPtrArray  *types;         /* Type* */
  GHashTable *types_by_name; /* name -> index + 1 */
  GHashTable *streams;       /* StreamKey* -> Stream* */
  GPtrArray  *stream_list;   /* Stream*, by id */

  GQueue      ring;          /* Block*, oldest first */
  guint64     n_rows;
  guint64     n_blocks;
  guint64     n_postings;
  gint64      last_time;
  gboolean    have_time;

  gboolean            in_row;
  JvmsEventRowHeader  row;
  GByteArray         *payload;
  guint               n_values;

  GByteArray *scratch;
  GByteArray *compressed;

  int         error_errno;   /* the first write error */
  char       *error_what;
  gboolean    closed;
};

/* ------------------------------------------------------------------------------------------ */

static void
fail (JvmsEventWriter *self, const char *what)
{
  if (self->error_what != NULL)
    return;
  self->error_errno = errno != 0 ? errno : EIO;
  self->error_what = g_strdup (what);
}

static void
out_write (JvmsEventWriter *self, const void *data, gsize len)
{
  if (len > 0 && fwrite (data, 1, len, self->out) != len)
    fail (self, "writing");
  self->out_pos += len;
}

static void
out_align (JvmsEventWriter *self)
{
  static const guint8 zeros[8] = { 0 };
  gsize pad = (8 - (self->out_pos & 7)) & 7;
  out_write (self, zeros, pad);
}

/* An anonymous scratch file beside the store (so that it shares the store's disk, not /tmp). */
static int
scratch_fd (const char *path, const char *suffix, GError **error)
{
  g_autofree char *name = g_strdup_printf ("%s.tmp-%d-%s", path, (int) getpid (), suffix);
  int fd = g_open (name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", name, g_strerror (saved));
      return -1;
    }
  g_unlink (name);
  return fd;
}

static FILE *
scratch_file (const char *path, const char *suffix, GError **error)
{
  int fd = scratch_fd (path, suffix, error);
  if (fd < 0)
    return NULL;
  FILE *f = fdopen (fd, "w+b");
  if (f == NULL)
    {
      int saved = errno;
      close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path, g_strerror (saved));
    }
  return f;
}

static void
type_free (gpointer p)
{
  Type *t = p;
  g_free (t->name);
  g_free (t->label);
  g_ptr_array_unref (t->fields);
  g_hash_table_unref (t->by_name);
  g_free (t);
}

static void
field_free (gpointer p)
{
  Field *f = p;
  g_free (f->name);
  g_free (f->label);
  g_free (f);
}

static void
block_free (gpointer p)
{
  Block *b = p;
  g_byte_array_unref (b->raw);
  g_array_unref (b->offsets);
  g_free (b);
}

static guint
stream_key_hash (gconstpointer p)
{
  const StreamKey *k = p;
  guint64 h = ((guint64) k->kind << 32 | k->type) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  h ^= (guint64) k->tid + G_GUINT64_CONSTANT (0x632BE59BD9B4E019) + (h << 6) + (h >> 2);
  return (guint) (h ^ (h >> 32));
}

static gboolean
stream_key_equal (gconstpointer a, gconstpointer b)
{
  const StreamKey *x = a, *y = b;
  return x->kind == y->kind && x->type == y->type && x->tid == y->tid;
}

JvmsEventWriter *
jvms_event_writer_new (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autofree char *tmp = g_strdup_printf ("%s.tmp-%d", path, (int) getpid ());
  FILE *out = fopen (tmp, "wbe");
  if (out == NULL)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", tmp, g_strerror (saved));
      return NULL;
    }
  JvmsEventWriter *self = g_new0 (JvmsEventWriter, 1);
  self->path = g_strdup (path);
  self->tmp_path = g_steal_pointer (&tmp);
  self->out = out;
  self->late_fd = -1;
  self->types = g_ptr_array_new_with_free_func (type_free);
  self->types_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->streams = g_hash_table_new (stream_key_hash, stream_key_equal);
  self->stream_list = g_ptr_array_new_with_free_func (g_free);
  self->late_rows = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  self->payload = g_byte_array_new ();
  self->scratch = g_byte_array_new ();
  self->compressed = g_byte_array_new ();
  g_queue_init (&self->ring);

  self->late_fd = scratch_fd (path, "late", error);
  if (self->late_fd < 0
      || (self->blocks_tmp = scratch_file (path, "blocks", error)) == NULL
      || (self->postings_tmp = scratch_file (path, "postings", error)) == NULL)
    {
      jvms_event_writer_free (self);
      return NULL;
    }
  /* The header is written last, over this placeholder. */
  JvmsEventFileHeader header = { 0 };
  out_write (self, &header, sizeof header);
  return self;
}

/* ------------------------------------------------------------------------------------------ */
/* Types and fields */

static char *
cut_name (const char *s)
{
  if (s == NULL)
    return NULL;
  gsize len = strlen (s);
  if (len <= JVMS_EVENT_MAX_NAME)
    return g_strdup (s);
  const char *end = g_utf8_find_prev_char (s, s + JVMS_EVENT_MAX_NAME + 1);
  return g_strndup (s, end != NULL ? (gsize) (end - s) : 0);
}

guint32
jvms_event_writer_add_type (JvmsEventWriter *self, const char *name, const char *label,
                            guint32 flags)
{
  g_return_val_if_fail (self != NULL && name != NULL, JVMS_EVENT_NONE);
  gpointer found = g_hash_table_lookup (self->types_by_name, name);
  if (found != NULL)
    {
      Type *t = g_ptr_array_index (self->types, GPOINTER_TO_UINT (found) - 1);
      t->flags |= flags;
      if (t->label == NULL && label != NULL)
        t->label = cut_name (label);
      return GPOINTER_TO_UINT (found) - 1;
    }
  if (self->types->len >= JVMS_EVENT_MAX_TYPES)
    return JVMS_EVENT_NONE;
  Type *t = g_new0 (Type, 1);
  t->name = cut_name (name);
  t->label = cut_name (label);
  t->flags = flags;
  t->fields = g_ptr_array_new_with_free_func (field_free);
  t->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_ptr_array_add (self->types, t);
  /* Keyed by the caller's full name, so that a long name cut short still finds itself. */
  g_hash_table_insert (self->types_by_name, g_strdup (name), GUINT_TO_POINTER (self->types->len));
  return self->types->len - 1;
}

guint
jvms_event_writer_add_field (JvmsEventWriter *self, guint32 type, const char *name,
                             const char *label, JvmsEventUnit unit)
{
  g_return_val_if_fail (self != NULL && name != NULL, G_MAXUINT);
  if (type >= self->types->len)
    return G_MAXUINT;
  Type *t = g_ptr_array_index (self->types, type);
  gpointer found = g_hash_table_lookup (t->by_name, name);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  if (t->fields->len >= JVMS_EVENT_MAX_FIELDS)
    return G_MAXUINT;
  Field *f = g_new0 (Field, 1);
  f->name = cut_name (name);
  f->label = cut_name (label);
  f->unit = unit < JVMS_EVENT_N_UNITS ? unit : JVMS_EVENT_UNIT_NONE;
  g_ptr_array_add (t->fields, f);
  g_hash_table_insert (t->by_name, g_strdup (name), GUINT_TO_POINTER (t->fields->len));
  return t->fields->len - 1;
}

guint
jvms_event_writer_get_n_types (JvmsEventWriter *self)
{
  return self->types->len;
}

/* ------------------------------------------------------------------------------------------ */
/* Rows */

void
jvms_event_writer_begin (JvmsEventWriter *self, gint64 time, gint64 duration, guint32 type,
                         gint64 tid, guint32 stack)
{
  g_return_if_fail (self != NULL && !self->closed);
  g_return_if_fail (type < self->types->len);
  self->in_row = TRUE;
  memset (&self->row, 0, sizeof self->row);
  self->row.time = time;
  self->row.duration = duration == JVMS_EVENT_WRITER_PENDING || duration >= 0
                         ? duration : JVMS_EVENT_DURATION_UNKNOWN;
  self->row.tid = tid;
  self->row.type = type;
  self->row.stack = stack;
  g_byte_array_set_size (self->payload, 0);
  self->n_values = 0;
}

static gboolean
value_head (JvmsEventWriter *self, guint field, JvmsEventValueKind kind)
{
  if (!self->in_row || field >= JVMS_EVENT_MAX_FIELDS || self->n_values >= G_MAXUINT16)
    return FALSE;
  guint16 f = (guint16) field;
  guint8 k = (guint8) kind;
  g_byte_array_append (self->payload, (const guint8 *) &f, 2);
  g_byte_array_append (self->payload, &k, 1);
  self->n_values++;
  return TRUE;
}

void
jvms_event_writer_result (JvmsEventWriter *self, guint field)
{
  g_return_if_fail (self->n_values == 0);
  if (!value_head (self, field, JVMS_EVENT_VALUE_RESULT_NULL))
    return;
  gint64 zero = 0;
  g_byte_array_append (self->payload, (const guint8 *) &zero, 8);
  self->row.flags |= JVMS_EVENT_ROW_HAS_RESULT;
}

void
jvms_event_writer_null (JvmsEventWriter *self, guint field)
{
  value_head (self, field, JVMS_EVENT_VALUE_NULL);
}

void
jvms_event_writer_boolean (JvmsEventWriter *self, guint field, gboolean value)
{
  value_head (self, field, value ? JVMS_EVENT_VALUE_TRUE : JVMS_EVENT_VALUE_FALSE);
}

void
jvms_event_writer_int (JvmsEventWriter *self, guint field, JvmsEventValueKind kind, gint64 value)
{
  g_return_if_fail (kind == JVMS_EVENT_VALUE_INT || kind == JVMS_EVENT_VALUE_TIMESTAMP
                    || kind == JVMS_EVENT_VALUE_TIMESPAN);
  if (value_head (self, field, kind))
    g_byte_array_append (self->payload, (const guint8 *) &value, 8);
}

void
jvms_event_writer_double (JvmsEventWriter *self, guint field, double value)
{
  if (value_head (self, field, JVMS_EVENT_VALUE_DOUBLE))
    g_byte_array_append (self->payload, (const guint8 *) &value, 8);
}

void
jvms_event_writer_string (JvmsEventWriter *self, guint field, const char *value)
{
  if (value == NULL)
    {
      jvms_event_writer_null (self, field);
      return;
    }
  gsize len = strlen (value);
  if (len > JVMS_EVENT_MAX_STRING)
    {
      const char *end = g_utf8_find_prev_char (value, value + JVMS_EVENT_MAX_STRING + 1);
      len = end != NULL ? (gsize) (end - value) : 0;
    }
  if (!value_head (self, field, JVMS_EVENT_VALUE_STRING))
    return;
  guint32 l = (guint32) len;
  g_byte_array_append (self->payload, (const guint8 *) &l, 4);
  g_byte_array_append (self->payload, (const guint8 *) value, (guint) len);
  /* Read in place as a C string. */
  g_byte_array_append (self->payload, (const guint8 *) "", 1);
}

static Stream *
stream_get (JvmsEventWriter *self, guint32 kind, guint32 type, gint64 tid)
{
  StreamKey key = { kind, type, tid };
  Stream *s = g_hash_table_lookup (self->streams, &key);
  if (s == NULL)
    {
      s = g_new0 (Stream, 1);
      s->key = key;
      s->id = self->stream_list->len;
      s->cur_block = -1;
      g_ptr_array_add (self->stream_list, s);
      g_hash_table_insert (self->streams, &s->key, s);
    }
  return s;
}

static void
stream_count (JvmsEventWriter *self, Stream *s, GPtrArray *touched)
{
  if (s->cur_block != (gint64) self->n_blocks)
    {
      s->cur_block = (gint64) self->n_blocks;
      s->cur_count = 0;
      g_ptr_array_add (touched, s);
    }
  s->cur_count++;
}

static const JvmsEventRowHeader *
row_at (Block *b, guint i, JvmsEventRowHeader *out)
{
  memcpy (out, b->raw->data + g_array_index (b->offsets, guint32, i), sizeof *out);
  return out;
}

/* Sets a row's duration and result in a block still in memory. */
static void
patch_row (Block *b, guint i, gint64 duration, JvmsEventValueKind result_kind, gint64 result)
{
  guint8 *p = b->raw->data + g_array_index (b->offsets, guint32, i);
  JvmsEventRowHeader h;
  memcpy (&h, p, sizeof h);
  memcpy (p + G_STRUCT_OFFSET (JvmsEventRowHeader, duration), &duration, 8);
  if (h.flags & JVMS_EVENT_ROW_HAS_RESULT)
    {
      guint8 k = (guint8) result_kind;
      memcpy (p + sizeof h + 2, &k, 1);
      memcpy (p + sizeof h + 3, &result, 8);
    }
}

static void
late_write (JvmsEventWriter *self, guint64 slot, gint64 duration, gint64 result)
{
  JvmsEventLate late = { duration, result };
  if (pwrite (self->late_fd, &late, sizeof late, (off_t) (slot * sizeof late)) != sizeof late)
    fail (self, "writing the late table");
}

/* Compresses and writes the oldest block of the ring, with its directory entry and postings. */
static void
flush_block (JvmsEventWriter *self)
{
  Block *b = g_queue_pop_head (&self->ring);
  if (b == NULL)
    return;
  guint n = b->offsets->len;
  JvmsEventRowHeader h;

  /* Rows still running get a late slot. */
  for (guint i = 0; b->n_pending > 0 && i < n; i++)
    if (row_at (b, i, &h)->duration == JVMS_EVENT_WRITER_PENDING)
      {
        guint64 slot = self->n_late++;
        patch_row (b, i, -(gint64) slot - 2, JVMS_EVENT_VALUE_LATE, (gint64) slot);
        late_write (self, slot, JVMS_EVENT_DURATION_UNKNOWN, G_MININT64);
        LateRow *lr = g_new (LateRow, 1);
        lr->row = (gint64) (b->first_row + i);
        lr->slot = slot;
        g_hash_table_insert (self->late_rows, &lr->row, lr);
        b->n_pending--;
      }

  /* Stream counts and the block's time span. */
  g_autoptr(GPtrArray) touched = g_ptr_array_new ();
  gint64 first_time = 0, last_time = self->last_time;
  guint32 prev_type = JVMS_EVENT_NONE;
  gint64 prev_tid = 0;
  Stream *s_type = NULL, *s_thread = NULL, *s_pair = NULL;
  for (guint i = 0; i < n; i++)
    {
      row_at (b, i, &h);
      if (i == 0)
        first_time = self->have_time ? MAX (h.time, self->last_time) : h.time;
      last_time = self->have_time || i > 0 ? MAX (last_time, h.time) : h.time;
      if (h.type != prev_type || h.tid != prev_tid || s_type == NULL)
        {
          s_type = stream_get (self, JVMS_EVENT_STREAM_TYPE, h.type, JVMS_EVENT_ANY_TID);
          s_thread = stream_get (self, JVMS_EVENT_STREAM_THREAD, JVMS_EVENT_NONE, h.tid);
          s_pair = stream_get (self, JVMS_EVENT_STREAM_PAIR, h.type, h.tid);
          prev_type = h.type;
          prev_tid = h.tid;
        }
      stream_count (self, s_type, touched);
      stream_count (self, s_thread, touched);
      stream_count (self, s_pair, touched);
    }
  for (guint i = 0; i < touched->len; i++)
    {
      Stream *s = g_ptr_array_index (touched, i);
      SpillPosting sp = { s->id, (guint32) self->n_blocks, s->cur_count, 0, s->n_rows };
      if (fwrite (&sp, sizeof sp, 1, self->postings_tmp) != 1)
        fail (self, "writing postings");
      s->n_rows += s->cur_count;
      s->n_postings++;
      self->n_postings++;
    }

  /* u32 n_rows, u32 offsets[n_rows] from the block's start, rows. */
  guint32 table = 4 + 4 * n;
  g_byte_array_set_size (self->scratch, table + b->raw->len);
  guint32 n32 = n;
  memcpy (self->scratch->data, &n32, 4);
  for (guint i = 0; i < n; i++)
    {
      guint32 off = g_array_index (b->offsets, guint32, i) + table;
      memcpy (self->scratch->data + 4 + 4 * i, &off, 4);
    }
  memcpy (self->scratch->data + table, b->raw->data, b->raw->len);
  int bound = LZ4_compressBound ((int) self->scratch->len);
  g_byte_array_set_size (self->compressed, (guint) bound);
  int csize = LZ4_compress_default ((const char *) self->scratch->data, (char *) self->compressed->data,
                                    (int) self->scratch->len, bound);
  if (csize <= 0)
    {
      errno = EINVAL;
      fail (self, "compressing a block");
      csize = 0;
    }
  JvmsEventBlockEntry e = {
    .offset = self->out_pos,
    .compressed_size = (guint32) csize,
    .raw_size = self->scratch->len,
    .first_row = b->first_row,
    .n_rows = n,
    .first_time = first_time,
    .last_time = last_time,
  };
  out_write (self, self->compressed->data, (gsize) csize);
  if (fwrite (&e, sizeof e, 1, self->blocks_tmp) != 1)
    fail (self, "writing the block directory");
  self->last_time = last_time;
  self->have_time = TRUE;
  self->n_blocks++;
  block_free (b);
}

guint64
jvms_event_writer_commit (JvmsEventWriter *self)
{
  g_return_val_if_fail (self->in_row, G_MAXUINT64);
  self->in_row = FALSE;
  self->row.payload_len = self->payload->len;
  self->row.n_values = (guint16) self->n_values;

  Block *b = g_queue_peek_tail (&self->ring);
  gsize row_size = sizeof self->row + self->payload->len;
  if (b == NULL || b->offsets->len >= JVMS_EVENT_BLOCK_ROWS
      || (b->offsets->len > 0 && b->raw->len + row_size > JVMS_EVENT_BLOCK_BYTES))
    {
      b = g_new0 (Block, 1);
      b->raw = g_byte_array_sized_new (JVMS_EVENT_BLOCK_BYTES);
      b->offsets = g_array_sized_new (FALSE, FALSE, sizeof (guint32), JVMS_EVENT_BLOCK_ROWS);
      b->first_row = self->n_rows;
      g_queue_push_tail (&self->ring, b);
      if (self->ring.length > RING_BLOCKS)
        flush_block (self);
    }
  guint32 off = b->raw->len;
  g_array_append_val (b->offsets, off);
  g_byte_array_append (b->raw, (const guint8 *) &self->row, sizeof self->row);
  g_byte_array_append (b->raw, self->payload->data, self->payload->len);
  if (self->row.duration == JVMS_EVENT_WRITER_PENDING)
    b->n_pending++;
  return self->n_rows++;
}

void
jvms_event_writer_end_row (JvmsEventWriter *self, guint64 row, gint64 duration,
                           gboolean has_result, gint64 result)
{
  g_return_if_fail (self != NULL);
  if (duration < 0)
    duration = JVMS_EVENT_DURATION_UNKNOWN;
  for (GList *l = self->ring.tail; l != NULL; l = l->prev)
    {
      Block *b = l->data;
      if (row < b->first_row)
        continue;
      guint64 i = row - b->first_row;
      JvmsEventRowHeader h;
      if (i >= b->offsets->len || row_at (b, (guint) i, &h)->duration != JVMS_EVENT_WRITER_PENDING)
        return;
      patch_row (b, (guint) i, duration,
                 has_result ? JVMS_EVENT_VALUE_INT : JVMS_EVENT_VALUE_RESULT_NULL,
                 has_result ? result : 0);
      b->n_pending--;
      return;
    }
  gint64 key = (gint64) row;
  LateRow *lr = g_hash_table_lookup (self->late_rows, &key);
  if (lr == NULL)
    return;
  late_write (self, lr->slot, duration, has_result ? result : G_MININT64);
  g_hash_table_remove (self->late_rows, &key);
}

guint64
jvms_event_writer_get_n_rows (JvmsEventWriter *self)
{
  return self->n_rows;
}

/* ------------------------------------------------------------------------------------------ */
/* Close */

static void
copy_from (JvmsEventWriter *self, int fd, guint64 size, const char *what)
{
  g_autofree guint8 *buf = g_malloc (1 << 20);
  guint64 done = 0;
  while (done < size)
    {
      gsize want = (gsize) MIN (size - done, (guint64) (1 << 20));
      ssize_t got = pread (fd, buf, want, (off_t) done);
      if (got <= 0)
        {
          if (got == 0)
            errno = EIO;
          fail (self, what);
          return;
        }
      out_write (self, buf, (gsize) got);
      done += (guint64) got;
    }
}

static void
put_str (GByteArray *b, const char *s)
{
  guint32 len = s != NULL ? (guint32) strlen (s) : 0;
  g_byte_array_append (b, (const guint8 *) &len, 4);
  if (len > 0)
    g_byte_array_append (b, (const guint8 *) s, len);
}

static void
put_u32 (GByteArray *b, guint32 v)
{
  g_byte_array_append (b, (const guint8 *) &v, 4);
}

static int
stream_cmp (gconstpointer a, gconstpointer b)
{
  const Stream *x = *(Stream * const *) a, *y = *(Stream * const *) b;
  if (x->key.kind != y->key.kind)
    return x->key.kind < y->key.kind ? -1 : 1;
  if (x->key.type != y->key.type)
    return x->key.type < y->key.type ? -1 : 1;
  if (x->key.tid != y->key.tid)
    return x->key.tid < y->key.tid ? -1 : 1;
  return 0;
}

/* Postings grouped by stream: passes over the spill, each filling a bounded window of the
 * output in memory. */
static void
write_postings (JvmsEventWriter *self)
{
  if (fflush (self->postings_tmp) != 0)
    fail (self, "writing postings");
  int fd = fileno (self->postings_tmp);
  guint64 total = self->n_postings;
  g_autofree JvmsEventPosting *window = g_new0 (JvmsEventPosting, MIN (total, POSTINGS_BUDGET) + 1);
  g_autofree SpillPosting *in = g_new (SpillPosting, 4096);
  for (guint64 lo = 0; lo < total; lo += POSTINGS_BUDGET)
    {
      guint64 hi = MIN (total, lo + POSTINGS_BUDGET);
      for (guint i = 0; i < self->stream_list->len; i++)
        ((Stream *) g_ptr_array_index (self->stream_list, i))->fill = 0;
      guint64 at = 0, read = 0;
      while (read < total)
        {
          gsize want = (gsize) MIN (total - read, (guint64) 4096);
          ssize_t got = pread (fd, in, want * sizeof *in, (off_t) at);
          if (got <= 0 || got % sizeof *in != 0)
            {
              errno = EIO;
              fail (self, "reading postings back");
              return;
            }
          gsize k = (gsize) got / sizeof *in;
          for (gsize j = 0; j < k; j++)
            {
              if (in[j].stream >= self->stream_list->len)
                continue;
              Stream *s = g_ptr_array_index (self->stream_list, in[j].stream);
              guint64 pos = s->first_posting + s->fill++;
              if (pos >= lo && pos < hi)
                window[pos - lo] = (JvmsEventPosting) { in[j].block, in[j].count, in[j].before };
            }
          at += (guint64) got;
          read += k;
        }
      out_write (self, window, (gsize) (hi - lo) * sizeof *window);
    }
}

gboolean
jvms_event_writer_close (JvmsEventWriter *self, GError **error)
{
  g_return_val_if_fail (self != NULL && !self->closed, FALSE);
  if (self->in_row)
    jvms_event_writer_commit (self);
  /* Rows that never ended: unknown. */
  for (GList *l = self->ring.head; l != NULL; l = l->next)
    {
      Block *b = l->data;
      JvmsEventRowHeader h;
      for (guint i = 0; b->n_pending > 0 && i < b->offsets->len; i++)
        if (row_at (b, i, &h)->duration == JVMS_EVENT_WRITER_PENDING)
          {
            patch_row (b, i, JVMS_EVENT_DURATION_UNKNOWN, JVMS_EVENT_VALUE_RESULT_NULL, 0);
            b->n_pending--;
          }
    }
  while (self->ring.length > 0)
    flush_block (self);

  JvmsEventFileHeader header = { 0 };
  memcpy (header.magic, JVMS_EVENT_MAGIC, 8);
  header.version = JVMS_EVENT_VERSION;
  header.header_size = sizeof header;
  header.n_rows = self->n_rows;
  header.last_time = self->last_time;
  header.n_blocks = self->n_blocks;

  out_align (self);
  header.late_offset = self->out_pos;
  header.n_late = self->n_late;
  copy_from (self, self->late_fd, self->n_late * sizeof (JvmsEventLate), "copying the late table");

  out_align (self);
  header.types_offset = self->out_pos;
  header.n_types = self->types->len;
  {
    g_autoptr(GByteArray) b = g_byte_array_new ();
    for (guint i = 0; i < self->types->len; i++)
      {
        Type *t = g_ptr_array_index (self->types, i);
        put_str (b, t->name);
        put_str (b, t->label);
        put_u32 (b, t->flags);
        put_u32 (b, t->fields->len);
        for (guint j = 0; j < t->fields->len; j++)
          {
            Field *f = g_ptr_array_index (t->fields, j);
            put_str (b, f->name);
            put_str (b, f->label);
            put_u32 (b, f->unit);
          }
      }
    header.types_size = b->len;
    out_write (self, b->data, b->len);
  }

  out_align (self);
  header.blocks_dir_offset = self->out_pos;
  if (fflush (self->blocks_tmp) != 0)
    fail (self, "writing the block directory");
  copy_from (self, fileno (self->blocks_tmp), self->n_blocks * sizeof (JvmsEventBlockEntry),
             "copying the block directory");

  /* Streams in (kind, type, tid) order, each with its run of postings. */
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  for (guint i = 0; i < self->stream_list->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (self->stream_list, i));
  g_ptr_array_sort (sorted, stream_cmp);
  guint64 next = 0;
  out_align (self);
  header.streams_offset = self->out_pos;
  header.n_streams = sorted->len;
  for (guint i = 0; i < sorted->len; i++)
    {
      Stream *s = g_ptr_array_index (sorted, i);
      s->first_posting = next;
      next += s->n_postings;
      JvmsEventStreamEntry e = { s->key.kind, s->key.type, s->key.tid, s->n_rows,
                                 s->first_posting, s->n_postings };
      out_write (self, &e, sizeof e);
    }
  out_align (self);
  header.postings_offset = self->out_pos;
  header.n_postings = self->n_postings;
  write_postings (self);
  header.file_size = self->out_pos;

  if (fflush (self->out) != 0)
    fail (self, "writing");
  if (self->error_what == NULL && pwrite (fileno (self->out), &header, sizeof header, 0) != sizeof header)
    fail (self, "writing the header");
  if (fclose (self->out) != 0)
    fail (self, "closing");
  self->out = NULL;
  self->closed = TRUE;
  if (self->error_what != NULL)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (self->error_errno),
                   "%s: %s the event store: %s", self->tmp_path, self->error_what,
                   g_strerror (self->error_errno));
      g_unlink (self->tmp_path);
      return FALSE;
    }
  if (g_rename (self->tmp_path, self->path) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", self->path,
                   g_strerror (saved));
      g_unlink (self->tmp_path);
      return FALSE;
    }
  return TRUE;
}

void
jvms_event_writer_free (JvmsEventWriter *self)
{
  if (self == NULL)
    return;
  if (self->out != NULL)
    {
      fclose (self->out);
      g_unlink (self->tmp_path);
    }
  if (self->late_fd >= 0)
    close (self->late_fd);
  if (self->blocks_tmp != NULL)
    fclose (self->blocks_tmp);
  if (self->postings_tmp != NULL)
    fclose (self->postings_tmp);
  g_queue_clear_full (&self->ring, block_free);
  g_clear_pointer (&self->late_rows, g_hash_table_unref);
  g_clear_pointer (&self->types_by_name, g_hash_table_unref);
  g_clear_pointer (&self->types, g_ptr_array_unref);
  g_clear_pointer (&self->streams, g_hash_table_unref);
  g_clear_pointer (&self->stream_list, g_ptr_array_unref);
  g_clear_pointer (&self->payload, g_byte_array_unref);
  g_clear_pointer (&self->scratch, g_byte_array_unref);
  g_clear_pointer (&self->compressed, g_byte_array_unref);
  g_free (self->error_what);
  g_free (self->tmp_path);
  g_free (self->path);
  g_free (self);
}
