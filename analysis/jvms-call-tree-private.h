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

G_END_DECLS
