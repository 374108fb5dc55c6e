/* jvms-threads-path.h: the critical path of a thread (analysis/jvms-critical-path.h) drawn over
 * the threads view: a bar along each segment on its thread's row, and an arrow at each hand-off
 * from the waker's row to the woken's (docs/critical-path.md). */
#pragma once

#include "jvms-critical-path.h"
#include "jvms-session.h"
#include "jvms-timeline.h"

G_BEGIN_DECLS

/* Content y of the row of thread @tid, or -1 when it does not show. */
typedef int (*JvmsThreadsPathRowY) (gint64 tid, gpointer data);

/* Draws @path's segments and hand-offs inside @g's visible range and rows, rows @row_height
 * pixels high. Segments and hand-offs narrower than a pixel are drawn once per pixel column and
 * row, so that a path of a million segments costs what the screen holds. */
void jvms_threads_path_draw (cairo_t                    *cr,
                             const JvmsTimelineGeometry *g,
                             const JvmsCriticalPath     *path,
                             int                         row_height,
                             JvmsThreadsPathRowY         row_y,
                             gpointer                    data);

/* Draws each of @spans (JvmsSessionSpan: a safepoint's straggler, from the arm to its arrival)
 * on its thread's row as an outlined box, 3 pixels wide at least so that a short one shows. */
void jvms_threads_spans_draw (cairo_t                    *cr,
                              const JvmsTimelineGeometry *g,
                              const GArray               *spans,
                              int                         row_height,
                              JvmsThreadsPathRowY         row_y,
                              gpointer                    data);

G_END_DECLS
