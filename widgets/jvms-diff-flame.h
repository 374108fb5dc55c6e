/* jvms-diff-flame.h: the differential flame graph (docs/compare.md, "The differential flame
 * graph"): the other trace's flame graph (an icicle: widths from the other's samples, as the
 * profiler's flame graph draws them, jvms-flame-layout.h) with each frame coloured by how its
 * share of the samples changed from the baseline (jvms-compare-profile.h): vermillion where it
 * grew, blue where it shrank (the Okabe-Ito pair that the colour-vision deficiencies keep
 * apart), the stronger the larger the change against the largest change of the graph; grey
 * where it did not change. Frames that the baseline had and the other has not are not drawn
 * (they have no width); `jvmscope-cli compare --profile` lists them.
 *
 * Pointer: hover shows the frame's method, its share on each side and the change; a click
 * zooms into a frame, a click on the root (or a full-width row above) zooms out to it.
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-compare-profile.h"
#include "jvms-palette.h"

G_BEGIN_DECLS

#define JVMS_TYPE_DIFF_FLAME (jvms_diff_flame_get_type ())
G_DECLARE_FINAL_TYPE (JvmsDiffFlame, jvms_diff_flame, JVMS, DIFF_FLAME, GtkWidget)

GtkWidget       *jvms_diff_flame_new        (void);
/* Takes @diff (NULL: empty). */
void             jvms_diff_flame_set_diff   (JvmsDiffFlame   *self,
                                             JvmsProfileDiff *diff);
JvmsProfileDiff *jvms_diff_flame_get_diff   (JvmsDiffFlame   *self);
guint32          jvms_diff_flame_get_zoom   (JvmsDiffFlame   *self);
/* The fill of a frame whose share changed by @change, the largest |change| being @scale. */
JvmsColor        jvms_diff_flame_color      (const JvmsPalette *palette,
                                             double             change,
                                             double             scale);
/* What the tooltip over node @node of the other tree says. */
char            *jvms_diff_flame_describe   (JvmsDiffFlame   *self,
                                             guint32          node);
/* For the state dump: the frames drawn, "PATH\tCHANGE\tX\tW\tROW\n" (%.17g), at most @limit
 * (0: all), widest first. */
char            *jvms_diff_flame_describe_frames (JvmsDiffFlame *self,
                                                  guint          limit);

G_END_DECLS
