/* jvms-time-ruler.h: the time axis above the views: ticks whose unit follows the zoom (or the
 * session's time-unit), times relative to the trace start or the time of day (the session's
 * time-origin), the selection and its duration. It redraws on every notification of its
 * session, those two included.
 *
 * Properties: session. */
#pragma once

#include <gtk/gtk.h>

#include "jvms-session.h"

G_BEGIN_DECLS

#define JVMS_TYPE_TIME_RULER (jvms_time_ruler_get_type ())
G_DECLARE_FINAL_TYPE (JvmsTimeRuler, jvms_time_ruler, JVMS, TIME_RULER, GtkWidget)

GtkWidget   *jvms_time_ruler_new         (JvmsSession   *session);
JvmsSession *jvms_time_ruler_get_session (JvmsTimeRuler *self);
void         jvms_time_ruler_set_session (JvmsTimeRuler *self,
                                          JvmsSession   *session);
void         jvms_time_ruler_render      (JvmsTimeRuler *self,
                                          cairo_t       *cr,
                                          int            width,
                                          int            height,
                                          gboolean       dark);

/* The tick step for @span ns over @pixels: 1, 2 or 5 times a power of ten, ticks at least
 * @min_spacing pixels apart; and the label of a tick at @relative ns for that step
 * ("250 µs", "1.5 s"). Exposed for tests. */
gint64       jvms_time_ruler_tick_step   (gint64         span,
                                          int            pixels,
                                          int            min_spacing);
char        *jvms_time_ruler_tick_label  (gint64         relative,
                                          gint64         step);

/* The label of the tick at @time (ns on the history's axis) for tick step @step, as the ruler
 * draws it with its session's time-unit and time-origin. Exposed for tests. */
char        *jvms_time_ruler_format_tick (JvmsTimeRuler *self,
                                          gint64         time,
                                          gint64         step);

G_END_DECLS
