/* jvms-range-banner.c: see jvms-range-banner.h. */
#include "config.h"

#include "jvms-range-banner.h"

#include <glib/gi18n.h>

#include "jvms-scope.h"
#include "jvms-time-format.h"

struct _JvmsRangeBanner
{
  GtkWidget        parent_instance;

  JvmsSession     *session;
  gboolean         has_range;
  gint64           start;   /* the kernel layer's span */
  gint64           end;
  gint64           from;    /* where both layers recorded */
  gint64           to;

  GtkWidget       *box;
  GtkLabel        *label;
  GtkToggleButton *toggle;
};

G_DEFINE_FINAL_TYPE (JvmsRangeBanner, jvms_range_banner, GTK_TYPE_WIDGET)

static void
toggled (JvmsRangeBanner *self)
{
  if (!self->has_range || self->session == NULL)
    return;
  gboolean wide = gtk_toggle_button_get_active (self->toggle);
  /* Recorded: Back returns to the span before. */
  jvms_session_set_visible (self->session, wide ? self->start : self->from, wide ? self->end : self->to, TRUE);
}

void
jvms_range_banner_set_history (JvmsRangeBanner *self, JvmsHistory *history, JvmsSession *session)
{
  g_return_if_fail (JVMS_IS_RANGE_BANNER (self));
  g_set_object (&self->session, session);
  g_autofree char *why = NULL;
  self->has_range = history != NULL && session != NULL
                    && jvms_scope_default_range (history, &self->from, &self->to, &why);
  gtk_widget_set_visible (GTK_WIDGET (self), self->has_range);
  if (!self->has_range)
    return;
  /* The toggle widens to what the kernel recorded; the margins are its own. */
  jvms_scope_kernel_span (history, &self->start, &self->end);

  JvmsTimeUnit unit = jvms_session_get_time_unit (session);
  g_autofree char *span = jvms_time_format_duration (self->to - self->from, unit);
  g_autofree char *before = jvms_time_format_duration (self->from - self->start, unit);
  g_autofree char *after = jvms_time_format_duration (self->end - self->to, unit);
  /* Translators: a recording of an attached JVM; %s: the span both layers recorded, then the
   * kernel layer's margins before and after it ("3.012 s", "0.812 s", "1.104 s"). */
  g_autofree char *text = g_strdup_printf (_("Recording of an attached JVM: the views open on the %s where "
                                             "both layers recorded, the range the report analyses. The "
                                             "kernel layer recorded %s more before it and %s after it."),
                                           span, before, after);
  gtk_label_set_text (self->label, text);
  g_signal_handlers_block_by_func (self->toggle, toggled, self);
  gtk_toggle_button_set_active (self->toggle, FALSE);
  g_signal_handlers_unblock_by_func (self->toggle, toggled, self);
  jvms_session_set_visible (session, self->from, self->to, FALSE);
}

void
jvms_range_banner_dump_state (JvmsRangeBanner *self, GKeyFile *key_file)
{
  g_return_if_fail (JVMS_IS_RANGE_BANNER (self));
  g_key_file_set_boolean (key_file, "range", "shown", self->has_range && gtk_widget_get_mapped (GTK_WIDGET (self)));
  g_key_file_set_int64 (key_file, "range", "default-from", self->has_range ? self->from : 0);
  g_key_file_set_int64 (key_file, "range", "default-to", self->has_range ? self->to : 0);
  g_key_file_set_int64 (key_file, "range", "kernel-from", self->has_range ? self->start : 0);
  g_key_file_set_int64 (key_file, "range", "kernel-to", self->has_range ? self->end : 0);
  g_key_file_set_boolean (key_file, "range", "margins-shown", gtk_toggle_button_get_active (self->toggle));
  g_key_file_set_string (key_file, "range", "text", self->has_range ? gtk_label_get_text (self->label) : "");
  /* x;y;w;h of the toggle in the window: what a test clicks. */
  graphene_rect_t r;
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (self)));
  int b[4] = { 0, 0, 0, 0 };
  if (root != NULL && gtk_widget_compute_bounds (GTK_WIDGET (self->toggle), root, &r))
    {
      b[0] = (int) r.origin.x;
      b[1] = (int) r.origin.y;
      b[2] = (int) r.size.width;
      b[3] = (int) r.size.height;
    }
  g_key_file_set_integer_list (key_file, "range", "toggle-bounds", b, 4);
}

static void
jvms_range_banner_dispose (GObject *object)
{
  JvmsRangeBanner *self = JVMS_RANGE_BANNER (object);
  g_clear_object (&self->session);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (jvms_range_banner_parent_class)->dispose (object);
}

static void
jvms_range_banner_class_init (JvmsRangeBannerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = jvms_range_banner_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
jvms_range_banner_init (JvmsRangeBanner *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (self->box, "toolbar");
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_box_append (GTK_BOX (self->box), gtk_image_new_from_icon_name ("dialog-information-symbolic"));
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->label, TRUE);
  gtk_label_set_xalign (self->label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->label), TRUE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->label));
  self->toggle = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("Show the _Kernel Margins")));
  gtk_widget_set_valign (GTK_WIDGET (self->toggle), GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->toggle),
                               _("Widen the views to the whole kernel recording, before and after the flight recording"));
  g_signal_connect_swapped (self->toggle, "toggled", G_CALLBACK (toggled), self);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->toggle));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
jvms_range_banner_new (void)
{
  return g_object_new (JVMS_TYPE_RANGE_BANNER, NULL);
}
