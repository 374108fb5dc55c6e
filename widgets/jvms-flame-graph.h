/* jvms-flame-graph.h: a call tree as an icicle flame graph: the root ("all") at the top, each
 * frame below its caller, as wide as its total weight (Sysprof's habit: rectangles computed
 * once per tree, zoom and width in a JvmsFlameLayout, drawn once into a cached render node;
 * the pointer's frame found by lookup in the layout).
 *
 * Pointer: hover shows the frame's method, self and total with their shares; a click selects
 * a frame and zooms into it; a click on a full-width row above zooms back out to it.
 * Keyboard: arrows move the selection (Up: caller, Down: heaviest callee, Left/Right: the
 * neighbours on the row), Return zooms into the selected frame, BackSpace zooms out one frame,
 * Home shows the whole tree.
 *
 * Properties (EXPLICIT_NOTIFY):
 *   tree          JvmsCallTree*  (read-write; NULL: empty)
 *   zoom          guint          the node shown full width (0: the root)
 *   selected      guint          the selected node, JVMS_CALL_TREE_NONE for none
 *   search        char*          frames whose method contains it are highlighted, the rest
 *                                greyed
 *   search-weight guint64        (read-only) the weight of the stacks holding a match
 *   color-mode    JvmsFlameColorMode
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-call-tree.h"
#include "jvms-flame-layout.h"
#include "jvms-flame-paint.h"

G_BEGIN_DECLS

/* Height of a row of frames, in pixels. */
#define JVMS_FLAME_GRAPH_ROW_HEIGHT JVMS_FLAME_ROW_HEIGHT

#define JVMS_TYPE_FLAME_GRAPH (jvms_flame_graph_get_type ())
G_DECLARE_FINAL_TYPE (JvmsFlameGraph, jvms_flame_graph, JVMS, FLAME_GRAPH, GtkWidget)

GtkWidget          *jvms_flame_graph_new              (void);

/* A new tree keeps the zoom and the selection on the same path of methods when it has one. */
void                jvms_flame_graph_set_tree         (JvmsFlameGraph     *self,
                                                       JvmsCallTree       *tree);
JvmsCallTree       *jvms_flame_graph_get_tree         (JvmsFlameGraph     *self);
void                jvms_flame_graph_set_zoom         (JvmsFlameGraph     *self,
                                                       guint32             node);
guint32             jvms_flame_graph_get_zoom         (JvmsFlameGraph     *self);
/* To the zoomed frame's caller; FALSE when the whole tree is shown already. */
gboolean            jvms_flame_graph_zoom_out         (JvmsFlameGraph     *self);
void                jvms_flame_graph_set_selected     (JvmsFlameGraph     *self,
                                                       guint32             node);
guint32             jvms_flame_graph_get_selected     (JvmsFlameGraph     *self);
void                jvms_flame_graph_set_search       (JvmsFlameGraph     *self,
                                                       const char         *text);
const char         *jvms_flame_graph_get_search       (JvmsFlameGraph     *self);
guint64             jvms_flame_graph_get_search_weight (JvmsFlameGraph    *self);
/* Whether node @node matches the search (FALSE without one). */
gboolean            jvms_flame_graph_node_matches     (JvmsFlameGraph     *self,
                                                       guint32             node);
void                jvms_flame_graph_set_color_mode   (JvmsFlameGraph     *self,
                                                       JvmsFlameColorMode  mode);
JvmsFlameColorMode  jvms_flame_graph_get_color_mode   (JvmsFlameGraph     *self);

/* The layout drawn at the widget's width (NULL before the first frame or without a tree). */
JvmsFlameLayout    *jvms_flame_graph_get_layout       (JvmsFlameGraph     *self);
/* What the tooltip over @node says. */
char               *jvms_flame_graph_describe_node    (JvmsFlameGraph     *self,
                                                       guint32             node);
/* Draws the flame graph @width pixels wide into @cr: returns its height. With @cr NULL, only
 * the height. */
int                 jvms_flame_graph_render           (JvmsFlameGraph     *self,
                                                       cairo_t            *cr,
                                                       int                 width,
                                                       gboolean            dark);
/* The export: the flame graph as shown (zoom, colours, search), @width pixels wide, into
 * @file as SVG or PNG by its name (jvms_flame_paint_write). */
gboolean            jvms_flame_graph_write            (JvmsFlameGraph     *self,
                                                       int                 width,
                                                       gboolean            dark,
                                                       GFile              *file,
                                                       GError            **error);

G_END_DECLS
