/* jvms-flame-layout.h: where the frames of a flame graph go, computed once per call tree, zoom
 * and width (the flame graph widget draws from it and finds the frame under the pointer in it).
 *
 * An icicle: the root ("all") on row 0, each node on the row of its depth below its parent, as
 * wide as its total weight. Zoomed into node Z, Z and its ancestors span the whole width on the
 * rows above, and Z's descendants share that width by their totals. Frames narrower than
 * @min_width pixels are left out with everything below them. Plain data, no GTK: the tests
 * check it against a naive computation.
 */
#pragma once

#include "jvms-call-tree.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_FLAME_RECT_ANCESTOR = 1 << 0,   /* the zoomed node or above it: drawn full width */
} JvmsFlameRectFlags;

typedef struct
{
  guint32 node;                         /* in the call tree */
  guint   row;                          /* the node's depth; 0 is the root */
  double  x, width;                     /* pixels */
  guint   flags;
} JvmsFlameRect;

typedef struct _JvmsFlameLayout JvmsFlameLayout;

/* @zoom: a node of @tree (0: the whole tree). */
JvmsFlameLayout     *jvms_flame_layout_new        (JvmsCallTree    *tree,
                                                   guint32          zoom,
                                                   double           width,
                                                   double           min_width);
void                 jvms_flame_layout_free       (JvmsFlameLayout *self);

JvmsCallTree        *jvms_flame_layout_get_tree   (JvmsFlameLayout *self);
guint32              jvms_flame_layout_get_zoom   (JvmsFlameLayout *self);
double               jvms_flame_layout_get_width  (JvmsFlameLayout *self);
/* Rows of the tallest stack below the zoom (culled or not), so that the height does not jump
 * when the width changes. */
guint                jvms_flame_layout_get_n_rows (JvmsFlameLayout *self);

/* Rectangles by row, then left to right. */
guint                jvms_flame_layout_get_n_rects (JvmsFlameLayout *self);
const JvmsFlameRect *jvms_flame_layout_get_rect   (JvmsFlameLayout *self,
                                                   guint            index);
/* The rectangle at @x on @row, or -1. */
int                  jvms_flame_layout_find       (JvmsFlameLayout *self,
                                                   double           x,
                                                   guint            row);
/* The rectangle of @node, or -1 when it is not drawn. */
int                  jvms_flame_layout_find_node  (JvmsFlameLayout *self,
                                                   guint32          node);

/* Search: sets @matches[i] (one byte per node of @tree) when node i's method name contains
 * @text, ignoring case; returns the weight of the stacks that hold a match, each counted once
 * (the totals of the matching nodes that have no matching ancestor). An empty @text matches
 * nothing. */
guint64              jvms_flame_search            (JvmsCallTree    *tree,
                                                   const char      *text,
                                                   guint8          *matches);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsFlameLayout, jvms_flame_layout_free)

G_END_DECLS
