/* jvms-window.h: a window showing one trace: header bar, stacked views, side panel. */
#pragma once

#include <adwaita.h>

#include "jvms-application.h"

G_BEGIN_DECLS

#define JVMS_TYPE_WINDOW (jvms_window_get_type ())
G_DECLARE_FINAL_TYPE (JvmsWindow, jvms_window, JVMS, WINDOW, AdwApplicationWindow)

JvmsWindow *jvms_window_new      (JvmsApplication *app);
/* Starts indexing @file (a trace file or folder) and shows it as it grows. */
void        jvms_window_open     (JvmsWindow      *self,
                                  GFile           *file);
/* The trace shown, or NULL while the start page is up. */
GFile      *jvms_window_get_file (JvmsWindow      *self);

G_END_DECLS
