/* jvms-timing.h: where the time from launch to the first frame goes.
 *
 * With JVMSCOPE_DEBUG_TIMING set, each mark prints "timing: <seconds since launch> <what>" on
 * standard error, launch being the process's start (exec) as the kernel recorded it, so that
 * dynamic linking and GTK's start count. Without it, a mark costs one cached getenv. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean jvms_timing_enabled (void);
void     jvms_timing_mark    (const char *what);

G_END_DECLS
