/* jvms-record-source.h: a list of records that a table shows a page at a time, whatever holds
 * them: a selection of the event store (jvms-event-selection.h), that selection filtered by text
 * or sorted by a column (jvms-event-order.h), or other records with the same shape (the
 * Performance Explorer's scheduling quanta, issue 22). The window's event table reads only this
 * interface (widgets/jvms-event-list-model.h), so any source plugs into it.
 *
 * A record is a JvmsEventRecord: a time, a duration, a type, a thread, a stack id and values of
 * its type's fields (jvms-event-store.h); the types and their fields are the source's schema.
 * A source is fixed once made: a new filter or order is a new source.
 *
 * Threads: a source is read from one thread at a time (the main thread, for a table).
 */
#pragma once

#include <glib-object.h>

#include "jvms-event-store.h"

G_BEGIN_DECLS

#define JVMS_TYPE_RECORD_SOURCE (jvms_record_source_get_type ())
G_DECLARE_INTERFACE (JvmsRecordSource, jvms_record_source, JVMS, RECORD_SOURCE, GObject)

struct _JvmsRecordSourceInterface
{
  GTypeInterface parent_iface;

  guint64                  (*get_n_records) (JvmsRecordSource *self);
  /* Appends the records at positions [@position, @position + @n) (fewer at the end). */
  gboolean                 (*read)          (JvmsRecordSource *self,
                                             guint64           position,
                                             guint             n,
                                             JvmsEventBatch   *batch,
                                             GError          **error);
  guint                    (*get_n_types)   (JvmsRecordSource *self);
  const JvmsEventTypeInfo *(*get_type_info) (JvmsRecordSource *self,
                                             guint32           type);
};

guint64                  jvms_record_source_get_n_records (JvmsRecordSource *self);
gboolean                 jvms_record_source_read          (JvmsRecordSource *self,
                                                           guint64           position,
                                                           guint             n,
                                                           JvmsEventBatch   *batch,
                                                           GError          **error);
guint                    jvms_record_source_get_n_types   (JvmsRecordSource *self);
/* NULL for a type the source does not have. */
const JvmsEventTypeInfo *jvms_record_source_get_type_info (JvmsRecordSource *self,
                                                           guint32           type);

G_END_DECLS
