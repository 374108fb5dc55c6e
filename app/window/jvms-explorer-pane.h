/* jvms-explorer-pane.h: the Performance Explorer in the window (issue 22, docs/records.md, "The
 * Explorer pane"): the scheduling quanta of the selected range (no selection: the whole trace),
 * kept by a filter and with metrics the user writes, in a sortable table, with the statistics of
 * every metric over the records shown, the same numbers as `jvmscope-cli records --from --to
 * --filter --metric --stats`.
 *
 * The pane follows its session's selection. Each change (of the range, the filter or the metrics,
 * the latter two when Enter is pressed in their entries) cancels the query in flight and starts
 * another in a worker (jvms-explorer-query.h); an expression that does not parse leaves the
 * records shown and says why under the entries.
 *
 * Properties (EXPLICIT_NOTIFY, read-only):
 *   busy   gboolean   a query is running
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-session.h"

G_BEGIN_DECLS

#define JVMS_TYPE_EXPLORER_PANE (jvms_explorer_pane_get_type ())
G_DECLARE_FINAL_TYPE (JvmsExplorerPane, jvms_explorer_pane, JVMS, EXPLORER_PANE, GtkWidget)

void     jvms_explorer_pane_set_session   (JvmsExplorerPane *self,
                                           JvmsSession      *session);
/* The complete index of the trace shown (NULL: none yet) and its event store (the events:TYPE
 * sets and the graph's markers): the pane reads the records again (those read while indexing
 * went on were a part), with the saved sets and metrics beside the index
 * (jvms_record_sets_path_for_index), as the command line does. */
void     jvms_explorer_pane_set_index_path (JvmsExplorerPane *self,
                                            const char       *index_path,
                                            const char       *events_path);
gboolean jvms_explorer_pane_get_busy      (JvmsExplorerPane *self);
/* Puts the keyboard focus in the filter entry. */
void     jvms_explorer_pane_focus_filter  (JvmsExplorerPane *self);

/* What the pane shows, in the [explorer] group (docs/window.md, "State dump"). */
void     jvms_explorer_pane_dump_state    (JvmsExplorerPane *self,
                                           GKeyFile         *key_file);

G_END_DECLS
