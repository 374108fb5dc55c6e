/* jvms-method-instants.h: when a method ran, for the timeline: the instants of the samples of
 * a profile query whose stack holds the method (docs/profile.md, "One method").
 *
 * The samples are read from the store's blocks (jvms_profile_foreach_sample): the cost grows
 * with the samples in the range, unlike the profile query's, so the search runs in a worker
 * and can be cancelled. Memory is bounded: past @max instants, every other one is dropped and
 * from then on only every stride-th match is kept (the stride doubling each time), so that a
 * long range keeps instants spread evenly over all of it.
 */
#pragma once

#include <gio/gio.h>

#include "jvms-profile.h"

G_BEGIN_DECLS

typedef struct
{
  gint64  from, to;         /* the query's range */
  guint32 method;           /* the store's method id (JvmsCallTreeNode.method) */
  guint   n;
  gint64 *tids;             /* the index's thread keys, as the threads view has them */
  gint64 *times;            /* epoch ns, in time order */
  guint64 n_matched;        /* samples that held the method (n, or more when thinned) */
  guint   stride;           /* 1: every matching sample is here; k: one in k */
} JvmsMethodInstants;

#define JVMS_TYPE_METHOD_INSTANTS (jvms_method_instants_get_type ())
GType               jvms_method_instants_get_type      (void) G_GNUC_CONST;

/* @method: a method id of a JvmsCallTree of @profile; its "[unknown]" id (the store's method
 * count) stands for the samples without a stack. @max 0: a default (1 << 20). */
JvmsMethodInstants *jvms_method_instants_collect       (JvmsProfile              *profile,
                                                        const JvmsProfileQuery   *query,
                                                        guint32                   method,
                                                        guint                     max,
                                                        GCancellable             *cancellable,
                                                        GError                  **error);
void                jvms_method_instants_collect_async (JvmsProfile              *profile,
                                                        const JvmsProfileQuery   *query,
                                                        guint32                   method,
                                                        guint                     max,
                                                        GCancellable             *cancellable,
                                                        GAsyncReadyCallback       callback,
                                                        gpointer                  user_data);
JvmsMethodInstants *jvms_method_instants_collect_finish (JvmsProfile             *profile,
                                                         GAsyncResult            *result,
                                                         GError                 **error);

JvmsMethodInstants *jvms_method_instants_ref           (JvmsMethodInstants       *self);
void                jvms_method_instants_unref         (JvmsMethodInstants       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsMethodInstants, jvms_method_instants_unref)

G_END_DECLS
