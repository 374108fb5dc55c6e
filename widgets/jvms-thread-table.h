/* jvms-thread-table.h: the threads of a history (Threads/<tid>): tid, name, kind and the
 * attribute ids the views query, read once per history change. Plain struct: no GObject. */
#pragma once

#include <glib.h>

#include "jvms-history.h"

G_BEGIN_DECLS

typedef struct
{
  char          *key;          /* the folder name: "4242" or "v17" */
  gint64         tid;          /* numeric tid; for virtual threads, -javaThreadId */
  char          *name;         /* never NULL */
  gint64         kind;         /* JvmsViewThreadKind, or -1 when unknown */
  gint64         pid;          /* the process, or -1 when unknown */
  JvmsAttribute  folder;
  JvmsAttribute  user_state;   /* JVMS_ATTRIBUTE_INVALID when absent */
  JvmsAttribute  kernel_state;
} JvmsThreadInfo;

typedef struct _JvmsThreadTable JvmsThreadTable;

JvmsThreadTable      *jvms_thread_table_new      (JvmsHistory     *history);
void                  jvms_thread_table_free     (JvmsThreadTable *self);
guint                 jvms_thread_table_get_len  (JvmsThreadTable *self);
const JvmsThreadInfo *jvms_thread_table_get      (JvmsThreadTable *self,
                                                  guint            index);
/* NULL when the tid is not a thread of the history. */
const JvmsThreadInfo *jvms_thread_table_lookup   (JvmsThreadTable *self,
                                                  gint64           tid);

/* The value of slowly changing attributes (names, kinds, classes): the value at the end of the
 * history, else at its start, middle or quarters; @found[i] FALSE when none held one there.
 * A handful of point queries whatever @n_attributes: cheap on any size of history. */
void                  jvms_view_attribute_values (JvmsHistory         *history,
                                                  const JvmsAttribute *attributes,
                                                  guint                n_attributes,
                                                  JvmsValue           *out,
                                                  gboolean            *found);
gboolean              jvms_view_attribute_value  (JvmsHistory     *history,
                                                  JvmsAttribute    attribute,
                                                  JvmsValue       *out);
/* Parses a folder name as a tid ("4242" -> 4242, "v17" -> -17); FALSE if neither. */
gboolean              jvms_view_parse_tid        (const char      *key,
                                                  gint64          *tid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsThreadTable, jvms_thread_table_free)

G_END_DECLS
