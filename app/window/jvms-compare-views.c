/* jvms-compare-views.c: both traces' threads views stacked (jvms-compare-views.h). */
#include "config.h"

#include "jvms-compare-views.h"

#include <glib/gi18n.h>

#include "jvms-session.h"
#include "jvms-threads-view.h"
#include "jvms-time-ruler.h"

typedef struct
{
  JvmsSession *session;
  GtkLabel    *title;
  GtkWidget   *ruler;
  GtkWidget   *threads;
  gint64       anchor;      /* the alignment instant: the start of the range compared */
  gboolean     shown;       /* a range was given (the views are aligned from then on) */
} Side;

struct _JvmsCompareViews
{
  GtkWidget               *box;
  Side                     sides[2];
  JvmsCompareViewsSelected selected;
  gpointer                 user_data;
  gboolean                 syncing;   /* the views are being set from here: no echo */
  gboolean                 aligned;   /* both views were shown their ranges once */
};

/* Side @lead's visible range, moved by as much on the other side from its own anchor. */
static void
align (JvmsCompareViews *self, guint lead)
{
  Side *l = &self->sides[lead], *o = &self->sides[1 - lead];
  if (!l->shown || !o->shown || jvms_session_get_history (l->session) == NULL
      || jvms_session_get_history (o->session) == NULL)
    return;
  gint64 v0, v1;
  jvms_session_get_visible (l->session, &v0, &v1);
  self->syncing = TRUE;
  jvms_session_set_visible (o->session, o->anchor + (v0 - l->anchor), o->anchor + (v1 - l->anchor), FALSE);
  self->syncing = FALSE;
}

static void
visible_changed (JvmsSession *session, GParamSpec *pspec, JvmsCompareViews *self)
{
  if (!self->syncing)
    align (self, session == self->sides[0].session ? 0 : 1);
}

static void
selection_changed (JvmsSession *session, GParamSpec *pspec, JvmsCompareViews *self)
{
  if (self->syncing)
    return;
  guint side = session == self->sides[0].session ? 0 : 1;
  gint64 from = 0, to = 0;
  if (!jvms_session_get_selection (session, &from, &to))
    from = to = 0;
  self->selected (side, MIN (from, to), MAX (from, to), self->user_data);
}

JvmsCompareViews *
jvms_compare_views_new (JvmsCompareViewsSelected selected, gpointer user_data)
{
  JvmsCompareViews *self = g_new0 (JvmsCompareViews, 1);
  self->selected = selected;
  self->user_data = user_data;
  self->box = g_object_ref_sink (gtk_box_new (GTK_ORIENTATION_VERTICAL, 0));
  gtk_widget_set_visible (self->box, FALSE);
  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];
      side->session = jvms_session_new ();
      side->title = GTK_LABEL (gtk_label_new (i == 0 ? _("Baseline") : _("Other")));
      gtk_label_set_xalign (side->title, 0);
      gtk_label_set_ellipsize (side->title, PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (GTK_WIDGET (side->title), "heading");
      gtk_widget_set_margin_start (GTK_WIDGET (side->title), 12);
      gtk_widget_set_margin_top (GTK_WIDGET (side->title), i == 0 ? 0 : 6);
      gtk_widget_set_margin_bottom (GTK_WIDGET (side->title), 2);
      gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (side->title));
      side->ruler = jvms_time_ruler_new (side->session);
      gtk_box_append (GTK_BOX (self->box), side->ruler);
      side->threads = jvms_threads_view_new (side->session);
      gtk_widget_set_hexpand (side->threads, TRUE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (side->threads), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      i == 0 ? _("The baseline's threads") : _("The other trace's threads"), -1);
      /* The view scrolls its own rows (jvms-timeline.h); the scroller gives it its height. */
      GtkWidget *scroller = gtk_scrolled_window_new ();
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), side->threads);
      gtk_widget_set_vexpand (scroller, TRUE);
      gtk_widget_set_size_request (scroller, -1, 120);
      gtk_box_append (GTK_BOX (self->box), scroller);
      g_signal_connect (side->session, "notify::visible-start", G_CALLBACK (visible_changed), self);
      g_signal_connect (side->session, "notify::visible-end", G_CALLBACK (visible_changed), self);
      g_signal_connect (side->session, "notify::selection-end", G_CALLBACK (selection_changed), self);
      g_signal_connect (side->session, "notify::has-selection", G_CALLBACK (selection_changed), self);
    }
  return self;
}

void
jvms_compare_views_free (JvmsCompareViews *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < 2; i++)
    {
      g_signal_handlers_disconnect_by_data (self->sides[i].session, self);
      g_clear_object (&self->sides[i].session);
    }
  g_clear_object (&self->box);
  g_free (self);
}

GtkWidget *
jvms_compare_views_get_widget (JvmsCompareViews *self)
{
  return self->box;
}

void
jvms_compare_views_set_history (JvmsCompareViews *self, guint side, const char *title, JvmsHistory *history)
{
  g_return_if_fail (side < 2);
  Side *s = &self->sides[side];
  /* Translators: above a trace's threads view in the comparison window: "Baseline: a.jvmtrace". */
  g_autofree char *text = g_strdup_printf (side == 0 ? _("Baseline: %s") : _("Other: %s"), title);
  gtk_label_set_text (s->title, text);
  if (jvms_session_get_history (s->session) != history)
    {
      self->syncing = TRUE;
      jvms_session_set_history (s->session, history);
      self->syncing = FALSE;
    }
  /* Empty axes say nothing: the views show once both traces are open. */
  gtk_widget_set_visible (self->box, jvms_session_get_history (self->sides[0].session) != NULL
                                     && jvms_session_get_history (self->sides[1].session) != NULL);
}

void
jvms_compare_views_show_ranges (JvmsCompareViews *self, const gint64 from[2], const gint64 to[2],
                                const gboolean chosen[2], guint lead)
{
  g_return_if_fail (lead < 2);
  self->syncing = TRUE;
  for (guint i = 0; i < 2; i++)
    {
      Side *s = &self->sides[i];
      s->anchor = from[i];
      s->shown = TRUE;
      gint64 a, b;
      gboolean has = jvms_session_get_selection (s->session, &a, &b);
      if (chosen[i] && (!has || MIN (a, b) != from[i] || MAX (a, b) != to[i]))
        jvms_session_set_selection (s->session, from[i], to[i]);
      else if (!chosen[i] && has)
        jvms_session_clear_selection (s->session);
    }
  /* The first time, or when the lead's range is not in view: both show their ranges from their
   * starts, as long as the longer of the two, within what both traces hold (a session keeps
   * its view inside its trace, which would shift one view against the other). */
  Side *l = &self->sides[lead];
  gint64 v0, v1;
  jvms_session_get_visible (l->session, &v0, &v1);
  if (!self->aligned || from[lead] < v0 || to[lead] > v1)
    {
      gint64 span = MAX (to[0] - from[0], to[1] - from[1]);
      gint64 lo = G_MININT64, hi = G_MAXINT64;
      for (guint i = 0; i < 2; i++)
        {
          lo = MAX (lo, jvms_session_get_start_time (self->sides[i].session) - from[i]);
          hi = MIN (hi, jvms_session_get_end_time (self->sides[i].session) - from[i]);
        }
      gint64 r1 = MIN (span, hi), r0 = MAX (lo, r1 - span);
      if (r1 <= r0)
        r0 = 0, r1 = MAX (span, 1);
      jvms_session_set_visible (l->session, from[lead] + r0, from[lead] + r1, FALSE);
    }
  self->aligned = TRUE;
  self->syncing = FALSE;
  align (self, lead);
}

static void
set_bounds (GString *out, const char *name, GtkWidget *widget, GtkWidget *relative_to)
{
  graphene_rect_t r;
  if (gtk_widget_get_mapped (widget) && gtk_widget_compute_bounds (widget, relative_to, &r))
    g_string_append_printf (out, "%s=%d,%d,%d,%d;", name, (int) r.origin.x, (int) r.origin.y,
                            (int) r.size.width, (int) r.size.height);
}

void
jvms_compare_views_dump_state (JvmsCompareViews *self, GKeyFile *kf, GtkWidget *relative_to)
{
  g_autoptr(GString) bounds = g_string_new (NULL);
  for (guint i = 0; i < 2; i++)
    {
      Side *s = &self->sides[i];
      const char *name = i == 0 ? "baseline" : "other";
      gint64 v0, v1, s0 = 0, s1 = 0;
      jvms_session_get_visible (s->session, &v0, &v1);
      gboolean has = jvms_session_get_selection (s->session, &s0, &s1);
      g_autofree char *key = g_strconcat (name, "-view", NULL);
      /* VISIBLE_FROM VISIBLE_TO ANCHOR SELECTION_FROM SELECTION_TO ROWS TRACE_START TRACE_END
       * (epoch ns; the selection 0 0 when none) */
      g_autofree char *value = g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                                                " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %u %" G_GINT64_FORMAT
                                                " %" G_GINT64_FORMAT,
                                                v0, v1, s->anchor, has ? MIN (s0, s1) : 0, has ? MAX (s0, s1) : 0,
                                                jvms_threads_view_get_n_rows (JVMS_THREADS_VIEW (s->threads)),
                                                jvms_session_get_start_time (s->session),
                                                jvms_session_get_end_time (s->session));
      g_key_file_set_string (kf, "compare", key, value);
      g_autofree char *threads = g_strconcat (name, "-threads", NULL);
      set_bounds (bounds, threads, s->threads, relative_to);
    }
  g_key_file_set_string (kf, "compare", "views", bounds->str);
}
