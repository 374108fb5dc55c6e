/* jvms-jvm-chooser.c: see jvms-jvm-chooser.h. */
#include "config.h"

#include "jvms-jvm-chooser.h"

#include <glib/gi18n.h>

#include "jvms-scope.h"
#include "jvms-states.h"
#include "jvms-thread-list.h"

/* Enough pools to tell two programs apart without a line that wraps three times. */
#define POOLS_SHOWN 4

struct _JvmsJvmChooser
{
  AdwWindow   parent_instance;

  GArray     *pids; /* gint64, a row each */
  GPtrArray  *rows;

  GtkLabel   *intro_label;
  GtkListBox *list;
};

enum {
  SIGNAL_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (JvmsJvmChooser, jvms_jvm_chooser, ADW_TYPE_WINDOW)

/* The pools of @pid's Java threads in the order they appeared ("locker-#, sleeper, parker"),
 * the launcher's own thread left out: what tells a user's programs apart, where the kernel
 * names every JVM "java". */
static char *
java_pools (JvmsThreadList *list, gint64 pid, const char *process_name)
{
  g_autoptr(GPtrArray) pools = g_ptr_array_new_with_free_func (g_free);
  guint more = 0;
  for (guint i = 0; i < jvms_thread_list_get_len (list); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (list, i);
      if (t->pid != pid || t->tid == pid || t->kind != JVMS_THREAD_KIND_JAVA)
        continue;
      g_autofree char *pool = jvms_thread_pool_name (t->name);
      /* The main thread keeps the launcher's name ("java"): it tells no program apart. */
      if (g_str_equal (pool, process_name) || g_ptr_array_find_with_equal_func (pools, pool, g_str_equal, NULL))
        continue;
      if (pools->len < POOLS_SHOWN)
        g_ptr_array_add (pools, g_steal_pointer (&pool));
      else
        more++;
    }
  g_ptr_array_add (pools, NULL);
  g_autofree char *joined = g_strjoinv (", ", (char **) pools->pdata);
  if (more == 0)
    return g_steal_pointer (&joined);
  /* Translators: Java thread pools named, then how many more there are: "main, worker-# and 3 more" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s and %u more", "%s and %u more", more),
                          joined, more);
}

GPtrArray *
jvms_jvm_chooser_describe (JvmsHistory *history, GStrv *threads)
{
  g_return_val_if_fail (history != NULL, NULL);
  GPtrArray *jvms = jvms_scope_list_jvms (history);
  g_autoptr(JvmsThreadList) list = jvms_thread_list_read (history);
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  for (guint i = 0; i < jvms->len; i++)
    {
      const JvmsJvmEntry *e = g_ptr_array_index (jvms, i);
      g_autofree char *pools = java_pools (list, e->pid, e->name);
      g_strv_builder_add (lines, pools);
    }
  *threads = g_strv_builder_end (lines);
  return jvms;
}

static void
row_activated (JvmsJvmChooser *self, GtkListBoxRow *row)
{
  int index = gtk_list_box_row_get_index (row);
  if (index < 0 || (guint) index >= self->pids->len)
    return;
  gint64 pid = g_array_index (self->pids, gint64, index);
  /* Held: a handler may close the window that holds the last reference. */
  g_object_ref (self);
  g_signal_emit (self, signals[SIGNAL_CHOSEN], 0, pid);
  gtk_window_close (GTK_WINDOW (self));
  g_object_unref (self);
}

static GtkWidget *
jvm_row (const JvmsJvmEntry *e, const char *threads, gboolean current)
{
  GtkWidget *row = adw_action_row_new ();
  /* Names and commands come from the trace: shown as text, never as markup. */
  g_autofree char *name = g_markup_escape_text (e->name[0] ? e->name : "?", -1);
  g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, e->pid);
  /* Translators: a JVM in the chooser: its process id, then its name ("Process 4242 — java") */
  g_autofree char *title = g_strdup_printf (_("Process %s — %s"), number, name);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);

  g_autoptr(GString) sub = g_string_new (NULL);
  if (e->command[0])
    g_string_append_printf (sub, "%s\n", e->command);
  g_string_append_printf (sub, g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads", e->n_threads),
                          e->n_threads);
  if (threads != NULL && threads[0])
    /* Translators: the Java thread pools of a JVM, after its thread count. */
    g_string_append_printf (sub, _(" · Java threads: %s"), threads);
  g_autofree char *escaped = g_markup_escape_text (sub->str, -1);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  if (current)
    {
      GtkWidget *mark = gtk_image_new_from_icon_name ("object-select-symbolic");
      gtk_accessible_update_property (GTK_ACCESSIBLE (mark), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Analysed now"), -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), mark);
    }
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  return row;
}

JvmsJvmChooser *
jvms_jvm_chooser_new (GtkWindow *parent, const char *trace_name, GPtrArray *jvms,
                      const char * const *threads, gint64 current)
{
  g_return_val_if_fail (jvms != NULL, NULL);
  JvmsJvmChooser *self = g_object_new (JVMS_TYPE_JVM_CHOOSER, "transient-for", parent, NULL);
  g_autofree char *intro =
    /* Translators: %s is the trace's file name, %u how many JVMs it shows. */
    g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                  "“%s” is a kernel trace of %u JVM and does not say which one was recorded.",
                                  "“%s” is a kernel trace of %u JVMs and does not say which one was recorded.",
                                  jvms->len),
                     trace_name, jvms->len);
  g_autofree char *text = g_strconcat (intro, " ",
                                       _("The views, the side panel and the findings follow the JVM "
                                         "you choose; the others are shown as other processes. "
                                         "Choose another one later with Choose JVM… in the main menu."),
                                       NULL);
  gtk_label_set_text (self->intro_label, text);
  guint n_threads = threads != NULL ? g_strv_length ((char **) threads) : 0;
  for (guint i = 0; i < jvms->len; i++)
    {
      const JvmsJvmEntry *e = g_ptr_array_index (jvms, i);
      GtkWidget *row = jvm_row (e, i < n_threads ? threads[i] : NULL, e->pid == current);
      gtk_list_box_append (self->list, row);
      g_ptr_array_add (self->rows, row);
      g_array_append_val (self->pids, e->pid);
    }
  return self;
}

void
jvms_jvm_chooser_dump_state (JvmsJvmChooser *self, GKeyFile *key_file)
{
  g_return_if_fail (JVMS_IS_JVM_CHOOSER (self));
  g_autoptr(GString) pids = g_string_new (NULL);
  g_autoptr(GArray) bounds = g_array_new (FALSE, FALSE, sizeof (int));
  for (guint i = 0; i < self->pids->len; i++)
    {
      g_string_append_printf (pids, "%s%" G_GINT64_FORMAT, i ? ";" : "", g_array_index (self->pids, gint64, i));
      /* x;y;w;h in the chooser's own X window (its surface holds the shadow around the
       * widget): what a test adds the window's position to and clicks with xdotool. */
      graphene_rect_t r;
      int b[4] = { 0, 0, 0, 0 };
      double sx = 0, sy = 0;
      gtk_native_get_surface_transform (GTK_NATIVE (self), &sx, &sy);
      if (gtk_widget_compute_bounds (g_ptr_array_index (self->rows, i), GTK_WIDGET (self), &r))
        {
          b[0] = (int) (r.origin.x + sx);
          b[1] = (int) (r.origin.y + sy);
          b[2] = (int) r.size.width;
          b[3] = (int) r.size.height;
        }
      g_array_append_vals (bounds, b, 4);
    }
  g_key_file_set_boolean (key_file, "chooser", "shown", gtk_widget_get_mapped (GTK_WIDGET (self)));
  g_key_file_set_string (key_file, "chooser", "pids", pids->str);
  if (bounds->len > 0)
    g_key_file_set_integer_list (key_file, "chooser", "row-bounds", (int *) bounds->data, bounds->len);
}

static void
jvms_jvm_chooser_finalize (GObject *object)
{
  JvmsJvmChooser *self = JVMS_JVM_CHOOSER (object);
  g_array_unref (self->pids);
  g_ptr_array_unref (self->rows);
  G_OBJECT_CLASS (jvms_jvm_chooser_parent_class)->finalize (object);
}

static void
jvms_jvm_chooser_class_init (JvmsJvmChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = jvms_jvm_chooser_finalize;

  signals[SIGNAL_CHOSEN] = g_signal_new ("chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/jvmscope/Jvmscope/jvms-jvm-chooser.ui");
  gtk_widget_class_bind_template_child (widget_class, JvmsJvmChooser, intro_label);
  gtk_widget_class_bind_template_child (widget_class, JvmsJvmChooser, list);
  gtk_widget_class_bind_template_callback (widget_class, row_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
jvms_jvm_chooser_init (JvmsJvmChooser *self)
{
  self->pids = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}
