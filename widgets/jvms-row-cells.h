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

/* Summary cells of a list of lanes, an attribute each, some of which the history may lack:
 * one query for those it has, into a buffer kept from frame to frame. */
typedef struct
{
  const char      *view_name;  /* for warnings */
  int              n_columns;  /* of the last query */
  GArray          *lane_index; /* int per lane: block of cells, or -1 */
  GArray          *attributes; /* JvmsAttribute: the query's, in block order */
  JvmsSummaryCell *cells;
  gsize            capacity;   /* cells allocated */
  gboolean         values_only; /* state lanes: no min/max asked of the index (the default) */
  /* lanes with min/max asked as a bound where a column cuts a bucket
   * (JVMS_SUMMARY_QUERY_RANGE_BOUND): a frame drawn at once, refined after by the view */
  gboolean         range_bound;
  GArray          *lane_flags;  /* JvmsSummaryQueryFlags per block */
} JvmsLaneCells;

void     jvms_lane_cells_init   (JvmsLaneCells              *self,
                                 const char                 *view_name);
void     jvms_lane_cells_clear  (JvmsLaneCells              *self);
/* Forgets the lanes, keeping the buffers. */
void     jvms_lane_cells_reset  (JvmsLaneCells              *self);
/* Appends a lane (JVMS_ATTRIBUTE_INVALID: a lane without cells), with min/max unless
 * @values_only is set. */
void     jvms_lane_cells_add    (JvmsLaneCells              *self,
                                 JvmsAttribute               attribute);
void     jvms_lane_cells_add_full (JvmsLaneCells            *self,
                                   JvmsAttribute             attribute,
                                   gboolean                  values_only);
/* One summary query over @geometry's range and columns for every lane added (two when some
 * lanes want min/max and others not: a state lane asked for min/max costs the refinement of
 * every bucket a column boundary cuts); FALSE (with a warning) when the history cannot answer,
 * and the lanes are forgotten then. */
gboolean jvms_lane_cells_query  (JvmsLaneCells              *self,
                                 JvmsHistory                *history,
                                 const JvmsTimelineGeometry *geometry);
/* How many lanes every view has asked of the index so far (lanes with cells, summed over the
 * queries): what tests read to check that a view queries only the rows it shows. */
guint64  jvms_lane_cells_get_n_queried (void);
/* Cells of @lane, or NULL when it has none or they were not queried at @geometry's width. */
const JvmsSummaryCell *jvms_lane_cells_get (const JvmsLaneCells        *self,
                                            const JvmsTimelineGeometry *geometry,
                                            guint                       lane);

/* Rows of one height with n_lanes lanes each, of which those in the band are queried. */
typedef struct
{
  guint            n_lanes;    /* per row */
  int              row_height;
  guint            first;      /* rows cached: [first, first + n_rows) */
  guint            n_rows;
  guint            values_only_lanes; /* bit l: lane l is asked without min/max */
  guint            max_only_lanes;    /* bit l: lane l is asked for its maximum alone (bars) */
  JvmsLaneCells    lanes;
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
