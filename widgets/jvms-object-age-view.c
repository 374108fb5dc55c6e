/* jvms-object-age-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "jvms-object-age-view.h"

#define CHART_H JVMS_OBJECT_AGE_VIEW_CHART_HEIGHT
/* Width of the buckets the mean line is computed over. */
#define MEAN_BUCKET_PX 8
/* Dot radii, in steps of a quarter pixel: 2 + sqrt (count), at most 9. */
#define DISC_MIN 2.0
#define DISC_STEP 0.25
#define N_DISC_STEPS 29
#define MAX_LEGEND_GROUPS 6

typedef struct
{
  gint64  time;
  double  age_ns;
  gint64  bytes_since;
  const char *class_name; /* interned: few distinct classes and sites */
  const char *site;
  guint   count;
} Sample;

typedef struct
{
  double      x;
  double      y;
  double      radius;
  const char *group;
  guint       count;
  guint       sample;   /* one of the samples merged (for the tooltip) */
} Dot;

struct _JvmsObjectAgeView
{
  JvmsTimeline      parent_instance;
  GArray           *samples;   /* Sample, sorted by time */
  JvmsObjectAgeUnit unit;
  gboolean          by_site;

  /* Cache for the visible window. */
  GArray           *dots;      /* Dot */
  GArray           *mean;      /* double per bucket, NaN when empty */
  double            age_min;
  double            age_max;
  GPtrArray        *top_groups; /* borrowed strings, most samples first */

  /* Discs drawn once per radius step and device scale, stamped as masks: tracing thousands of
   * arcs per frame was three quarters of the view's drawing at full zoom-out. */
  cairo_surface_t  *discs[N_DISC_STEPS];
  double            discs_scale;
};

G_DEFINE_FINAL_TYPE (JvmsObjectAgeView, jvms_object_age_view, JVMS_TYPE_TIMELINE)

G_DEFINE_ENUM_TYPE (JvmsObjectAgeUnit, jvms_object_age_unit,
                    G_DEFINE_ENUM_VALUE (JVMS_OBJECT_AGE_TIME, "time"),
                    G_DEFINE_ENUM_VALUE (JVMS_OBJECT_AGE_BYTES, "bytes"))

static void
clear_discs (JvmsObjectAgeView *self)
{
  for (guint i = 0; i < N_DISC_STEPS; i++)
    g_clear_pointer (&self->discs[i], cairo_surface_destroy);
}

/* The disc mask of @radius (rounded to a DISC_STEP), in a square of side 2 * radius + 2 user
 * units at the target's device scale. */
static cairo_surface_t *
disc_mask (JvmsObjectAgeView *self,
           cairo_t           *cr,
           double             radius,
           double            *out_radius)
{
  double sx = 1, sy = 1;
  guint step;
  cairo_surface_t *disc;

  cairo_surface_get_device_scale (cairo_get_target (cr), &sx, &sy);
  if (sx != self->discs_scale)
    {
      clear_discs (self);
      self->discs_scale = sx;
    }
  step = (guint) CLAMP (round ((radius - DISC_MIN) / DISC_STEP), 0, N_DISC_STEPS - 1);
  *out_radius = DISC_MIN + step * DISC_STEP;
  disc = self->discs[step];
  if (disc == NULL)
    {
      int side = (int) ceil ((2 * *out_radius + 2) * sx);
      cairo_t *dc;

      disc = cairo_image_surface_create (CAIRO_FORMAT_A8, side, side);
      cairo_surface_set_device_scale (disc, sx, sx);
      dc = cairo_create (disc);
      cairo_arc (dc, *out_radius + 1, *out_radius + 1, *out_radius, 0, 2 * G_PI);
      cairo_fill (dc);
      cairo_destroy (dc);
      self->discs[step] = disc;
    }
  return disc;
}

enum
{
  PROP_0,
  PROP_AGE_UNIT,
  PROP_BY_SITE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  const Sample *x = a, *y = b;
  return x->time < y->time ? -1 : x->time > y->time;
}

static double
age_of (JvmsObjectAgeView *self,
        const Sample      *s)
{
  if (self->unit == JVMS_OBJECT_AGE_BYTES)
    return s->bytes_since >= 0 ? (double) s->bytes_since : -1;
  return s->age_ns;
}

static const char *
group_of (JvmsObjectAgeView *self,
          const Sample      *s)
{
  if (self->by_site && s->site != NULL)
    return s->site;
  return s->class_name != NULL ? s->class_name : "?";
}

static int
jvms_object_age_view_get_content_height (JvmsTimeline *timeline)
{
  return CHART_H;
}

static double
age_to_y (JvmsObjectAgeView *self,
          double             age,
          double             top)
{
  /* Log scale: ages span from microseconds to the whole run. */
  double lo = log10 (MAX (self->age_min, 1)), hi = log10 (MAX (self->age_max, 1));
  double f = hi > lo ? (log10 (MAX (age, 1)) - lo) / (hi - lo) : 0.5;
  return top + 6 + (1 - f) * (CHART_H - 12);
}

static int
compare_group (gconstpointer a,
               gconstpointer b)
{
  const Dot *x = a, *y = b;
  return x->group < y->group ? -1 : x->group > y->group;
}

static void
jvms_object_age_view_compute (JvmsTimeline               *timeline,
                              JvmsHistory                *history,
                              const JvmsTimelineGeometry *g)
{
  JvmsObjectAgeView *self = JVMS_OBJECT_AGE_VIEW (timeline);
  /* Group names are interned (set_samples): pointers compare and hash. */
  g_autoptr(GHashTable) totals = g_hash_table_new (g_direct_hash, g_direct_equal);
  /* One slot per 6x6 pixel cell of the chart: index of its dot + 1, 0 for none. */
  guint grid_w = (guint) (g->n_columns / 6) + 2, grid_h = CHART_H / 6 + 2;
  g_autofree guint *grid = g_new0 (guint, (gsize) grid_w * grid_h);
  g_autofree double *sum = NULL;
  g_autofree double *weight = NULL;
  g_autoptr(GList) groups = NULL;
  guint n_buckets = (guint) (g->n_columns / MEAN_BUCKET_PX) + 1;
  guint lo = 0, hi = self->samples->len;

  g_array_set_size (self->dots, 0);
  g_array_set_size (self->mean, 0);
  g_ptr_array_set_size (self->top_groups, 0);
  self->age_min = G_MAXDOUBLE;
  self->age_max = 0;

  /* First sample at or after t0. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (self->samples, Sample, mid).time < g->t0)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < self->samples->len; i++)
    {
      const Sample *s = &g_array_index (self->samples, Sample, i);
      double age = age_of (self, s);
      if (s->time > g->t1)
        break;
      if (age <= 0)
        continue;
      self->age_min = MIN (self->age_min, age);
      self->age_max = MAX (self->age_max, age);
    }
  if (self->age_max <= 0)
    return;

  sum = g_new0 (double, n_buckets);
  weight = g_new0 (double, n_buckets);
  for (guint i = lo; i < self->samples->len; i++)
    {
      const Sample *s = &g_array_index (self->samples, Sample, i);
      double age = age_of (self, s);
      const char *group = group_of (self, s);
      double x, y;
      gsize slot;
      guint bucket;

      if (s->time > g->t1)
        break;
      if (age <= 0)
        continue;
      x = jvms_timeline_time_to_x (g, s->time);
      /* Content y: the legend above may change height with the groups shown. */
      y = age_to_y (self, age, 0);
      bucket = MIN ((guint) ((x - g->gutter) / MEAN_BUCKET_PX), n_buckets - 1);
      sum[bucket] += age * s->count;
      weight[bucket] += s->count;
      g_hash_table_insert (totals, (gpointer) group,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (totals, group)) +
                                             s->count));

      /* One dot per 6x6 pixel cell: dense bursts merge into one bigger dot, so the number of
       * dots (and the drawing) is bounded by the area, not by the samples. The cell keeps the
       * group of its largest sample. */
      slot = MIN ((guint) MAX ((x - g->gutter) / 6, 0), grid_w - 1) +
             (gsize) MIN ((guint) MAX (y / 6, 0), grid_h - 1) * grid_w;
      if (grid[slot] != 0)
        {
          Dot *d = &g_array_index (self->dots, Dot, grid[slot] - 1);
          if (s->count > g_array_index (self->samples, Sample, d->sample).count)
            {
              d->group = group;
              d->sample = i;
            }
          d->count += s->count;
          continue;
        }
      {
        Dot d = { x, y, 0, group, s->count, i };
        g_array_append_val (self->dots, d);
        grid[slot] = self->dots->len;
      }
    }
  for (guint i = 0; i < self->dots->len; i++)
    {
      Dot *d = &g_array_index (self->dots, Dot, i);
      d->radius = MIN (2.0 + sqrt ((double) d->count), 9.0);
    }
  g_array_sort (self->dots, compare_group);
  for (guint b = 0; b < n_buckets; b++)
    {
      double m = weight[b] > 0 ? sum[b] / weight[b] : NAN;
      g_array_append_val (self->mean, m);
    }
  groups = g_hash_table_get_keys (totals);
  for (GList *l = groups; l != NULL; l = l->next)
    g_ptr_array_add (self->top_groups, l->data);
  /* Most samples first. */
  for (guint i = 1; i < self->top_groups->len; i++)
    for (guint j = i; j > 0; j--)
      {
        guint a = GPOINTER_TO_UINT (g_hash_table_lookup (totals, self->top_groups->pdata[j - 1]));
        guint b = GPOINTER_TO_UINT (g_hash_table_lookup (totals, self->top_groups->pdata[j]));
        gpointer tmp;
        if (a >= b)
          break;
        tmp = self->top_groups->pdata[j - 1];
        self->top_groups->pdata[j - 1] = self->top_groups->pdata[j];
        self->top_groups->pdata[j] = tmp;
      }
}

static char *
format_age (JvmsObjectAgeView *self,
            double             age)
{
  if (self->unit == JVMS_OBJECT_AGE_BYTES)
    return g_format_size_full ((guint64) age, G_FORMAT_SIZE_IEC_UNITS);
  return jvms_session_format_duration (jvms_timeline_get_session (JVMS_TIMELINE (self)), (gint64) age);
}

static void
jvms_object_age_view_draw (JvmsTimeline               *timeline,
                           cairo_t                    *cr,
                           const JvmsTimelineGeometry *g)
{
  JvmsObjectAgeView *self = JVMS_OBJECT_AGE_VIEW (timeline);
  double top = g->top - g->v_offset;
  gboolean pen = FALSE;
  g_autofree char *max_label = NULL;
  g_autofree char *min_label = NULL;

  jvms_timeline_draw_label (cr, &g->palette->foreground, 6, top + 4, g->gutter - 10,
                            self->unit == JVMS_OBJECT_AGE_BYTES
                              ? _("Age in bytes allocated since")
                              : _("Age in time"),
                            FALSE);
  if (self->dots->len == 0)
    {
      jvms_timeline_draw_label (cr, &g->palette->dim_text, g->gutter + 8, top + CHART_H / 2.0 - 6,
                                g->n_columns - 16, _("No object samples in this range"), FALSE);
      return;
    }
  max_label = format_age (self, self->age_max);
  min_label = format_age (self, self->age_min);
  jvms_timeline_draw_label (cr, &g->palette->dim_text, 6, top + 20, g->gutter - 10, max_label,
                            FALSE);
  jvms_timeline_draw_label (cr, &g->palette->dim_text, 6, top + CHART_H - 18, g->gutter - 10,
                            min_label, FALSE);

  /* A colour per group (dots are sorted by group in compute), then each dot a disc mask placed
   * on whole device pixels, so that it is copied, not resampled. */
  for (guint i = 0; i < self->dots->len; i++)
    {
      const Dot *d = &g_array_index (self->dots, Dot, i);
      double r, x, y;
      cairo_surface_t *disc = disc_mask (self, cr, d->radius, &r);

      if (i == 0 || g_array_index (self->dots, Dot, i - 1).group != d->group)
        {
          JvmsColor c = jvms_palette_for_string (g->palette, d->group);
          c.a = 0.75;
          jvms_color_set (cr, &c);
        }
      x = round ((d->x - r - 1) * self->discs_scale) / self->discs_scale;
      y = round ((d->y + g->top - g->v_offset - r - 1) * self->discs_scale) / self->discs_scale;
      cairo_mask_surface (cr, disc, x, y);
    }

  jvms_color_set (cr, &g->palette->foreground);
  cairo_set_line_width (cr, 1.5);
  for (guint b = 0; b < self->mean->len; b++)
    {
      double m = g_array_index (self->mean, double, b);
      double x = g->gutter + b * MEAN_BUCKET_PX + MEAN_BUCKET_PX / 2.0;
      if (isnan (m))
        continue; /* a gap in samples is not a change of mean: keep the line going */
      if (pen)
        cairo_line_to (cr, x, age_to_y (self, m, g->top) - g->v_offset);
      else
        cairo_move_to (cr, x, age_to_y (self, m, g->top) - g->v_offset);
      pen = TRUE;
    }
  cairo_stroke (cr);
}

static char *
jvms_object_age_view_tooltip (JvmsTimeline               *timeline,
                              JvmsHistory                *history,
                              const JvmsTimelineGeometry *g,
                              double                      x,
                              double                      y,
                              gint64                      time)
{
  JvmsObjectAgeView *self = JVMS_OBJECT_AGE_VIEW (timeline);
  const Dot *best = NULL;
  double best_d = 36;
  const Sample *s;
  g_autofree char *age = NULL;
  g_autofree char *when = NULL;

  /* Dots and y here are both in content coordinates. */
  for (guint i = 0; i < self->dots->len; i++)
    {
      const Dot *d = &g_array_index (self->dots, Dot, i);
      double dx = d->x - x, dy = d->y - y;
      if (dx * dx + dy * dy < best_d)
        {
          best_d = dx * dx + dy * dy;
          best = d;
        }
    }
  if (best == NULL)
    return NULL;
  s = &g_array_index (self->samples, Sample, best->sample);
  age = format_age (self, age_of (self, s));
  when = jvms_session_format_time (jvms_timeline_get_session (timeline), s->time, g->t1 - g->t0);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s\nAllocated at %s\nAge %s at %s\n%u sample here",
                                       "%s\nAllocated at %s\nAge %s at %s\n%u samples here",
                                       best->count),
                          s->class_name ? s->class_name : "?", s->site ? s->site : "?", age,
                          when, best->count);
}

static const char *
jvms_object_age_view_get_title (JvmsTimeline *timeline)
{
  return _("Object age");
}

static void
jvms_object_age_view_legend (JvmsTimeline      *timeline,
                             const JvmsPalette *palette,
                             GArray            *entries)
{
  JvmsObjectAgeView *self = JVMS_OBJECT_AGE_VIEW (timeline);
  JvmsLegendEntry mean = { _("Mean age"), palette->foreground };

  g_array_append_val (entries, mean);
  for (guint i = 0; i < MIN (self->top_groups->len, MAX_LEGEND_GROUPS); i++)
    {
      JvmsLegendEntry e = { self->top_groups->pdata[i],
                            jvms_palette_for_string (palette, self->top_groups->pdata[i]) };
      g_array_append_val (entries, e);
    }
}

static char *
jvms_object_age_view_describe (JvmsTimeline *timeline)
{
  guint n = JVMS_OBJECT_AGE_VIEW (timeline)->samples->len;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Ages of %u sampled object over time, with their mean",
                                       "Ages of %u sampled objects over time, with their mean",
                                       n),
                          n);
}

static void
jvms_object_age_view_finalize (GObject *object)
{
  JvmsObjectAgeView *self = JVMS_OBJECT_AGE_VIEW (object);

  g_clear_pointer (&self->samples, g_array_unref);
  g_clear_pointer (&self->dots, g_array_unref);
  g_clear_pointer (&self->mean, g_array_unref);
  g_clear_pointer (&self->top_groups, g_ptr_array_unref);
  clear_discs (self);
  G_OBJECT_CLASS (jvms_object_age_view_parent_class)->finalize (object);
}

static void
jvms_object_age_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  JvmsObjectAgeView *self = JVMS_OBJECT_AGE_VIEW (object);

  switch (prop_id)
    {
    case PROP_AGE_UNIT:
      g_value_set_enum (value, self->unit);
      break;
    case PROP_BY_SITE:
      g_value_set_boolean (value, self->by_site);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_object_age_view_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  JvmsObjectAgeView *self = JVMS_OBJECT_AGE_VIEW (object);

  switch (prop_id)
    {
    case PROP_AGE_UNIT:
      jvms_object_age_view_set_age_unit (self, g_value_get_enum (value));
      break;
    case PROP_BY_SITE:
      jvms_object_age_view_set_by_site (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_object_age_view_class_init (JvmsObjectAgeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_object_age_view_finalize;
  object_class->get_property = jvms_object_age_view_get_property;
  object_class->set_property = jvms_object_age_view_set_property;
  timeline_class->get_content_height = jvms_object_age_view_get_content_height;
  timeline_class->compute = jvms_object_age_view_compute;
  timeline_class->draw = jvms_object_age_view_draw;
  timeline_class->tooltip = jvms_object_age_view_tooltip;
  timeline_class->get_title = jvms_object_age_view_get_title;
  timeline_class->legend = jvms_object_age_view_legend;
  timeline_class->describe = jvms_object_age_view_describe;

  properties[PROP_AGE_UNIT] =
    g_param_spec_enum ("age-unit", NULL, NULL, JVMS_TYPE_OBJECT_AGE_UNIT, JVMS_OBJECT_AGE_TIME,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BY_SITE] =
    g_param_spec_boolean ("by-site", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
jvms_object_age_view_init (JvmsObjectAgeView *self)
{
  self->samples = g_array_new (FALSE, TRUE, sizeof (Sample));
  self->dots = g_array_new (FALSE, FALSE, sizeof (Dot));
  self->mean = g_array_new (FALSE, FALSE, sizeof (double));
  self->top_groups = g_ptr_array_new ();
}

GtkWidget *
jvms_object_age_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_OBJECT_AGE_VIEW, "session", session, NULL);
}

void
jvms_object_age_view_set_samples (JvmsObjectAgeView         *self,
                                  const JvmsObjectAgeSample *samples,
                                  guint                      n_samples)
{
  g_return_if_fail (JVMS_IS_OBJECT_AGE_VIEW (self));
  g_return_if_fail (samples != NULL || n_samples == 0);

  g_array_set_size (self->dots, 0);
  g_ptr_array_set_size (self->top_groups, 0);
  g_array_set_size (self->samples, 0);
  for (guint i = 0; i < n_samples; i++)
    {
      Sample s = {
        .time = samples[i].time,
        .age_ns = (double) (samples[i].time - samples[i].allocation_time),
        .bytes_since = samples[i].bytes_since,
        .class_name = g_intern_string (samples[i].class_name),
        .site = g_intern_string (samples[i].site),
        .count = MAX (samples[i].count, 1),
      };
      g_array_append_val (self->samples, s);
    }
  g_array_sort (self->samples, compare_time);
  jvms_timeline_invalidate (JVMS_TIMELINE (self));
  jvms_timeline_reload (JVMS_TIMELINE (self));
}

guint
jvms_object_age_view_get_n_samples (JvmsObjectAgeView *self)
{
  g_return_val_if_fail (JVMS_IS_OBJECT_AGE_VIEW (self), 0);
  return self->samples->len;
}

void
jvms_object_age_view_set_age_unit (JvmsObjectAgeView *self,
                                   JvmsObjectAgeUnit  unit)
{
  g_return_if_fail (JVMS_IS_OBJECT_AGE_VIEW (self));
  if (self->unit == unit)
    return;
  self->unit = unit;
  jvms_timeline_invalidate (JVMS_TIMELINE (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AGE_UNIT]);
}

void
jvms_object_age_view_set_by_site (JvmsObjectAgeView *self,
                                  gboolean           by_site)
{
  g_return_if_fail (JVMS_IS_OBJECT_AGE_VIEW (self));
  if (self->by_site == !!by_site)
    return;
  self->by_site = !!by_site;
  jvms_timeline_invalidate (JVMS_TIMELINE (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BY_SITE]);
}
