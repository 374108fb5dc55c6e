/* jvms-jfr-safepoints.c: see jvms-jfr-safepoints.h. */
#include "jvms-jfr-safepoints.h"

#include <stdlib.h>

#define NONE G_MININT64
/* A SafepointEnd starts microseconds after its operation ends; one not come a millisecond after
 * is not recorded (disabled, or below its threshold). */
#define END_GRACE_NS (1000 * 1000)

struct _JvmsSafepoints
{
  JvmsSafepointFunc done;
  gpointer          user_data;
  GHashTable       *open;      /* id -> JvmsSafepoint*, operation owned */
  guint             n_waiting; /* open ones with an operation, waiting for their end */
};

static void
safepoint_free (gpointer data)
{
  JvmsSafepoint *sp = data;
  g_free ((char *) sp->operation);
  g_free (sp);
}

JvmsSafepoints *
jvms_safepoints_new (JvmsSafepointFunc done, gpointer user_data)
{
  JvmsSafepoints *self = g_new0 (JvmsSafepoints, 1);
  self->done = done;
  self->user_data = user_data;
  self->open = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, safepoint_free);
  return self;
}

void
jvms_safepoints_free (JvmsSafepoints *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->open);
  g_free (self);
}

static JvmsSafepoint *
get (JvmsSafepoints *self, gint64 id)
{
  JvmsSafepoint *sp = g_hash_table_lookup (self->open, &id);
  if (sp != NULL)
    return sp;
  /* A hostile file cannot grow the table: ids that never end are bounded. */
  if (g_hash_table_size (self->open) >= JVMS_SAFEPOINTS_MAX)
    return NULL;
  sp = g_new0 (JvmsSafepoint, 1);
  sp->id = id;
  sp->begin_start = sp->begin_end = sp->sync_start = sp->sync_end = NONE;
  sp->op_start = sp->op_end = sp->end_start = sp->end_end = NONE;
  g_hash_table_insert (self->open, &sp->id, sp);
  return sp;
}

static void
add_phase (JvmsSafepoint *sp, gint64 *cursor, const char *name, gint64 start, gint64 end)
{
  start = MAX (start, *cursor);
  if (end <= start)
    return;
  sp->phases[sp->n_phases++] = (JvmsSafepointPhase) { name, start, end };
  *cursor = end;
}

static gint64
first_known (gint64 a, gint64 b, gint64 c, gint64 d)
{
  return a != NONE ? a : b != NONE ? b : c != NONE ? c : d;
}

/* The whole safepoint, where its threads are stopped, and its phases. */
static void
compute (JvmsSafepoint *sp)
{
  sp->start = G_MAXINT64;
  sp->end = G_MININT64;
  const gint64 starts[] = { sp->begin_start, sp->sync_start, sp->op_start, sp->end_start };
  const gint64 ends[] = { sp->begin_end, sp->sync_end, sp->op_end, sp->end_end };
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    {
      if (starts[i] != NONE)
        sp->start = MIN (sp->start, starts[i]);
      if (ends[i] != NONE)
        sp->end = MAX (sp->end, ends[i]);
    }
  sp->end = MAX (sp->end, sp->start);
  /* Without its synchronisation event, SafepointBegin (which lasts until every thread arrived)
   * is the synchronisation. */
  gint64 sync_start = first_known (sp->sync_start, sp->begin_start, NONE, NONE);
  gint64 sync_end = sp->sync_start != NONE ? sp->sync_end : sp->begin_end;
  sp->stop_start = first_known (sync_start, sp->op_start, sp->end_start, sp->start);
  sp->n_phases = 0;
  gint64 cursor = sp->start;
  if (sp->begin_start != NONE)
    add_phase (sp, &cursor, JVMS_SAFEPOINT_PHASE_BEGIN, sp->begin_start, sp->stop_start);
  if (sync_start != NONE)
    add_phase (sp, &cursor, JVMS_SAFEPOINT_PHASE_SYNCHRONIZING, sync_start, sync_end);
  /* The operation phase is all the stopped time between the synchronisation and the resume
   * (HotSpot's cleanup before the operation included), so that the phases tile the stop. */
  gint64 op_end = sp->end_start != NONE ? sp->end_start : sp->op_end;
  gint64 op_start = sync_start != NONE ? cursor : sp->op_start;
  if (op_end != NONE && op_start != NONE)
    add_phase (sp, &cursor, JVMS_SAFEPOINT_PHASE_OPERATION, op_start, op_end);
  if (sp->end_start != NONE)
    add_phase (sp, &cursor, JVMS_SAFEPOINT_PHASE_RESUMING, sp->end_start, sp->end_end);
}

static void
complete (JvmsSafepoints *self, JvmsSafepoint *sp)
{
  if (sp->op_start != NONE && sp->end_start == NONE)
    self->n_waiting--;
  compute (sp);
  self->done (sp, self->user_data);
  g_hash_table_remove (self->open, &sp->id);
}

void
jvms_safepoints_begin (JvmsSafepoints *self, gint64 id, gint64 start, gint64 end)
{
  JvmsSafepoint *sp = get (self, id);
  if (sp == NULL)
    return;
  sp->begin_start = start;
  sp->begin_end = MAX (end, start);
}

void
jvms_safepoints_sync (JvmsSafepoints *self, gint64 id, gint64 start, gint64 end)
{
  JvmsSafepoint *sp = get (self, id);
  if (sp == NULL)
    return;
  sp->sync_start = start;
  sp->sync_end = MAX (end, start);
}

void
jvms_safepoints_operation (JvmsSafepoints *self, gint64 id, gint64 start, gint64 end,
                           const char *operation)
{
  JvmsSafepoint *sp = get (self, id);
  if (sp == NULL)
    return;
  /* An operation run inside another one's safepoint: the outer one names it. */
  if (sp->op_start != NONE)
    {
      sp->op_end = MAX (sp->op_end, end);
      return;
    }
  sp->op_start = start;
  sp->op_end = MAX (end, start);
  sp->operation = g_strdup (operation);
  if (sp->end_start == NONE)
    self->n_waiting++;
}

void
jvms_safepoints_end (JvmsSafepoints *self, gint64 id, gint64 start, gint64 end)
{
  JvmsSafepoint *sp = get (self, id);
  if (sp == NULL)
    return;
  if (sp->op_start != NONE)
    self->n_waiting--;
  sp->end_start = start;
  sp->end_end = MAX (end, start);
  /* Its last event: done (n_waiting was counted down above, complete() must not again). */
  compute (sp);
  self->done (sp, self->user_data);
  g_hash_table_remove (self->open, &id);
}

static gint
compare_start (gconstpointer a, gconstpointer b)
{
  const JvmsSafepoint *x = *(JvmsSafepoint * const *) a, *y = *(JvmsSafepoint * const *) b;
  gint64 xs = first_known (x->begin_start, x->sync_start, x->op_start, 0);
  gint64 ys = first_known (y->begin_start, y->sync_start, y->op_start, 0);
  return (xs > ys) - (xs < ys);
}

/* The open safepoints that @keep selects, in start order. */
static GPtrArray *
sorted_open (JvmsSafepoints *self, gboolean (*keep) (const JvmsSafepoint *, gint64), gint64 time)
{
  GPtrArray *out = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, self->open);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (keep (value, time))
      g_ptr_array_add (out, value);
  g_ptr_array_sort (out, compare_start);
  return out;
}

static gboolean
overdue (const JvmsSafepoint *sp, gint64 time)
{
  return sp->op_start != NONE && sp->end_start == NONE && time - sp->op_end > END_GRACE_NS;
}

void
jvms_safepoints_advance (JvmsSafepoints *self, gint64 time)
{
  if (self->n_waiting == 0)
    return;
  g_autoptr(GPtrArray) due = sorted_open (self, overdue, time);
  for (guint i = 0; i < due->len; i++)
    complete (self, g_ptr_array_index (due, i));
}

static gboolean
has_operation (const JvmsSafepoint *sp, gint64 time)
{
  (void) time;
  return sp->op_start != NONE;
}

static gboolean
any (const JvmsSafepoint *sp, gint64 time)
{
  (void) sp;
  (void) time;
  return TRUE;
}

void
jvms_safepoints_finish (JvmsSafepoints *self, JvmsSafepointFunc unfinished, gpointer user_data)
{
  g_autoptr(GPtrArray) ops = sorted_open (self, has_operation, 0);
  for (guint i = 0; i < ops->len; i++)
    complete (self, g_ptr_array_index (ops, i));
  g_autoptr(GPtrArray) rest = sorted_open (self, any, 0);
  for (guint i = 0; i < rest->len; i++)
    {
      JvmsSafepoint *sp = g_ptr_array_index (rest, i);
      compute (sp);
      if (unfinished != NULL)
        unfinished (sp, user_data);
    }
  g_hash_table_remove_all (self->open);
  self->n_waiting = 0;
}
