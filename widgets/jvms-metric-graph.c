/* jvms-metric-graph.c: a metric over time, one segment per record (see the header). */
#include "config.h"

#include "jvms-metric-graph.h"

#include <math.h>

#define MARGIN_LEFT 84   /* as the scatter plot's: the value axis' numbers */
#define MARGIN_V    6

typedef struct
{
  gint64  start, duration, tid;
  double  value;
  guint64 key;
} Segment;

enum
{
  SIGNAL_RECORD_CLICKED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

struct _JvmsMetricGraph
{
  GtkWidget        parent_instance;

  JvmsSession     *session;
  GArray          *segments;      /* Segment, those with a value */
  double           lo, hi;
  char            *label;
  GtkBitset       *selected;      /* keys; NULL: none */
  GArray          *marks;         /* gint64 pairs: start, duration (-1: an instant) */

  /* The picture and what it was drawn for. */
  cairo_surface_t *image;
  int              image_w, image_h;
  gint64           image_from, image_to;
  gsize            n_drawn, n_selected_drawn, n_marks_drawn;
};

G_DEFINE_FINAL_TYPE (JvmsMetricGraph, jvms_metric_graph, GTK_TYPE_WIDGET)

static void
thread_colour (gint64 tid, double rgb[3])
{
  /* Golden-ratio hues: neighbouring thread ids get distant colours. */
  double hue = fmod ((double) (tid < 0 ? -tid : tid) * 0.618033988749895, 1.0);
  float r, g, b;
  gtk_hsv_to_rgb ((float) hue, 0.75f, 0.8f, &r, &g, &b);
  rgb[0] = r, rgb[1] = g, rgb[2] = b;
}

/* Where a value is drawn: the top of its 3 px bar, from the plot's top. */
static double
value_y (JvmsMetricGraph *self, double value, int height)
{
  double vspan = self->hi > self->lo ? self->hi - self->lo : 1.0;
  double f = (value - self->lo) / vspan;
  return (height - 3) * (1.0 - CLAMP (f, 0.0, 1.0));
}

static void
draw_picture (JvmsMetricGraph *self, int width, int height, gint64 from, gint64 to)
{
  g_clear_pointer (&self->image, cairo_surface_destroy);
  self->image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  self->image_w = width;
  self->image_h = height;
  self->image_from = from;
  self->image_to = to;
  self->n_drawn = self->n_selected_drawn = self->n_marks_drawn = 0;
  cairo_t *cr = cairo_create (self->image);
  double span = (double) MAX (to - from, 1);
  /* Markers first, under the records: a faint band or line down the whole height, a tick at
   * the top. */
  for (guint i = 0; i + 1 < self->marks->len; i += 2)
    {
      gint64 start = g_array_index (self->marks, gint64, i), d = g_array_index (self->marks, gint64, i + 1);
      if (start >= to || start + MAX (d, 0) < from)
        continue;
      double x0 = floor ((start - from) / span * width);
      double x1 = d > 0 ? (start + d - from) / span * width : x0 + 1;
      cairo_set_source_rgba (cr, 0.9, 0.45, 0.0, 0.18);
      cairo_rectangle (cr, x0, 0, MAX (x1 - x0, 1.0), height);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 0.9, 0.45, 0.0);
      cairo_move_to (cr, x0 - 3.5, 0);
      cairo_line_to (cr, x0 + 4.5, 0);
      cairo_line_to (cr, x0 + 0.5, 6);
      cairo_close_path (cr);
      cairo_fill (cr);
      self->n_marks_drawn++;
    }
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < self->segments->len; i++)
      {
        const Segment *s = &g_array_index (self->segments, Segment, i);
        if (s->start >= to || s->start + s->duration < from)
          continue;
        gboolean selected = self->selected != NULL && s->key <= G_MAXUINT && gtk_bitset_contains (self->selected, (guint) s->key);
        if (pass == 1 && !selected)
          continue;
        double x0 = (s->start - from) / span * width;
        double x1 = (s->start + s->duration - from) / span * width;
        double y = value_y (self, s->value, height);
        /* At least a pixel wide and three high: a short record stays visible. */
        x0 = MAX (x0, 0);
        x1 = MIN (x1, width);
        double w = MAX (x1 - floor (x0), 1.0);
        if (pass == 0)
          {
            double rgb[3];
            thread_colour (s->tid, rgb);
            cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
            cairo_rectangle (cr, floor (x0), floor (y), w, 3);
            cairo_fill (cr);
            self->n_drawn++;
          }
        else
          {
            /* A selected record on top of the others, outlined in black and white. */
            cairo_set_source_rgb (cr, 0, 0, 0);
            cairo_rectangle (cr, floor (x0) - 2, floor (y) - 2, w + 4, 7);
            cairo_fill (cr);
            cairo_set_source_rgb (cr, 1, 1, 1);
            cairo_rectangle (cr, floor (x0) - 1, floor (y) - 1, w + 2, 5);
            cairo_fill (cr);
            self->n_selected_drawn++;
          }
      }
  cairo_destroy (cr);
}

static void
draw_text (cairo_t *cr, GtkWidget *widget, const char *text, double x, double y, double xalign)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int w, h;
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - w * xalign, y);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
jvms_metric_graph_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  JvmsMetricGraph *self = JVMS_METRIC_GRAPH (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  int pw = MAX (w - MARGIN_LEFT, 1), ph = MAX (h - 2 * MARGIN_V, 1);
  if (self->session == NULL || jvms_session_get_history (self->session) == NULL)
    return;
  gint64 from, to;
  jvms_session_get_visible (self->session, &from, &to);
  if (self->image == NULL || self->image_w != pw || self->image_h != ph || self->image_from != from
      || self->image_to != to)
    draw_picture (self, pw, ph, from, to);
  GdkRGBA fg;
  /* GTK 4.8 has no gtk_widget_get_color (). */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_set_source_surface (cr, self->image, MARGIN_LEFT, MARGIN_V);
  cairo_paint (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
  if (self->segments->len > 0)
    {
      g_autofree char *hi = g_strdup_printf ("%.4g", self->hi);
      g_autofree char *lo = g_strdup_printf ("%.4g", self->lo);
      draw_text (cr, widget, hi, MARGIN_LEFT - 4, MARGIN_V, 1.0);
      draw_text (cr, widget, lo, MARGIN_LEFT - 4, h - MARGIN_V - 16, 1.0);
    }
  if (self->label != NULL)
    draw_text (cr, widget, self->label, MARGIN_LEFT - 4, h / 2.0 - 8, 1.0);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.3);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, MARGIN_LEFT - 0.5, MARGIN_V);
  cairo_line_to (cr, MARGIN_LEFT - 0.5, h - MARGIN_V);
  cairo_stroke (cr);
  cairo_destroy (cr);
}

GtkWidget *
jvms_metric_graph_new (void)
{
  return g_object_new (JVMS_TYPE_METRIC_GRAPH, NULL);
}

void
jvms_metric_graph_set_session (JvmsMetricGraph *self, JvmsSession *session)
{
  g_return_if_fail (JVMS_IS_METRIC_GRAPH (self));
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    {
      g_signal_connect_object (session, "notify::visible-start", G_CALLBACK (gtk_widget_queue_draw), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::visible-end", G_CALLBACK (gtk_widget_queue_draw), self,
                               G_CONNECT_SWAPPED);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
jvms_metric_graph_set_records (JvmsMetricGraph *self, const gint64 *start, const gint64 *duration,
                               const double *value, const gint64 *tid, const guint64 *key, gsize n,
                               const char *label)
{
  g_return_if_fail (JVMS_IS_METRIC_GRAPH (self));
  g_array_set_size (self->segments, 0);
  for (gsize i = 0; i < n; i++)
    {
      if (!isfinite (value[i]) || start[i] == G_MININT64)
        continue;
      Segment s = { start[i], MAX (duration[i], 0), tid[i], value[i], key[i] };
      if (self->segments->len == 0)
        self->lo = self->hi = s.value;
      self->lo = MIN (self->lo, s.value);
      self->hi = MAX (self->hi, s.value);
      g_array_append_val (self->segments, s);
    }
  g_free (self->label);
  self->label = g_strdup (label);
  g_clear_pointer (&self->image, cairo_surface_destroy);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
jvms_metric_graph_set_selected (JvmsMetricGraph *self, GtkBitset *keys)
{
  g_return_if_fail (JVMS_IS_METRIC_GRAPH (self));
  g_clear_pointer (&self->selected, gtk_bitset_unref);
  self->selected = keys != NULL ? gtk_bitset_ref (keys) : NULL;
  g_clear_pointer (&self->image, cairo_surface_destroy);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
jvms_metric_graph_set_marks (JvmsMetricGraph *self, const gint64 *pairs, gsize n)
{
  g_return_if_fail (JVMS_IS_METRIC_GRAPH (self));
  g_array_set_size (self->marks, 0);
  if (n > 0)
    g_array_append_vals (self->marks, pairs, (guint) (2 * n));
  g_clear_pointer (&self->image, cairo_surface_destroy);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
jvms_metric_graph_get_area (JvmsMetricGraph *self, int area[4], double *lo, double *hi)
{
  g_return_if_fail (JVMS_IS_METRIC_GRAPH (self));
  GtkWidget *widget = GTK_WIDGET (self);
  area[0] = MARGIN_LEFT;
  area[1] = MARGIN_V;
  area[2] = MAX (gtk_widget_get_width (widget) - MARGIN_LEFT, 1);
  area[3] = MAX (gtk_widget_get_height (widget) - 2 * MARGIN_V, 1);
  *lo = self->lo;
  *hi = self->hi;
}

gsize
jvms_metric_graph_get_n_selected_drawn (JvmsMetricGraph *self)
{
  g_return_val_if_fail (JVMS_IS_METRIC_GRAPH (self), 0);
  return self->image != NULL ? self->n_selected_drawn : 0;
}

gsize
jvms_metric_graph_get_n_marks_drawn (JvmsMetricGraph *self)
{
  g_return_val_if_fail (JVMS_IS_METRIC_GRAPH (self), 0);
  return self->image != NULL ? self->n_marks_drawn : 0;
}

/* The record under a click: of those whose span covers the pointer's time (give or take a pixel),
 * the one drawn nearest its height, within 6 px. */
static void
clicked (GtkGestureClick *gesture, int n_press, double x, double y, JvmsMetricGraph *self)
{
  if (self->session == NULL || self->segments->len == 0)
    return;
  GtkWidget *widget = GTK_WIDGET (self);
  int pw = MAX (gtk_widget_get_width (widget) - MARGIN_LEFT, 1), ph = MAX (gtk_widget_get_height (widget) - 2 * MARGIN_V, 1);
  gint64 from, to;
  jvms_session_get_visible (self->session, &from, &to);
  double span = (double) MAX (to - from, 1), px = x - MARGIN_LEFT, py = y - MARGIN_V;
  const Segment *best = NULL;
  double best_d = 6.0;
  for (guint i = 0; i < self->segments->len; i++)
    {
      const Segment *s = &g_array_index (self->segments, Segment, i);
      double x0 = (s->start - from) / span * pw, x1 = (s->start + s->duration - from) / span * pw;
      if (px < floor (x0) - 1 || px > MAX (x1, floor (x0) + 1) + 1)
        continue;
      double d = fabs (py - (value_y (self, s->value, ph) + 1.5));
      if (d <= best_d)
        {
          best = s;
          best_d = d;
        }
    }
  if (best != NULL)
    g_signal_emit (self, signals[SIGNAL_RECORD_CLICKED], 0, best->key);
}

gsize
jvms_metric_graph_get_n_drawn (JvmsMetricGraph *self)
{
  g_return_val_if_fail (JVMS_IS_METRIC_GRAPH (self), 0);
  return self->image != NULL ? self->n_drawn : 0;
}

static void
jvms_metric_graph_dispose (GObject *object)
{
  JvmsMetricGraph *self = JVMS_METRIC_GRAPH (object);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (jvms_metric_graph_parent_class)->dispose (object);
}

static void
jvms_metric_graph_finalize (GObject *object)
{
  JvmsMetricGraph *self = JVMS_METRIC_GRAPH (object);
  g_array_unref (self->segments);
  g_array_unref (self->marks);
  g_clear_pointer (&self->selected, gtk_bitset_unref);
  g_free (self->label);
  g_clear_pointer (&self->image, cairo_surface_destroy);
  G_OBJECT_CLASS (jvms_metric_graph_parent_class)->finalize (object);
}

static void
jvms_metric_graph_class_init (JvmsMetricGraphClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = jvms_metric_graph_dispose;
  G_OBJECT_CLASS (klass)->finalize = jvms_metric_graph_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = jvms_metric_graph_snapshot;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "metricgraph");
  signals[SIGNAL_RECORD_CLICKED] =
    g_signal_new ("record-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT64);
}

static void
jvms_metric_graph_init (JvmsMetricGraph *self)
{
  self->segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  self->marks = g_array_new (FALSE, FALSE, sizeof (gint64));
  GtkGesture *click = gtk_gesture_click_new ();
  g_signal_connect (click, "released", G_CALLBACK (clicked), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_size_request (GTK_WIDGET (self), 100, 80);
}
