/* jfr-file.c: opening a file, walking its chunk headers, reading each chunk's metadata.
 *
 * Chunk header (68 bytes, big-endian):
 *   0 magic "FLR\0" | 4 major u2 | 6 minor u2 | 8 size u8 (header included) |
 *   16 constant-pool offset u8 (last checkpoint) | 24 metadata offset u8 | 32 startNanos u8 |
 *   40 durationNanos u8 | 48 startTicks u8 | 56 ticksPerSecond u8 |
 *   64 state u1 (0 = complete; JDK 11 writes 0 here too) | 65 pad | 66 flags u2 (bit 0
 *   compressed integers, bit 1 final chunk).
 */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <unistd.h>
#include <string.h>

#include "jfr-private.h"
#include "jfr-input.h"
#include "jvms-input-file.h"

G_DEFINE_QUARK (jvms-jfr-error-quark, jvms_jfr_error)

__thread guint64 jfr_work;

guint64
jvms_jfr_work_steps (void)
{
  return jfr_work;
}

G_STATIC_ASSERT (JFR_HEADER_SIZE == 68);

static void
warning_free (gpointer data)
{
  JvmsJfrWarning *w = data;
  g_free ((char *) w->message);
  g_free (w);
}

void
jfr_file_warn (JvmsJfrFile *file, guint chunk, guint64 offset, const char *structure,
               const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *text = g_strdup_vprintf (format, args);
  va_end (args);
  JvmsJfrWarning *w = g_new0 (JvmsJfrWarning, 1);
  w->chunk = chunk;
  w->offset = offset;
  w->structure = structure;
  if (chunk == G_MAXUINT)
    w->message = g_strdup_printf ("%s: %s at offset %" G_GUINT64_FORMAT ": %s",
                                  file->path, structure, offset, text);
  else
    w->message = g_strdup_printf ("%s: chunk %u: %s at offset %" G_GUINT64_FORMAT ": %s",
                                  file->path, chunk, structure, offset, text);
  g_ptr_array_add (file->warnings, w);
}

static void
chunk_free (gpointer data)
{
  JfrChunk *c = data;
  jfr_metadata_unref (c->metadata);
  g_clear_pointer (&c->checkpoints, g_array_unref);
  g_free (c);
}

static gboolean
has_magic (const guint8 *p)
{
  return memcmp (p, "FLR\0", 4) == 0;
}

/* A header that could start a chunk: magic, a known version and a sane size. Used to find
 * the next chunk after damage. */
static gboolean
plausible_header (const guint8 *p, guint64 left)
{
  if (left < JFR_HEADER_SIZE || !has_magic (p))
    return FALSE;
  guint major = (p[4] << 8) | p[5];
  guint64 size = jfr_read_be64 (p + 8);
  return (major == 1 || major == 2) && size >= JFR_HEADER_SIZE;
}

/* The last metadata record (type 0) found by walking the records of the chunk at @p: used
 * when the header's metadata offset does not point at one. Returns a chunk-relative offset or
 * 0. */
static guint64
scan_for_metadata (JvmsJfrFile *file, guint64 p, guint64 usable, gboolean compressed)
{
  g_auto(JfrWindow) window = { 0 };
  guint64 found = 0;
  guint64 pos = JFR_HEADER_SIZE;
  while (pos < usable)
    {
      guint64 avail;
      const guint8 *head = jfr_window_at (file, &window, p + pos, MIN (usable - pos, 18), &avail);
      JfrIn in;
      jfr_in_init (&in, head, head + avail, compressed);
      guint64 size = jfr_in_int (&in, 4);
      guint64 type = jfr_in_long (&in);
      if (in.bad || size < 2 || size > usable - pos)
        break;
      if (type == 0)
        found = pos;
      pos += size;
    }
  return found;
}

/* The offset of the first plausible chunk header in [@from, @total), or G_MAXUINT64. */
static guint64
find_next_header (JvmsJfrFile *file, guint64 from, guint64 total)
{
  g_auto(JfrWindow) window = { 0 };
  g_auto(JfrView) header = { 0 };
  guint64 found = G_MAXUINT64;
  const guint64 step = (guint64) 1 << 20;
  for (guint64 q = from; found == G_MAXUINT64 && q + JFR_HEADER_SIZE <= total;)
    {
      guint64 got;
      const guint8 *w = jfr_window_at (file, &window, q, MIN (step, total - q), &got);
      if (got < 4)
        break;
      for (const guint8 *s = w; found == G_MAXUINT64;)
        {
          const guint8 *hit = memmem (s, (gsize) (w + got - s), "FLR\0", 4);
          if (hit == NULL)
            break;
          guint64 at = q + (guint64) (hit - w);
          guint64 hgot;
          const guint8 *h = jfr_file_view (file, &header, at, JFR_HEADER_SIZE, &hgot);
          if (hgot == JFR_HEADER_SIZE && plausible_header (h, total - at))
            found = at;
          s = hit + 1;
        }
      if (got < MIN (step, total - q))
        break;   /* the file shrank */
      q += got - 3;   /* a magic across two windows is found in the second */
    }
  return found;
}

/* Metadata are shared by chunks whose records are the same (same id, same bytes): a hash on
 * both, so that a file of many chunks costs one lookup per chunk. */
static guint
metadata_hash (gconstpointer key)
{
  const JfrMetadata *md = key;
  return g_str_hash (md->payload_digest) ^ (guint) md->metadata_id ^ (guint) (md->metadata_id >> 32);
}

static gboolean
metadata_equal (gconstpointer a, gconstpointer b)
{
  const JfrMetadata *x = a, *y = b;
  jfr_work++;
  return x->metadata_id == y->metadata_id && x->payload_size == y->payload_size
         && strcmp (x->payload_digest, y->payload_digest) == 0;
}

static JfrMetadata *
find_or_add_metadata (JvmsJfrFile *file, JfrMetadata *md)
{
  JfrMetadata *other = g_hash_table_lookup (file->metadata_set, md);
  if (other != NULL)
    {
      jfr_metadata_unref (md);
      return jfr_metadata_ref (other);
    }
  g_ptr_array_add (file->metadatas, jfr_metadata_ref (md));
  g_hash_table_add (file->metadata_set, md);
  return md;
}

/* Chunks are told apart as JMC does, by (startNanos, startTicks, size): a hash on them finds
 * a duplicate in one lookup. */
typedef struct
{
  gint64  start_nanos, start_ticks;
  guint64 size;
} ChunkKey;

static guint
chunk_key_hash (gconstpointer key)
{
  const ChunkKey *k = key;
  guint64 h = (guint64) k->start_nanos * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)
              ^ (guint64) k->start_ticks * G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f) ^ k->size;
  return (guint) (h ^ (h >> 32));
}

static gboolean
chunk_key_equal (gconstpointer a, gconstpointer b)
{
  const ChunkKey *x = a, *y = b;
  jfr_work++;
  return x->start_nanos == y->start_nanos && x->start_ticks == y->start_ticks && x->size == y->size;
}

/* A metadata record larger than this is not read: real ones are about 100 KB. */
#define MAX_METADATA_RECORD ((guint64) 256 << 20)

/* Reads the metadata record at chunk-relative @offset. */
static JfrMetadata *
read_metadata (JvmsJfrFile *file, JfrChunk *c, guint64 offset, GError **error)
{
  guint64 usable = c->info.size;
  guint64 at = c->info.file_offset + offset;
  if (offset < JFR_HEADER_SIZE || offset >= usable)
    {
      g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_CORRUPT,
                   "%s: chunk %u: metadata offset %" G_GUINT64_FORMAT " is outside the chunk (%" G_GUINT64_FORMAT " bytes)",
                   file->path, c->info.index, offset, usable);
      return NULL;
    }
  g_auto(JfrView) view = { 0 };
  guint64 got;
  const guint8 *head = jfr_file_view (file, &view, at, MIN (usable - offset, 9), &got);
  JfrIn in;
  jfr_in_init (&in, head, head + got, c->info.compressed_integers);
  guint64 size = jfr_in_int (&in, 4);
  const guint8 *record = NULL;
  if (!in.bad && size >= 2 && size <= usable - offset && size <= MAX_METADATA_RECORD)
    {
      record = jfr_file_view (file, &view, at, size, &got);
      if (got < size)
        record = NULL;   /* the file shrank */
    }
  if (record == NULL)
    {
      if (size > MAX_METADATA_RECORD && size <= usable - offset)
        g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_CORRUPT,
                     "%s: chunk %u: the metadata record at %" G_GUINT64_FORMAT " declares %" G_GUINT64_FORMAT " bytes, more than the limit of %" G_GUINT64_FORMAT,
                     file->path, c->info.index, at, size, MAX_METADATA_RECORD);
      else
        g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_TRUNCATED,
                     "%s: chunk %u: no complete metadata record (the chunk ends at %" G_GUINT64_FORMAT ", metadata at %" G_GUINT64_FORMAT " declares %" G_GUINT64_FORMAT " bytes)",
                     file->path, c->info.index, c->info.file_offset + usable, at, size);
      return NULL;
    }
  return jfr_metadata_parse (file, c->info.index, record, record + size, at,
                             c->info.compressed_integers, error);
}

/* Whether @prev's time base converts @c's start ticks to @c's own start time, that is whether
 * the two chunks' ticks share an origin. Chunks of one JVM do: the two times then differ by the
 * jitter of reading two clocks one after the other (hundreds of ns). The next JVM's chunks in
 * a file concatenated from several runs do not (their ticks restart from that JVM's own
 * origin), and with the previous run's base they would be laid over its time: tens of seconds
 * off in bench-profile's 1 GB file of 15 runs. Allowed: 1 s, plus 1 ms per second between the
 * two chunks for the wall clock's slewing. */
static gboolean
base_predicts_start (const JvmsJfrChunkInfo *prev, const JvmsJfrChunkInfo *c)
{
  double off = (double) jvms_jfr_chunk_ticks_to_epoch_ns (prev, c->start_ticks) - (double) c->start_nanos;
  double apart = (double) c->start_nanos - (double) prev->base_nanos;
  return ABS (off) <= 1e9 + ABS (apart) * 1e-3;
}

/* Whether a plausible chunk header starts at @at. */
static gboolean
header_at (JvmsJfrFile *file, guint64 at, guint64 total)
{
  if (at >= total || total - at < JFR_HEADER_SIZE)
    return FALSE;
  g_auto(JfrView) view = { 0 };
  guint64 got;
  const guint8 *h = jfr_file_view (file, &view, at, JFR_HEADER_SIZE, &got);
  return got == JFR_HEADER_SIZE && plausible_header (h, total - at);
}

static gboolean
walk_chunks (JvmsJfrFile *file, GError **error)
{
  guint64 total = file->size;
  guint64 p = 0;
  guint index = 0;
  g_autoptr(GError) first_problem = NULL;
  g_auto(JfrView) header = { 0 };
  g_autoptr(GHashTable) seen = g_hash_table_new_full (chunk_key_hash, chunk_key_equal, g_free, NULL);

  if (total == 0)
    {
      g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_EMPTY, "%s: empty file", file->path);
      return FALSE;
    }

  while (p < total)
    {
      guint64 left = total - p;
      guint64 got;
      const guint8 *h = jfr_file_view (file, &header, p, MIN (left, JFR_HEADER_SIZE), &got);
      if (got < MIN (left, JFR_HEADER_SIZE))
        {
          /* the file shrank (warned): it ends here now */
          total = p + got;
          left = got;
        }
      if (left < JFR_HEADER_SIZE || !has_magic (h))
        {
          if (p == 0)
            {
              if (left < 4 || !has_magic (h))
                g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_NOT_JFR,
                             "%s: not a JFR file: magic at offset 0 is %02X %02X %02X %02X",
                             file->path, left > 0 ? h[0] : 0, left > 1 ? h[1] : 0,
                             left > 2 ? h[2] : 0, left > 3 ? h[3] : 0);
              else
                g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_NOT_JFR,
                             "%s: chunk header truncated at %" G_GUINT64_FORMAT " of 68 bytes",
                             file->path, left);
              return FALSE;
            }
          /* Damage between chunks: look for the next plausible header. */
          guint64 q = find_next_header (file, p + 1, total);
          if (q == G_MAXUINT64)
            {
              if (left > 0)
                jfr_file_warn (file, G_MAXUINT, p, "file",
                               "%" G_GUINT64_FORMAT " trailing bytes after the last chunk ignored", left);
              break;
            }
          jfr_file_warn (file, G_MAXUINT, p, "chunk header",
                         "no chunk header here; %" G_GUINT64_FORMAT " bytes skipped up to the next chunk at %" G_GUINT64_FORMAT,
                         q - p, q);
          p = q;
          continue;
        }

      guint major = (h[4] << 8) | h[5];
      guint minor = (h[6] << 8) | h[7];
      if (major != 1 && major != 2)
        {
          if (p == 0)
            {
              g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_VERSION,
                           "%s: chunk 0: format version %u.%u is not supported (1.x and 2.x are)",
                           file->path, major, minor);
              return FALSE;
            }
          jfr_file_warn (file, index, p, "chunk header",
                         "format version %u.%u is not supported (1.x and 2.x are); the rest of the file is ignored",
                         major, minor);
          break;
        }

      JfrChunk *c = g_new0 (JfrChunk, 1);
      c->info.index = index;
      c->position = index;
      c->info.file_offset = p;
      c->info.major = (guint16) major;
      c->info.minor = (guint16) minor;
      guint64 size = jfr_read_be64 (h + 8);
      c->cp_offset = jfr_read_be64 (h + 16);
      c->metadata_offset = jfr_read_be64 (h + 24);
      c->info.start_nanos = (gint64) jfr_read_be64 (h + 32);
      c->info.duration_nanos = (gint64) jfr_read_be64 (h + 40);
      c->info.start_ticks = (gint64) jfr_read_be64 (h + 48);
      c->info.ticks_per_second = (gint64) jfr_read_be64 (h + 56);
      c->state = h[64];
      guint flags = (h[66] << 8) | h[67];
      c->info.compressed_integers = (flags & 1) != 0;
      c->info.final_chunk = (flags & 2) != 0;
      c->info.complete = TRUE;

      gboolean last = FALSE;
      if (size < JFR_HEADER_SIZE || size > left)
        {
          jfr_file_warn (file, index, p, "chunk header",
                         "the chunk declares %" G_GUINT64_FORMAT " bytes but the file ends at %" G_GUINT64_FORMAT " after %" G_GUINT64_FORMAT ": reading what is present (the file was cut short, or the recording did not finish)",
                         size, total, left);
          size = left;
          c->info.complete = FALSE;
          last = TRUE;
        }
      else if (c->state != 0)
        {
          c->info.complete = FALSE;
          /* JDK 14+ rewrites the header at every flush; records written after the last
           * flush follow it. Read them too unless another chunk starts there. */
          if (!header_at (file, p + size, total))
            {
              jfr_file_warn (file, index, p, "chunk header",
                             "the recording did not finish cleanly (chunk state %u): reading up to the end of the file, data after the last flush may be missing",
                             c->state);
              size = left;
              last = TRUE;
            }
          else
            jfr_file_warn (file, index, p, "chunk header",
                           "the chunk was not finished (state %u)", c->state);
        }
      c->info.size = size;

      gboolean usable = TRUE;
      if (c->info.ticks_per_second <= 0)
        {
          jfr_file_warn (file, index, p + 56, "chunk header",
                         "ticksPerSecond is %" G_GINT64_FORMAT ": the chunk is skipped",
                         c->info.ticks_per_second);
          usable = FALSE;
        }
      ChunkKey key = { c->info.start_nanos, c->info.start_ticks, c->info.size };
      const JfrChunk *same = usable ? g_hash_table_lookup (seen, &key) : NULL;
      if (same != NULL)
        {
          jfr_file_warn (file, index, p, "chunk header",
                         "duplicate of the chunk at %" G_GUINT64_FORMAT ": skipped",
                         same->info.file_offset);
          usable = FALSE;
        }

      if (usable)
        {
          g_autoptr(GError) local_error = NULL;
          JfrMetadata *md = NULL;
          if (c->metadata_offset == 0 && size == JFR_HEADER_SIZE)
            g_set_error (&local_error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_TRUNCATED,
                         "%s: chunk %u at offset %" G_GUINT64_FORMAT ": the JVM stopped before it flushed any data (no metadata)",
                         file->path, index, p);
          else
            md = read_metadata (file, c, c->metadata_offset, &local_error);
          if (md == NULL && size > JFR_HEADER_SIZE)
            {
              guint64 found = scan_for_metadata (file, p, size, c->info.compressed_integers);
              if (found != 0 && found != c->metadata_offset)
                {
                  g_autoptr(GError) again = NULL;
                  md = read_metadata (file, c, found, &again);
                  if (md != NULL)
                    {
                      jfr_file_warn (file, index, p + 24, "chunk header",
                                     "metadata offset %" G_GUINT64_FORMAT " does not point at a metadata record; using the one found at %" G_GUINT64_FORMAT,
                                     c->metadata_offset, p + found);
                      c->metadata_offset = found;
                    }
                }
            }
          /* Cut before this chunk's metadata (which JDK 14+ may write mid-chunk, after
           * events it describes): the previous chunk of the same JVM describes the same type
           * ids, so its metadata decodes what is present. */
          JfrChunk *prev = file->chunks->len ? g_ptr_array_index (file->chunks, file->chunks->len - 1) : NULL;
          if (md == NULL && !c->info.complete && prev != NULL
              && prev->info.file_offset + prev->info.size == p
              && prev->info.ticks_per_second == c->info.ticks_per_second)
            {
              jfr_file_warn (file, index, p, "metadata",
                             "%s; decoding the chunk with the metadata of the previous chunk (same JVM)",
                             local_error->message);
              md = jfr_metadata_ref (prev->metadata);
              g_clear_error (&local_error);
            }
          if (md == NULL)
            {
              jfr_file_warn (file, index, p, "metadata", "%s; the chunk is skipped",
                             local_error->message);
              if (first_problem == NULL)
                first_problem = g_steal_pointer (&local_error);
            }
          else
            {
              c->metadata = find_or_add_metadata (file, md);
              c->info.index = file->chunks->len;
              c->info.base_nanos = c->info.start_nanos;
              c->info.base_ticks = c->info.start_ticks;
              if (prev != NULL && prev->metadata->metadata_id == c->metadata->metadata_id
                  && prev->info.ticks_per_second == c->info.ticks_per_second
                  && prev->info.file_offset + prev->info.size == c->info.file_offset
                  && base_predicts_start (&prev->info, &c->info))
                {
                  c->info.base_nanos = prev->info.base_nanos;
                  c->info.base_ticks = prev->info.base_ticks;
                }
              g_ptr_array_add (file->chunks, c);
              ChunkKey *k = g_new (ChunkKey, 1);
              *k = key;
              g_hash_table_insert (seen, k, c);
              c = NULL;
            }
        }
      if (c != NULL)
        chunk_free (c);
      index++;
      if (last)
        break;
      p += size;
    }

  if (file->chunks->len == 0)
    {
      if (first_problem != NULL)
        g_propagate_error (error, g_steal_pointer (&first_problem));
      else
        g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_CORRUPT,
                     "%s: no readable chunk", file->path);
      return FALSE;
    }
  return TRUE;
}

static JvmsJfrFile *
file_new (const char *name)
{
  JvmsJfrFile *file = g_new0 (JvmsJfrFile, 1);
  file->ref_count = 1;
  file->path = g_strdup (name);
  file->fd = -1;
  file->chunks = g_ptr_array_new_with_free_func (chunk_free);
  file->warnings = g_ptr_array_new_with_free_func (warning_free);
  file->metadatas = g_ptr_array_new_with_free_func ((GDestroyNotify) jfr_metadata_unref);
  file->metadata_set = g_hash_table_new (metadata_hash, metadata_equal);
  return file;
}

JvmsJfrFile *
jvms_jfr_file_open (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autoptr(GError) local_error = NULL;
  struct stat st;
  /* A regular file only: a named pipe would block the open. */
  int fd = jvms_input_file_open (path, &st, &local_error);
  if (fd < 0)
    {
      g_set_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_IO, "%s", local_error->message);
      return NULL;
    }
  JvmsJfrFile *file = file_new (path);
  file->fd = fd;
  file->size = (guint64) st.st_size;
  if (!walk_chunks (file, error))
    {
      jvms_jfr_file_unref (file);
      return NULL;
    }
  return file;
}

JvmsJfrFile *
jvms_jfr_file_open_bytes (GBytes *bytes, const char *name, GError **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  JvmsJfrFile *file = file_new (name ? name : "(memory)");
  file->bytes = g_bytes_ref (bytes);
  gsize size = 0;
  file->data = g_bytes_get_data (bytes, &size);
  file->size = size;
  if (file->data == NULL)
    file->data = (const guint8 *) "";
  if (!walk_chunks (file, error))
    {
      jvms_jfr_file_unref (file);
      return NULL;
    }
  return file;
}

JvmsJfrFile *
jvms_jfr_file_ref (JvmsJfrFile *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  file->ref_count++;
  return file;
}

void
jvms_jfr_file_unref (JvmsJfrFile *file)
{
  if (file == NULL || --file->ref_count > 0)
    return;
  g_ptr_array_unref (file->chunks);
  g_hash_table_unref (file->metadata_set);
  g_ptr_array_unref (file->metadatas);
  g_ptr_array_unref (file->warnings);
  if (file->fd >= 0)
    close (file->fd);
  g_clear_pointer (&file->bytes, g_bytes_unref);
  g_free (file->path);
  g_free (file);
}

const char *
jvms_jfr_file_get_path (JvmsJfrFile *file)
{
  return file->path;
}

guint64
jvms_jfr_file_get_size (JvmsJfrFile *file)
{
  return file->size;
}

guint
jvms_jfr_file_get_n_chunks (JvmsJfrFile *file)
{
  return file->chunks->len;
}

const JvmsJfrChunkInfo *
jvms_jfr_file_get_chunk (JvmsJfrFile *file, guint index)
{
  g_return_val_if_fail (index < file->chunks->len, NULL);
  JfrChunk *c = g_ptr_array_index (file->chunks, index);
  return &c->info;
}

const GPtrArray *
jvms_jfr_file_get_warnings (JvmsJfrFile *file)
{
  return file->warnings;
}

static gint64
saturate (double v)
{
  if (!(v == v))
    return 0;
  if (v >= 9223372036854775807.0)
    return G_MAXINT64;
  if (v <= -9223372036854775808.0)
    return G_MININT64;
  return (gint64) v;
}

/* Spans: ticks / (tps / 1e9) as the JDK computes it (truncated toward zero); exact integer
 * arithmetic in the usual case of nanosecond ticks. */
gint64
jvms_jfr_chunk_ticks_to_ns (const JvmsJfrChunkInfo *chunk, gint64 ticks)
{
  if (chunk->ticks_per_second == 1000000000)
    return ticks;
  return saturate ((double) ticks / ((double) chunk->ticks_per_second / 1e9));
}

gint64
jvms_jfr_chunk_ticks_to_epoch_ns (const JvmsJfrChunkInfo *chunk, gint64 ticks)
{
  /* the JDK subtracts in (wrapping) long arithmetic; so do we, without the undefined
   * behaviour */
  gint64 d = (gint64) ((guint64) ticks - (guint64) chunk->base_ticks);
  gint64 span = jvms_jfr_chunk_ticks_to_ns (chunk, d);
  gint64 out;
  if (__builtin_add_overflow (chunk->base_nanos, span, &out))
    return span > 0 ? G_MAXINT64 : G_MININT64;
  return out;
}

static const JfrMetadata *
chunk_metadata (JvmsJfrFile *file, guint chunk)
{
  g_return_val_if_fail (chunk < file->chunks->len, NULL);
  return ((JfrChunk *) g_ptr_array_index (file->chunks, chunk))->metadata;
}

guint
jvms_jfr_file_get_n_types (JvmsJfrFile *file, guint chunk)
{
  const JfrMetadata *md = chunk_metadata (file, chunk);
  return md ? md->n_types : 0;
}

const JvmsJfrType *
jvms_jfr_file_get_type (JvmsJfrFile *file, guint chunk, guint index)
{
  const JfrMetadata *md = chunk_metadata (file, chunk);
  g_return_val_if_fail (md != NULL && index < md->n_types, NULL);
  return md->types[index];
}

const JvmsJfrType *
jvms_jfr_file_find_type (JvmsJfrFile *file, guint chunk, const char *name)
{
  const JfrMetadata *md = chunk_metadata (file, chunk);
  return md ? g_hash_table_lookup (md->by_name, name) : NULL;
}
