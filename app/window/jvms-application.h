/* jvms-application.h: the Jvmscope application: one window per trace, settings, app actions. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define JVMS_TYPE_APPLICATION (jvms_application_get_type ())
G_DECLARE_FINAL_TYPE (JvmsApplication, jvms_application, JVMS, APPLICATION, AdwApplication)

JvmsApplication *jvms_application_new          (void);
GSettings       *jvms_application_get_settings (JvmsApplication *self);
/* Puts @file first in the recent-traces setting, trimmed to recent-traces-limit. */
void             jvms_application_add_recent   (JvmsApplication *self,
                                                GFile           *file);
/* The sample trace shipped with Jvmscope, installed or in the source tree; NULL if neither. */
GFile           *jvms_application_find_sample  (void);

G_END_DECLS
