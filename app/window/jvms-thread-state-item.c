/* jvms-thread-state-item.c: one thread of the side panel's thread-state list. */
#include "config.h"

#include "jvms-thread-state-item.h"

struct _JvmsThreadStateItem
{
  GObject    parent_instance;
  char      *name;
  GPtrArray *all;      /* the statistics' rows (a reference) */
  GArray    *mine;     /* of guint: this thread's indices in @all */
  int        cpu_rank; /* which of on_cpu_keys gave on_cpu (lower is preferred), G_MAXINT none */
  gint64     on_cpu;
};

G_DEFINE_FINAL_TYPE (JvmsThreadStateItem, jvms_thread_state_item, G_TYPE_OBJECT)

/* The keys that say a thread was on a CPU, the most exact first (range-stats' key names). */
static const char * const on_cpu_keys[] = { "kernel:running", "java:running", "estimated:cpu" };

JvmsThreadStateItem *
jvms_thread_state_item_new (const char *subject, GPtrArray *rows)
{
  JvmsThreadStateItem *self = g_object_new (JVMS_TYPE_THREAD_STATE_ITEM, NULL);
  self->name = g_strdup (subject);
  self->all = g_ptr_array_ref (rows);
  return self;
}

void
jvms_thread_state_item_add_row (JvmsThreadStateItem *self, guint index)
{
  g_return_if_fail (JVMS_IS_THREAD_STATE_ITEM (self));
  g_return_if_fail (index < self->all->len);

  const JvmsStatRow *row = g_ptr_array_index (self->all, index);
  g_array_append_val (self->mine, index);
  if (g_strcmp0 (row->unit, "ns") != 0)
    return; /* sample counts, not a time on a CPU */
  for (int k = 0; k < (int) G_N_ELEMENTS (on_cpu_keys) && k < self->cpu_rank; k++)
    if (g_strcmp0 (row->key, on_cpu_keys[k]) == 0)
      {
        self->cpu_rank = k;
        self->on_cpu = (gint64) row->value;
      }
}

const char *
jvms_thread_state_item_get_name (JvmsThreadStateItem *self)
{
  g_return_val_if_fail (JVMS_IS_THREAD_STATE_ITEM (self), NULL);
  return self->name;
}

gint64
jvms_thread_state_item_get_on_cpu (JvmsThreadStateItem *self)
{
  g_return_val_if_fail (JVMS_IS_THREAD_STATE_ITEM (self), 0);
  return self->on_cpu;
}

guint
jvms_thread_state_item_get_n_rows (JvmsThreadStateItem *self)
{
  g_return_val_if_fail (JVMS_IS_THREAD_STATE_ITEM (self), 0);
  return self->mine->len;
}

const JvmsStatRow *
jvms_thread_state_item_get_row (JvmsThreadStateItem *self, guint i)
{
  g_return_val_if_fail (JVMS_IS_THREAD_STATE_ITEM (self), NULL);
  g_return_val_if_fail (i < self->mine->len, NULL);
  return g_ptr_array_index (self->all, g_array_index (self->mine, guint, i));
}

static void
jvms_thread_state_item_finalize (GObject *object)
{
  JvmsThreadStateItem *self = JVMS_THREAD_STATE_ITEM (object);
  g_free (self->name);
  g_ptr_array_unref (self->all);
  g_array_unref (self->mine);
  G_OBJECT_CLASS (jvms_thread_state_item_parent_class)->finalize (object);
}

static void
jvms_thread_state_item_class_init (JvmsThreadStateItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jvms_thread_state_item_finalize;
}

static void
jvms_thread_state_item_init (JvmsThreadStateItem *self)
{
  self->mine = g_array_new (FALSE, FALSE, sizeof (guint));
  self->cpu_rank = G_MAXINT;
}
