/* jvms-thread-list.h: the threads of a history, read from the layout that jvms-threads.c writes
 * and docs/attributes.md documents (Threads/<key>/...). The one reader of that layout: the
 * report, the range statistics and the views list threads and find their attributes here.
 *
 * A folder is keyed by the kernel tid ("4242"), or, for a thread JFR knows without an OS thread
 * id (a virtual thread), by "v" and its javaThreadId ("v17"). Everywhere a tid is a number (the
 * report's JSON, CPUs/<n>/current-thread, user-state/owner) such a thread is -javaThreadId.
 *
 * Identity (name, pid, kind, java-id) is written once per thread, at its first-seen time, and
 * never cleared: its value at the history's end is the best knowledge, and one query at the end
 * reads it for every thread, whatever the number of threads or the length of the history.
 */
#pragma once

#include "jvms-history.h"

G_BEGIN_DECLS

typedef struct
{
  char          *key;          /* the folder name: "4242", or "v17" */
  gint64         tid;          /* the kernel tid; -javaThreadId for a "v" folder */
  char          *name;         /* Threads/<key>/name, else the key: never NULL */
  gint64         pid;          /* the process, -1 when unknown */
  gint64         kind;         /* JvmsThreadKind, -1 when unknown; OTHER_PROCESS for a thread
                                * whose pid is not the history's jvm-pid, when it has one */
  gint64         java_id;      /* JFR's javaThreadId, -1 when unknown */
  /* The thread's attributes; JVMS_ATTRIBUTE_INVALID for those the history does not have. */
  JvmsAttribute  folder;
  JvmsAttribute  user_state;
  JvmsAttribute  user_detail;  /* user-state/detail */
  JvmsAttribute  user_monitor; /* user-state/monitor */
  JvmsAttribute  user_owner;   /* user-state/owner */
  JvmsAttribute  kernel_state;
  JvmsAttribute  kernel_syscall; /* kernel-state/syscall */
} JvmsThreadInfo;

typedef struct _JvmsThreadList JvmsThreadList;

/* Lists the threads of @history (a complete one, or one being built) in the order their folders
 * were created. Damage that stops the identity query leaves names, pids and kinds unknown
 * (threads are still listed); @history NULL gives an empty list. */
JvmsThreadList       *jvms_thread_list_read   (JvmsHistory    *history);
void                  jvms_thread_list_free   (JvmsThreadList *self);
guint                 jvms_thread_list_get_len (JvmsThreadList *self);
const JvmsThreadInfo *jvms_thread_list_get    (JvmsThreadList *self,
                                               guint           index);
/* NULL when @tid is not a thread of the history. */
const JvmsThreadInfo *jvms_thread_list_lookup (JvmsThreadList *self,
                                               gint64          tid);

/* TRUE when @key_or_name is @info's folder name ("4242", "v17") or its name: how a user names a
 * thread (`--thread`). */
gboolean              jvms_thread_info_is     (const JvmsThreadInfo *info,
                                               const char           *key_or_name);
/* The first thread @key_or_name names, or NULL. */
const JvmsThreadInfo *jvms_thread_list_find   (JvmsThreadList *self,
                                               const char     *key_or_name);

/* The folder name of @tid: "4242", or "v17" for -17. */
char                 *jvms_thread_key         (gint64          tid);
/* The inverse: "4242" -> 4242, "v17" -> -17; FALSE for anything else. */
gboolean              jvms_thread_key_parse   (const char     *key,
                                               gint64         *tid);

/* The pool a thread's name belongs to: "worker-17" -> "worker-#", every run of digits one '#'
 * (a '#' before one is kept once). The threads view groups pools by it, and a comparison of two
 * traces matches their threads by it, since numbers differ from run to run. */
char                 *jvms_thread_pool_name   (const char     *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsThreadList, jvms_thread_list_free)

G_END_DECLS
