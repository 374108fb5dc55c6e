/* jvms-window-debug.h: what tests and measurements read of the program, in one place, behind
 * one switch each, read once from the environment:
 *
 *   JVMSCOPE_DEBUG_DUMP_STATE=FILE  each window writes what it shows to FILE, a key file
 *                                   (docs/window.md, "State dump"), whenever that changes (once
 *                                   every handler of the change has run; layout is looked at
 *                                   every 250 ms);
 *                                   tests/app and tests/data read it to know when a step is done.
 *   JVMSCOPE_DEBUG_TIMING           each mark prints "timing: <seconds since launch> <what>" on
 *                                   standard error, launch being the process's start (exec) as
 *                                   the kernel recorded it, so that dynamic linking and GTK's
 *                                   start count.
 *
 * Unset, a hook costs one test of a cached flag. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _JvmsWindow JvmsWindow;

/* A timing mark (JVMSCOPE_DEBUG_TIMING). */
void jvms_debug_mark           (const char *what);
/* What @window shows changed: the state dump is written again if it differs
 * (JVMSCOPE_DEBUG_DUMP_STATE). */
void jvms_window_debug_changed (JvmsWindow *window);

G_END_DECLS
