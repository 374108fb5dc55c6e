/* jvms-thread-marks.h: a layer over the threads view that marks instants on threads' rows: the
 * samples where the profiler's selected method was on the stack, so that one sees *when* that
 * code ran. A widget of its own, laid over the threads view in a GtkOverlay: it reads the
 * view's rows (jvms_threads_view_get_row_y) and time axis (jvms_timeline_get_geometry) and
 * takes no input.
 *
 * A mark is a tick across the thread's Java-state lane, one per pixel column at most. The
 * columns of each thread are computed once per visible range and width; snapshot only draws.
 */
#pragma once

#include "jvms-method-instants.h"
#include "jvms-threads-view.h"

G_BEGIN_DECLS

#define JVMS_TYPE_THREAD_MARKS (jvms_thread_marks_get_type ())
G_DECLARE_FINAL_TYPE (JvmsThreadMarks, jvms_thread_marks, JVMS, THREAD_MARKS, GtkWidget)

/* A GtkOverlay holding @view with a marks layer over it; the layer is returned in @marks. */
GtkWidget          *jvms_thread_marks_wrap          (JvmsThreadsView     *view,
                                                     JvmsThreadMarks    **marks);
/* NULL: no marks. */
void                jvms_thread_marks_set_instants  (JvmsThreadMarks     *self,
                                                     JvmsMethodInstants  *instants);
JvmsMethodInstants *jvms_thread_marks_get_instants  (JvmsThreadMarks     *self);
/* Threads with at least one mark, and marks (pixel columns) drawn by the last frame: for the
 * window's state dump. */
guint               jvms_thread_marks_get_n_threads (JvmsThreadMarks     *self);
guint               jvms_thread_marks_get_n_drawn   (JvmsThreadMarks     *self);
/* Draws the marks into @cr as the threads view would be drawn at @width x @height (export). */
void                jvms_thread_marks_render        (JvmsThreadMarks     *self,
                                                     cairo_t             *cr,
                                                     int                  width,
                                                     int                  height,
                                                     gboolean             dark);

G_END_DECLS
