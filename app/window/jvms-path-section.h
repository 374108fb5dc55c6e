/* jvms-path-section.h: the side panel's section for the critical path the threads view shows
 * (docs/critical-path.md): the time per thread on the path and its segments with their share. */
#pragma once

#include <gtk/gtk.h>

#include "jvms-critical-path.h"
#include "jvms-session.h"

G_BEGIN_DECLS

#define JVMS_TYPE_PATH_SECTION (jvms_path_section_get_type ())
G_DECLARE_FINAL_TYPE (JvmsPathSection, jvms_path_section, JVMS, PATH_SECTION, GtkBox)

GtkWidget  *jvms_path_section_new      (JvmsSession           *session);
/* Shows @path (not kept: copied into text); NULL hides the section. */
void        jvms_path_section_set_path (JvmsPathSection        *self,
                                        const JvmsCriticalPath *path);
/* The text shown, for the state dump. */
const char *jvms_path_section_get_text (JvmsPathSection        *self);

G_END_DECLS
