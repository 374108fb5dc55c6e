/* jvms-samples.c: the sample store's writer: interning of strings, methods, frames, stacks,
 * threads and types; blocks of samples; the sums of runs of blocks at each level. */
#include "jvms-samples.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <lz4.h>
#include <stdio.h>
#include <string.h>

#include "jvms-samples-private.h"

/* ------------------------------------------------------------------------------------------ */

/* Blocks whose samples the writer keeps: a node of level 2 is summed from their samples at once
 * (see flush_block()). */
#define RUN_BLOCKS 4u

typedef struct
{
  guint32 stack;
  guint32 n;                    /* its frames */
  guint64 offset;               /* where they are in leaf_frames */
} Leaf;

/* The children of stacks (or of call paths) by (parent, frame) (or (parent path, method)). Each
 * parent keeps, in arrays by its id + 1 (0 for NONE), its first child and the child found or
 * made last, as key << 32 | child + 1 (0: none); only its other children are in a map. A stack
 * is mostly interned under the stack interned just before it (a new stack's callers are walked
 * down), whose last child it is: on the bench's 71 MB recording 88 % of the stacks found in the
 * stack map were; and a new stack is mostly the first child of a stack new just before it. Each
 * probe of a map holding every stack (tens of MB, at random) was a cache miss: 91 % of
 * interning's time there (docs/benchmarks.md, issue 18, eighth pass). The entries of stacks made
 * together lie together. */
typedef struct
{
  GArray           *last, *first;   /* guint64 */
  guint             last_room, first_room;
  JvmsSamplesIdMap  others;         /* (parent, key) -> child */
} Children;

static void children_init (Children *c);
static void children_clear (Children *c);

/* A sample of the open run, as the writer keeps it until its block is encoded and its run
 * summed: half a JvmsSampleRecord (64 bytes), so that the run of 16,384 samples takes 512 KiB
 * of the caches where it took 1 MiB. The rare old-object samples keep their two times in
 * open_old, in order. */
typedef struct
{
  gint64  time;
  guint64 weight;
  guint32 thread;
  guint32 stack;
  guint32 detail;
  guint32 packed;   /* type << RUN_TYPE_SHIFT | state << 1 | old object */
} RunRecord;
G_STATIC_ASSERT (sizeof (RunRecord) == 32);

#define RUN_TYPE_SHIFT 8
#define RUN_MAX_TYPES  (1u << (32 - RUN_TYPE_SHIFT))
G_STATIC_ASSERT (JVMS_CPU_STATE_N <= 1u << (RUN_TYPE_SHIFT - 1));

static inline guint32 run_type (const RunRecord *r) { return r->packed >> RUN_TYPE_SHIFT; }
static inline guint run_state (const RunRecord *r) { return (r->packed & ((1u << RUN_TYPE_SHIFT) - 1)) >> 1; }
static inline gboolean run_old (const RunRecord *r) { return r->packed & 1; }

typedef struct
{
  gint64  allocation_time;
  guint64 object_age;
} RunOld;

struct _JvmsSamplesWriter
{
  char         *path;
  char         *tmp_path;
  FILE         *file;
  guint64       pos;            /* bytes written so far */
  gboolean      failed;
  char         *fail_reason;    /* what failed first, for close's error (NULL: not known) */
  guint32       max_types;      /* RUN_MAX_TYPES; lower in tests */
  gboolean      closed;
  gboolean      kernel_states;

  GHashTable   *string_ids;     /* char* (in chunk) -> id + 1 */
  GStringChunk *chunk;
  GPtrArray    *strings;        /* const char*, into chunk */
  guint64       string_bytes;
  GArray       *methods;        /* JvmsSamplesMethod */
  GArray       *frames;         /* JvmsSamplesFrame */
  GArray       *stacks;         /* JvmsSamplesStack */
  GArray       *stack_paths;    /* guint32 (LE): the path of each stack */
  GArray       *paths;          /* JvmsSamplesPath */
  Children      stack_children, path_children;
  guint         stacks_room, stack_paths_room, paths_room;  /* array_push() */
  GArray       *threads;        /* JvmsSamplesThread */
  GArray       *types;          /* JvmsSamplesType */
  JvmsSamplesIdMap         method_map, frame_map, thread_map, type_map;
  /* Stacks interned by their frames: (hash of the frames, depth) -> a leaf, whose frames are
   * kept in leaf_frames, so that a stack seen before is found by one probe and a comparison of
   * contiguous memory, exactly, without walking its parents through the stack table. */
  JvmsSamplesIdMap         leaf_map;
  GArray       *leaves;         /* Leaf */
  GArray       *leaf_frames;    /* guint32: each leaf's frames, outermost first */
  /* The frames (outermost first) of the last stack interned by its frames, and that stack: a
   * new stack shares most of its callers with the one before it (deep stacks of one program
   * differ near their top), and the stack of those callers is found by walking up from it. */
  GArray       *last_frames;    /* guint32 */
  guint32       last_stack;
  guint32       last_leaf;      /* the leaf found or made last (G_MAXUINT32: none) */
  guint32       truncated_frame, unknown_frame;
  GArray       *compilations;   /* JvmsSamplesCompilation */
  GArray       *timings;        /* JvmsSamplesTiming */

  GArray       *open_block;     /* RunRecord of the run of RUN_BLOCKS blocks being filled */
  guint         block_start;    /* where in it the block being filled starts */
  GArray       *open_old;       /* RunOld of the run's old-object samples, in order */
  guint         old_start;      /* the first of them in the block being filled */
  GArray       *blocks;         /* JvmsSamplesBlock */
  GArray       *levels[JVMS_SAMPLES_MAX_LEVELS + 1];  /* JvmsSamplesNode, [1..] */
  GArray       *pending[JVMS_SAMPLES_MAX_LEVELS + 1]; /* JvmsSamplesSum: a left node waiting
                                                       * for its right sibling */
  GByteArray   *enc, *section, *lz;
  gint64        first_time, last_time;
  guint64       count;
  guint64       n_moved;        /* samples moved up to keep time order */
};

/* The store cannot be written; @reason (taken) says why, the first one kept for close's error. */
static void
writer_fail (JvmsSamplesWriter *self, char *reason)
{
  self->failed = TRUE;
  if (self->fail_reason == NULL)
    self->fail_reason = reason;
  else
    g_free (reason);
}

static void
write_bytes (JvmsSamplesWriter *self, const void *data, gsize n)
{
  if (n == 0)
    return;
  if (!self->failed && fwrite (data, 1, n, self->file) != n)
    writer_fail (self, g_strdup_printf ("writing at byte %" G_GUINT64_FORMAT ": %s", self->pos, g_strerror (errno)));
  self->pos += n;
}

static void
pad_to_8 (JvmsSamplesWriter *self)
{
  static const guint8 zeros[8] = { 0 };
  if (self->pos % 8 != 0)
    write_bytes (self, zeros, 8 - self->pos % 8);
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
  self->max_types = RUN_MAX_TYPES;
  self->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->chunk = g_string_chunk_new (1 << 16);
  self->strings = g_ptr_array_new ();
  self->methods = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesMethod));
  self->frames = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesFrame));
  self->stacks = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesStack));
  self->stack_paths = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->paths = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesPath));
  children_init (&self->stack_children);
  children_init (&self->path_children);
  self->threads = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesThread));
  self->types = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesType));
  jvms_samples_idmap_init (&self->method_map);
  jvms_samples_idmap_init (&self->frame_map);
  jvms_samples_idmap_init (&self->thread_map);
  jvms_samples_idmap_init (&self->type_map);
  jvms_samples_idmap_init (&self->leaf_map);
  self->leaves = g_array_new (FALSE, FALSE, sizeof (Leaf));
  self->leaf_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->last_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->last_stack = JVMS_SAMPLES_NONE;
  self->last_leaf = G_MAXUINT32;
  self->truncated_frame = JVMS_SAMPLES_NONE;
  self->unknown_frame = JVMS_SAMPLES_NONE;
  self->compilations = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesCompilation));
  self->timings = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesTiming));
  self->open_block = g_array_sized_new (FALSE, FALSE, sizeof (RunRecord), RUN_BLOCKS * JVMS_SAMPLES_BLOCK_SAMPLES);
  /* Sized: its data is never NULL, the start of a block's old objects always an address. */
  self->open_old = g_array_sized_new (FALSE, FALSE, sizeof (RunOld), 64);
  self->blocks = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesBlock));
  self->enc = g_byte_array_new ();
  self->section = g_byte_array_new ();
  self->lz = g_byte_array_new ();
  self->first_time = G_MAXINT64;
  self->last_time = G_MININT64;
  /* The header is written last, at close. */
  JvmsSamplesHeader zero = { { 0 } };
  write_bytes (self, &zero, sizeof zero);
  return self;
}

void
jvms_samples_writer_set_kernel_states (JvmsSamplesWriter *self, gboolean kernel_states)
{
  self->kernel_states = kernel_states;
}

/* ---- interning ------------------------------------------------------------------------------ */

/* Where a new element at the end of @a goes, *@room the elements @a has room for past its end
 * (GArray does not say): a library call only when it grows, where g_array_append_val() made
 * two an element (a stack new to the store appends three). Elements of @a are added only
 * here. */
static inline gpointer
array_push (GArray *a, guint *room, gsize element_size)
{
  if (G_UNLIKELY (*room == 0))
    {
      guint len = a->len;
      g_array_set_size (a, len + len / 2 + 256);
      *room = a->len - len;
      a->len = len;
    }
  (*room)--;
  return a->data + (gsize) a->len++ * element_size;
}

#define CHILD_KEY G_GUINT64_CONSTANT (0xFFFFFFFF00000000)

static void
children_init (Children *c)
{
  c->last = g_array_new (FALSE, TRUE, sizeof (guint64));
  c->first = g_array_new (FALSE, TRUE, sizeof (guint64));
  g_array_set_size (c->last, 1);    /* NONE's, zeroed */
  g_array_set_size (c->first, 1);
  c->last_room = c->first_room = 0;
  jvms_samples_idmap_init (&c->others);
}

static void
children_clear (Children *c)
{
  g_array_unref (c->last);
  g_array_unref (c->first);
  jvms_samples_idmap_clear (&c->others);
}

/* @parent's child under @key, or NONE with *@slot where children_add() puts it (NULL when
 * @parent has no child yet). */
G_ALWAYS_INLINE static inline guint32
children_find (Children *c, guint32 parent, guint32 key, JvmsSamplesIdSlot **slot)
{
  guint32 i = parent + 1;
  guint64 want = (guint64) key << 32;
  guint64 *last = &g_array_index (c->last, guint64, i);
  if (*last != 0 && (*last & CHILD_KEY) == want)
    return (guint32) *last - 1;
  guint64 first = g_array_index (c->first, guint64, i);
  *slot = NULL;
  if (first == 0)
    return JVMS_SAMPLES_NONE;
  guint32 child = (first & CHILD_KEY) == want ? (guint32) first - 1
                                              : jvms_samples_idmap_lookup (&c->others, parent, key, slot);
  if (child != JVMS_SAMPLES_NONE)
    *last = want | (child + 1);
  return child;
}

/* @child, the next id, is @parent's child under @key (children_find() said NONE, and @slot) */
static inline void
children_add (Children *c, guint32 parent, guint32 key, guint32 child, JvmsSamplesIdSlot *slot)
{
  guint32 i = parent + 1;
  guint64 v = (guint64) key << 32 | (child + 1);
  g_array_index (c->last, guint64, i) = v;
  if (slot == NULL)
    g_array_index (c->first, guint64, i) = v;
  else
    jvms_samples_idmap_set (&c->others, slot, parent, key, child);
  *(guint64 *) array_push (c->last, &c->last_room, sizeof (guint64)) = 0;
  *(guint64 *) array_push (c->first, &c->first_room, sizeof (guint64)) = 0;
}

guint32
jvms_samples_writer_intern_string (JvmsSamplesWriter *self, const char *s)
{
  if (s == NULL)
    return JVMS_SAMPLES_NONE;
  gpointer found = g_hash_table_lookup (self->string_ids, s);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  const char *copy = g_string_chunk_insert (self->chunk, s);
  guint32 id = self->strings->len;
  g_ptr_array_add (self->strings, (gpointer) copy);
  g_hash_table_insert (self->string_ids, (gpointer) copy, GUINT_TO_POINTER (id + 1));
  self->string_bytes += strlen (copy) + 1;
  return id;
}

guint32
jvms_samples_writer_intern_method (JvmsSamplesWriter *self, const char *class_name, const char *name)
{
  guint32 c = jvms_samples_writer_intern_string (self, class_name);
  guint32 n = jvms_samples_writer_intern_string (self, name != NULL ? name : "[unknown]");
  JvmsSamplesIdSlot *slot;
  guint32 id = jvms_samples_idmap_lookup (&self->method_map, c, n, &slot);
  if (id != JVMS_SAMPLES_NONE)
    return id;
  id = self->methods->len;
  JvmsSamplesMethod m = { GUINT32_TO_LE (c), GUINT32_TO_LE (n) };
  g_array_append_val (self->methods, m);
  jvms_samples_idmap_set (&self->method_map, slot, c, n, id);
  return id;
}

guint32
jvms_samples_writer_intern_frame (JvmsSamplesWriter *self, guint32 method, gint32 line,
                                  JvmsFrameKind kind)
{
  g_return_val_if_fail (method < self->methods->len, JVMS_SAMPLES_NONE);
  guint64 a = (guint64) method << 8 | (guint64) (kind & 0xff);
  guint64 b = (guint32) line;
  JvmsSamplesIdSlot *slot;
  guint32 id = jvms_samples_idmap_lookup (&self->frame_map, a, b, &slot);
  if (id != JVMS_SAMPLES_NONE)
    return id;
  id = self->frames->len;
  JvmsSamplesFrame f = { GUINT32_TO_LE (method), GINT32_TO_LE (line), GUINT32_TO_LE ((guint32) kind) };
  g_array_append_val (self->frames, f);
  jvms_samples_idmap_set (&self->frame_map, slot, a, b, id);
  return id;
}

guint32
jvms_samples_writer_intern_stack (JvmsSamplesWriter *self, guint32 parent, guint32 frame)
{
  g_return_val_if_fail (frame < self->frames->len, JVMS_SAMPLES_NONE);
  g_return_val_if_fail (parent == JVMS_SAMPLES_NONE || parent < self->stacks->len, JVMS_SAMPLES_NONE);
  JvmsSamplesIdSlot *slot = NULL;
  guint32 id = children_find (&self->stack_children, parent, frame, &slot);
  if (id != JVMS_SAMPLES_NONE)
    return id;
  id = self->stacks->len;
  children_add (&self->stack_children, parent, frame, id, slot);
  *(JvmsSamplesStack *) array_push (self->stacks, &self->stacks_room, sizeof (JvmsSamplesStack)) = (JvmsSamplesStack) { GUINT32_TO_LE (parent), GUINT32_TO_LE (frame) };
  /* Its path: the parent's, extended by the frame's method (lines and kinds merged). */
  guint32 parent_path = parent == JVMS_SAMPLES_NONE ? JVMS_SAMPLES_NONE
                                                    : GUINT32_FROM_LE (g_array_index (self->stack_paths, guint32, parent));
  const JvmsSamplesFrame *f = &g_array_index (self->frames, JvmsSamplesFrame, frame);
  guint32 method = GUINT32_FROM_LE (f->method);
  JvmsSamplesIdSlot *path_slot = NULL;
  guint32 path = children_find (&self->path_children, parent_path, method, &path_slot);
  if (path == JVMS_SAMPLES_NONE)
    {
      path = self->paths->len;
      children_add (&self->path_children, parent_path, method, path, path_slot);
      *(JvmsSamplesPath *) array_push (self->paths, &self->paths_room, sizeof (JvmsSamplesPath)) = (JvmsSamplesPath) { GUINT32_TO_LE (parent_path), GUINT32_TO_LE (method), 0 };
    }
  JvmsSamplesPath *p = &g_array_index (self->paths, JvmsSamplesPath, path);
  p->frame_kinds = GUINT32_TO_LE (GUINT32_FROM_LE (p->frame_kinds) | 1u << GUINT32_FROM_LE (f->kind));
  *(guint32 *) array_push (self->stack_paths, &self->stack_paths_room, sizeof (guint32)) = GUINT32_TO_LE (path);
  return id;
}

guint32
jvms_samples_writer_intern_thread (JvmsSamplesWriter *self, gint64 tid, const char *name)
{
  JvmsSamplesIdSlot *slot;
  guint32 id = jvms_samples_idmap_lookup (&self->thread_map, (guint64) tid, 0, &slot);
  if (id != JVMS_SAMPLES_NONE)
    {
      JvmsSamplesThread *t = &g_array_index (self->threads, JvmsSamplesThread, id);
      if (t->name == GUINT32_TO_LE (JVMS_SAMPLES_NONE) && name != NULL)
        t->name = GUINT32_TO_LE (jvms_samples_writer_intern_string (self, name));
      return id;
    }
  id = self->threads->len;
  JvmsSamplesThread t = { GINT64_TO_LE (tid), GUINT32_TO_LE (jvms_samples_writer_intern_string (self, name)), 0 };
  g_array_append_val (self->threads, t);
  jvms_samples_idmap_set (&self->thread_map, slot, (guint64) tid, 0, id);
  return id;
}

guint32
jvms_samples_writer_intern_type (JvmsSamplesWriter *self, const char *name, JvmsSampleUnit unit,
                                 JvmsSampleTypeFlags flags)
{
  guint32 s = jvms_samples_writer_intern_string (self, name);
  /* By name and wall clock: one event type may carry both CPU and wall-clock samples. */
  guint64 wall = (flags & JVMS_SAMPLE_TYPE_WALL) != 0;
  JvmsSamplesIdSlot *slot;
  guint32 id = jvms_samples_idmap_lookup (&self->type_map, s, wall, &slot);
  if (id != JVMS_SAMPLES_NONE)
    return id;
  id = self->types->len;
  JvmsSamplesType t = { GUINT32_TO_LE (s), GUINT32_TO_LE ((guint32) unit), GUINT32_TO_LE ((guint32) flags), 0, 0, 0 };
  g_array_append_val (self->types, t);
  jvms_samples_idmap_set (&self->type_map, slot, s, wall, id);
  return id;
}

static guint32
pseudo_frame (JvmsSamplesWriter *self, guint32 *cache, const char *name)
{
  if (*cache == JVMS_SAMPLES_NONE)
    *cache = jvms_samples_writer_intern_frame (self, jvms_samples_writer_intern_method (self, NULL, name),
                                               -1, JVMS_FRAME_KIND_UNKNOWN);
  return *cache;
}

guint32
jvms_samples_writer_intern_pseudo_frame (JvmsSamplesWriter *self, const char *name)
{
  if (strcmp (name, "[truncated]") == 0)
    return pseudo_frame (self, &self->truncated_frame, name);
  return pseudo_frame (self, &self->unknown_frame, "[unknown]");
}

/* The stack of the first @k frames of the last stack interned by its frames (@k at most its
 * depth; NONE when @k is 0): its parents, walked up from it. */
static guint32
last_prefix_stack (JvmsSamplesWriter *self, guint k)
{
  const JvmsSamplesStack *stacks = (const JvmsSamplesStack *) self->stacks->data;
  guint32 stack = self->last_stack;
  for (guint i = self->last_frames->len; i > k; i--)
    stack = GUINT32_FROM_LE (stacks[stack].parent);
  return k == 0 ? JVMS_SAMPLES_NONE : stack;
}

static void
remember_last (JvmsSamplesWriter *self, const guint32 *frames, guint n, guint known, guint32 stack)
{
  g_array_set_size (self->last_frames, n);
  memcpy ((guint32 *) (gpointer) self->last_frames->data + known, frames + known, (n - known) * sizeof (guint32));
  self->last_stack = stack;
}

/* Whether leaf @id holds the stack of @frames (@n of them), frame for frame. */
static inline gboolean
leaf_holds (JvmsSamplesWriter *self, guint32 id, const guint32 *frames, guint n)
{
  const Leaf *leaf = &g_array_index (self->leaves, Leaf, id);
  return leaf->n == n
         && memcmp (&g_array_index (self->leaf_frames, guint32, leaf->offset), frames, n * sizeof (guint32)) == 0;
}

/* A stack new to a JFR chunk is mostly one the store has (each chunk defines its stacks again:
 * on the bench's 1 GB recording 823,102 of the 925,528 stacks new to their chunk). It is looked
 * up whole first, by the hash of its frames and compared with the frames kept for it: one probe
 * and a comparison of contiguous memory. Walking its parents to check it (a dependent load from
 * anywhere in the stack table per frame), or looking its last frames up one by one, was most of
 * interning's time there. Only a stack not found whole is interned frame by frame, from the
 * callers it shares with the last stack (found by walking up from that one). */
guint32
jvms_samples_writer_intern_frame_ids (JvmsSamplesWriter *self, const guint32 *frames, guint n)
{
  if (n == 0)
    return JVMS_SAMPLES_NONE;
  /* The callers it shares with the last stack interned. */
  guint known = 0, last_n = self->last_frames->len;
  const guint32 *lf = (const guint32 *) (gconstpointer) self->last_frames->data;
  while (known < n && known < last_n && lf[known] == frames[known])
    known++;
  if (known == n && n == last_n)
    return self->last_stack;
  /* The leaf after the one found last, compared first: a chunk defines its stacks again in about
   * the order an earlier one did (on the bench's 1 GB recording 61 % of the leaves found were
   * the one after the leaf found before), and the leaves and their frames lie in that order,
   * where each probe of the leaf map was a cache miss. Exact: a leaf's frames are its stack's. */
  guint32 hit = JVMS_SAMPLES_NONE, found = JVMS_SAMPLES_NONE;
  guint64 hash = 0;
  JvmsSamplesIdSlot *slot = NULL;
  guint32 next = self->last_leaf + 1;
  if (next < self->leaves->len && leaf_holds (self, next, frames, n))
    hit = next;
  else
    {
      for (guint i = 0; i < n; i++)
        hash = jvms_samples_idmap_hash (hash, frames[i]);
      found = jvms_samples_idmap_lookup (&self->leaf_map, hash, n, &slot);
      if (found != JVMS_SAMPLES_NONE && leaf_holds (self, found, frames, n))
        hit = found;
    }
  if (hit != JVMS_SAMPLES_NONE)
    {
      guint32 stack = g_array_index (self->leaves, Leaf, hit).stack;
      self->last_leaf = hit;
      remember_last (self, frames, n, known, stack);
      return stack;
    }
  guint32 stack = last_prefix_stack (self, known);
  for (guint i = known; i < n; i++)
    stack = jvms_samples_writer_intern_stack (self, stack, frames[i]);
  /* intern_stack() uses other maps: the slot is still this map's. A hash shared by two stacks
   * of one depth keeps the last one (the other is then interned frame by frame). */
  Leaf leaf = { stack, n, self->leaf_frames->len };
  g_array_append_vals (self->leaf_frames, frames, n);
  if (found == JVMS_SAMPLES_NONE)
    {
      self->last_leaf = self->leaves->len;
      jvms_samples_idmap_set (&self->leaf_map, slot, hash, n, self->leaves->len);
      g_array_append_val (self->leaves, leaf);
    }
  else
    {
      self->last_leaf = found;
      g_array_index (self->leaves, Leaf, found) = leaf;
    }
  remember_last (self, frames, n, known, stack);
  return stack;
}

guint32
jvms_samples_writer_intern_frames (JvmsSamplesWriter *self, const JvmsStackFrameIn *frames,
                                   guint n_frames, gboolean truncated)
{
  guint n = MIN (n_frames, JVMS_SAMPLES_MAX_DEPTH);
  g_autofree guint32 *ids = g_new (guint32, n + 1);
  guint k = 0;
  if (n == 0 && !truncated)
    ids[k++] = pseudo_frame (self, &self->unknown_frame, "[unknown]");
  if (truncated)
    ids[k++] = pseudo_frame (self, &self->truncated_frame, "[truncated]");
  /* Outermost first: the parent of each frame is the stack of the frames that called it. */
  for (guint i = n; i-- > 0;)
    {
      const JvmsStackFrameIn *f = &frames[i];
      if (f->class_name == NULL || f->method_name == NULL)
        ids[k++] = pseudo_frame (self, &self->unknown_frame, "[unknown]");
      else
        ids[k++] = jvms_samples_writer_intern_frame (self,
                                                     jvms_samples_writer_intern_method (self, f->class_name, f->method_name),
                                                     f->line, f->kind);
    }
  return jvms_samples_writer_intern_frame_ids (self, ids, k);
}

/* ---- blocks and nodes ----------------------------------------------------------------------- */

static gboolean
type_is_cpu (JvmsSamplesWriter *self, guint32 type)
{
  return (GUINT32_FROM_LE (g_array_index (self->types, JvmsSamplesType, type).flags) & JVMS_SAMPLE_TYPE_CPU) != 0;
}

/* LZ4's acceleration for nodes (LZ4_compress_default's is 1): on the bench's 71 MB recording
 * (45.5 MB of blocks and nodes before compression) 1 gave 30.8 MB in 79 ms of thread CPU time,
 * 2 31.7 MB in 71 ms, 4 32.8 MB in 56 ms, 8 35.7 MB in 39 ms; 4 keeps the store within 6 % of
 * its size. Readers decompress any of them alike. */
#define LZ4_ACCELERATION 4

/* Writes @raw, lz4-compressed when @compress and that makes it smaller, else as it is
 * (compressed size = raw size: what readers take for "stored raw"): its offset and sizes.
 * Blocks are stored raw: each sample's varints differ from the next one's, so lz4 found 17 % of
 * their bytes on the bench's recording for half of the store's lz4 time (docs/benchmarks.md,
 * issue 18, sixth and seventh passes); nodes, whose sums repeat stack ids and counts, shrink by
 * a third. */
static void
write_payload (JvmsSamplesWriter *self, GByteArray *raw, gboolean compress, guint64 *offset,
               guint32 *compressed, guint32 *raw_size)
{
  if (raw->len > JVMS_SAMPLES_MAX_PAYLOAD)
    {
      /* Cannot happen from blocks of 4096 samples; a node this large would be refused by
       * readers, so the store is marked failed rather than written unreadable. */
      writer_fail (self, g_strdup_printf ("a node of %u bytes, more than a store's %u", raw->len,
                                          (guint) JVMS_SAMPLES_MAX_PAYLOAD));
      *offset = 0;
      *compressed = *raw_size = 0;
      return;
    }
  int n = 0;
  if (compress)
    {
      int bound = LZ4_compressBound ((int) raw->len);
      g_byte_array_set_size (self->lz, (guint) bound);
      n = LZ4_compress_fast ((const char *) raw->data, (char *) self->lz->data, (int) raw->len, bound,
                             LZ4_ACCELERATION);
    }
  pad_to_8 (self);
  *offset = self->pos;
  *raw_size = raw->len;
  if (n > 0 && (guint) n < raw->len)
    {
      *compressed = (guint32) n;
      write_bytes (self, self->lz->data, (gsize) n);
    }
  else
    {
      *compressed = raw->len;
      write_bytes (self, raw->data, raw->len);
    }
}

static int
compare_sum (gconstpointer pa, gconstpointer pb)
{
  const JvmsSamplesSum *a = pa, *b = pb;
  if (a->type != b->type)
    return a->type < b->type ? -1 : 1;
  if (a->thread != b->thread)
    return a->thread < b->thread ? -1 : 1;
  guint32 sa = a->stack + 1, sb = b->stack + 1;   /* NONE (no stack) first */
  return (sa > sb) - (sa < sb);
}

static void
sum_add (JvmsSamplesSum *into, const JvmsSamplesSum *s)
{
  into->count += s->count;
  into->weight += s->weight;
  into->on_cpu += s->on_cpu;
  into->waiting += s->waiting;
}

/* Sorted sums of two disjoint runs of blocks, merged: the sums of their union. */
static GArray *
merge_sums (GArray *a, GArray *b)
{
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (JvmsSamplesSum), a->len + b->len);
  const JvmsSamplesSum *x = (const JvmsSamplesSum *) a->data, *x_end = x + a->len;
  const JvmsSamplesSum *y = (const JvmsSamplesSum *) b->data, *y_end = y + b->len;
  JvmsSamplesSum *o = (JvmsSamplesSum *) out->data;
  while (x < x_end && y < y_end)
    {
      int c = compare_sum (x, y);
      if (c < 0)
        *o++ = *x++;
      else if (c > 0)
        *o++ = *y++;
      else
        {
          *o = *x++;
          sum_add (o++, y++);
        }
    }
  while (x < x_end)
    *o++ = *x++;
  while (y < y_end)
    *o++ = *y++;
  out->len = (guint) (o - (JvmsSamplesSum *) out->data);
  return out;
}

/* Digits of radix_sort at most this wide: the counts of a pass (8 KB) stay in L1. */
#define RADIX_MAX_BITS 11
#define RADIX_MAX_PASSES 6   /* of 11 bits for 64: room for the counts of any digit width */

/* @keys (@n of them) sorted by their bits from @shift up, stably: LSD radix over the bits that
 * differ between keys only (from the lowest to the highest of them), in as few passes of at
 * most RADIX_MAX_BITS bits as they need, the counts of up to three passes taken in one read of
 * the keys. A block's keys (docs/benchmarks.md, issue 18, eighth pass) take 3 passes where bytes
 * took 4. Few keys are sorted by insertion. @tmp has room for @n; the result is in whichever of
 * the two is returned. */
static guint64 *
radix_sort (guint64 *keys, guint64 *tmp, guint n, guint shift)
{
  if (n < 2)
    return keys;
  if (n <= 32)
    {
      for (guint i = 1; i < n; i++)
        {
          guint64 k = keys[i];
          guint j = i;
          for (; j > 0 && (keys[j - 1] >> shift) > (k >> shift); j--)
            keys[j] = keys[j - 1];
          keys[j] = k;
        }
      return keys;
    }
  guint64 any = 0, all = G_MAXUINT64;
  for (guint i = 0; i < n; i++)
    {
      any |= keys[i];
      all &= keys[i];
    }
  guint64 differ = (any ^ all) >> shift;
  if (differ == 0)
    return keys;
  shift += (guint) __builtin_ctzll (differ);
  guint width = 64 - (guint) __builtin_clzll (differ) - (guint) __builtin_ctzll (differ);
  /* Counts of 2^bits cost about what n keys do: narrower digits for fewer keys. */
  guint max_bits = CLAMP ((guint) g_bit_storage (n) - 1, 4, RADIX_MAX_BITS);
  guint passes = (width + max_bits - 1) / max_bits;
  guint bits = (width + passes - 1) / passes;
  guint64 mask = (G_GUINT64_CONSTANT (1) << bits) - 1;
  gsize size = (gsize) 1 << bits;
  guint32 counts[RADIX_MAX_PASSES << RADIX_MAX_BITS];
  memset (counts, 0, passes * size * sizeof (guint32));
  guint32 *c0 = counts, *c1 = counts + size, *c2 = counts + 2 * size;
  if (passes == 1)
    for (guint i = 0; i < n; i++)
      c0[(keys[i] >> shift) & mask]++;
  else if (passes == 2)
    for (guint i = 0; i < n; i++)
      {
        guint64 k = keys[i] >> shift;
        c0[k & mask]++;
        c1[(k >> bits) & mask]++;
      }
  else
    for (guint i = 0; i < n; i++)
      {
        guint64 k = keys[i] >> shift;
        c0[k & mask]++;
        c1[(k >> bits) & mask]++;
        c2[(k >> 2 * bits) & mask]++;
      }
  for (guint p = 3; p < passes; p++)
    for (guint i = 0; i < n; i++)
      counts[p * size + ((keys[i] >> (shift + p * bits)) & mask)]++;
  for (guint p = 0; p < passes; p++)
    {
      guint32 *count = counts + p * size;
      guint32 sum = 0;
      for (gsize d = 0; d < size; d++)
        {
          guint32 c = count[d];
          count[d] = sum;
          sum += c;
        }
      guint s = shift + p * bits;
      for (guint i = 0; i < n; i++)
        tmp[count[(keys[i] >> s) & mask]++] = keys[i];
      guint64 *swap = keys;
      keys = tmp;
      tmp = swap;
    }
  return keys;
}

/* @sums (sorted, threads' sums only) with, after each type's sections, that type's sums over all
 * threads (thread NONE), sorted by stack: what a query of all threads reads instead of every
 * thread's section. Each type's sums are ordered by stack with an LSD radix sort of
 * (stack + 1, index) keys, then equal stacks added. */
static GArray *
add_all_threads (GArray *sums)
{
  const JvmsSamplesSum *in = (const JvmsSamplesSum *) (gconstpointer) sums->data;
  guint n = sums->len;
  /* At most one all-threads sum per sum: written in place, without a call per sum. */
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (JvmsSamplesSum), 2 * n + 1);
  JvmsSamplesSum *o = (JvmsSamplesSum *) (gpointer) out->data;
  g_autofree guint64 *keys = g_new (guint64, MAX (n, 1));
  g_autofree guint64 *tmp = g_new (guint64, MAX (n, 1));
  for (guint a = 0; a < n;)
    {
      guint b = a;
      while (b < n && in[b].type == in[a].type)
        b++;
      guint m = b - a;
      memcpy (o, in + a, m * sizeof *o);
      o += m;
      for (guint i = 0; i < m; i++)
        keys[i] = (guint64) (guint32) (in[a + i].stack + 1) << 32 | i;
      const guint64 *k = radix_sort (keys, tmp, m, 32);
      const JvmsSamplesSum *first = o;
      for (guint i = 0; i < m; i++)
        {
          const JvmsSamplesSum *s = &in[a + (guint32) k[i]];
          if (o > first && o[-1].stack == s->stack)
            sum_add (o - 1, s);
          else
            {
              *o = *s;
              o->thread = JVMS_SAMPLES_NONE;
              o++;
            }
        }
      a = b;
    }
  out->len = (guint) (o - (JvmsSamplesSum *) (gpointer) out->data);
  return out;
}

static void
encode_node (JvmsSamplesWriter *self, GArray *sums)
{
  GByteArray *enc = self->enc, *sec = self->section;
  g_byte_array_set_size (enc, 0);
  g_byte_array_set_size (sec, 0);
  guint n_sections = 0;
  for (guint i = 0; i < sums->len; i++)
    if (i == 0 || g_array_index (sums, JvmsSamplesSum, i).type != g_array_index (sums, JvmsSamplesSum, i - 1).type
        || g_array_index (sums, JvmsSamplesSum, i).thread != g_array_index (sums, JvmsSamplesSum, i - 1).thread)
      n_sections++;
  jvms_samples_put_varint (enc, n_sections);
  /* Section headers first (so that a reader can skip sections), then their entries. */
  for (guint i = 0; i < sums->len;)
    {
      const JvmsSamplesSum *first = &g_array_index (sums, JvmsSamplesSum, i);
      gboolean cpu = type_is_cpu (self, first->type);
      guint start = sec->len, j = i;
      guint32 previous = 0;
      const JvmsSamplesSum *all = (const JvmsSamplesSum *) (gconstpointer) sums->data;
      while (j < sums->len && all[j].type == first->type && all[j].thread == first->thread)
        j++;
      /* At most 5 varints an entry: room reserved once per 4096 entries (a call per entry was
       * half of encoding a node). */
      for (guint k = i; k < j;)
        {
          guint end = MIN (j, k + 4096);
          guint8 *p = jvms_samples_reserve (sec, (end - k) * 50);
          for (; k < end; k++)
            {
              const JvmsSamplesSum *s = &all[k];
              guint32 key = s->stack + 1;
              p = jvms_samples_varint_at (p, key - previous);
              previous = key;
              p = jvms_samples_varint_at (p, s->count);
              p = jvms_samples_varint_at (p, s->weight);
              if (cpu)
                {
                  p = jvms_samples_varint_at (p, s->on_cpu);
                  p = jvms_samples_varint_at (p, s->waiting);
                }
            }
          jvms_samples_commit (sec, p);
        }
      jvms_samples_put_varint (enc, first->type);
      jvms_samples_put_varint (enc, first->thread);
      jvms_samples_put_varint (enc, j - i);
      jvms_samples_put_varint (enc, sec->len - start);
      i = j;
    }
  g_byte_array_append (enc, sec->data, sec->len);
}

/* The entry of a node of @level whose sums are @sums (NULL: left out). A node that sums almost
 * nothing (more than 99 sums for 100 samples: stacks that rarely repeat) is left out too: its
 * two halves cost a query about as much, and writing it would store the samples once more. Its
 * sums still go up to its parent. Counted on the threads' sums: the all-threads ones repeat
 * them. */
static void
add_node (JvmsSamplesWriter *self, guint level, GArray *sums)
{
  JvmsSamplesNode node = { 0 };
  guint64 samples = 0, n_sums = 0;
  for (guint i = 0; sums != NULL && i < sums->len; i++)
    {
      const JvmsSamplesSum *s = &g_array_index (sums, JvmsSamplesSum, i);
      if (s->thread != JVMS_SAMPLES_NONE)
        {
          samples += s->count;
          n_sums++;
        }
    }
  if (sums != NULL && n_sums * 100 <= samples * 99)
    {
      encode_node (self, sums);
      guint64 offset;
      guint32 compressed, raw;
      write_payload (self, self->enc, TRUE, &offset, &compressed, &raw);
      node.offset = GUINT64_TO_LE (offset);
      node.compressed_size = GUINT32_TO_LE (compressed);
      node.raw_size = GUINT32_TO_LE (raw);
    }
  if (self->levels[level] == NULL)
    self->levels[level] = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesNode));
  g_array_append_val (self->levels[level], node);
}

/* Levels are written 4 apart: every node of an odd level is left out (readers read its two
 * halves, as for any node left out). Its sums are still made, and go up to its parent, but not
 * encoded, compressed nor written: that halves the levels' encoding and lz4 while indexing
 * (docs/benchmarks.md, issue 18, ninth pass), for a query that reads up to four nodes a level
 * where it read two. */
G_STATIC_ASSERT (JVMS_SAMPLES_ALL_THREADS_LEVEL % 2 == 0);

/* A node of @level (>= 2, written already) is complete: a left node waits for its sibling, a
 * right one makes their parent. */
static void
carry (JvmsSamplesWriter *self, guint level, GArray *sums)
{
  g_assert (level >= JVMS_SAMPLES_ALL_THREADS_LEVEL);
  while (level < JVMS_SAMPLES_MAX_LEVELS)
    {
      if (self->pending[level] == NULL)
        {
          self->pending[level] = sums;
          return;
        }
      GArray *parent = merge_sums (self->pending[level], sums);
      g_array_unref (self->pending[level]);
      self->pending[level] = NULL;
      g_array_unref (sums);
      sums = parent;
      level++;
      /* Both halves carry all-threads sums: merging adds them as it adds the rest (thread NONE
       * sorts after a type's threads). */
      add_node (self, level, level % 2 == 0 ? sums : NULL);
    }
  g_array_unref (sums);
}

/* Sections of a block's sums: (type, thread) pairs by first appearance */
typedef struct
{
  guint32 type, thread;
  guint32 rank;   /* its place in (type, thread) order */
} BlockSection;

static int
compare_section (gconstpointer pa, gconstpointer pb)
{
  const BlockSection *a = *(const BlockSection *const *) pa, *b = *(const BlockSection *const *) pb;
  if (a->type != b->type)
    return a->type < b->type ? -1 : 1;
  return (a->thread > b->thread) - (a->thread < b->thread);
}

/* Bits of a sort key of a run's samples: the record's index, its stack + 1 (NONE is 0: first),
 * its section's rank (at most 16384 of them: 14 bits, above at most 32 of the stack). */
#define KEY_INDEX_BITS 14
G_STATIC_ASSERT (RUN_BLOCKS * JVMS_SAMPLES_BLOCK_SAMPLES <= 1u << KEY_INDEX_BITS);
G_STATIC_ASSERT (RUN_BLOCKS * JVMS_SAMPLES_BLOCK_SAMPLES <= G_MAXUINT16 + 1u);   /* section_of */

/* The sums of @recs (at most a run of blocks), sorted by (type, thread, stack) as compare_sum() orders
 * them, equal keys added. A block has few (type, thread) sections: each record's key packs its
 * section's rank, its stack and its index into at most 56 bits, sorted by radix. (Sorting the 40-byte
 * sums with g_array_sort and a comparison function was a twentieth of indexing a recording whose
 * stacks rarely repeat.) */
static GArray *
block_sums (GArray *recs)
{
  guint n = recs->len;
  /* Sections by (type, thread), through a small open-addressing table. */
  guint slots = 16;
  while (slots < 2 * n)
    slots *= 2;
  g_autofree gint32 *table = g_new (gint32, slots);
  memset (table, 0xff, slots * sizeof (gint32));
  g_autofree BlockSection *sections = g_new (BlockSection, MAX (n, 1));
  g_autofree guint16 *section_of = g_new (guint16, MAX (n, 1));
  guint n_sections = 0;
  guint32 stacks = 0;   /* OR of the stacks + 1: how many bits they take */
  for (guint i = 0; i < n; i++)
    {
      const RunRecord *r = &g_array_index (recs, RunRecord, i);
      stacks |= (guint32) (r->stack + 1);
      guint32 type = run_type (r);
      guint h = (guint) jvms_samples_idmap_hash (type, r->thread) & (slots - 1);
      while (table[h] >= 0 && (sections[table[h]].type != type || sections[table[h]].thread != r->thread))
        h = (h + 1) & (slots - 1);
      if (table[h] < 0)
        {
          sections[n_sections] = (BlockSection) { type, r->thread, 0 };
          table[h] = (gint32) n_sections++;
        }
      section_of[i] = (guint16) table[h];
    }
  g_autofree BlockSection **order = g_new (BlockSection *, MAX (n_sections, 1));
  for (guint i = 0; i < n_sections; i++)
    order[i] = &sections[i];
  qsort (order, n_sections, sizeof *order, compare_section);
  for (guint i = 0; i < n_sections; i++)
    order[i]->rank = i;

  g_autofree guint64 *key_room = g_new (guint64, MAX (n, 1));
  g_autofree guint64 *tmp = g_new (guint64, MAX (n, 1));
  /* The rank right above the bits the block's stacks take, not above 32 of them: fewer bits
   * for radix_sort to pass over. */
  guint rank_shift = KEY_INDEX_BITS + (stacks == 0 ? 0 : 32 - (guint) __builtin_clz (stacks));
  for (guint i = 0; i < n; i++)
    {
      const RunRecord *r = &g_array_index (recs, RunRecord, i);
      guint64 stack = (guint32) (r->stack + 1);   /* NONE (no stack) first */
      key_room[i] = (guint64) sections[section_of[i]].rank << rank_shift | stack << KEY_INDEX_BITS | i;
    }
  /* By the bits above the index. */
  const guint64 *keys = radix_sort (key_room, tmp, n, KEY_INDEX_BITS);

  GArray *sums = g_array_sized_new (FALSE, FALSE, sizeof (JvmsSamplesSum), n);
  JvmsSamplesSum *out = (JvmsSamplesSum *) sums->data;
  guint m = 0;
  for (guint i = 0; i < n; i++)
    {
      const RunRecord *r = &g_array_index (recs, RunRecord, keys[i] & ((1u << KEY_INDEX_BITS) - 1));
      /* A record's state is UNKNOWN unless its type is a CPU one (add_record). */
      guint state = run_state (r);
      guint64 on_cpu = state == JVMS_CPU_STATE_ON_CPU, waiting = state == JVMS_CPU_STATE_WAITING;
      if (m > 0 && (keys[i] >> KEY_INDEX_BITS) == (keys[i - 1] >> KEY_INDEX_BITS))
        {
          JvmsSamplesSum *last = &out[m - 1];
          last->count++;
          last->weight += r->weight;
          last->on_cpu += on_cpu;
          last->waiting += waiting;
        }
      else
        out[m++] = (JvmsSamplesSum) { .type = run_type (r), .thread = r->thread, .stack = r->stack, .count = 1,
                                      .weight = r->weight, .on_cpu = on_cpu, .waiting = waiting };
    }
  sums->len = m;
  return sums;
}

/* The block being filled is complete (or the last): written; every second block completes a
 * node of level 1 (left out, as every odd level's), and every fourth a run of blocks, whose sums
 * are those of a node of level 2: summed from the run's samples at once, where each block's
 * sums were made and merged by pairs into level 1, then level 2 (the merges of the two lowest
 * levels, which hold about as many sums as samples on the bench's recording, were about a third
 * of the merges' copying: docs/benchmarks.md, issue 18, ninth pass). */
static void
flush_block (JvmsSamplesWriter *self)
{
  GArray *recs = self->open_block;
  guint start = self->block_start;
  if (recs->len == start)
    return;
  guint n = recs->len - start;
  const RunRecord *run = &g_array_index (recs, RunRecord, start);
  const RunOld *old = &g_array_index (self->open_old, RunOld, self->old_start);
  GByteArray *enc = self->enc;
  g_byte_array_set_size (enc, 0);
  const RunRecord *first = &run[0];
  gint64 previous = first->time;
  /* At most 8 varints and the head byte a sample: room for all, reserved once. */
  guint8 *p = jvms_samples_reserve (enc, n * 81);
  for (guint i = 0; i < n; i++)
    {
      const RunRecord *r = &run[i];
      p = jvms_samples_varint_at (p, (guint64) (r->time - previous));
      previous = r->time;
      guint8 head = (guint8) (run_state (r) & JVMS_SAMPLE_HEAD_STATE_MASK);
      if (r->stack != JVMS_SAMPLES_NONE)
        head |= JVMS_SAMPLE_HEAD_STACK;
      if (r->detail != JVMS_SAMPLES_NONE)
        head |= JVMS_SAMPLE_HEAD_DETAIL;
      if (run_old (r))
        head |= JVMS_SAMPLE_HEAD_OLD_OBJECT;
      *p++ = head;
      p = jvms_samples_varint_at (p, run_type (r));
      p = jvms_samples_varint_at (p, r->thread);
      if (r->stack != JVMS_SAMPLES_NONE)
        p = jvms_samples_varint_at (p, r->stack);
      p = jvms_samples_varint_at (p, r->weight);
      if (r->detail != JVMS_SAMPLES_NONE)
        p = jvms_samples_varint_at (p, r->detail);
      if (run_old (r))
        {
          p = jvms_samples_varint_at (p, jvms_samples_zigzag (old->allocation_time - r->time));
          p = jvms_samples_varint_at (p, old->object_age);
          old++;
        }
    }
  jvms_samples_commit (enc, p);
  JvmsSamplesBlock block = { 0 };
  guint64 offset;
  guint32 compressed, raw;
  write_payload (self, enc, FALSE, &offset, &compressed, &raw);
  block.offset = GUINT64_TO_LE (offset);
  block.compressed_size = GUINT32_TO_LE (compressed);
  block.raw_size = GUINT32_TO_LE (raw);
  block.first_time = GINT64_TO_LE (first->time);
  block.last_time = GINT64_TO_LE (run[n - 1].time);
  block.n_samples = GUINT32_TO_LE (n);
  g_array_append_val (self->blocks, block);
  self->block_start = recs->len;
  self->old_start = (guint) (old - (const RunOld *) (gconstpointer) self->open_old->data);
  guint in_run = self->blocks->len % RUN_BLOCKS;
  if (in_run % 2 == 0)
    add_node (self, 1, NULL);
  if (in_run != 0)
    return;
  GArray *sums = block_sums (recs);
  g_array_set_size (recs, 0);
  self->block_start = 0;
  g_array_set_size (self->open_old, 0);
  self->old_start = 0;
  /* From level 2 up, nodes carry all-threads sums (JVMS_SAMPLES_ALL_THREADS_LEVEL). */
  G_STATIC_ASSERT (JVMS_SAMPLES_ALL_THREADS_LEVEL == 2 && RUN_BLOCKS == 1u << JVMS_SAMPLES_ALL_THREADS_LEVEL);
  GArray *with_all = add_all_threads (sums);
  g_array_unref (sums);
  add_node (self, JVMS_SAMPLES_ALL_THREADS_LEVEL, with_all);
  carry (self, JVMS_SAMPLES_ALL_THREADS_LEVEL, with_all);
}

void
jvms_samples_writer_add_record (JvmsSamplesWriter *self, const JvmsSampleRecord *record)
{
  g_return_if_fail (record->type < self->types->len);
  g_return_if_fail (record->thread < self->threads->len);
  g_return_if_fail (record->stack == JVMS_SAMPLES_NONE || record->stack < self->stacks->len);
  g_return_if_fail (record->detail == JVMS_SAMPLES_NONE || record->detail < self->strings->len);
  if (record->type >= self->max_types)
    {
      /* Not from any recording (a type per event type); the store is refused, not cut. */
      if (!self->failed)
        writer_fail (self, g_strdup_printf ("a sample of type %u: a store holds at most %u sample types",
                                            record->type, self->max_types));
      return;
    }
  JvmsSampleRecord r = *record;
  if (r.time < self->last_time)
    {
      /* The readers deliver events in time order; anything else is moved up and counted. */
      r.time = self->last_time;
      self->n_moved++;
    }
  JvmsSamplesType *t = &g_array_index (self->types, JvmsSamplesType, r.type);
  if (r.state != JVMS_CPU_STATE_UNKNOWN
      && ((guint) r.state >= JVMS_CPU_STATE_N || !(GUINT32_FROM_LE (t->flags) & JVMS_SAMPLE_TYPE_CPU)))
    r.state = JVMS_CPU_STATE_UNKNOWN;
  self->last_time = r.time;
  self->first_time = MIN (self->first_time, r.time);
  t->n_samples = GUINT64_TO_LE (GUINT64_FROM_LE (t->n_samples) + 1);
  t->weight = GUINT64_TO_LE (GUINT64_FROM_LE (t->weight) + r.weight);
  /* The open run has room for its blocks' samples from its creation (g_array_sized_new), and
   * each block is flushed full: no library call a sample. */
  g_assert (self->open_block->len - self->block_start < JVMS_SAMPLES_BLOCK_SAMPLES
            && self->open_block->len < RUN_BLOCKS * JVMS_SAMPLES_BLOCK_SAMPLES);
  ((RunRecord *) (gpointer) self->open_block->data)[self->open_block->len++] = (RunRecord) {
    .time = r.time, .weight = r.weight, .thread = r.thread, .stack = r.stack, .detail = r.detail,
    .packed = r.type << RUN_TYPE_SHIFT | (guint32) r.state << 1 | (r.old_object != FALSE),
  };
  if (r.old_object)
    {
      RunOld o = { r.allocation_time, r.object_age };
      g_array_append_val (self->open_old, o);
    }
  self->count++;
  if (self->open_block->len - self->block_start >= JVMS_SAMPLES_BLOCK_SAMPLES)
    flush_block (self);
}

void
jvms_samples_writer_add_compilation (JvmsSamplesWriter *self, const JvmsSamplesCompilation *c)
{
  g_return_if_fail (GUINT32_FROM_LE (c->method) < self->methods->len);
  g_array_append_vals (self->compilations, c, 1);
}

void
jvms_samples_writer_add_timing (JvmsSamplesWriter *self, const JvmsSamplesTiming *t)
{
  g_return_if_fail (GUINT32_FROM_LE (t->method) < self->methods->len);
  g_array_append_vals (self->timings, t, 1);
}

/* ---- the older form ------------------------------------------------------------------------- */

static const struct
{
  JvmsSampleKind kind;
  const char    *type;
  JvmsSampleUnit unit;
  guint          flags;
} compat_types[] = {
  { JVMS_SAMPLE_EXECUTION, "jdk.ExecutionSample", JVMS_SAMPLE_UNIT_NS, JVMS_SAMPLE_TYPE_CPU | JVMS_SAMPLE_TYPE_SAMPLER },
  { JVMS_SAMPLE_NATIVE, "jdk.NativeMethodSample", JVMS_SAMPLE_UNIT_NS, JVMS_SAMPLE_TYPE_SAMPLER },
  { JVMS_SAMPLE_ALLOCATION, "jdk.ObjectAllocationSample", JVMS_SAMPLE_UNIT_BYTES, 0 },
  { JVMS_SAMPLE_OLD_OBJECT, "jdk.OldObjectSample", JVMS_SAMPLE_UNIT_EVENTS, 0 },
};

void
jvms_samples_writer_add (JvmsSamplesWriter *self, const JvmsSample *sample)
{
  guint32 type = JVMS_SAMPLES_NONE;
  for (gsize i = 0; i < G_N_ELEMENTS (compat_types); i++)
    if (compat_types[i].kind == sample->kind)
      type = jvms_samples_writer_intern_type (self, compat_types[i].type, compat_types[i].unit,
                                              compat_types[i].flags);
  if (type == JVMS_SAMPLES_NONE)
    type = jvms_samples_writer_intern_type (self, sample->type_name != NULL ? sample->type_name : "unknown",
                                            JVMS_SAMPLE_UNIT_EVENTS, 0);
  g_autofree JvmsStackFrameIn *in = g_new0 (JvmsStackFrameIn, MAX (sample->n_frames, 1));
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < sample->n_frames; i++)
    {
      const char *m = sample->frames[i].method;
      const char *dot = m != NULL ? strrchr (m, '.') : NULL;
      if (dot != NULL)
        {
          char *cls = g_strndup (m, (gsize) (dot - m));
          g_ptr_array_add (owned, cls);
          in[i].class_name = cls;
          in[i].method_name = dot + 1;
        }
      in[i].line = sample->frames[i].line;
    }
  JvmsSampleRecord r = {
    .time = sample->time,
    .type = type,
    .thread = jvms_samples_writer_intern_thread (self, sample->tid, NULL),
    .stack = sample->n_frames > 0 ? jvms_samples_writer_intern_frames (self, in, sample->n_frames, FALSE)
                                  : JVMS_SAMPLES_NONE,
    .weight = sample->weight,
    .detail = jvms_samples_writer_intern_string (self, sample->kind == JVMS_SAMPLE_EXECUTION
                                                       || sample->kind == JVMS_SAMPLE_NATIVE
                                                     ? sample->state : sample->class_name),
    .old_object = sample->kind == JVMS_SAMPLE_OLD_OBJECT,
    .allocation_time = sample->allocation_time,
    .object_age = sample->object_age,
  };
  jvms_samples_writer_add_record (self, &r);
}

guint64
jvms_samples_writer_count (JvmsSamplesWriter *self)
{
  return self->count;
}

/* ---- closing -------------------------------------------------------------------------------- */

static void
write_table (JvmsSamplesWriter *self, GArray *dir, guint32 tag, guint32 level, const void *data,
             gsize size, guint64 count)
{
  pad_to_8 (self);
  JvmsSamplesTable t = {
    .tag = GUINT32_TO_LE (tag),
    .level = GUINT32_TO_LE (level),
    .offset = GUINT64_TO_LE (self->pos),
    .size = GUINT64_TO_LE (size),
    .count = GUINT64_TO_LE (count),
  };
  write_bytes (self, data, size);
  g_array_append_val (dir, t);
}

static void
write_strings (JvmsSamplesWriter *self, GArray *dir)
{
  guint n = self->strings->len;
  gsize offsets_size = 4 * ((gsize) n + 1);
  GByteArray *b = g_byte_array_sized_new ((guint) (offsets_size + self->string_bytes));
  guint32 at = 0;
  for (guint i = 0; i <= n; i++)
    {
      guint32 le = GUINT32_TO_LE (at);
      g_byte_array_append (b, (const guint8 *) &le, 4);
      if (i < n)
        at += (guint32) strlen (g_ptr_array_index (self->strings, i)) + 1;
    }
  for (guint i = 0; i < n; i++)
    {
      const char *s = g_ptr_array_index (self->strings, i);
      g_byte_array_append (b, (const guint8 *) s, (guint) strlen (s) + 1);
    }
  write_table (self, dir, JVMS_SAMPLES_TABLE_STRINGS, 0, b->data, b->len, n);
  g_byte_array_unref (b);
}

static void
write_array (JvmsSamplesWriter *self, GArray *dir, guint32 tag, guint32 level, GArray *a)
{
  write_table (self, dir, tag, level, a->data, (gsize) a->len * g_array_get_element_size (a), a->len);
}

static int
compare_compilation (gconstpointer pa, gconstpointer pb)
{
  gint64 a = ((const JvmsSamplesCompilation *) pa)->time, b = ((const JvmsSamplesCompilation *) pb)->time;
  return (a > b) - (a < b);
}

static int
compare_timing (gconstpointer pa, gconstpointer pb)
{
  gint64 a = ((const JvmsSamplesTiming *) pa)->time, b = ((const JvmsSamplesTiming *) pb)->time;
  return (a > b) - (a < b);
}

gboolean
jvms_samples_writer_close (JvmsSamplesWriter *self, GError **error)
{
  flush_block (self);
  for (guint i = 0; i <= JVMS_SAMPLES_MAX_LEVELS; i++)
    g_clear_pointer (&self->pending[i], g_array_unref);

  g_autoptr(GArray) dir = g_array_new (FALSE, FALSE, sizeof (JvmsSamplesTable));
  write_strings (self, dir);
  write_array (self, dir, JVMS_SAMPLES_TABLE_METHODS, 0, self->methods);
  write_array (self, dir, JVMS_SAMPLES_TABLE_FRAMES, 0, self->frames);
  write_array (self, dir, JVMS_SAMPLES_TABLE_STACKS, 0, self->stacks);
  write_array (self, dir, JVMS_SAMPLES_TABLE_PATHS, 0, self->paths);
  write_array (self, dir, JVMS_SAMPLES_TABLE_STACK_PATHS, 0, self->stack_paths);
  write_array (self, dir, JVMS_SAMPLES_TABLE_THREADS, 0, self->threads);
  write_array (self, dir, JVMS_SAMPLES_TABLE_TYPES, 0, self->types);
  write_array (self, dir, JVMS_SAMPLES_TABLE_BLOCKS, 0, self->blocks);
  for (guint level = 1; level <= JVMS_SAMPLES_MAX_LEVELS; level++)
    if (self->levels[level] != NULL)
      write_array (self, dir, JVMS_SAMPLES_TABLE_LEVEL, level, self->levels[level]);
  /* Compilations and timings come in event order: start times of events that end in order. */
  g_array_sort (self->compilations, compare_compilation);
  g_array_sort (self->timings, compare_timing);
  write_array (self, dir, JVMS_SAMPLES_TABLE_COMPILATIONS, 0, self->compilations);
  write_array (self, dir, JVMS_SAMPLES_TABLE_TIMINGS, 0, self->timings);
  pad_to_8 (self);
  guint64 dir_offset = self->pos;
  write_bytes (self, dir->data, (gsize) dir->len * sizeof (JvmsSamplesTable));

  JvmsSamplesHeader h = { { 0 } };
  memcpy (h.magic, JVMS_SAMPLES_MAGIC, 8);
  h.version = GUINT32_TO_LE (JVMS_SAMPLES_VERSION);
  h.header_size = GUINT32_TO_LE (sizeof h);
  h.file_size = GUINT64_TO_LE (self->pos);
  h.directory_offset = GUINT64_TO_LE (dir_offset);
  h.n_tables = GUINT32_TO_LE (dir->len);
  h.flags = GUINT32_TO_LE (self->kernel_states ? JVMS_SAMPLES_FLAG_KERNEL_STATES : 0);
  h.first_time = GINT64_TO_LE (self->count > 0 ? self->first_time : 0);
  h.last_time = GINT64_TO_LE (self->count > 0 ? self->last_time : 0);
  h.block_samples = GUINT32_TO_LE (JVMS_SAMPLES_BLOCK_SAMPLES);
  if (!self->failed && (fflush (self->file) != 0 || fseek (self->file, 0, SEEK_SET) != 0
                        || fwrite (&h, 1, sizeof h, self->file) != sizeof h))
    self->failed = TRUE;
  int rc = fclose (self->file);
  self->file = NULL;
  if (self->failed || rc != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: could not write the sample store%s%s",
                   self->tmp_path, self->fail_reason != NULL ? ": " : "",
                   self->fail_reason != NULL ? self->fail_reason : "");
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
  g_free (self->fail_reason);
  g_hash_table_unref (self->string_ids);
  g_string_chunk_free (self->chunk);
  g_ptr_array_unref (self->strings);
  g_array_unref (self->methods);
  g_array_unref (self->frames);
  g_array_unref (self->stacks);
  g_array_unref (self->stack_paths);
  g_array_unref (self->paths);
  children_clear (&self->stack_children);
  children_clear (&self->path_children);
  g_array_unref (self->threads);
  g_array_unref (self->types);
  jvms_samples_idmap_clear (&self->method_map);
  jvms_samples_idmap_clear (&self->frame_map);
  jvms_samples_idmap_clear (&self->thread_map);
  jvms_samples_idmap_clear (&self->type_map);
  jvms_samples_idmap_clear (&self->leaf_map);
  g_array_unref (self->leaves);
  g_array_unref (self->leaf_frames);
  g_array_unref (self->last_frames);
  g_array_unref (self->compilations);
  g_array_unref (self->timings);
  g_array_unref (self->open_block);
  g_array_unref (self->open_old);
  g_array_unref (self->blocks);
  for (guint i = 0; i <= JVMS_SAMPLES_MAX_LEVELS; i++)
    {
      g_clear_pointer (&self->levels[i], g_array_unref);
      g_clear_pointer (&self->pending[i], g_array_unref);
    }
  g_byte_array_unref (self->enc);
  g_byte_array_unref (self->section);
  g_byte_array_unref (self->lz);
  g_free (self);
}

void
jvms_samples_writer_set_max_types (JvmsSamplesWriter *self, guint32 max_types)
{
  self->max_types = MIN (max_types, RUN_MAX_TYPES);
}
