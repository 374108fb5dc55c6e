/* bench-first-frame.h: the first_frame figure of bench-views. */
#pragma once

#include <adwaita.h>

#include "jvms-session.h"

/* Every view of the window, in its order: threads, CPUs, locks, GC, counters, object age,
 * ruler; each with a reference of its own. */
#define JVMS_BENCH_N_VIEWS 7
void     jvms_bench_new_views            (JvmsSession *session,
                                          GtkWidget   *views[JVMS_BENCH_N_VIEWS]);

/* Seconds since the process was launched (exec). */
double   jvms_bench_seconds_since_launch (void);
/* The bundle of a Handoff run of @seconds recorded with jvmscope-cli record under
 * @cache_dir/jvmscope-bench-views/, recorded now unless already there. */
char    *jvms_bench_recorded_trace       (const char *cache_dir,
                                          int         seconds);
/* Starts indexing @trace as the window does and prints figure first_frame: launch to the first
 * frame of every view drawn from the live history. FALSE when nothing could be drawn. */
gboolean jvms_bench_first_frame          (const char *trace,
                                          int         width,
                                          int         height);
