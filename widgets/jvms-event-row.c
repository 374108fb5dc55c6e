/* jvms-event-row.c: rows of the event table and the pages they point into. */
#include "jvms-event-row.h"

#include <string.h>

struct _JvmsEventPage
{
  gatomicrefcount  ref;
  guint            index;     /* page number in the model */
  JvmsEventBatch  *batch;     /* NULL while pending */
  gboolean         damaged;
  GPtrArray       *rows;      /* JvmsEventRow * (not owned) made while pending */
  gint             n_wanting; /* atomic: rows made while pending and alive, + 1 while kept */
};

JvmsEventPage *
jvms_event_page_new (guint index, JvmsEventBatch *batch, gboolean damaged)
{
  JvmsEventPage *page = g_new0 (JvmsEventPage, 1);
  g_atomic_ref_count_init (&page->ref);
  page->index = index;
  page->batch = batch;
  page->damaged = damaged;
  return page;
}

JvmsEventPage *
jvms_event_page_new_pending (guint index)
{
  JvmsEventPage *page = jvms_event_page_new (index, NULL, FALSE);
  page->rows = g_ptr_array_new ();
  page->n_wanting = 1;
  return page;
}

guint
jvms_event_page_get_index (JvmsEventPage *page)
{
  return page->index;
}

gboolean
jvms_event_page_is_loaded (JvmsEventPage *page)
{
  return page->batch != NULL;
}

gboolean
jvms_event_page_is_wanted (JvmsEventPage *page)
{
  return g_atomic_int_get (&page->n_wanting) > 0;
}

void
jvms_event_page_release (JvmsEventPage *page)
{
  if (page->rows != NULL)
    g_atomic_int_add (&page->n_wanting, -1);
}

JvmsEventPage *
jvms_event_page_ref (JvmsEventPage *page)
{
  g_atomic_ref_count_inc (&page->ref);
  return page;
}

void
jvms_event_page_unref (JvmsEventPage *page)
{
  if (page == NULL || !g_atomic_ref_count_dec (&page->ref))
    return;
  g_clear_pointer (&page->batch, jvms_event_batch_free);
  g_clear_pointer (&page->rows, g_ptr_array_unref);
  g_free (page);
}

/* ------------------------------------------------------------------------------------------ */

struct _JvmsEventRow
{
  GObject        parent_instance;
  JvmsEventPage *page;
  guint          index;      /* in the page */
  guint          position;   /* in the model */
  GArray        *watches;    /* Watch, while the page is pending */
};

typedef struct
{
  JvmsEventRowLoadedFunc func;
  gpointer               data;
} Watch;

G_DEFINE_FINAL_TYPE (JvmsEventRow, jvms_event_row, G_TYPE_OBJECT)

enum { PROP_0, PROP_LOADED, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
jvms_event_row_finalize (GObject *object)
{
  JvmsEventRow *self = JVMS_EVENT_ROW (object);
  if (self->page->rows != NULL)
    {
      g_ptr_array_remove_fast (self->page->rows, self);
      g_atomic_int_add (&self->page->n_wanting, -1);
    }
  jvms_event_page_unref (self->page);
  g_clear_pointer (&self->watches, g_array_unref);
  G_OBJECT_CLASS (jvms_event_row_parent_class)->finalize (object);
}

static void
jvms_event_row_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_LOADED:
      g_value_set_boolean (value, jvms_event_row_is_loaded (JVMS_EVENT_ROW (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_event_row_class_init (JvmsEventRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = jvms_event_row_finalize;
  object_class->get_property = jvms_event_row_get_property;
  properties[PROP_LOADED] = g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                                                  G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                  G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
jvms_event_row_init (JvmsEventRow *self)
{
}

JvmsEventRow *
jvms_event_row_new (JvmsEventPage *page, guint index, guint position)
{
  JvmsEventRow *self = g_object_new (JVMS_TYPE_EVENT_ROW, NULL);
  self->page = jvms_event_page_ref (page);
  self->index = index;
  self->position = position;
  if (page->rows != NULL)
    {
      g_ptr_array_add (page->rows, self);
      g_atomic_int_inc (&page->n_wanting);
    }
  return self;
}

void
jvms_event_page_fill (JvmsEventPage *page, JvmsEventBatch *batch, gboolean damaged)
{
  g_return_if_fail (page->batch == NULL && page->rows != NULL);
  page->batch = batch;
  page->damaged = damaged;
  /* Taken first: a row the notification lets go must not look for itself in the list. */
  g_autoptr(GPtrArray) rows = g_steal_pointer (&page->rows);
  g_atomic_int_set (&page->n_wanting, 0);
  for (guint i = 0; i < rows->len; i++)
    g_object_ref (rows->pdata[i]);
  for (guint i = 0; i < rows->len; i++)
    {
      JvmsEventRow *row = rows->pdata[i];
      g_autoptr(GArray) watches = g_steal_pointer (&row->watches);
      for (guint w = 0; watches != NULL && w < watches->len; w++)
        g_array_index (watches, Watch, w).func (row, g_array_index (watches, Watch, w).data);
      g_object_notify_by_pspec (G_OBJECT (row), properties[PROP_LOADED]);
    }
  for (guint i = 0; i < rows->len; i++)
    g_object_unref (rows->pdata[i]);
}

gboolean
jvms_event_row_get_record (JvmsEventRow *self, JvmsEventRecord *out)
{
  g_return_val_if_fail (JVMS_IS_EVENT_ROW (self), FALSE);
  if (self->page->batch == NULL || self->page->damaged || self->index >= jvms_event_batch_get_len (self->page->batch))
    {
      memset (out, 0, sizeof *out);
      out->row = self->position;
      out->duration = -1;
      return FALSE;
    }
  jvms_event_batch_get (self->page->batch, self->index, out);
  return TRUE;
}

guint
jvms_event_row_get_position (JvmsEventRow *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_ROW (self), 0);
  return self->position;
}

gboolean
jvms_event_row_is_loaded (JvmsEventRow *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_ROW (self), FALSE);
  return jvms_event_page_is_loaded (self->page);
}

void
jvms_event_row_watch (JvmsEventRow *self, JvmsEventRowLoadedFunc func, gpointer data)
{
  g_return_if_fail (JVMS_IS_EVENT_ROW (self));
  if (jvms_event_page_is_loaded (self->page))
    return;
  if (self->watches == NULL)
    self->watches = g_array_new (FALSE, FALSE, sizeof (Watch));
  Watch w = { func, data };
  g_array_append_val (self->watches, w);
}

void
jvms_event_row_unwatch (JvmsEventRow *self, gpointer data)
{
  g_return_if_fail (JVMS_IS_EVENT_ROW (self));
  for (guint i = self->watches != NULL ? self->watches->len : 0; i > 0; i--)
    if (g_array_index (self->watches, Watch, i - 1).data == data)
      g_array_remove_index_fast (self->watches, i - 1);
}
