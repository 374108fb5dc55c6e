/* jvms-synthetic-history.h: a synthetic history with the layout of docs/attributes.md, for the
 * view demo, the widget tests and bench-views (tests/support: never part of the program). */
#pragma once

#include "jvms-history.h"
#include "jvms-object-age-samples.h"

G_BEGIN_DECLS

typedef struct
{
  guint   n_threads;     /* JVM threads (java, gc, jit, vm, jfr mixed); plus a few others */
  guint   n_cpus;
  guint   n_locks;
  guint64 n_intervals;   /* stop after about this many state changes */
  gint64  start_time;
  guint32 seed;
  /* Mean time between two state changes of one thread, ns. */
  gint64  mean_gap_ns;
  /* Also the families of issue 19's views (off by default: the other histories stay as they
   * were): GC/workers/<tid>/task and JIT/<tid>/compilation (+ tier, size) while those threads
   * run, Threads/<tid>/allocation-rate of the Java threads, VM/operation and VM/safepoint (+
   * phase) while the VM thread runs, and two disks' queue, in-flight and 16 request slots. */
  gboolean new_views;
} JvmsSyntheticOptions;

void     jvms_synthetic_options_init   (JvmsSyntheticOptions       *options);
/* Writes the history at @path; FALSE with the builder's error on failure. */
gboolean jvms_synthetic_history_write  (const char                 *path,
                                        const JvmsSyntheticOptions *options,
                                        GError                    **error);
/* @n old-object samples over [@start, @end): a GArray of JvmsObjectAgeSample whose strings are
 * static. */
GArray  *jvms_synthetic_object_samples (gint64                      start,
                                        gint64                      end,
                                        guint                       n,
                                        guint32                     seed);

G_END_DECLS
