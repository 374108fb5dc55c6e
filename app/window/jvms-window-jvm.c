/* jvms-window-jvm.c: which JVM the window analyses, and over which range it opens
 * (docs/window.md, "Which JVM"). A kernel-only trace of several JVMs names none: the window
 * offers the choice when the trace is loaded (a chooser) and afterwards (win.choose-jvm), and
 * lays the choice over the history (jvms_scope_set_subject), so that the views, the side panel
 * and the findings follow it exactly as `jvmscope-cli analyze --pid` does. A recording of an
 * attached JVM opens on the span where both layers recorded (jvms-range-banner.h). */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "jvms-scope.h"
#include "jvms-window-private.h"

/* The title's second line: where the trace is, and the JVM analysed when the user chose it. */
static void
update_subtitle (JvmsWindow *self)
{
  g_autoptr(GFile) parent = self->file != NULL ? g_file_get_parent (self->file) : NULL;
  g_autofree char *where = parent != NULL ? g_file_get_parse_name (parent) : g_strdup ("");
  if (self->chosen_pid <= 0)
    {
      adw_window_title_set_subtitle (self->window_title, where);
      return;
    }
  g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, self->chosen_pid);
  /* Translators: the window's subtitle: the trace's folder, then the JVM chosen's process id
   * ("/tmp — JVM 4242") */
  g_autofree char *text = g_strdup_printf (_("%s — JVM %s"), where, number);
  adw_window_title_set_subtitle (self->window_title, text);
}

static void
jvm_chosen (JvmsWindow *self, gint64 pid)
{
  if (self->history == NULL || self->jvms == NULL)
    return;
  self->chosen_pid = pid;
  jvms_scope_set_subject (self->history, pid);
  update_subtitle (self);
  /* The same history, read again: the views rebuild their threads, the findings recompute; the
   * panel looks again only at a history it was not shown. */
  jvms_window_views_set_history (self->views, self->history);
  jvms_selection_panel_set_history (self->selection_panel, NULL);
  jvms_selection_panel_set_history (self->selection_panel, self->history);
  jvms_window_debug_changed (self);
}

static void
chooser_changed (JvmsWindow *self)
{
  jvms_window_debug_changed (self);
}

static void
present_chooser (JvmsWindow *self)
{
  if (self->jvms == NULL)
    return;
  if (self->jvm_chooser != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->jvm_chooser));
      return;
    }
  g_autofree char *name = g_file_get_basename (self->file);
  self->jvm_chooser = jvms_jvm_chooser_new (GTK_WINDOW (self), name, self->jvms,
                                            (const char * const *) self->jvm_threads, self->chosen_pid);
  g_object_add_weak_pointer (G_OBJECT (self->jvm_chooser), (gpointer *) &self->jvm_chooser);
  g_signal_connect_object (self->jvm_chooser, "chosen", G_CALLBACK (jvm_chosen), self, G_CONNECT_SWAPPED);
  /* The state dump says where its rows are once it is on screen, and that it closed. */
  g_signal_connect_object (self->jvm_chooser, "map", G_CALLBACK (chooser_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jvm_chooser, "unmap", G_CALLBACK (chooser_changed), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (self->jvm_chooser));
}

static void
choose_jvm_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  present_chooser (JVMS_WINDOW (widget));
}

void
_jvms_window_class_jvm_init (JvmsWindowClass *klass)
{
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "win.choose-jvm", NULL, choose_jvm_action);
}

void
_jvms_window_jvm_init (JvmsWindow *self)
{
  /* Below the recording banner, above the views: where the range shown is said. */
  self->range_banner = JVMS_RANGE_BANNER (jvms_range_banner_new ());
  GtkWidget *after = GTK_WIDGET (self->recording_revealer);
  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (after)), GTK_WIDGET (self->range_banner), after);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-jvm", FALSE);
}

/* The choice matters when the trace shows several JVMs and names none: a kernel-only trace
 * (with a flight recording, the JVM is the recording's: jvms_scope_choose_jvm). */
static gboolean
choice_matters (JvmsHistory *history, GPtrArray *jvms)
{
  const char *layers = jvms_history_get_metadata (history, "layers");
  const char *recorded = jvms_history_get_metadata (history, "jvm-pid");
  return jvms->len >= 2 && layers != NULL && strstr (layers, "jfr") == NULL
         && (recorded == NULL || recorded[0] == '\0');
}

void
_jvms_window_jvm_loaded (JvmsWindow *self, gboolean ok)
{
  _jvms_window_jvm_close (self);
  if (!ok || self->history == NULL)
    return;
  jvms_range_banner_set_history (self->range_banner, self->history,
                                 jvms_window_views_get_session (self->views));
  g_auto(GStrv) threads = NULL;
  g_autoptr(GPtrArray) jvms = jvms_jvm_chooser_describe (self->history, &threads);
  if (!choice_matters (self->history, jvms))
    return;
  self->jvms = g_steal_pointer (&jvms);
  self->jvm_threads = g_steal_pointer (&threads);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-jvm", TRUE);
  present_chooser (self);
}

void
_jvms_window_jvm_history_replaced (JvmsWindow *self)
{
  if (self->history != NULL && self->chosen_pid > 0)
    jvms_scope_set_subject (self->history, self->chosen_pid);
}

void
_jvms_window_jvm_close (JvmsWindow *self)
{
  if (self->jvm_chooser != NULL)
    gtk_window_destroy (GTK_WINDOW (self->jvm_chooser));
  g_clear_pointer (&self->jvms, g_ptr_array_unref);
  g_clear_pointer (&self->jvm_threads, g_strfreev);
  self->chosen_pid = 0;
  if (self->range_banner != NULL)
    jvms_range_banner_set_history (self->range_banner, NULL, NULL);
  if (self->window_title != NULL)
    update_subtitle (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-jvm", FALSE);
}

void
_jvms_window_jvm_dump_state (JvmsWindow *self, GKeyFile *key_file)
{
  g_key_file_set_int64 (key_file, "jvm", "chosen-pid", self->chosen_pid);
  g_key_file_set_integer (key_file, "jvm", "choices", self->jvms != NULL ? (int) self->jvms->len : 0);
  g_key_file_set_string (key_file, "jvm", "subtitle",
                         self->window_title != NULL ? adw_window_title_get_subtitle (self->window_title) : "");
  if (self->jvm_chooser != NULL)
    jvms_jvm_chooser_dump_state (self->jvm_chooser, key_file);
  else
    g_key_file_set_boolean (key_file, "chooser", "shown", FALSE);
  if (self->range_banner != NULL)
    jvms_range_banner_dump_state (self->range_banner, key_file);
}
