/* jvms-findings-list.h: the root-cause findings (analysis/jvms-report.h) for the session's
 * selected range, or the visible range when nothing is selected, in the side panel. Each
 * finding is a row; activating one highlights its threads (and monitor) in the views. */
#pragma once

#include <gtk/gtk.h>

#include "jvms-session.h"

G_BEGIN_DECLS

#define JVMS_TYPE_FINDINGS_LIST (jvms_findings_list_get_type ())
G_DECLARE_FINAL_TYPE (JvmsFindingsList, jvms_findings_list, JVMS, FINDINGS_LIST, GtkWidget)

/* Follows @session's history, selection and visible range, and writes durations in its
 * time-unit. */
GtkWidget *jvms_findings_list_new              (JvmsSession      *session);
/* The point-sample store beside the index (NULL: none; execution samples then go unused). */
void       jvms_findings_list_set_samples_path (JvmsFindingsList *self,
                                                const char       *samples_path);
/* Rows shown; 0 while computing or with nothing to show. For tests and the state dump. */
guint      jvms_findings_list_get_n_findings   (JvmsFindingsList *self);
/* A computation is pending or running: the rows shown are about to be replaced. */
gboolean   jvms_findings_list_is_busy          (JvmsFindingsList *self);
/* The range the shown findings are for; TRUE when it was the selection, FALSE when it was
 * the visible range (or nothing is shown: 0, 0). */
gboolean   jvms_findings_list_get_range        (JvmsFindingsList *self,
                                                gint64           *from,
                                                gint64           *to);
/* The @index-th row, or NULL. */
GtkWidget *jvms_findings_list_get_row          (JvmsFindingsList *self,
                                                guint             index);
/* The JVM the shown findings are of (the history's jvm-pid when they were computed), -1 when
 * none was known. */
gint64     jvms_findings_list_get_jvm_pid      (JvmsFindingsList *self);
/* The @index-th finding's time in ns as the report has it (the row shows it rounded), or -1. */
gint64     jvms_findings_list_get_lost_ns      (JvmsFindingsList *self,
                                                guint             index);
/* Activates the @index-th finding, as a click does (highlights its threads). */
void       jvms_findings_list_activate         (JvmsFindingsList *self,
                                                guint             index);

G_END_DECLS
