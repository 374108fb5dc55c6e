/* jvms-call-tree-focus.c: a method's callers and callees as trees of their own (see the
 * header). Both walk the profile's tree once, depth first, counting on the current path the
 * frames of the method, so that only its outermost frames start a merge. */
#include "jvms-call-tree-focus.h"

#include "jvms-call-tree-private.h"
#include "jvms-samples-private.h"

guint32
jvms_call_tree_find_method (JvmsCallTree *tree, const char *name)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE (tree), JVMS_CALL_TREE_NONE);
  g_return_val_if_fail (name != NULL, JVMS_CALL_TREE_NONE);

  for (guint i = 0; i < jvms_call_tree_get_n_methods (tree); i++)
    {
      guint32 method = jvms_call_tree_get_method_row (tree, i)->method;
      if (g_str_equal (jvms_call_tree_get_method_name (tree, method), name))
        return method;
    }
  return JVMS_CALL_TREE_NONE;
}

/* The derived tree being made: its nodes and the map (parent, method) -> node. */
typedef struct
{
  GArray           *nodes;
  JvmsSamplesIdMap  children;
} Derived;

static void
derived_init (Derived *d)
{
  d->nodes = g_array_new (FALSE, TRUE, sizeof (JvmsCallTreeNode));
  JvmsCallTreeNode root = { .method = JVMS_CALL_TREE_NONE, .parent = JVMS_CALL_TREE_NONE };
  g_array_append_val (d->nodes, root);
  jvms_samples_idmap_init (&d->children);
}

static guint32
derived_child (Derived *d, guint32 parent, guint32 method)
{
  JvmsSamplesIdSlot *slot;
  guint32 node = jvms_samples_idmap_lookup (&d->children, parent, method, &slot);
  if (node != JVMS_SAMPLES_NONE)
    return node;
  node = d->nodes->len;
  JvmsCallTreeNode n = { .method = method, .parent = parent };
  g_array_append_val (d->nodes, n);
  jvms_samples_idmap_set (&d->children, slot, parent, method, node);
  return node;
}

static JvmsCallTree *
derived_finish (Derived *d, JvmsCallTree *like)
{
  jvms_samples_idmap_clear (&d->children);
  return _jvms_call_tree_new_derived (like, g_steal_pointer (&d->nodes));
}

/* The next node of a depth-first walk of @tree from @node, not below @node when @skip_children;
 * 0 at the end. */
static guint32
next_node (JvmsCallTree *tree, guint32 node, gboolean skip_children)
{
  const JvmsCallTreeNode *n = jvms_call_tree_get_node (tree, node);
  if (!skip_children && n->first_child != JVMS_CALL_TREE_NONE)
    return n->first_child;
  while (node != 0)
    {
      n = jvms_call_tree_get_node (tree, node);
      if (n->next_sibling != JVMS_CALL_TREE_NONE)
        return n->next_sibling;
      node = n->parent;
    }
  return 0;
}

/* Merges the subtree of @top (a frame of the method) into @d's node 1. */
static void
merge_subtree (Derived *d, JvmsCallTree *tree, guint32 top, guint32 *map)
{
  guint32 depth0 = jvms_call_tree_get_node (tree, top)->depth;
  guint32 node = top;
  do
    {
      const JvmsCallTreeNode *n = jvms_call_tree_get_node (tree, node);
      /* map[] holds, by depth below @top, the derived node of each ancestor on the path. */
      guint32 level = n->depth - depth0;
      guint32 target = level == 0 ? 1 : derived_child (d, map[level - 1], n->method);
      map[level] = target;
      JvmsCallTreeNode *t = &g_array_index (d->nodes, JvmsCallTreeNode, target);
      t->frame_kinds |= n->frame_kinds;
      t->self += n->self;
      t->self_samples += n->self_samples;
      for (guint s = 0; s < JVMS_CPU_STATE_N; s++)
        t->self_states[s] += n->self_states[s];
      node = next_node (tree, node, FALSE);
    }
  while (node != 0 && jvms_call_tree_get_node (tree, node)->depth > depth0);
}

/* Calls @func on each outermost node of @method, depth first. */
typedef void (*OutermostFunc) (JvmsCallTree *tree, guint32 node, gpointer data);

static void
foreach_outermost (JvmsCallTree *tree, guint32 method, OutermostFunc func, gpointer data)
{
  guint32 node = jvms_call_tree_get_node (tree, 0)->first_child;
  while (node != JVMS_CALL_TREE_NONE && node != 0)
    {
      gboolean hit = jvms_call_tree_get_node (tree, node)->method == method;
      if (hit)
        func (tree, node, data);
      /* Below an outermost frame every frame of the method is an inner one. */
      node = next_node (tree, node, hit);
    }
}

typedef struct
{
  Derived  d;
  guint32 *map;
} CalleesWalk;

static void
add_callees (JvmsCallTree *tree, guint32 node, gpointer data)
{
  CalleesWalk *w = data;
  merge_subtree (&w->d, tree, node, w->map);
}

JvmsCallTree *
jvms_call_tree_new_callees (JvmsCallTree *tree, guint32 method)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE (tree), NULL);

  CalleesWalk w;
  derived_init (&w.d);
  derived_child (&w.d, 0, method);
  guint32 max_depth = 0;
  for (guint i = 0; i < jvms_call_tree_get_n_nodes (tree); i++)
    max_depth = MAX (max_depth, jvms_call_tree_get_node (tree, i)->depth);
  w.map = g_new (guint32, max_depth + 1);
  foreach_outermost (tree, method, add_callees, &w);
  g_free (w.map);
  return derived_finish (&w.d, tree);
}

static void
add_callers (JvmsCallTree *tree, guint32 node, gpointer data)
{
  Derived *d = data;
  const JvmsCallTreeNode *top = jvms_call_tree_get_node (tree, node);
  guint32 target = 1;
  g_array_index (d->nodes, JvmsCallTreeNode, 1).frame_kinds |= top->frame_kinds;
  for (guint32 up = top->parent; up != 0 && up != JVMS_CALL_TREE_NONE;)
    {
      const JvmsCallTreeNode *caller = jvms_call_tree_get_node (tree, up);
      target = derived_child (d, target, caller->method);
      g_array_index (d->nodes, JvmsCallTreeNode, target).frame_kinds |= caller->frame_kinds;
      up = caller->parent;
    }
  /* The whole weight below the method, at the end of its path of callers. */
  JvmsCallTreeNode *t = &g_array_index (d->nodes, JvmsCallTreeNode, target);
  t->self += top->total;
  t->self_samples += top->total_samples;
  for (guint s = 0; s < JVMS_CPU_STATE_N; s++)
    t->self_states[s] += top->total_states[s];
}

JvmsCallTree *
jvms_call_tree_new_callers (JvmsCallTree *tree, guint32 method)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE (tree), NULL);

  Derived d;
  derived_init (&d);
  derived_child (&d, 0, method);
  foreach_outermost (tree, method, add_callers, &d);
  return derived_finish (&d, tree);
}
