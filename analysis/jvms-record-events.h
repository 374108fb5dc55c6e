/* jvms-record-events.h: the events of one type of the event store (docs/events.md) as records
 * of the Performance Explorer (issue 22, docs/records.md), the source `events:TYPE`.
 *
 * Columns: `start` (ns from @origin), `epoch_ns`, `duration` (ns, metric; missing for an
 * instant), `tid`, `thread`, then one per field of the type, made at the field's first value:
 * numbers and time spans a metric, times an int field (epoch ns), booleans 0 or 1, strings a
 * string field. A field whose name is taken by the columns above is `field.NAME`.
 */
#pragma once

#include "jvms-event-store.h"
#include "jvms-record-table.h"
#include "jvms-thread-list.h"

G_BEGIN_DECLS

/* The events of type @type_name starting in [@from, @to) (epoch ns). An unknown type is an
 * error naming it and the store. */
JvmsRecordTable *jvms_record_events_read (JvmsEventStore  *store,
                                          JvmsThreadList  *threads,
                                          const char      *type_name,
                                          gint64           origin,
                                          gint64           from,
                                          gint64           to,
                                          GError         **error);

G_END_DECLS
