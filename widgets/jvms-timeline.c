/* jvms-timeline.c: the base of the views: the session binding, the geometry, the cache
 * discipline and the drawing of what all views share. Input (navigation, selection) is in
 * jvms-timeline-input.c, the labels' shaping cache in jvms-timeline-labels.c. */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "jvms-timeline-private.h"



G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (JvmsTimeline, jvms_timeline, GTK_TYPE_WIDGET)

JvmsTimelinePrivate *
_jvms_timeline_get_private (JvmsTimeline *self)
{
  return jvms_timeline_get_instance_private (self);
}

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

/* The legend wraps onto as many lines as its entries need at the widget's width (a threads
 * legend of 17 entries did not fit in a window of 1600 pixels with its side panel): entries are
 * measured with a layout of their own, so that measuring at layout time and placing at draw
 * time agree, whatever the target's font options. */
static int
legend_text_width (const char *text)
{
  static PangoLayout *layout;
  static GHashTable *widths;
  gpointer known;
  int width;

  if (layout == NULL)
    {
      PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
      PangoFontDescription *font = pango_font_description_from_string ("Sans 8");
      layout = pango_layout_new (context);
      pango_layout_set_font_description (layout, font);
      pango_font_description_free (font);
      g_object_unref (context);
      widths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    }
  if (g_hash_table_lookup_extended (widths, text, NULL, &known))
    return GPOINTER_TO_INT (known);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &width, NULL);
  /* A pixel of slack for the hinting of the drawing's own font options. */
  width += 1;
  if (g_hash_table_size (widths) > 4096)
    g_hash_table_remove_all (widths);
  g_hash_table_insert (widths, g_strdup (text), GINT_TO_POINTER (width));
  return width;
}

/* Where each legend entry goes at @width: fills @x (per entry) and @line (per entry) when not
 * NULL; returns the number of lines (at least 1). */
static int
legend_place (GArray *entries,
              int     width,
              double *x,
              int    *line)
{
  int gutter = MIN (JVMS_TIMELINE_GUTTER, width / 3);
  double pos = gutter + 6;
  int lines = 1;

  for (guint i = 0; i < entries->len; i++)
    {
      const JvmsLegendEntry *e = &g_array_index (entries, JvmsLegendEntry, i);
      int text = legend_text_width (e->label);
      double needed = e->color.a == 0 ? text : 14 + text;

      if (pos + needed > width && pos > gutter + 6)
        {
          lines++;
          pos = gutter + 6;
        }
      if (x != NULL)
        x[i] = pos;
      if (line != NULL)
        line[i] = lines - 1;
      pos += e->color.a == 0 ? text + 6 : 14 + text + 12;
    }
  return lines;
}

static GArray *
legend_entries (JvmsTimeline      *self,
                const JvmsPalette *palette)
{
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (self);
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (JvmsLegendEntry));

  if (klass->legend != NULL)
    klass->legend (self, palette, entries);
  return entries;
}

guint
jvms_timeline_get_legend_cut (JvmsTimeline *self)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  g_return_val_if_fail (JVMS_IS_TIMELINE (self), 0);
  return priv->legend_cut;
}

int
jvms_timeline_get_legend_height (JvmsTimeline *self,
                                 int           width)
{
  g_autoptr(GArray) entries = NULL;

  g_return_val_if_fail (JVMS_IS_TIMELINE (self), JVMS_TIMELINE_LEGEND_HEIGHT);
  if (width <= 0)
    return JVMS_TIMELINE_LEGEND_HEIGHT;
  entries = legend_entries (self, jvms_palette_get (FALSE));
  return JVMS_TIMELINE_LEGEND_HEIGHT * legend_place (entries, width, NULL, NULL);
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
  g->top = MIN (jvms_timeline_get_legend_height (self, width), height / 2);
  g->t0 = 0;
  g->t1 = 1;
  if (priv->session != NULL)
    jvms_session_get_visible (priv->session, &g->t0, &g->t1);
  g->v_offset = priv->v_offset;
  g->band_top = g->v_offset;
  g->band_bottom = g->v_offset + (height - g->top);
  g->draw_top = 0;
  g->draw_bottom = height;
  g->offscreen = FALSE;
  g->palette = jvms_palette_get (dark);
}

/* Only the widget rows [@top, @bottom) are drawn: the rows of content under the legend that
 * show there, and the legend when it is among them. */
static void
set_drawn (JvmsTimelineGeometry *g,
           double                top,
           double                bottom)
{
  g->draw_top = CLAMP (top, 0, g->height);
  g->draw_bottom = CLAMP (bottom, g->draw_top, g->height);
  g->band_top = MAX (g->draw_top, g->top) - g->top + g->v_offset;
  g->band_bottom = MAX (g->draw_bottom, g->top) - g->top + g->v_offset;
}

/* Chunks the visible band is rounded to, so that scrolling a few pixels reuses the cache. */
#define BAND_CHUNK 512.0
/* The most pixel rows drawn into one image: GL renderers refuse textures past 16384, and an
 * image of all the rows of thousands of threads would be hundreds of megabytes. A frame draws
 * what shows (plus a chunk each side), an export or offscreen render pieces of this height. */
#define MAX_DRAWN 4096.0

/* A view inside a scrolled window is allocated its whole height, but only part of it shows:
 * compute and draw only the rows on screen (rounded out to chunks), so that the cost of a
 * frame and the size of its images follow the screen and not the number of rows. */
static void
narrow_to_screen (JvmsTimeline         *self,
                  JvmsTimelineGeometry *g)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;
  double visible_top = 0, visible_bottom = g->height, top, bottom, shift;

  if (scroller != NULL && gtk_widget_compute_bounds (GTK_WIDGET (self), scroller, &bounds))
    {
      visible_top = CLAMP (-bounds.origin.y, 0, g->height);
      visible_bottom = CLAMP (gtk_widget_get_height (scroller) - bounds.origin.y, visible_top,
                              g->height);
    }
  /* In content coordinates (below the legend, scrolled by v_offset), rounded out. */
  shift = g->top - g->v_offset;
  top = floor ((visible_top - shift) / BAND_CHUNK) * BAND_CHUNK - BAND_CHUNK;
  bottom = ceil ((visible_bottom - shift) / BAND_CHUNK) * BAND_CHUNK + BAND_CHUNK;
  if (bottom - top > MAX_DRAWN)
    {
      /* A window taller than the chunks allow: what shows, from its top. */
      top = visible_top - shift;
      bottom = top + MAX_DRAWN;
    }
  set_drawn (g, top + shift < g->top ? 0 : top + shift, bottom + shift);
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

JvmsHistory *
_jvms_timeline_get_history (JvmsTimeline *self)
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
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int legend = width > 0 ? jvms_timeline_get_legend_height (self, width) : JVMS_TIMELINE_LEGEND_HEIGHT;
  double max = MAX (0, content_height (self) - (height - legend));
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
    klass->reload (self, _jvms_timeline_get_history (self));
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
  /* How the quanta are coloured changes what a view asks of the index, and its legend. */
  if (g_str_has_prefix (pspec->name, "quantum-"))
    {
      priv->generation++;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
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
         priv->cached_band_top == g->band_top && priv->cached_band_bottom == g->band_bottom &&
         /* An export computes for itself: what a frame computed may be partial or approximate
          * (folded groups' summaries, the event lanes' shares of counts). */
         (!g->offscreen || priv->cached_offscreen);
}

static void
compute (JvmsTimeline               *self,
         const JvmsTimelineGeometry *g)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (self);

  if (klass->compute != NULL)
    klass->compute (self, _jvms_timeline_get_history (self), g);
  priv->cached_t0 = g->t0;
  priv->cached_t1 = g->t1;
  priv->cached_columns = g->n_columns;
  priv->cached_height = g->height;
  priv->cached_v_offset = g->v_offset;
  priv->cached_band_top = g->band_top;
  priv->cached_band_bottom = g->band_bottom;
  priv->cached_generation = priv->generation;
  priv->cached_offscreen = g->offscreen;
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

static void
draw_legend (JvmsTimeline               *self,
             cairo_t                    *cr,
             const JvmsTimelineGeometry *g)
{
  JvmsTimelineClass *klass = JVMS_TIMELINE_GET_CLASS (self);
  g_autoptr(GArray) entries = legend_entries (self, g->palette);
  g_autofree double *xs = g_new (double, MAX (entries->len, 1));
  g_autofree int *lines = g_new (int, MAX (entries->len, 1));
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);

  priv->legend_cut = 0;
  jvms_color_set (cr, &g->palette->gutter);
  cairo_rectangle (cr, 0, 0, g->width, g->top);
  cairo_fill (cr);
  if (klass->get_title != NULL)
    jvms_timeline_draw_label (cr, &g->palette->foreground, 6, 2, g->gutter - 10,
                              klass->get_title (self), TRUE);
  legend_place (entries, g->width, xs, lines);
  for (guint i = 0; i < entries->len; i++)
    {
      const JvmsLegendEntry *e = &g_array_index (entries, JvmsLegendEntry, i);
      /* Shaped once, unbounded: shaping per entry and frame cost more than the drawing. */
      PangoLayout *layout = _jvms_timeline_label_layout (cr, FALSE, -1, e->label, strlen (e->label));
      double x = xs[i], line_y = lines[i] * JVMS_TIMELINE_LEGEND_HEIGHT;
      int text_width, text_height;

      /* Only the lines the geometry made room for (a legend grown since is laid out anew on
       * the next size request). */
      if (line_y + JVMS_TIMELINE_LEGEND_HEIGHT > g->top)
        {
          priv->legend_cut = entries->len - i;
          break;
        }
      pango_layout_get_pixel_size (layout, &text_width, &text_height);
      /* An entry wider than the view on a line of its own is cut at its edge. */
      if (x + (e->color.a == 0 ? 0 : 14) + text_width > g->width)
        priv->legend_cut++;
      if (e->color.a == 0)
        {
          /* A heading inside the legend: no swatch. */
          jvms_color_set (cr, &g->palette->dim_text);
          cairo_move_to (cr, x, line_y + (JVMS_TIMELINE_LEGEND_HEIGHT - text_height) / 2.0);
          pango_cairo_show_layout (cr, layout);
          continue;
        }
      jvms_color_set (cr, &e->color);
      cairo_rectangle (cr, x, line_y + (JVMS_TIMELINE_LEGEND_HEIGHT - 10) / 2.0, 10, 10);
      cairo_fill (cr);
      jvms_color_set (cr, &g->palette->grid);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, x + 0.5, line_y + (JVMS_TIMELINE_LEGEND_HEIGHT - 10) / 2.0 + 0.5, 9, 9);
      cairo_stroke (cr);
      jvms_color_set (cr, &g->palette->foreground);
      cairo_move_to (cr, x + 14, line_y + (JVMS_TIMELINE_LEGEND_HEIGHT - text_height) / 2.0);
      pango_cairo_show_layout (cr, layout);
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

static GdkRGBA
rgba (const JvmsColor *c)
{
  return (GdkRGBA) { c->r, c->g, c->b, c->a };
}

/* Selection and hover as colour nodes over the part drawn: they change with every pointer
 * motion, and a cairo node would be an image as tall as the part. The same pixels as
 * draw_overlays. */
static void
snapshot_overlays (JvmsTimeline               *self,
                   GtkSnapshot                *snapshot,
                   const JvmsTimelineGeometry *g)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  float top = (float) MAX (g->draw_top, g->top), height = (float) g->draw_bottom - top;
  gint64 s, e, hover;
  GdkRGBA color;

  if (priv->session == NULL || height <= 0)
    return;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (g->gutter, top, g->width - g->gutter,
                                                         height));
  if (jvms_session_get_selection (priv->session, &s, &e))
    {
      double x0 = CLAMP (jvms_timeline_time_to_x (g, s), g->gutter, g->width);
      double x1 = CLAMP (jvms_timeline_time_to_x (g, e), g->gutter, g->width);
      if (x1 - x0 < 1)
        x1 = x0 + 1;
      color = rgba (&g->palette->selection);
      gtk_snapshot_append_color (snapshot, &color,
                                 &GRAPHENE_RECT_INIT (x0, top, x1 - x0, height));
      color = rgba (&g->palette->selection_edge);
      gtk_snapshot_append_color (snapshot, &color,
                                 &GRAPHENE_RECT_INIT (floor (x0), top, 1, height));
      gtk_snapshot_append_color (snapshot, &color,
                                 &GRAPHENE_RECT_INIT (floor (x1) - 1, top, 1, height));
    }
  hover = jvms_session_get_hovered_time (priv->session);
  if (hover != G_MININT64 && hover >= g->t0 && hover <= g->t1)
    {
      color = rgba (&g->palette->hover);
      gtk_snapshot_append_color (snapshot, &color,
                                 &GRAPHENE_RECT_INIT (floor (jvms_timeline_time_to_x (g, hover)),
                                                      top, 1, height));
    }
  gtk_snapshot_pop (snapshot);
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
  if (g.draw_bottom <= g.draw_top)
    return;
  if (!cache_matches (self, &g))
    {
      compute (self, &g);
      /* A legend that grew or shrank with what was computed (the groups of a range) asks for
       * its room; this frame draws the lines it has. */
      if (jvms_timeline_get_legend_height (self, width) != g.top && g.top < height / 2)
        gtk_widget_queue_resize (widget);
    }

  /* The content node covers the part drawn only: its image is bounded by the screen, never
   * by the number of rows. */
  if (priv->content == NULL || !priv->content_valid || priv->content_dark != priv->dark ||
      priv->content_width != width || priv->content_height != height ||
      priv->content_top != g.draw_top || priv->content_bottom != g.draw_bottom)
    {
      g_clear_pointer (&priv->content, gsk_render_node_unref);
      priv->content = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, g.draw_top, width,
                                                               g.draw_bottom - g.draw_top));
      cr = gsk_cairo_node_get_draw_context (priv->content);
      draw_all (self, cr, &g);
      cairo_destroy (cr);
      priv->content_valid = TRUE;
      priv->content_dark = priv->dark;
      priv->content_width = width;
      priv->content_height = height;
      priv->content_top = g.draw_top;
      priv->content_bottom = g.draw_bottom;
    }
  gtk_snapshot_append_node (snapshot, priv->content);
  snapshot_overlays (self, snapshot, &g);
  _jvms_timeline_snapshot_cursor (self, snapshot, &g);
}

/* One piece of a render: the widget rows [@y0, @y1), at most MAX_DRAWN of them. */
static void
render_piece (JvmsTimeline *self,
              cairo_t      *cr,
              int           width,
              int           height,
              int           y0,
              int           y1,
              gboolean      dark,
              gboolean      offscreen)
{
  JvmsTimelinePrivate *priv = jvms_timeline_get_instance_private (self);
  JvmsTimelineGeometry g;

  clamp_v_offset (self, height);
  priv->last_width = width;
  priv->last_height = height;
  fill_geometry (self, &g, width, height, dark);
  set_drawn (&g, y0, y1);
  g.offscreen = offscreen;
  if (g.draw_bottom <= g.draw_top)
    return;
  if (!cache_matches (self, &g))
    compute (self, &g);
  cairo_save (cr);
  cairo_translate (cr, 0, -y0);
  cairo_rectangle (cr, 0, g.draw_top, width, g.draw_bottom - g.draw_top);
  cairo_clip (cr);
  draw_all (self, cr, &g);
  draw_overlays_clipped (self, cr, &g);
  cairo_restore (cr);
}

static void
render_part (JvmsTimeline *self,
             cairo_t      *cr,
             int           width,
             int           height,
             int           y0,
             int           y1,
             gboolean      dark,
             gboolean      offscreen)
{
  if (width <= 0 || height <= 0)
    return;
  /* In pieces: each queries and draws its own rows, so that the cells of all the rows of
   * thousands of threads are never held at once. */
  cairo_save (cr);
  for (int y = MAX (y0, 0); y < MIN (y1, height); y += (int) MAX_DRAWN)
    {
      int end = MIN (MIN (y1, height), y + (int) MAX_DRAWN);
      render_piece (self, cr, width, height, y, end, dark, offscreen);
      cairo_translate (cr, 0, end - y);
    }
  cairo_restore (cr);
}

void
jvms_timeline_render_part (JvmsTimeline *self,
                           cairo_t      *cr,
                           int           width,
                           int           height,
                           int           y0,
                           int           y1,
                           gboolean      dark)
{
  g_return_if_fail (JVMS_IS_TIMELINE (self));
  g_return_if_fail (cr != NULL);
  render_part (self, cr, width, height, y0, y1, dark, TRUE);
}

void
jvms_timeline_render (JvmsTimeline *self,
                      cairo_t      *cr,
                      int           width,
                      int           height,
                      gboolean      dark)
{
  jvms_timeline_render_part (self, cr, width, height, 0, height, dark);
}

void
jvms_timeline_render_frame (JvmsTimeline *self,
                            cairo_t      *cr,
                            int           width,
                            int           height,
                            gboolean      dark)
{
  g_return_if_fail (JVMS_IS_TIMELINE (self));
  g_return_if_fail (cr != NULL);
  render_part (self, cr, width, height, 0, height, dark, FALSE);
}

guint
jvms_timeline_get_n_rows (JvmsTimeline *self)
{
  JvmsTimelineClass *klass;

  g_return_val_if_fail (JVMS_IS_TIMELINE (self), 0);
  klass = JVMS_TIMELINE_GET_CLASS (self);
  if (klass->get_n_rows != NULL)
    return klass->get_n_rows (self);
  if (klass->uniform_row_height > 0)
    return (guint) (content_height (self) / klass->uniform_row_height);
  return 0;
}

gboolean
jvms_timeline_get_row_bounds (JvmsTimeline *self,
                              guint         row,
                              int          *y,
                              int          *height)
{
  JvmsTimelineClass *klass;

  g_return_val_if_fail (JVMS_IS_TIMELINE (self), FALSE);
  klass = JVMS_TIMELINE_GET_CLASS (self);
  if (row >= jvms_timeline_get_n_rows (self))
    return FALSE;
  if (klass->get_row_bounds != NULL)
    klass->get_row_bounds (self, row, y, height);
  else
    {
      *y = (int) row * klass->uniform_row_height;
      *height = klass->uniform_row_height;
    }
  return TRUE;
}

void
jvms_timeline_render_rows (JvmsTimeline *self,
                           cairo_t      *cr,
                           int           width,
                           guint         first,
                           guint         end,
                           gboolean      dark)
{
  int y0, y1, h, legend;

  g_return_if_fail (JVMS_IS_TIMELINE (self));
  g_return_if_fail (cr != NULL);

  end = MIN (end, jvms_timeline_get_n_rows (self));
  legend = jvms_timeline_get_legend_height (self, width);
  if (first >= end || !jvms_timeline_get_row_bounds (self, first, &y0, &h) ||
      !jvms_timeline_get_row_bounds (self, end - 1, &y1, &h))
    return;
  /* Laid out as on screen, every row below the legend (which a height this large unscrolls). */
  jvms_timeline_render_part (self, cr, width, legend + content_height (self), legend + y0,
                             legend + y1 + h, dark);
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
  history = _jvms_timeline_get_history (self);
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
  /* The viewport moves this widget at its next layout, which does not draw it again: the
   * frame after must, to find out whether other rows came on screen (snapshot() then computes
   * them) or to put the kept content where it now shows (no query, no drawing). */
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
      int legend = jvms_timeline_get_legend_height (JVMS_TIMELINE (widget), for_size);
      *minimum = legend + MIN (MAX (content, 24), 60);
      *natural = legend + MAX (content, 24);
    }
}

static GtkSizeRequestMode
jvms_timeline_get_request_mode (GtkWidget *widget)
{
  /* The legend wraps: the narrower, the taller. */
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
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
  widget_class->get_request_mode = jvms_timeline_get_request_mode;
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

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  priv->cursor_row = G_MAXUINT;

  _jvms_timeline_add_input (self);

  if (gdk_display_get_default () != NULL)
    {
      priv->dark = jvms_palette_system_is_dark ();
      g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                               G_CALLBACK (on_dark_changed), self, G_CONNECT_SWAPPED);
    }
}
