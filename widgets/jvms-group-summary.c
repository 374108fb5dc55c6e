/* jvms-group-summary.c: see jvms-group-summary.h. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "jvms-group-summary.h"

struct _JvmsGroupSummary
{
  GArray               *attributes; /* JvmsAttribute: n_members * n_lanes */
  guint                 n_members;
  guint                 n_lanes;
  JvmsTimelineGeometry  geometry;   /* range and columns counted */
  guint                 next;       /* first member not counted */
  gboolean              stopped;    /* the index could not answer */
  guint32              *counts;     /* [lane][column][state] */
};

JvmsGroupSummary *
jvms_group_summary_new (void)
{
  JvmsGroupSummary *self = g_new0 (JvmsGroupSummary, 1);

  self->attributes = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  return self;
}

void
jvms_group_summary_free (JvmsGroupSummary *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->attributes);
  g_free (self->counts);
  g_free (self);
}

void
jvms_group_summary_prepare (JvmsGroupSummary           *self,
                            const JvmsAttribute        *attributes,
                            guint                       n_members,
                            guint                       n_lanes,
                            const JvmsTimelineGeometry *g)
{
  gsize n = (gsize) n_members * n_lanes;

  g_return_if_fail (n_lanes > 0 && n_lanes <= JVMS_GROUP_SUMMARY_MAX_LANES);
  if (self->counts != NULL && self->n_members == n_members && self->n_lanes == n_lanes &&
      self->geometry.t0 == g->t0 && self->geometry.t1 == g->t1 &&
      self->geometry.n_columns == g->n_columns &&
      memcmp (self->attributes->data, attributes, n * sizeof (JvmsAttribute)) == 0)
    return;
  g_array_set_size (self->attributes, 0);
  g_array_append_vals (self->attributes, attributes, n);
  self->n_members = n_members;
  self->n_lanes = n_lanes;
  self->geometry = *g;
  self->next = 0;
  self->stopped = FALSE;
  g_free (self->counts);
  self->counts = g_new0 (guint32, (gsize) n_lanes * g->n_columns * JVMS_GROUP_SUMMARY_STATES);
}

guint
jvms_group_summary_step (JvmsGroupSummary *self,
                         JvmsHistory      *history,
                         JvmsLaneCells    *scratch,
                         guint             budget)
{
  guint first = self->next, end = first, asked = 0;
  int columns = self->geometry.n_columns;

  if (jvms_group_summary_is_complete (self) || history == NULL)
    return 0;
  /* Whole members, at least one, up to the budget of lanes. */
  jvms_lane_cells_reset (scratch);
  while (end < self->n_members && (end == first || asked + self->n_lanes <= budget))
    {
      for (guint l = 0; l < self->n_lanes; l++)
        jvms_lane_cells_add_full (scratch, g_array_index (self->attributes, JvmsAttribute,
                                                          end * self->n_lanes + l), TRUE);
      asked += self->n_lanes;
      end++;
    }
  if (!jvms_lane_cells_query (scratch, history, &self->geometry))
    {
      self->stopped = TRUE;
      return asked;
    }
  for (guint m = 0; m < end - first; m++)
    for (guint l = 0; l < self->n_lanes; l++)
      {
        const JvmsSummaryCell *cells = jvms_lane_cells_get (scratch, &self->geometry,
                                                            m * self->n_lanes + l);
        guint32 *counts = self->counts + (gsize) l * columns * JVMS_GROUP_SUMMARY_STATES;

        if (cells == NULL)
          continue;
        for (int c = 0; c < columns; c++)
          {
            const JvmsValue *v = &cells[c].dominant;
            if (!(cells[c].flags & JVMS_SUMMARY_EMPTY) && v->type == JVMS_VALUE_INT &&
                v->i >= 0 && v->i < JVMS_GROUP_SUMMARY_STATES)
              counts[(gsize) c * JVMS_GROUP_SUMMARY_STATES + v->i]++;
          }
      }
  self->next = end;
  return asked;
}

gboolean
jvms_group_summary_is_complete (const JvmsGroupSummary *self)
{
  return self->stopped || self->next >= self->n_members;
}

guint
jvms_group_summary_get_n_members (const JvmsGroupSummary *self)
{
  return self->n_members;
}

guint
jvms_group_summary_get_n_counted (const JvmsGroupSummary *self)
{
  return self->next;
}

int
jvms_group_summary_get_n_columns (const JvmsGroupSummary *self)
{
  return self->counts != NULL ? self->geometry.n_columns : 0;
}

guint
jvms_group_summary_get_count (const JvmsGroupSummary *self,
                              guint                   lane,
                              int                     column,
                              guint                   state)
{
  if (self->counts == NULL || lane >= self->n_lanes || column < 0 ||
      column >= self->geometry.n_columns || state >= JVMS_GROUP_SUMMARY_STATES)
    return 0;
  return self->counts[((gsize) lane * self->geometry.n_columns + column) *
                      JVMS_GROUP_SUMMARY_STATES + state];
}

void
jvms_group_summary_draw (const JvmsGroupSummary     *self,
                         cairo_t                    *cr,
                         const JvmsTimelineGeometry *g,
                         guint                       lane,
                         double                      y,
                         int                         height,
                         const int                  *order,
                         guint                       n_order,
                         const JvmsColor            *colors)
{
  cairo_surface_t *surface;
  guint32 *px, argb[JVMS_GROUP_SUMMARY_STATES];
  int stride;
  gboolean any = FALSE;

  if (self->counts == NULL || self->next == 0 || lane >= self->n_lanes || height <= 0 ||
      self->geometry.n_columns != g->n_columns || n_order > JVMS_GROUP_SUMMARY_STATES)
    return;
  /* An image, a pixel per column: the same in every target (an SVG embeds it). */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, g->n_columns, height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return;
    }
  cairo_surface_flush (surface);
  px = (guint32 *) (gpointer) cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface) / 4;
  for (guint k = 0; k < n_order; k++)
    argb[k] = jvms_color_to_argb (&colors[k]);
  for (int c = 0; c < g->n_columns; c++)
    {
      guint32 cum = 0;
      int pos = 0;

      for (guint k = 0; k < n_order && pos < height; k++)
        {
          guint n = jvms_group_summary_get_count (self, lane, c, (guint) order[k]);
          int end;

          if (n == 0)
            continue;
          cum += n;
          end = (int) lround ((double) cum * height / self->next);
          end = CLAMP (end, pos + 1, height);
          for (int r = height - end; r < height - pos; r++)
            px[(gsize) r * stride + c] = argb[k];
          pos = end;
          any = TRUE;
        }
    }
  cairo_surface_mark_dirty (surface);
  if (any)
    {
      cairo_save (cr);
      cairo_set_source_surface (cr, surface, g->gutter, y);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
      cairo_rectangle (cr, g->gutter, y, g->n_columns, height);
      cairo_fill (cr);
      cairo_restore (cr);
    }
  cairo_surface_destroy (surface);
}
