/* jvms-record-dialog.c: Record… (jvms-record-dialog.h). */
#include "config.h"

#include "jvms-record-dialog.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "jvms-recorder.h"
#include "jvms-running-jvms.h"

struct _JvmsRecordDialog
{
  AdwWindow        parent_instance;

  JvmsRecorder    *recorder;        /* while recording, and after, until the dialog goes */
  gboolean         recording;       /* record_async is under way */
  gboolean         close_when_done; /* the dialog was closed while recording */
  gboolean         disposed;
  GApplication    *held;            /* the application, held while recording */
  GString         *messages;        /* the recorder's messages and account, and errors */
  guint            to_read;         /* of those, the ones that keep the dialog open: not the account */
  char            *error;           /* why the recording failed, or NULL */
  gboolean         nothing_recorded; /* its bundle holds neither layer: not opened */
  GCancellable    *list_cancellable;
  GPtrArray       *jvms;            /* JvmsRunningJvm*: the list's rows, in order */
  guint            listings;        /* listings shown so far (the state dump's, for tests) */
  GtkFileChooserNative *chooser;

  /* Template children */
  GtkWidget       *close_button;
  GtkWidget       *record_button;
  GtkWidget       *stop_button;
  GtkWidget       *form;
  GtkWidget       *mode_switcher;
  GtkStack        *mode_stack;
  AdwEntryRow     *command_row;
  AdwEntryRow     *folder_row;
  GtkWidget       *refresh_button;
  GtkListBox      *jvm_list;
  GtkSpinButton   *duration_spin;
  GtkSwitch       *kernel_switch;
  GtkSwitch       *syscalls_switch;
  GtkSwitch       *sensitive_switch;
  AdwEntryRow     *output_row;
  AdwActionRow    *compare_row;
  GtkSwitch       *compare_switch;
  GtkWidget       *status_group;
  AdwActionRow    *status_row;
  GtkSpinner      *spinner;
  GtkLabel        *message_label;
};

G_DEFINE_FINAL_TYPE (JvmsRecordDialog, jvms_record_dialog, ADW_TYPE_WINDOW)

enum { SIGNAL_RECORDED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---------------------------------------------------------------------------------------------
 * What it shows
 */

static void
show_messages (JvmsRecordDialog *self)
{
  gtk_label_set_text (self->message_label, self->messages->str);
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), self->messages->len > 0);
}

static void
append_text (JvmsRecordDialog *self, const char *text)
{
  if (self->messages->len > 0)
    g_string_append_c (self->messages, '\n');
  g_string_append (self->messages, text);
  show_messages (self);
}

static void
add_message (JvmsRecordDialog *self, const char *text)
{
  self->to_read++;
  append_text (self, text);
}

static const char *
state_label (JvmsRecorderState state)
{
  switch (state)
    {
    case JVMS_RECORDER_STATE_READY: return _("Ready");
    case JVMS_RECORDER_STATE_STARTING: return _("Starting…");
    case JVMS_RECORDER_STATE_RECORDING: return _("Recording");
    case JVMS_RECORDER_STATE_STOPPING: return _("Stopping: the JVM writes its recording…");
    case JVMS_RECORDER_STATE_FINISHED: return _("Recorded");
    case JVMS_RECORDER_STATE_FAILED: return _("Not recorded");
    default: return "";
    }
}

static void
update_status (JvmsRecordDialog *self)
{
  if (self->recorder == NULL)
    return;
  JvmsRecorderState state = jvms_recorder_get_state (self->recorder);
  const char *title = state_label (state);
  /* The recorder finishes whenever it wrote a bundle; the dialog says how much it holds. */
  if (state == JVMS_RECORDER_STATE_FINISHED && self->error != NULL)
    title = self->nothing_recorded ? _("Nothing recorded") : _("Recorded in part");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->status_row), title);
  double elapsed = jvms_recorder_get_elapsed (self->recorder);
  g_autofree char *size = g_format_size (jvms_recorder_get_bundle_size (self->recorder));
  /* Translators: "12.3 s · 4.5 MB": the time recorded and the bundle's size so far. */
  g_autofree char *subtitle = g_strdup_printf (_("%.1f s · %s"), elapsed, size);
  adw_action_row_set_subtitle (self->status_row, subtitle);
  gtk_spinner_set_spinning (self->spinner, self->recording);
}

/* The form is for a recording to come; Stop for the one under way. */
static void
update_controls (JvmsRecordDialog *self)
{
  gtk_widget_set_sensitive (self->form, TRUE);
  gtk_widget_set_visible (self->record_button, !self->recording);
  gtk_widget_set_visible (self->stop_button, self->recording);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.start", !self->recording);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.stop", self->recording);
  gtk_widget_set_visible (self->status_group, self->recorder != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->mode_stack), !self->recording);
  update_status (self);
}

/* ---------------------------------------------------------------------------------------------
 * The running JVMs
 */

/* The process id of the chosen row's JVM, or 0 when none is chosen. */
static GPid
chosen_pid (JvmsRecordDialog *self)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->jvm_list);
  int i = row ? gtk_list_box_row_get_index (row) : -1;
  if (self->jvms == NULL || i < 0 || (guint) i >= self->jvms->len)
    return 0;
  return ((JvmsRunningJvm *) g_ptr_array_index (self->jvms, i))->pid;
}

static void
jvms_listed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(JvmsRecordDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) jvms = jvms_running_jvms_list_finish (result, &error);
  if (self->disposed || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* The JVM the user chose stays chosen when it is still listed: JVMs that start or end
   * meanwhile move the rows, and a choice kept by position would attach to another process. */
  GPid chosen = chosen_pid (self);
  self->listings++;
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->jvm_list))) != NULL)
    gtk_list_box_remove (self->jvm_list, child);
  g_clear_pointer (&self->jvms, g_ptr_array_unref);
  self->jvms = jvms ? g_ptr_array_ref (jvms) : g_ptr_array_new ();

  if (error != NULL || self->jvms->len == 0)
    {
      GtkWidget *row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     error ? _("jcmd could not list the JVMs") : _("No running JVM"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                   error ? error->message : _("Start one, then list them again"));
      gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_append (self->jvm_list, row);
      return;
    }
  for (guint i = 0; i < self->jvms->len; i++)
    {
      const JvmsRunningJvm *jvm = g_ptr_array_index (self->jvms, i);
      GtkWidget *row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     jvm->main_class[0] ? jvm->main_class : _("(main class unknown)"));
      /* Translators: a process id. */
      g_autofree char *pid = g_strdup_printf (_("process %d"), (int) jvm->pid);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), pid);
      gtk_list_box_append (self->jvm_list, row);
      if (chosen != 0 && jvm->pid == chosen)
        gtk_list_box_select_row (self->jvm_list, GTK_LIST_BOX_ROW (row));
    }
}

static void
refresh_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsRecordDialog *self = JVMS_RECORD_DIALOG (widget);
  g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  self->list_cancellable = g_cancellable_new ();
  jvms_running_jvms_list_async (self->list_cancellable, jvms_listed, g_object_ref (self));
}

static void
mode_changed (JvmsRecordDialog *self)
{
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->mode_stack), "attach") == 0)
    refresh_action (GTK_WIDGET (self), NULL, NULL);
}

/* ---------------------------------------------------------------------------------------------
 * The working folder
 */

static void
folder_chosen (GtkNativeDialog *chooser, int response, gpointer user_data)
{
  JvmsRecordDialog *self = user_data;
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;
      if (path != NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->folder_row), path);
    }
  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);
}

static void
choose_folder_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsRecordDialog *self = JVMS_RECORD_DIALOG (widget);
  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Working Folder"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  /* Not g_signal_connect_object: the chooser goes first, in dispose, and the dialog's weak
   * reference would then disconnect from a finalized object. */
  g_signal_connect (self->chooser, "response", G_CALLBACK (folder_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ---------------------------------------------------------------------------------------------
 * Recording
 */

static void
release_application (JvmsRecordDialog *self)
{
  if (self->held != NULL)
    {
      g_application_release (self->held);
      g_clear_object (&self->held);
    }
}

static void
recorder_message (JvmsRecordDialog *self, const char *text)
{
  add_message (self, text);
}

/* What perf recorded and lost: shown while the dialog is open, but no reason to keep it open
 * (the trace's banner says it again). */
static void
recorder_account (JvmsRecordDialog *self, const char *text)
{
  append_text (self, text);
}

/* Whether the bundle folder @path holds a layer the window can read (docs/recording.md). */
static gboolean
bundle_has_layer (const char *path)
{
  static const char * const layers[] = { "recording.jfr", "kernel.perf.data" };
  for (guint i = 0; i < G_N_ELEMENTS (layers); i++)
    {
      g_autofree char *file = g_build_filename (path, layers[i], NULL);
      if (g_file_test (file, G_FILE_TEST_IS_REGULAR))
        return TRUE;
    }
  return FALSE;
}

static void
recorded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(JvmsRecordDialog) self = user_data;
  JvmsRecorder *recorder = JVMS_RECORDER (source);
  g_autoptr(GError) error = NULL;
  gboolean ok = jvms_recorder_record_finish (recorder, result, &error);
  const char *bundle = jvms_recorder_get_bundle_path (recorder);

  self->recording = FALSE;
  if (!self->disposed)
    {
      if (!ok)
        {
          g_free (self->error);
          self->error = g_strdup (error->message);
          /* Translators: %s is the recorder's own message. */
          g_autofree char *text = g_strdup_printf (_("The recording failed: %s"), error->message);
          add_message (self, text);
        }
      /* A bundle without a flight recording still holds what was recorded, and opens; one that
       * holds neither layer (the JVM stopped before JFR started, and no perf) would only say
       * that it cannot be read. */
      if (bundle != NULL && !bundle_has_layer (bundle))
        {
          self->nothing_recorded = TRUE;
          /* Translators: %s is the bundle folder, kept for its bundle.json. */
          g_autofree char *text = g_strdup_printf (_("Nothing was recorded; %s says why."), bundle);
          add_message (self, text);
          bundle = NULL;
        }
      update_controls (self);
      if (bundle != NULL)
        {
          g_autoptr(GFile) file = g_file_new_for_path (bundle);
          g_signal_emit (self, signals[SIGNAL_RECORDED], 0, file);
          /* What could not be recorded stays on screen to be read; else the dialog's work is
           * done. */
          if (self->to_read == 0 || self->close_when_done)
            gtk_window_destroy (GTK_WINDOW (self));
        }
      else if (self->close_when_done)
        gtk_window_destroy (GTK_WINDOW (self));
    }
  release_application (self);
}

/* The bundle folder the form names, or a new one under the user's data folder. */
static char *
default_output (JvmsRecordDialog *self)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *name = g_strdup_printf ("recording-%s.jvmtrace", stamp);
  return g_build_filename (g_get_user_data_dir (), "jvmscope", "recordings", name, NULL);
}

static void
start_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsRecordDialog *self = JVMS_RECORD_DIALOG (widget);
  if (self->recording)
    return;
  g_string_truncate (self->messages, 0);
  self->to_read = 0;
  g_clear_pointer (&self->error, g_free);
  self->nothing_recorded = FALSE;
  show_messages (self);

  gboolean attach = g_strcmp0 (gtk_stack_get_visible_child_name (self->mode_stack), "attach") == 0;
  g_auto(GStrv) argv = NULL;
  GPid pid = 0;
  if (attach)
    {
      pid = chosen_pid (self);
      if (pid == 0)
        {
          add_message (self, _("Choose a running JVM to attach to."));
          return;
        }
    }
  else
    {
      const char *command = gtk_editable_get_text (GTK_EDITABLE (self->command_row));
      g_autoptr(GError) error = NULL;
      if (command[0] == '\0' || !g_shell_parse_argv (command, NULL, &argv, &error))
        {
          /* Translators: %s says what is wrong with the command's quoting. */
          g_autofree char *text = error ? g_strdup_printf (_("The command cannot be read: %s"), error->message)
                                        : g_strdup (_("Type the command that starts the JVM, such as java -cp app.jar Main."));
          add_message (self, text);
          return;
        }
    }

  const char *typed = gtk_editable_get_text (GTK_EDITABLE (self->output_row));
  g_autofree char *out = typed[0] != '\0' ? g_strdup (typed) : default_output (self);
  gtk_editable_set_text (GTK_EDITABLE (self->output_row), out);
  g_autofree char *parent = g_path_get_dirname (out);
  if (g_mkdir_with_parents (parent, 0755) != 0)
    {
      /* Translators: a folder, then why it cannot be made. */
      g_autofree char *text = g_strdup_printf (_("Cannot make the folder %s: %s"), parent, g_strerror (errno));
      add_message (self, text);
      return;
    }

  if (self->recorder != NULL)
    g_signal_handlers_disconnect_by_data (self->recorder, self);
  g_clear_object (&self->recorder);
  self->recorder = jvms_recorder_new (out);
  if (attach)
    jvms_recorder_set_pid (self->recorder, pid);
  else
    {
      jvms_recorder_set_command (self->recorder, (const char * const *) argv);
      const char *folder = gtk_editable_get_text (GTK_EDITABLE (self->folder_row));
      if (folder[0] != '\0')
        jvms_recorder_set_working_directory (self->recorder, folder);
    }
  jvms_recorder_set_duration (self->recorder, gtk_spin_button_get_value (self->duration_spin));
  jvms_recorder_set_kernel (self->recorder, gtk_switch_get_active (self->kernel_switch));
  jvms_recorder_set_syscalls (self->recorder, gtk_switch_get_active (self->syscalls_switch));
  jvms_recorder_set_include_sensitive (self->recorder, gtk_switch_get_active (self->sensitive_switch));
  /* Disconnected in dispose: the recorder can outlive the dialog (a recording being written). */
  g_signal_connect_swapped (self->recorder, "message", G_CALLBACK (recorder_message), self);
  g_signal_connect_swapped (self->recorder, "account", G_CALLBACK (recorder_account), self);
  g_signal_connect_swapped (self->recorder, "notify::state", G_CALLBACK (update_status), self);
  g_signal_connect_swapped (self->recorder, "notify::elapsed", G_CALLBACK (update_status), self);
  g_signal_connect_swapped (self->recorder, "notify::bundle-size", G_CALLBACK (update_status), self);

  /* The program keeps running until the recording is written, whatever windows close. */
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  if (app == NULL && gtk_window_get_transient_for (GTK_WINDOW (self)) != NULL)
    app = gtk_window_get_application (gtk_window_get_transient_for (GTK_WINDOW (self)));
  if (app != NULL)
    {
      self->held = g_object_ref (G_APPLICATION (app));
      g_application_hold (self->held);
    }
  self->recording = TRUE;
  jvms_recorder_record_async (self->recorder, NULL, recorded, g_object_ref (self));
  update_controls (self);
}

static void
stop_action (GtkWidget *widget, const char *name, GVariant *param)
{
  JvmsRecordDialog *self = JVMS_RECORD_DIALOG (widget);
  if (self->recording && self->recorder != NULL)
    jvms_recorder_stop (self->recorder, 0);
}

/* Closing stops a recording cleanly; the dialog stays, saying so, until the bundle is written. */
static gboolean
jvms_record_dialog_close_request (GtkWindow *window)
{
  JvmsRecordDialog *self = JVMS_RECORD_DIALOG (window);
  if (self->recording)
    {
      self->close_when_done = TRUE;
      jvms_recorder_stop (self->recorder, 0);
      return TRUE;
    }
  return GTK_WINDOW_CLASS (jvms_record_dialog_parent_class)->close_request (window);
}

/* ---------------------------------------------------------------------------------------------
 * Debug dump
 */

static void
set_bounds (GKeyFile *kf, const char *key, GtkWidget *widget)
{
  graphene_rect_t r;
  /* Mapped but not yet allocated, a widget has bounds of a few pixels around its origin: a test
   * must not click there. */
  if (!gtk_widget_get_mapped (widget) || gtk_widget_get_width (widget) <= 0
      || gtk_widget_get_height (widget) <= 0 || !gtk_widget_compute_bounds (widget, GTK_WIDGET (gtk_widget_get_root (widget)), &r))
    return;
  int list[4] = { (int) r.origin.x, (int) r.origin.y, (int) r.size.width, (int) r.size.height };
  g_key_file_set_integer_list (kf, "record", key, list, 4);
}

void
jvms_record_dialog_dump_state (JvmsRecordDialog *self, GKeyFile *kf)
{
  g_return_if_fail (JVMS_IS_RECORD_DIALOG (self));
  static const char * const states[] = { "ready", "starting", "recording", "stopping", "finished", "failed" };
  JvmsRecorderState state = self->recorder ? jvms_recorder_get_state (self->recorder) : JVMS_RECORDER_STATE_READY;
  g_key_file_set_boolean (kf, "record", "open", TRUE);
  g_key_file_set_boolean (kf, "record", "compare", jvms_record_dialog_get_compare (self));
  g_key_file_set_string (kf, "record", "mode", gtk_stack_get_visible_child_name (self->mode_stack));
  g_key_file_set_boolean (kf, "record", "recording", self->recording);
  g_key_file_set_string (kf, "record", "state", states[state]);
  g_key_file_set_double (kf, "record", "elapsed", self->recorder ? jvms_recorder_get_elapsed (self->recorder) : 0);
  g_key_file_set_uint64 (kf, "record", "bundle-size", self->recorder ? jvms_recorder_get_bundle_size (self->recorder) : 0);
  const char *bundle = self->recorder ? jvms_recorder_get_bundle_path (self->recorder) : NULL;
  g_key_file_set_string (kf, "record", "bundle", bundle ? bundle : "");
  g_key_file_set_string (kf, "record", "output", gtk_editable_get_text (GTK_EDITABLE (self->output_row)));
  g_key_file_set_string (kf, "record", "error", self->error ? self->error : "");
  g_autofree char *messages = g_strescape (self->messages->str, "");
  g_key_file_set_string (kf, "record", "messages", messages);
  g_autoptr(GString) jvms = g_string_new (NULL);
  for (guint i = 0; self->jvms != NULL && i < self->jvms->len; i++)
    {
      const JvmsRunningJvm *jvm = g_ptr_array_index (self->jvms, i);
      g_string_append_printf (jvms, "%d %s;", (int) jvm->pid, jvm->main_class);
    }
  g_key_file_set_string (kf, "record", "jvms", jvms->str);
  /* The chosen row's index in that list, or -1 (a refresh empties the list and the choice). */
  GtkListBoxRow *chosen = gtk_list_box_get_selected_row (self->jvm_list);
  g_key_file_set_integer (kf, "record", "chosen-jvm", chosen != NULL ? gtk_list_box_row_get_index (chosen) : -1);
  g_key_file_set_integer (kf, "record", "chosen-pid", (int) chosen_pid (self));
  g_key_file_set_integer (kf, "record", "listings", (int) self->listings);
  set_bounds (kf, "command-bounds", GTK_WIDGET (self->command_row));
  set_bounds (kf, "folder-bounds", GTK_WIDGET (self->folder_row));
  set_bounds (kf, "duration-bounds", GTK_WIDGET (self->duration_spin));
  set_bounds (kf, "kernel-bounds", GTK_WIDGET (self->kernel_switch));
  set_bounds (kf, "output-bounds", GTK_WIDGET (self->output_row));
  set_bounds (kf, "compare-bounds", GTK_WIDGET (self->compare_switch));
  set_bounds (kf, "record-bounds", self->record_button);
  set_bounds (kf, "stop-bounds", self->stop_button);
  set_bounds (kf, "close-bounds", self->close_button);
  set_bounds (kf, "refresh-bounds", self->refresh_button);
  /* The switcher's buttons, in the stack's order: launch, attach. */
  GtkWidget *tab = gtk_widget_get_first_child (self->mode_switcher);
  if (tab != NULL)
    set_bounds (kf, "launch-bounds", tab);
  if (tab != NULL && (tab = gtk_widget_get_next_sibling (tab)) != NULL)
    set_bounds (kf, "attach-bounds", tab);
  /* The rows of the JVMs listed, in the order of "jvms". */
  guint i = 0;
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->jvm_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row), i++)
    {
      g_autofree char *key = g_strdup_printf ("jvm-%u-bounds", i);
      set_bounds (kf, key, row);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Object
 */

gboolean
jvms_record_dialog_get_compare (JvmsRecordDialog *self)
{
  g_return_val_if_fail (JVMS_IS_RECORD_DIALOG (self), FALSE);
  return gtk_widget_get_visible (GTK_WIDGET (self->compare_row)) && gtk_switch_get_active (self->compare_switch);
}

void
jvms_record_dialog_set_open_trace (JvmsRecordDialog *self, GFile *trace)
{
  g_return_if_fail (JVMS_IS_RECORD_DIALOG (self));
  /* The choice is the recording's: it stays as it is while one is under way. */
  if (self->recording)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->compare_row), trace != NULL);
  if (trace == NULL)
    return;
  g_autofree char *name = g_file_get_basename (trace);
  /* Translators: %s is the trace the window shows, the baseline of the comparison. */
  g_autofree char *subtitle = g_strdup_printf (_("When it is recorded, what changed from %s"), name);
  adw_action_row_set_subtitle (self->compare_row, subtitle);
}

gboolean
jvms_record_dialog_is_recording (JvmsRecordDialog *self)
{
  g_return_val_if_fail (JVMS_IS_RECORD_DIALOG (self), FALSE);
  return self->recording;
}

static void
jvms_record_dialog_dispose (GObject *object)
{
  JvmsRecordDialog *self = JVMS_RECORD_DIALOG (object);

  /* Destroyed with its window while recording: the recording is stopped cleanly and finishes on
   * the main loop (the async call holds the recorder and a reference to this dialog, and the
   * application is held until then), but nothing is shown or opened any more. */
  self->disposed = TRUE;
  if (self->recording && self->recorder != NULL)
    jvms_recorder_stop (self->recorder, 0);
  /* The recording under way holds its recorder (record_async's task) until it completes. */
  if (self->recorder != NULL)
    g_signal_handlers_disconnect_by_data (self->recorder, self);
  g_clear_object (&self->recorder);
  g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), JVMS_TYPE_RECORD_DIALOG);
  G_OBJECT_CLASS (jvms_record_dialog_parent_class)->dispose (object);
}

static void
jvms_record_dialog_finalize (GObject *object)
{
  JvmsRecordDialog *self = JVMS_RECORD_DIALOG (object);
  release_application (self);
  g_clear_object (&self->recorder);
  g_clear_pointer (&self->jvms, g_ptr_array_unref);
  g_string_free (self->messages, TRUE);
  g_free (self->error);
  G_OBJECT_CLASS (jvms_record_dialog_parent_class)->finalize (object);
}

static void
jvms_record_dialog_class_init (JvmsRecordDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = jvms_record_dialog_dispose;
  object_class->finalize = jvms_record_dialog_finalize;
  window_class->close_request = jvms_record_dialog_close_request;

  signals[SIGNAL_RECORDED] = g_signal_new ("recorded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_FILE);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/jvmscope/Jvmscope/jvms-record-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, close_button);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, record_button);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, stop_button);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, form);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, mode_switcher);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, mode_stack);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, command_row);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, folder_row);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, refresh_button);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, jvm_list);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, duration_spin);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, kernel_switch);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, syscalls_switch);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, sensitive_switch);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, output_row);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, compare_row);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, compare_switch);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, status_group);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, status_row);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, JvmsRecordDialog, message_label);

  gtk_widget_class_install_action (widget_class, "record.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "record.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "record.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "record.choose-folder", NULL, choose_folder_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
jvms_record_dialog_init (JvmsRecordDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->messages = g_string_new (NULL);
  /* The stack is the dialog's own child and goes with it (see choose_folder_action). */
  g_signal_connect_swapped (self->mode_stack, "notify::visible-child", G_CALLBACK (mode_changed), self);
  g_autofree char *out = default_output (self);
  gtk_editable_set_text (GTK_EDITABLE (self->output_row), out);
  gtk_editable_set_text (GTK_EDITABLE (self->folder_row), g_get_home_dir ());
  update_controls (self);
}

JvmsRecordDialog *
jvms_record_dialog_new (GtkWindow *parent, gboolean compare)
{
  JvmsRecordDialog *self = g_object_new (JVMS_TYPE_RECORD_DIALOG, "transient-for", parent, NULL);
  gtk_switch_set_active (self->compare_switch, compare);
  return self;
}
