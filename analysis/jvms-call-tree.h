/* jvms-call-tree.h: the answer of a profile query (jvms-profile.h): stacks of one kind over one
 * range and set of threads, folded into a call tree, with its method table.
 *
 * A JvmsCallTree is immutable once made: every function may be called from any thread at once
 * (the window builds it in a worker and reads it on the main thread). Nodes are an array:
 * node 0 is the root (no method, everything below it), a node's children are linked from
 * first_child through next_sibling, heaviest first (ties by method name). A node merges every
 * stack whose frames, from the root, name the same methods ("package.Class.method"), whatever
 * their lines and frame kinds. Weights are in the tree's unit (jvms_call_tree_get_unit).
 */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "jvms-samples-format.h"

G_BEGIN_DECLS

#define JVMS_CALL_TREE_NONE G_MAXUINT32

typedef struct
{
  guint32 method;                 /* jvms_call_tree_get_method_name(); NONE for the root */
  guint32 parent;                 /* NONE for the root */
  guint32 first_child;            /* NONE when a leaf */
  guint32 next_sibling;           /* NONE for the last child */
  guint32 depth;                  /* 0 for the root, 1 for the outermost frames */
  guint32 frame_kinds;            /* bit (1 << JvmsFrameKind) for each kind this path's frames
                                   * had anywhere in the trace (not only in the range) */
  guint64 self;                   /* weight of the stacks that end here */
  guint64 total;                  /* self + the children's totals */
  guint64 self_samples;           /* events (samples) of the stacks that end here */
  guint64 total_samples;
  /* CPU kinds: samples by the thread's kernel state (JvmsCpuState: unknown, on CPU, waiting). */
  guint64 self_states[JVMS_CPU_STATE_N];
  guint64 total_states[JVMS_CPU_STATE_N];
} JvmsCallTreeNode;

/* A row of the method table. */
typedef struct
{
  guint32 method;
  guint64 self;                   /* weight with the method on top of the stack */
  guint64 total;                  /* weight with the method anywhere on it (recursion once) */
  guint64 self_samples;
  guint64 total_samples;
  /* jdk.Compilation events of the method that started in the range. */
  guint   n_compilations;
  gint32  highest_tier;           /* -1 when none */
  gint64  jit_ns;                 /* their summed durations */
  /* jdk.MethodTiming (JDK 25): the last report at or before the range's end; -1 when none. */
  gint64  invocations;
  gint64  time_min, time_avg, time_max;   /* ns */
} JvmsCallTreeMethod;

#define JVMS_TYPE_CALL_TREE (jvms_call_tree_get_type ())
G_DECLARE_FINAL_TYPE (JvmsCallTree, jvms_call_tree, JVMS, CALL_TREE, GObject)

/* What was asked: [from, to) in epoch ns, the kind's name ("cpu", or the event type), the unit
 * ("samples", "bytes", "ns", "events"), the event types that went in. */
gint64                   jvms_call_tree_get_from          (JvmsCallTree *self);
gint64                   jvms_call_tree_get_to            (JvmsCallTree *self);
const char              *jvms_call_tree_get_kind_name     (JvmsCallTree *self);
const char              *jvms_call_tree_get_unit          (JvmsCallTree *self);
const char * const      *jvms_call_tree_get_event_types   (JvmsCallTree *self);
/* The store had kernel states and the kind is a CPU kind: the node states mean something. */
gboolean                 jvms_call_tree_has_kernel_states (JvmsCallTree *self);

guint64                  jvms_call_tree_get_total         (JvmsCallTree *self);
guint64                  jvms_call_tree_get_samples       (JvmsCallTree *self);
guint                    jvms_call_tree_get_n_nodes       (JvmsCallTree *self);
const JvmsCallTreeNode  *jvms_call_tree_get_node          (JvmsCallTree *self,
                                                           guint         index);
/* "package.Class.method", "[truncated]" or "[unknown]"; lives as long as the tree. */
const char              *jvms_call_tree_get_method_name   (JvmsCallTree *self,
                                                           guint32       method);
/* "a;b;c": the method names of @node's path from the outermost frame, as they are (unlike a
 * folded line's); "" for the root. Paths name a frame across trees (jvms-compare-profile.h). */
char                    *jvms_call_tree_dup_path          (JvmsCallTree *self,
                                                           guint32       node);

/* The method table, heaviest self first (ties: heaviest total, then name). */
guint                    jvms_call_tree_get_n_methods     (JvmsCallTree *self);
const JvmsCallTreeMethod *jvms_call_tree_get_method_row   (JvmsCallTree *self,
                                                           guint         index);

/* Folded stacks (flamegraph.pl, speedscope, inferno): one line per distinct stack with a
 * non-zero self weight, "root;...;top WEIGHT\n", heaviest first, ties by the line's bytes.
 * @limit 0: every line. */
char                    *jvms_call_tree_to_folded         (JvmsCallTree *self,
                                                           guint         limit);
/* The same stacks as the folded lines, in their order, at most @limit (0: all): each the node
 * where it ends (guint32 in the array) and its folded line without the weight (in @lines, when
 * not NULL: a new GPtrArray of strings, freed with it). */
GArray                  *jvms_call_tree_dup_stacks        (JvmsCallTree *self,
                                                           guint         limit,
                                                           GPtrArray   **lines);
/* The method table as CSV (docs/profile.md), heaviest self first; @limit 0: every row. */
char                    *jvms_call_tree_to_csv            (JvmsCallTree *self,
                                                           guint         limit);
/* The JSON of docs/profile.md; @trace_start gives the offsets; @limit > 0 keeps that many
 * children per node (the heaviest). */
JsonNode                *jvms_call_tree_to_json           (JvmsCallTree *self,
                                                           gint64        trace_start,
                                                           guint         limit);

G_END_DECLS
