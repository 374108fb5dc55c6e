/* jvms-background.h: work that reads a whole selection (statistics of tens of millions of
 * events, sorting them) run on threads that yield to the rest of the process.
 *
 * Such work takes seconds of a core. Run on GIO's shared pool (g_task_run_in_thread) it
 * competes as an equal with the main thread drawing the window and with the display server.
 * These threads lower their own priority once (nice +10, Linux's per-thread niceness) and are
 * kept: an unprivileged thread could not raise it back for the shared pool's next user.
 * bench-events, scrolling the table while the statistics of its 10 M rows run, five runs each
 * way alternately: frame p99 lower in every pair (medians 90.9 -> 43.3 ms), the statistics
 * done later (medians 7.6 -> 12.9 s); docs/benchmarks.md. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Runs @func (@task, its source object, its task data, its cancellable) on a background thread
 * and keeps a reference on @task until it returns; @func returns the task's result as
 * g_task_run_in_thread's would. */
void jvms_background_run (GTask           *task,
                          GTaskThreadFunc  func);

/* The niceness the background threads take (for tests): their niceness is the process's
 * plus this, at most 19. */
#define JVMS_BACKGROUND_NICE 10

G_END_DECLS
