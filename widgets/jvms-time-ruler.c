/* jvms-time-ruler.c */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <math.h>

#include "jvms-palette.h"
#include "jvms-time-ruler.h"
#include "jvms-timeline.h"

#define RULER_HEIGHT 30
#define MIN_TICK_SPACING 90

struct _JvmsTimeRuler
{
  GtkWidget    parent_instance;
  JvmsSession *session;
  gulong       notify_id;
  gboolean     dark;
};

G_DEFINE_FINAL_TYPE (JvmsTimeRuler, jvms_time_ruler, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

gint64
jvms_time_ruler_tick_step (gint64 span,
                           int    pixels,
                           int    min_spacing)
{
  static const int mult[] = { 1, 2, 5 };
  double wanted = (double) MAX (span, 1) * MAX (min_spacing, 1) / MAX (pixels, 1);

  for (gint64 p = 1; p <= G_MAXINT64 / 10; p *= 10)
    for (guint i = 0; i < G_N_ELEMENTS (mult); i++)
      if ((double) (p * mult[i]) >= wanted)
        return p * mult[i];
  return G_MAXINT64 / 10;
}

/* Every tick of one ruler in the same unit: AUTO is resolved by the step, not by each tick. */
char *
jvms_time_ruler_tick_label (gint64 relative,
                            gint64 step)
{
  return jvms_time_format_instant (relative, 0, jvms_time_unit_resolve (JVMS_TIME_UNIT_AUTO, step, step),
                                   JVMS_TIME_ORIGIN_TRACE_START, step, FALSE);
}

char *
jvms_time_ruler_format_tick (JvmsTimeRuler *self,
                             gint64         time,
                             gint64         step)
{
  JvmsTimeUnit unit = JVMS_TIME_UNIT_AUTO;
  JvmsTimeOrigin origin = JVMS_TIME_ORIGIN_TRACE_START;
  gint64 start = 0;

  g_return_val_if_fail (JVMS_IS_TIME_RULER (self), NULL);
  if (self->session != NULL)
    {
      unit = jvms_session_get_time_unit (self->session);
      origin = jvms_session_get_time_origin (self->session);
      start = jvms_session_get_start_time (self->session);
    }
  return jvms_time_format_instant (time, start, jvms_time_unit_resolve (unit, step, step), origin,
                                   step, FALSE);
}

void
jvms_time_ruler_render (JvmsTimeRuler *self,
                        cairo_t       *cr,
                        int            width,
                        int            height,
                        gboolean       dark)
{
  const JvmsPalette *palette = jvms_palette_get (dark);
  JvmsTimelineGeometry g = { 0 };
  gint64 origin, step, first, s, e;
  gboolean wall = self->session != NULL
    && jvms_session_get_time_origin (self->session) == JVMS_TIME_ORIGIN_WALL_CLOCK;
  /* A time of day ("14:03:22.125") is wider than "2.5 s". */
  int spacing = wall ? MIN_TICK_SPACING + 40 : MIN_TICK_SPACING;

  g_return_if_fail (JVMS_IS_TIME_RULER (self));

  g.width = width;
  g.height = height;
  g.gutter = MIN (JVMS_TIMELINE_GUTTER, width / 3);
  g.n_columns = MAX (width - g.gutter, 1);
  g.palette = palette;
  g.t0 = 0;
  g.t1 = 1;
  origin = 0;
  if (self->session != NULL)
    {
      jvms_session_get_visible (self->session, &g.t0, &g.t1);
      origin = wall ? 0 : jvms_session_get_start_time (self->session);
    }

  cairo_save (cr);
  jvms_color_set (cr, &palette->background);
  cairo_paint (cr);
  jvms_color_set (cr, &palette->gutter);
  cairo_rectangle (cr, 0, 0, g.gutter, height);
  cairo_fill (cr);

  /* Selection band, and its duration in the gutter. */
  if (self->session != NULL && jvms_session_get_selection (self->session, &s, &e))
    {
      double x0 = CLAMP (jvms_timeline_time_to_x (&g, s), g.gutter, width);
      double x1 = CLAMP (jvms_timeline_time_to_x (&g, e), g.gutter, width);
      g_autofree char *duration = jvms_session_format_duration (self->session, e - s);
      g_autofree char *text = g_strdup_printf (_("Selection: %s"), duration);

      jvms_color_set (cr, &palette->selection);
      cairo_rectangle (cr, x0, 0, MAX (x1 - x0, 1), height);
      cairo_fill (cr);
      jvms_timeline_draw_label (cr, &palette->foreground, 6, height / 2.0 - 7, g.gutter - 10,
                                text, TRUE);
    }
  else
    {
      g_autofree char *duration = jvms_session_format_duration (self->session, g.t1 - g.t0);
      g_autofree char *text = g_strdup_printf (_("Visible: %s"), duration);
      jvms_timeline_draw_label (cr, &palette->dim_text, 6, height / 2.0 - 7, g.gutter - 10,
                                text, FALSE);
    }

  step = jvms_time_ruler_tick_step (g.t1 - g.t0, g.n_columns, spacing);
  /* Ticks at multiples of the step relative to the trace start (or to the epoch for times of
   * day), so labels are round. */
  first = g.t0 - origin;
  first = (first >= 0 ? first / step : (first - step + 1) / step) * step;
  cairo_set_line_width (cr, 1);
  for (gint64 rel = first; origin + rel <= g.t1; rel += step)
    {
      double x = floor (jvms_timeline_time_to_x (&g, origin + rel)) + 0.5;
      g_autofree char *label = NULL;

      if (x < g.gutter)
        continue;
      jvms_color_set (cr, &palette->dim_text);
      cairo_move_to (cr, x, height - 8);
      cairo_line_to (cr, x, height);
      cairo_stroke (cr);
      /* Minor ticks: five per step. */
      for (int k = 1; k < 5; k++)
        {
          double mx = floor (jvms_timeline_time_to_x (&g, origin + rel + step * k / 5)) + 0.5;
          if (mx > width)
            break;
          cairo_move_to (cr, mx, height - 3);
          cairo_line_to (cr, mx, height);
        }
      cairo_stroke (cr);
      label = jvms_time_ruler_format_tick (self, origin + rel, step);
      jvms_timeline_draw_label (cr, &palette->foreground, x + 3, 3, spacing - 6,
                                label, FALSE);
    }

  jvms_color_set (cr, &palette->grid);
  cairo_move_to (cr, 0, height - 0.5);
  cairo_line_to (cr, width, height - 0.5);
  cairo_move_to (cr, g.gutter - 0.5, 0);
  cairo_line_to (cr, g.gutter - 0.5, height);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
jvms_time_ruler_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  JvmsTimeRuler *self = JVMS_TIME_RULER (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  jvms_time_ruler_render (self, cr, width, height, self->dark);
  cairo_destroy (cr);
}

static void
jvms_time_ruler_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = JVMS_TIMELINE_GUTTER + 100;
  else
    *minimum = *natural = RULER_HEIGHT;
}

static void
on_session_notify (JvmsTimeRuler *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

JvmsSession *
jvms_time_ruler_get_session (JvmsTimeRuler *self)
{
  g_return_val_if_fail (JVMS_IS_TIME_RULER (self), NULL);
  return self->session;
}

void
jvms_time_ruler_set_session (JvmsTimeRuler *self,
                             JvmsSession   *session)
{
  g_return_if_fail (JVMS_IS_TIME_RULER (self));
  if (self->session == session)
    return;
  if (self->session != NULL)
    {
      g_clear_signal_handler (&self->notify_id, self->session);
      g_clear_object (&self->session);
    }
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      self->notify_id = g_signal_connect_object (session, "notify",
                                                 G_CALLBACK (on_session_notify), self,
                                                 G_CONNECT_SWAPPED);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

static void
on_dark_changed (JvmsTimeRuler *self)
{
  self->dark = jvms_palette_system_is_dark ();
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
jvms_time_ruler_dispose (GObject *object)
{
  jvms_time_ruler_set_session (JVMS_TIME_RULER (object), NULL);
  G_OBJECT_CLASS (jvms_time_ruler_parent_class)->dispose (object);
}

static void
jvms_time_ruler_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, JVMS_TIME_RULER (object)->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_time_ruler_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      jvms_time_ruler_set_session (JVMS_TIME_RULER (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_time_ruler_class_init (JvmsTimeRulerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jvms_time_ruler_dispose;
  object_class->get_property = jvms_time_ruler_get_property;
  object_class->set_property = jvms_time_ruler_set_property;
  widget_class->snapshot = jvms_time_ruler_snapshot;
  widget_class->measure = jvms_time_ruler_measure;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, JVMS_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
jvms_time_ruler_init (JvmsTimeRuler *self)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Time axis"),
                                  -1);
  if (gdk_display_get_default () != NULL)
    {
      self->dark = jvms_palette_system_is_dark ();
      g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                               G_CALLBACK (on_dark_changed), self, G_CONNECT_SWAPPED);
    }
}

GtkWidget *
jvms_time_ruler_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_TIME_RULER, "session", session, NULL);
}
