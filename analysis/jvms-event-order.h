/* jvms-event-order.h: a selection of the event store (jvms-event-selection.h) filtered by text
 * and sorted by a column, as a record source (jvms-record-source.h): what the event table shows
 * when the user sorts by a column or types in its search entry.
 *
 * Made off the main thread: one scan of the selection (two for a column of strings) gives each
 * matching row a key; the (key, row) pairs are sorted in runs of 4 M and the runs merged into a
 * permutation of row ids, kept in memory up to 4 M rows and in an unlinked temporary file
 * (mapped) beyond: memory stays bounded whatever the selection. Reading a page reads its rows by
 * id.
 *
 * Order: ascending keys, ties in time order (descending reverses the whole list). Keys: the
 * start time; the duration (unknown last); the type's name; the thread's name then tid; a field's
 * value (numbers by value, strings in byte order, booleans false first, rows without the field or
 * with a null last). Strings are ranked exactly when the field has at most 1 M distinct values,
 * else by their first 8 bytes.
 *
 * Text: a row matches when the text, without regard to ASCII case, is part of its type's name,
 * its thread's name or tid, or a field's value as raw text (jvms_event_value_append_raw).
 */
#pragma once

#include <gio/gio.h>

#include "jvms-event-selection.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_EVENT_COLUMN_TIME,
  JVMS_EVENT_COLUMN_DURATION,
  JVMS_EVENT_COLUMN_TYPE,
  JVMS_EVENT_COLUMN_THREAD,
  JVMS_EVENT_COLUMN_FIELD,
} JvmsEventColumn;

typedef struct
{
  JvmsEventColumn  column;
  const char      *field;         /* FIELD: the field's name, in every type that has one */
  gboolean         descending;
  const char      *text;          /* only rows with this text, or NULL (or "") for all */
  /* gint64 * tid -> const char * name, for the thread column and the text; NULL: none. Read
   * from the worker thread: not changed while the order is made. */
  GHashTable      *thread_names;
} JvmsEventOrderSpec;

#define JVMS_TYPE_EVENT_ORDER (jvms_event_order_get_type ())
G_DECLARE_FINAL_TYPE (JvmsEventOrder, jvms_event_order, JVMS, EVENT_ORDER, GObject)

JvmsEventOrder     *jvms_event_order_new           (JvmsEventSelection        *selection,
                                                    const JvmsEventOrderSpec  *spec,
                                                    GCancellable              *cancellable,
                                                    GError                   **error);
void                jvms_event_order_new_async     (JvmsEventSelection        *selection,
                                                    const JvmsEventOrderSpec  *spec,
                                                    GCancellable              *cancellable,
                                                    GAsyncReadyCallback        callback,
                                                    gpointer                   user_data);
JvmsEventOrder     *jvms_event_order_new_finish    (GAsyncResult              *result,
                                                    GError                   **error);
JvmsEventSelection *jvms_event_order_get_selection (JvmsEventOrder            *self);
/* The row id at @position. */
guint64             jvms_event_order_get_row       (JvmsEventOrder            *self,
                                                    guint64                    position);

G_END_DECLS
