/* jvms-event-row.h: one row of the event table (widgets/jvms-event-list-model.h): a light object
 * made for a position a view shows, pointing into the page of records it was read with.
 *
 * A page may still be being read (off the main thread): its rows are then not loaded, and each
 * notifies JvmsEventRow:loaded when the page is filled. Pages and rows are the main thread's,
 * except jvms_event_page_is_wanted (), which a reader may ask from any thread. */
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
/* A page whose records are yet to come (jvms_event_page_fill ()). */
JvmsEventPage *jvms_event_page_new_pending (guint        index);
/* Fills a pending page (@batch is taken) and notifies its rows' JvmsEventRow:loaded. */
void           jvms_event_page_fill     (JvmsEventPage  *page,
                                         JvmsEventBatch *batch,
                                         gboolean        damaged);
gboolean       jvms_event_page_is_loaded (JvmsEventPage *page);
/* Whether anyone still waits for a pending page: a list keeping it, or a row made from it.
 * Any thread may ask (a reader skips pages scrolled past before their turn came). */
gboolean       jvms_event_page_is_wanted (JvmsEventPage *page);
/* The list keeping the page lets it go (it stays wanted while rows show it). */
void           jvms_event_page_release  (JvmsEventPage  *page);
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
/* FALSE while its page is being read: the record is not there yet (not damaged). */
gboolean      jvms_event_row_is_loaded    (JvmsEventRow    *self);

/* @func (@self, @data) once the row's page is filled, if it is not yet. A plain list, not a
 * signal handler: a table binds a cell per column of every row it shows, and connecting a
 * GSignal handler for each made a jump to another part of the list cost 26 ms of the main
 * thread instead of 4 (bench-events, per frame). */
typedef void (*JvmsEventRowLoadedFunc) (JvmsEventRow *row,
                                        gpointer      data);
void          jvms_event_row_watch        (JvmsEventRow          *self,
                                           JvmsEventRowLoadedFunc func,
                                           gpointer               data);
/* Forgets every watch with @data. */
void          jvms_event_row_unwatch      (JvmsEventRow          *self,
                                           gpointer               data);

G_END_DECLS
