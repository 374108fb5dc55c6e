/* jvms-profiler-pane.h: where in the code the time went, for the selected range and the chosen
 * threads (docs/profile.md, "The profiler pane").
 *
 * The pane follows its session: the selection (no selection: the whole trace, as
 * `jvmscope-cli profile` without --from and --to) and the highlighted threads (none: all
 * threads). Each change cancels the query in flight and starts another in a worker
 * (jvms_profile_query_async); the flame graph, the call tree, the callers and callees of the
 * selected method and the method table show its answer. The selected method's instants on
 * sampled stacks are collected in a worker too and published as the "instants" property (the
 * window marks them on the threads view).
 *
 * Properties (EXPLICIT_NOTIFY, read-only):
 *   tree       JvmsCallTree*        the answer shown (NULL: none yet)
 *   instants   JvmsMethodInstants*  the selected method's instants (NULL: none)
 *   busy       gboolean             a query or a search for instants is running
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-call-tree.h"
#include "jvms-method-instants.h"
#include "jvms-session.h"

G_BEGIN_DECLS

#define JVMS_TYPE_PROFILER_PANE (jvms_profiler_pane_get_type ())
G_DECLARE_FINAL_TYPE (JvmsProfilerPane, jvms_profiler_pane, JVMS, PROFILER_PANE, GtkWidget)

void                jvms_profiler_pane_set_session      (JvmsProfilerPane *self,
                                                         JvmsSession      *session);
/* The sample store of the complete index (NULL: none, the pane says so). */
void                jvms_profiler_pane_set_samples_path (JvmsProfilerPane *self,
                                                         const char       *samples_path);
JvmsCallTree       *jvms_profiler_pane_get_tree         (JvmsProfilerPane *self);
JvmsMethodInstants *jvms_profiler_pane_get_instants     (JvmsProfilerPane *self);
gboolean            jvms_profiler_pane_get_busy         (JvmsProfilerPane *self);

/* A kind's name ("cpu", "alloc", ...) or an event type; FALSE when the pane offers no such. */
gboolean            jvms_profiler_pane_set_kind         (JvmsProfilerPane *self,
                                                         const char       *kind);
/* "flame", "tree", "callers", "methods". */
void                jvms_profiler_pane_show_page        (JvmsProfilerPane *self,
                                                         const char       *page);
/* What the window's actions do (win.profile-*). */
gboolean            jvms_profiler_pane_zoom_out         (JvmsProfilerPane *self);
void                jvms_profiler_pane_zoom_reset       (JvmsProfilerPane *self);
void                jvms_profiler_pane_expand_hottest   (JvmsProfilerPane *self);
void                jvms_profiler_pane_focus_search     (JvmsProfilerPane *self);
void                jvms_profiler_pane_focus_kind       (JvmsProfilerPane *self);
void                jvms_profiler_pane_next_color_mode  (JvmsProfilerPane *self);

/* Whether the trace has CPU samples (what the window shows the pane for by default). */
gboolean            jvms_profiler_pane_has_cpu_samples  (JvmsProfilerPane *self);

/* Exports of what is shown: the flame graph as SVG or PNG by @file's name (as wide as on
 * screen, 800 pixels at least; jvms_flame_graph_write), the folded stacks and the method table
 * as CSV (NULL without a tree). */
gboolean            jvms_profiler_pane_write_flame      (JvmsProfilerPane *self,
                                                         GFile            *file,
                                                         gboolean          dark,
                                                         GError          **error);
char               *jvms_profiler_pane_dup_folded       (JvmsProfilerPane *self);
char               *jvms_profiler_pane_dup_csv          (JvmsProfilerPane *self);

/* What the pane shows, in the [profiler] group (docs/window.md, "State dump"). */
void                jvms_profiler_pane_dump_state       (JvmsProfilerPane *self,
                                                         GKeyFile         *key_file);

G_END_DECLS
