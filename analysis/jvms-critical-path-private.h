/* jvms-critical-path-private.h: for tests only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The bound on a path's segments (2^20; 0 restores it). A test lowers it to check, on a small
 * history, that every step of a walk keeps to it (tests/causality/test-critical-path-bound.c).
 * Not thread-safe: set it before computing paths. */
void jvms_critical_path_set_max_segments (guint max);

/* The least segment array kept for the next path (2^16; 0 restores it). A test lowers it to see,
 * on a small history, that a path computed in the array another path left is the same path
 * (tests/causality/test-critical-path-bound.c). Not thread-safe: set it before computing paths. */
void jvms_critical_path_set_keep_min (guint segments);

/* Whether the causes' spans are merged as the walk adds them (TRUE, the default) or all kept
 * and merged at the end, as a path whose spans come out of order is computed again. A test
 * compares the two (tests/causality/test-critical-path-bound.c). Not thread-safe. */
void jvms_critical_path_set_stream_spans (gboolean stream);
/* Has every walk with spans merged as they come taken as having met them out of order, so that
 * each path is computed again keeping them: a test sees that computation give the same path. */
void jvms_critical_path_force_spans_out_of_order (gboolean force);

G_END_DECLS
