/* jvms-flame-layout.c: the flame graph's rectangles (see the header). */
#include "jvms-flame-layout.h"

#include <string.h>

struct _JvmsFlameLayout
{
  JvmsCallTree *tree;
  guint32       zoom;
  double        width;
  guint         n_rows;
  GArray       *rects;      /* JvmsFlameRect, by row then x */
  guint        *row_start;  /* n_rows + 1: the rects of row r are [row_start[r], row_start[r + 1]) */
};

static const JvmsCallTreeNode *
node_at (JvmsCallTree *tree, guint32 index)
{
  return jvms_call_tree_get_node (tree, index);
}

/* The next node of a depth-first walk below @top, or NONE past its subtree; with
 * @skip_children, not into @node's children. */
static guint32
next_below (JvmsCallTree *tree, guint32 top, guint32 node, gboolean skip_children)
{
  const JvmsCallTreeNode *n = node_at (tree, node);
  if (!skip_children && n->first_child != JVMS_CALL_TREE_NONE)
    return n->first_child;
  while (node != top)
    {
      n = node_at (tree, node);
      if (n->next_sibling != JVMS_CALL_TREE_NONE)
        return n->next_sibling;
      node = n->parent;
    }
  return JVMS_CALL_TREE_NONE;
}

JvmsFlameLayout *
jvms_flame_layout_new (JvmsCallTree *tree, guint32 zoom, double width, double min_width)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE (tree), NULL);
  g_return_val_if_fail (zoom < jvms_call_tree_get_n_nodes (tree), NULL);

  JvmsFlameLayout *self = g_new0 (JvmsFlameLayout, 1);
  self->tree = g_object_ref (tree);
  self->zoom = zoom;
  self->width = width;
  g_autoptr(GArray) dfs = g_array_new (FALSE, FALSE, sizeof (JvmsFlameRect));

  /* The zoomed node and its ancestors, full width. */
  const JvmsCallTreeNode *z = node_at (tree, zoom);
  for (guint32 a = zoom; a != JVMS_CALL_TREE_NONE; a = node_at (tree, a)->parent)
    {
      JvmsFlameRect r = { a, node_at (tree, a)->depth, 0, width, JVMS_FLAME_RECT_ANCESTOR };
      g_array_prepend_val (dfs, r);
    }

  /* Its descendants, depth first: in each row they come left to right. A child's x is its
   * parent's plus the weight of its elder siblings, so that rounding does not drift along a
   * row. */
  guint max_depth = z->depth;
  double scale = z->total > 0 ? width / (double) z->total : 0;
  /* By level below the zoom: the drawn parent's x (xs[level - 1]) and the weight of the elder
   * siblings of the node visited on that level (elder[level]). */
  g_autoptr(GArray) xs = g_array_new (FALSE, TRUE, sizeof (double));
  g_autoptr(GArray) elder = g_array_new (FALSE, TRUE, sizeof (guint64));
  g_array_set_size (xs, 1);
  for (guint32 node = scale > 0 ? z->first_child : JVMS_CALL_TREE_NONE; node != JVMS_CALL_TREE_NONE;)
    {
      const JvmsCallTreeNode *n = node_at (tree, node);
      guint level = n->depth - z->depth;
      if (xs->len <= level)
        {
          g_array_set_size (xs, level + 1);
          g_array_set_size (elder, level + 1);
        }
      if (node_at (tree, n->parent)->first_child == node)
        g_array_index (elder, guint64, level) = 0;
      double x = g_array_index (xs, double, level - 1)
                 + (double) g_array_index (elder, guint64, level) * scale;
      double w = (double) n->total * scale;
      g_array_index (elder, guint64, level) += n->total;
      gboolean drawn = w >= min_width && w > 0;
      if (drawn)
        {
          JvmsFlameRect r = { node, n->depth, x, w, 0 };
          g_array_append_val (dfs, r);
          g_array_index (xs, double, level) = x;
          node = next_below (tree, zoom, node, FALSE);
        }
      else
        {
          /* Children are heaviest first: the younger siblings are narrower still. */
          node = n->parent;
          node = node == zoom ? JVMS_CALL_TREE_NONE : next_below (tree, zoom, node, TRUE);
        }
    }
  /* Rows of culled descendants too: the height stays when the width changes. */
  for (guint32 d = z->first_child; d != JVMS_CALL_TREE_NONE; d = next_below (tree, zoom, d, FALSE))
    max_depth = MAX (max_depth, node_at (tree, d)->depth);

  /* Stable by row: within a row, the walk's order is left to right. */
  self->n_rows = max_depth + 1;
  self->row_start = g_new0 (guint, self->n_rows + 1);
  for (guint i = 0; i < dfs->len; i++)
    self->row_start[g_array_index (dfs, JvmsFlameRect, i).row + 1]++;
  for (guint r = 0; r < self->n_rows; r++)
    self->row_start[r + 1] += self->row_start[r];
  g_autofree guint *fill = g_memdup2 (self->row_start, sizeof (guint) * (self->n_rows + 1));
  self->rects = g_array_sized_new (FALSE, FALSE, sizeof (JvmsFlameRect), dfs->len);
  g_array_set_size (self->rects, dfs->len);
  for (guint i = 0; i < dfs->len; i++)
    {
      const JvmsFlameRect *r = &g_array_index (dfs, JvmsFlameRect, i);
      g_array_index (self->rects, JvmsFlameRect, fill[r->row]++) = *r;
    }
  return self;
}

void
jvms_flame_layout_free (JvmsFlameLayout *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->tree);
  g_clear_pointer (&self->rects, g_array_unref);
  g_free (self->row_start);
  g_free (self);
}

JvmsCallTree *jvms_flame_layout_get_tree (JvmsFlameLayout *self) { return self->tree; }
guint32 jvms_flame_layout_get_zoom (JvmsFlameLayout *self) { return self->zoom; }
double jvms_flame_layout_get_width (JvmsFlameLayout *self) { return self->width; }
guint jvms_flame_layout_get_n_rows (JvmsFlameLayout *self) { return self->n_rows; }
guint jvms_flame_layout_get_n_rects (JvmsFlameLayout *self) { return self->rects->len; }

const JvmsFlameRect *
jvms_flame_layout_get_rect (JvmsFlameLayout *self, guint index)
{
  g_return_val_if_fail (index < self->rects->len, NULL);
  return &g_array_index (self->rects, JvmsFlameRect, index);
}

int
jvms_flame_layout_find (JvmsFlameLayout *self, double x, guint row)
{
  if (row >= self->n_rows)
    return -1;
  guint a = self->row_start[row], b = self->row_start[row + 1];
  /* The first rect whose right edge lies past x. */
  while (a < b)
    {
      guint mid = a + (b - a) / 2;
      const JvmsFlameRect *r = &g_array_index (self->rects, JvmsFlameRect, mid);
      if (r->x + r->width <= x)
        a = mid + 1;
      else
        b = mid;
    }
  if (a >= self->row_start[row + 1])
    return -1;
  const JvmsFlameRect *r = &g_array_index (self->rects, JvmsFlameRect, a);
  return x >= r->x ? (int) a : -1;
}

int
jvms_flame_layout_find_node (JvmsFlameLayout *self, guint32 node)
{
  if (node >= jvms_call_tree_get_n_nodes (self->tree))
    return -1;
  guint row = node_at (self->tree, node)->depth;
  if (row >= self->n_rows)
    return -1;
  for (guint i = self->row_start[row]; i < self->row_start[row + 1]; i++)
    if (g_array_index (self->rects, JvmsFlameRect, i).node == node)
      return (int) i;
  return -1;
}

guint64
jvms_flame_search (JvmsCallTree *tree, const char *text, guint8 *matches)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE (tree), 0);
  guint n = jvms_call_tree_get_n_nodes (tree);
  memset (matches, 0, n);
  if (text == NULL || *text == '\0')
    return 0;

  g_autofree char *needle = g_utf8_casefold (text, -1);
  /* Per method, not per node: a method is on many paths. */
  g_autoptr(GHashTable) by_method = g_hash_table_new (NULL, NULL);
  g_autofree guint8 *covered = g_new0 (guint8, MAX (n, 1));
  guint64 weight = 0;
  /* Parents come before their children in the node array. */
  for (guint i = 1; i < n; i++)
    {
      const JvmsCallTreeNode *node = node_at (tree, i);
      gpointer found;
      if (!g_hash_table_lookup_extended (by_method, GUINT_TO_POINTER (node->method), NULL, &found))
        {
          g_autofree char *name = g_utf8_casefold (jvms_call_tree_get_method_name (tree, node->method), -1);
          found = GINT_TO_POINTER (strstr (name, needle) != NULL ? 1 : 2);
          g_hash_table_insert (by_method, GUINT_TO_POINTER (node->method), found);
        }
      matches[i] = GPOINTER_TO_INT (found) == 1;
      covered[i] = node->parent != 0 && (covered[node->parent] || matches[node->parent]);
      if (matches[i] && !covered[i])
        weight += node->total;
    }
  return weight;
}
