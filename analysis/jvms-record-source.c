/* jvms-record-source.c: the record source interface. */
#include "jvms-record-source.h"

G_DEFINE_INTERFACE (JvmsRecordSource, jvms_record_source, G_TYPE_OBJECT)

static void
jvms_record_source_default_init (JvmsRecordSourceInterface *iface)
{
}

guint64
jvms_record_source_get_n_records (JvmsRecordSource *self)
{
  g_return_val_if_fail (JVMS_IS_RECORD_SOURCE (self), 0);
  return JVMS_RECORD_SOURCE_GET_IFACE (self)->get_n_records (self);
}

gboolean
jvms_record_source_read (JvmsRecordSource *self, guint64 position, guint n, JvmsEventBatch *batch,
                         GError **error)
{
  g_return_val_if_fail (JVMS_IS_RECORD_SOURCE (self), FALSE);
  g_return_val_if_fail (batch != NULL, FALSE);
  return JVMS_RECORD_SOURCE_GET_IFACE (self)->read (self, position, n, batch, error);
}

guint
jvms_record_source_get_n_types (JvmsRecordSource *self)
{
  g_return_val_if_fail (JVMS_IS_RECORD_SOURCE (self), 0);
  return JVMS_RECORD_SOURCE_GET_IFACE (self)->get_n_types (self);
}

const JvmsEventTypeInfo *
jvms_record_source_get_type_info (JvmsRecordSource *self, guint32 type)
{
  g_return_val_if_fail (JVMS_IS_RECORD_SOURCE (self), NULL);
  return JVMS_RECORD_SOURCE_GET_IFACE (self)->get_type_info (self, type);
}
