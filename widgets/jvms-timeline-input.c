/* jvms-timeline-input.c: how a view is driven: the wheel and the keys zoom and pan the
 * session, a drag selects a time range, a click goes to the view's click handler, the pointer
 * sets the session's hovered time. Every view shares it through JvmsTimeline. */
#include "config.h"

#include <math.h>

#include "jvms-timeline-private.h"

/* A press that moves less than this is a click, not a selection. */
#define DRAG_THRESHOLD 3.0
/* Share of the visible span one W/S press zooms and one A/D press pans. */
#define KEY_ZOOM_FACTOR 0.7
#define KEY_PAN_FRACTION 0.2
#define WHEEL_ZOOM_BASE 1.15
#define WHEEL_PAN_FRACTION 0.08
#define WHEEL_ROW_PIXELS 40.0

static gint64
anchor_time (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv = _jvms_timeline_get_private (self);
  JvmsTimelineGeometry g;

  jvms_timeline_get_geometry (self, &g);
  if (priv->pointer_inside && priv->pointer_x >= g.gutter)
    return jvms_timeline_x_to_time (&g, priv->pointer_x);
  return g.t0 + (g.t1 - g.t0) / 2;
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           JvmsTimeline             *self)
{
  JvmsTimelinePrivate *priv = _jvms_timeline_get_private (self);
  GdkModifierType state;

  if (priv->session == NULL)
    return FALSE;

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  if (state & GDK_CONTROL_MASK)
    {
      gint64 anchor = anchor_time (self);
      gint64 s, e;
      /* One zoom history step per burst of wheel clicks. */
      jvms_session_get_visible (priv->session, &s, &e);
      if (!priv->wheel_zooming)
        jvms_session_zoom_at (priv->session, anchor, pow (WHEEL_ZOOM_BASE, dy));
      else
        {
          double span = (double) (e - s), left = (double) (anchor - s) / span;
          double new_span = span * pow (WHEEL_ZOOM_BASE, dy);
          gint64 ns = anchor - (gint64) (left * new_span);
          jvms_session_set_visible (priv->session, ns, ns + (gint64) new_span, FALSE);
        }
      priv->wheel_zooming = TRUE;
      return TRUE;
    }
  priv->wheel_zooming = FALSE;
  if (state & GDK_SHIFT_MASK)
    {
      jvms_session_pan (priv->session, (dy != 0 ? dy : dx) * WHEEL_PAN_FRACTION);
      return TRUE;
    }
  if (dx != 0)
    {
      jvms_session_pan (priv->session, dx * WHEEL_PAN_FRACTION);
      return TRUE;
    }
  if (dy != 0)
    {
      double before = priv->v_offset;
      jvms_timeline_set_v_offset (self, priv->v_offset + dy * WHEEL_ROW_PIXELS);
      /* Let an enclosing scrolled window scroll when this view is at its end. */
      return priv->v_offset != before;
    }
  return FALSE;
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                JvmsTimeline          *self)
{
  JvmsTimelinePrivate *priv = _jvms_timeline_get_private (self);

  if (priv->session == NULL)
    return FALSE;
  priv->wheel_zooming = FALSE;

  if (state & GDK_ALT_MASK)
    {
      if (keyval == GDK_KEY_Left)
        jvms_session_go_back (priv->session);
      else if (keyval == GDK_KEY_Right)
        jvms_session_go_forward (priv->session);
      else
        return FALSE;
      return TRUE;
    }
  if (!(state & GDK_SUPER_MASK) && _jvms_timeline_row_key (self, keyval, state))
    return TRUE;
  if (state & (GDK_CONTROL_MASK | GDK_SUPER_MASK))
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_w:
    case GDK_KEY_W:
      jvms_session_zoom_at (priv->session, anchor_time (self), KEY_ZOOM_FACTOR);
      return TRUE;
    case GDK_KEY_s:
    case GDK_KEY_S:
      jvms_session_zoom_at (priv->session, anchor_time (self), 1.0 / KEY_ZOOM_FACTOR);
      return TRUE;
    case GDK_KEY_a:
    case GDK_KEY_A:
    case GDK_KEY_Left:
      jvms_session_pan (priv->session, -KEY_PAN_FRACTION);
      return TRUE;
    case GDK_KEY_d:
    case GDK_KEY_D:
    case GDK_KEY_Right:
      jvms_session_pan (priv->session, KEY_PAN_FRACTION);
      return TRUE;
    case GDK_KEY_z:
    case GDK_KEY_Z:
      jvms_session_zoom_to_selection (priv->session);
      return TRUE;
    case GDK_KEY_0:
    case GDK_KEY_Home:
      jvms_session_zoom_all (priv->session);
      return TRUE;
    case GDK_KEY_Escape:
      jvms_session_clear_selection (priv->session);
      jvms_session_clear_highlight (priv->session);
      return TRUE;
    case GDK_KEY_BackSpace:
      jvms_session_go_back (priv->session);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           JvmsTimeline             *self)
{
  JvmsTimelinePrivate *priv = _jvms_timeline_get_private (self);
  JvmsTimelineGeometry g;

  if (priv->pointer_x != x)
    priv->wheel_zooming = FALSE;
  priv->pointer_x = x;
  priv->pointer_y = y;
  priv->pointer_inside = TRUE;
  if (priv->session == NULL)
    return;
  jvms_timeline_get_geometry (self, &g);
  jvms_session_set_hovered_time (priv->session,
                                 x >= g.gutter ? jvms_timeline_x_to_time (&g, x) : G_MININT64);
}

static void
on_leave (GtkEventControllerMotion *controller,
          JvmsTimeline             *self)
{
  JvmsTimelinePrivate *priv = _jvms_timeline_get_private (self);

  priv->pointer_inside = FALSE;
  priv->wheel_zooming = FALSE;
  if (priv->session != NULL)
    jvms_session_set_hovered_time (priv->session, G_MININT64);
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               JvmsTimeline   *self)
{
  JvmsTimelinePrivate *priv = _jvms_timeline_get_private (self);
  JvmsTimelineGeometry g;

  jvms_timeline_get_geometry (self, &g);
  priv->dragging = TRUE;
  priv->drag_selects = FALSE;
  priv->drag_start_x = x;
  priv->drag_start_y = y;
  priv->drag_start_time = jvms_timeline_x_to_time (&g, MAX (x, g.gutter));
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                JvmsTimeline   *self)
{
  JvmsTimelinePrivate *priv = _jvms_timeline_get_private (self);
  JvmsTimelineGeometry g;

  if (!priv->dragging || priv->session == NULL)
    return;
  jvms_timeline_get_geometry (self, &g);
  if (!priv->drag_selects && (fabs (dx) < DRAG_THRESHOLD || priv->drag_start_x < g.gutter))
    return;
  priv->drag_selects = TRUE;
  jvms_session_set_selection (priv->session, priv->drag_start_time,
                              jvms_timeline_x_to_time (&g, MAX (priv->drag_start_x + dx,
                                                                g.gutter)));
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             JvmsTimeline   *self)
{
  JvmsTimelinePrivate *priv = _jvms_timeline_get_private (self);
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (self);
  JvmsTimelineGeometry g;
  double x = priv->drag_start_x, y = priv->drag_start_y;

  if (!priv->dragging)
    return;
  /* The release ends the selection where the pointer was let go: when the main loop was busy,
   * motion events were merged and the last drag-update may lie short of it. */
  on_drag_update (gesture, dx, dy, self);
  priv->dragging = FALSE;
  if (priv->drag_selects)
    return;
  jvms_timeline_get_geometry (self, &g);
  if (y >= g.top)
    {
      /* The keyboard goes on from the row clicked. */
      guint row = _jvms_timeline_row_at (self, y - g.top + g.v_offset);
      if (row != G_MAXUINT)
        _jvms_timeline_get_private (self)->cursor_row = row;
    }
  if (klass->click != NULL && _jvms_timeline_get_history (self) != NULL && y >= g.top)
    klass->click (self, _jvms_timeline_get_history (self), &g, x, y - g.top + g.v_offset,
                  jvms_timeline_x_to_time (&g, MAX (x, g.gutter)), x < g.gutter);
}

gboolean
jvms_timeline_is_dragging (JvmsTimeline *self)
{
  g_return_val_if_fail (JVMS_IS_TIMELINE (self), FALSE);
  return _jvms_timeline_get_private (self)->dragging;
}

void
_jvms_timeline_add_input (JvmsTimeline *self)
{
  GtkEventController *controller;
  GtkGesture *drag;

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  /* The keyboard row is marked only while the view has the focus. */
  controller = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (controller, "enter", G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_connect_swapped (controller, "leave", G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
}
