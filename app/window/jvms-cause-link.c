/* jvms-cause-link.c: see the header. */
#include "config.h"

#include "jvms-cause-link.h"

typedef struct
{
  char   *kind;
  gint64  tid, from, to;
} CauseTarget;

static void
cause_target_free (CauseTarget *target)
{
  g_free (target->kind);
  g_free (target);
}

GtkWidget *
jvms_cause_link_new (const char *kind, const char *label, gint64 tid, gint64 from, gint64 to)
{
  GtkWidget *button = gtk_button_new_with_label (label);
  /* The style of a GtkLinkButton without its URI: it acts in the window, opens nothing. */
  gtk_widget_add_css_class (button, "link");
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  GtkWidget *child = gtk_button_get_child (GTK_BUTTON (button));
  if (GTK_IS_LABEL (child))
    {
      /* Wrapped, never cut: a label ends with how long the cause held (the interval the link
       * selects), which an ellipsis at the end hid in the narrow side panel, and a middle one
       * took from the thread's name. Long names break between words, else anywhere. */
      gtk_label_set_wrap (GTK_LABEL (child), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (child), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_xalign (GTK_LABEL (child), 0);
    }
  gtk_widget_set_tooltip_text (button, label);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.show-cause");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "(xxx)", tid, from, to);
  CauseTarget *target = g_new0 (CauseTarget, 1);
  target->kind = g_strdup (kind);
  target->tid = tid;
  target->from = from;
  target->to = to;
  g_object_set_data_full (G_OBJECT (button), "jvms-cause", target, (GDestroyNotify) cause_target_free);
  return button;
}

void
jvms_cause_links_describe (GtkWidget *container, GString *out)
{
  for (GtkWidget *child = gtk_widget_get_first_child (container); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const CauseTarget *target = g_object_get_data (G_OBJECT (child), "jvms-cause");
      if (target == NULL)
        {
          jvms_cause_links_describe (child, out);
          continue;
        }
      graphene_rect_t r;
      GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (child));
      if (!gtk_widget_is_drawable (child) || root == NULL || !gtk_widget_compute_bounds (child, root, &r))
        continue;
      g_string_append_printf (out, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                              " %d %d %d %d;", target->kind, target->tid, target->from, target->to,
                              (int) r.origin.x, (int) r.origin.y, (int) r.size.width, (int) r.size.height);
    }
}
