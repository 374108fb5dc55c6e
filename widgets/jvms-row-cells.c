/* jvms-row-cells.c */
#include "config.h"

#include <math.h>
#include <string.h>

#include "jvms-row-cells.h"

void
jvms_lane_cells_init (JvmsLaneCells *self,
                      const char    *view_name)
{
  *self = (JvmsLaneCells) { 0 };
  self->view_name = view_name;
  self->lane_index = g_array_new (FALSE, FALSE, sizeof (int));
  self->attributes = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  self->lane_flags = g_array_new (FALSE, FALSE, sizeof (JvmsSummaryQueryFlags));
}

void
jvms_lane_cells_clear (JvmsLaneCells *self)
{
  g_clear_pointer (&self->lane_index, g_array_unref);
  g_clear_pointer (&self->attributes, g_array_unref);
  g_clear_pointer (&self->lane_flags, g_array_unref);
  g_clear_pointer (&self->cells, g_free);
  self->capacity = 0;
}

void
jvms_lane_cells_reset (JvmsLaneCells *self)
{
  g_array_set_size (self->lane_index, 0);
  g_array_set_size (self->attributes, 0);
  g_array_set_size (self->lane_flags, 0);
}

/* jvms_lane_cells_add_full, with JVMS_SUMMARY_QUERY_MAX_ONLY added to a lane with min/max when
 * @max_only: a lane drawn as bars from the maximum alone. */
static void
lane_cells_add (JvmsLaneCells *self,
                JvmsAttribute  attribute,
                gboolean       values_only,
                gboolean       max_only)
{
  int block = attribute == JVMS_ATTRIBUTE_INVALID ? -1 : (int) self->attributes->len;
  JvmsSummaryQueryFlags flags = values_only        ? JVMS_SUMMARY_QUERY_NO_RANGE
                              : self->range_bound ? JVMS_SUMMARY_QUERY_RANGE_BOUND
                                                  : JVMS_SUMMARY_QUERY_DEFAULT;
  if (max_only && !values_only)
    flags |= JVMS_SUMMARY_QUERY_MAX_ONLY;

  g_array_append_val (self->lane_index, block);
  if (attribute != JVMS_ATTRIBUTE_INVALID)
    {
      g_array_append_val (self->attributes, attribute);
      g_array_append_val (self->lane_flags, flags);
    }
}

void
jvms_lane_cells_add_full (JvmsLaneCells *self,
                          JvmsAttribute  attribute,
                          gboolean       values_only)
{
  lane_cells_add (self, attribute, values_only, FALSE);
}

void
jvms_lane_cells_add (JvmsLaneCells *self,
                     JvmsAttribute  attribute)
{
  jvms_lane_cells_add_full (self, attribute, self->values_only);
}

/* Views draw from the main thread only. */
static guint64 n_queried;

guint64
jvms_lane_cells_get_n_queried (void)
{
  return n_queried;
}

gboolean
jvms_lane_cells_query (JvmsLaneCells              *self,
                       JvmsHistory                *history,
                       const JvmsTimelineGeometry *g)
{
  g_autoptr(GError) error = NULL;
  gsize needed = (gsize) self->attributes->len * g->n_columns;

  self->n_columns = g->n_columns;
  if (history == NULL)
    jvms_lane_cells_reset (self);
  if (self->attributes->len == 0)
    return TRUE;
  /* Kept across frames: a few MB a frame otherwise, and the page faults of a fresh block. */
  if (needed > self->capacity)
    {
      g_free (self->cells);
      self->cells = g_new (JvmsSummaryCell, needed);
      self->capacity = needed;
    }
  n_queried += self->attributes->len;
  /* One query, each block with its own flags: the rows of all lanes share the cores. */
  gboolean ok = jvms_history_query_summary_rows (history, g->t0, g->t1,
                                                 (const JvmsAttribute *) self->attributes->data,
                                                 (const JvmsSummaryQueryFlags *) self->lane_flags->data,
                                                 self->attributes->len, g->n_columns, self->cells,
                                                 &error);
  if (!ok)
    {
      g_warning ("%s view: %s", self->view_name, error->message);
      jvms_lane_cells_reset (self);
      return FALSE;
    }
  return TRUE;
}

const JvmsSummaryCell *
jvms_lane_cells_get (const JvmsLaneCells        *self,
                     const JvmsTimelineGeometry *g,
                     guint                       lane)
{
  int block;

  if (self->n_columns != g->n_columns || lane >= self->lane_index->len)
    return NULL;
  block = g_array_index (self->lane_index, int, lane);
  return block < 0 ? NULL : &self->cells[(gsize) block * g->n_columns];
}

void
jvms_row_cells_init (JvmsRowCells *self,
                     const char   *view_name,
                     int           row_height,
                     guint         n_lanes)
{
  g_return_if_fail (n_lanes > 0 && n_lanes <= JVMS_ROW_CELLS_MAX_LANES);
  g_return_if_fail (row_height > 0);

  *self = (JvmsRowCells) { 0 };
  self->row_height = row_height;
  self->n_lanes = n_lanes;
  jvms_lane_cells_init (&self->lanes, view_name);
}

void
jvms_row_cells_clear (JvmsRowCells *self)
{
  jvms_lane_cells_clear (&self->lanes);
  self->n_rows = 0;
}

void
jvms_row_cells_reset (JvmsRowCells *self)
{
  self->n_rows = 0;
  self->first = 0;
  jvms_lane_cells_reset (&self->lanes);
}

void
jvms_row_cells_band (const JvmsTimelineGeometry *g,
                     int                         row_height,
                     guint                       n_rows,
                     guint                      *first,
                     guint                      *last)
{
  double top = MAX (g->band_top, 0) / row_height;
  double bottom = MAX (g->band_bottom, 0) / row_height;

  *first = (guint) MIN (floor (top), (double) n_rows);
  *last = (guint) MIN (ceil (bottom), (double) n_rows);
  if (*last < *first)
    *last = *first;
}

gboolean
jvms_row_cells_compute (JvmsRowCells               *self,
                        JvmsHistory                *history,
                        const JvmsTimelineGeometry *g,
                        guint                       n_rows,
                        JvmsRowLaneFunc             lane,
                        gpointer                    data)
{
  guint first, last;

  jvms_row_cells_reset (self);
  jvms_row_cells_band (g, self->row_height, n_rows, &first, &last);
  for (guint i = first; i < last; i++)
    for (guint l = 0; l < self->n_lanes; l++)
      lane_cells_add (&self->lanes, lane (data, i, l),
                      self->lanes.values_only || (self->values_only_lanes >> l & 1),
                      self->max_only_lanes >> l & 1);
  self->first = first;
  self->n_rows = last - first;
  if (!jvms_lane_cells_query (&self->lanes, history, g))
    {
      jvms_row_cells_reset (self);
      return FALSE;
    }
  return TRUE;
}

const JvmsSummaryCell *
jvms_row_cells_get (const JvmsRowCells         *self,
                    const JvmsTimelineGeometry *g,
                    guint                       row,
                    guint                       lane)
{
  if (row < self->first || row >= self->first + self->n_rows || lane >= self->n_lanes)
    return NULL;
  return jvms_lane_cells_get (&self->lanes, g, (row - self->first) * self->n_lanes + lane);
}

void
jvms_row_cells_draw (const JvmsRowCells         *self,
                     cairo_t                    *cr,
                     const JvmsTimelineGeometry *g,
                     guint                       n_rows,
                     JvmsRowDrawFunc             draw,
                     gpointer                    data)
{
  const JvmsSummaryCell *lanes[JVMS_ROW_CELLS_MAX_LANES];
  guint first, last;

  jvms_row_cells_band (g, self->row_height, n_rows, &first, &last);
  for (guint i = first; i < last; i++)
    {
      double y = g->top + (double) i * self->row_height - g->v_offset;
      gboolean cached = self->lanes.n_columns == g->n_columns && i >= self->first &&
                        i < self->first + self->n_rows;

      if (y >= g->height)
        break;
      for (guint l = 0; l < self->n_lanes; l++)
        lanes[l] = cached ? jvms_row_cells_get (self, g, i, l) : NULL;
      draw (cr, g, i, y, cached ? lanes : NULL, data);
    }
}
