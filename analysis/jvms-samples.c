/* jvms-samples.c: writer and reader of the point-sample store. */
#include "jvms-samples.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jvms-input-file.h"
#include "jvms-trace-index.h"

#define MAGIC "JVMSMPL1"
#define HEADER_SIZE 16

struct _JvmsSamplesWriter
{
  char       *path;
  char       *tmp_path;
  FILE       *file;
  GHashTable *ids;   /* string -> id + 1 */
  GHashTable *by_ptr; /* caller's string pointer -> id + 1: callers pass interned strings */
  guint32     n_strings;
  guint64     count;
  GByteArray *buf;
  gboolean    closed;
  gboolean    failed;
};

static void
put (GByteArray *b, const void *p, gsize n)
{
  g_byte_array_append (b, p, n);
}

static void
put_u32 (GByteArray *b, guint32 v)
{
  guint32 le = GUINT32_TO_LE (v);
  put (b, &le, 4);
}

static void
put_u64 (GByteArray *b, guint64 v)
{
  guint64 le = GUINT64_TO_LE (v);
  put (b, &le, 8);
}

static void
flush_buf (JvmsSamplesWriter *self)
{
  if (self->buf->len == 0)
    return;
  if (!self->failed && fwrite (self->buf->data, 1, self->buf->len, self->file) != self->buf->len)
    self->failed = TRUE;
  g_byte_array_set_size (self->buf, 0);
}

JvmsSamplesWriter *
jvms_samples_writer_new (const char *path, GError **error)
{
  g_autofree char *tmp = g_strdup_printf ("%s.tmp-%d", path, (int) getpid ());
  FILE *f = fopen (tmp, "wb");
  if (f == NULL)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", tmp,
                   g_strerror (saved));
      return NULL;
    }
  JvmsSamplesWriter *self = g_new0 (JvmsSamplesWriter, 1);
  self->path = g_strdup (path);
  self->tmp_path = g_steal_pointer (&tmp);
  self->file = f;
  self->ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->by_ptr = g_hash_table_new (NULL, NULL);
  self->buf = g_byte_array_sized_new (1 << 16);
  put (self->buf, MAGIC, 8);
  put_u32 (self->buf, 1);
  put_u32 (self->buf, 0);
  return self;
}

/* @stable: @s is an interned string that keeps its address and bytes for the writer's life
 * (frame method names), so its pointer may stand for its content. Other strings (the reader's,
 * valid until its next event) are looked up by content only. */
static guint32
string_id (JvmsSamplesWriter *self, const char *s, gboolean stable)
{
  if (s == NULL)
    return JVMS_SAMPLES_NONE;
  gpointer found = stable ? g_hash_table_lookup (self->by_ptr, s) : NULL;
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  found = g_hash_table_lookup (self->ids, s);
  if (found != NULL)
    {
      /* Bounded; past it, content lookups still give the right id. */
      if (stable && g_hash_table_size (self->by_ptr) < (1u << 20))
        g_hash_table_insert (self->by_ptr, (gpointer) s, found);
      return GPOINTER_TO_UINT (found) - 1;
    }
  guint32 id = self->n_strings++;
  gsize len = strlen (s);
  guint8 tag = 'S';
  put (self->buf, &tag, 1);
  put_u32 (self->buf, (guint32) len);
  put (self->buf, s, len);
  g_hash_table_insert (self->ids, g_strdup (s), GUINT_TO_POINTER (id + 1));
  if (stable && g_hash_table_size (self->by_ptr) < (1u << 20))
    g_hash_table_insert (self->by_ptr, (gpointer) s, GUINT_TO_POINTER (id + 1));
  return id;
}

void
jvms_samples_writer_add (JvmsSamplesWriter *self, const JvmsSample *s)
{
  guint n = MIN (s->n_frames, JVMS_SAMPLES_MAX_FRAMES);
  guint32 frame_ids[JVMS_SAMPLES_MAX_FRAMES];
  for (guint i = 0; i < n; i++)
    frame_ids[i] = string_id (self, s->frames[i].method != NULL ? s->frames[i].method : "?",
                              s->frames_interned);
  guint32 a = JVMS_SAMPLES_NONE;
  if (s->kind == JVMS_SAMPLE_EXECUTION || s->kind == JVMS_SAMPLE_NATIVE)
    a = string_id (self, s->state, FALSE);
  else
    a = string_id (self, s->class_name, FALSE);

  guint8 tag = (guint8) s->kind;
  put (self->buf, &tag, 1);
  put_u64 (self->buf, (guint64) s->time);
  put_u64 (self->buf, (guint64) s->tid);
  put_u32 (self->buf, a);
  if (s->kind == JVMS_SAMPLE_ALLOCATION)
    put_u64 (self->buf, s->weight);
  else if (s->kind == JVMS_SAMPLE_OLD_OBJECT)
    {
      put_u64 (self->buf, (guint64) s->allocation_time);
      put_u64 (self->buf, s->object_age);
    }
  put_u32 (self->buf, n);
  for (guint i = 0; i < n; i++)
    {
      put_u32 (self->buf, frame_ids[i]);
      put_u32 (self->buf, (guint32) s->frames[i].line);
    }
  self->count++;
  if (self->buf->len >= (1 << 16))
    flush_buf (self);
}

guint64
jvms_samples_writer_count (JvmsSamplesWriter *self)
{
  return self->count;
}

gboolean
jvms_samples_writer_close (JvmsSamplesWriter *self, GError **error)
{
  flush_buf (self);
  int rc = fclose (self->file);
  self->file = NULL;
  if (self->failed || rc != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: could not write the sample store",
                   self->tmp_path);
      return FALSE;
    }
  if (g_rename (self->tmp_path, self->path) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", self->path,
                   g_strerror (saved));
      return FALSE;
    }
  self->closed = TRUE;
  return TRUE;
}

void
jvms_samples_writer_free (JvmsSamplesWriter *self)
{
  if (self == NULL)
    return;
  if (self->file != NULL)
    fclose (self->file);
  if (!self->closed)
    g_unlink (self->tmp_path);
  g_free (self->path);
  g_free (self->tmp_path);
  g_hash_table_unref (self->ids);
  g_hash_table_unref (self->by_ptr);
  g_byte_array_unref (self->buf);
  g_free (self);
}

/* ------------------------------------------------------------------------------------------ */

struct _JvmsSamplesReader
{
  char            *path;
  GMappedFile     *map;
  const guint8    *data;
  gsize            size;
  gsize            pos;
  GPtrArray       *strings; /* char*, owned */
  JvmsSampleFrame  frames[JVMS_SAMPLES_MAX_FRAMES];
};

JvmsSamplesReader *
jvms_samples_reader_open (const char *path, GError **error)
{
  struct stat st;
  int fd = jvms_input_file_open (path, &st, error);
  if (fd < 0)
    return NULL;
  g_autoptr(GMappedFile) map = g_mapped_file_new_from_fd (fd, FALSE, error);
  close (fd);
  if (map == NULL)
    return NULL;
  const guint8 *data = (const guint8 *) g_mapped_file_get_contents (map);
  gsize size = g_mapped_file_get_length (map);
  if (size < HEADER_SIZE || memcmp (data, MAGIC, 8) != 0)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                   "%s: not a Jvmscope sample store (bad magic at offset 0)", path);
      return NULL;
    }
  guint32 version;
  memcpy (&version, data + 8, 4);
  if (GUINT32_FROM_LE (version) != 1)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                   "%s: sample store version %u, expected 1", path, GUINT32_FROM_LE (version));
      return NULL;
    }
  JvmsSamplesReader *self = g_new0 (JvmsSamplesReader, 1);
  self->path = g_strdup (path);
  self->map = g_steal_pointer (&map);
  self->data = data;
  self->size = size;
  self->pos = HEADER_SIZE;
  self->strings = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
jvms_samples_reader_free (JvmsSamplesReader *self)
{
  if (self == NULL)
    return;
  g_mapped_file_unref (self->map);
  g_ptr_array_unref (self->strings);
  g_free (self->path);
  g_free (self);
}

static gboolean
take (JvmsSamplesReader *self, void *out, gsize n)
{
  if (self->size - self->pos < n)
    return FALSE;
  memcpy (out, self->data + self->pos, n);
  self->pos += n;
  return TRUE;
}

static gboolean
take_u32 (JvmsSamplesReader *self, guint32 *out)
{
  if (!take (self, out, 4))
    return FALSE;
  *out = GUINT32_FROM_LE (*out);
  return TRUE;
}

static gboolean
take_u64 (JvmsSamplesReader *self, guint64 *out)
{
  if (!take (self, out, 8))
    return FALSE;
  *out = GUINT64_FROM_LE (*out);
  return TRUE;
}

static gboolean
lookup (JvmsSamplesReader *self, guint32 id, const char **out)
{
  if (id == JVMS_SAMPLES_NONE)
    {
      *out = NULL;
      return TRUE;
    }
  if (id >= self->strings->len)
    return FALSE;
  *out = g_ptr_array_index (self->strings, id);
  return TRUE;
}

static gboolean
damaged (JvmsSamplesReader *self, gsize at, const char *what, GError **error)
{
  g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
               "%s: damaged sample store at offset %" G_GSIZE_FORMAT ": %s", self->path, at, what);
  self->pos = self->size;
  return FALSE;
}

gboolean
jvms_samples_reader_next (JvmsSamplesReader *self, JvmsSample *out, GError **error)
{
  while (self->pos < self->size)
    {
      gsize at = self->pos;
      guint8 tag = self->data[self->pos++];
      if (tag == 'S')
        {
          guint32 len;
          if (!take_u32 (self, &len) || self->size - self->pos < len)
            return damaged (self, at, "string record cut short", error);
          g_ptr_array_add (self->strings,
                           g_utf8_make_valid ((const char *) self->data + self->pos, len));
          self->pos += len;
          continue;
        }
      if (tag != 'E' && tag != 'N' && tag != 'A' && tag != 'O')
        return damaged (self, at, "unknown record tag", error);

      memset (out, 0, sizeof *out);
      out->kind = (JvmsSampleKind) tag;
      guint64 time, tid;
      guint32 a, n;
      if (!take_u64 (self, &time) || !take_u64 (self, &tid) || !take_u32 (self, &a))
        return damaged (self, at, "sample record cut short", error);
      out->time = (gint64) time;
      out->tid = (gint64) tid;
      const char *s;
      if (!lookup (self, a, &s))
        return damaged (self, at, "undefined string id", error);
      if (tag == 'E' || tag == 'N')
        out->state = s;
      else
        out->class_name = s;
      if (tag == 'A' && !take_u64 (self, &out->weight))
        return damaged (self, at, "allocation record cut short", error);
      if (tag == 'O')
        {
          guint64 at_time;
          if (!take_u64 (self, &at_time) || !take_u64 (self, &out->object_age))
            return damaged (self, at, "old-object record cut short", error);
          out->allocation_time = (gint64) at_time;
        }
      if (!take_u32 (self, &n) || n > JVMS_SAMPLES_MAX_FRAMES)
        return damaged (self, at, "bad frame count", error);
      for (guint i = 0; i < n; i++)
        {
          guint32 id, line;
          if (!take_u32 (self, &id) || !take_u32 (self, &line))
            return damaged (self, at, "frames cut short", error);
          if (!lookup (self, id, &self->frames[i].method) || self->frames[i].method == NULL)
            return damaged (self, at, "undefined frame string id", error);
          self->frames[i].line = (gint32) line;
        }
      out->n_frames = n;
      out->frames = self->frames;
      return TRUE;
    }
  return FALSE;
}
