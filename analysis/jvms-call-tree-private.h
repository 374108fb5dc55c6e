/* jvms-call-tree-private.h: how jvms-profile.c hands its sums to the call tree. */
#pragma once

#include "jvms-call-tree.h"
#include "jvms-samples.h"

G_BEGIN_DECLS

/* What a query summed for one stack. */
typedef struct
{
  guint32 stack;                    /* NONE: samples without a stack ("[unknown]") */
  guint64 value;                    /* in the kind's unit */
  guint64 samples;
  guint64 states[JVMS_CPU_STATE_N];
} JvmsStackWeight;

/* Folds @weights (any order, each stack once) into a tree over @store's stack table. */
JvmsCallTree *jvms_call_tree_build (JvmsSamplesStore      *store,
                                    const JvmsStackWeight *weights,
                                    guint                  n_weights,
                                    gint64                 from,
                                    gint64                 to,
                                    const char            *kind_name,
                                    const char            *unit,
                                    GStrv                  event_types,
                                    gboolean               kernel_states);

/* A tree derived from @like (same store, range, kind and unit) with the nodes @nodes
 * (JvmsCallTreeNode; taken): node 0 the root, each node's parent before it, method, parent,
 * frame kinds and self weights set; depths, totals, children lists and the method table are
 * made here. What jvms-call-tree-focus.c builds a method's callers and callees with. */
JvmsCallTree *_jvms_call_tree_new_derived (JvmsCallTree *like,
                                           GArray       *nodes);

G_END_DECLS
