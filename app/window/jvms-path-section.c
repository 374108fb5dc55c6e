/* jvms-path-section.c: see the header. */
#include "config.h"

#include "jvms-path-section.h"

#include <glib/gi18n.h>

#include "jvms-cause-link.h"
#include "jvms-thread-list.h"
#include "jvms-time-format.h"

/* Segments listed at most: the panel is for reading; the command line lists them all. */
#define SHOWN_SEGMENTS 40
/* Causes listed at most, most time first. */
#define SHOWN_CAUSES 8
/* Hand-offs linked at most, the first in time. */
#define SHOWN_WAKERS 8

struct _JvmsPathSection
{
  GtkBox       parent_instance;
  JvmsSession *session;
  GtkWidget   *summary;
  GtkWidget   *wakers;   /* a link per hand-off: the part of the wait its waker ended */
  GtkWidget   *text;
};

G_DEFINE_FINAL_TYPE (JvmsPathSection, jvms_path_section, GTK_TYPE_BOX)

static void
jvms_path_section_dispose (GObject *object)
{
  g_clear_object (&JVMS_PATH_SECTION (object)->session);
  G_OBJECT_CLASS (jvms_path_section_parent_class)->dispose (object);
}

static void
jvms_path_section_class_init (JvmsPathSectionClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = jvms_path_section_dispose;
}

static void
jvms_path_section_init (JvmsPathSection *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  GtkWidget *title = gtk_label_new (_("Critical path"));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "title-4");
  gtk_box_append (GTK_BOX (self), title);
  self->summary = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->summary), 0);
  gtk_label_set_wrap (GTK_LABEL (self->summary), TRUE);
  gtk_widget_add_css_class (self->summary, "dim-label");
  gtk_box_append (GTK_BOX (self), self->summary);
  self->wakers = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (self), self->wakers);
  self->text = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->text), 0);
  gtk_label_set_selectable (GTK_LABEL (self->text), TRUE);
  gtk_label_set_wrap (GTK_LABEL (self->text), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->text), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (self->text, "monospace");
  gtk_box_append (GTK_BOX (self), self->text);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/* The name of thread @tid on @path: a hand-off's waker is one of its causes. */
static const char *
cause_name (const JvmsCriticalPath *path, gint64 tid)
{
  for (guint i = 0; i < path->causes->len; i++)
    {
      const JvmsPathCause *c = &g_array_index (path->causes, JvmsPathCause, i);
      if (c->tid == tid)
        return c->name;
    }
  return "?";
}

/* A link per hand-off (issue 20): "woke" by the waker, to the interval the path followed the
 * waker over for that wait, [from, at) on the waker's row: the hand-off's part of the waker's
 * cause intervals (docs/critical-path.md), not the waker's last segment before the wake-up (a
 * sliver of running that says nothing of how long the wait lasted). */
static void
set_wakers (JvmsPathSection *self, const JvmsCriticalPath *path)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (self->wakers)) != NULL)
    gtk_box_remove (GTK_BOX (self->wakers), child);
  JvmsTimeUnit unit = self->session ? jvms_session_get_time_unit (self->session) : JVMS_TIME_UNIT_AUTO;
  JvmsTimeOrigin origin = self->session ? jvms_session_get_time_origin (self->session) : JVMS_TIME_ORIGIN_TRACE_START;
  gint64 start = self->session ? jvms_session_get_start_time (self->session) : 0;
  for (guint i = 0; path != NULL && i < path->handoffs->len && i < SHOWN_WAKERS; i++)
    {
      const JvmsPathHandoff *h = &g_array_index (path->handoffs, JvmsPathHandoff, i);
      g_autofree char *key = jvms_thread_key (h->waker);
      g_autofree char *at = jvms_time_format_instant (h->at, start, unit, origin, 0, FALSE);
      g_autofree char *woken = jvms_thread_key (h->woken);
      g_autofree char *waited = jvms_time_format_duration (h->at - h->from, unit);
      /* Translators: a link to the thread that ended a wait on the critical path: its name (id),
       * the woken thread's id, when, how long the path waited on it there. */
      g_autofree char *label = g_strdup_printf (_("%s (%s) woke %s at %s, waited on for %s"),
                                                cause_name (path, h->waker), key, woken, at, waited);
      gtk_box_append (GTK_BOX (self->wakers), jvms_cause_link_new ("waker", label, h->waker, h->from, h->at));
    }
}

GtkWidget *
jvms_path_section_new (JvmsSession *session)
{
  JvmsPathSection *self = g_object_new (JVMS_TYPE_PATH_SECTION, NULL);
  self->session = session != NULL ? g_object_ref (session) : NULL;
  return GTK_WIDGET (self);
}

void
jvms_path_section_set_path (JvmsPathSection *self, const JvmsCriticalPath *path)
{
  g_return_if_fail (JVMS_IS_PATH_SECTION (self));
  gtk_widget_set_visible (GTK_WIDGET (self), path != NULL);
  if (path == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->summary), "");
      gtk_label_set_text (GTK_LABEL (self->text), "");
      set_wakers (self, NULL);
      return;
    }
  JvmsTimeUnit unit = self->session ? jvms_session_get_time_unit (self->session) : JVMS_TIME_UNIT_AUTO;
  JvmsTimeOrigin origin = self->session ? jvms_session_get_time_origin (self->session) : JVMS_TIME_ORIGIN_TRACE_START;
  gint64 start = self->session ? jvms_session_get_start_time (self->session) : 0;
  gint64 total = path->to - path->from;
  g_autofree char *key = jvms_thread_key (path->tid);
  g_autofree char *duration = jvms_time_format_duration (total, unit);
  g_autofree char *from = jvms_time_format_instant (path->from, start, unit, origin, 0, FALSE);
  g_autofree char *summary = g_strdup_printf (_("Whose work %s (%s) waited on over %s from %s: %u threads, %u hand-offs. "
                                                "Click a thread's label to clear."),
                                              path->name, key, duration, from, path->n_threads,
                                              path->handoffs->len);
  gtk_label_set_text (GTK_LABEL (self->summary), summary);
  set_wakers (self, path);

  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GArray) by = jvms_critical_path_by_thread (path);
  for (guint i = 0; i < by->len; i++)
    {
      const JvmsPathSegment *s = &g_array_index (by, JvmsPathSegment, i);
      g_autofree char *ns = jvms_time_format_duration (s->to, unit);
      g_string_append_printf (text, "%5.1f%%  %s  %s\n", total > 0 ? 100.0 * s->to / total : 0.0, ns, s->name);
    }
  /* The causes with their time and longest interval, as critical-path's text has them. */
  for (guint i = 0; i < path->causes->len && i < SHOWN_CAUSES; i++)
    {
      const JvmsPathCause *c = &g_array_index (path->causes, JvmsPathCause, i);
      g_autofree char *ns = jvms_time_format_duration (c->ns, unit);
      const JvmsEvidenceInterval *iv = c->intervals->len > 0 ? &g_array_index (c->intervals, JvmsEvidenceInterval, 0) : NULL;
      g_autofree char *longest = iv != NULL ? jvms_time_format_duration (iv->to - iv->from, unit) : NULL;
      if (i == 0)
        g_string_append_c (text, '\n');
      /* Translators: a cause of the critical path: its kind ("waker", "holder", "preempted-by",
       * kept in English as in the command line's JSON), its time, its name, its longest interval. */
      g_string_append_printf (text, _("%s  %s  %s, longest %s\n"), c->kind, ns, c->name, longest != NULL ? longest : "-");
    }
  g_string_append_c (text, '\n');
  for (guint i = 0; i < path->segments->len && i < SHOWN_SEGMENTS; i++)
    {
      const JvmsPathSegment *s = &g_array_index (path->segments, JvmsPathSegment, i);
      g_autofree char *at = jvms_time_format_instant (s->from, start, unit, origin, 0, FALSE);
      g_autofree char *ns = jvms_time_format_duration (s->to - s->from, unit);
      g_string_append_printf (text, "%s  %s  %5.1f%%  %s  %s\n", at, ns,
                              total > 0 ? 100.0 * (s->to - s->from) / total : 0.0, s->name, s->cause);
    }
  if (path->segments->len > SHOWN_SEGMENTS)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "… and %u more segment",
                                               "… and %u more segments", path->segments->len - SHOWN_SEGMENTS),
                            path->segments->len - SHOWN_SEGMENTS);
  gtk_label_set_text (GTK_LABEL (self->text), text->str);
}

const char *
jvms_path_section_get_text (JvmsPathSection *self)
{
  g_return_val_if_fail (JVMS_IS_PATH_SECTION (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->text));
}
