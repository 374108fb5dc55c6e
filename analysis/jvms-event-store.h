/* jvms-event-store.h: an opened event store (X.events beside an index; docs/events.md, layout in
 * jvms-event-format.h) and the cursors that read its rows.
 *
 * The store is immutable once open and may be shared by threads; each thread reads through its
 * own JvmsEventCursor (a few decoded blocks and the current row's values). Everything the store
 * checks at open (header, types, block and stream directories, postings) is trusted afterwards;
 * a block is checked when a cursor decodes it, and a damaged block is an error naming the file,
 * the block and what is wrong.
 *
 * Queries (a time range, types, threads; pages at any position) are in jvms-event-query.h.
 */
#pragma once

#include <glib.h>

#include "jvms-event-format.h"

G_BEGIN_DECLS

typedef struct
{
  const char    *name;
  const char    *label;   /* NULL when none */
  JvmsEventUnit  unit;
} JvmsEventFieldInfo;

typedef struct
{
  const char               *name;
  const char               *label;    /* NULL when none */
  guint32                   flags;    /* JvmsEventTypeFlags */
  guint                     n_fields;
  const JvmsEventFieldInfo *fields;
  guint64                   n_rows;
} JvmsEventTypeInfo;

/* One value of a row. Kinds are those of jvms-event-format.h, with LATE and RESULT_NULL
 * resolved (to INT or NULL). */
typedef struct
{
  guint16             field;
  guint8              kind;     /* JvmsEventValueKind */
  union
  {
    gint64            i;        /* INT, TIMESTAMP, TIMESPAN */
    double            d;        /* DOUBLE */
    const char       *s;        /* STRING: NUL-terminated UTF-8 */
  };
} JvmsEventValue;

typedef struct
{
  guint64               row;      /* its id: its rank in the store's time order */
  gint64                time;     /* start, epoch ns */
  gint64                duration; /* ns; -1 unknown */
  gint64                tid;      /* 0: none */
  guint32               type;
  guint32               stack;    /* stack id in the sample store, or JVMS_EVENT_NONE */
  guint                 n_values;
  const JvmsEventValue *values;
} JvmsEventRecord;

typedef struct _JvmsEventStore  JvmsEventStore;
typedef struct _JvmsEventCursor JvmsEventCursor;

/* JVMS_ANALYSIS_ERROR_INDEX naming the file, offset and structure when it is not a store of
 * this version or anything in it is inconsistent. */
JvmsEventStore          *jvms_event_store_open        (const char      *path,
                                                       GError         **error);
/* The same on bytes in memory (the fuzzer, tests); @name is used in messages. */
JvmsEventStore          *jvms_event_store_open_bytes  (GBytes          *bytes,
                                                       const char      *name,
                                                       GError         **error);
JvmsEventStore          *jvms_event_store_ref         (JvmsEventStore  *self);
void                     jvms_event_store_unref       (JvmsEventStore  *self);

const char              *jvms_event_store_get_path    (JvmsEventStore  *self);
guint64                  jvms_event_store_get_n_rows  (JvmsEventStore  *self);
/* The first row's and the latest start time (0 for an empty store). */
gint64                   jvms_event_store_get_first_time (JvmsEventStore *self);
gint64                   jvms_event_store_get_last_time  (JvmsEventStore *self);
guint                    jvms_event_store_get_n_types (JvmsEventStore  *self);
const JvmsEventTypeInfo *jvms_event_store_get_type    (JvmsEventStore  *self,
                                                       guint32          type);
/* The type called @name, or JVMS_EVENT_NONE. */
guint32                  jvms_event_store_find_type   (JvmsEventStore  *self,
                                                       const char      *name);
/* The field called @name of @type, or -1. */
gint                     jvms_event_store_find_field  (JvmsEventStore  *self,
                                                       guint32          type,
                                                       const char      *name);
/* The threads that have rows (tid 0 included when some rows have no thread), in tid order. */
const gint64            *jvms_event_store_get_threads (JvmsEventStore  *self,
                                                       guint           *n_threads);
/* Rows of @tid (every type). */
guint64                  jvms_event_store_get_thread_rows (JvmsEventStore *self,
                                                           gint64          tid);

JvmsEventCursor         *jvms_event_cursor_new        (JvmsEventStore  *store);
void                     jvms_event_cursor_free       (JvmsEventCursor *self);
/* Row @row (< n_rows) into @out; its values and strings stay valid until the cursor reads
 * another row. FALSE with @error when its block is damaged. */
gboolean                 jvms_event_cursor_read       (JvmsEventCursor *self,
                                                       guint64          row,
                                                       JvmsEventRecord *out,
                                                       GError         **error);
/* Only the header part (no values decoded): cheaper when scanning. */
gboolean                 jvms_event_cursor_read_head  (JvmsEventCursor *self,
                                                       guint64          row,
                                                       JvmsEventRecord *out,
                                                       GError         **error);

/* The value of @field in @record, or NULL when the row has none. */
const JvmsEventValue    *jvms_event_record_find_value (const JvmsEventRecord *record,
                                                       guint                  field);

/* A page of rows, copied: it outlives the cursor that filled it. */
typedef struct
{
  /*< private >*/
  GArray       *records;  /* JvmsEventRecord, values unset */
  GArray       *values;   /* JvmsEventValue */
  GArray       *firsts;   /* guint: each record's first value */
  GStringChunk *strings;
} JvmsEventBatch;

JvmsEventBatch          *jvms_event_batch_new         (void);
void                     jvms_event_batch_free        (JvmsEventBatch  *self);
void                     jvms_event_batch_clear       (JvmsEventBatch  *self);
/* Appends a copy of @record. */
void                     jvms_event_batch_add         (JvmsEventBatch  *self,
                                                       const JvmsEventRecord *record);
guint                    jvms_event_batch_get_len     (JvmsEventBatch  *self);
/* Record @index into @out, its values pointing into the batch. */
void                     jvms_event_batch_get         (JvmsEventBatch  *self,
                                                       guint            index,
                                                       JvmsEventRecord *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsEventStore, jvms_event_store_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsEventCursor, jvms_event_cursor_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsEventBatch, jvms_event_batch_free)

/* For jvms-event-query.c: the directories, checked at open. */
const JvmsEventBlockEntry  *jvms_event_store_get_blocks   (JvmsEventStore *self,
                                                           guint64        *n_blocks);
const JvmsEventStreamEntry *jvms_event_store_get_streams  (JvmsEventStore *self,
                                                           guint64        *n_streams);
const JvmsEventPosting     *jvms_event_store_get_postings (JvmsEventStore *self);
/* The stream (kind, type, tid), or -1. */
gint64                      jvms_event_store_find_stream  (JvmsEventStore *self,
                                                           guint32         kind,
                                                           guint32         type,
                                                           gint64          tid);
/* The block holding @row (< n_rows). */
guint64                     jvms_event_store_block_of_row (JvmsEventStore *self,
                                                           guint64         row);

G_END_DECLS
