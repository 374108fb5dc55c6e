/* jvms-event-list-model.h: a GListModel over a record source (analysis/jvms-record-source.h):
 * millions of rows, never all in memory. Items are JvmsEventRow objects made for the positions a
 * view asks for, from pages of records read from the source on demand and kept in a small cache
 * (Sysprof's marks list keeps every mark as an object; this one keeps a few pages).
 *
 * A new source replaces the whole list (one items-changed). */
#pragma once

#include <gio/gio.h>

#include "jvms-event-row.h"
#include "jvms-record-source.h"

G_BEGIN_DECLS

/* Rows read per page, and pages kept. */
#define JVMS_EVENT_LIST_PAGE  128
#define JVMS_EVENT_LIST_PAGES 16

#define JVMS_TYPE_EVENT_LIST_MODEL (jvms_event_list_model_get_type ())
G_DECLARE_FINAL_TYPE (JvmsEventListModel, jvms_event_list_model, JVMS, EVENT_LIST_MODEL, GObject)

JvmsEventListModel *jvms_event_list_model_new        (void);
/* NULL empties the list. */
void                jvms_event_list_model_set_source (JvmsEventListModel *self,
                                                      JvmsRecordSource   *source);
JvmsRecordSource   *jvms_event_list_model_get_source (JvmsEventListModel *self);
/* Pages read from the source since the model was made (what scrolling costs). */
guint64             jvms_event_list_model_get_n_reads (JvmsEventListModel *self);

G_END_DECLS
