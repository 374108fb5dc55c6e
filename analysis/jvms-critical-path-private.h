/* jvms-critical-path-private.h: for tests only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The bound on a path's segments (2^20; 0 restores it). A test lowers it to check, on a small
 * history, that every step of a walk keeps to it (tests/causality/test-critical-path-bound.c).
 * Not thread-safe: set it before computing paths. */
void jvms_critical_path_set_max_segments (guint max);

G_END_DECLS
