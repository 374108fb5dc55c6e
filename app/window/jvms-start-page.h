/* jvms-start-page.h: what a window shows before a trace is open: Open, the sample, recent
 * traces. Its buttons activate the window's actions (win.open, win.open-folder, win.open-sample,
 * win.open-recent). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define JVMS_TYPE_START_PAGE (jvms_start_page_get_type ())
G_DECLARE_FINAL_TYPE (JvmsStartPage, jvms_start_page, JVMS, START_PAGE, GtkWidget)

/* Lists @settings' recent-traces, dropping those whose file is gone, and follows changes. */
void jvms_start_page_set_settings (JvmsStartPage *self,
                                   GSettings     *settings);

G_END_DECLS
