/* jvms-allocation-classes.h: what a thread allocated in a time range, by class, from the event
 * store's allocation events (docs/events.md): the top classes the allocation view's tooltip
 * names beside the rate.
 *
 * The bytes are counted as the index counts Threads/<tid>/allocation-rate (docs/attributes.md):
 * a jdk.ObjectAllocationSample weighs its `weight`; when the store has no such row, a
 * jdk.ObjectAllocationInNewTLAB or jdk.ObjectAllocationOutsideTLAB weighs its `tlabSize`, else its
 * `allocationSize`. Each row's class is its `objectClass`. The same rows are those of
 * `jvmscope-cli events --type T --thread TID --from A --to B`.
 */
#pragma once

#include "jvms-event-store.h"

G_BEGIN_DECLS

/* The index averages a thread's allocations over buckets of this length (allocation-rate). */
#define JVMS_ALLOCATION_BUCKET_NS G_GINT64_CONSTANT (10000000)

typedef struct
{
  char    *class_name;  /* NULL: rows without one */
  guint64  bytes;
  guint64  events;
} JvmsAllocationClass;

typedef struct
{
  GArray  *classes;    /* JvmsAllocationClass, most bytes first (then by name) */
  guint64  bytes;      /* all of them */
  guint64  events;
  gboolean truncated;  /* more than max_rows rows: the first max_rows are counted */
} JvmsAllocationClasses;

/* The classes allocated by @tid in [@from, @to), reading at most @max_rows rows (a tooltip's
 * bound: the cost never grows with the trace). NULL with @error when the store is damaged
 * there. An empty result when the store has no allocation type. */
JvmsAllocationClasses *jvms_allocation_classes_read (JvmsEventStore *store,
                                                     gint64          tid,
                                                     gint64          from,
                                                     gint64          to,
                                                     guint           max_rows,
                                                     GError        **error);
void                   jvms_allocation_classes_free (JvmsAllocationClasses *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsAllocationClasses, jvms_allocation_classes_free)

G_END_DECLS
