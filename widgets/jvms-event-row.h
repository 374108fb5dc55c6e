/* jvms-event-row.h: one row of the event table (widgets/jvms-event-list-model.h): a light object
 * made for a position a view shows, pointing into the page of records it was read with. */
#pragma once

#include <glib-object.h>

#include "jvms-event-store.h"

G_BEGIN_DECLS

/* A page of records read together; the rows made from it keep it alive. */
typedef struct _JvmsEventPage JvmsEventPage;

/* @batch is taken; @damaged: it could not be read (its rows are empty). */
JvmsEventPage *jvms_event_page_new      (guint           index,
                                         JvmsEventBatch *batch,
                                         gboolean        damaged);
JvmsEventPage *jvms_event_page_ref      (JvmsEventPage  *page);
void           jvms_event_page_unref    (JvmsEventPage  *page);
guint          jvms_event_page_get_index (JvmsEventPage *page);

#define JVMS_TYPE_EVENT_ROW (jvms_event_row_get_type ())
G_DECLARE_FINAL_TYPE (JvmsEventRow, jvms_event_row, JVMS, EVENT_ROW, GObject)

JvmsEventRow *jvms_event_row_new          (JvmsEventPage   *page,
                                           guint            index,
                                           guint            position);
/* The row's record; its values stay valid while the row lives. FALSE for a row whose page
 * could not be read (a damaged store): then only @out->row (the position) is set. */
gboolean      jvms_event_row_get_record   (JvmsEventRow    *self,
                                           JvmsEventRecord *out);
guint         jvms_event_row_get_position (JvmsEventRow    *self);

G_END_DECLS
