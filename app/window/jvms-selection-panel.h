/* jvms-selection-panel.h: the side panel that follows the selected time range: time per
 * thread state, events by type, lock waits, GC pauses, counter statistics, findings. */
#pragma once

#include <gtk/gtk.h>

#include "jvms-range-stats.h"
#include "jvms-session.h"

G_BEGIN_DECLS

#define JVMS_TYPE_SELECTION_PANEL (jvms_selection_panel_get_type ())
G_DECLARE_FINAL_TYPE (JvmsSelectionPanel, jvms_selection_panel, JVMS, SELECTION_PANEL, GtkWidget)

/* @history: NULL or the index; the panel takes a reference. */
void                      jvms_selection_panel_set_history (JvmsSelectionPanel *self,
                                                            JvmsHistory        *history);
/* The session whose time-unit and time-origin the panel writes times in, and whose selection
 * it follows (its statistics are those of the selected range). */
void                      jvms_selection_panel_set_session (JvmsSelectionPanel *self,
                                                            JvmsSession        *session);
/* The range label's text, for the state dump. */
const char               *jvms_selection_panel_get_range_text  (JvmsSelectionPanel *self);
/* The point-sample store beside the index (counts of sampled events), or NULL. */
void                      jvms_selection_panel_set_samples_path (JvmsSelectionPanel *self,
                                                                 const char         *samples_path);
/* The statistics shown, or NULL when nothing is selected or they are being computed. */
const JvmsRangeStats *jvms_selection_panel_get_stats   (JvmsSelectionPanel *self);
/* Places @section (the findings list) above the statistics. */
void                      jvms_selection_panel_add_section (JvmsSelectionPanel *self,
                                                            GtkWidget          *section);

/* Group [panel] of the state dump: the thread-state list (jvms-thread-state-table.h). */
void                      jvms_selection_panel_dump_state  (JvmsSelectionPanel *self,
                                                            GKeyFile           *key_file);

G_END_DECLS
