/* jvms-flame-graph.c: the flame graph widget (see the header). */
#include "config.h"

#include "jvms-flame-graph.h"

#include <glib/gi18n.h>
#include <string.h>

#include "jvms-flame-colors.h"
#include "jvms-profile-format.h"
#include "jvms-timeline.h"

#define ROW_H JVMS_FLAME_GRAPH_ROW_HEIGHT
#define MIN_WIDTH JVMS_FLAME_MIN_WIDTH

struct _JvmsFlameGraph
{
  GtkWidget           parent_instance;

  JvmsCallTree       *tree;
  guint32             zoom;
  guint32             selected;
  guint               n_rows;       /* rows below the zoom, culled or not: the height */
  char               *search;
  guint8             *matches;      /* a byte per node, NULL without a search */
  guint64             search_weight;
  JvmsFlameColorMode  color_mode;

  /* The geometry for the current width, and what was drawn from it. */
  JvmsFlameLayout    *layout;
  GskRenderNode      *rendered;
  gboolean            rendered_dark;

  int                 hover;        /* rect index, -1 */
};

enum
{
  PROP_0,
  PROP_TREE,
  PROP_ZOOM,
  PROP_SELECTED,
  PROP_SEARCH,
  PROP_SEARCH_WEIGHT,
  PROP_COLOR_MODE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (JvmsFlameGraph, jvms_flame_graph, GTK_TYPE_WIDGET)

/* ---- what changes invalidates ----------------------------------------------------------------- */

/* The drawing only: colours, search, theme. */
static void
invalidate_drawing (JvmsFlameGraph *self)
{
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The geometry: tree, zoom, width. */
static void
invalidate_layout (JvmsFlameGraph *self)
{
  g_clear_pointer (&self->layout, jvms_flame_layout_free);
  self->hover = -1;
  invalidate_drawing (self);
}

static guint
subtree_rows (JvmsCallTree *tree, guint32 top)
{
  if (tree == NULL)
    return 0;
  guint n = jvms_call_tree_get_n_nodes (tree);
  guint top_depth = jvms_call_tree_get_node (tree, top)->depth, deepest = top_depth;
  /* Parents come before their children: one pass marks the subtree. */
  g_autofree guint8 *inside = g_new0 (guint8, MAX (n, 1));
  inside[top] = 1;
  for (guint i = top + 1; i < n; i++)
    {
      const JvmsCallTreeNode *node = jvms_call_tree_get_node (tree, i);
      if (node->parent != JVMS_CALL_TREE_NONE && inside[node->parent])
        {
          inside[i] = 1;
          deepest = MAX (deepest, node->depth);
        }
    }
  return deepest + 1;
}

static void
update_accessible (JvmsFlameGraph *self)
{
  g_autofree char *description = NULL;
  if (self->tree != NULL && self->selected != JVMS_CALL_TREE_NONE)
    description = jvms_flame_graph_describe_node (self, self->selected);
  else if (self->tree != NULL && self->zoom != 0)
    description = jvms_flame_graph_describe_node (self, self->zoom);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description != NULL ? description : "",
                                  -1);
}

/* ---- geometry and drawing ------------------------------------------------------------------- */

static JvmsFlameLayout *
ensure_layout (JvmsFlameGraph *self, int width)
{
  if (self->tree == NULL || width <= 0)
    return NULL;
  if (self->layout != NULL && jvms_flame_layout_get_width (self->layout) == width)
    return self->layout;
  g_clear_pointer (&self->layout, jvms_flame_layout_free);
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  self->hover = -1;
  self->layout = jvms_flame_layout_new (self->tree, self->zoom, width, MIN_WIDTH);
  return self->layout;
}

/* What the paint functions need of the widget's state. */
static JvmsFlamePaint
paint_of (JvmsFlameGraph *self)
{
  return (JvmsFlamePaint) { self->tree, self->zoom, self->color_mode, self->matches };
}

static void
draw_frames (JvmsFlameGraph *self, JvmsFlameLayout *layout, cairo_t *cr, gboolean dark)
{
  JvmsFlamePaint paint = paint_of (self);
  jvms_flame_paint_draw (&paint, layout, cr, dark);
}

static void
jvms_flame_graph_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  JvmsFlameGraph *self = JVMS_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  JvmsFlameLayout *layout = ensure_layout (self, width);
  gboolean dark = jvms_palette_system_is_dark ();

  if (layout == NULL)
    return;
  if (self->rendered != NULL && self->rendered_dark != dark)
    g_clear_pointer (&self->rendered, gsk_render_node_unref);
  if (self->rendered == NULL)
    {
      int height = jvms_flame_layout_get_n_rows (layout) * ROW_H;
      g_autoptr(GtkSnapshot) child = gtk_snapshot_new ();
      cairo_t *cr = gtk_snapshot_append_cairo (child, &GRAPHENE_RECT_INIT (0, 0, width, height));
      draw_frames (self, layout, cr, dark);
      cairo_destroy (cr);
      self->rendered = gtk_snapshot_free_to_node (g_steal_pointer (&child));
      self->rendered_dark = dark;
    }
  gtk_snapshot_append_node (snapshot, self->rendered);

  /* Hover and selection over the cached frames. */
  const JvmsPalette *palette = jvms_palette_get (dark);
  if (self->hover >= 0 && (guint) self->hover < jvms_flame_layout_get_n_rects (layout))
    {
      const JvmsFlameRect *r = jvms_flame_layout_get_rect (layout, self->hover);
      GdkRGBA veil = { 1, 1, 1, 0.35 };
      gtk_snapshot_append_color (snapshot, &veil,
                                 &GRAPHENE_RECT_INIT (r->x, r->row * ROW_H, r->width, ROW_H - 1));
    }
  int selected = self->selected != JVMS_CALL_TREE_NONE
    ? jvms_flame_layout_find_node (layout, self->selected) : -1;
  if (selected >= 0)
    {
      const JvmsFlameRect *r = jvms_flame_layout_get_rect (layout, selected);
      /* The labels' colour, not the theme's: the outline lies on the frame's own light fill
       * (the theme's foreground is light in the dark theme and vanished there). */
      JvmsColor ink = jvms_flame_color_text (palette);
      GdkRGBA edge = { ink.r, ink.g, ink.b, 1 };
      float line = gtk_widget_has_focus (widget) ? 3 : 2;
      GskRoundedRect outline;
      gsk_rounded_rect_init_from_rect (&outline,
                                       &GRAPHENE_RECT_INIT (r->x, r->row * ROW_H,
                                                            MAX (r->width - 1, 1), ROW_H - 1), 0);
      gtk_snapshot_append_border (snapshot, &outline,
                                  (float[4]) { line, line, line, line },
                                  (GdkRGBA[4]) { edge, edge, edge, edge });
    }
}

int
jvms_flame_graph_render (JvmsFlameGraph *self, cairo_t *cr, int width, gboolean dark)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), 0);
  if (self->tree == NULL || width <= 0)
    return 0;
  g_autoptr(JvmsFlameLayout) layout = jvms_flame_layout_new (self->tree, self->zoom, width, MIN_WIDTH);
  int height = jvms_flame_layout_get_n_rows (layout) * ROW_H;
  if (cr != NULL)
    draw_frames (self, layout, cr, dark);
  return height;
}

gboolean
jvms_flame_graph_write (JvmsFlameGraph *self, int width, gboolean dark, GFile *file, GError **error)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), FALSE);
  if (self->tree == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: no profile is shown"), name);
      return FALSE;
    }
  JvmsFlamePaint paint = paint_of (self);
  return jvms_flame_paint_write (&paint, width, dark, file, error);
}

static void
jvms_flame_graph_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                          int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  JvmsFlameGraph *self = JVMS_FLAME_GRAPH (widget);
  if (orientation == GTK_ORIENTATION_VERTICAL)
    *minimum = *natural = (int) self->n_rows * ROW_H;
  else
    {
      *minimum = 100;
      *natural = 600;
    }
}

static void
jvms_flame_graph_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  JvmsFlameGraph *self = JVMS_FLAME_GRAPH (widget);
  if (self->layout != NULL && jvms_flame_layout_get_width (self->layout) != width)
    invalidate_layout (self);
}

/* ---- text ----------------------------------------------------------------------------------- */

char *
jvms_flame_graph_describe_node (JvmsFlameGraph *self, guint32 index)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), NULL);
  g_return_val_if_fail (self->tree != NULL && index < jvms_call_tree_get_n_nodes (self->tree), NULL);

  JvmsFlamePaint paint = paint_of (self);
  return jvms_flame_paint_describe (&paint, index);
}

static gboolean
jvms_flame_graph_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                                GtkTooltip *tooltip)
{
  JvmsFlameGraph *self = JVMS_FLAME_GRAPH (widget);
  int index = -1;
  if (keyboard && self->selected != JVMS_CALL_TREE_NONE && self->layout != NULL)
    index = jvms_flame_layout_find_node (self->layout, self->selected);
  else if (self->layout != NULL && y >= 0)
    index = jvms_flame_layout_find (self->layout, x, (guint) (y / ROW_H));
  if (index < 0)
    return FALSE;
  const JvmsFlameRect *r = jvms_flame_layout_get_rect (self->layout, index);
  g_autofree char *text = jvms_flame_graph_describe_node (self, r->node);
  gtk_tooltip_set_text (tooltip, text);
  gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { (int) r->x, (int) r->row * ROW_H,
                                                       MAX ((int) r->width, 1), ROW_H });
  return TRUE;
}

/* ---- input ---------------------------------------------------------------------------------- */

static int
rect_at (JvmsFlameGraph *self, double x, double y)
{
  if (self->layout == NULL || y < 0)
    return -1;
  return jvms_flame_layout_find (self->layout, x, (guint) (y / ROW_H));
}

static void
motion (GtkEventControllerMotion *controller, double x, double y, JvmsFlameGraph *self)
{
  int hover = rect_at (self, x, y);
  if (hover != self->hover)
    {
      self->hover = hover;
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), hover >= 0 ? "pointer" : NULL);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave (GtkEventControllerMotion *controller, JvmsFlameGraph *self)
{
  if (self->hover != -1)
    {
      self->hover = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
pressed (GtkGestureClick *gesture, int n_press, double x, double y, JvmsFlameGraph *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  int index = rect_at (self, x, y);
  if (index < 0)
    return;
  guint32 node = jvms_flame_layout_get_rect (self->layout, index)->node;
  /* The root, the zoomed frame and the rows above it: back out to it (the root: all). */
  jvms_flame_graph_set_selected (self, node == 0 ? JVMS_CALL_TREE_NONE : node);
  jvms_flame_graph_set_zoom (self, node);
}

/* The drawn frame next to the selected one in a direction, or NONE. */
static guint32
neighbour (JvmsFlameGraph *self, guint keyval)
{
  JvmsFlameLayout *layout = self->layout;
  guint32 current = self->selected != JVMS_CALL_TREE_NONE ? self->selected : self->zoom;
  int index = layout != NULL ? jvms_flame_layout_find_node (layout, current) : -1;
  if (index < 0)
    return self->zoom;
  const JvmsFlameRect *r = jvms_flame_layout_get_rect (layout, index);
  const JvmsCallTreeNode *node = jvms_call_tree_get_node (self->tree, r->node);
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      return node->parent != JVMS_CALL_TREE_NONE && node->parent != 0 ? node->parent : JVMS_CALL_TREE_NONE;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      return node->first_child != JVMS_CALL_TREE_NONE
             && jvms_flame_layout_find_node (layout, node->first_child) >= 0
             ? node->first_child : JVMS_CALL_TREE_NONE;
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      {
        gboolean left = keyval == GDK_KEY_Left || keyval == GDK_KEY_KP_Left;
        int next = index + (left ? -1 : 1);
        if (next < 0 || (guint) next >= jvms_flame_layout_get_n_rects (layout))
          return JVMS_CALL_TREE_NONE;
        const JvmsFlameRect *n = jvms_flame_layout_get_rect (layout, next);
        return n->row == r->row ? n->node : JVMS_CALL_TREE_NONE;
      }
    default:
      return JVMS_CALL_TREE_NONE;
    }
}

static gboolean
key_pressed (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
             JvmsFlameGraph *self)
{
  if (self->tree == NULL || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Up: case GDK_KEY_KP_Up:
    case GDK_KEY_Down: case GDK_KEY_KP_Down:
    case GDK_KEY_Left: case GDK_KEY_KP_Left:
    case GDK_KEY_Right: case GDK_KEY_KP_Right:
      {
        guint32 next = neighbour (self, keyval);
        if (next != JVMS_CALL_TREE_NONE)
          jvms_flame_graph_set_selected (self, next);
        return TRUE;
      }
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
      if (self->selected != JVMS_CALL_TREE_NONE)
        jvms_flame_graph_set_zoom (self, self->selected);
      return TRUE;
    case GDK_KEY_BackSpace:
      jvms_flame_graph_zoom_out (self);
      return TRUE;
    case GDK_KEY_Home:
      jvms_flame_graph_set_zoom (self, 0);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
focus_changed (JvmsFlameGraph *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- API ------------------------------------------------------------------------------------ */

GtkWidget *
jvms_flame_graph_new (void)
{
  return g_object_new (JVMS_TYPE_FLAME_GRAPH, NULL);
}

/* The methods from the root down to @node in @tree. */
static GArray *
method_path (JvmsCallTree *tree, guint32 node)
{
  GArray *path = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 n = node; n != 0 && n != JVMS_CALL_TREE_NONE; n = jvms_call_tree_get_node (tree, n)->parent)
    g_array_prepend_val (path, jvms_call_tree_get_node (tree, n)->method);
  return path;
}

/* The node of @tree at the end of @path, or the deepest one on the way that exists. */
static guint32
follow_path (JvmsCallTree *tree, GArray *path, gboolean *complete)
{
  guint32 node = 0;
  *complete = TRUE;
  for (guint i = 0; i < path->len; i++)
    {
      guint32 want = g_array_index (path, guint32, i), c;
      for (c = jvms_call_tree_get_node (tree, node)->first_child; c != JVMS_CALL_TREE_NONE;
           c = jvms_call_tree_get_node (tree, c)->next_sibling)
        if (jvms_call_tree_get_node (tree, c)->method == want)
          break;
      if (c == JVMS_CALL_TREE_NONE)
        {
          *complete = FALSE;
          break;
        }
      node = c;
    }
  return node;
}

static void
recompute_search (JvmsFlameGraph *self)
{
  g_clear_pointer (&self->matches, g_free);
  guint64 weight = 0;
  if (self->tree != NULL && self->search != NULL && *self->search != '\0')
    {
      self->matches = g_new0 (guint8, MAX (jvms_call_tree_get_n_nodes (self->tree), 1));
      weight = jvms_flame_search (self->tree, self->search, self->matches);
    }
  if (weight != self->search_weight)
    {
      self->search_weight = weight;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_WEIGHT]);
    }
  invalidate_drawing (self);
}

void
jvms_flame_graph_set_tree (JvmsFlameGraph *self, JvmsCallTree *tree)
{
  g_return_if_fail (JVMS_IS_FLAME_GRAPH (self));
  g_return_if_fail (tree == NULL || JVMS_IS_CALL_TREE (tree));

  if (tree == self->tree)
    return;
  /* The same methods in the new tree, by their path from the root: a new range or other
   * threads keep what the user looks at when it is still there. */
  g_autoptr(GArray) zoom_path = self->tree != NULL ? method_path (self->tree, self->zoom) : NULL;
  g_autoptr(GArray) selected_path = self->tree != NULL && self->selected != JVMS_CALL_TREE_NONE
    ? method_path (self->tree, self->selected) : NULL;
  g_set_object (&self->tree, tree);
  guint32 zoom = 0, selected = JVMS_CALL_TREE_NONE;
  gboolean complete;
  if (tree != NULL && zoom_path != NULL)
    zoom = follow_path (tree, zoom_path, &complete);
  if (tree != NULL && selected_path != NULL)
    {
      selected = follow_path (tree, selected_path, &complete);
      if (!complete || selected == 0)
        selected = JVMS_CALL_TREE_NONE;
    }
  self->zoom = zoom;
  self->selected = selected;
  self->n_rows = subtree_rows (tree, zoom);
  invalidate_layout (self);
  recompute_search (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

JvmsCallTree *
jvms_flame_graph_get_tree (JvmsFlameGraph *self)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), NULL);
  return self->tree;
}

void
jvms_flame_graph_set_zoom (JvmsFlameGraph *self, guint32 node)
{
  g_return_if_fail (JVMS_IS_FLAME_GRAPH (self));
  if (self->tree == NULL || node >= jvms_call_tree_get_n_nodes (self->tree) || node == self->zoom)
    return;
  self->zoom = node;
  self->n_rows = subtree_rows (self->tree, node);
  invalidate_layout (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

guint32
jvms_flame_graph_get_zoom (JvmsFlameGraph *self)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), 0);
  return self->zoom;
}

gboolean
jvms_flame_graph_zoom_out (JvmsFlameGraph *self)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), FALSE);
  if (self->tree == NULL || self->zoom == 0)
    return FALSE;
  jvms_flame_graph_set_zoom (self, jvms_call_tree_get_node (self->tree, self->zoom)->parent);
  return TRUE;
}

void
jvms_flame_graph_set_selected (JvmsFlameGraph *self, guint32 node)
{
  g_return_if_fail (JVMS_IS_FLAME_GRAPH (self));
  if (self->tree == NULL || (node != JVMS_CALL_TREE_NONE && node >= jvms_call_tree_get_n_nodes (self->tree)))
    node = JVMS_CALL_TREE_NONE;
  if (node == self->selected)
    return;
  self->selected = node;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

guint32
jvms_flame_graph_get_selected (JvmsFlameGraph *self)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), JVMS_CALL_TREE_NONE);
  return self->selected;
}

void
jvms_flame_graph_set_search (JvmsFlameGraph *self, const char *text)
{
  g_return_if_fail (JVMS_IS_FLAME_GRAPH (self));
  if (text != NULL && *text == '\0')
    text = NULL;
  if (g_strcmp0 (text, self->search) == 0)
    return;
  g_free (self->search);
  self->search = g_strdup (text);
  recompute_search (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH]);
}

const char *
jvms_flame_graph_get_search (JvmsFlameGraph *self)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), NULL);
  return self->search;
}

guint64
jvms_flame_graph_get_search_weight (JvmsFlameGraph *self)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), 0);
  return self->search_weight;
}

gboolean
jvms_flame_graph_node_matches (JvmsFlameGraph *self, guint32 node)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), FALSE);
  return self->matches != NULL && self->tree != NULL
         && node < jvms_call_tree_get_n_nodes (self->tree) && self->matches[node];
}

void
jvms_flame_graph_set_color_mode (JvmsFlameGraph *self, JvmsFlameColorMode mode)
{
  g_return_if_fail (JVMS_IS_FLAME_GRAPH (self));
  if (mode == self->color_mode)
    return;
  self->color_mode = mode;
  invalidate_drawing (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_MODE]);
}

JvmsFlameColorMode
jvms_flame_graph_get_color_mode (JvmsFlameGraph *self)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), JVMS_FLAME_COLOR_PACKAGE);
  return self->color_mode;
}

JvmsFlameLayout *
jvms_flame_graph_get_layout (JvmsFlameGraph *self)
{
  g_return_val_if_fail (JVMS_IS_FLAME_GRAPH (self), NULL);
  return self->layout;
}

/* ---- GObject -------------------------------------------------------------------------------- */

static void
jvms_flame_graph_dispose (GObject *object)
{
  JvmsFlameGraph *self = JVMS_FLAME_GRAPH (object);
  g_clear_pointer (&self->layout, jvms_flame_layout_free);
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  g_clear_object (&self->tree);
  G_OBJECT_CLASS (jvms_flame_graph_parent_class)->dispose (object);
}

static void
jvms_flame_graph_finalize (GObject *object)
{
  JvmsFlameGraph *self = JVMS_FLAME_GRAPH (object);
  g_free (self->search);
  g_free (self->matches);
  G_OBJECT_CLASS (jvms_flame_graph_parent_class)->finalize (object);
}

static void
jvms_flame_graph_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsFlameGraph *self = JVMS_FLAME_GRAPH (object);
  switch (prop_id)
    {
    case PROP_TREE: g_value_set_object (value, self->tree); break;
    case PROP_ZOOM: g_value_set_uint (value, self->zoom); break;
    case PROP_SELECTED: g_value_set_uint (value, self->selected); break;
    case PROP_SEARCH: g_value_set_string (value, self->search); break;
    case PROP_SEARCH_WEIGHT: g_value_set_uint64 (value, self->search_weight); break;
    case PROP_COLOR_MODE: g_value_set_enum (value, self->color_mode); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_flame_graph_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  JvmsFlameGraph *self = JVMS_FLAME_GRAPH (object);
  switch (prop_id)
    {
    case PROP_TREE: jvms_flame_graph_set_tree (self, g_value_get_object (value)); break;
    case PROP_ZOOM: jvms_flame_graph_set_zoom (self, g_value_get_uint (value)); break;
    case PROP_SELECTED: jvms_flame_graph_set_selected (self, g_value_get_uint (value)); break;
    case PROP_SEARCH: jvms_flame_graph_set_search (self, g_value_get_string (value)); break;
    case PROP_COLOR_MODE: jvms_flame_graph_set_color_mode (self, g_value_get_enum (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_flame_graph_class_init (JvmsFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jvms_flame_graph_dispose;
  object_class->finalize = jvms_flame_graph_finalize;
  object_class->get_property = jvms_flame_graph_get_property;
  object_class->set_property = jvms_flame_graph_set_property;
  widget_class->snapshot = jvms_flame_graph_snapshot;
  widget_class->measure = jvms_flame_graph_measure;
  widget_class->size_allocate = jvms_flame_graph_size_allocate;
  widget_class->query_tooltip = jvms_flame_graph_query_tooltip;

  properties[PROP_TREE] =
    g_param_spec_object ("tree", NULL, NULL, JVMS_TYPE_CALL_TREE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_uint ("zoom", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED] =
    g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT32, JVMS_CALL_TREE_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEARCH] =
    g_param_spec_string ("search", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEARCH_WEIGHT] =
    g_param_spec_uint64 ("search-weight", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLOR_MODE] =
    g_param_spec_enum ("color-mode", NULL, NULL, JVMS_TYPE_FLAME_COLOR_MODE, JVMS_FLAME_COLOR_PACKAGE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
jvms_flame_graph_init (JvmsFlameGraph *self)
{
  self->selected = JVMS_CALL_TREE_NONE;
  self->hover = -1;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame graph"),
                                  -1);

  GtkEventController *m = gtk_event_controller_motion_new ();
  g_signal_connect (m, "motion", G_CALLBACK (motion), self);
  g_signal_connect (m, "enter", G_CALLBACK (motion), self);
  g_signal_connect (m, "leave", G_CALLBACK (leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), m);

  GtkGesture *click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  GtkEventController *keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  GtkEventController *focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (focus_changed), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (focus_changed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);
}
