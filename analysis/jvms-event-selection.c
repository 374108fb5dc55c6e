/* jvms-event-selection.c: an event query as a record source. */
#include "jvms-event-selection.h"

#include <string.h>

struct _JvmsEventSelection
{
  GObject          parent_instance;
  JvmsEventStore  *store;
  JvmsEventQuery  *query;
  JvmsEventCursor *cursor;
  JvmsEventFilter  filter;
};

static void source_iface_init (JvmsRecordSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (JvmsEventSelection, jvms_event_selection, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (JVMS_TYPE_RECORD_SOURCE, source_iface_init))

static void
jvms_event_selection_finalize (GObject *object)
{
  JvmsEventSelection *self = JVMS_EVENT_SELECTION (object);
  g_clear_pointer (&self->cursor, jvms_event_cursor_free);
  g_clear_pointer (&self->query, jvms_event_query_free);
  g_clear_pointer (&self->store, jvms_event_store_unref);
  g_free ((gpointer) self->filter.types);
  g_free ((gpointer) self->filter.tids);
  G_OBJECT_CLASS (jvms_event_selection_parent_class)->finalize (object);
}

static void
jvms_event_selection_class_init (JvmsEventSelectionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jvms_event_selection_finalize;
}

static void
jvms_event_selection_init (JvmsEventSelection *self)
{
}

static guint64
get_n_records (JvmsRecordSource *source)
{
  return jvms_event_query_get_n_rows (JVMS_EVENT_SELECTION (source)->query);
}

static gboolean
read_records (JvmsRecordSource *source, guint64 position, guint n, JvmsEventBatch *batch,
              GError **error)
{
  JvmsEventSelection *self = JVMS_EVENT_SELECTION (source);
  return jvms_event_query_read (self->query, self->cursor, position, n, batch, error);
}

static guint
get_n_types (JvmsRecordSource *source)
{
  return jvms_event_store_get_n_types (JVMS_EVENT_SELECTION (source)->store);
}

static const JvmsEventTypeInfo *
get_type_info (JvmsRecordSource *source, guint32 type)
{
  return jvms_event_store_get_type (JVMS_EVENT_SELECTION (source)->store, type);
}

static void
source_iface_init (JvmsRecordSourceInterface *iface)
{
  iface->get_n_records = get_n_records;
  iface->read = read_records;
  iface->get_n_types = get_n_types;
  iface->get_type_info = get_type_info;
}

JvmsEventSelection *
jvms_event_selection_new (JvmsEventStore *store, const JvmsEventFilter *filter, GError **error)
{
  g_return_val_if_fail (store != NULL && filter != NULL, NULL);
  JvmsEventQuery *query = jvms_event_query_new (store, filter, error);
  if (query == NULL)
    return NULL;
  JvmsEventSelection *self = g_object_new (JVMS_TYPE_EVENT_SELECTION, NULL);
  self->store = jvms_event_store_ref (store);
  self->query = query;
  self->cursor = jvms_event_cursor_new (store);
  self->filter = *filter;
  self->filter.types = g_memdup2 (filter->types, sizeof (guint32) * filter->n_types);
  self->filter.tids = g_memdup2 (filter->tids, sizeof (gint64) * filter->n_tids);
  return self;
}

JvmsEventStore *
jvms_event_selection_get_store (JvmsEventSelection *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_SELECTION (self), NULL);
  return self->store;
}

JvmsEventQuery *
jvms_event_selection_get_query (JvmsEventSelection *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_SELECTION (self), NULL);
  return self->query;
}

const JvmsEventFilter *
jvms_event_selection_get_filter (JvmsEventSelection *self)
{
  g_return_val_if_fail (JVMS_IS_EVENT_SELECTION (self), NULL);
  return &self->filter;
}
