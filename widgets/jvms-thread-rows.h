/* jvms-thread-rows.h: the rows of the threads view, a tree of groups over the thread list.
 *
 * Grouped by kind (the default) the kinds are the top groups; inside one, a thread pool (threads
 * whose names differ only in their numbers: "worker-0" … "worker-2499" are the pool
 * "worker-#", jvms_thread_pool_name) of JVMS_THREAD_ROWS_POOL_MIN threads or more is a group of
 * its own, and the threads of other processes are grouped by process. Grouped by process, the processes are the
 * top groups and their pools the groups inside; by pool, the pools; none is a flat list.
 *
 * A group folds (its header row stays, with a summary of its threads); the kind "other
 * processes", the processes inside it and pools of JVMS_THREAD_ROWS_POOL_FOLDED threads or more
 * start folded. While a filter is set every group with a matching thread shows unfolded: the
 * filter searches the whole list. The model knows nothing of drawing: the view lays out its
 * rows (their y and height) from here.
 */
#pragma once

#include "jvms-thread-list.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_THREAD_GROUPING_NONE,
  JVMS_THREAD_GROUPING_PROCESS,
  JVMS_THREAD_GROUPING_POOL,
  JVMS_THREAD_GROUPING_KIND,
} JvmsThreadGrouping;

/* A pool of this many threads is a group inside its kind or process; of this many, folded. */
#define JVMS_THREAD_ROWS_POOL_MIN 16
#define JVMS_THREAD_ROWS_POOL_FOLDED 64

typedef struct
{
  char    *key;      /* stable across rebuilds: "kind:java", "kind:other-process/pid:42",
                      * "pool:worker-#", "pid:42/pool:worker-#" */
  char    *label;    /* shown (translated) */
  int      parent;   /* index of the enclosing group, -1 for a top group */
  guint    depth;    /* 0 for a top group */
  GArray  *members;  /* guint: indices in the thread list of every thread under it, nested too */
  gboolean folded;   /* as shown now */
  gint64   kind;     /* kind grouping's top groups: the kind (-1: unknown); else -1 */
} JvmsThreadGroup;

typedef struct
{
  guint                 depth;  /* indentation: 0 for a top group or an ungrouped thread */
  int                   group;  /* a header: its group; a thread: its innermost group, or -1 */
  const JvmsThreadInfo *thread; /* NULL for a group header */
} JvmsThreadRow;

typedef struct _JvmsThreadRows JvmsThreadRows;

JvmsThreadRows        *jvms_thread_rows_new          (void);
void                   jvms_thread_rows_free         (JvmsThreadRows       *self);
/* Lists the rows of @threads (NULL: none). @jvm_pid (-1: unknown) is the traced JVM, first in
 * the process grouping; @filter (casefolded, NULL or "" for none) keeps the threads whose name
 * or folder name contains it. */
void                   jvms_thread_rows_build        (JvmsThreadRows       *self,
                                                      JvmsThreadList       *threads,
                                                      JvmsThreadGrouping    grouping,
                                                      gint64                jvm_pid,
                                                      const char           *filter);
guint                  jvms_thread_rows_get_n_rows   (JvmsThreadRows       *self);
const JvmsThreadRow   *jvms_thread_rows_get_row      (JvmsThreadRows       *self,
                                                      guint                 row);
guint                  jvms_thread_rows_get_n_groups (JvmsThreadRows       *self);
const JvmsThreadGroup *jvms_thread_rows_get_group    (JvmsThreadRows       *self,
                                                      guint                 group);
/* Folds or unfolds the group of @key (remembered across rebuilds and groupings); TRUE when
 * that changed what shows. Rebuild to see it. */
gboolean               jvms_thread_rows_set_folded   (JvmsThreadRows       *self,
                                                      const char           *key,
                                                      gboolean              folded);
gboolean               jvms_thread_rows_is_folded    (JvmsThreadRows       *self,
                                                      const char           *key);
/* The key of the kind grouping's top group of @kind ("kind:java"; -1 or unknown: "kind:"). */
char                  *jvms_thread_rows_kind_key     (gint64                kind);

G_END_DECLS
