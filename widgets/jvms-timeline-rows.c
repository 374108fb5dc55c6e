/* jvms-timeline-rows.c: moving among a view's rows from the keyboard, whatever their number.
 *
 * A view lists its rows (get_n_rows and get_row_bounds, or uniform_row_height); the keyboard
 * row is marked in the label column while the view has the focus, and moving it scrolls the
 * enclosing scrolled window (or the view's own offset) to show it: the whole list is reachable
 * without the pointer, from the first row to the last of 100,000. */
#include "config.h"

#include "jvms-timeline-private.h"

guint
_jvms_timeline_row_at (JvmsTimeline *self,
                       double        y)
{
  guint lo = 0, hi = jvms_timeline_get_n_rows (self);
  int ry, rh;

  /* Rows are in order: the first whose bottom is below @y. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      jvms_timeline_get_row_bounds (self, mid, &ry, &rh);
      if (ry + rh <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (!jvms_timeline_get_row_bounds (self, lo, &ry, &rh) || ry > y)
    return G_MAXUINT;
  return lo;
}

/* Where the view starts in the scrolled content of @scroller: fixed while it scrolls. */
static gboolean
view_in_content (JvmsTimeline *self,
                 GtkWidget    *scroller,
                 double       *y)
{
  GtkWidget *content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller));
  graphene_point_t point;

  if (GTK_IS_VIEWPORT (content))
    content = gtk_viewport_get_child (GTK_VIEWPORT (content));
  if (content == NULL ||
      !gtk_widget_compute_point (GTK_WIDGET (self), content, &GRAPHENE_POINT_INIT (0, 0), &point))
    return FALSE;
  *y = point.y;
  return TRUE;
}

/* The content rows that show now: [*top, *bottom). From the scrolled window's adjustment and
 * not from where the view was last allocated, which lags a scroll until the next layout: keys
 * that come faster than frames would each scroll again from a stale place (Ctrl+End then Up
 * ran past the end of the view). */
static void
visible_content (JvmsTimeline *self,
                 double       *top,
                 double       *bottom)
{
  JvmsTimelinePrivate *priv = _jvms_timeline_get_private (self);
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  JvmsTimelineGeometry g;
  double widget_top = 0, widget_bottom, y;

  jvms_timeline_get_geometry (self, &g);
  widget_bottom = g.height;
  if (scroller != NULL && view_in_content (self, scroller, &y))
    {
      GtkAdjustment *adjustment =
        gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
      double value = gtk_adjustment_get_value (adjustment);

      /* Not clamped to the view: scrolled away from it, the shift to a row is still right. */
      widget_top = value - y;
      widget_bottom = MAX (value + gtk_adjustment_get_page_size (adjustment) - y, widget_top);
    }
  /* The legend covers what is under it. */
  *top = MAX (widget_top, g.top) - g.top + priv->v_offset;
  *bottom = MAX (widget_bottom - g.top + priv->v_offset, *top);
}

/* Scrolls so that content rows [@y, @y + @height) show: the enclosing scrolled window when
 * there is one (the window stacks its views in one), else the view's own offset. */
static void
scroll_to (JvmsTimeline *self,
           int           y,
           int           height)
{
  JvmsTimelinePrivate *priv = _jvms_timeline_get_private (self);
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  double top, bottom, shift = 0;

  visible_content (self, &top, &bottom);
  if (y >= top && y + height <= bottom)
    return;
  if (y < top)
    shift = y - top;
  else
    shift = MIN (y + height - bottom, y - top);
  if (scroller != NULL)
    {
      GtkAdjustment *adjustment =
        gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
      double before = gtk_adjustment_get_value (adjustment);

      gtk_adjustment_set_value (adjustment, before + shift);
      shift -= gtk_adjustment_get_value (adjustment) - before;
    }
  /* What the scrolled window could not (a view shorter than its rows), the view does. */
  if (shift != 0)
    jvms_timeline_set_v_offset (self, priv->v_offset + shift);
}

guint
jvms_timeline_get_cursor_row (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv;

  g_return_val_if_fail (JVMS_IS_TIMELINE (self), G_MAXUINT);
  priv = _jvms_timeline_get_private (self);
  return priv->cursor_row < jvms_timeline_get_n_rows (self) ? priv->cursor_row : G_MAXUINT;
}

void
jvms_timeline_set_cursor_row (JvmsTimeline *self,
                              guint         row)
{
  JvmsTimelinePrivate *priv;
  guint n;
  int y, h;

  g_return_if_fail (JVMS_IS_TIMELINE (self));
  priv = _jvms_timeline_get_private (self);
  n = jvms_timeline_get_n_rows (self);
  if (n == 0)
    return;
  priv->cursor_row = MIN (row, n - 1);
  if (jvms_timeline_get_row_bounds (self, priv->cursor_row, &y, &h))
    scroll_to (self, y, h);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
_jvms_timeline_row_key (JvmsTimeline    *self,
                        guint            keyval,
                        GdkModifierType  state)
{
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (self);
  guint n = jvms_timeline_get_n_rows (self), cursor = jvms_timeline_get_cursor_row (self);
  gboolean control = (state & GDK_CONTROL_MASK) != 0;
  double top, bottom;
  int y, h;

  if (n == 0)
    return FALSE;
  if (cursor == G_MAXUINT)
    {
      /* The first move starts from the rows on screen. */
      visible_content (self, &top, &bottom);
      cursor = _jvms_timeline_row_at (self, top);
      if (cursor == G_MAXUINT)
        cursor = 0;
      if (keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down)
        keyval = GDK_KEY_VoidSymbol; /* onto that row, not past it */
    }
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      cursor = cursor > 0 ? cursor - 1 : 0;
      break;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      cursor = MIN (cursor + 1, n - 1);
      break;
    case GDK_KEY_Page_Up:
    case GDK_KEY_KP_Page_Up:
    case GDK_KEY_Page_Down:
    case GDK_KEY_KP_Page_Down:
      {
        gboolean down = keyval == GDK_KEY_Page_Down || keyval == GDK_KEY_KP_Page_Down;
        guint to;

        visible_content (self, &top, &bottom);
        jvms_timeline_get_row_bounds (self, cursor, &y, &h);
        to = _jvms_timeline_row_at (self, down ? y + (bottom - top) : MAX (0, y - (bottom - top)));
        cursor = to != G_MAXUINT ? to : down ? n - 1 : 0;
      }
      break;
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      if (!control)
        return FALSE;
      cursor = 0;
      break;
    case GDK_KEY_End:
    case GDK_KEY_KP_End:
      if (!control)
        return FALSE;
      cursor = n - 1;
      break;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
      if (klass->activate_row == NULL)
        return FALSE;
      klass->activate_row (self, cursor);
      break;
    case GDK_KEY_VoidSymbol:
      break;
    default:
      return FALSE;
    }
  jvms_timeline_set_cursor_row (self, cursor);
  return TRUE;
}

void
_jvms_timeline_snapshot_cursor (JvmsTimeline               *self,
                                GtkSnapshot                *snapshot,
                                const JvmsTimelineGeometry *g)
{
  guint cursor = jvms_timeline_get_cursor_row (self);
  GdkRGBA color = { g->palette->selection_edge.r, g->palette->selection_edge.g,
                    g->palette->selection_edge.b, 1 };
  double y, top = MAX (g->draw_top, g->top);
  int ry, rh;

  if (cursor == G_MAXUINT || !gtk_widget_has_focus (GTK_WIDGET (self)) ||
      !jvms_timeline_get_row_bounds (self, cursor, &ry, &rh))
    return;
  y = g->top + ry - g->v_offset;
  if (y + rh <= top || y >= g->draw_bottom)
    return;
  /* A bar down the left edge and a line under the label: the row keeps its own colours. */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, top, g->gutter, g->draw_bottom - top));
  gtk_snapshot_append_color (snapshot, &color, &GRAPHENE_RECT_INIT (0, y, 3, rh));
  gtk_snapshot_append_color (snapshot, &color, &GRAPHENE_RECT_INIT (0, y + rh - 1, g->gutter, 1));
  gtk_snapshot_pop (snapshot);
}
