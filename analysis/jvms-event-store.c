/* jvms-event-store.c: an opened event store: everything but the blocks checked at open, each
 * block when a cursor decodes it. */
#include "jvms-event-store.h"

#include <lz4.h>
#include <string.h>
#include <unistd.h>

#include "jvms-input-file.h"
#include "jvms-trace-detect.h"

struct _JvmsEventStore
{
  gatomicrefcount             ref;
  char                       *path;
  GMappedFile                *map;
  GBytes                     *bytes;
  const guint8               *data;
  gsize                       size;
  JvmsEventFileHeader         header;

  guint                       n_types;
  JvmsEventTypeInfo          *types;
  JvmsEventFieldInfo         *fields;       /* every type's, back to back */
  GStringChunk               *names;
  GHashTable                 *type_by_name; /* name -> index + 1 */

  const JvmsEventBlockEntry  *blocks;
  const JvmsEventStreamEntry *streams;
  const JvmsEventPosting     *postings;
  const JvmsEventLate        *late;
  gint64                     *threads;
  guint                       n_threads;
};

static gboolean
bad (GError **error, const char *path, guint64 offset, const char *what)
{
  g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
               "%s: damaged event store at offset %" G_GUINT64_FORMAT ": %s", path, offset, what);
  return FALSE;
}

/* [offset, offset + count * entry) lies in the file and starts 8-aligned. */
static gboolean
section_ok (JvmsEventStore *self, guint64 offset, guint64 count, gsize entry)
{
  if (offset < sizeof (JvmsEventFileHeader) || offset > self->size || offset % 8 != 0)
    return FALSE;
  return count <= (self->size - offset) / entry;
}

typedef struct
{
  const guint8 *p, *end;
} Reader;

static gboolean
read_u32 (Reader *r, guint32 *out)
{
  if (r->end - r->p < 4)
    return FALSE;
  memcpy (out, r->p, 4);
  r->p += 4;
  return TRUE;
}

/* A length-prefixed name: NULL for length 0 when @nullable. */
static gboolean
read_name (JvmsEventStore *self, Reader *r, gboolean nullable, const char **out)
{
  guint32 len;
  if (!read_u32 (r, &len) || len > JVMS_EVENT_MAX_NAME || len > (guint32) (r->end - r->p))
    return FALSE;
  if (!g_utf8_validate ((const char *) r->p, len, NULL))
    return FALSE;
  if (len == 0 && nullable)
    *out = NULL;
  else
    *out = g_string_chunk_insert_len (self->names, (const char *) r->p, len);
  r->p += len;
  return TRUE;
}

static gboolean
parse_types (JvmsEventStore *self, GError **error)
{
  const JvmsEventFileHeader *h = &self->header;
  if (h->n_types > JVMS_EVENT_MAX_TYPES || !section_ok (self, h->types_offset, h->types_size, 1))
    return bad (error, self->path, h->types_offset, "type table out of bounds");
  Reader r = { self->data + h->types_offset, self->data + h->types_offset + h->types_size };
  self->n_types = (guint) h->n_types;
  self->types = g_new0 (JvmsEventTypeInfo, MAX (self->n_types, 1));
  self->type_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  /* Fields are counted first so that one array holds them all. */
  g_autoptr(GArray) fields = g_array_new (FALSE, TRUE, sizeof (JvmsEventFieldInfo));
  g_autofree guint *first_field = g_new0 (guint, MAX (self->n_types, 1));
  for (guint i = 0; i < self->n_types; i++)
    {
      JvmsEventTypeInfo *t = &self->types[i];
      guint64 at = (guint64) (r.p - self->data);
      guint32 n_fields;
      if (!read_name (self, &r, FALSE, &t->name) || !read_name (self, &r, TRUE, &t->label)
          || !read_u32 (&r, &t->flags) || !read_u32 (&r, &n_fields) || n_fields > JVMS_EVENT_MAX_FIELDS)
        return bad (error, self->path, at, "type record damaged");
      if (g_hash_table_contains (self->type_by_name, t->name))
        return bad (error, self->path, at, "type named twice");
      g_hash_table_insert (self->type_by_name, (gpointer) t->name, GUINT_TO_POINTER (i + 1));
      first_field[i] = fields->len;
      t->n_fields = n_fields;
      for (guint j = 0; j < n_fields; j++)
        {
          JvmsEventFieldInfo f = { 0 };
          guint32 unit;
          if (!read_name (self, &r, FALSE, &f.name) || !read_name (self, &r, TRUE, &f.label)
              || !read_u32 (&r, &unit) || unit >= JVMS_EVENT_N_UNITS)
            return bad (error, self->path, (guint64) (r.p - self->data), "field record damaged");
          f.unit = unit;
          g_array_append_val (fields, f);
        }
    }
  if (r.p != r.end)
    return bad (error, self->path, (guint64) (r.p - self->data), "bytes after the last type");
  self->fields = (JvmsEventFieldInfo *) g_array_free (g_steal_pointer (&fields), FALSE);
  for (guint i = 0; i < self->n_types; i++)
    self->types[i].fields = self->fields + first_field[i];
  return TRUE;
}

static int
stream_cmp (const JvmsEventStreamEntry *a, guint32 kind, guint32 type, gint64 tid)
{
  if (a->kind != kind)
    return a->kind < kind ? -1 : 1;
  if (a->type != type)
    return a->type < type ? -1 : 1;
  if (a->tid != tid)
    return a->tid < tid ? -1 : 1;
  return 0;
}

static gboolean
check (JvmsEventStore *self, GError **error)
{
  if (self->size < sizeof (JvmsEventFileHeader))
    return bad (error, self->path, 0, "shorter than a header");
  memcpy (&self->header, self->data, sizeof self->header);
  const JvmsEventFileHeader *h = &self->header;
  if (memcmp (h->magic, JVMS_EVENT_MAGIC, 8) != 0)
    return bad (error, self->path, 0, "not an event store (bad magic)");
  if (h->version != JVMS_EVENT_VERSION)
    return bad (error, self->path, 8, "an event store of another version");
  if (h->header_size != sizeof (JvmsEventFileHeader))
    return bad (error, self->path, 12, "header of the wrong size");
  if (h->file_size != self->size)
    return bad (error, self->path, 0, "the file is not as long as its header says (cut short?)");
  if (!section_ok (self, h->blocks_dir_offset, h->n_blocks, sizeof (JvmsEventBlockEntry)))
    return bad (error, self->path, h->blocks_dir_offset, "block directory out of bounds");
  if (!section_ok (self, h->late_offset, h->n_late, sizeof (JvmsEventLate)))
    return bad (error, self->path, h->late_offset, "late table out of bounds");
  if (!section_ok (self, h->streams_offset, h->n_streams, sizeof (JvmsEventStreamEntry)))
    return bad (error, self->path, h->streams_offset, "stream directory out of bounds");
  if (!section_ok (self, h->postings_offset, h->n_postings, sizeof (JvmsEventPosting)))
    return bad (error, self->path, h->postings_offset, "postings out of bounds");
  if (!parse_types (self, error))
    return FALSE;
  self->blocks = (const JvmsEventBlockEntry *) (self->data + h->blocks_dir_offset);
  self->streams = (const JvmsEventStreamEntry *) (self->data + h->streams_offset);
  self->postings = (const JvmsEventPosting *) (self->data + h->postings_offset);
  self->late = (const JvmsEventLate *) (self->data + h->late_offset);

  /* Blocks tile the rows, in file order, with non-decreasing times. */
  guint64 row = 0, prev_end = sizeof (JvmsEventFileHeader);
  gint64 prev_last = G_MININT64;
  for (guint64 b = 0; b < h->n_blocks; b++)
    {
      const JvmsEventBlockEntry *e = &self->blocks[b];
      guint64 at = h->blocks_dir_offset + b * sizeof *e;
      if (e->offset < sizeof (JvmsEventFileHeader) || e->offset > self->size
          || e->compressed_size > self->size - e->offset || e->compressed_size == 0)
        return bad (error, self->path, at, "block outside the file");
      if (e->raw_size > JVMS_EVENT_MAX_BLOCK_RAW || e->n_rows == 0
          || e->n_rows > (e->raw_size - MIN (e->raw_size, 4u)) / (4 + sizeof (JvmsEventRowHeader)))
        return bad (error, self->path, at, "block of impossible size");
      /* Blocks lie in the file in order without overlapping, and decode to at most what lz4
       * can make of their size: no store makes a reader decode more than 255 times its size. */
      if (e->offset < prev_end || (guint64) e->raw_size > (guint64) e->compressed_size * 255 + 64)
        return bad (error, self->path, at, "block overlaps another or claims an impossible size");
      prev_end = e->offset + e->compressed_size;
      if (e->first_row != row)
        return bad (error, self->path, at, "blocks do not follow each other");
      if (e->first_time > e->last_time || e->first_time < prev_last)
        return bad (error, self->path, at, "block times out of order");
      row += e->n_rows;
      prev_last = e->last_time;
    }
  if (row != h->n_rows)
    return bad (error, self->path, h->blocks_dir_offset, "blocks do not hold the header's row count");
  if (h->n_blocks > 0 && h->last_time != prev_last)
    return bad (error, self->path, 16, "last time differs from the last block's");

  /* Streams sorted, each with its run of postings in block order, counts adding up. */
  GArray *threads = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint64 rows_by_kind[3] = { 0, 0, 0 };
  for (guint64 i = 0; i < h->n_streams; i++)
    {
      const JvmsEventStreamEntry *s = &self->streams[i];
      guint64 at = h->streams_offset + i * sizeof *s;
      gboolean ok = s->kind <= JVMS_EVENT_STREAM_PAIR
                    && (s->kind == JVMS_EVENT_STREAM_THREAD ? s->type == JVMS_EVENT_NONE : s->type < self->n_types)
                    && (s->kind == JVMS_EVENT_STREAM_TYPE) == (s->tid == JVMS_EVENT_ANY_TID)
                    && (i == 0 || stream_cmp (&self->streams[i - 1], s->kind, s->type, s->tid) < 0)
                    && s->first_posting <= h->n_postings && s->n_postings <= h->n_postings - s->first_posting
                    && s->n_postings <= h->n_blocks && s->n_rows <= h->n_rows;
      if (!ok)
        {
          g_array_unref (threads);
          return bad (error, self->path, at, "stream entry damaged or out of order");
        }
      guint64 before = 0;
      gint64 prev_block = -1;
      for (guint64 k = 0; k < s->n_postings; k++)
        {
          const JvmsEventPosting *p = &self->postings[s->first_posting + k];
          if ((gint64) p->block <= prev_block || p->block >= h->n_blocks || p->count == 0
              || p->count > self->blocks[p->block].n_rows || p->before != before)
            {
              g_array_unref (threads);
              return bad (error, self->path, h->postings_offset + (s->first_posting + k) * sizeof *p,
                          "posting damaged");
            }
          prev_block = p->block;
          before += p->count;
        }
      if (before != s->n_rows)
        {
          g_array_unref (threads);
          return bad (error, self->path, at, "a stream's postings do not add up to its rows");
        }
      rows_by_kind[s->kind] += s->n_rows;
      if (s->kind == JVMS_EVENT_STREAM_TYPE)
        self->types[s->type].n_rows = s->n_rows;
      if (s->kind == JVMS_EVENT_STREAM_THREAD)
        g_array_append_val (threads, s->tid);
    }
  for (guint k = 0; k < 3; k++)
    if (rows_by_kind[k] != h->n_rows)
      {
        g_array_unref (threads);
        return bad (error, self->path, h->streams_offset, "streams do not cover every row once");
      }
  self->n_threads = threads->len;
  self->threads = (gint64 *) g_array_free (threads, FALSE);
  return TRUE;
}

static JvmsEventStore *
store_new (const char *path)
{
  JvmsEventStore *self = g_new0 (JvmsEventStore, 1);
  g_atomic_ref_count_init (&self->ref);
  self->path = g_strdup (path);
  self->names = g_string_chunk_new (4096);
  return self;
}

JvmsEventStore *
jvms_event_store_open (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  struct stat st;
  int fd = jvms_input_file_open (path, &st, error);
  if (fd < 0)
    return NULL;
  JvmsEventStore *self = store_new (path);
  if (st.st_size == 0)
    {
      close (fd);
      bad (error, path, 0, "empty file");
      jvms_event_store_unref (self);
      return NULL;
    }
  self->map = g_mapped_file_new_from_fd (fd, FALSE, error);
  close (fd);
  if (self->map == NULL)
    {
      jvms_event_store_unref (self);
      return NULL;
    }
  self->data = (const guint8 *) g_mapped_file_get_contents (self->map);
  self->size = g_mapped_file_get_length (self->map);
  if (!check (self, error))
    {
      jvms_event_store_unref (self);
      return NULL;
    }
  return self;
}

JvmsEventStore *
jvms_event_store_open_bytes (GBytes *bytes, const char *name, GError **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  JvmsEventStore *self = store_new (name != NULL ? name : "(bytes)");
  /* Directories are read in place: copy into memory aligned for them. */
  gsize size = g_bytes_get_size (bytes);
  guint64 *copy = g_malloc0 (size / 8 + 1 < G_MAXSIZE / 8 ? (size / 8 + 1) * 8 : size);
  memcpy (copy, g_bytes_get_data (bytes, NULL), size);
  self->bytes = g_bytes_new_take (copy, size);
  self->data = (const guint8 *) copy;
  self->size = size;
  if (!check (self, error))
    {
      jvms_event_store_unref (self);
      return NULL;
    }
  return self;
}

JvmsEventStore *
jvms_event_store_ref (JvmsEventStore *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
jvms_event_store_unref (JvmsEventStore *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref))
    return;
  g_clear_pointer (&self->map, g_mapped_file_unref);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_pointer (&self->type_by_name, g_hash_table_unref);
  g_string_chunk_free (self->names);
  g_free (self->types);
  g_free (self->fields);
  g_free (self->threads);
  g_free (self->path);
  g_free (self);
}

const char *
jvms_event_store_get_path (JvmsEventStore *self)
{
  return self->path;
}

guint64
jvms_event_store_get_n_rows (JvmsEventStore *self)
{
  return self->header.n_rows;
}

gint64
jvms_event_store_get_first_time (JvmsEventStore *self)
{
  return self->header.n_blocks > 0 ? self->blocks[0].first_time : 0;
}

gint64
jvms_event_store_get_last_time (JvmsEventStore *self)
{
  return self->header.n_blocks > 0 ? self->header.last_time : 0;
}

guint
jvms_event_store_get_n_types (JvmsEventStore *self)
{
  return self->n_types;
}

const JvmsEventTypeInfo *
jvms_event_store_get_type (JvmsEventStore *self, guint32 type)
{
  return type < self->n_types ? &self->types[type] : NULL;
}

guint32
jvms_event_store_find_type (JvmsEventStore *self, const char *name)
{
  gpointer found = name != NULL ? g_hash_table_lookup (self->type_by_name, name) : NULL;
  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : JVMS_EVENT_NONE;
}

gint
jvms_event_store_find_field (JvmsEventStore *self, guint32 type, const char *name)
{
  if (type >= self->n_types || name == NULL)
    return -1;
  const JvmsEventTypeInfo *t = &self->types[type];
  for (guint i = 0; i < t->n_fields; i++)
    if (strcmp (t->fields[i].name, name) == 0)
      return (gint) i;
  return -1;
}

const gint64 *
jvms_event_store_get_threads (JvmsEventStore *self, guint *n_threads)
{
  *n_threads = self->n_threads;
  return self->threads;
}

const JvmsEventBlockEntry *
jvms_event_store_get_blocks (JvmsEventStore *self, guint64 *n_blocks)
{
  *n_blocks = self->header.n_blocks;
  return self->blocks;
}

const JvmsEventStreamEntry *
jvms_event_store_get_streams (JvmsEventStore *self, guint64 *n_streams)
{
  *n_streams = self->header.n_streams;
  return self->streams;
}

const JvmsEventPosting *
jvms_event_store_get_postings (JvmsEventStore *self)
{
  return self->postings;
}

gint64
jvms_event_store_find_stream (JvmsEventStore *self, guint32 kind, guint32 type, gint64 tid)
{
  guint64 lo = 0, hi = self->header.n_streams;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      int c = stream_cmp (&self->streams[mid], kind, type, tid);
      if (c == 0)
        return (gint64) mid;
      if (c < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return -1;
}

guint64
jvms_event_store_get_thread_rows (JvmsEventStore *self, gint64 tid)
{
  gint64 s = jvms_event_store_find_stream (self, JVMS_EVENT_STREAM_THREAD, JVMS_EVENT_NONE, tid);
  return s >= 0 ? self->streams[s].n_rows : 0;
}

guint64
jvms_event_store_block_of_row (JvmsEventStore *self, guint64 row)
{
  guint64 lo = 0, hi = self->header.n_blocks;
  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (self->blocks[mid].first_row <= row)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* ------------------------------------------------------------------------------------------ */
/* Cursors */

#define CURSOR_BLOCKS 4

typedef struct
{
  guint64  block;      /* G_MAXUINT64: empty */
  guint8  *raw;
  guint32  raw_size;
  guint32  n_rows;
  guint64  used;       /* for LRU */
} Decoded;

struct _JvmsEventCursor
{
  JvmsEventStore *store;
  Decoded         cache[CURSOR_BLOCKS];
  guint64         clock;
  Decoded        *last;    /* the block read last: scans stay in it without a search */
  GArray         *values;  /* JvmsEventValue of the current row */
};

JvmsEventCursor *
jvms_event_cursor_new (JvmsEventStore *store)
{
  JvmsEventCursor *self = g_new0 (JvmsEventCursor, 1);
  self->store = jvms_event_store_ref (store);
  for (guint i = 0; i < CURSOR_BLOCKS; i++)
    self->cache[i].block = G_MAXUINT64;
  self->values = g_array_new (FALSE, FALSE, sizeof (JvmsEventValue));
  return self;
}

void
jvms_event_cursor_free (JvmsEventCursor *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < CURSOR_BLOCKS; i++)
    g_free (self->cache[i].raw);
  g_array_unref (self->values);
  jvms_event_store_unref (self->store);
  g_free (self);
}

static gboolean
block_bad (JvmsEventStore *store, guint64 block, GError **error, const char *what)
{
  g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
               "%s: damaged event store: block %" G_GUINT64_FORMAT " (at offset %" G_GUINT64_FORMAT "): %s",
               store->path, block, store->blocks[block].offset, what);
  return FALSE;
}

static guint32
raw_u32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return v;
}

/* Decodes @block (or finds it decoded), checking its table and every row's header and extent. */
static Decoded *
decode (JvmsEventCursor *self, guint64 block, GError **error)
{
  Decoded *victim = &self->cache[0];
  for (guint i = 0; i < CURSOR_BLOCKS; i++)
    {
      if (self->cache[i].block == block)
        {
          self->cache[i].used = ++self->clock;
          return &self->cache[i];
        }
      if (self->cache[i].used < victim->used)
        victim = &self->cache[i];
    }
  JvmsEventStore *st = self->store;
  const JvmsEventBlockEntry *e = &st->blocks[block];
  victim->block = G_MAXUINT64;
  if (self->last == victim)
    self->last = NULL;
  victim->raw = g_realloc (victim->raw, MAX (e->raw_size, 1));
  int got = LZ4_decompress_safe ((const char *) st->data + e->offset, (char *) victim->raw,
                                 (int) e->compressed_size, (int) e->raw_size);
  if (got < 0 || (guint32) got != e->raw_size)
    {
      block_bad (st, block, error, "lz4 data does not decode to its size");
      return NULL;
    }
  guint32 n = e->raw_size >= 4 ? raw_u32 (victim->raw) : 0;
  if (n != e->n_rows || (guint64) 4 + 4 * (guint64) n > e->raw_size)
    {
      block_bad (st, block, error, "row table does not match the directory");
      return NULL;
    }
  guint32 table = 4 + 4 * n;
  for (guint32 i = 0; i < n; i++)
    {
      guint32 off = raw_u32 (victim->raw + 4 + 4 * i);
      JvmsEventRowHeader h;
      if (off < table || off > e->raw_size || e->raw_size - off < sizeof h)
        {
          block_bad (st, block, error, "row outside its block");
          return NULL;
        }
      memcpy (&h, victim->raw + off, sizeof h);
      if (h.payload_len > e->raw_size - off - sizeof h || h.type >= st->n_types)
        {
          block_bad (st, block, error, "row header damaged");
          return NULL;
        }
    }
  victim->block = block;
  victim->raw_size = e->raw_size;
  victim->n_rows = n;
  victim->used = ++self->clock;
  return victim;
}

static gboolean
locate (JvmsEventCursor *self, guint64 row, Decoded **out_block, const guint8 **out_row,
        GError **error)
{
  JvmsEventStore *st = self->store;
  if (row >= st->header.n_rows)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                   "%s: row %" G_GUINT64_FORMAT " is beyond the store's %" G_GUINT64_FORMAT " rows",
                   st->path, row, st->header.n_rows);
      return FALSE;
    }
  Decoded *d = self->last;
  guint64 block;
  if (d != NULL && d->block != G_MAXUINT64 && row >= st->blocks[d->block].first_row
      && row - st->blocks[d->block].first_row < d->n_rows)
    block = d->block;
  else
    {
      block = jvms_event_store_block_of_row (st, row);
      d = decode (self, block, error);
      if (d == NULL)
        return FALSE;
      self->last = d;
    }
  guint32 i = (guint32) (row - st->blocks[block].first_row);
  *out_block = d;
  *out_row = d->raw + raw_u32 (d->raw + 4 + 4 * i);
  return TRUE;
}

static void
fill_head (JvmsEventStore *st, const JvmsEventRowHeader *h, guint64 row, JvmsEventRecord *out)
{
  out->row = row;
  out->time = h->time;
  out->duration = h->duration;
  if (h->duration <= -2)
    {
      guint64 slot = (guint64) (-(h->duration + 2));
      out->duration = slot < st->header.n_late ? MAX (st->late[slot].duration, -1) : -1;
    }
  else if (h->duration < 0)
    out->duration = -1;
  out->tid = h->tid;
  out->type = h->type;
  out->stack = h->stack;
  out->n_values = 0;
  out->values = NULL;
}

gboolean
jvms_event_cursor_read_head (JvmsEventCursor *self, guint64 row, JvmsEventRecord *out,
                             GError **error)
{
  Decoded *d;
  const guint8 *p;
  if (!locate (self, row, &d, &p, error))
    return FALSE;
  JvmsEventRowHeader h;
  memcpy (&h, p, sizeof h);
  fill_head (self->store, &h, row, out);
  return TRUE;
}

gboolean
jvms_event_cursor_read (JvmsEventCursor *self, guint64 row, JvmsEventRecord *out, GError **error)
{
  Decoded *d;
  const guint8 *p;
  if (!locate (self, row, &d, &p, error))
    return FALSE;
  JvmsEventStore *st = self->store;
  JvmsEventRowHeader h;
  memcpy (&h, p, sizeof h);
  fill_head (st, &h, row, out);
  const JvmsEventTypeInfo *type = &st->types[h.type];
  const guint8 *v = p + sizeof h, *end = v + h.payload_len;
  g_array_set_size (self->values, 0);
  for (guint i = 0; i < h.n_values; i++)
    {
      JvmsEventValue val = { 0 };
      if (end - v < 3)
        return block_bad (st, d->block, error, "value cut short");
      guint16 field;
      memcpy (&field, v, 2);
      guint8 kind = v[2];
      v += 3;
      if (field >= type->n_fields || kind >= JVMS_EVENT_N_VALUE_KINDS)
        return block_bad (st, d->block, error, "value of an unknown field or kind");
      val.field = field;
      val.kind = kind;
      switch (kind)
        {
        case JVMS_EVENT_VALUE_NULL:
        case JVMS_EVENT_VALUE_FALSE:
        case JVMS_EVENT_VALUE_TRUE:
          break;
        case JVMS_EVENT_VALUE_STRING:
          {
            guint32 len;
            if (end - v < 4)
              return block_bad (st, d->block, error, "string length cut short");
            memcpy (&len, v, 4);
            v += 4;
            if (len > JVMS_EVENT_MAX_STRING || (guint64) (end - v) < (guint64) len + 1 || v[len] != 0
                || !g_utf8_validate ((const char *) v, len, NULL))
              return block_bad (st, d->block, error, "string damaged");
            val.s = (const char *) v;
            v += len + 1;
            break;
          }
        default:
          if (end - v < 8)
            return block_bad (st, d->block, error, "value cut short");
          memcpy (&val.i, v, 8);
          v += 8;
          if (kind == JVMS_EVENT_VALUE_RESULT_NULL)
            val.kind = JVMS_EVENT_VALUE_NULL;
          else if (kind == JVMS_EVENT_VALUE_LATE)
            {
              guint64 slot = (guint64) val.i;
              gint64 r = slot < st->header.n_late ? st->late[slot].result : G_MININT64;
              val.kind = r == G_MININT64 ? JVMS_EVENT_VALUE_NULL : JVMS_EVENT_VALUE_INT;
              val.i = r == G_MININT64 ? 0 : r;
            }
          break;
        }
      g_array_append_val (self->values, val);
    }
  out->n_values = self->values->len;
  out->values = (const JvmsEventValue *) self->values->data;
  return TRUE;
}

const JvmsEventValue *
jvms_event_record_find_value (const JvmsEventRecord *record, guint field)
{
  for (guint i = 0; i < record->n_values; i++)
    if (record->values[i].field == field)
      return &record->values[i];
  return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Batches */

JvmsEventBatch *
jvms_event_batch_new (void)
{
  JvmsEventBatch *self = g_new0 (JvmsEventBatch, 1);
  self->records = g_array_new (FALSE, FALSE, sizeof (JvmsEventRecord));
  self->values = g_array_new (FALSE, FALSE, sizeof (JvmsEventValue));
  self->firsts = g_array_new (FALSE, FALSE, sizeof (guint));
  self->strings = g_string_chunk_new (4096);
  return self;
}

void
jvms_event_batch_free (JvmsEventBatch *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->records);
  g_array_unref (self->values);
  g_array_unref (self->firsts);
  g_string_chunk_free (self->strings);
  g_free (self);
}

void
jvms_event_batch_clear (JvmsEventBatch *self)
{
  g_array_set_size (self->records, 0);
  g_array_set_size (self->values, 0);
  g_array_set_size (self->firsts, 0);
  g_string_chunk_clear (self->strings);
}

void
jvms_event_batch_add (JvmsEventBatch *self, const JvmsEventRecord *record)
{
  JvmsEventRecord copy = *record;
  /* Values are found by index until read: the array may move while it grows. */
  copy.values = NULL;
  guint first = self->values->len;
  for (guint i = 0; i < record->n_values; i++)
    {
      JvmsEventValue v = record->values[i];
      if (v.kind == JVMS_EVENT_VALUE_STRING)
        v.s = g_string_chunk_insert (self->strings, v.s);
      g_array_append_val (self->values, v);
    }
  g_array_append_val (self->records, copy);
  g_array_append_val (self->firsts, first);
}

guint
jvms_event_batch_get_len (JvmsEventBatch *self)
{
  return self->records->len;
}

void
jvms_event_batch_get (JvmsEventBatch *self, guint index, JvmsEventRecord *out)
{
  g_return_if_fail (index < self->records->len);
  *out = g_array_index (self->records, JvmsEventRecord, index);
  out->values = out->n_values > 0
                  ? &g_array_index (self->values, JvmsEventValue, g_array_index (self->firsts, guint, index))
                  : NULL;
}
