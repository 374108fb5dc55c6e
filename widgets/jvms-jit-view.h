/* jvms-jit-view.h: a row per JIT compiler thread (JIT/<tid>/compilation, /tier, /size: from
 * jdk.Compilation), each compilation a bar coloured per method above a stripe coloured by its
 * tier; and, when the trace's event store has them, a row of the deoptimizations
 * (jdk.Deoptimization) as ticks. */
#pragma once

#include "jvms-event-store.h"
#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_JIT_VIEW (jvms_jit_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsJitView, jvms_jit_view, JVMS, JIT_VIEW, JvmsTimeline)

#define JVMS_JIT_VIEW_ROW_HEIGHT 20
#define JVMS_JIT_VIEW_METHOD_Y 2
#define JVMS_JIT_VIEW_METHOD_HEIGHT 11
#define JVMS_JIT_VIEW_TIER_Y 14
#define JVMS_JIT_VIEW_TIER_HEIGHT 4

GtkWidget *jvms_jit_view_new             (JvmsSession    *session);
/* The event store beside the index (NULL: none), where the deoptimizations are read. */
void       jvms_jit_view_set_event_store (JvmsJitView    *self,
                                          JvmsEventStore *store);
guint      jvms_jit_view_get_n_compilers (JvmsJitView    *self);
/* Deoptimizations starting in the visible range, as the last computation counted them. */
guint64    jvms_jit_view_get_n_deoptimizations (JvmsJitView *self);
/* The colour of compile level @tier (1-3: C1, 4: C2). */
JvmsColor  jvms_jit_tier_color           (const JvmsPalette *palette,
                                          gint64             tier);

G_END_DECLS
