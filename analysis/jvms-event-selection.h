/* jvms-event-selection.h: the rows of an event store that a filter selects (a time range, types,
 * threads; jvms-event-query.h), as a record source (jvms-record-source.h) in time order. Making
 * one costs a few block reads whatever the number of rows; a page at any position costs the
 * same. */
#pragma once

#include "jvms-event-query.h"
#include "jvms-record-source.h"

G_BEGIN_DECLS

#define JVMS_TYPE_EVENT_SELECTION (jvms_event_selection_get_type ())
G_DECLARE_FINAL_TYPE (JvmsEventSelection, jvms_event_selection, JVMS, EVENT_SELECTION, GObject)

/* The filter's arrays are copied. NULL with @error when a block at the range's ends is damaged. */
JvmsEventSelection    *jvms_event_selection_new        (JvmsEventStore        *store,
                                                        const JvmsEventFilter *filter,
                                                        GError               **error);
JvmsEventStore        *jvms_event_selection_get_store  (JvmsEventSelection    *self);
JvmsEventQuery        *jvms_event_selection_get_query  (JvmsEventSelection    *self);
/* The filter as given (its arrays owned by the selection). */
const JvmsEventFilter *jvms_event_selection_get_filter (JvmsEventSelection    *self);

G_END_DECLS
