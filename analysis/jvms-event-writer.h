/* jvms-event-writer.h: writes an event store (layout: jvms-event-format.h) in one pass, with
 * memory bounded whatever the number of rows.
 *
 * Rows are given in non-decreasing start time. A row whose end is not known yet (a system call
 * that entered, a block request that was queued) is added with JVMS_EVENT_WRITER_PENDING as its
 * duration and finished later with jvms_event_writer_end_row(); the writer keeps the last few
 * blocks in memory so that most such rows are finished in place, and gives the others a slot in
 * the store's late table. What the writer holds: those blocks, one entry per stream (type,
 * thread, type x thread), the types' field lists and one entry per row still pending in a
 * written block (at most one open system call per thread). Block and posting directories go to
 * temporary files beside the store (unlinked at once) and are copied into it at close.
 */
#pragma once

#include <glib.h>

#include "jvms-event-format.h"

G_BEGIN_DECLS

#define JVMS_EVENT_WRITER_PENDING G_MININT64

typedef struct _JvmsEventWriter JvmsEventWriter;

/* Writes @path under a temporary name, renamed into place by jvms_event_writer_close(). */
JvmsEventWriter *jvms_event_writer_new        (const char        *path,
                                               GError           **error);

/* The type called @name, added on first use (later @label and @flags are OR-ed in, the first
 * label kept). NONE when the store already has JVMS_EVENT_MAX_TYPES types. */
guint32          jvms_event_writer_add_type   (JvmsEventWriter   *self,
                                               const char        *name,
                                               const char        *label,
                                               guint32            flags);
/* The field @name of @type, added on first use; G_MAXUINT when the type has
 * JVMS_EVENT_MAX_FIELDS fields already (the value is then left out). */
guint            jvms_event_writer_add_field  (JvmsEventWriter   *self,
                                               guint32            type,
                                               const char        *name,
                                               const char        *label,
                                               JvmsEventUnit      unit);
guint            jvms_event_writer_get_n_types (JvmsEventWriter  *self);

/* One row: begin, its values (fields from add_field, each at most once), commit. @duration is
 * >= 0, JVMS_EVENT_DURATION_UNKNOWN or JVMS_EVENT_WRITER_PENDING. @time earlier than the
 * previous row's is kept as given (damaged input); the directories order rows by the running
 * maximum. */
void             jvms_event_writer_begin      (JvmsEventWriter   *self,
                                               gint64             time,
                                               gint64             duration,
                                               guint32            type,
                                               gint64             tid,
                                               guint32            stack);
/* The row's result (a system call's return value), filled by end_row: must come first. */
void             jvms_event_writer_result     (JvmsEventWriter   *self,
                                               guint              field);
void             jvms_event_writer_null       (JvmsEventWriter   *self,
                                               guint              field);
void             jvms_event_writer_boolean    (JvmsEventWriter   *self,
                                               guint              field,
                                               gboolean           value);
/* @kind: INT, TIMESTAMP or TIMESPAN. */
void             jvms_event_writer_int        (JvmsEventWriter   *self,
                                               guint              field,
                                               JvmsEventValueKind kind,
                                               gint64             value);
void             jvms_event_writer_double     (JvmsEventWriter   *self,
                                               guint              field,
                                               double             value);
/* Valid UTF-8; cut at JVMS_EVENT_MAX_STRING bytes on a character boundary. NULL is a null. */
void             jvms_event_writer_string     (JvmsEventWriter   *self,
                                               guint              field,
                                               const char        *value);
/* The row id (0, 1, ... in order). */
guint64          jvms_event_writer_commit     (JvmsEventWriter   *self);

/* Finishes a row added with a pending duration. Rows never finished have an unknown duration. */
void             jvms_event_writer_end_row    (JvmsEventWriter   *self,
                                               guint64            row,
                                               gint64             duration,
                                               gboolean           has_result,
                                               gint64             result);

guint64          jvms_event_writer_get_n_rows (JvmsEventWriter   *self);
/* Writes the directories and renames the file into place. Write errors met on the way (a full
 * disk) surface here, naming the file. */
gboolean         jvms_event_writer_close      (JvmsEventWriter   *self,
                                               GError           **error);
/* Frees; a store not closed is deleted. */
void             jvms_event_writer_free       (JvmsEventWriter   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsEventWriter, jvms_event_writer_free)

G_END_DECLS
