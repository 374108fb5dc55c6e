/* jvms-event-query.h: the rows of an event store that start in a time range, of some types, on
 * some threads, read a page at a time at any position.
 *
 * Cost: making a query decodes at most the two blocks at the ends of its range; reading a page
 * at position p costs O(k log^2 b) to find it (k the number of streams the filter selects: its
 * types, its threads, or its (type, thread) pairs; b the number of blocks) plus the blocks that
 * hold the page; a scan (foreach) skips the blocks where none of those streams has rows. Nothing
 * is proportional to the number of rows before the page.
 */
#pragma once

#include "jvms-event-store.h"

G_BEGIN_DECLS

/* Which types (or threads) a filter keeps, said in so many words: a NULL list once meant every
 * type, and an empty GArray's data is NULL, so a --type that matched no type listed every
 * event. The zero value keeps none: a filter that forgets to say selects nothing. */
typedef enum
{
  JVMS_EVENT_KEEP_NONE = 0,
  JVMS_EVENT_KEEP_ALL,
  JVMS_EVENT_KEEP_THESE,  /* the n listed (none when n is 0; the list may then be NULL) */
} JvmsEventKeep;

typedef struct
{
  /* Rows whose start time t has from <= t < to. G_MININT64 / G_MAXINT64 for no bound. */
  gint64         from;
  gint64         to;
  /* The types kept; with JVMS_EVENT_KEEP_THESE, these n_types (ids of the store). */
  JvmsEventKeep  keep_types;
  const guint32 *types;
  guint          n_types;
  /* The threads kept, as for types. */
  JvmsEventKeep  keep_tids;
  const gint64  *tids;
  guint          n_tids;
} JvmsEventFilter;

typedef struct _JvmsEventQuery JvmsEventQuery;

/* Rows are handed to a JvmsEventFunc with their values (when asked) valid for the call only.
 * Return FALSE to stop. */
typedef gboolean (*JvmsEventFunc) (const JvmsEventRecord *record,
                                   gpointer               user_data);

/* NULL with @error when a block at the range's ends is damaged. A list with KEEP_ALL or
 * KEEP_NONE, or an unknown JvmsEventKeep, is a caller's error (a critical, NULL). */
JvmsEventQuery *jvms_event_query_new       (JvmsEventStore        *store,
                                            const JvmsEventFilter *filter,
                                            GError               **error);
void            jvms_event_query_free      (JvmsEventQuery        *self);
JvmsEventStore *jvms_event_query_get_store (JvmsEventQuery        *self);
guint64         jvms_event_query_get_n_rows (JvmsEventQuery       *self);
/* The rows at positions [@position, @position + @n) of the query (fewer at its end), appended
 * to @batch. */
gboolean        jvms_event_query_read      (JvmsEventQuery        *self,
                                            JvmsEventCursor       *cursor,
                                            guint64                position,
                                            guint                  n,
                                            JvmsEventBatch        *batch,
                                            GError               **error);
/* Every row from @position on, in order, until @func returns FALSE; @with_values FALSE leaves
 * the records' values out (cheaper). */
gboolean        jvms_event_query_foreach   (JvmsEventQuery        *self,
                                            JvmsEventCursor       *cursor,
                                            guint64                position,
                                            gboolean               with_values,
                                            JvmsEventFunc          func,
                                            gpointer               user_data,
                                            GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsEventQuery, jvms_event_query_free)

G_END_DECLS
