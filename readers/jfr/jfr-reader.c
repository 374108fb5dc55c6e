/* jfr-reader.c: events of a file in time order across chunks.
 *
 * Each chunk is loaded (pools + index sorted by start time) when the merge needs it: chunk k
 * joins once the next event to deliver is not earlier than the earliest event of chunk k,
 * known from a cheap framing pass done when the reader is created. Duration events that
 * started before a rotation sit in the later chunk with an early start time, which is why a
 * chunk may have to join before the previous one is done. A chunk is freed (and its pages
 * dropped) once its last event has been delivered.
 */
#include <string.h>

#include "jfr-chunk.h"

struct _JvmsJfrReader
{
  JvmsJfrFile  *file;
  JvmsJfrOrder  order;
  guint         n_chunks;
  gint64       *min_ns;        /* per chunk, ORDER_TIME only */
  guint        *join_order;    /* chunk indexes by min_ns */
  guint         next_join;     /* position in join_order (or next chunk in file order) */
  GPtrArray    *active;        /* JfrLoaded * */
  JfrLoaded    *finished;      /* exhausted: freed at the next call */
  JfrArena     *event_arena;
  JvmsJfrEvent  event;
  guint32      *offsets;
  guint         offsets_cap;
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

JvmsJfrReader *
jvms_jfr_reader_new (JvmsJfrFile *file, JvmsJfrOrder order)
{
  g_return_val_if_fail (file != NULL, NULL);
  JvmsJfrReader *r = g_new0 (JvmsJfrReader, 1);
  r->file = jvms_jfr_file_ref (file);
  r->order = order;
  r->n_chunks = file->chunks->len;
  r->active = g_ptr_array_new ();
  r->event_arena = jfr_arena_new ();
  r->join_order = g_new (guint, r->n_chunks + 1);
  for (guint i = 0; i < r->n_chunks; i++)
    r->join_order[i] = i;
  if (order == JVMS_JFR_ORDER_TIME && r->n_chunks > 1)
    {
      r->min_ns = g_new (gint64, r->n_chunks);
      for (guint i = 0; i < r->n_chunks; i++)
        r->min_ns[i] = jfr_chunk_min_start_ns (file, g_ptr_array_index (file->chunks, i));
      g_qsort_with_data (r->join_order, (gint) r->n_chunks, sizeof (guint), compare_min, r->min_ns);
    }
  return r;
}

void
jvms_jfr_reader_free (JvmsJfrReader *r)
{
  if (r == NULL)
    return;
  jfr_loaded_free (r->finished);
  for (guint i = 0; i < r->active->len; i++)
    jfr_loaded_free (g_ptr_array_index (r->active, i));
  g_ptr_array_unref (r->active);
  jfr_arena_free (r->event_arena);
  g_free (r->min_ns);
  g_free (r->join_order);
  g_free (r->offsets);
  jvms_jfr_file_unref (r->file);
  g_free (r);
}

static void
join_next (JvmsJfrReader *r)
{
  guint index = r->join_order[r->next_join++];
  JfrLoaded *loaded = jfr_loaded_new (r->file, g_ptr_array_index (r->file->chunks, index),
                                      r->order == JVMS_JFR_ORDER_FILE);
  loaded->event_arena = r->event_arena;
  g_ptr_array_add (r->active, loaded);
}

static inline gint64
head_ns (const JfrLoaded *loaded)
{
  return jvms_jfr_chunk_ticks_to_epoch_ns (&loaded->chunk->info,
                                           loaded->index[loaded->cursor].ticks);
}

const JvmsJfrEvent *
jvms_jfr_reader_next (JvmsJfrReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);
  g_clear_pointer (&r->finished, jfr_loaded_free);
  jfr_arena_reset (r->event_arena);

  JfrLoaded *best = NULL;
  guint best_i = 0;
  for (;;)
    {
      best = NULL;
      gint64 best_ns = G_MAXINT64;
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
      if (r->next_join >= r->n_chunks)
        break;
      if (best != NULL)
        {
          if (r->order == JVMS_JFR_ORDER_FILE)
            break;
          if (r->min_ns == NULL || r->min_ns[r->join_order[r->next_join]] > best_ns)
            break;
        }
      join_next (r);
      /* a chunk without events leaves at once */
      JfrLoaded *l = g_ptr_array_index (r->active, r->active->len - 1);
      if (l->n_events == 0)
        {
          g_ptr_array_remove_index (r->active, r->active->len - 1);
          jfr_loaded_free (l);
        }
    }
  if (best == NULL)
    return NULL;

  JvmsJfrEvent *e = &r->event;
  const JfrIndexEntry *ie = &best->index[best->cursor++];
  const guint8 *record = best->base + ie->offset;
  JfrIn in;
  jfr_in_init (&in, record, best->end, best->compressed);
  guint64 size = jfr_in_int (&in, 4);
  guint64 type_id = jfr_in_long (&in);
  e->reader = r;
  e->loaded = best;
  e->type = jfr_metadata_lookup (best->md, type_id);
  e->payload = in.p;
  e->end = record + size;   /* checked when the chunk was indexed */
  e->file_offset = best->chunk->info.file_offset + ie->offset;
  e->start_ticks = ie->ticks;
  e->start_ns = jvms_jfr_chunk_ticks_to_epoch_ns (&best->chunk->info, ie->ticks);
  e->offsets_state = 0;
  if (e->type->n_fields > r->offsets_cap)
    {
      r->offsets_cap = e->type->n_fields;
      r->offsets = g_renew (guint32, r->offsets, r->offsets_cap);
    }
  e->offsets = r->offsets;

  if (best->cursor == best->n_events)
    {
      g_ptr_array_remove_index (r->active, best_i);
      r->finished = best;
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
      if (!jfr_skip_value (&in, f->type, f->array, f->constant_pool))
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
}

const JvmsJfrType *jvms_jfr_event_get_type (const JvmsJfrEvent *e) { return e->type; }
const char *jvms_jfr_event_get_type_name (const JvmsJfrEvent *e) { return e->type->name; }
const char *jvms_jfr_event_get_type_label (const JvmsJfrEvent *e) { return e->type->label; }
const JvmsJfrChunkInfo *jvms_jfr_event_get_chunk (const JvmsJfrEvent *e) { return &e->loaded->chunk->info; }
guint64 jvms_jfr_event_get_file_offset (const JvmsJfrEvent *e) { return e->file_offset; }
gint64 jvms_jfr_event_get_start_ticks (const JvmsJfrEvent *e) { return e->start_ticks; }
gint64 jvms_jfr_event_get_start_ns (const JvmsJfrEvent *e) { return e->start_ns; }

gint64
jvms_jfr_event_get_duration_ns (const JvmsJfrEvent *e)
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
