/* jvms-lane.h: drawing one attribute's summary cells as a coloured lane, and describing the
 * interval under the pointer, shared by the views. */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

/* Colour of a value; return alpha 0 to leave the column empty. */
typedef JvmsColor (*JvmsLaneColorFunc) (const JvmsPalette *palette,
                                        const JvmsValue   *value,
                                        gpointer           data);
/* Display text of a value (newly allocated). */
typedef char     *(*JvmsLaneNameFunc)  (const JvmsValue   *value,
                                        gpointer           data);

/* Draws @cells (geometry->n_columns of them) between @y and @y + @height. Runs of columns of
 * one colour become one rectangle; a MIXED column (another value held in it too, however
 * briefly) gets a mark on the lane's lower edge, so that no short state vanishes. */
void   jvms_lane_draw           (cairo_t                    *cr,
                                 const JvmsTimelineGeometry *geometry,
                                 const JvmsSummaryCell      *cells,
                                 double                      y,
                                 double                      height,
                                 JvmsLaneColorFunc           color,
                                 gpointer                    data);

/* Draws min/max of numeric @cells as a band and the max as a line, scaled so that @vmax is at
 * @y and 0 (or @vmin) at @y + @height. */
void   jvms_lane_draw_numeric   (cairo_t                    *cr,
                                 const JvmsTimelineGeometry *geometry,
                                 const JvmsSummaryCell      *cells,
                                 double                      y,
                                 double                      height,
                                 double                      vmin,
                                 double                      vmax,
                                 const JvmsColor            *color);

/* The interval of @attribute at @time as lines: "<name>\nStart: … Duration: …", then, when
 * the pixel column [@time, @time + @column_span) holds other values too, their total times.
 * NULL when the attribute has no interval there. The start is written as @session says
 * (time-unit, time-origin); @session may be NULL. */
/* Bars from @bottom up, one a column, @max_height for @vmax (at least 1 px): the most of
 * @cells' max in each pixel, so that a burst shows. */
void   jvms_lane_draw_bars      (cairo_t                    *cr,
                                 const JvmsTimelineGeometry *g,
                                 const JvmsSummaryCell      *cells,
                                 double                      bottom,
                                 double                      max_height,
                                 double                      vmax,
                                 const JvmsColor            *color);

/* A column of @color from @y to @y + @height wherever @on[c] (g->n_columns of them) is set:
 * as a row of pixels stretched over the height on image surfaces (a lane of a thousand
 * one-pixel rectangles costs milliseconds), as rectangles on vector ones. */
void   jvms_lane_draw_columns   (cairo_t                    *cr,
                                 const JvmsTimelineGeometry *g,
                                 const guint8               *on,
                                 double                      y,
                                 double                      height,
                                 const JvmsColor            *color);

/* Lanes and charts are drawn as pixels on image and recording surfaces and as shapes on vector
 * ones (SVG, PDF, PostScript). TRUE draws shapes everywhere: for tests that compare the two. */
void   jvms_lane_set_shapes_only (gboolean                    shapes_only);

char  *jvms_lane_describe       (JvmsSession                *session,
                                 JvmsHistory                *history,
                                 JvmsAttribute               attribute,
                                 gint64                      time,
                                 gint64                      column_span,
                                 JvmsLaneNameFunc            name,
                                 gpointer                    data,
                                 JvmsInterval               *out_interval);

/* Default name function: ints, doubles and strings as text. */
char  *jvms_lane_value_text     (const JvmsValue            *value,
                                 gpointer                    data);

G_END_DECLS
