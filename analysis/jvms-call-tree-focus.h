/* jvms-call-tree-focus.h: one method of a call tree seen from both sides, for the profiler's
 * callers and callees view (docs/profile.md, "One method").
 *
 * Both answers are JvmsCallTrees derived from the profile's tree (same range, kind and unit):
 * node 0 is the root, its only child the method. A method that calls itself counts once: only
 * its outermost frames on each path are followed (a frame of the method with no frame of the
 * same method above it), as the method table's total does, so that the method's node in both
 * trees has the method table's total.
 */
#pragma once

#include "jvms-call-tree.h"

G_BEGIN_DECLS

/* The method called @name in @tree, or JVMS_CALL_TREE_NONE. */
guint32       jvms_call_tree_find_method  (JvmsCallTree *tree,
                                           const char   *name);

/* What @method calls: the subtrees below its outermost frames, merged by method path. A node's
 * self and total are the original nodes' summed. */
JvmsCallTree *jvms_call_tree_new_callees  (JvmsCallTree *tree,
                                           guint32       method);

/* Who called @method, inverted: below the method its callers, below each caller that caller's
 * callers, up to the stacks' outermost frames. Each outermost frame of the method brings its
 * total along its path of callers, so a node's total is the weight of the method reached
 * through that path, and a node's self the weight of the stacks that begin with it. */
JvmsCallTree *jvms_call_tree_new_callers  (JvmsCallTree *tree,
                                           guint32       method);

G_END_DECLS
