/* jvms-event-list-model.h: a GListModel over a record source (analysis/jvms-record-source.h):
 * millions of rows, never all in memory. Items are JvmsEventRow objects made for the positions a
 * view asks for, from pages of records read from the source on demand and kept in a small cache
 * (Sysprof's marks list keeps every mark as an object; this one keeps a few pages).
 *
 * Pages are read off the main thread (one reading thread for all lists, the newest request first), so
 * scrolling never waits for the disk: a row whose page is still being read is not loaded yet
 * (jvms_event_row_is_loaded ()) and notifies JvmsEventRow:loaded when it is, and a cell bound to
 * it draws again then. The rows keep their identity meanwhile, so the selection and the focus
 * stay where they were (an items-changed would replace them). A page scrolled past before its
 * turn is not read, nor are the pages queued for a source the list no longer shows. Every read
 * queued is delivered on the main context (an idle source each) whatever became of its list.
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
/* Pages asked of the source since the model was made (what scrolling costs). */
guint64             jvms_event_list_model_get_n_reads (JvmsEventListModel *self);
/* Pages asked for and not yet arrived. */
guint               jvms_event_list_model_get_n_pending (JvmsEventListModel *self);
/* Reads the source now, on this thread, in turn with the reading thread. */
gboolean            jvms_event_list_model_read        (JvmsEventListModel *self,
                                                       guint64             position,
                                                       guint               n,
                                                       JvmsEventBatch     *batch,
                                                       GError            **error);

G_END_DECLS
