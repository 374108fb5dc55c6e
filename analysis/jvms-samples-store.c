/* jvms-samples-store.c: an opened sample store (every table checked once at open, blocks and
 * nodes while they are decoded), and the sequential reader of the older per-sample form. */
#include "jvms-samples.h"

#include <lz4.h>
#include <string.h>
#include <unistd.h>

#include "jvms-input-file.h"
#include "jvms-samples-private.h"
#include "jvms-trace-index.h"

struct _JvmsSamplesStore
{
  gatomicrefcount              ref;
  char                        *path;
  GMappedFile                 *map;
  GBytes                      *bytes;
  const guint8                *data;
  gsize                        size;
  guint32                      flags;
  gint64                       first_time, last_time;
  guint64                      n_samples;

  guint                        n_strings;
  const guint32               *string_offsets;
  const char                  *string_bytes;
  guint                        n_methods;
  const JvmsSamplesMethod     *methods;
  char                       **method_names;   /* "class.name", built at open */
  guint                        n_frames;
  const JvmsSamplesFrame      *frames;
  guint                        n_stacks;
  const JvmsSamplesStack      *stacks;
  const guint32               *stack_paths;
  guint                        n_paths;
  const JvmsSamplesPath       *paths;
  guint                        n_threads;
  const JvmsSamplesThread     *threads;
  guint                        n_types;
  const JvmsSamplesType       *types;
  guint                        n_blocks;
  const JvmsSamplesBlock      *blocks;
  guint                        n_levels;
  guint                        n_nodes[JVMS_SAMPLES_MAX_LEVELS + 1];
  const JvmsSamplesNode       *nodes[JVMS_SAMPLES_MAX_LEVELS + 1];
  guint                        n_compilations;
  const JvmsSamplesCompilation *compilations;
  guint                        n_timings;
  const JvmsSamplesTiming     *timings;
};

static gboolean
bad (GError **error, const char *path, guint64 offset, const char *what)
{
  g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
               "%s: damaged sample store at offset %" G_GUINT64_FORMAT ": %s", path, offset, what);
  return FALSE;
}

/* The table @tag (and @level) of the directory, checked to lie in the file with @entry bytes a
 * count; NULL data and 0 count when absent. */
static gboolean
find_table (JvmsSamplesStore *self, const JvmsSamplesTable *dir, guint n, guint32 tag, guint32 level,
            gsize entry, const void **data, guint *count, GError **error)
{
  *data = NULL;
  *count = 0;
  for (guint i = 0; i < n; i++)
    {
      if (GUINT32_FROM_LE (dir[i].tag) != tag || GUINT32_FROM_LE (dir[i].level) != level)
        continue;
      guint64 offset = GUINT64_FROM_LE (dir[i].offset), size = GUINT64_FROM_LE (dir[i].size);
      guint64 c = GUINT64_FROM_LE (dir[i].count);
      if (offset > self->size || size > self->size - offset || offset % 8 != 0)
        return bad (error, self->path, offset, "a table lies outside the file");
      if (c > G_MAXUINT32 - 1 || (entry > 0 && (size % entry != 0 || size / entry != c)))
        return bad (error, self->path, offset, "a table's size does not match its count");
      *data = self->data + offset;
      *count = (guint) c;
      return TRUE;
    }
  return TRUE;
}

static gboolean
check_string_id (JvmsSamplesStore *self, guint32 id, gboolean none_ok)
{
  return (none_ok && id == JVMS_SAMPLES_NONE) || id < self->n_strings;
}

static gboolean
check_tables (JvmsSamplesStore *self, const JvmsSamplesTable *dir, guint n_tables, GError **error)
{
  const void *p;
  guint count;
  guint64 at = GUINT64_FROM_LE (((const JvmsSamplesHeader *) self->data)->directory_offset);

  /* Strings: offsets, then NUL-terminated UTF-8. */
  for (guint i = 0; i < n_tables; i++)
    if (GUINT32_FROM_LE (dir[i].tag) == JVMS_SAMPLES_TABLE_STRINGS)
      {
        guint64 offset = GUINT64_FROM_LE (dir[i].offset), size = GUINT64_FROM_LE (dir[i].size);
        guint64 c = GUINT64_FROM_LE (dir[i].count);
        if (offset > self->size || size > self->size - offset || offset % 8 != 0)
          return bad (error, self->path, offset, "the string table lies outside the file");
        if (c >= G_MAXUINT32 / 8 || 4 * (c + 1) > size)
          return bad (error, self->path, offset, "the string table is shorter than its offsets");
        self->n_strings = (guint) c;
        self->string_offsets = (const guint32 *) (self->data + offset);
        self->string_bytes = (const char *) (self->data + offset + 4 * (c + 1));
        guint64 bytes = size - 4 * (c + 1);
        guint32 previous = 0;
        for (guint s = 0; s <= self->n_strings; s++)
          {
            guint32 o = GUINT32_FROM_LE (self->string_offsets[s]);
            if (o < previous || o > bytes || (s == 0 && o != 0))
              return bad (error, self->path, offset + 4 * s, "string offsets out of order or past the table");
            if (s > 0)
              {
                const char *str = self->string_bytes + previous;
                gsize len = o - previous;
                if (len == 0 || str[len - 1] != '\0' || memchr (str, '\0', len - 1) != NULL
                    || !g_utf8_validate (str, (gssize) len - 1, NULL))
                  return bad (error, self->path, offset + 4 * (c + 1) + previous,
                              "a string is not NUL-terminated UTF-8");
              }
            previous = o;
          }
      }

  if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_METHODS, 0, sizeof (JvmsSamplesMethod), &p, &count, error))
    return FALSE;
  self->methods = p;
  self->n_methods = count;
  for (guint i = 0; i < count; i++)
    if (!check_string_id (self, GUINT32_FROM_LE (self->methods[i].class_name), TRUE)
        || !check_string_id (self, GUINT32_FROM_LE (self->methods[i].name), FALSE))
      return bad (error, self->path, at, "a method names an undefined string");

  if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_FRAMES, 0, sizeof (JvmsSamplesFrame), &p, &count, error))
    return FALSE;
  self->frames = p;
  self->n_frames = count;
  for (guint i = 0; i < count; i++)
    if (GUINT32_FROM_LE (self->frames[i].method) >= self->n_methods
        || GUINT32_FROM_LE (self->frames[i].kind) >= JVMS_FRAME_KIND_N)
      return bad (error, self->path, at, "a frame names an undefined method or kind");

  if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_STACKS, 0, sizeof (JvmsSamplesStack), &p, &count, error))
    return FALSE;
  self->stacks = p;
  self->n_stacks = count;
  for (guint i = 0; i < count; i++)
    {
      guint32 parent = GUINT32_FROM_LE (self->stacks[i].parent);
      /* A parent below its child: walking up always ends. */
      if ((parent != JVMS_SAMPLES_NONE && parent >= i) || GUINT32_FROM_LE (self->stacks[i].frame) >= self->n_frames)
        return bad (error, self->path, at, "a stack names an undefined parent or frame");
    }

  if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_PATHS, 0, sizeof (JvmsSamplesPath), &p, &count, error))
    return FALSE;
  self->paths = p;
  self->n_paths = count;
  for (guint i = 0; i < count; i++)
    {
      guint32 parent = GUINT32_FROM_LE (self->paths[i].parent);
      if ((parent != JVMS_SAMPLES_NONE && parent >= i) || GUINT32_FROM_LE (self->paths[i].method) >= self->n_methods
          || GUINT32_FROM_LE (self->paths[i].frame_kinds) >= 1u << JVMS_FRAME_KIND_N)
        return bad (error, self->path, at, "a path names an undefined parent, method or frame kind");
    }
  if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_STACK_PATHS, 0, sizeof (guint32), &p, &count, error))
    return FALSE;
  if (count != self->n_stacks)
    return bad (error, self->path, at, "the stacks' paths do not match the stacks");
  self->stack_paths = p;
  for (guint i = 0; i < count; i++)
    {
      /* A stack's path is its parent's path extended by its frame's method. */
      guint32 path = GUINT32_FROM_LE (self->stack_paths[i]);
      guint32 parent = GUINT32_FROM_LE (self->stacks[i].parent);
      guint32 frame = GUINT32_FROM_LE (self->stacks[i].frame);
      if (path >= self->n_paths
          || GUINT32_FROM_LE (self->paths[path].method) != GUINT32_FROM_LE (self->frames[frame].method)
          || GUINT32_FROM_LE (self->paths[path].parent)
               != (parent == JVMS_SAMPLES_NONE ? JVMS_SAMPLES_NONE : GUINT32_FROM_LE (self->stack_paths[parent])))
        return bad (error, self->path, at, "a stack's path does not follow its frames");
    }

  if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_THREADS, 0, sizeof (JvmsSamplesThread), &p, &count, error))
    return FALSE;
  self->threads = p;
  self->n_threads = count;
  for (guint i = 0; i < count; i++)
    if (!check_string_id (self, GUINT32_FROM_LE (self->threads[i].name), TRUE))
      return bad (error, self->path, at, "a thread names an undefined string");

  if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_TYPES, 0, sizeof (JvmsSamplesType), &p, &count, error))
    return FALSE;
  self->types = p;
  self->n_types = count;
  for (guint i = 0; i < count; i++)
    if (!check_string_id (self, GUINT32_FROM_LE (self->types[i].name), FALSE)
        || GUINT32_FROM_LE (self->types[i].unit) > JVMS_SAMPLE_UNIT_BYTES)
      return bad (error, self->path, at, "an event type names an undefined string or unit");

  if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_BLOCKS, 0, sizeof (JvmsSamplesBlock), &p, &count, error))
    return FALSE;
  self->blocks = p;
  self->n_blocks = count;
  gint64 previous_last = G_MININT64;
  for (guint i = 0; i < count; i++)
    {
      const JvmsSamplesBlock *b = &self->blocks[i];
      guint64 offset = GUINT64_FROM_LE (b->offset);
      guint32 n = GUINT32_FROM_LE (b->n_samples);
      gint64 first = GINT64_FROM_LE (b->first_time), last = GINT64_FROM_LE (b->last_time);
      if (offset > self->size || GUINT32_FROM_LE (b->compressed_size) > self->size - offset
          || GUINT32_FROM_LE (b->raw_size) > JVMS_SAMPLES_MAX_PAYLOAD)
        return bad (error, self->path, offset, "a block lies outside the file");
      if (n == 0 || n > JVMS_SAMPLES_BLOCK_SAMPLES || first > last || first < previous_last)
        return bad (error, self->path, offset, "a block's count or times are out of order");
      previous_last = last;
      self->n_samples += n;
    }

  for (guint level = 1; level <= JVMS_SAMPLES_MAX_LEVELS; level++)
    {
      if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_LEVEL, level, sizeof (JvmsSamplesNode), &p, &count, error))
        return FALSE;
      if (count == 0)
        break;
      /* Only complete runs of 2^level blocks have nodes. */
      if (level >= 32 || count != self->n_blocks >> level)
        return bad (error, self->path, at, "a level's node count does not match the blocks");
      for (guint i = 0; i < count; i++)
        {
          const JvmsSamplesNode *node = (const JvmsSamplesNode *) p + i;
          guint64 offset = GUINT64_FROM_LE (node->offset);
          if (offset == 0 && node->compressed_size == 0 && node->raw_size == 0)
            continue;   /* left out */
          if (offset < sizeof (JvmsSamplesHeader) || offset > self->size || GUINT32_FROM_LE (node->compressed_size) > self->size - offset
              || GUINT32_FROM_LE (node->raw_size) > JVMS_SAMPLES_MAX_PAYLOAD)
            return bad (error, self->path, offset, "a node lies outside the file");
        }
      self->nodes[level] = p;
      self->n_nodes[level] = count;
      self->n_levels = level;
    }

  if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_COMPILATIONS, 0, sizeof (JvmsSamplesCompilation), &p, &count, error))
    return FALSE;
  self->compilations = p;
  self->n_compilations = count;
  for (guint i = 0; i < count; i++)
    if (GUINT32_FROM_LE (self->compilations[i].method) >= self->n_methods)
      return bad (error, self->path, at, "a compilation names an undefined method");
  if (!find_table (self, dir, n_tables, JVMS_SAMPLES_TABLE_TIMINGS, 0, sizeof (JvmsSamplesTiming), &p, &count, error))
    return FALSE;
  self->timings = p;
  self->n_timings = count;
  for (guint i = 0; i < count; i++)
    if (GUINT32_FROM_LE (self->timings[i].method) >= self->n_methods)
      return bad (error, self->path, at, "a method timing names an undefined method");
  return TRUE;
}

static JvmsSamplesStore *
store_open (JvmsSamplesStore *self, GError **error)
{
  const JvmsSamplesHeader *h = (const JvmsSamplesHeader *) self->data;
  if (self->size < sizeof *h || memcmp (h->magic, JVMS_SAMPLES_MAGIC, 8) != 0)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                   "%s: not a Jvmscope sample store (bad magic at offset 0)", self->path);
      goto fail;
    }
  if (GUINT32_FROM_LE (h->version) != JVMS_SAMPLES_VERSION)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                   "%s: sample store version %u, expected %u", self->path, GUINT32_FROM_LE (h->version),
                   JVMS_SAMPLES_VERSION);
      goto fail;
    }
  if (GUINT32_FROM_LE (h->header_size) != sizeof *h)
    {
      bad (error, self->path, 12, "unexpected header size");
      goto fail;
    }
  if (GUINT64_FROM_LE (h->file_size) != self->size)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX,
                   "%s: sample store is %" G_GSIZE_FORMAT " bytes, its header says %" G_GUINT64_FORMAT
                   " (cut short or grown)", self->path, self->size, GUINT64_FROM_LE (h->file_size));
      goto fail;
    }
  guint64 dir_offset = GUINT64_FROM_LE (h->directory_offset);
  guint32 n_tables = GUINT32_FROM_LE (h->n_tables);
  if (n_tables > 64 || dir_offset > self->size || (guint64) n_tables * sizeof (JvmsSamplesTable) > self->size - dir_offset
      || dir_offset % 8 != 0)
    {
      bad (error, self->path, 16, "the table directory lies outside the file");
      goto fail;
    }
  self->flags = GUINT32_FROM_LE (h->flags);
  self->first_time = GINT64_FROM_LE (h->first_time);
  self->last_time = GINT64_FROM_LE (h->last_time);
  if (!check_tables (self, (const JvmsSamplesTable *) (self->data + dir_offset), n_tables, error))
    goto fail;
  self->method_names = g_new0 (char *, (gsize) self->n_methods + 1);
  for (guint i = 0; i < self->n_methods; i++)
    {
      const char *cls = jvms_samples_store_get_string (self, GUINT32_FROM_LE (self->methods[i].class_name));
      const char *name = jvms_samples_store_get_string (self, GUINT32_FROM_LE (self->methods[i].name));
      self->method_names[i] = cls != NULL ? g_strconcat (cls, ".", name, NULL) : g_strdup (name);
    }
  return self;

fail:
  jvms_samples_store_unref (self);
  return NULL;
}

JvmsSamplesStore *
jvms_samples_store_open (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  /* A regular file, never a pipe or a device put in the cache's place. */
  struct stat st;
  int fd = jvms_input_file_open (path, &st, error);
  if (fd < 0)
    return NULL;
  GMappedFile *map = g_mapped_file_new_from_fd (fd, FALSE, error);
  close (fd);
  if (map == NULL)
    return NULL;
  JvmsSamplesStore *self = g_new0 (JvmsSamplesStore, 1);
  g_atomic_ref_count_init (&self->ref);
  self->path = g_strdup (path);
  self->map = map;
  self->data = (const guint8 *) g_mapped_file_get_contents (map);
  self->size = g_mapped_file_get_length (map);
  return store_open (self, error);
}

JvmsSamplesStore *
jvms_samples_store_open_bytes (GBytes *bytes, const char *name, GError **error)
{
  JvmsSamplesStore *self = g_new0 (JvmsSamplesStore, 1);
  g_atomic_ref_count_init (&self->ref);
  self->path = g_strdup (name);
  self->bytes = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, &self->size);
  /* The tables are read in place: their alignment must hold, as it does in a mapping. */
  if (self->size > 0 && ((guintptr) self->data % 8) != 0)
    {
      GBytes *copy = g_bytes_new (self->data, self->size);
      g_bytes_unref (self->bytes);
      self->bytes = copy;
      self->data = g_bytes_get_data (copy, &self->size);
    }
  if (self->data == NULL)
    self->data = (const guint8 *) "";
  return store_open (self, error);
}

JvmsSamplesStore *
jvms_samples_store_ref (JvmsSamplesStore *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
jvms_samples_store_unref (JvmsSamplesStore *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref))
    return;
  if (self->method_names != NULL)
    g_strfreev (self->method_names);
  if (self->map != NULL)
    g_mapped_file_unref (self->map);
  if (self->bytes != NULL)
    g_bytes_unref (self->bytes);
  g_free (self->path);
  g_free (self);
}

const char *jvms_samples_store_get_path (JvmsSamplesStore *self) { return self->path; }
gboolean jvms_samples_store_has_kernel_states (JvmsSamplesStore *self) { return (self->flags & JVMS_SAMPLES_FLAG_KERNEL_STATES) != 0; }
gint64 jvms_samples_store_get_first_time (JvmsSamplesStore *self) { return self->first_time; }
gint64 jvms_samples_store_get_last_time (JvmsSamplesStore *self) { return self->last_time; }
guint64 jvms_samples_store_get_n_samples (JvmsSamplesStore *self) { return self->n_samples; }
guint64 jvms_samples_store_get_size (JvmsSamplesStore *self) { return self->size; }
guint jvms_samples_store_get_n_strings (JvmsSamplesStore *self) { return self->n_strings; }
guint jvms_samples_store_get_n_methods (JvmsSamplesStore *self) { return self->n_methods; }
guint jvms_samples_store_get_n_frames (JvmsSamplesStore *self) { return self->n_frames; }
guint jvms_samples_store_get_n_stacks (JvmsSamplesStore *self) { return self->n_stacks; }
guint jvms_samples_store_get_n_call_paths (JvmsSamplesStore *self) { return self->n_paths; }
guint jvms_samples_store_get_n_threads (JvmsSamplesStore *self) { return self->n_threads; }
guint jvms_samples_store_get_n_types (JvmsSamplesStore *self) { return self->n_types; }
guint jvms_samples_store_get_n_blocks (JvmsSamplesStore *self) { return self->n_blocks; }
guint jvms_samples_store_get_n_levels (JvmsSamplesStore *self) { return self->n_levels; }

const char *
jvms_samples_store_get_string (JvmsSamplesStore *self, guint32 id)
{
  if (id >= self->n_strings)
    return NULL;
  return self->string_bytes + GUINT32_FROM_LE (self->string_offsets[id]);
}

const char *
jvms_samples_store_get_method_name (JvmsSamplesStore *self, guint32 method)
{
  g_return_val_if_fail (method < self->n_methods, NULL);
  return self->method_names[method];
}

void
jvms_samples_store_get_frame (JvmsSamplesStore *self, guint32 frame, guint32 *method, gint32 *line,
                              JvmsFrameKind *kind)
{
  g_return_if_fail (frame < self->n_frames);
  const JvmsSamplesFrame *f = &self->frames[frame];
  if (method != NULL)
    *method = GUINT32_FROM_LE (f->method);
  if (line != NULL)
    *line = GINT32_FROM_LE (f->line);
  if (kind != NULL)
    *kind = (JvmsFrameKind) GUINT32_FROM_LE (f->kind);
}

void
jvms_samples_store_get_stack (JvmsSamplesStore *self, guint32 stack, guint32 *parent, guint32 *frame)
{
  g_return_if_fail (stack < self->n_stacks);
  *parent = GUINT32_FROM_LE (self->stacks[stack].parent);
  *frame = GUINT32_FROM_LE (self->stacks[stack].frame);
}

guint32
jvms_samples_store_get_stack_call_path (JvmsSamplesStore *self, guint32 stack)
{
  g_return_val_if_fail (stack < self->n_stacks, JVMS_SAMPLES_NONE);
  return GUINT32_FROM_LE (self->stack_paths[stack]);
}

void
jvms_samples_store_get_call_path (JvmsSamplesStore *self, guint32 path, guint32 *parent, guint32 *method,
                                  guint32 *frame_kinds)
{
  g_return_if_fail (path < self->n_paths);
  *parent = GUINT32_FROM_LE (self->paths[path].parent);
  *method = GUINT32_FROM_LE (self->paths[path].method);
  if (frame_kinds != NULL)
    *frame_kinds = GUINT32_FROM_LE (self->paths[path].frame_kinds);
}

void
jvms_samples_store_get_thread (JvmsSamplesStore *self, guint32 thread, gint64 *tid, const char **name)
{
  g_return_if_fail (thread < self->n_threads);
  if (tid != NULL)
    *tid = GINT64_FROM_LE (self->threads[thread].tid);
  if (name != NULL)
    *name = jvms_samples_store_get_string (self, GUINT32_FROM_LE (self->threads[thread].name));
}

void
jvms_samples_store_get_type (JvmsSamplesStore *self, guint32 type, const char **name,
                             JvmsSampleUnit *unit, JvmsSampleTypeFlags *flags, guint64 *n_samples,
                             guint64 *weight)
{
  g_return_if_fail (type < self->n_types);
  const JvmsSamplesType *t = &self->types[type];
  if (name != NULL)
    *name = jvms_samples_store_get_string (self, GUINT32_FROM_LE (t->name));
  if (unit != NULL)
    *unit = (JvmsSampleUnit) GUINT32_FROM_LE (t->unit);
  if (flags != NULL)
    *flags = (JvmsSampleTypeFlags) GUINT32_FROM_LE (t->flags);
  if (n_samples != NULL)
    *n_samples = GUINT64_FROM_LE (t->n_samples);
  if (weight != NULL)
    *weight = GUINT64_FROM_LE (t->weight);
}

guint32
jvms_samples_store_find_type (JvmsSamplesStore *self, const char *name)
{
  for (guint i = 0; i < self->n_types; i++)
    if (g_strcmp0 (jvms_samples_store_get_string (self, GUINT32_FROM_LE (self->types[i].name)), name) == 0)
      return i;
  return JVMS_SAMPLES_NONE;
}

void
jvms_samples_store_get_block_span (JvmsSamplesStore *self, guint block, gint64 *first_time,
                                   gint64 *last_time, guint *n_samples)
{
  g_return_if_fail (block < self->n_blocks);
  const JvmsSamplesBlock *b = &self->blocks[block];
  if (first_time != NULL)
    *first_time = GINT64_FROM_LE (b->first_time);
  if (last_time != NULL)
    *last_time = GINT64_FROM_LE (b->last_time);
  if (n_samples != NULL)
    *n_samples = GUINT32_FROM_LE (b->n_samples);
}

guint
jvms_samples_store_get_n_nodes (JvmsSamplesStore *self, guint level)
{
  return level >= 1 && level <= self->n_levels ? self->n_nodes[level] : 0;
}

gboolean
jvms_samples_store_has_node (JvmsSamplesStore *self, guint level, guint node)
{
  if (level < 1 || level > self->n_levels || node >= self->n_nodes[level])
    return FALSE;
  const JvmsSamplesNode *nd = &self->nodes[level][node];
  return nd->offset != 0 || nd->compressed_size != 0 || nd->raw_size != 0;
}

const JvmsSamplesCompilation *
jvms_samples_store_get_compilations (JvmsSamplesStore *self, guint *n)
{
  *n = self->n_compilations;
  return self->compilations;
}

const JvmsSamplesTiming *
jvms_samples_store_get_timings (JvmsSamplesStore *self, guint *n)
{
  *n = self->n_timings;
  return self->timings;
}

/* ---- payloads ------------------------------------------------------------------------------- */

/* Decompression goes to a buffer of the calling thread, kept from call to call: a query reads
 * a few payloads of up to a few MB, and fresh pages cost more to fault in than to decompress. */
static void
scratch_free (gpointer p)
{
  g_byte_array_unref (p);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static const guint8 *
inflate (JvmsSamplesStore *self, guint64 offset, guint32 compressed, guint32 raw, GError **error)
{
  /* Stored raw (every block; a node lz4 did not shrink): read in place. Opening checked that
   * compressed bytes from the offset lie inside the file. */
  if (compressed == raw)
    return self->data + offset;
  GByteArray *buf = g_private_get (&scratch_key);
  if (buf == NULL)
    {
      buf = g_byte_array_new ();
      g_private_set (&scratch_key, buf);
    }
  g_byte_array_set_size (buf, MAX (raw, 1));
  if (compressed > G_MAXINT || raw > G_MAXINT)
    {
      bad (error, self->path, offset, "a payload is too large");
      return NULL;
    }
  int n = LZ4_decompress_safe ((const char *) self->data + offset, (char *) buf->data, (int) compressed,
                               (int) raw);
  if (n < 0 || (guint32) n != raw)
    {
      bad (error, self->path, offset, "a payload does not decompress to its declared size");
      return NULL;
    }
  return buf->data;
}

gboolean
jvms_samples_store_read_block (JvmsSamplesStore *self, guint block, GArray *out, GError **error)
{
  g_return_val_if_fail (block < self->n_blocks, FALSE);
  g_array_set_size (out, 0);
  const JvmsSamplesBlock *b = &self->blocks[block];
  guint64 offset = GUINT64_FROM_LE (b->offset);
  guint32 raw = GUINT32_FROM_LE (b->raw_size);
  const guint8 *p = inflate (self, offset, GUINT32_FROM_LE (b->compressed_size), raw, error);
  if (p == NULL)
    return FALSE;
  const guint8 *end = p + raw;
  guint n = GUINT32_FROM_LE (b->n_samples);
  gint64 time = GINT64_FROM_LE (b->first_time), last = GINT64_FROM_LE (b->last_time);
  for (guint i = 0; i < n; i++)
    {
      JvmsSampleRecord r = { 0 };
      guint64 delta, type, thread, stack = JVMS_SAMPLES_NONE, weight, detail = JVMS_SAMPLES_NONE;
      if (!jvms_samples_get_varint (&p, end, &delta) || p >= end)
        return bad (error, self->path, offset, "a block's sample is cut short");
      guint8 head = *p++;
      if ((head & ~(JVMS_SAMPLE_HEAD_STATE_MASK | JVMS_SAMPLE_HEAD_STACK | JVMS_SAMPLE_HEAD_DETAIL
                    | JVMS_SAMPLE_HEAD_OLD_OBJECT)) != 0
          || (head & JVMS_SAMPLE_HEAD_STATE_MASK) >= JVMS_CPU_STATE_N)
        return bad (error, self->path, offset, "a block's sample has an unknown head");
      if (!jvms_samples_get_varint (&p, end, &type) || !jvms_samples_get_varint (&p, end, &thread)
          || ((head & JVMS_SAMPLE_HEAD_STACK) && !jvms_samples_get_varint (&p, end, &stack))
          || !jvms_samples_get_varint (&p, end, &weight)
          || ((head & JVMS_SAMPLE_HEAD_DETAIL) && !jvms_samples_get_varint (&p, end, &detail)))
        return bad (error, self->path, offset, "a block's sample is cut short");
      if (type >= self->n_types || thread >= self->n_threads
          || ((head & JVMS_SAMPLE_HEAD_STACK) && stack >= self->n_stacks)
          || ((head & JVMS_SAMPLE_HEAD_DETAIL) && detail >= self->n_strings))
        return bad (error, self->path, offset, "a block's sample names an undefined type, thread, stack or string");
      if (delta > (guint64) last - (guint64) time)
        return bad (error, self->path, offset, "a block's sample lies after the block's last time");
      time += (gint64) delta;
      r.time = time;
      r.type = (guint32) type;
      r.thread = (guint32) thread;
      r.stack = (guint32) stack;
      r.weight = weight;
      r.detail = (guint32) detail;
      r.state = (JvmsCpuState) (head & JVMS_SAMPLE_HEAD_STATE_MASK);
      if (head & JVMS_SAMPLE_HEAD_OLD_OBJECT)
        {
          guint64 at, age;
          if (!jvms_samples_get_varint (&p, end, &at) || !jvms_samples_get_varint (&p, end, &age))
            return bad (error, self->path, offset, "a block's old-object sample is cut short");
          r.old_object = TRUE;
          /* Wrapping arithmetic: any value is a time, none is trusted for anything else. */
          r.allocation_time = (gint64) ((guint64) time + (guint64) jvms_samples_unzigzag (at));
          r.object_age = age;
        }
      g_array_append_val (out, r);
    }
  if (p != end)
    return bad (error, self->path, offset, "a block holds bytes after its samples");
  return TRUE;
}

gboolean
jvms_samples_store_read_node (JvmsSamplesStore *self, guint level, guint node, JvmsSamplesSectionFunc want,
                              JvmsSamplesEntryFunc entry, gpointer user_data, GError **error)
{
  g_return_val_if_fail (jvms_samples_store_has_node (self, level, node), FALSE);
  const JvmsSamplesNode *nd = &self->nodes[level][node];
  guint64 offset = GUINT64_FROM_LE (nd->offset);
  guint32 raw = GUINT32_FROM_LE (nd->raw_size);
  const guint8 *p = inflate (self, offset, GUINT32_FROM_LE (nd->compressed_size), raw, error);
  if (p == NULL)
    return FALSE;
  const guint8 *end = p + raw;
  guint64 n_sections;
  if (!jvms_samples_get_varint (&p, end, &n_sections) || n_sections > (guint64) (end - p) / 4)
    return bad (error, self->path, offset, "a node's section count is larger than the node");
  /* Headers, then entries: the entries start where the headers end. */
  const guint8 *headers = p;
  for (guint64 s = 0; s < n_sections; s++)
    {
      guint64 v;
      for (int k = 0; k < 4; k++)
        if (!jvms_samples_get_varint (&p, end, &v))
          return bad (error, self->path, offset, "a node's section headers are cut short");
    }
  const guint8 *entries = p;
  p = headers;
  /* The type whose threads' sections came last and whose all-threads section is still due. */
  guint64 due = G_MAXUINT64;
  gboolean with_all = level >= JVMS_SAMPLES_ALL_THREADS_LEVEL;
  for (guint64 s = 0; s < n_sections; s++)
    {
      guint64 type = 0, thread = 0, n_entries = 0, bytes = 0;
      jvms_samples_get_varint (&p, end, &type);
      jvms_samples_get_varint (&p, end, &thread);
      jvms_samples_get_varint (&p, end, &n_entries);
      jvms_samples_get_varint (&p, end, &bytes);
      if (type >= self->n_types || (thread >= self->n_threads && thread != JVMS_SAMPLES_NONE))
        return bad (error, self->path, offset, "a node's section names an undefined type or thread");
      if (thread == JVMS_SAMPLES_NONE ? !with_all || due != type
                                      : with_all && due != G_MAXUINT64 && due != type)
        return bad (error, self->path, offset, "a node's all-threads section is missing or out of place");
      due = thread == JVMS_SAMPLES_NONE ? G_MAXUINT64 : type;
      if (bytes > (guint64) (end - entries) || n_entries > bytes)
        return bad (error, self->path, offset, "a node's section is larger than the node");
      const guint8 *q = entries, *q_end = entries + bytes;
      entries = q_end;
      if (want != NULL && !want ((guint32) type, (guint32) thread, user_data))
        continue;
      gboolean cpu = (GUINT32_FROM_LE (self->types[type].flags) & JVMS_SAMPLE_TYPE_CPU) != 0;
      guint64 key = 0;
      for (guint64 e = 0; e < n_entries; e++)
        {
          guint64 delta, count, weight, on_cpu = 0, waiting = 0;
          if (!jvms_samples_get_varint (&q, q_end, &delta) || !jvms_samples_get_varint (&q, q_end, &count)
              || !jvms_samples_get_varint (&q, q_end, &weight)
              || (cpu && (!jvms_samples_get_varint (&q, q_end, &on_cpu) || !jvms_samples_get_varint (&q, q_end, &waiting))))
            return bad (error, self->path, offset, "a node's entry is cut short");
          if ((e > 0 && delta == 0) || delta > (guint64) self->n_stacks - key)
            return bad (error, self->path, offset, "a node's entries name stacks out of order or undefined");
          key += delta;
          if (on_cpu > count || waiting > count - on_cpu)
            return bad (error, self->path, offset, "a node's entry has more states than samples");
          JvmsSamplesEntry en = { key == 0 ? JVMS_SAMPLES_NONE : (guint32) (key - 1), count, weight, on_cpu, waiting };
          entry ((guint32) type, (guint32) thread, &en, user_data);
        }
      if (q != q_end)
        return bad (error, self->path, offset, "a node's section holds bytes after its entries");
    }
  if (with_all && due != G_MAXUINT64)
    return bad (error, self->path, offset, "a node's all-threads section is missing or out of place");
  if (entries != end)
    return bad (error, self->path, offset, "a node holds bytes after its sections");
  return TRUE;
}

/* ------------------------------------------------------------------------------------------ */
/* The older per-sample form */

struct _JvmsSamplesReader
{
  JvmsSamplesStore *store;
  GArray           *records;     /* JvmsSampleRecord of the current block */
  guint             block;
  guint             pos;
  JvmsSampleKind   *kinds;       /* per store type, by its name: both types of a name alike */
  JvmsSampleFrame   frames[JVMS_SAMPLES_MAX_FRAMES];
};

JvmsSamplesReader *
jvms_samples_reader_open (const char *path, GError **error)
{
  JvmsSamplesStore *store = jvms_samples_store_open (path, error);
  if (store == NULL)
    return NULL;
  JvmsSamplesReader *self = g_new0 (JvmsSamplesReader, 1);
  self->store = store;
  self->records = g_array_new (FALSE, FALSE, sizeof (JvmsSampleRecord));
  static const struct { const char *name; JvmsSampleKind kind; } named[] = {
    { "jdk.ExecutionSample", JVMS_SAMPLE_EXECUTION }, { "jdk.NativeMethodSample", JVMS_SAMPLE_NATIVE },
    { "jdk.ObjectAllocationSample", JVMS_SAMPLE_ALLOCATION }, { "jdk.OldObjectSample", JVMS_SAMPLE_OLD_OBJECT },
  };
  self->kinds = g_new (JvmsSampleKind, MAX (store->n_types, 1));
  for (guint t = 0; t < store->n_types; t++)
    {
      const char *name = jvms_samples_store_get_string (store, GUINT32_FROM_LE (store->types[t].name));
      self->kinds[t] = JVMS_SAMPLE_OTHER;
      for (guint i = 0; i < G_N_ELEMENTS (named); i++)
        if (g_strcmp0 (name, named[i].name) == 0)
          self->kinds[t] = named[i].kind;
    }
  return self;
}

void
jvms_samples_reader_free (JvmsSamplesReader *self)
{
  if (self == NULL)
    return;
  jvms_samples_store_unref (self->store);
  g_array_unref (self->records);
  g_free (self->kinds);
  g_free (self);
}

gboolean
jvms_samples_reader_next (JvmsSamplesReader *self, JvmsSample *out, GError **error)
{
  while (self->pos >= self->records->len)
    {
      if (self->block >= self->store->n_blocks)
        return FALSE;
      if (!jvms_samples_store_read_block (self->store, self->block, self->records, error))
        {
          self->block = self->store->n_blocks;
          g_array_set_size (self->records, 0);
          return FALSE;
        }
      self->block++;
      self->pos = 0;
    }
  const JvmsSampleRecord *r = &g_array_index (self->records, JvmsSampleRecord, self->pos++);
  memset (out, 0, sizeof *out);
  out->kind = self->kinds[r->type];
  out->time = r->time;
  jvms_samples_store_get_thread (self->store, r->thread, &out->tid, NULL);
  const char *detail = jvms_samples_store_get_string (self->store, r->detail);
  if (out->kind == JVMS_SAMPLE_EXECUTION || out->kind == JVMS_SAMPLE_NATIVE)
    out->state = detail;
  else
    out->class_name = detail;
  out->weight = r->weight;
  out->allocation_time = r->allocation_time;
  out->object_age = r->object_age;
  out->type_name = jvms_samples_store_get_string (self->store, GUINT32_FROM_LE (self->store->types[r->type].name));
  out->cpu_state = r->state;
  guint n = 0;
  for (guint32 s = r->stack; s != JVMS_SAMPLES_NONE && n < JVMS_SAMPLES_MAX_FRAMES;
       s = GUINT32_FROM_LE (self->store->stacks[s].parent))
    {
      const JvmsSamplesFrame *f = &self->store->frames[GUINT32_FROM_LE (self->store->stacks[s].frame)];
      self->frames[n].method = self->store->method_names[GUINT32_FROM_LE (f->method)];
      self->frames[n].line = GINT32_FROM_LE (f->line);
      n++;
    }
  out->n_frames = n;
  out->frames = self->frames;
  return TRUE;
}
