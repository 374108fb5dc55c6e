/* jvms-window.c: the trace window: opening a trace, indexing and its progress, problems,
 * layout. Its actions are in jvms-window-actions.c, what tests read in jvms-window-debug.c,
 * behind jvms-window-private.h. */
#include "config.h"

#include <glib/gi18n.h>

#include "jvms-window-private.h"

enum {
  PROP_0,
  PROP_SHOW_SIDE_PANEL,
  PROP_SHOW_EVENT_TABLE,
  PROP_SEARCH_MODE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (JvmsWindow, jvms_window, ADW_TYPE_APPLICATION_WINDOW)

/* ---------------------------------------------------------------------------------------------
 * Problems: a banner above the views, with the reader's own message. The same banner, in calm
 * colours, carries the notes on a trace read in full (some states the trace cannot tell).
 */

static void
show_banner (JvmsWindow *self, const char *text, gboolean is_note)
{
  g_free (self->problem);
  self->problem = g_strdup (text);
  self->problem_is_note = is_note;
  GtkWidget *label = GTK_WIDGET (self->problem_label);
  GtkWidget *box = gtk_widget_get_parent (label);
  GtkWidget *icon = gtk_widget_get_prev_sibling (label);
  if (is_note)
    {
      gtk_widget_remove_css_class (box, "jvms-problem-banner");
      gtk_widget_add_css_class (box, "toolbar");
    }
  else
    {
      gtk_widget_remove_css_class (box, "toolbar");
      gtk_widget_add_css_class (box, "jvms-problem-banner");
    }
  if (GTK_IS_IMAGE (icon))
    gtk_image_set_from_icon_name (GTK_IMAGE (icon),
                                  is_note ? "dialog-information-symbolic" : "dialog-warning-symbolic");
  gtk_label_set_text (self->problem_label, text ? text : "");
  gtk_revealer_set_reveal_child (self->problem_revealer, text != NULL);
  jvms_window_debug_changed (self);
}

static void
show_problem (JvmsWindow *self, const char *text)
{
  show_banner (self, text, FALSE);
}

/* What kind of recording the trace is, when it holds only a profiler's samples (no thread
 * states): said first, so that a user knows what the views can and cannot show
 * (docs/writers.md). A recording with thread states needs no word. */
static void
show_recording_kind (JvmsWindow *self)
{
  g_clear_pointer (&self->recording_kind, g_free);
  g_autoptr(JvmsRecordingInfo) info = self->history != NULL
    ? jvms_recording_info_from_metadata (jvms_history_get_metadata (self->history, "recording")) : NULL;
  if (info != NULL && !info->thread_states)
    {
      g_autofree char *kind = jvms_recording_info_describe (info, TRUE);
      /* Capitalised as a sentence's start. */
      g_autofree char *first = g_utf8_strup (kind, g_utf8_next_char (kind) - kind);
      gboolean sampled = FALSE;
      for (guint i = 0; i < JVMS_SAMPLER_N; i++)
        sampled |= info->samplers[i].source != JVMS_INTERVAL_NONE;
      if (sampled)
        /* Translators: %s%s is the kind of recording ("sampled by async-profiler 2.9: CPU every
         * 10 ms; no thread states recorded"), its first letter apart. */
        self->recording_kind = g_strdup_printf (_("%s%s. Each thread shows where its samples fell and in "
                                                  "which state; between samples nothing was recorded, and "
                                                  "every time is estimated from the samples."),
                                                first, g_utf8_next_char (kind));
      else
        /* A native-memory or other file without a sampler of threads: nothing to say of a
         * thread's time. Translators: %s%s as above ("written by async-profiler 3.0: no thread states and
         * no time samples recorded"). */
        self->recording_kind = g_strdup_printf (_("%s%s. No view can show where a thread's time went; "
                                                  "the samples the file holds are in the profile "
                                                  "(jvmscope-cli profile names their event types)."),
                                                first, g_utf8_next_char (kind));
    }
  gtk_label_set_text (self->recording_label, self->recording_kind ? self->recording_kind : "");
  gtk_revealer_set_reveal_child (self->recording_revealer, self->recording_kind != NULL);
  jvms_window_debug_changed (self);
}

void
_jvms_window_toast (JvmsWindow *self, const char *text)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
}

/* ---------------------------------------------------------------------------------------------
 * Loading
 */

/* The views and the panel get the index's history (NULL: none yet), or are told it grew. */
static void
show_history (JvmsWindow *self)
{
  if (self->history != NULL)
    _jvms_window_debug_history_shown (self);
  jvms_window_views_set_history (self->views, self->history);
  jvms_selection_panel_set_history (self->selection_panel, self->history);
  jvms_window_debug_changed (self);
}

/* The index's history appeared (indexing began, or an existing index was opened) or was
 * replaced (the build finished). A build that failed or was cancelled drops its history: the
 * views keep what they were shown of it (a reference keeps the removed file readable). */
static void
index_history_changed (JvmsWindow *self)
{
  JvmsHistory *history = jvms_trace_index_dup_history (self->index);
  if (history == NULL || history == self->history)
    {
      g_clear_pointer (&history, jvms_history_unref);
      return;
    }
  if (self->history == NULL && history != NULL)
    jvms_debug_mark ("first live history");
  g_clear_pointer (&self->history, jvms_history_unref);
  self->history = history;
  self->history_budget = 0; /* a new history has the default budget */
  _jvms_window_jvm_history_replaced (self);
  show_history (self);
}

/* The fraction moves as the worker indexes: the live history grew, and the views look again
 * (the index notifies at most every 50 ms, jvms-trace-index.h). */
static void
index_fraction_changed (JvmsWindow *self)
{
  if (self->loading && self->history != NULL)
    show_history (self);
}

/* The index cache budget: applied to the open trace's history once its index is complete, so
 * that the build runs with the index's own. */
static gboolean
apply_cache_budget (JvmsWindow *self)
{
  if (self->index == NULL || self->history == NULL || self->loading
      || jvms_trace_index_get_phase (self->index) != JVMS_TRACE_INDEX_PHASE_COMPLETE)
    return FALSE;
  gsize budget = (gsize) g_settings_get_uint (self->settings, "cache-budget-mib") * 1024 * 1024;
  if (budget == self->history_budget)
    return FALSE;
  jvms_history_set_cache_budget (self->history, budget);
  self->history_budget = budget;
  /* The views drop what they cached from the history with the old budget. */
  show_history (self);
  return TRUE;
}

static void
cache_budget_changed (JvmsWindow *self)
{
  apply_cache_budget (self);
  jvms_window_debug_changed (self);
}

static void
show_outcome (JvmsWindow *self, gboolean ok, const GError *error)
{
  /* The reader's message names the full path already. */
  g_autofree char *name = g_file_get_basename (self->file);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* Translators: indexing was stopped by the user; the views keep what was read. */
      _jvms_window_toast (self, _("Indexing cancelled: the views show what was indexed before"));
    }
  else if (!ok)
    {
      self->load_failed = TRUE;
      /* Translators: the first %s is a file name, the second the reader's message. */
      g_autofree char *text = g_strdup_printf (_("Could not read “%s”: %s"), name, error->message);
      show_problem (self, text);
    }
  else
    {
      g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (self->index);
      guint n = warnings ? g_strv_length (warnings) : 0;
      if (n > 0)
        {
          g_autofree char *all = g_strjoinv ("\n", warnings);
          g_autofree char *text =
            g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "“%s” could only partly be read; the views show what was loaded. %u problem:\n%s",
                                          "“%s” could only partly be read; the views show what was loaded. %u problems:\n%s",
                                          n),
                             name, n, all);
          show_problem (self, text);
        }
      else
        {
          /* Notes (analysis/jvms-trace-index.h) are stored in the index beside the warnings. */
          const char *joined = self->history != NULL
            ? jvms_history_get_metadata (self->history, "notes") : NULL;
          if (joined != NULL && joined[0] != '\0')
            {
              g_auto(GStrv) lines = g_strsplit (joined, "\n", -1);
              guint n_notes = g_strv_length (lines);
              g_autofree char *text =
                g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "“%s” was read in full. %u note on what it holds:\n%s",
                                              "“%s” was read in full. %u notes on what it holds:\n%s",
                                              n_notes),
                                 name, n_notes, joined);
              show_banner (self, text, TRUE);
            }
        }
    }
}

static void
load_done (GObject *object, GAsyncResult *result, gpointer user_data)
{
  JvmsTraceIndex *index = JVMS_TRACE_INDEX (object);
  g_autoptr(JvmsWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = jvms_trace_index_load_finish (index, result, &error);

  if (index != self->index)
    return; /* a trace replaced since */

  self->loading = FALSE;
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
  /* The views look at the final history once: when it is new, when it got its budget, or
   * else here. */
  JvmsHistory *shown = self->history;
  index_history_changed (self);
  if (!apply_cache_budget (self) && self->history == shown)
    show_history (self);
  jvms_window_views_set_complete (self->views, ok);
  /* A build that failed or was cancelled leaves no sample store. */
  jvms_window_views_set_samples_path (self->views,
                                      ok ? jvms_trace_index_get_samples_path (index) : NULL);
  jvms_window_views_set_events_path (self->views,
                                     ok ? jvms_trace_index_get_events_path (index) : NULL);
  jvms_profiler_pane_set_samples_path (self->profiler,
                                       ok ? jvms_trace_index_get_samples_path (index) : NULL);
  jvms_explorer_pane_set_index_path (self->explorer, ok ? jvms_trace_index_get_index_path (index) : NULL,
                                     ok ? jvms_trace_index_get_events_path (index) : NULL);
  /* A trace with CPU samples shows the profiler (profiler-for-samples). */
  _jvms_window_visible_views_changed (self);
  show_outcome (self, ok, error);
  show_recording_kind (self);
  _jvms_window_jvm_loaded (self, ok);
  _jvms_window_actions_update (self);
  jvms_window_debug_changed (self);
}

static void
close_trace (JvmsWindow *self)
{
  _jvms_window_jvm_close (self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->index != NULL)
    g_signal_handlers_disconnect_by_data (self->index, self);
  g_clear_pointer (&self->fraction_binding, g_binding_unbind);
  g_clear_object (&self->index);
  g_clear_pointer (&self->history, jvms_history_unref);
  self->history_budget = 0;
  self->loading = FALSE;
  g_clear_object (&self->file);
  jvms_window_views_set_history (self->views, NULL);
  jvms_window_views_set_samples_path (self->views, NULL);
  jvms_window_views_set_events_path (self->views, NULL);
  jvms_profiler_pane_set_samples_path (self->profiler, NULL);
  jvms_explorer_pane_set_index_path (self->explorer, NULL, NULL);
  _jvms_window_visible_views_changed (self);
  jvms_selection_panel_set_history (self->selection_panel, NULL);
  show_problem (self, NULL);
  show_recording_kind (self);
}

/* What the trace's index could not be made for (no such file, an unknown format, not a local
 * file) is shown as a load that failed. */
static JvmsTraceIndex *
new_index (GFile *file, GError **error)
{
  g_autofree char *path = g_file_get_path (file);
  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s: not a local file", uri);
      return NULL;
    }
  return jvms_trace_index_new (path, error);
}

void
jvms_window_open (JvmsWindow *self, GFile *file)
{
  g_return_if_fail (JVMS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  close_trace (self);
  self->file = g_object_ref (file);
  self->load_failed = FALSE;
  self->cancellable = g_cancellable_new ();

  g_autofree char *name = g_file_get_basename (file);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *where = parent ? g_file_get_parse_name (parent) : NULL;
  /* Translators: window title; %s is the trace's file name. */
  g_autofree char *title = g_strdup_printf (_("%s — Jvmscope"), name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_title (self->window_title, name);
  adw_window_title_set_subtitle (self->window_title, where ? where : "");

  if (JVMS_IS_APPLICATION (app))
    jvms_application_add_recent (JVMS_APPLICATION (app), file);
  gtk_stack_set_visible_child_name (self->stack, "trace");

  g_autoptr(GError) error = NULL;
  self->index = new_index (file, &error);
  if (self->index == NULL)
    {
      show_outcome (self, FALSE, error);
      _jvms_window_actions_update (self);
      jvms_window_debug_changed (self);
      return;
    }

  /* The index notifies in this thread's main context (jvms-trace-index.h): the progress bar
   * follows its fraction as it is, and the views its history. */
  self->fraction_binding = g_object_bind_property (self->index, "fraction",
                                                   self->progress_bar, "fraction",
                                                   G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->index, "notify::history", G_CALLBACK (index_history_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->index, "notify::fraction", G_CALLBACK (index_fraction_changed),
                           self, G_CONNECT_SWAPPED);
  self->loading = TRUE;
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
  jvms_trace_index_load_async (self->index, self->cancellable, load_done, g_object_ref (self));
  jvms_debug_mark ("indexing started");
  _jvms_window_actions_update (self);
  jvms_window_debug_changed (self);
}

JvmsWindowViews *
jvms_window_get_views (JvmsWindow *self)
{
  return self->views;
}

GFile *
jvms_window_get_file (JvmsWindow *self)
{
  g_return_val_if_fail (JVMS_IS_WINDOW (self), NULL);
  return self->file;
}

/* A window shows one trace; opening another while one is shown opens a window for it (or
 * reuses an empty one), as GApplication::open does for files given on the command line. */
void
_jvms_window_open_file (JvmsWindow *self, GFile *file)
{
  if (self->file == NULL)
    jvms_window_open (self, file);
  else
    g_application_open (G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                        &file, 1, "");
}

/* ---------------------------------------------------------------------------------------------
 * Drag and drop: files and folders from the file manager.
 */

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, gpointer user_data)
{
  JvmsWindow *self = user_data;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  GSList *files = g_value_get_boxed (value);
  if (files == NULL)
    return FALSE;
  for (GSList *l = files; l; l = l->next)
    _jvms_window_open_file (self, l->data);
  return TRUE;
}

static void
panel_stats_changed (JvmsWindow *self)
{
  _jvms_window_actions_update (self);
  jvms_window_debug_changed (self);
}

/* ---------------------------------------------------------------------------------------------
 * Window state
 */

static gboolean
jvms_window_close_request (GtkWindow *window)
{
  JvmsWindow *self = JVMS_WINDOW (window);
  int width, height;

  g_cancellable_cancel (self->cancellable);

  /* The unmaximized size, so that unmaximizing after a restart gives a sensible window. */
  gtk_window_get_default_size (window, &width, &height);
  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", MAX (width, 360));
      g_settings_set_int (self->settings, "window-height", MAX (height, 294));
    }
  g_settings_apply (self->settings);

  return GTK_WINDOW_CLASS (jvms_window_parent_class)->close_request (window);
}

static void
jvms_window_constructed (GObject *object)
{
  JvmsWindow *self = JVMS_WINDOW (object);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  G_OBJECT_CLASS (jvms_window_parent_class)->constructed (object);

  self->settings = JVMS_IS_APPLICATION (app)
    ? g_object_ref (jvms_application_get_settings (JVMS_APPLICATION (app)))
    : g_settings_new (APP_ID);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  jvms_start_page_set_settings (self->start_page, self->settings);
  _jvms_window_actions_init (self);

  jvms_window_views_bind_settings (self->views, self->settings);
  g_signal_connect_object (self->settings, "changed::time-unit",
                           G_CALLBACK (jvms_window_debug_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::time-origin",
                           G_CALLBACK (jvms_window_debug_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::thread-grouping",
                           G_CALLBACK (jvms_window_debug_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::cache-budget-mib",
                           G_CALLBACK (cache_budget_changed), self, G_CONNECT_SWAPPED);

  _jvms_window_actions_update (self);
  jvms_window_debug_changed (self);
}

static void
jvms_window_dispose (GObject *object)
{
  JvmsWindow *self = JVMS_WINDOW (object);

  /* Stop the worker first: nothing it reports may reach a half-destroyed window. */
  g_cancellable_cancel (self->cancellable);
  _jvms_window_debug_dispose (self);
  /* A recording under way stops cleanly and finishes on its own (jvms-record-dialog.h). */
  /* Unparented first: it may outlive this window (GTK releases the last reference later), and
   * would then disconnect from a finalized parent. */
  if (self->compare_window != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (self->compare_window), NULL);
      gtk_window_destroy (GTK_WINDOW (self->compare_window));
    }
  if (self->jvm_chooser != NULL)
    gtk_window_destroy (GTK_WINDOW (self->jvm_chooser));
  g_clear_pointer (&self->jvms, g_ptr_array_unref);
  g_clear_pointer (&self->jvm_threads, g_strfreev);
  if (self->record_dialog != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (self->record_dialog), NULL);
      gtk_window_destroy (GTK_WINDOW (self->record_dialog));
    }
  if (self->dialog != NULL)
    gtk_native_dialog_destroy (self->dialog);
  g_clear_object (&self->dialog);
  if (self->index != NULL)
    g_signal_handlers_disconnect_by_data (self->index, self);
  g_clear_pointer (&self->fraction_binding, g_binding_unbind);
  g_clear_object (&self->index);
  g_clear_pointer (&self->history, jvms_history_unref);
  g_clear_pointer (&self->views, jvms_window_views_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), JVMS_TYPE_WINDOW);
  g_clear_object (&self->view_actions);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->file);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (jvms_window_parent_class)->dispose (object);
}

static void
jvms_window_finalize (GObject *object)
{
  JvmsWindow *self = JVMS_WINDOW (object);

  g_free (self->problem);
  g_free (self->recording_kind);
  G_OBJECT_CLASS (jvms_window_parent_class)->finalize (object);
}

static void
jvms_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsWindow *self = JVMS_WINDOW (object);

  switch (prop_id)
    {
    /* Property actions read these before the template is built and after it is gone. */
    case PROP_SHOW_SIDE_PANEL:
      g_value_set_boolean (value, self->selection_panel != NULL
                                  && gtk_widget_get_visible (GTK_WIDGET (self->selection_panel)));
      break;
    case PROP_SEARCH_MODE:
      g_value_set_boolean (value, self->search_bar != NULL
                                  && gtk_search_bar_get_search_mode (self->search_bar));
      break;
    case PROP_SHOW_EVENT_TABLE:
      g_value_set_boolean (value, self->events_box != NULL
                                  && gtk_widget_get_visible (GTK_WIDGET (self->events_box)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  JvmsWindow *self = JVMS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SHOW_SIDE_PANEL:
      if (g_value_get_boolean (value) != gtk_widget_get_visible (GTK_WIDGET (self->selection_panel)))
        {
          gtk_widget_set_visible (GTK_WIDGET (self->selection_panel), g_value_get_boolean (value));
          g_object_notify_by_pspec (object, pspec);
          jvms_window_debug_changed (self);
        }
      break;
    case PROP_SHOW_EVENT_TABLE:
      if (g_value_get_boolean (value) != gtk_widget_get_visible (GTK_WIDGET (self->events_box)))
        {
          gtk_widget_set_visible (GTK_WIDGET (self->events_box), g_value_get_boolean (value));
          g_object_notify_by_pspec (object, pspec);
          jvms_window_debug_changed (self);
        }
      break;
    case PROP_SEARCH_MODE:
      gtk_search_bar_set_search_mode (self->search_bar, g_value_get_boolean (value));
      if (g_value_get_boolean (value))
        gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
search_mode_changed (JvmsWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_MODE]);
}

static void
search_changed (JvmsWindow *self, GtkSearchEntry *entry)
{
  jvms_window_views_set_thread_filter (self->views, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
jvms_window_class_init (JvmsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = jvms_window_constructed;
  object_class->dispose = jvms_window_dispose;
  object_class->finalize = jvms_window_finalize;
  object_class->get_property = jvms_window_get_property;
  object_class->set_property = jvms_window_set_property;
  window_class->close_request = jvms_window_close_request;

  properties[PROP_SHOW_SIDE_PANEL] =
    g_param_spec_boolean ("show-side-panel", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_EVENT_TABLE] =
    g_param_spec_boolean ("show-event-table", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEARCH_MODE] =
    g_param_spec_boolean ("search-mode", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (JVMS_TYPE_START_PAGE);
  g_type_ensure (JVMS_TYPE_SELECTION_PANEL);
  g_type_ensure (JVMS_TYPE_PROFILER_PANE);
  g_type_ensure (JVMS_TYPE_EXPLORER_PANE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jvmscope/Jvmscope/jvms-window.ui");
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, start_page);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, problem_revealer);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, problem_label);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, recording_revealer);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, recording_label);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, profiler_paned);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, profiler);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, explorer);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, ruler_box);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, views_box);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, events_box);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, selection_panel);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, recent_section);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, zoom_box);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, side_panel_button);
  gtk_widget_class_bind_template_child (widget_class, JvmsWindow, search_button);

  _jvms_window_class_actions_init (klass);
  _jvms_window_class_profiler_init (klass);
  _jvms_window_class_jvm_init (klass);
}

static void
jvms_window_init (JvmsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  _jvms_window_debug_init (self);

  self->views = jvms_window_views_new (self, self->ruler_box, self->views_box,
                                       self->selection_panel);
  jvms_window_views_add_event_table (self->views, self->events_box);
  _jvms_window_profiler_init (self);
  _jvms_window_jvm_init (self);
  jvms_explorer_pane_set_session (self->explorer, jvms_window_views_get_session (self->views));

  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  g_signal_connect_object (self->search_entry, "search-changed",
                           G_CALLBACK (search_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_bar, "notify::search-mode-enabled",
                           G_CALLBACK (search_mode_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->selection_panel, "notify::stats",
                           G_CALLBACK (panel_stats_changed), self, G_CONNECT_SWAPPED);

  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (drop, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  gtk_stack_set_visible_child_name (self->stack, "start");
}

JvmsWindow *
jvms_window_new (JvmsApplication *app)
{
  return g_object_new (JVMS_TYPE_WINDOW, "application", app, NULL);
}
