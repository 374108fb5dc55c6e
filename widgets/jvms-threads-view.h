/* jvms-threads-view.h: a row per thread, grouped by kind (or by process, by pool, or not at
 * all: the "grouping" property), the user-state (JFR) and the
 * kernel-state lanes of each thread one above the other. */
#pragma once

#include "jvms-critical-path.h"
#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_THREADS_VIEW (jvms_threads_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsThreadsView, jvms_threads_view, JVMS, THREADS_VIEW, JvmsTimeline)

GtkWidget  *jvms_threads_view_new              (JvmsSession     *session);
/* Shows only threads whose name or tid contains @filter (case-insensitive); NULL or "" for
 * all. Property "filter". */
void        jvms_threads_view_set_filter       (JvmsThreadsView *self,
                                                const char      *filter);
const char *jvms_threads_view_get_filter       (JvmsThreadsView *self);
/* "none", "process", "pool" (the name without its trailing number) or "kind" (the default:
 * Java, GC, JIT, VM, JFR, other processes): the nicks of the window's thread-grouping setting.
 * Property "grouping". */
void        jvms_threads_view_set_grouping     (JvmsThreadsView *self,
                                                const char      *grouping);
const char *jvms_threads_view_get_grouping     (JvmsThreadsView *self);
/* Folds or unfolds the group of @key (jvms-thread-rows.h: "kind:java", "pool:worker-#",
 * "kind:other-process/pid:42"); FALSE when no such group shows or it already was so. */
gboolean    jvms_threads_view_set_group_folded (JvmsThreadsView *self,
                                                const char      *key,
                                                gboolean         folded);
gboolean    jvms_threads_view_get_group_folded (JvmsThreadsView *self,
                                                const char      *key);
/* Kind grouping only: groups are JvmsViewThreadKind values (-1: threads of unknown kind). */
void        jvms_threads_view_set_group_collapsed (JvmsThreadsView *self,
                                                   int              kind,
                                                   gboolean         collapsed);
gboolean    jvms_threads_view_get_group_collapsed (JvmsThreadsView *self,
                                                   int              kind);
guint       jvms_threads_view_get_n_rows       (JvmsThreadsView *self);
/* The rows from top to bottom, for the window's state dump (what tests read): a group header
 * as "[NAME]", a thread as its folder name ("4242", "v17"). Free with g_strfreev(). */
char      **jvms_threads_view_dup_row_labels   (JvmsThreadsView *self);
/* Whether row @row is the header of a folded group. */
gboolean    jvms_threads_view_is_row_folded    (JvmsThreadsView *self,
                                                guint            row);
/* Content y of the row of thread @tid (its user lane at y + 2, kernel lane at y + 14), or -1
 * when the thread is not shown. For tests and for scrolling to a thread. */
int         jvms_threads_view_get_row_y        (JvmsThreadsView *self,
                                                gint64           tid);
/* Content y of row @row (as in jvms_threads_view_dup_row_labels' order), or -1 past the last:
 * the same answer as jvms_threads_view_get_row_y for that row's thread, without a search, for
 * callers that walk every row (a search per row is quadratic at thousands of threads). */
int         jvms_threads_view_get_row_y_at     (JvmsThreadsView *self,
                                                guint            row);
/* The thread of row @row in *@tid; FALSE for a group's header row or past the last row. With
 * jvms_threads_view_get_row_y_at, what a caller walking every row needs. */
gboolean    jvms_threads_view_get_row_tid      (JvmsThreadsView *self,
                                                guint            row,
                                                gint64          *tid);

/* The critical path of a thread (docs/critical-path.md) drawn over the rows: a click on a
 * thread's lanes asks for the path of that thread over the selection (or the visible range
 * when nothing is selected), computed in a worker thread; a click on its label clears it.
 * Property "path" (a const JvmsCriticalPath *, NULL when none) notifies when it arrives. */
void        jvms_threads_view_request_path     (JvmsThreadsView  *self,
                                                JvmsHistory      *history,
                                                gint64            tid,
                                                gint64            from,
                                                gint64            to);
/* Shows @path (the view takes it; NULL clears). */
void        jvms_threads_view_set_path         (JvmsThreadsView  *self,
                                                JvmsCriticalPath *path);
const JvmsCriticalPath *jvms_threads_view_get_path (JvmsThreadsView *self);
/* What a tick of the frame clock does while folded groups' summaries are not all counted (a
 * frame on screen counts them for a few milliseconds, the ticks after it go on): counts more for
 * a few milliseconds and redraws from the cache. TRUE while some are left. */
gboolean    jvms_threads_view_step_summaries   (JvmsThreadsView *self);
/* What a frame or a tick may spend on those counts (default 4000 µs; 0: one step of a few
 * threads each, which tests use to see the counts go on over ticks). */
void        jvms_threads_view_set_summary_time (JvmsThreadsView *self,
                                                gint64           us);
/* How the last frame coloured the quanta (jvms_quantum_mode_summary): "coloured by cpu,
 * shaded by ipc from 0 to 2 (exact)". */
char       *jvms_threads_view_dup_quantum_summary (JvmsThreadsView *self);

/* Both lanes of a row as tall: the kernel lane is read as closely as the Java one. */
#define JVMS_THREADS_VIEW_ROW_HEIGHT 26
#define JVMS_THREADS_VIEW_USER_LANE_Y 2
#define JVMS_THREADS_VIEW_KERNEL_LANE_Y 14
#define JVMS_THREADS_VIEW_LANE_HEIGHT 10
/* A group header; a folded one is taller, with the summary of its threads: per column, how
 * many were in each Java state (upper lane) and kernel state (lower lane). */
#define JVMS_THREADS_VIEW_GROUP_HEIGHT 20
#define JVMS_THREADS_VIEW_FOLDED_HEIGHT 36
#define JVMS_THREADS_VIEW_SUMMARY_USER_Y 2
#define JVMS_THREADS_VIEW_SUMMARY_KERNEL_Y 19
#define JVMS_THREADS_VIEW_SUMMARY_HEIGHT 15

G_END_DECLS
