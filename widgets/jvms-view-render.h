/* jvms-view-render.h: any of our views (a timeline view or the time ruler) drawn offscreen,
 * for exports, the render command, tests and benches. Apart from both types' files, so that
 * neither includes the other. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void jvms_view_render (GtkWidget *view,
                       cairo_t   *cr,
                       int        width,
                       int        height);

G_END_DECLS
