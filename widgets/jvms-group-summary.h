/* jvms-group-summary.h: what a folded group of threads did, per pixel column: how many of its
 * threads held each state longest in the column, for each of their lanes (Java state, kernel
 * state).
 *
 * The counts come from the summary cells of every member's lanes, asked of the index a slice at
 * a time (jvms_group_summary_step), so that a frame never pays for more lanes than its budget
 * whatever the size of the group: a group of 2,500 threads is counted over a few frames and
 * drawn from what was counted so far meanwhile. The counts are kept until the range or the
 * width changes. (Why not counts built into the index: docs/views.md, "Folded groups".)
 */
#pragma once

#include "jvms-row-cells.h"

G_BEGIN_DECLS

/* States are small integers (docs/attributes.md): a count per value 0 .. N - 1. */
#define JVMS_GROUP_SUMMARY_STATES 16
#define JVMS_GROUP_SUMMARY_MAX_LANES 2

typedef struct _JvmsGroupSummary JvmsGroupSummary;

JvmsGroupSummary *jvms_group_summary_new          (void);
void              jvms_group_summary_free         (JvmsGroupSummary           *self);
/* Starts counting again for @n_members threads whose lanes are @attributes (@n_lanes per
 * member, member by member; JVMS_ATTRIBUTE_INVALID for a lane a thread lacks) over
 * @geometry's range and columns, unless it already counts exactly those. */
void              jvms_group_summary_prepare      (JvmsGroupSummary           *self,
                                                   const JvmsAttribute        *attributes,
                                                   guint                       n_members,
                                                   guint                       n_lanes,
                                                   const JvmsTimelineGeometry *geometry);
/* Counts the next members, asking the index for at most @budget lanes (at least one member)
 * through @scratch; returns how many lanes it asked for. FALSE in *@failed when the index
 * could not answer (the summary then stops, complete with what it had). */
guint             jvms_group_summary_step         (JvmsGroupSummary           *self,
                                                   JvmsHistory                *history,
                                                   JvmsLaneCells              *scratch,
                                                   guint                       budget);
gboolean          jvms_group_summary_is_complete  (const JvmsGroupSummary     *self);
guint             jvms_group_summary_get_n_members (const JvmsGroupSummary    *self);
/* Members counted so far. */
guint             jvms_group_summary_get_n_counted (const JvmsGroupSummary    *self);
int               jvms_group_summary_get_n_columns (const JvmsGroupSummary    *self);
/* How many members counted so far held @state longest in @column of @lane. */
guint             jvms_group_summary_get_count    (const JvmsGroupSummary     *self,
                                                   guint                       lane,
                                                   int                         column,
                                                   guint                       state);
/* Draws @lane as stacked bars between @y and @y + @height: per column, the states of @order
 * (n_order of them, bottom up) in proportion to the members counted so far, and at least a
 * pixel for a state any member held, so that 20 running threads among 2,500 still show. */
void              jvms_group_summary_draw         (const JvmsGroupSummary     *self,
                                                   cairo_t                    *cr,
                                                   const JvmsTimelineGeometry *geometry,
                                                   guint                       lane,
                                                   double                      y,
                                                   int                         height,
                                                   const int                  *order,
                                                   guint                       n_order,
                                                   const JvmsColor            *colors);

G_END_DECLS
