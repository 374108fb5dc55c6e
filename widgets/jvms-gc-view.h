/* jvms-gc-view.h: garbage collections, their phases and pauses as lanes; heap used and
 * committed as lines (min and max per pixel, so that peaks survive any zoom). */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_GC_VIEW (jvms_gc_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsGcView, jvms_gc_view, JVMS, GC_VIEW, JvmsTimeline)

GtkWidget *jvms_gc_view_new (JvmsSession *session);

G_END_DECLS
