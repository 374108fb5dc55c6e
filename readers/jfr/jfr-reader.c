/* jfr-reader.c: events of a file in time order across chunks.
 *
 * Each chunk's events are indexed and sorted by start time when the merge needs them: the
 * body of chunk k (its events that start at or after the chunk start) joins once the next
 * event to deliver is not earlier than the earliest of them, known from a cheap framing pass
 * done when the reader is created. Events that start before their chunk (a sleep spanning a
 * rotation; jdk.ActiveRecording, which every chunk repeats with the recording's start time)
 * are collected by that pass into one sorted outlier list and delivered from there, with only
 * the constant pools of their chunk loaded for the moment. So the memory in use stays near
 * one or two chunks' worth however many chunks the file has. A chunk is freed (and its pages
 * dropped) once its last event has been delivered.
 */
#include <string.h>

#include "jfr-chunk.h"

struct _JvmsJfrReader
{
  JvmsJfrFile  *file;
  JvmsJfrOrder  order;
  guint         n_chunks;
  gint64       *min_ns;        /* per chunk: earliest body event (ORDER_TIME, several chunks) */
  guint        *join_order;    /* chunk indexes by min_ns */
  guint         next_join;     /* position in join_order */
  GArray       *outliers;      /* JfrOutlier, sorted by time */
  guint         next_outlier;
  guint        *outliers_left; /* per chunk */
  JfrLoaded   **pools_only;    /* per chunk: constants loaded for its outliers */
  GPtrArray    *active;        /* JfrLoaded * bodies being merged */
  GPtrArray    *to_free;       /* exhausted: freed at the next call */
  JfrArena     *event_arena;
  JvmsJfrEvent  event;
  guint32      *offsets;
  guint         offsets_cap;
  JfrScratch    scratch;
};

static int
compare_min (const void *a, const void *b, void *data)
{
  const gint64 *min = data;
  gint64 x = min[*(const guint *) a], y = min[*(const guint *) b];
  if (x != y)
    return x < y ? -1 : 1;
  return (int) *(const guint *) a - (int) *(const guint *) b;
}

static int
compare_outliers (gconstpointer a, gconstpointer b)
{
  const JfrOutlier *x = a, *y = b;
  if (x->ns != y->ns)
    return x->ns < y->ns ? -1 : 1;
  if (x->chunk != y->chunk)
    return x->chunk < y->chunk ? -1 : 1;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

JvmsJfrReader *
jvms_jfr_reader_new (JvmsJfrFile *file, JvmsJfrOrder order)
{
  g_return_val_if_fail (file != NULL, NULL);
  JvmsJfrReader *r = g_new0 (JvmsJfrReader, 1);
  r->file = jvms_jfr_file_ref (file);
  r->order = order;
  r->n_chunks = file->chunks->len;
  r->active = g_ptr_array_new ();
  r->to_free = g_ptr_array_new ();
  r->event_arena = jfr_arena_new ();
  r->join_order = g_new (guint, r->n_chunks + 1);
  r->outliers = g_array_new (FALSE, FALSE, sizeof (JfrOutlier));
  r->outliers_left = g_new0 (guint, r->n_chunks + 1);
  r->pools_only = g_new0 (JfrLoaded *, r->n_chunks + 1);
  for (guint i = 0; i < r->n_chunks; i++)
    r->join_order[i] = i;
  if (order == JVMS_JFR_ORDER_TIME && r->n_chunks > 1)
    {
      r->min_ns = g_new (gint64, r->n_chunks);
      for (guint i = 0; i < r->n_chunks; i++)
        r->min_ns[i] = jfr_chunk_prescan (file, g_ptr_array_index (file->chunks, i), r->outliers,
                                          &r->scratch);
      g_qsort_with_data (r->join_order, (gint) r->n_chunks, sizeof (guint), compare_min, r->min_ns);
      g_array_sort (r->outliers, compare_outliers);
      for (guint i = 0; i < r->outliers->len; i++)
        r->outliers_left[g_array_index (r->outliers, JfrOutlier, i).chunk]++;
    }
  return r;
}

static void
free_pending (JvmsJfrReader *r)
{
  for (guint i = 0; i < r->to_free->len; i++)
    jfr_loaded_free (g_ptr_array_index (r->to_free, i));
  g_ptr_array_set_size (r->to_free, 0);
}

void
jvms_jfr_reader_free (JvmsJfrReader *r)
{
  if (r == NULL)
    return;
  free_pending (r);
  g_ptr_array_unref (r->to_free);
  for (guint i = 0; i < r->active->len; i++)
    jfr_loaded_free (g_ptr_array_index (r->active, i));
  g_ptr_array_unref (r->active);
  for (guint i = 0; i < r->n_chunks; i++)
    jfr_loaded_free (r->pools_only[i]);
  g_free (r->pools_only);
  g_free (r->outliers_left);
  g_array_unref (r->outliers);
  jfr_arena_free (r->event_arena);
  g_free (r->min_ns);
  g_free (r->join_order);
  g_free (r->offsets);
  jfr_scratch_clear (&r->scratch);
  jvms_jfr_file_unref (r->file);
  g_free (r);
}

static JfrLoaded *
load (JvmsJfrReader *r, guint index, JfrLoadMode mode)
{
  JfrLoaded *loaded = jfr_loaded_new (r->file, g_ptr_array_index (r->file->chunks, index), mode,
                                      &r->scratch);
  loaded->event_arena = r->event_arena;
  return loaded;
}

static void
join_next (JvmsJfrReader *r)
{
  guint index = r->join_order[r->next_join++];
  JfrLoadMode mode = r->order == JVMS_JFR_ORDER_FILE ? JFR_LOAD_FILE_ORDER
                     : r->min_ns != NULL ? JFR_LOAD_TIME_BODY : JFR_LOAD_TIME_ALL;
  JfrLoaded *loaded = load (r, index, mode);
  if (loaded->n_events == 0)
    jfr_loaded_free (loaded);
  else
    g_ptr_array_add (r->active, loaded);
}

static inline gint64
head_ns (const JfrLoaded *loaded)
{
  return jvms_jfr_chunk_ticks_to_epoch_ns (&loaded->chunk->info,
                                           loaded->index[loaded->cursor].ticks);
}

static const JvmsJfrEvent *
make_event (JvmsJfrReader *r, JfrLoaded *from, guint64 offset, gint64 ticks)
{
  JvmsJfrEvent *e = &r->event;
  const guint8 *record = from->base + offset;
  JfrIn in;
  jfr_in_init (&in, record, from->end, from->compressed);
  guint64 size = jfr_in_int (&in, 4);
  guint64 type_id = jfr_in_long (&in);
  e->reader = r;
  e->loaded = from;
  e->type = jfr_metadata_lookup (from->md, type_id);
  e->payload = in.p;
  e->end = record + size;   /* checked when the chunk was indexed */
  e->file_offset = from->chunk->info.file_offset + offset;
  e->start_ticks = ticks;
  e->start_ns = jvms_jfr_chunk_ticks_to_epoch_ns (&from->chunk->info, ticks);
  e->offsets_state = 0;
  e->duration_known = FALSE;
  if (e->type->n_fields > r->offsets_cap)
    {
      r->offsets_cap = e->type->n_fields;
      r->offsets = g_renew (guint32, r->offsets, r->offsets_cap);
    }
  e->offsets = r->offsets;
  return e;
}

/* Whether the record at chunk-relative @offset lies wholly in what @loaded holds. */
static gboolean
record_fits (const JfrLoaded *loaded, guint64 offset)
{
  if (offset >= (guint64) (loaded->end - loaded->base))
    return FALSE;
  JfrIn in;
  jfr_in_init (&in, loaded->base + offset, loaded->end, loaded->compressed);
  guint64 size = jfr_in_int (&in, 4);
  jfr_in_long (&in);
  return !in.bad && size <= (guint64) (loaded->end - loaded->base) - offset
         && size >= (guint64) (in.p - (loaded->base + offset));
}

static const JvmsJfrEvent *
next_outlier (JvmsJfrReader *r)
{
  const JfrOutlier *o = &g_array_index (r->outliers, JfrOutlier, r->next_outlier++);
  JfrLoaded *from = NULL;
  for (guint i = 0; i < r->active->len && from == NULL; i++)
    {
      JfrLoaded *l = g_ptr_array_index (r->active, i);
      if (l->chunk->info.index == o->chunk)
        from = l;
    }
  if (from == NULL)
    {
      if (r->pools_only[o->chunk] == NULL)
        r->pools_only[o->chunk] = load (r, o->chunk, JFR_LOAD_POOLS_ONLY);
      from = r->pools_only[o->chunk];
    }
  /* the prescan saw the record, but the file may have shrunk since (jfr-io.c warned) */
  const JvmsJfrEvent *e = jfr_loaded_fetch (from, o->offset, o->size) && record_fits (from, o->offset)
                          ? make_event (r, from, o->offset, o->ticks) : NULL;
  if (--r->outliers_left[o->chunk] == 0 && r->pools_only[o->chunk] != NULL)
    {
      g_ptr_array_add (r->to_free, r->pools_only[o->chunk]);
      r->pools_only[o->chunk] = NULL;
    }
  return e;
}

const JvmsJfrEvent *
jvms_jfr_reader_next (JvmsJfrReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);
  free_pending (r);
  jfr_arena_reset (r->event_arena);

again:;
  JfrLoaded *best = NULL;
  guint best_i = 0;
  gint64 best_ns = G_MAXINT64;
  for (;;)
    {
      best = NULL;
      best_ns = G_MAXINT64;
      for (guint i = 0; i < r->active->len; i++)
        {
          JfrLoaded *l = g_ptr_array_index (r->active, i);
          gint64 ns = head_ns (l);
          if (best == NULL || ns < best_ns || (ns == best_ns && l->chunk->info.index < best->chunk->info.index))
            {
              best = l;
              best_ns = ns;
              best_i = i;
            }
        }
      gboolean outlier = r->next_outlier < r->outliers->len;
      gint64 next_ns = best_ns;
      if (outlier)
        next_ns = MIN (next_ns, g_array_index (r->outliers, JfrOutlier, r->next_outlier).ns);
      if (r->next_join >= r->n_chunks)
        break;
      if (best != NULL || outlier)
        {
          if (r->order == JVMS_JFR_ORDER_FILE)
            break;
          if (r->min_ns == NULL || r->min_ns[r->join_order[r->next_join]] > next_ns)
            break;
        }
      join_next (r);
    }

  if (r->next_outlier < r->outliers->len
      && (best == NULL || g_array_index (r->outliers, JfrOutlier, r->next_outlier).ns <= best_ns))
    {
      const JvmsJfrEvent *e = next_outlier (r);
      if (e == NULL)
        goto again;   /* lost to a file that shrank: the next one */
      return e;
    }
  if (best == NULL)
    return NULL;

  const JfrIndexEntry *ie = &best->index[best->cursor++];
  const JvmsJfrEvent *e = make_event (r, best, ie->offset, ie->ticks);
  if (best->cursor == best->n_events)
    {
      g_ptr_array_remove_index (r->active, best_i);
      g_ptr_array_add (r->to_free, best);
    }
  return e;
}

gboolean
jfr_event_compute_offsets (JvmsJfrEvent *e)
{
  if (e->offsets_state != 0)
    return TRUE;
  JfrIn in;
  jfr_in_init (&in, e->payload, e->end, e->loaded->compressed);
  guint i = 0;
  for (; i < e->type->n_fields; i++)
    {
      const JvmsJfrField *f = &e->type->fields[i];
      e->offsets[i] = (guint32) (in.p - e->payload);
      if (!jfr_skip_field (&in, f))
        break;
    }
  /* fields at and after damage cannot be located */
  for (; i < e->type->n_fields; i++)
    e->offsets[i] = G_MAXUINT32;
  e->offsets_state = 1;
  return TRUE;
}
void
jvms_jfr_event_get_object (const JvmsJfrEvent *event, JvmsJfrObject *out)
{
  JvmsJfrEvent *e = (JvmsJfrEvent *) event;
  jfr_event_compute_offsets (e);
  out->type = e->type;
  out->priv_chunk = e->loaded;
  out->priv_data = e->payload;
  out->priv_end = e->end;
  out->priv_offsets = e->offsets;
  out->priv_entry = NULL;
}

const JvmsJfrType *jvms_jfr_event_get_type (const JvmsJfrEvent *e) { return e->type; }
const char *jvms_jfr_event_get_type_name (const JvmsJfrEvent *e) { return e->type->name; }
const char *jvms_jfr_event_get_type_label (const JvmsJfrEvent *e) { return e->type->label; }
const JvmsJfrChunkInfo *jvms_jfr_event_get_chunk (const JvmsJfrEvent *e) { return &e->loaded->chunk->info; }
guint64 jvms_jfr_event_get_file_offset (const JvmsJfrEvent *e) { return e->file_offset; }
guint64 jvms_jfr_event_get_load (const JvmsJfrEvent *e) { return e->loaded->load; }
gint64 jvms_jfr_event_get_start_ticks (const JvmsJfrEvent *e) { return e->start_ticks; }
gint64 jvms_jfr_event_get_start_ns (const JvmsJfrEvent *e) { return e->start_ns; }

static gint64
read_duration_ns (const JvmsJfrEvent *e)
{
  if (e->type->duration_field < 0)
    return 0;
  JfrIn in;
  jfr_in_init (&in, e->payload, e->end, e->loaded->compressed);
  if (e->type->start_field == 0 && e->type->duration_field == 1)
    jfr_in_long (&in);   /* the common layout: startTime, duration */
  else if (!jfr_skip_fields (&in, e->type, (guint) e->type->duration_field))
    return 0;
  gint64 ticks = (gint64) jfr_in_long (&in);
  if (in.bad)
    return 0;
  return jvms_jfr_chunk_ticks_to_ns (&e->loaded->chunk->info, ticks);
}

gint64
jvms_jfr_event_get_duration_ns (const JvmsJfrEvent *event)
{
  JvmsJfrEvent *e = (JvmsJfrEvent *) event;
  if (!e->duration_known)
    {
      e->duration_ns = read_duration_ns (e);
      e->duration_known = TRUE;
    }
  return e->duration_ns;
}

gint64
jvms_jfr_event_get_end_ns (const JvmsJfrEvent *e)
{
  gint64 end;
  if (__builtin_add_overflow (e->start_ns, jvms_jfr_event_get_duration_ns (e), &end))
    return G_MAXINT64;
  return end;
}

const JvmsJfrThread *
jvms_jfr_event_get_thread (const JvmsJfrEvent *e)
{
  if (e->type->thread_field < 0)
    return NULL;
  JvmsJfrObject o;
  const JvmsJfrThread *t = NULL;
  jvms_jfr_event_get_object (e, &o);
  return jvms_jfr_object_get_thread (&o, &e->type->fields[e->type->thread_field], &t) ? t : NULL;
}

const JvmsJfrStackTrace *
jvms_jfr_event_get_stack_trace (const JvmsJfrEvent *e)
{
  if (e->type->stack_field < 0)
    return NULL;
  JvmsJfrObject o;
  const JvmsJfrStackTrace *st = NULL;
  jvms_jfr_event_get_object (e, &o);
  return jvms_jfr_object_get_stack_trace (&o, &e->type->fields[e->type->stack_field], &st) ? st : NULL;
}

/* The pool key that field @index of @e holds (the field a pool reference) */
static gboolean
pool_key_at (JvmsJfrEvent *e, guint index, guint64 *key)
{
  jfr_event_compute_offsets (e);
  guint32 off = e->offsets[index];
  if (off == G_MAXUINT32)
    return FALSE;
  JfrIn in;
  jfr_in_init (&in, e->payload + off, e->end, e->loaded->compressed);
  guint64 k = jfr_in_long (&in);
  if (in.bad)
    return FALSE;
  *key = k;
  return TRUE;
}

gboolean
jvms_jfr_event_get_stack_trace_key (const JvmsJfrEvent *event, guint64 *key)
{
  JvmsJfrEvent *e = (JvmsJfrEvent *) event;
  if (e->type->stack_field < 0 || e->type->fields[e->type->stack_field].op != JFR_OP_POOL)
    return FALSE;
  return pool_key_at (e, (guint) e->type->stack_field, key);
}

gboolean
jvms_jfr_event_get_pool_key (const JvmsJfrEvent *event, const JvmsJfrField *field, guint64 *key)
{
  JvmsJfrEvent *e = (JvmsJfrEvent *) event;
  if (field == NULL || field->index >= e->type->n_fields || &e->type->fields[field->index] != field
      || field->op != JFR_OP_POOL)
    return FALSE;
  return pool_key_at (e, field->index, key);
}

#define EVENT_SHORTCUT(name, ctype) \
  gboolean jvms_jfr_event_get_##name (const JvmsJfrEvent *e, const JvmsJfrField *f, ctype out) \
  { \
    JvmsJfrObject o; \
    jvms_jfr_event_get_object (e, &o); \
    return jvms_jfr_object_get_##name (&o, f, out); \
  }

EVENT_SHORTCUT (int64, gint64 *)
EVENT_SHORTCUT (uint64, guint64 *)
EVENT_SHORTCUT (double, double *)
EVENT_SHORTCUT (boolean, gboolean *)
EVENT_SHORTCUT (string, const char **)
EVENT_SHORTCUT (class_name, const char **)
EVENT_SHORTCUT (time_ns, gint64 *)
EVENT_SHORTCUT (value, JvmsJfrValue *)

gboolean
jvms_jfr_event_get_thread_field (const JvmsJfrEvent *e, const JvmsJfrField *f,
                                 const JvmsJfrThread **out)
{
  JvmsJfrObject o;
  jvms_jfr_event_get_object (e, &o);
  return jvms_jfr_object_get_thread (&o, f, out);
}
