/* jvms-sampled-line.h: a quantity known only at the points where it was recorded (the heap used,
 * from jdk.GCHeapSummary before and after each collection) drawn as what is known of it:
 * straight lines between the recorded points, the points marked (a hollow square) where they are
 * at least a few pixels apart, and where several points share a pixel column a vertical stroke
 * from their min to their max.
 *
 * The index holds such a quantity as a step (each value held until the next point): drawn as
 * such, growth between two points looks like a flat line and a jump. The drawing reads only
 * the summary cells of the attribute (one per column, as every lane) and the two points just
 * outside the range, found by two point queries: its cost does not grow with the trace. */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

/* The recorded points just outside [t0, t1): the one the range starts in and the first after
 * it. */
typedef struct
{
  gboolean has_before;
  gint64   before_time;
  double   before_value;
  gboolean has_after;
  gint64   after_time;
  double   after_value;
} JvmsSampledEnds;

void jvms_sampled_ends_query (JvmsHistory                *history,
                              JvmsAttribute               attribute,
                              gint64                      t0,
                              gint64                      t1,
                              JvmsSampledEnds            *ends);

/* Draws @cells (n_columns of them, with min/max) between @y and @y + @height, @vmax at @y
 * and @vmin at the bottom. */
void jvms_sampled_line_draw  (cairo_t                    *cr,
                              const JvmsTimelineGeometry *geometry,
                              const JvmsSummaryCell      *cells,
                              const JvmsSampledEnds      *ends,
                              double                      y,
                              double                      height,
                              double                      vmin,
                              double                      vmax,
                              const JvmsColor            *color);

/* Points closer than this many pixels to the last marked one are not marked. */
#define JVMS_SAMPLED_LINE_MARK_SPACING 6
#define JVMS_SAMPLED_LINE_MARK_SIZE 5

G_END_DECLS
