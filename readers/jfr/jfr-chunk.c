/* jfr-chunk.c: loading a chunk: record framing, checkpoints into constant pools, the event
 * index sorted by start time.
 *
 * Records: size:int (whole record, the size field included) type:long payload. Type 0 is
 * metadata, 1 a checkpoint:
 *   startTime:long duration:long delta:long kind:u1 poolCount:int
 *   (typeId:long count:int (key:long value)×count)×poolCount
 * where value is the type's fields inline. Pools are read from a forward walk of the
 * records rather than from the backward delta chain: the walk sees every checkpoint even when
 * the chain is broken or the file was cut, and it cannot loop.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "jfr-chunk.h"
#include "jfr-string.h"

/* ---- skipping values ---- */

gboolean
jfr_skip_fields (JfrIn *in, const JvmsJfrType *type, guint n_fields)
{
  guint n = MIN (n_fields, type->n_fields);
  jfr_work += n + 1;
  for (guint i = 0; i < n; i++)
    if (!jfr_skip_field (in, &type->fields[i]))
      return FALSE;
  return !in->bad;
}

static gboolean
skip_one (JfrIn *in, const JvmsJfrType *type, gboolean cp)
{
  if (cp)
    return jfr_skip_as (in, JFR_OP_POOL, 8, type);
  return jfr_skip_as (in, type->kind, jfr_kind_width (type->kind), type);
}

gboolean
jfr_skip_value (JfrIn *in, const JvmsJfrType *type, gboolean array, gboolean cp)
{
  if (!array)
    return skip_one (in, type, cp);
  guint64 n = jfr_in_int (in, 4);
  if (in->bad || n > jfr_in_left (in))
    {
      jfr_in_fail (in);
      return FALSE;
    }
  if (!cp && (type->kind == JVMS_JFR_KIND_BYTE || type->kind == JVMS_JFR_KIND_BOOLEAN))
    return jfr_in_skip (in, n);
  jfr_work += n;
  for (guint64 i = 0; i < n; i++)
    if (!skip_one (in, type, cp))
      return FALSE;
  return TRUE;
}

/* ---- constant pools ---- */

static guint64
hash_key (guint64 key)
{
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;
  return key;
}

static void
pool_insert (JfrPool *pool, guint64 key, guint64 offset)
{
  if ((pool->n + 1) * 4 > (pool->mask + 1) * 3)
    {
      guint64 old_cap = pool->slots ? pool->mask + 1 : 0;
      JfrPoolEntry *old = pool->slots;
      guint64 cap = old_cap ? old_cap * 2 : 64;
      pool->slots = g_new0 (JfrPoolEntry, cap);
      pool->mask = cap - 1;
      pool->n = 0;
      for (guint64 i = 0; i < old_cap; i++)
        if (old[i].offset != 0)
          {
            guint64 h = hash_key (old[i].key) & pool->mask;
            while (pool->slots[h].offset != 0)
              h = (h + 1) & pool->mask;
            pool->slots[h] = old[i];
            pool->n++;
          }
      g_free (old);
    }
  guint64 h = hash_key (key) & pool->mask;
  while (pool->slots[h].offset != 0)
    {
      if (pool->slots[h].key == key)
        {
          /* a later definition wins, like the JDK's reader */
          pool->slots[h].offset = offset;
          pool->slots[h].cache = NULL;
          return;
        }
      h = (h + 1) & pool->mask;
    }
  pool->slots[h].key = key;
  pool->slots[h].offset = offset;
  pool->slots[h].cache = NULL;
  pool->n++;
}

const JfrPoolEntry *
jfr_pool_lookup (const JfrLoaded *loaded, const JvmsJfrType *type, guint64 key)
{
  const JfrPool *pool = loaded->pools[type->ordinal];
  if (pool == NULL)
    return NULL;
  if (pool->dense != NULL)
    {
      guint64 d = key - pool->base;
      guint64 i = d >> pool->shift;
      if ((i << pool->shift) != d || i >= pool->n_dense || pool->dense[i].offset == 0)
        return NULL;
      return &pool->dense[i];
    }
  if (pool->slots == NULL)
    return NULL;
  guint64 h = hash_key (key) & pool->mask;
  while (pool->slots[h].offset != 0)
    {
      if (pool->slots[h].key == key)
        return &pool->slots[h];
      h = (h + 1) & pool->mask;
    }
  return NULL;
}

/* Turns the hash of @pool into an array when its keys are dense enough: at most twice as
 * many slots as keys (plus a little), which bounds the memory by what the hash used. */
static void
pool_densify (JfrPool *pool)
{
  if (pool->slots == NULL || pool->n == 0)
    return;
  guint64 cap = pool->mask + 1;
  guint64 lo = G_MAXUINT64, hi = 0;
  for (guint64 i = 0; i < cap; i++)
    if (pool->slots[i].offset != 0)
      {
        lo = MIN (lo, pool->slots[i].key);
        hi = MAX (hi, pool->slots[i].key);
      }
  guint64 bits = 0;
  for (guint64 i = 0; i < cap; i++)
    if (pool->slots[i].offset != 0)
      bits |= pool->slots[i].key - lo;
  guint shift = bits == 0 ? 0 : (guint) __builtin_ctzll (bits);
  guint64 last = (hi - lo) >> shift;
  if (last >= 2 * pool->n + 64)
    return;
  guint64 span = last + 1;
  JfrPoolEntry *dense = g_new0 (JfrPoolEntry, span);
  for (guint64 i = 0; i < cap; i++)
    if (pool->slots[i].offset != 0)
      dense[(pool->slots[i].key - lo) >> shift] = pool->slots[i];
  g_clear_pointer (&pool->slots, g_free);
  pool->dense = dense;
  pool->base = lo;
  pool->shift = shift;
  pool->n_dense = span;
}

static void
pools_finish (JfrLoaded *loaded)
{
  for (guint i = 0; i < loaded->md->n_types; i++)
    if (loaded->pools[i] != NULL)
      pool_densify (loaded->pools[i]);
}

static JfrPool *
pool_for (JfrLoaded *loaded, const JvmsJfrType *type)
{
  JfrPool *pool = loaded->pools[type->ordinal];
  if (pool == NULL)
    {
      pool = g_new0 (JfrPool, 1);
      pool->type = type;
      loaded->pools[type->ordinal] = pool;
    }
  return pool;
}

/* The file offset of @p, a byte of the chunk as @loaded holds it. */
static guint64
at_file (const JfrLoaded *loaded, const guint8 *p)
{
  return loaded->chunk->info.file_offset + (guint64) (p - loaded->base);
}

static void
read_checkpoint (JfrLoaded *loaded, guint64 pos, const guint8 *record_end, gboolean warn)
{
  JvmsJfrFile *file = loaded->file;
  guint chunk = loaded->chunk->position;
  JfrIn in;
  jfr_in_init (&in, loaded->base + pos, record_end, loaded->compressed);
  jfr_in_int (&in, 4);   /* size */
  jfr_in_long (&in);     /* type */
  jfr_in_long (&in);     /* startTime */
  jfr_in_long (&in);     /* duration */
  jfr_in_long (&in);     /* delta to the previous checkpoint: not followed, see above */
  jfr_in_u8 (&in);       /* kind (JDK 11: flushpoint boolean) */
  guint64 n_pools = jfr_in_int (&in, 4);
  if (in.bad || n_pools > jfr_in_left (&in))
    {
      if (warn)
            jfr_file_warn (file, chunk, loaded->chunk->info.file_offset + pos, "checkpoint",
                     "pool count %" G_GUINT64_FORMAT " exceeds the %" G_GUINT64_FORMAT " bytes left in the record; checkpoint ignored",
                     n_pools, jfr_in_left (&in));
      return;
    }
  for (guint64 p = 0; p < n_pools; p++)
    {
      const guint8 *pool_at = in.p;
      guint64 type_id = jfr_in_long (&in);
      guint64 count = jfr_in_int (&in, 4);
      const JvmsJfrType *type = in.bad ? NULL : jfr_metadata_lookup (loaded->md, type_id);
      if (in.bad)
        {
          if (warn)
            jfr_file_warn (file, chunk, at_file (loaded, pool_at), "constant pool",
                         "pool header cut short; the rest of the checkpoint is ignored");
          return;
        }
      if (type == NULL)
        {
          if (warn)
            jfr_file_warn (file, chunk, at_file (loaded, pool_at), "constant pool",
                         "pool of type %" G_GUINT64_FORMAT " that the metadata does not declare; the rest of the checkpoint is ignored",
                         type_id);
          return;
        }
      if (count > jfr_in_left (&in))
        {
          if (warn)
            jfr_file_warn (file, chunk, at_file (loaded, pool_at), "constant pool",
                         "entry count %" G_GUINT64_FORMAT " of the %s pool exceeds the %" G_GUINT64_FORMAT " bytes left in the record; the rest of the checkpoint is ignored",
                         count, type->name, jfr_in_left (&in));
          return;
        }
      JfrPool *pool = pool_for (loaded, type);
      for (guint64 i = 0; i < count; i++)
        {
          const guint8 *entry_at = in.p;
          jfr_work++;
          guint64 key = jfr_in_long (&in);
          guint64 offset = (guint64) (in.p - loaded->base);
          if (in.bad || !jfr_skip_value (&in, type, FALSE, FALSE))
            {
              if (warn)
            jfr_file_warn (file, chunk, at_file (loaded, entry_at), "constant pool",
                             "entry %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " in the %s pool is cut short or damaged; the rest of the checkpoint is ignored",
                             i, count, type->name);
              return;
            }
          pool_insert (pool, key, offset);
        }
    }
}

/* ---- the event index ---- */

/* Buffers of a few MB: aligned to huge pages and advised so, they cost a handful of page
 * faults instead of one per 4 KiB page (which a virtual machine makes dear). Capacity that is
 * never touched costs no memory either way. */
#define HUGE_PAGE (2 * 1024 * 1024)

static gpointer
buffer_alloc (gsize bytes, gsize *cap)
{
  if (bytes < HUGE_PAGE)
    {
      *cap = (MAX (bytes, 64) + 63) & ~(gsize) 63;
      return g_aligned_alloc (*cap / 64, 64, 64);
    }
  *cap = (bytes + HUGE_PAGE - 1) & ~(gsize) (HUGE_PAGE - 1);
  gpointer p = g_aligned_alloc (*cap / HUGE_PAGE, HUGE_PAGE, HUGE_PAGE);
#ifdef MADV_HUGEPAGE
  madvise (p, *cap, MADV_HUGEPAGE);
#endif
  return p;
}

void
jfr_scratch_clear (JfrScratch *scratch)
{
  for (guint i = 0; i < JFR_SCRATCH_SPARES; i++)
    {
      g_clear_pointer (&scratch->spare[i], g_aligned_free);
      scratch->spare_cap[i] = 0;
    }
  g_clear_pointer (&scratch->tmp, g_aligned_free);
  scratch->tmp_cap = 0;
}

/* A buffer of at least @want bytes (its capacity in @cap): the smallest spare that is big
 * enough, else a new one. */
static gpointer
scratch_take (JfrScratch *scratch, gsize want, gsize *cap)
{
  if (scratch != NULL)
    {
      gint best = -1;
      for (guint i = 0; i < JFR_SCRATCH_SPARES; i++)
        if (scratch->spare[i] != NULL && scratch->spare_cap[i] >= want
            && (best < 0 || scratch->spare_cap[i] < scratch->spare_cap[best]))
          best = (gint) i;
      if (best >= 0)
        {
          *cap = scratch->spare_cap[best];
          scratch->spare_cap[best] = 0;
          return g_steal_pointer (&scratch->spare[best]);
        }
    }
  return buffer_alloc (want, cap);
}

/* Gives @buffer back to the spares, in place of the smallest one if they are all taken. */
static void
scratch_give (JfrScratch *scratch, gpointer buffer, gsize cap)
{
  if (buffer == NULL)
    return;
  if (scratch != NULL)
    {
      guint worst = 0;
      for (guint i = 1; i < JFR_SCRATCH_SPARES; i++)
        if (scratch->spare_cap[i] < scratch->spare_cap[worst])
          worst = i;
      if (cap > scratch->spare_cap[worst])
        {
          g_aligned_free (scratch->spare[worst]);
          scratch->spare[worst] = buffer;
          scratch->spare_cap[worst] = cap;
          return;
        }
    }
  g_aligned_free (buffer);
}

/* The file ends at @got bytes into chunk @c (it shrank, or a read failed: jfr_file_read warned):
 * the chunk is read as one cut there. */
static void
chunk_cut (JfrChunk *c, guint64 got)
{
  if (got < c->info.size)
    {
      c->info.size = got;
      c->info.complete = FALSE;
    }
}

/* Reads chunk @c into a buffer of our own (a file on disk is never mapped, see jfr-io.c; on
 * this kind of machine a copy also costs less than faulting in mapped pages). NULL for bytes in
 * memory, which are read in place. */
static guint8 *
chunk_copy (JvmsJfrFile *file, JfrChunk *c, JfrScratch *scratch, gsize *cap)
{
  if (file->fd < 0)
    return NULL;
  guint8 *buffer = scratch_take (scratch, (gsize) MAX (c->info.size, 1), cap);
  chunk_cut (c, jfr_file_read (file, buffer, c->info.file_offset, c->info.size));
  return buffer;
}

/* Only the checkpoint records of chunk @c (found by the prescan), read at their offsets into an
 * anonymous mapping of the chunk's size: the constants of a few early events need nothing
 * else, and pages never written cost no memory. NULL when the mapping fails. */
static guint8 *
chunk_sparse (JvmsJfrFile *file, JfrChunk *c, gsize *cap)
{
  gsize size = (gsize) MAX (c->info.size, 1);
  void *mem = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1, 0);
  if (mem == MAP_FAILED)
    return NULL;
  guint8 *buffer = mem;
  for (guint i = 0; i < c->checkpoints->len; i++)
    {
      const JfrRecordSpan *span = &g_array_index (c->checkpoints, JfrRecordSpan, i);
      if (span->pos + span->size > c->info.size)
        break;
      guint64 got = jfr_file_read (file, buffer + span->pos, c->info.file_offset + span->pos,
                                   span->size);
      if (got < span->size)
        {
          chunk_cut (c, span->pos + got);
          break;
        }
    }
  *cap = size;
  return buffer;
}

/* Sorts by start time, stable (ties keep file order). Thread buffers hold events in commit
 * order, which is end-time order, so start times form many short runs: an LSD radix sort on
 * the offset from the smallest start costs a few linear passes whatever the order. */
static void
sort_index (JfrIndexEntry *a, guint64 n, JfrScratch *scratch)
{
  if (n < 2)
    return;
  gint64 lo = a[0].ticks, hi = a[0].ticks;
  gboolean sorted = TRUE;
  for (guint64 i = 1; i < n; i++)
    {
      if (a[i].ticks < a[i - 1].ticks)
        sorted = FALSE;
      lo = MIN (lo, a[i].ticks);
      hi = MAX (hi, a[i].ticks);
    }
  if (sorted)
    return;
  guint64 range = (guint64) hi - (guint64) lo;
  guint bits = 64 - (guint) __builtin_clzll (range | 1);
  guint passes = (bits + 11) / 12;
  guint digit = (bits + passes - 1) / passes;
  guint64 mask = (G_GUINT64_CONSTANT (1) << digit) - 1;

  JfrIndexEntry *tmp;
  gboolean own_tmp = FALSE;
  gsize tmp_cap;
  if (scratch != NULL)
    {
      if (scratch->tmp_cap < n * sizeof *tmp)
        {
          g_clear_pointer (&scratch->tmp, g_aligned_free);
          scratch->tmp = buffer_alloc (n * sizeof *tmp, &scratch->tmp_cap);
        }
      tmp = scratch->tmp;
    }
  else
    {
      tmp = buffer_alloc (n * sizeof *tmp, &tmp_cap);
      own_tmp = TRUE;
    }
  /* all histograms in one pass */
  g_autofree guint64 *count = g_new0 (guint64, (gsize) passes << digit);
  for (guint64 i = 0; i < n; i++)
    {
      guint64 key = (guint64) a[i].ticks - (guint64) lo;
      for (guint p = 0; p < passes; p++)
        count[((gsize) p << digit) + ((key >> (p * digit)) & mask)]++;
    }
  JfrIndexEntry *src = a, *dst = tmp;
  for (guint p = 0; p < passes; p++)
    {
      guint64 *cnt = count + ((gsize) p << digit);
      guint64 sum = 0;
      for (guint64 d = 0; d <= mask; d++)
        {
          guint64 k = cnt[d];
          cnt[d] = sum;
          sum += k;
        }
      guint shift = p * digit;
      for (guint64 i = 0; i < n; i++)
        dst[cnt[(((guint64) src[i].ticks - (guint64) lo) >> shift) & mask]++] = src[i];
      JfrIndexEntry *t = src;
      src = dst;
      dst = t;
    }
  if (src != a)
    memcpy (a, src, n * sizeof *a);
  if (own_tmp)
    g_aligned_free (tmp);
}

typedef struct
{
  guint64 pos;
  guint64 size;
  guint64 type;
  guint64 head;   /* bytes of the size and type: the payload starts at pos + head */
} RecordHead;

/* The start time of event record @r of @type, or @fallback when the type has no start time
 * or the record is damaged. */
static inline gint64
record_start_ticks (const guint8 *base, const RecordHead *r, const JvmsJfrType *type,
                    gboolean compressed, gint64 fallback)
{
  if (type->start_field < 0)
    return fallback;
  JfrIn in;
  jfr_in_init (&in, base + r->pos + r->head, base + r->pos + r->size, compressed);
  if (type->start_field > 0 && !jfr_skip_fields (&in, type, (guint) type->start_field))
    return fallback;
  gint64 t = (gint64) jfr_in_long (&in);
  return in.bad ? fallback : t;
}

/* Reads the size and type of the record at chunk-relative @pos. FALSE (with a warning when
 * @warn) when the record is damaged or cut: the walk stops there. */
static gboolean record_head_slow (JvmsJfrFile *file, JfrChunk *c, const guint8 *base,
                                  guint64 pos, gboolean warn, RecordHead *out);

/* The common case inline: compressed integers, a one-byte type and a size of one to four
 * bytes that fits in the chunk. Everything else takes the careful path. */
static inline gboolean
record_head (JvmsJfrFile *file, JfrChunk *c, const guint8 *base, guint64 pos,
             gboolean warn, RecordHead *out)
{
  guint64 usable = c->info.size;
  if (G_LIKELY (c->info.compressed_integers && usable - pos >= 8))
    {
      const guint8 *p = base + pos;
      guint64 size = 0;
      guint n = 0;
      for (; n < 4; n++)
        {
          size |= (guint64) (p[n] & 0x7f) << (7 * n);
          if (p[n] < 0x80)
            break;
        }
      if (n < 4 && p[n + 1] < 0x80 && size >= n + 2 && size <= usable - pos)
        {
          out->pos = pos;
          out->size = size;
          out->type = p[n + 1];
          out->head = n + 2;
          return TRUE;
        }
    }
  return record_head_slow (file, c, base, pos, warn, out);
}

static gboolean
record_head_slow (JvmsJfrFile *file, JfrChunk *c, const guint8 *base, guint64 pos,
                  gboolean warn, RecordHead *out)
{
  guint64 usable = c->info.size;
  JfrIn in;
  jfr_in_init (&in, base + pos, base + usable, c->info.compressed_integers);
  guint64 size = jfr_in_int (&in, 4);
  guint64 type = jfr_in_long (&in);
  guint64 at = c->info.file_offset + pos;
  if (in.bad)
    {
      if (warn)
        jfr_file_warn (file, c->position, at, "record",
                       "the file ends at %" G_GUINT64_FORMAT " inside the header of the record at %" G_GUINT64_FORMAT,
                       c->info.file_offset + usable, at);
      return FALSE;
    }
  guint64 head = (guint64) (in.p - (base + pos));
  if (size < head)
    {
      if (warn)
        jfr_file_warn (file, c->position, at, "record",
                       "size %" G_GUINT64_FORMAT " < minimum %" G_GUINT64_FORMAT "; the rest of the chunk is skipped",
                       size, head);
      return FALSE;
    }
  if (size > usable - pos)
    {
      if (warn)
        {
          if (c->info.complete)
            jfr_file_warn (file, c->position, at, "record",
                           "the record declares %" G_GUINT64_FORMAT " bytes, beyond the end of the chunk at %" G_GUINT64_FORMAT "; the rest of the chunk is skipped",
                           size, c->info.file_offset + usable);
          else
            jfr_file_warn (file, c->position, at, "record",
                           "the file ends at %" G_GUINT64_FORMAT " inside the record at %" G_GUINT64_FORMAT " (declared %" G_GUINT64_FORMAT " bytes)",
                           c->info.file_offset + usable, at, size);
        }
      return FALSE;
    }
  out->pos = pos;
  out->size = size;
  out->type = type;
  out->head = head;
  return TRUE;
}

gint64
jfr_chunk_prescan (JvmsJfrFile *file, JfrChunk *c, GArray *outliers, JfrScratch *scratch)
{
  gsize copy_cap = 0;
  guint8 *copy = chunk_copy (file, c, scratch, &copy_cap);
  const guint8 *base = copy ? copy : file->data + c->info.file_offset;
  gint64 min_ticks = G_MAXINT64;
  GArray *checkpoints = c->checkpoints == NULL ? g_array_new (FALSE, FALSE, sizeof (JfrRecordSpan)) : NULL;
  RecordHead r;
  for (guint64 pos = JFR_HEADER_SIZE; pos < c->info.size && record_head (file, c, base, pos, FALSE, &r); pos += r.size)
    {
      if (r.type == 1 && checkpoints != NULL)
        {
          JfrRecordSpan span = { pos, r.size };
          g_array_append_val (checkpoints, span);
        }
      if (r.type < 2)
        continue;
      const JvmsJfrType *type = jfr_metadata_lookup (c->metadata, r.type);
      if (type == NULL || r.size - r.head < type->min_bytes)
        continue;
      gint64 t = record_start_ticks (base, &r, type, c->info.compressed_integers,
                                     c->info.start_ticks);
      if (t < c->info.start_ticks)
        {
          JfrOutlier o = { c->info.index, pos, r.size, t, jvms_jfr_chunk_ticks_to_epoch_ns (&c->info, t) };
          g_array_append_val (outliers, o);
        }
      else if (t < min_ticks)
        min_ticks = t;
    }
  if (checkpoints != NULL)
    c->checkpoints = checkpoints;
  if (copy != NULL)
    scratch_give (scratch, copy, copy_cap);
  return min_ticks != G_MAXINT64 ? jvms_jfr_chunk_ticks_to_epoch_ns (&c->info, min_ticks) : G_MAXINT64;
}

JfrLoaded *
jfr_loaded_new (JvmsJfrFile *file, JfrChunk *c, JfrLoadMode mode, JfrScratch *scratch)
{
  gboolean warn = !c->warned;
  static guint64 loads;   /* every reader's, in every thread */
  JfrLoaded *loaded = g_new0 (JfrLoaded, 1);
  loaded->file = file;
  loaded->chunk = c;
  loaded->load = __atomic_add_fetch (&loads, 1, __ATOMIC_RELAXED);
  loaded->md = c->metadata;
  loaded->scratch_pool = scratch;
  gboolean sparse = mode == JFR_LOAD_POOLS_ONLY && c->checkpoints != NULL;
  if (sparse && file->fd >= 0)
    {
      loaded->copy = chunk_sparse (file, c, &loaded->copy_cap);
      loaded->copy_mapped = loaded->copy != NULL;
    }
  if (loaded->copy == NULL)
    loaded->copy = chunk_copy (file, c, scratch, &loaded->copy_cap);
  loaded->base = loaded->copy ? loaded->copy : file->data + c->info.file_offset;
  loaded->end = loaded->base + c->info.size;
  loaded->compressed = c->info.compressed_integers;
  loaded->pools = g_new0 (JfrPool *, c->metadata->n_types);
  loaded->arena = jfr_arena_new ();
  loaded->scratch = g_string_new (NULL);

  /* about one event per 16 bytes: rarely regrown; untouched capacity costs no memory */
  guint64 cap = 0;
  if (mode != JFR_LOAD_POOLS_ONLY)
    {
      gsize bytes;
      loaded->index = scratch_take (scratch, MAX (c->info.size / 16, 1024) * sizeof (JfrIndexEntry),
                                    &bytes);
      cap = bytes / sizeof (JfrIndexEntry);
    }
  RecordHead r;
  if (sparse)
    {
      /* the prescan found them: no need to walk the events again */
      for (guint i = 0; i < c->checkpoints->len; i++)
        {
          guint64 pos = g_array_index (c->checkpoints, JfrRecordSpan, i).pos;
          if (pos < c->info.size && record_head (file, c, loaded->base, pos, FALSE, &r) && r.type == 1)
            read_checkpoint (loaded, pos, loaded->base + pos + r.size, warn);
        }
      loaded->warn = FALSE;
      pools_finish (loaded);
      return loaded;
    }
  guint64 short_records = 0, first_short = 0;
  const JvmsJfrType *first_short_type = NULL;
  for (guint64 pos = JFR_HEADER_SIZE;
       pos < c->info.size && record_head (file, c, loaded->base, pos, warn, &r);
       pos += r.size)
    {
      if (r.type == 0)
        continue;
      if (r.type == 1)
        {
          read_checkpoint (loaded, pos, loaded->base + pos + r.size, warn);
          continue;
        }
      if (mode == JFR_LOAD_POOLS_ONLY)
        continue;
      const JvmsJfrType *type = jfr_metadata_lookup (loaded->md, r.type);
      if (type == NULL)
        {
          if (loaded->unknown_types++ == 0)
            loaded->first_unknown_type = r.type;
          continue;
        }
      if (r.size - r.head < type->min_bytes)
        {
          if (short_records++ == 0)
            {
              first_short = pos;
              first_short_type = type;
            }
          continue;
        }
      gint64 ticks = record_start_ticks (loaded->base, &r, type, loaded->compressed,
                                         c->info.start_ticks);
      if (mode == JFR_LOAD_TIME_BODY && ticks < c->info.start_ticks)
        continue;   /* delivered from the reader's outlier list */
      if (loaded->n_events == cap)
        {
          gsize bytes;
          JfrIndexEntry *bigger = buffer_alloc (cap * 2 * sizeof *bigger, &bytes);
          memcpy (bigger, loaded->index, cap * sizeof *bigger);
          g_aligned_free (loaded->index);
          loaded->index = bigger;
          cap = bytes / sizeof *bigger;
        }
      loaded->index[loaded->n_events].ticks = ticks;
      loaded->index[loaded->n_events].offset = pos;
      loaded->n_events++;
    }
  loaded->index_cap = cap;
  pools_finish (loaded);
  if (short_records > 0 && warn)
    jfr_file_warn (file, c->position, c->info.file_offset + first_short, "event",
                   "%" G_GUINT64_FORMAT " records of %s (this one first) are shorter than the %" G_GUINT64_FORMAT " bytes its fields take at least; skipped",
                   short_records, first_short_type->name, first_short_type->min_bytes);
  if (loaded->unknown_types > 0 && warn)
    jfr_file_warn (file, c->position, c->info.file_offset, "record",
                   "%" G_GUINT64_FORMAT " records of a type the metadata does not declare (first: %" G_GUINT64_FORMAT ") skipped",
                   loaded->unknown_types, loaded->first_unknown_type);
  if (mode == JFR_LOAD_TIME_ALL || mode == JFR_LOAD_TIME_BODY)
    sort_index (loaded->index, loaded->n_events, scratch);
  if (warn)
    c->warned = TRUE;
  loaded->warn = warn;
  return loaded;
}

gboolean
jfr_loaded_fetch (JfrLoaded *loaded, guint64 offset, guint64 size)
{
  guint64 held = (guint64) (loaded->end - loaded->base);
  if (offset > held || size > held - offset)
    return FALSE;
  if (!loaded->copy_mapped)
    return TRUE;
  guint64 got = jfr_file_read (loaded->file, loaded->copy + offset,
                               loaded->chunk->info.file_offset + offset, size);
  return got == size;
}

void
jfr_loaded_free (JfrLoaded *loaded)
{
  if (loaded == NULL)
    return;
  /* HotSpot itself leaves a few dangling references in complete chunks (a thread that ended
   * before its constant was written): those read as null, like the JDK reads them. In a cut
   * or unfinished chunk they mean lost constants, which the user should know about. */
  if (loaded->unresolved > 0 && !loaded->chunk->info.complete && loaded->warn)
    jfr_file_warn (loaded->file, loaded->chunk->position, loaded->chunk->info.file_offset,
                   "constant pool",
                   "%" G_GUINT64_FORMAT " references to constants that the chunk does not define (read as null): their checkpoints were lost",
                   loaded->unresolved);
  for (guint i = 0; i < loaded->md->n_types; i++)
    if (loaded->pools[i] != NULL)
      {
        g_free (loaded->pools[i]->slots);
        g_free (loaded->pools[i]->dense);
        g_free (loaded->pools[i]);
      }
  g_free (loaded->pools);
  scratch_give (loaded->scratch_pool, g_steal_pointer (&loaded->index),
                loaded->index_cap * sizeof (JfrIndexEntry));
  jfr_arena_free (loaded->arena);
  g_string_free (loaded->scratch, TRUE);
  if (loaded->copy_mapped)
    munmap (loaded->copy, loaded->copy_cap);
  else if (loaded->copy != NULL)
    scratch_give (loaded->scratch_pool, loaded->copy, loaded->copy_cap);
  g_free (loaded);
}
