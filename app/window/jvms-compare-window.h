/* jvms-compare-window.h: Compare With… — what changed between the trace a window shows (the
 * baseline) and another (docs/compare.md, "In the window"). Both traces are opened as the
 * window opens one (their indexes, from the cache when they were indexed before), each side's
 * JVM and range chosen as `jvmscope-cli compare` chooses them without options, and the
 * comparison computed in a worker (jvms_compare_compute_async); the window then shows its
 * tables in a sortable table (jvms-compare-table.h): the same rows, numbers, uncertainties and
 * significance as `jvmscope-cli compare --json BASELINE OTHER`, and under it the differential
 * flame graph (jvms-diff-flame.h; `compare --profile`). Each side's range is its default, the
 * baseline's window's selection (jvms_compare_window_follow_selection) or what is typed in the
 * range entries above the table.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define JVMS_TYPE_COMPARE_WINDOW (jvms_compare_window_get_type ())
G_DECLARE_FINAL_TYPE (JvmsCompareWindow, jvms_compare_window, JVMS, COMPARE_WINDOW, AdwWindow)

/* Starts comparing @other with @baseline (trace files or folders). */
JvmsCompareWindow *jvms_compare_window_new        (GtkWindow         *parent,
                                                   GFile             *baseline,
                                                   GFile             *other);

/* Compares @side (0: the baseline, 1: the other) over [@from, @to) (epoch ns) instead of its
 * default range (@to <= @from: the default again), and again now if both traces are open. */
void               jvms_compare_window_set_range  (JvmsCompareWindow *self,
                                                   guint              side,
                                                   gint64             from,
                                                   gint64             to);
/* The baseline's range follows @session's selection (a JvmsSession: the main window's views):
 * the selection now, and each new one. */
void               jvms_compare_window_follow_selection (JvmsCompareWindow *self,
                                                         gpointer           session);

/* [compare] of the window's state dump (docs/window.md): the traces, busy, error, per kind row
 * of the comparison "KIND CHANGE_PER_S UNCERTAINTY_PER_S SIGNIFICANT;", and the table's rows,
 * cells and headers (docs/compare.md, "In the window"). */
void               jvms_compare_window_dump_state (JvmsCompareWindow *self,
                                                   GKeyFile          *key_file);

G_END_DECLS
