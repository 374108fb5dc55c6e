/* jvms-compare-profile.h: the differential profile of two call trees (a baseline's and an
 * other's, each of one trace over its own range: docs/compare.md, "The differential flame
 * graph"): every frame (a path of methods from the root) of either tree, with its weight on each
 * side, normalised by that side's total so that a longer or busier recording compares:
 *
 *   share        the frame's total weight over its tree's total (the flame graph's width)
 *   self_share   its self weight over the total
 *   change       other's share - baseline's (a fraction of the samples; + grew, - shrank)
 *
 * Frames are matched by their path of method names ("package.Class.method" from the root
 * down), as one tree merges its stacks (jvms-call-tree.h), each name with the run-time part of
 * a hidden class folded (jvms_profile_fold_hidden): a lambda's class is named
 * "app.Main$$Lambda$89+0x00007fc2e0007c10/927327686" by JFR, its address and number new in
 * every run, so that without the fold no frame under a lambda would match across two runs. A frame only in the baseline has
 * other_node NONE and share 0 on that side: it is gone from the other's flame graph, but it
 * is in the list and the JSON. Plain data, no GTK: the window colours the other's flame graph
 * by `change`, `jvmscope-cli compare --profile` prints the list.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "jvms-call-tree.h"

G_BEGIN_DECLS

typedef struct
{
  const char *method;          /* NULL for the root (frame 0) */
  guint32     parent;          /* the caller's frame; JVMS_CALL_TREE_NONE for the root */
  guint32     depth;           /* 0 for the root */
  guint32     baseline_node;   /* the frame's node in each tree, or JVMS_CALL_TREE_NONE */
  guint32     other_node;
  guint64     baseline_total, other_total;
  guint64     baseline_self, other_self;
  double      baseline_share, other_share, change;
  double      baseline_self_share, other_self_share, self_change;
} JvmsProfileDiffFrame;

typedef struct _JvmsProfileDiff JvmsProfileDiff;
/* @method without the run-time part of hidden classes' names ("+0x" hex digits then "." or
 * "/" and decimal digits: "a.B$$Lambda$89+0x7f0c.9273.run" is "a.B$$Lambda$89.run"). */
char                       *jvms_profile_fold_hidden      (const char      *method);

JvmsProfileDiff            *jvms_profile_diff_new         (JvmsCallTree    *baseline,
                                                           JvmsCallTree    *other);
void                        jvms_profile_diff_free        (JvmsProfileDiff *self);

JvmsCallTree               *jvms_profile_diff_get_baseline (JvmsProfileDiff *self);
JvmsCallTree               *jvms_profile_diff_get_other   (JvmsProfileDiff *self);
/* Frames: the root first, every caller before its callees. */
guint                       jvms_profile_diff_get_n_frames (JvmsProfileDiff *self);
const JvmsProfileDiffFrame *jvms_profile_diff_get_frame   (JvmsProfileDiff *self,
                                                           guint            index);
/* The frame of node @node of the other tree. */
const JvmsProfileDiffFrame *jvms_profile_diff_get_other_frame (JvmsProfileDiff *self,
                                                               guint32          node);
/* The largest |change| of a frame other than the root (0 when the trees are alike). */
double                      jvms_profile_diff_get_max_change (JvmsProfileDiff *self);
/* The frames' indexes, largest |change| first, then largest |self_change|, then by path; the
 * root left out. */
GArray                     *jvms_profile_diff_sorted      (JvmsProfileDiff *self);
/* "a;b;c": the frame's path from the outermost frame, its names folded. */
char                       *jvms_profile_diff_dup_path    (JvmsProfileDiff *self,
                                                           guint            index);
/* The path of node @node of the other tree's frame (as jvms_profile_diff_dup_path). */
char                       *jvms_profile_diff_dup_other_path (JvmsProfileDiff *self,
                                                              guint32          node);
/* docs/compare.md's "frames" array: the sorted frames, @limit > 0 keeps that many. */
JsonNode                   *jvms_profile_diff_to_json     (JvmsProfileDiff *self,
                                                           guint            limit);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsProfileDiff, jvms_profile_diff_free)

G_END_DECLS
