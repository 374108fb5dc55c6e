/* jvms-range-banner.h: the default range of a recording of an attached JVM, said and shown.
 * The kernel layer of such a recording starts before the flight recording and stops after it
 * (bundle.json `timing`); only in between did both layers record. The window opens on that
 * span, as `jvmscope-cli analyze` reports it (jvms_scope_default_range), and this banner says
 * so, with the margins' lengths and a toggle that widens the views to the whole kernel span. */
#pragma once

#include <gtk/gtk.h>

#include "jvms-history.h"
#include "jvms-session.h"

G_BEGIN_DECLS

#define JVMS_TYPE_RANGE_BANNER (jvms_range_banner_get_type ())
G_DECLARE_FINAL_TYPE (JvmsRangeBanner, jvms_range_banner, JVMS, RANGE_BANNER, GtkWidget)

GtkWidget *jvms_range_banner_new         (void);
/* A complete @history (NULL: none): when it has a default range the banner shows and
 * @session's visible range becomes that range; else the banner hides and leaves @session. */
void       jvms_range_banner_set_history (JvmsRangeBanner *self,
                                          JvmsHistory     *history,
                                          JvmsSession     *session);
/* Section "range" of the state dump (docs/window.md). */
void       jvms_range_banner_dump_state  (JvmsRangeBanner *self,
                                          GKeyFile        *key_file);

G_END_DECLS
