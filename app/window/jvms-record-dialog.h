/* jvms-record-dialog.h: Record… — a recording made from the window through the recorder library
 * (app/recorder/jvms-recorder.h), after Sysprof's greeter: what to record (a command to launch,
 * with its working folder, or a running JVM chosen from `jcmd -l`'s list), for how long, with
 * `jvmscope-cli record`'s options; then its elapsed time and the bundle's size while it records,
 * what could not be recorded and how to allow it (the recorder's messages), and Stop.
 *
 * The recorder runs on the main loop (it waits for its subprocesses asynchronously), so the
 * window stays responsive. The dialog holds the application while it records: closing the dialog
 * or its window stops the recording cleanly (the JVM writes its flight recording, perf stops,
 * bundle.json is written) before the program may exit. When a bundle was written — complete, or
 * holding what could be recorded — the dialog emits "recorded" with its folder; from a window
 * that shows a trace, it offers to compare the recording with that trace instead of opening it.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define JVMS_TYPE_RECORD_DIALOG (jvms_record_dialog_get_type ())
G_DECLARE_FINAL_TYPE (JvmsRecordDialog, jvms_record_dialog, JVMS, RECORD_DIALOG, AdwWindow)

/* @compare: the choice "Compare with the open trace" is on at first. */
JvmsRecordDialog *jvms_record_dialog_new         (GtkWindow        *parent,
                                                  gboolean          compare);
/* The trace the window shows (NULL: none): the dialog then offers to compare the recording with
 * it, a switch naming it. Left as it is while a recording is under way. */
void              jvms_record_dialog_set_open_trace (JvmsRecordDialog *self,
                                                     GFile            *trace);
/* Whether the recording is to be compared with the open trace (offered and chosen): the window
 * then opens the comparison instead of the bundle. */
gboolean          jvms_record_dialog_get_compare (JvmsRecordDialog *self);
gboolean          jvms_record_dialog_is_recording (JvmsRecordDialog *self);

/* [record] of the window's state dump (docs/window.md): the state, elapsed time, size,
 * messages, the JVMs listed, and where the controls are, in the dialog's coordinates. */
void              jvms_record_dialog_dump_state  (JvmsRecordDialog *self,
                                                  GKeyFile         *key_file);

/* Signal "recorded" (GFile *bundle): a bundle was written. */

G_END_DECLS
