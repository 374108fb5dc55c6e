/* jvms-view-render.c: offscreen drawing of any view (see the header). */
#include "config.h"

#include "jvms-view-render.h"

#include "jvms-palette.h"
#include "jvms-time-ruler.h"
#include "jvms-timeline.h"

void
jvms_view_render (GtkWidget *view,
                  cairo_t   *cr,
                  int        width,
                  int        height)
{
  gboolean dark = jvms_palette_system_is_dark ();

  if (JVMS_IS_TIMELINE (view))
    jvms_timeline_render (JVMS_TIMELINE (view), cr, width, height, dark);
  else if (JVMS_IS_TIME_RULER (view))
    jvms_time_ruler_render (JVMS_TIME_RULER (view), cr, width, height, dark);
  else
    g_return_if_reached ();
}
