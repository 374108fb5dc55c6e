/* jvms-flame-paint.h: how a flame graph's frames look (fill, label, tooltip text) and their
 * drawing, with cairo for the widget and PNG files, and as an SVG document. Plain functions
 * over a call tree and a JvmsFlameLayout, no widget: the window's flame graph, its export and
 * `jvmscope-cli profile --flame` all draw through them (docs/profile.md), and no display is
 * needed to write a file.
 *
 * Why an SVG of our own rather than cairo's SVG surface: cairo writes text as glyph outlines,
 * so its SVG could not be searched, its labels not read by a program, and it has no tooltip.
 * Ours has, per frame, a group with the frame's tooltip as <title> (the method, its total and
 * self weights: what flamegraph.pl's SVGs carry), its rectangle, and its label as <text>
 * clipped to the frame; the geometry, fills and labels are those the cairo path draws. */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "jvms-call-tree.h"
#include "jvms-flame-layout.h"
#include "jvms-palette.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_FLAME_COLOR_PACKAGE,       /* a hue per package */
  JVMS_FLAME_COLOR_FRAME_KIND,    /* interpreted, JIT-compiled, inlined, native */
  JVMS_FLAME_COLOR_KERNEL_STATE,  /* CPU kinds with a kernel layer: on CPU against waiting */
} JvmsFlameColorMode;

#define JVMS_TYPE_FLAME_COLOR_MODE (jvms_flame_color_mode_get_type ())
GType jvms_flame_color_mode_get_type (void) G_GNUC_CONST;

/* Height of a row of frames, in pixels. */
#define JVMS_FLAME_ROW_HEIGHT 18
/* Frames narrower than this many pixels are not drawn (nor anything below them). */
#define JVMS_FLAME_MIN_WIDTH 0.5

/* What the drawing depends on besides the layout. */
typedef struct
{
  JvmsCallTree       *tree;
  guint32             zoom;         /* the node drawn full width: its share in tooltips */
  JvmsFlameColorMode  color_mode;
  const guint8       *matches;      /* a byte per node from jvms_flame_search, or NULL */
} JvmsFlamePaint;

JvmsColor  jvms_flame_paint_color    (const JvmsFlamePaint *paint,
                                      const JvmsPalette    *palette,
                                      guint32               node);
/* The label drawn in the frame: the method without its package ("HashMap.get"), the root's
 * "All: weight". */
char      *jvms_flame_paint_label    (const JvmsFlamePaint *paint,
                                      guint32               node);
/* The tooltip: the method, total and self with their shares, kernel states, frame kinds. */
char      *jvms_flame_paint_describe (const JvmsFlamePaint *paint,
                                      guint32               node);
/* Every frame of @layout into @cr, from (0, 0), without a background. */
void       jvms_flame_paint_draw     (const JvmsFlamePaint *paint,
                                      JvmsFlameLayout      *layout,
                                      cairo_t              *cr,
                                      gboolean              dark);
/* The SVG document of @layout on the theme's background. */
char      *jvms_flame_paint_to_svg   (const JvmsFlamePaint *paint,
                                      JvmsFlameLayout      *layout,
                                      gboolean              dark);
/* The flame graph @width pixels wide into @file: SVG when its name ends in .svg, else PNG, on
 * the theme's background. An error names the file. */
gboolean   jvms_flame_paint_write    (const JvmsFlamePaint *paint,
                                      int                   width,
                                      gboolean              dark,
                                      GFile                *file,
                                      GError              **error);

G_END_DECLS
