/* jvms-object-age-view.h: ages of sampled live objects (JFR's jdk.OldObjectSample) over time:
 * a dot per class (or allocation site) and pixel, sized by how many samples it stands for,
 * and a line for the mean age. Age in time since allocation, or in bytes the JVM allocated
 * since (how many allocations the object survived). */
#pragma once

#include "jvms-object-age-samples.h"
#include "jvms-timeline.h"

G_BEGIN_DECLS

/* The nicks ("time", "bytes") are the schema's object-age-unit values. */
typedef enum
{
  JVMS_OBJECT_AGE_TIME,
  JVMS_OBJECT_AGE_BYTES,
} JvmsObjectAgeUnit;

#define JVMS_TYPE_OBJECT_AGE_UNIT (jvms_object_age_unit_get_type ())
GType jvms_object_age_unit_get_type (void);

#define JVMS_TYPE_OBJECT_AGE_VIEW (jvms_object_age_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsObjectAgeView, jvms_object_age_view, JVMS, OBJECT_AGE_VIEW, JvmsTimeline)

#define JVMS_OBJECT_AGE_VIEW_CHART_HEIGHT 160

GtkWidget *jvms_object_age_view_new          (JvmsSession               *session);
/* Replaces the samples (analysis/jvms-object-age-samples.h; copied, strings interned: few
 * distinct classes and sites). */
void       jvms_object_age_view_set_samples  (JvmsObjectAgeView         *self,
                                              const JvmsObjectAgeSample *samples,
                                              guint                      n_samples);
guint      jvms_object_age_view_get_n_samples (JvmsObjectAgeView        *self);
/* Properties "age-unit" (JvmsObjectAgeUnit) and "by-site" (boolean: group by allocation
 * site instead of class). */
void       jvms_object_age_view_set_age_unit (JvmsObjectAgeView         *self,
                                              JvmsObjectAgeUnit          unit);
void       jvms_object_age_view_set_by_site  (JvmsObjectAgeView         *self,
                                              gboolean                   by_site);

G_END_DECLS
