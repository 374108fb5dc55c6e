/* jvms-perf-reader.c: opening a perf.data file and walking its record stream, compressed
 * records included, through the time merge (perf-order.c) to events (perf-decode.c). */
#include "perf-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jvms-input-file.h"

G_DEFINE_QUARK (jvms-perf-error-quark, jvms_perf_error)

/* A decompressed block larger than this is refused whatever the file declares, and the merge
 * window is released early when the blocks it holds exceed it. */
#define PERF_MAX_CHUNK_BYTES ((gsize) 256 << 20)
/* perf 6.1's default when the COMPRESSED feature is missing (killed perf record). */
#define PERF_DEFAULT_COMP_MMAP_LEN ((gsize) 64 << 20)
#define PERF_MAX_COMP_RATIO 2048

static inline guint32
rd_type (const guint8 *rec)
{
  guint32 type;
  memcpy (&type, rec, 4);
  return type;
}

static void stop (JvmsPerfReader *self, GError *error);

void
jvms_perf_reader_free (JvmsPerfReader *self)
{
  if (self == NULL)
    return;
  perf_order_clear (&self->order);
  perf_chunk_unref (self->chunk);
  g_free (self->carry);
  if (self->zstd != NULL)
    ZSTD_freeDStream (self->zstd);
  for (guint i = 0; i < self->n_attrs; i++)
    {
      g_free (self->attrs[i].name);
      g_free (self->attrs[i].counter_owned);
    }
  g_free (self->attrs);
  g_clear_pointer (&self->id_to_slot, g_hash_table_unref);
  g_clear_pointer (&self->retired_names, g_ptr_array_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  perf_tracing_free (self->tracing);
  g_free (self->hostname);
  g_free (self->os_release);
  g_free (self->perf_version);
  g_clear_error (&self->stop_error);
  if (self->mirror != NULL)
    munmap (self->mirror, self->size);
  if (self->fd >= 0)
    close (self->fd);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_free (self->path);
  g_free (self);
}

/* Reads [offset, offset + size) of the file into the mirror. The short read of a file that
 * shrank and an I/O error both stop there: what was read before stays usable. */
static gboolean
load_range (JvmsPerfReader *self, guint64 offset, guint64 size, guint64 *done, GError **error)
{
  *done = 0;
  while (*done < size)
    {
      gsize want = (gsize) MIN (size - *done, (guint64) 1 << 30);
      ssize_t n = pread (self->fd, self->mirror + offset + *done, want, (off_t) (offset + *done));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int err = errno;
          g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_IO, "%s: read error at offset %" G_GUINT64_FORMAT
                       ": %s", self->path, offset + *done, g_strerror (err));
          return FALSE;
        }
      if (n == 0)
        {
          struct stat st;
          guint64 now = fstat (self->fd, &st) == 0 ? (guint64) st.st_size : offset + *done;
          g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_IO,
                       "%s: the file shrank while being read: %" G_GUINT64_FORMAT " bytes at open, %"
                       G_GUINT64_FORMAT " now; nothing can be read from offset %" G_GUINT64_FORMAT,
                       self->path, (guint64) self->size, now, offset + *done);
          return FALSE;
        }
      *done += (guint64) n;
    }
  return TRUE;
}

gboolean
perf_reader_load (JvmsPerfReader *self, guint64 offset, guint64 size, GError **error)
{
  self->header_bytes_read += size;
  if (self->fd < 0)
    return TRUE;
  g_return_val_if_fail (offset <= self->size && size <= self->size - offset, FALSE);
  guint64 done;
  return load_range (self, offset, size, &done, error);
}

/* The record stream is read ahead in steps of this size: few system calls, little memory. */
#define PERF_READ_AHEAD ((guint64) 1 << 20)

/* Makes the record stream readable up to @end (<= data_end); FALSE with stop_error set when
 * the file cannot give those bytes. */
static gboolean
load_stream (JvmsPerfReader *self, guint64 end)
{
  if (self->fd < 0 || end <= self->loaded_upto)
    return TRUE;
  guint64 from = MAX (self->loaded_upto, self->data_start);
  guint64 to = MIN (self->data_end, MAX (end, from + PERF_READ_AHEAD));
  guint64 done = 0;
  GError *error = NULL;
  gboolean ok = load_range (self, from, to - from, &done, &error);
  self->loaded_upto = from + done;
  if (ok || self->loaded_upto >= end)
    {
      /* The read-ahead failed past what is needed now: the record that needs it will say so. */
      g_clear_error (&error);
      return TRUE;
    }
  stop (self, error);
  return FALSE;
}

static gboolean
read_header (JvmsPerfReader *self, GError **error)
{
  if (self->size == 0)
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_TRUNCATED, "%s: empty file", self->path);
      return FALSE;
    }
  if (!perf_reader_load (self, 0, MIN (self->size, sizeof (PerfFileHeader)), error))
    return FALSE;
  if (self->size >= 8)
    {
      guint64 magic;
      memcpy (&magic, self->data, 8);
      if (magic == PERF_MAGIC2_SWAP)
        {
          g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_UNSUPPORTED,
                       "%s: big-endian perf.data is not supported", self->path);
          return FALSE;
        }
      if (magic == PERF_MAGIC1)
        {
          g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_UNSUPPORTED,
                       "%s: perf.data version 1 (PERFFILE) is not supported", self->path);
          return FALSE;
        }
      if (magic != PERF_MAGIC2)
        {
          g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_NOT_PERF,
                       "%s: not a perf.data file: magic at offset 0 is %02x %02x %02x %02x %02x %02x %02x %02x",
                       self->path, self->data[0], self->data[1], self->data[2], self->data[3],
                       self->data[4], self->data[5], self->data[6], self->data[7]);
          return FALSE;
        }
    }
  if (self->size >= 16)
    {
      guint64 hsize;
      memcpy (&hsize, self->data + 8, 8);
      if (hsize == 16)
        {
          g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_UNSUPPORTED,
                       "%s: a pipe-mode perf stream (perf record -o -) is not supported; record to a file",
                       self->path);
          return FALSE;
        }
    }
  if (self->size < sizeof (PerfFileHeader))
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_TRUNCATED,
                   "%s: header truncated at %" G_GSIZE_FORMAT " of %u bytes",
                   self->path, self->size, (guint) sizeof (PerfFileHeader));
      return FALSE;
    }
  memcpy (&self->header, self->data, sizeof self->header);
  if (self->header.size < sizeof (PerfFileHeader) || self->header.size > self->size)
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                   "%s: header at offset 8 declares size %" G_GUINT64_FORMAT ", expected at least %u",
                   self->path, self->header.size, (guint) sizeof (PerfFileHeader));
      return FALSE;
    }
  if (!perf_header_read_attrs (self, error))
    return FALSE;

  const PerfFileSection *d = &self->header.data;
  if (d->offset < sizeof (PerfFileHeader) || d->offset > self->size)
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                   "%s: header at offset 40: data section starts at %" G_GUINT64_FORMAT
                   ", outside the %" G_GSIZE_FORMAT "-byte file", self->path, d->offset, self->size);
      return FALSE;
    }
  self->data_start = d->offset;
  if (d->size == 0)
    {
      /* perf record writes the final header at exit: a zero data size means it was killed. */
      self->finalized = FALSE;
      self->data_end = self->size;
      perf_reader_warn (self, "header at offset 48: data size 0: perf record did not exit cleanly; "
                        "header not finalised, feature sections missing; reading records up to the end "
                        "of the file");
    }
  else
    {
      self->finalized = TRUE;
      if (d->size > self->size - d->offset)
        {
          perf_reader_warn (self, "header at offset 48: data section declares [%" G_GUINT64_FORMAT ", +%"
                            G_GUINT64_FORMAT ") but the file is %" G_GSIZE_FORMAT " bytes; reading up to "
                            "the end of the file", d->offset, d->size, self->size);
          self->data_end = self->size;
        }
      else
        self->data_end = d->offset + d->size;
      perf_header_read_features (self);
    }
  perf_header_name_attrs (self);
  if (self->tracing == NULL)
    for (guint i = 0; i < self->n_attrs; i++)
      if (self->attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
        {
          perf_reader_warn (self, "no TRACING_DATA feature: tracepoint formats unavailable; tracepoint "
                            "events carry their time, CPU and thread only");
          break;
        }
  self->pos = self->data_start;
  /* Pages before the record stream hold the attributes and ids: never given back. */
  guint64 page = (guint64) sysconf (_SC_PAGESIZE);
  self->released_upto = (self->data_start + page - 1) / page * page;
  self->loaded_upto = self->data_start;
  return TRUE;
}

static JvmsPerfReader *
reader_new (const char *name, JvmsPerfReaderFlags flags)
{
  JvmsPerfReader *self = g_new0 (JvmsPerfReader, 1);
  self->path = g_strdup (name);
  self->fd = -1;
  self->flags = flags;
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->id_to_slot = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  self->retired_names = g_ptr_array_new_with_free_func (g_free);
  self->n_cpus = -1;
  self->clockid = -1;
  self->last_delivered = G_MININT64;
  perf_order_init (&self->order);
  return self;
}

JvmsPerfReader *
jvms_perf_reader_open_bytes (GBytes *bytes, const char *name, JvmsPerfReaderFlags flags, GError **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_autoptr(JvmsPerfReader) self = reader_new (name != NULL ? name : "(memory)", flags);
  self->bytes = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, &self->size);
  if (!read_header (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

JvmsPerfReader *
jvms_perf_reader_open (const char *path, JvmsPerfReaderFlags flags, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autoptr(JvmsPerfReader) self = reader_new (path, flags);
  struct stat st;
  g_autoptr(GError) open_error = NULL;
  /* A regular file only, and never a blocking open (a named pipe in its place). */
  self->fd = jvms_input_file_open (path, &st, &open_error);
  if (self->fd < 0)
    {
      g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_IO, "%s", open_error->message);
      return NULL;
    }
  self->size = (gsize) st.st_size;
  if (self->size > 0)
    {
      /* Address space only: pages cost memory once read, and are given back behind the cursor. */
      void *m = mmap (NULL, self->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED)
        {
          int err = errno;
          g_set_error (error, JVMS_PERF_ERROR, JVMS_PERF_ERROR_IO,
                       "%s: cannot reserve %" G_GSIZE_FORMAT " bytes of address space to read it: %s",
                       path, self->size, g_strerror (err));
          return NULL;
        }
      /* Faulting in 4 KiB pages one by one cost more than reading the file (75 % of the CPU
       * time in page faults and their copies on this VM): huge pages where the kernel has them. */
      madvise (m, self->size, MADV_HUGEPAGE);
      self->mirror = m;
    }
  self->data = self->mirror;
  if (!read_header (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

static void
stop (JvmsPerfReader *self, GError *error)
{
  if (self->stop_error == NULL)
    self->stop_error = error;
  else
    g_error_free (error);
}

/* Decompresses one COMPRESSED/COMPRESSED2 record into a new block, prefixed by the bytes of a
 * record cut at the end of the previous block. */
static gboolean
decompress (JvmsPerfReader *self, const guint8 *rec, gsize size, guint64 offset)
{
  const guint8 *src = rec + 8;
  gsize src_len = size - 8;
  if (rd_type (rec) == PERF_REC_COMPRESSED2)
    {
      guint64 data_size;
      if (size < 16)
        goto corrupt;
      memcpy (&data_size, rec + 8, 8);
      if (data_size > size - 16)
        goto corrupt;
      src = rec + 16;
      src_len = data_size;
    }
  if (self->zstd == NULL)
    {
      self->zstd = ZSTD_createDStream ();
      ZSTD_initDStream (self->zstd);
    }
  gsize limit = self->comp_mmap_len > 0 ? self->comp_mmap_len : PERF_DEFAULT_COMP_MMAP_LEN;
  limit = MIN (limit, PERF_MAX_CHUNK_BYTES);
  /* perf's records compress 20 to 50 times; a few bytes that claim megabytes are a bomb that
   * would cost time on every record. */
  limit = MIN (limit, src_len * PERF_MAX_COMP_RATIO + ((gsize) 1 << 20));

  gsize cap = self->carry_len + MIN (limit, MAX (src_len * 8, (gsize) 65536));
  guint8 *out = g_malloc (cap);
  if (self->carry_len > 0)
    memcpy (out, self->carry, self->carry_len);
  ZSTD_inBuffer in = { src, src_len, 0 };
  ZSTD_outBuffer ob = { out, cap, self->carry_len };
  /* Output can stay inside zstd after the input is consumed when the buffer filled up. */
  while (in.pos < in.size || ob.pos == ob.size)
    {
      if (ob.pos == ob.size)
        {
          if (ob.size - self->carry_len >= limit)
            {
              g_free (out);
              stop (self, g_error_new (JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                                       "%s: compressed record at offset %" G_GUINT64_FORMAT " decompresses "
                                       "to more than the declared %" G_GSIZE_FORMAT " bytes",
                                       self->path, offset, limit));
              return FALSE;
            }
          cap = self->carry_len + MIN (limit, (ob.size - self->carry_len) * 2);
          out = g_realloc (out, cap);
          ob.dst = out;
          ob.size = cap;
        }
      gsize before = ob.pos;
      gsize ret = ZSTD_decompressStream (self->zstd, &ob, &in);
      if (!ZSTD_isError (ret) && in.pos == in.size && ob.pos < ob.size)
        break;
      if (!ZSTD_isError (ret) && ob.pos == before && in.pos == in.size)
        break;
      if (ZSTD_isError (ret))
        {
          g_free (out);
          stop (self, g_error_new (JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                                   "%s: compressed record at offset %" G_GUINT64_FORMAT " could not be "
                                   "decompressed: %s", self->path, offset, ZSTD_getErrorName (ret)));
          return FALSE;
        }
    }

  PerfChunk *chunk = g_new0 (PerfChunk, 1);
  chunk->refcount = 1;
  chunk->size = ob.pos;
  chunk->data = ob.pos < cap / 2 ? g_realloc (out, MAX (ob.pos, 1)) : out;
  chunk->live_bytes = &self->live_chunk_bytes;
  self->live_chunk_bytes += chunk->size;
  self->chunk = chunk;
  self->chunk_pos = 0;
  self->chunk_offset = offset;
  self->carry_len = 0;
  return TRUE;

corrupt:
  stop (self, g_error_new (JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                           "%s: compressed record at offset %" G_GUINT64_FORMAT ": data size does not "
                           "fit its %" G_GSIZE_FORMAT "-byte record", self->path, offset, size));
  return FALSE;
}

typedef struct
{
  const guint8 *rec;
  gsize         size;
  PerfChunk    *chunk;  /* borrowed */
  guint64       offset;
} RawRecord;

/* The next record of the stream, from the current decompressed block or from the file.
 * FALSE at the end or at damage (then stop_error is set). */
static gboolean
next_raw (JvmsPerfReader *self, RawRecord *out)
{
  for (;;)
    {
      if (self->chunk != NULL)
        {
          PerfChunk *c = self->chunk;
          gsize left = c->size - self->chunk_pos;
          if (left >= 8)
            {
              const guint8 *p = c->data + self->chunk_pos;
              guint16 rsize;
              memcpy (&rsize, p + 6, 2);
              if (rsize < 8)
                {
                  stop (self, g_error_new (JVMS_PERF_ERROR, JVMS_PERF_ERROR_CORRUPT,
                                           "%s: record at byte %" G_GSIZE_FORMAT " of the block decompressed "
                                           "from offset %" G_GUINT64_FORMAT ": size %u < 8 (type %u)",
                                           self->path, self->chunk_pos, self->chunk_offset, rsize, rd_type (p)));
                  return FALSE;
                }
              if (rsize <= left)
                {
                  out->rec = p;
                  out->size = rsize;
                  out->chunk = c;
                  out->offset = self->chunk_offset;
                  self->chunk_pos += rsize;
                  return TRUE;
                }
            }
          /* A record cut at the end of the block continues in the next compressed record. */
          if (left > 0)
            {
              self->carry = g_realloc (self->carry, left);
              memcpy (self->carry, c->data + self->chunk_pos, left);
            }
          self->carry_len = left;
          g_clear_pointer (&self->chunk, perf_chunk_unref);
        }

      if (self->pos >= self->data_end)
        {
          if (self->carry_len > 0)
            stop (self, g_error_new (JVMS_PERF_ERROR, JVMS_PERF_ERROR_TRUNCATED,
                                     "%s: the compressed stream ends inside a record (%" G_GSIZE_FORMAT
                                     " bytes of it decompressed from offset %" G_GUINT64_FORMAT ")",
                                     self->path, self->carry_len, self->chunk_offset));
          return FALSE;
        }
      guint64 left = self->data_end - self->pos;
      if (!load_stream (self, self->pos + MIN (left, (guint64) 8)))
        return FALSE;
      const guint8 *p = self->data + self->pos;
      if (left < 8)
        {
          stop (self, g_error_new (JVMS_PERF_ERROR, JVMS_PERF_ERROR_TRUNCATED,
                                   "%s: file ends at %" G_GUINT64_FORMAT " inside the record header at %"
                                   G_GUINT64_FORMAT, self->path, self->data_end, self->pos));
          return FALSE;
        }
      guint16 rsize;
      memcpy (&rsize, p + 6, 2);
      if (rsize >= 8 && rsize <= left && !load_stream (self, self->pos + rsize))
        return FALSE;
      if (rsize < 8 || rsize > left)
        {
          gboolean cut = rsize > left;
          stop (self, g_error_new (JVMS_PERF_ERROR, cut ? JVMS_PERF_ERROR_TRUNCATED : JVMS_PERF_ERROR_CORRUPT,
                                   cut ? "%s: %s ends at %" G_GUINT64_FORMAT " inside the record at %"
                                         G_GUINT64_FORMAT " (type %u, declares %u bytes)"
                                       : "%s: %s at %" G_GUINT64_FORMAT ": record at %" G_GUINT64_FORMAT
                                         " has type %u and size %u < 8",
                                   self->path, self->finalized ? "data section" : "file",
                                   self->data_end, self->pos, rd_type (p), rsize));
          return FALSE;
        }
      guint64 offset = self->pos;
      self->pos += rsize;
      guint32 type = rd_type (p);
      if (type == PERF_REC_COMPRESSED || type == PERF_REC_COMPRESSED2)
        {
          if (!decompress (self, p, rsize, offset))
            return FALSE;
          continue;
        }
      out->rec = p;
      out->size = rsize;
      out->chunk = NULL;
      out->offset = offset;
      return TRUE;
    }
}

static void
event_update (JvmsPerfReader *self, const guint8 *rec, gsize size)
{
  guint64 type, id;
  if (size < 25)
    return;
  memcpy (&type, rec + 8, 8);
  memcpy (&id, rec + 16, 8);
  if (type != PERF_EVENT_UPDATE_NAME)
    return;
  PerfIdSlot *slot = g_hash_table_lookup (self->id_to_slot, &id);
  if (slot == NULL)
    return;
  char *name = g_utf8_make_valid ((const char *) rec + 24, (gssize) strnlen ((const char *) rec + 24, size - 24));
  if (name[0] == '\0')
    {
      g_free (name);
      return;
    }
  /* Events already decoded may point at the old name. */
  g_ptr_array_add (self->retired_names, slot->attr->name);
  slot->attr->name = name;
  slot->attr->pub.name = name;
}

static void
note_unknown_type (JvmsPerfReader *self, guint32 type, guint64 offset)
{
  if (self->n_unknown_type++ == 0)
    {
      self->first_unknown_type = type;
      self->first_unknown_type_offset = offset;
    }
}

/* The mirror's pages stay counted in the process's RSS once read: give back those behind the
 * oldest record still held, every PERF_RELEASE_STEP bytes, so that memory stays bounded
 * whatever the file size. Those pages are never read again: the stream is read forwards. */
#define PERF_RELEASE_STEP ((guint64) 32 << 20)

static void
release_pages (JvmsPerfReader *self)
{
  if (self->mirror == NULL || self->pos < self->released_upto + 2 * PERF_RELEASE_STEP)
    return;
  guint64 keep = self->pos;
  for (gsize i = self->order.cursor; i < self->order.n; i++)
    if (self->order.entries[i].chunk == NULL)
      keep = MIN (keep, self->order.entries[i].offset);
  /* A record the caller holds (the current one) sits at most 64 KiB back. */
  keep = keep > 65536 ? keep - 65536 : 0;
  /* Whole huge pages, so that giving pages back never splits one. */
  guint64 page = (guint64) 2 << 20;
  guint64 from = self->released_upto, to = keep / page * page;
  if (to > from + PERF_RELEASE_STEP)
    {
      madvise ((void *) (self->data + from), (gsize) (to - from), MADV_DONTNEED);
      self->released_upto = to;
    }
}

/* Reads records until events are ready to deliver, or the stream ends. */
static void
read_more (JvmsPerfReader *self)
{
  gboolean unordered = (self->flags & JVMS_PERF_READER_UNORDERED) != 0;
  RawRecord r;
  release_pages (self);
  while (next_raw (self, &r))
    {
      guint32 type = rd_type (r.rec);
      if (type >= PERF_RECORD_MAX || type == 0)
        {
          switch (type)
            {
            case PERF_REC_FINISHED_ROUND:
              if (!unordered)
                {
                  perf_order_round (&self->order);
                  if (self->order.cursor < self->order.ready_end)
                    return;
                }
              break;
            case PERF_REC_EVENT_UPDATE:
              event_update (self, r.rec, r.size);
              break;
            case PERF_REC_HEADER_ATTR: case PERF_REC_HEADER_EVENT_TYPE: case PERF_REC_HEADER_TRACING_DATA:
            case PERF_REC_HEADER_BUILD_ID: case PERF_REC_ID_INDEX: case PERF_REC_AUXTRACE_INFO:
            case PERF_REC_AUXTRACE: case PERF_REC_AUXTRACE_ERROR: case PERF_REC_THREAD_MAP:
            case PERF_REC_CPU_MAP: case PERF_REC_STAT_CONFIG: case PERF_REC_STAT: case PERF_REC_STAT_ROUND:
            case PERF_REC_TIME_CONV: case PERF_REC_HEADER_FEATURE: case PERF_REC_FINISHED_INIT:
              break;
            default:
              note_unknown_type (self, type, r.offset);
              break;
            }
          continue;
        }

      guint64 time = unordered ? 0 : perf_decode_time (self, r.rec, r.size);
      if (time == 0)
        {
          perf_decode_record (self, r.rec, r.size, r.offset);
          if (self->n_out > 0)
            return;
          continue;
        }
      PerfEntry e = { time, r.rec, r.chunk != NULL ? perf_chunk_ref (r.chunk) : NULL, r.offset };
      perf_order_push (&self->order, &e);
      if (perf_order_is_full (&self->order) || self->live_chunk_bytes > PERF_MAX_CHUNK_BYTES)
        {
          perf_order_release_half (&self->order);
          return;
        }
    }
  perf_order_flush_all (&self->order);
  self->at_end = TRUE;
}

static void
finish_warnings (JvmsPerfReader *self)
{
  if (self->n_unknown_id > 0)
    perf_reader_warn (self, "%" G_GUINT64_FORMAT " samples with an id of no attribute, the first at offset %"
                      G_GUINT64_FORMAT "; skipped", self->n_unknown_id, self->first_unknown_id_offset);
  if (self->n_bad_samples > 0)
    perf_reader_warn (self, "%" G_GUINT64_FORMAT " samples do not fit their attribute's layout, the first "
                      "at offset %" G_GUINT64_FORMAT "; skipped", self->n_bad_samples,
                      self->first_bad_sample_offset);
  if (self->n_unknown_type > 0)
    perf_reader_warn (self, "%" G_GUINT64_FORMAT " records of unknown type, the first of type %u at offset %"
                      G_GUINT64_FORMAT "; skipped", self->n_unknown_type, self->first_unknown_type,
                      self->first_unknown_type_offset);
  if (self->n_unordered > 0)
    perf_reader_warn (self, "%" G_GUINT64_FORMAT " events came after later events beyond the merge window "
                      "and are out of time order", self->n_unordered);
  if (self->lost > 0 || self->lost_samples > 0)
    perf_reader_warn (self, "the recorder lost %" G_GUINT64_FORMAT " events",
                      jvms_perf_reader_get_lost (self));
}

gboolean
jvms_perf_reader_next (JvmsPerfReader *self, JvmsKernelEvent *event, GError **error)
{
  g_return_val_if_fail (self != NULL && event != NULL, FALSE);
  for (;;)
    {
      if (self->out_pos < self->n_out)
        {
          *event = self->out[self->out_pos++];
          if (event->time > 0)
            {
              if (self->first_time == 0)
                self->first_time = event->time;
              if (event->time < self->last_delivered)
                {
                  if (!(self->flags & JVMS_PERF_READER_UNORDERED))
                    self->n_unordered++;
                }
              else
                self->last_delivered = event->time;
              self->last_time = MAX (self->last_time, event->time);
            }
          return TRUE;
        }
      self->n_out = self->out_pos = 0;

      PerfEntry *e = perf_order_pop (&self->order);
      if (e != NULL)
        {
          PerfEntry entry = *e;
          gsize size;
          guint16 rsize;
          memcpy (&rsize, entry.record + 6, 2);
          size = rsize;
          perf_decode_record (self, entry.record, size, entry.offset);
          perf_chunk_unref (entry.chunk);
          continue;
        }

      if (self->at_end)
        {
          if (!self->warned_end)
            {
              self->warned_end = TRUE;
              finish_warnings (self);
            }
          if (self->stop_error != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&self->stop_error));
              return FALSE;
            }
          return FALSE;
        }
      read_more (self);
    }
}

GPtrArray *
jvms_perf_reader_get_warnings (JvmsPerfReader *self)
{
  return self->warnings;
}

guint
jvms_perf_reader_get_n_attrs (JvmsPerfReader *self)
{
  return self->n_attrs;
}

const JvmsPerfAttr *
jvms_perf_reader_get_attr (JvmsPerfReader *self, guint index)
{
  g_return_val_if_fail (index < self->n_attrs, NULL);
  return &self->attrs[index].pub;
}

gint
jvms_perf_reader_get_n_cpus (JvmsPerfReader *self)
{
  return self->n_cpus;
}

gint
jvms_perf_reader_get_clockid (JvmsPerfReader *self)
{
  return self->clockid;
}

const JvmsPerfClockData *
jvms_perf_reader_get_clock_data (JvmsPerfReader *self)
{
  return &self->clock;
}

const char *
jvms_perf_reader_get_hostname (JvmsPerfReader *self)
{
  return self->hostname;
}

const char *
jvms_perf_reader_get_os_release (JvmsPerfReader *self)
{
  return self->os_release;
}

const char *
jvms_perf_reader_get_perf_version (JvmsPerfReader *self)
{
  return self->perf_version;
}

guint64
jvms_perf_reader_get_file_size (JvmsPerfReader *self)
{
  return self->size;
}

guint64
jvms_perf_reader_get_data_size (JvmsPerfReader *self)
{
  return self->data_end - self->data_start;
}

guint64
jvms_perf_reader_get_data_consumed (JvmsPerfReader *self)
{
  return self->pos - self->data_start;
}

gint64
jvms_perf_reader_get_first_time (JvmsPerfReader *self)
{
  return self->first_time;
}

gint64
jvms_perf_reader_get_last_time (JvmsPerfReader *self)
{
  return self->last_time;
}

guint64
jvms_perf_reader_get_lost (JvmsPerfReader *self)
{
  return MAX (self->lost, self->lost_samples);
}

guint64
jvms_perf_reader_get_lost_samples (JvmsPerfReader *self)
{
  return self->lost_samples;
}

guint64
jvms_perf_reader_get_n_unordered (JvmsPerfReader *self)
{
  return self->n_unordered;
}

guint64
jvms_perf_reader_get_header_bytes_read (JvmsPerfReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->header_bytes_read;
}
