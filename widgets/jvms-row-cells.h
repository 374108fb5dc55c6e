/* jvms-row-cells.h: the summary cells of a view whose rows all have one height and the same
 * number of lanes (an attribute each): CPUs, locks, counters.
 *
 * compute asks the index once for every lane of the rows in the band (one summary call,
 * whatever the number of rows); draw walks only those rows. The cell buffers are kept from one
 * compute to the next, so that a frame allocates nothing once the size settled.
 */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

/* The attribute of @lane of row @row, or JVMS_ATTRIBUTE_INVALID when the row lacks it. */
typedef JvmsAttribute (*JvmsRowLaneFunc) (gpointer data,
                                          guint    row,
                                          guint    lane);

/* Draws row @row at @y (its top on screen). @lanes holds a cell array per lane
 * (geometry->n_columns cells), NULL for a lane the row lacks; @lanes is NULL altogether when
 * the row has no cells (not computed, or the query failed): draw the label only. */
typedef void (*JvmsRowDrawFunc) (cairo_t                     *cr,
                                 const JvmsTimelineGeometry  *geometry,
                                 guint                        row,
                                 double                       y,
                                 const JvmsSummaryCell *const *lanes,
                                 gpointer                     data);

#define JVMS_ROW_CELLS_MAX_LANES 8

typedef struct
{
  guint            n_lanes;    /* per row */
  int              row_height;
  const char      *view_name;  /* for warnings */

  /* What the last compute cached: rows [first, first + n_rows) at n_columns. */
  guint            first;
  guint            n_rows;
  int              n_columns;
  GArray          *lane_index; /* int per lane of a cached row: block of cells, or -1 */
  GArray          *attributes; /* JvmsAttribute: the query's, in block order */
  JvmsSummaryCell *cells;
  gsize            capacity;   /* cells allocated */
} JvmsRowCells;

void jvms_row_cells_init    (JvmsRowCells               *self,
                             const char                 *view_name,
                             int                         row_height,
                             guint                       n_lanes);
void jvms_row_cells_clear   (JvmsRowCells               *self);
/* Drops what is cached (the row list changed), keeping the buffers. */
void jvms_row_cells_reset   (JvmsRowCells               *self);

/* Rows of @row_height (row i at content y = i * @row_height) that @geometry's band shows:
 * [*first, *last). */
void jvms_row_cells_band    (const JvmsTimelineGeometry *geometry,
                             int                         row_height,
                             guint                       n_rows,
                             guint                      *first,
                             guint                      *last);

/* One summary query for every lane of the rows in the band; FALSE (with a warning) when the
 * history cannot answer, and nothing is cached then. */
gboolean jvms_row_cells_compute (JvmsRowCells               *self,
                                 JvmsHistory                *history,
                                 const JvmsTimelineGeometry *geometry,
                                 guint                       n_rows,
                                 JvmsRowLaneFunc             lane,
                                 gpointer                    data);

/* Cells of @lane of row @row, or NULL when not cached for @geometry or the row lacks it. */
const JvmsSummaryCell *jvms_row_cells_get (const JvmsRowCells         *self,
                                           const JvmsTimelineGeometry *geometry,
                                           guint                       row,
                                           guint                       lane);

/* Calls @draw for every row of the band, with its cells. */
void jvms_row_cells_draw    (const JvmsRowCells         *self,
                             cairo_t                    *cr,
                             const JvmsTimelineGeometry *geometry,
                             guint                       n_rows,
                             JvmsRowDrawFunc             draw,
                             gpointer                    data);

G_END_DECLS
