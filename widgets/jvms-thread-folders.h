/* jvms-thread-folders.h: the rows of a view that has a folder per thread below a root
 * (GC/workers/<tid>, JIT/<tid>: docs/attributes.md): each with the attributes a view reads
 * below it, labelled by the thread's name and key as the threads view labels them, in name
 * order. */
#pragma once

#include "jvms-history.h"
#include "jvms-thread-list.h"

G_BEGIN_DECLS

#define JVMS_THREAD_FOLDER_MAX_PATHS 3

typedef struct
{
  char          *label;                                  /* "C2 CompilerThread0  14844" */
  gint64         tid;
  JvmsAttribute  attributes[JVMS_THREAD_FOLDER_MAX_PATHS]; /* invalid where it lacks one */
} JvmsThreadFolder;

/* The folders of @root ("GC/workers") whose name is a thread key, with the attributes at
 * @paths below each (at most JVMS_THREAD_FOLDER_MAX_PATHS; "task", "compilation/tier"): a new
 * GArray of JvmsThreadFolder that frees its labels. A folder that has none of them is left out;
 * @threads may be NULL (names are the keys then). */
GArray *jvms_thread_folders_read (JvmsHistory        *history,
                                  JvmsThreadList     *threads,
                                  const char         *root,
                                  const char * const *paths,
                                  guint               n_paths);

G_END_DECLS
