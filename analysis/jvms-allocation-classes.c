/* jvms-allocation-classes.c: a thread's allocations in a range, by class (see the header). */
#include "jvms-allocation-classes.h"

#include <string.h>

#include "jvms-event-query.h"

/* A type counted, with the fields its bytes and class are read from (-1: absent). */
typedef struct
{
  guint32 type;
  gint    klass;
  gint    size;      /* read first */
  gint    fallback;  /* when the row has no `size` value */
} Counted;

typedef struct
{
  const Counted *counted;
  guint          n_counted;
  GHashTable    *by_class;   /* class name (or "") -> JvmsAllocationClass * */
  JvmsAllocationClasses *out;
  guint          left;
} Scan;

static gint64
int_value (const JvmsEventRecord *r, gint field)
{
  const JvmsEventValue *v = field >= 0 ? jvms_event_record_find_value (r, (guint) field) : NULL;
  if (v == NULL || v->kind != JVMS_EVENT_VALUE_INT)
    return -1;
  return v->i;
}

static gboolean
count_row (const JvmsEventRecord *r, gpointer data)
{
  Scan *s = data;
  if (s->left == 0)
    {
      s->out->truncated = TRUE;
      return FALSE;
    }
  s->left--;
  const Counted *c = NULL;
  for (guint i = 0; i < s->n_counted && c == NULL; i++)
    if (s->counted[i].type == r->type)
      c = &s->counted[i];
  if (c == NULL)
    return TRUE;
  gint64 bytes = int_value (r, c->size);
  if (bytes < 0)
    bytes = int_value (r, c->fallback);
  const JvmsEventValue *k = c->klass >= 0 ? jvms_event_record_find_value (r, (guint) c->klass) : NULL;
  const char *name = k != NULL && k->kind == JVMS_EVENT_VALUE_STRING ? k->s : "";
  JvmsAllocationClass *entry = g_hash_table_lookup (s->by_class, name);
  if (entry == NULL)
    {
      entry = g_new0 (JvmsAllocationClass, 1);
      entry->class_name = *name != '\0' ? g_strdup (name) : NULL;
      g_hash_table_insert (s->by_class, g_strdup (name), entry);
    }
  entry->bytes += (guint64) MAX (bytes, 0);
  entry->events++;
  s->out->bytes += (guint64) MAX (bytes, 0);
  s->out->events++;
  return TRUE;
}

static gint
most_bytes_first (gconstpointer a, gconstpointer b)
{
  const JvmsAllocationClass *x = a, *y = b;
  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  return g_strcmp0 (x->class_name, y->class_name);
}

static void
class_clear (gpointer data)
{
  g_free (((JvmsAllocationClass *) data)->class_name);
}

static gboolean
add_type (JvmsEventStore *store, const char *name, const char *size, const char *fallback,
          Counted *out, guint *n)
{
  guint32 type = jvms_event_store_find_type (store, name);
  if (type == JVMS_EVENT_NONE || jvms_event_store_get_type (store, type)->n_rows == 0)
    return FALSE;
  out[*n] = (Counted) {
    type,
    jvms_event_store_find_field (store, type, "objectClass"),
    jvms_event_store_find_field (store, type, size),
    fallback != NULL ? jvms_event_store_find_field (store, type, fallback) : -1,
  };
  (*n)++;
  return TRUE;
}

JvmsAllocationClasses *
jvms_allocation_classes_read (JvmsEventStore *store, gint64 tid, gint64 from, gint64 to,
                              guint max_rows, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_autoptr(JvmsAllocationClasses) out = g_new0 (JvmsAllocationClasses, 1);
  out->classes = g_array_new (FALSE, TRUE, sizeof (JvmsAllocationClass));
  g_array_set_clear_func (out->classes, class_clear);

  /* As the index weighs them (jvms-jfr-machine.c): the samples when there are any. */
  Counted counted[2];
  guint n_counted = 0;
  if (!add_type (store, "jdk.ObjectAllocationSample", "weight", NULL, counted, &n_counted))
    {
      add_type (store, "jdk.ObjectAllocationInNewTLAB", "tlabSize", "allocationSize", counted, &n_counted);
      add_type (store, "jdk.ObjectAllocationOutsideTLAB", "tlabSize", "allocationSize", counted, &n_counted);
    }
  if (n_counted == 0 || from >= to)
    return g_steal_pointer (&out);

  guint32 types[2] = { counted[0].type, n_counted > 1 ? counted[1].type : 0 };
  JvmsEventFilter filter = { from, to, JVMS_EVENT_KEEP_THESE, types, n_counted, JVMS_EVENT_KEEP_THESE, &tid, 1 };
  g_autoptr(JvmsEventQuery) query = jvms_event_query_new (store, &filter, error);
  if (query == NULL)
    return NULL;
  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (store);
  g_autoptr(GHashTable) by_class = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Scan scan = { counted, n_counted, by_class, out, max_rows };
  if (!jvms_event_query_foreach (query, cursor, 0, TRUE, count_row, &scan, error))
    {
      GHashTableIter it;
      gpointer value;
      g_hash_table_iter_init (&it, by_class);
      while (g_hash_table_iter_next (&it, NULL, &value))
        {
          class_clear (value);
          g_free (value);
        }
      return NULL;
    }
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, by_class);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      g_array_append_vals (out->classes, value, 1);
      g_free (value);
    }
  g_array_sort (out->classes, most_bytes_first);
  return g_steal_pointer (&out);
}

void
jvms_allocation_classes_free (JvmsAllocationClasses *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->classes);
  g_free (self);
}
