/* jvms-timeline.c: shared navigation, selection and cache discipline of the views. */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <math.h>

#include "jvms-time-ruler.h"
#include "jvms-timeline.h"

/* A press that moves less than this is a click, not a selection. */
#define DRAG_THRESHOLD 3.0
/* Share of the visible span one W/S press zooms and one A/D press pans. */
#define KEY_ZOOM_FACTOR 0.7
#define KEY_PAN_FRACTION 0.2
#define WHEEL_ZOOM_BASE 1.15
#define WHEEL_PAN_FRACTION 0.08
#define WHEEL_ROW_PIXELS 40.0

typedef struct
{
  JvmsSession *session;
  gulong       history_changed_id;
  gulong       notify_id;

  /* What the cache was computed for; generation counts invalidations. */
  gint64       cached_t0;
  gint64       cached_t1;
  int          cached_columns;
  int          cached_height;
  double       cached_v_offset;
  double       cached_band_top;
  double       cached_band_bottom;
  guint        generation;
  guint        cached_generation;
  gboolean     cache_valid;

  double       v_offset;
  gboolean     dark;

  double       pointer_x;
  double       pointer_y;
  gboolean     pointer_inside;

  GtkAdjustment *scroll_adjustment; /* of the enclosing scrolled window, while rooted */
  gulong       scrolled_id;

  /* Size of the last frame or offscreen render: the geometry of a view not on screen. */
  int          last_width;
  int          last_height;

  /* The drawn content of the last frame (everything but selection and hover). */
  GskRenderNode *content;
  gboolean     content_valid;
  gboolean     content_dark;
  int          content_width;
  int          content_height;

  gboolean     dragging;
  gboolean     drag_selects;
  double       drag_start_x;
  double       drag_start_y;
  gint64       drag_start_time;
  /* Consecutive wheel zooms form one step of the zoom history. */
  gboolean     wheel_zooming;
} JvmsTimelinePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (JvmsTimeline, jvms_timeline, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

double
jvms_timeline_time_to_x (const JvmsTimelineGeometry *g,
                         gint64                      time)
{
  double span = (double) MAX (g->t1 - g->t0, 1);
  return g->gutter + (double) (time - g->t0) / span * g->n_columns;
}

gint64
jvms_timeline_x_to_time (const JvmsTimelineGeometry *g,
                         double                      x)
{
  double span = (double) MAX (g->t1 - g->t0, 1);
  return g->t0 + (gint64) floor ((x - g->gutter) / g->n_columns * span);
}

static void
fill_geometry (JvmsTimeline         *self,
               JvmsTimelineGeometry *g,
               int                   width,
               int                   height,
               gboolean              dark)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  g->width = width;
  g->height = height;
  g->gutter = MIN (JVMS_TIMELINE_GUTTER, width / 3);
  g->n_columns = MAX (width - g->gutter, 1);
  g->top = MIN (JVMS_TIMELINE_LEGEND_HEIGHT, height / 2);
  g->t0 = 0;
  g->t1 = 1;
  if (priv->session != NULL)
    jvms_session_get_visible (priv->session, &g->t0, &g->t1);
  g->v_offset = priv->v_offset;
  g->band_top = g->v_offset;
  g->band_bottom = g->v_offset + (height - g->top);
  g->palette = jvms_palette_get (dark);
}

/* Chunks the visible band is rounded to, so that scrolling a few pixels reuses the cache. */
#define BAND_CHUNK 512.0

/* A view inside a scrolled window is allocated its whole height, but only part of it shows:
 * compute only the rows on screen (rounded out to chunks), so that the cost of a frame follows
 * the screen and not the number of threads. */
static void
narrow_to_screen (JvmsTimeline         *self,
                  JvmsTimelineGeometry *g)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;
  double visible_top, visible_bottom, top, bottom;

  if (scroller == NULL || !gtk_widget_compute_bounds (GTK_WIDGET (self), scroller, &bounds))
    return;
  visible_top = MAX (0, -bounds.origin.y);
  visible_bottom = MIN (g->height, gtk_widget_get_height (scroller) - bounds.origin.y);
  if (visible_bottom <= visible_top)
    visible_bottom = visible_top;
  top = floor ((visible_top - g->top + g->v_offset) / BAND_CHUNK) * BAND_CHUNK - BAND_CHUNK;
  bottom = ceil ((visible_bottom - g->top + g->v_offset) / BAND_CHUNK) * BAND_CHUNK + BAND_CHUNK;
  g->band_top = MAX (g->band_top, top);
  g->band_bottom = MAX (g->band_top, MIN (g->band_bottom, bottom));
}

void
jvms_timeline_get_geometry (JvmsTimeline         *self,
                            JvmsTimelineGeometry *geometry)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  g_return_if_fail (JVMS_IS_TIMELINE (self));
  if (width <= 0 || height <= 0)
    {
      width = MAX (priv->last_width, 1);
      height = MAX (priv->last_height, 1);
    }
  fill_geometry (self, geometry, width, height, priv->dark);
}

static JvmsHistory *
get_history (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  return priv->session != NULL ? jvms_session_get_history (priv->session) : NULL;
}

static int
content_height (JvmsTimeline *self)
{
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (self);
  return klass->get_content_height != NULL ? klass->get_content_height (self) : 0;
}

static void
clamp_v_offset (JvmsTimeline *self,
                int           height)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  double max = MAX (0, content_height (self) - (height - JVMS_TIMELINE_LEGEND_HEIGHT));
  priv->v_offset = CLAMP (priv->v_offset, 0, max);
}

void
jvms_timeline_invalidate (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  g_return_if_fail (JVMS_IS_TIMELINE (self));
  priv->generation++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_accessible (JvmsTimeline *self)
{
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (self);
  g_autofree char *description = NULL;

  if (klass->describe == NULL)
    return;
  description = klass->describe (self);
  if (description != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                    -1);
}

void
jvms_timeline_reload (JvmsTimeline *self)
{
  JvmsTimelineClass *klass;

  g_return_if_fail (JVMS_IS_TIMELINE (self));
  klass = JVMS_TIMELINE_GET_CLASS (self);
  if (klass->reload != NULL)
    klass->reload (self, get_history (self));
  update_accessible (self);
  jvms_timeline_invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

double
jvms_timeline_get_v_offset (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  g_return_val_if_fail (JVMS_IS_TIMELINE (self), 0);
  return priv->v_offset;
}

void
jvms_timeline_set_v_offset (JvmsTimeline *self,
                            double        v_offset)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  g_return_if_fail (JVMS_IS_TIMELINE (self));
  priv->v_offset = v_offset;
  clamp_v_offset (self, gtk_widget_get_height (GTK_WIDGET (self)));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_history_changed (JvmsTimeline *self,
                    JvmsSession  *session)
{
  jvms_timeline_reload (self);
}

static void
on_session_notify (JvmsTimeline *self,
                   GParamSpec   *pspec,
                   JvmsSession  *session)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  /* Range changes make the cache key differ; highlights change the drawn content (from the
   * cache); selection and hover only the overlays. */
  if (g_str_has_prefix (pspec->name, "highlighted-"))
    priv->content_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

JvmsSession *
jvms_timeline_get_session (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  g_return_val_if_fail (JVMS_IS_TIMELINE (self), NULL);
  return priv->session;
}

void
jvms_timeline_set_session (JvmsTimeline *self,
                           JvmsSession  *session)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  g_return_if_fail (JVMS_IS_TIMELINE (self));
  g_return_if_fail (session == NULL || JVMS_IS_SESSION (session));

  if (priv->session == session)
    return;

  if (priv->session != NULL)
    {
      g_clear_signal_handler (&priv->history_changed_id, priv->session);
      g_clear_signal_handler (&priv->notify_id, priv->session);
      g_clear_object (&priv->session);
    }
  if (session != NULL)
    {
      priv->session = g_object_ref (session);
      priv->history_changed_id =
        g_signal_connect_object (session, "history-changed", G_CALLBACK (on_history_changed),
                                 self, G_CONNECT_SWAPPED);
      priv->notify_id =
        g_signal_connect_object (session, "notify", G_CALLBACK (on_session_notify),
                                 self, G_CONNECT_SWAPPED);
    }
  jvms_timeline_reload (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

static gboolean
cache_matches (JvmsTimeline               *self,
               const JvmsTimelineGeometry *g)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  return priv->cache_valid &&
         priv->cached_t0 == g->t0 && priv->cached_t1 == g->t1 &&
         priv->cached_columns == g->n_columns && priv->cached_height == g->height &&
         priv->cached_v_offset == g->v_offset && priv->cached_generation == priv->generation &&
         priv->cached_band_top == g->band_top && priv->cached_band_bottom == g->band_bottom;
}

static void
compute (JvmsTimeline               *self,
         const JvmsTimelineGeometry *g)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (self);

  if (klass->compute != NULL)
    klass->compute (self, get_history (self), g);
  priv->cached_t0 = g->t0;
  priv->cached_t1 = g->t1;
  priv->cached_columns = g->n_columns;
  priv->cached_height = g->height;
  priv->cached_v_offset = g->v_offset;
  priv->cached_band_top = g->band_top;
  priv->cached_band_bottom = g->band_bottom;
  priv->cached_generation = priv->generation;
  priv->cache_valid = TRUE;
  priv->content_valid = FALSE;
}

static void
draw_overlays (JvmsTimeline               *self,
               cairo_t                    *cr,
               const JvmsTimelineGeometry *g)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  gint64 s, e, hover;

  if (priv->session == NULL)
    return;

  if (jvms_session_get_selection (priv->session, &s, &e))
    {
      double x0 = CLAMP (jvms_timeline_time_to_x (g, s), g->gutter, g->width);
      double x1 = CLAMP (jvms_timeline_time_to_x (g, e), g->gutter, g->width);
      if (x1 - x0 < 1)
        x1 = x0 + 1;
      jvms_color_set (cr, &g->palette->selection);
      cairo_rectangle (cr, x0, 0, x1 - x0, g->height);
      cairo_fill (cr);
      jvms_color_set (cr, &g->palette->selection_edge);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, floor (x0) + 0.5, 0);
      cairo_line_to (cr, floor (x0) + 0.5, g->height);
      cairo_move_to (cr, floor (x1) - 0.5, 0);
      cairo_line_to (cr, floor (x1) - 0.5, g->height);
      cairo_stroke (cr);
    }

  hover = jvms_session_get_hovered_time (priv->session);
  if (hover != G_MININT64 && hover >= g->t0 && hover <= g->t1)
    {
      double x = floor (jvms_timeline_time_to_x (g, hover)) + 0.5;
      jvms_color_set (cr, &g->palette->hover);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, 0);
      cairo_line_to (cr, x, g->height);
      cairo_stroke (cr);
    }
}

static PangoLayout *cached_label (cairo_t    *cr,
                                  gboolean    bold,
                                  int         max_width,
                                  const char *text,
                                  gsize       length);

static void
draw_legend (JvmsTimeline               *self,
             cairo_t                    *cr,
             const JvmsTimelineGeometry *g)
{
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (self);
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (JvmsLegendEntry));
  double x = g->gutter + 6;

  jvms_color_set (cr, &g->palette->gutter);
  cairo_rectangle (cr, 0, 0, g->width, g->top);
  cairo_fill (cr);
  if (klass->get_title != NULL)
    jvms_timeline_draw_label (cr, &g->palette->foreground, 6, 2, g->gutter - 10,
                              klass->get_title (self), TRUE);
  if (klass->legend != NULL)
    klass->legend (self, g->palette, entries);
  for (guint i = 0; i < entries->len; i++)
    {
      const JvmsLegendEntry *e = &g_array_index (entries, JvmsLegendEntry, i);
      /* Shaped once, unbounded: shaping per entry and frame cost more than the drawing. */
      PangoLayout *layout = cached_label (cr, FALSE, -1, e->label, strlen (e->label));
      int text_width, text_height;

      pango_layout_get_pixel_size (layout, &text_width, &text_height);
      if (x + 14 + text_width > g->width)
        break;
      if (e->color.a == 0)
        {
          /* A heading inside the legend: no swatch. */
          jvms_color_set (cr, &g->palette->dim_text);
          cairo_move_to (cr, x, (g->top - text_height) / 2.0);
          pango_cairo_show_layout (cr, layout);
          x += text_width + 6;
          continue;
        }
      jvms_color_set (cr, &e->color);
      cairo_rectangle (cr, x, (g->top - 10) / 2.0, 10, 10);
      cairo_fill (cr);
      jvms_color_set (cr, &g->palette->grid);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, x + 0.5, (g->top - 10) / 2.0 + 0.5, 9, 9);
      cairo_stroke (cr);
      jvms_color_set (cr, &g->palette->foreground);
      cairo_move_to (cr, x + 14, (g->top - text_height) / 2.0);
      pango_cairo_show_layout (cr, layout);
      x += 14 + text_width + 12;
    }
  jvms_color_set (cr, &g->palette->grid);
  cairo_move_to (cr, 0, g->top - 0.5);
  cairo_line_to (cr, g->width, g->top - 0.5);
  cairo_stroke (cr);
}

static void
draw_all (JvmsTimeline               *self,
          cairo_t                    *cr,
          const JvmsTimelineGeometry *g)
{
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (self);

  jvms_color_set (cr, &g->palette->background);
  cairo_paint (cr);
  jvms_color_set (cr, &g->palette->gutter);
  cairo_rectangle (cr, 0, 0, g->gutter, g->height);
  cairo_fill (cr);

  if (klass->draw != NULL)
    {
      cairo_save (cr);
      cairo_rectangle (cr, 0, g->top, g->width, g->height - g->top);
      cairo_clip (cr);
      klass->draw (self, cr, g);
      cairo_restore (cr);
    }

  draw_legend (self, cr, g);

  /* The edge between labels and data. */
  jvms_color_set (cr, &g->palette->grid);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, g->gutter - 0.5, 0);
  cairo_line_to (cr, g->gutter - 0.5, g->height);
  cairo_stroke (cr);
}

/* Selection and hover over the data area: they change with every pointer motion, so they are
 * drawn apart from the content, which is kept as a render node. */
static void
draw_overlays_clipped (JvmsTimeline               *self,
                       cairo_t                    *cr,
                       const JvmsTimelineGeometry *g)
{
  cairo_save (cr);
  cairo_rectangle (cr, g->gutter, g->top, g->width - g->gutter, g->height - g->top);
  cairo_clip (cr);
  draw_overlays (self, cr, g);
  cairo_restore (cr);
}

static void
jvms_timeline_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  JvmsTimeline *self = JVMS_TIMELINE (widget);
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  JvmsTimelineGeometry g;
  cairo_t *cr;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  if (width <= 0 || height <= 0)
    return;

  clamp_v_offset (self, height);
  priv->last_width = width;
  priv->last_height = height;
  fill_geometry (self, &g, width, height, priv->dark);
  narrow_to_screen (self, &g);
  if (!cache_matches (self, &g))
    compute (self, &g);

  if (priv->content == NULL || !priv->content_valid || priv->content_dark != priv->dark ||
      priv->content_width != width || priv->content_height != height)
    {
      g_clear_pointer (&priv->content, gsk_render_node_unref);
      priv->content = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
      cr = gsk_cairo_node_get_draw_context (priv->content);
      draw_all (self, cr, &g);
      cairo_destroy (cr);
      priv->content_valid = TRUE;
      priv->content_dark = priv->dark;
      priv->content_width = width;
      priv->content_height = height;
    }
  gtk_snapshot_append_node (snapshot, priv->content);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw_overlays_clipped (self, cr, &g);
  cairo_destroy (cr);
}

void
jvms_timeline_render (JvmsTimeline *self,
                      cairo_t      *cr,
                      int           width,
                      int           height,
                      gboolean      dark)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  JvmsTimelineGeometry g;

  g_return_if_fail (JVMS_IS_TIMELINE (self));
  g_return_if_fail (cr != NULL);

  if (width <= 0 || height <= 0)
    return;
  clamp_v_offset (self, height);
  priv->last_width = width;
  priv->last_height = height;
  fill_geometry (self, &g, width, height, dark);
  if (!cache_matches (self, &g))
    compute (self, &g);
  cairo_save (cr);
  draw_all (self, cr, &g);
  draw_overlays_clipped (self, cr, &g);
  cairo_restore (cr);
  /* The cache now fits the offscreen size; a widget on screen at another size recomputes for
   * its own on its next frame. One never allocated (export, bench) keeps it. */
  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0 &&
      (gtk_widget_get_width (GTK_WIDGET (self)) != width ||
       gtk_widget_get_height (GTK_WIDGET (self)) != height))
    priv->cache_valid = FALSE;
}

void
jvms_view_render (GtkWidget *view,
                  cairo_t   *cr,
                  int        width,
                  int        height)
{
  gboolean dark = jvms_palette_system_is_dark ();

  if (JVMS_IS_TIMELINE (view))
    jvms_timeline_render (JVMS_TIMELINE (view), cr, width, height, dark);
  else if (JVMS_IS_TIME_RULER (view))
    jvms_time_ruler_render (JVMS_TIME_RULER (view), cr, width, height, dark);
  else
    g_return_if_reached ();
}

char *
jvms_timeline_get_tooltip_text_at (JvmsTimeline *self,
                                   double        x,
                                   double        y)
{
  JvmsTimelineClass *klass;
  JvmsTimelineGeometry g;
  JvmsHistory *history;

  g_return_val_if_fail (JVMS_IS_TIMELINE (self), NULL);
  klass = JVMS_TIMELINE_GET_CLASS (self);
  history = get_history (self);
  jvms_timeline_get_geometry (self, &g);
  if (klass->tooltip == NULL || history == NULL || y < g.top)
    return NULL;
  return klass->tooltip (self, history, &g, x, y - g.top + g.v_offset,
                         x >= g.gutter ? jvms_timeline_x_to_time (&g, x) : G_MININT64);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip)
{
  g_autofree char *text = NULL;

  if (keyboard_mode)
    return FALSE;
  text = jvms_timeline_get_tooltip_text_at (JVMS_TIMELINE (widget), x, y);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Navigation ---------------------------------------------------------------------------------- */

static gint64
anchor_time (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
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
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
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
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

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
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
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
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

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
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
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
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
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
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
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
  if (klass->click != NULL && get_history (self) != NULL && y >= g.top)
    klass->click (self, get_history (self), &g, x, y - g.top + g.v_offset,
                  jvms_timeline_x_to_time (&g, MAX (x, g.gutter)), x < g.gutter);
}

static void
on_dark_changed (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  priv->dark = jvms_palette_system_is_dark ();
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_scrolled (JvmsTimeline *self)
{
  JvmsTimelineGeometry g;
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  /* Redraw only when rows outside the computed band came on screen. */
  jvms_timeline_get_geometry (self, &g);
  narrow_to_screen (self, &g);
  if (!priv->cache_valid || g.band_top != priv->cached_band_top ||
      g.band_bottom != priv->cached_band_bottom)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
jvms_timeline_root (GtkWidget *widget)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (JVMS_TIMELINE (widget));
  GtkWidget *scroller;

  GTK_WIDGET_CLASS (jvms_timeline_parent_class)->root (widget);
  scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  if (scroller != NULL)
    {
      priv->scroll_adjustment =
        g_object_ref (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)));
      priv->scrolled_id = g_signal_connect_object (priv->scroll_adjustment, "value-changed",
                                                   G_CALLBACK (on_scrolled), widget,
                                                   G_CONNECT_SWAPPED);
    }
}

static void
jvms_timeline_unroot (GtkWidget *widget)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (JVMS_TIMELINE (widget));

  if (priv->scroll_adjustment != NULL)
    {
      g_clear_signal_handler (&priv->scrolled_id, priv->scroll_adjustment);
      g_clear_object (&priv->scroll_adjustment);
    }
  GTK_WIDGET_CLASS (jvms_timeline_parent_class)->unroot (widget);
}

static void
jvms_timeline_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = JVMS_TIMELINE_GUTTER + 100;
      *natural = JVMS_TIMELINE_GUTTER + 800;
    }
  else
    {
      int content = content_height (JVMS_TIMELINE (widget));
      *minimum = JVMS_TIMELINE_LEGEND_HEIGHT + MIN (MAX (content, 24), 60);
      *natural = JVMS_TIMELINE_LEGEND_HEIGHT + MAX (content, 24);
    }
}

static void
jvms_timeline_constructed (GObject *object)
{
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (object);

  G_OBJECT_CLASS (jvms_timeline_parent_class)->constructed (object);
  if (klass->get_title != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (object),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    klass->get_title (JVMS_TIMELINE (object)),
                                    -1);
  update_accessible (JVMS_TIMELINE (object));
}

void
jvms_timeline_redraw (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  g_return_if_fail (JVMS_IS_TIMELINE (self));
  priv->content_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
jvms_timeline_dispose (GObject *object)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (JVMS_TIMELINE (object));

  g_clear_pointer (&priv->content, gsk_render_node_unref);
  jvms_timeline_set_session (JVMS_TIMELINE (object), NULL);
  G_OBJECT_CLASS (jvms_timeline_parent_class)->dispose (object);
}

static void
jvms_timeline_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, jvms_timeline_get_session (JVMS_TIMELINE (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_timeline_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      jvms_timeline_set_session (JVMS_TIMELINE (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_timeline_class_init (JvmsTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = jvms_timeline_constructed;
  object_class->dispose = jvms_timeline_dispose;
  object_class->get_property = jvms_timeline_get_property;
  object_class->set_property = jvms_timeline_set_property;
  widget_class->snapshot = jvms_timeline_snapshot;
  widget_class->measure = jvms_timeline_measure;
  widget_class->root = jvms_timeline_root;
  widget_class->unroot = jvms_timeline_unroot;
  widget_class->query_tooltip = on_query_tooltip;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, JVMS_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
jvms_timeline_init (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  GtkEventController *controller;
  GtkGesture *drag;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (on_key_pressed), self);
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

  if (gdk_display_get_default () != NULL)
    {
      priv->dark = jvms_palette_system_is_dark ();
      g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                               G_CALLBACK (on_dark_changed), self, G_CONNECT_SWAPPED);
    }
}

/* Text helpers -------------------------------------------------------------------------------- */

/* One layout for every label of every view: creating a layout and parsing a font per label
 * cost more than drawing the lanes. Labels are drawn from the main thread only. */
/* pango_cairo_update_context marks the context changed on every call (it sets the matrix
 * again), and every layout of it then shapes its text anew: it is called only when what it
 * takes from @cr (the linear part of the matrix, the font options) differs from last time. */
static void
update_label_context (cairo_t      *cr,
                      PangoContext *context)
{
  static gboolean known;
  static double last[4];
  static cairo_font_options_t *last_options;
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_font_options_t *own = cairo_font_options_create ();
  cairo_matrix_t m;
  double now[4];

  cairo_get_matrix (cr, &m);
  now[0] = m.xx;
  now[1] = m.yx;
  now[2] = m.xy;
  now[3] = m.yy;
  cairo_surface_get_font_options (cairo_get_target (cr), options);
  cairo_get_font_options (cr, own);
  cairo_font_options_merge (options, own);
  cairo_font_options_destroy (own);
  if (known && memcmp (now, last, sizeof now) == 0 && cairo_font_options_equal (options, last_options))
    {
      cairo_font_options_destroy (options);
      return;
    }
  pango_cairo_update_context (cr, context);
  memcpy (last, now, sizeof now);
  if (last_options != NULL)
    cairo_font_options_destroy (last_options);
  last_options = options;
  known = TRUE;
}

static PangoLayout *
label_layout (cairo_t  *cr,
              gboolean  bold)
{
  static PangoLayout *layout;
  static PangoFontDescription *regular, *heavy;

  if (layout == NULL)
    {
      PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
      layout = pango_layout_new (context);
      g_object_unref (context);
      regular = pango_font_description_from_string ("Sans 8");
      heavy = pango_font_description_from_string ("Sans Bold 8");
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_single_paragraph_mode (layout, TRUE);
    }
  update_label_context (cr, pango_layout_get_context (layout));
  pango_layout_set_font_description (layout, bold ? heavy : regular);
  return layout;
}

/* Shaped labels kept from frame to frame, by weight, width (negative: unbounded) and text: shaping every row's name
 * again on each frame was nine tenths of the threads view's drawing. They share the labels'
 * context, so a change of font options reaches them all; the cache is emptied when it passes
 * LABEL_CACHE_MAX (names come and go as one scrolls through thousands of threads). */
#define LABEL_CACHE_MAX 2048

static PangoLayout *
cached_label (cairo_t    *cr,
              gboolean    bold,
              int         max_width,
              const char *text,
              gsize       length)
{
  static GHashTable *cache;
  g_autofree char *key = g_strdup_printf ("%d %d %.*s", bold ? 1 : 0, max_width, (int) length, text);
  PangoLayout *shared = label_layout (cr, bold);
  PangoLayout *layout;

  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  layout = g_hash_table_lookup (cache, key);
  if (layout != NULL)
    return layout;
  if (g_hash_table_size (cache) >= LABEL_CACHE_MAX)
    g_hash_table_remove_all (cache);
  layout = pango_layout_new (pango_layout_get_context (shared));
  pango_layout_set_font_description (layout, pango_layout_get_font_description (shared));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  pango_layout_set_width (layout, max_width < 0 ? -1 : max_width * PANGO_SCALE);
  pango_layout_set_text (layout, text, (int) length);
  g_hash_table_insert (cache, g_steal_pointer (&key), layout);
  return layout;
}

void
jvms_timeline_draw_label (cairo_t         *cr,
                          const JvmsColor *color,
                          double           x,
                          double           y,
                          int              max_width,
                          const char      *text,
                          gboolean         bold)
{
  const char *end;

  if (text == NULL || max_width <= 0)
    return;
  /* Views format labels into fixed buffers, which may cut a long name inside a character:
   * draw the valid part. */
  g_utf8_validate (text, -1, &end);
  jvms_color_set (cr, color);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, cached_label (cr, bold, max_width, text, (gsize) (end - text)));
}

