/* jvms-compare.h: what changed between two traces of the same program (docs/compare.md).
 *
 * A comparison computes, for a baseline and an other trace, each over its own range and JVM,
 * the root-cause report's measures (jvms-report.h) and the point samples' (jvms-samples.h),
 * normalised per second of wall-clock time, side by side:
 *
 *   kinds          time lost to each finding kind, and its share of the analysed time
 *   monitors       time blocked entering the monitors of each class
 *   parked         time parked or waiting, by what on (the parked-on class)
 *   io             time in I/O, by target (file, socket)
 *   thread_groups  time per JFR and kernel state, by thread group: threads matched by their
 *                  name with numbers folded ("client-17" -> "client-#"), cut to the 15 bytes
 *                  the kernel keeps of a name, and by their kind
 *   methods        CPU samples with the method on top of the stack (the differential profile)
 *   allocations    sampled bytes allocated, by class
 *   gc             collections (in all and per collector), pause time, bytes allocated
 *
 * Each change (other's rate minus baseline's) comes with an uncertainty from the variation
 * across the one-second slices of each range, so that noise is not reported as a change: see
 * jvms_compare_compute and docs/compare.md, "Uncertainty". The CLI (`jvmscope-cli compare`) and
 * the window's comparison pane both show a JvmsComparison.
 */
#pragma once

#include <gio/gio.h>

#include "jvms-history.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_COMPARE_KINDS,
  JVMS_COMPARE_MONITORS,
  JVMS_COMPARE_PARKED,
  JVMS_COMPARE_IO,
  JVMS_COMPARE_THREAD_GROUPS,
  JVMS_COMPARE_METHODS,
  JVMS_COMPARE_ALLOCATIONS,
  JVMS_COMPARE_GC,
} JvmsCompareTable;
#define JVMS_COMPARE_TABLE_N 8

/* "kinds", "monitors", "parked", "io", "thread_groups", "methods", "allocations", "gc": the
 * JSON's member names. */
const char *jvms_compare_table_name (JvmsCompareTable table);

/* One trace of the two. */
typedef struct
{
  JvmsHistory *history;
  const char  *samples_path; /* the point-sample store beside the index; NULL: none */
  gint64       from, to;     /* the range, epoch ns, clamped to the history */
  gint64       pid;          /* the JVM (jvms_scope_choose_jvm); 0: the index's jvm-pid */
  const char  *range_why;    /* why the range is what it is (jvms_scope_default_range), or NULL */
} JvmsCompareSide;

/* One measure on both sides. Absolute values are over each side's range, in @unit ("ns",
 * "samples", "bytes", "collections"); rates per second of that side's wall-clock range. */
typedef struct
{
  const char *name;          /* the kind, class, target, group ("client-#"), method, or the GC
                              * measure ("collections", "pause", "allocation") */
  const char *thread_kind;   /* thread_groups: "java", "gc", ...; NULL elsewhere */
  const char *state;         /* thread_groups: "user:blocked", "kernel:runnable"; NULL elsewhere */
  const char *collector;     /* gc: the collector or pause name of a per-collector row; or NULL */
  const char *unit;
  double      baseline, other;
  double      baseline_per_s, other_per_s;
  double      change_per_s;       /* other_per_s - baseline_per_s */
  double      uncertainty_per_s;  /* of the change: docs/compare.md, "Uncertainty" */
  /* kinds: the share of the analysed thread time; methods: of the CPU samples; else NAN. */
  double      baseline_share, other_share;
  double      change_share, uncertainty_share; /* methods: what `significant` is judged on */
  guint       baseline_threads, other_threads; /* thread_groups: threads in the group */
  gboolean    significant;
} JvmsCompareRow;

typedef struct
{
  gint64        baseline_from, baseline_to;  /* the ranges compared, epoch ns */
  gint64        other_from, other_to;
  gint64        baseline_start, other_start; /* each history's start: offsets count from it */
  gint64        baseline_pid, other_pid;     /* the JVMs (-1 unknown) */
  const char   *baseline_why, *other_why;     /* JvmsCompareSide.range_why */
  guint         baseline_slices, other_slices;
  double        baseline_analysed_ns, other_analysed_ns;
  GArray       *tables[JVMS_COMPARE_TABLE_N]; /* JvmsCompareRow, largest |change| first */
  GStringChunk *strings;
} JvmsComparison;

/* The limit of slices: a longer range is cut into this many slices of more than a second. */
#define JVMS_COMPARE_MAX_SLICES 300
/* A change is significant when it exceeds this many uncertainties... */
#define JVMS_COMPARE_SIGNIFICANCE 3.0
/* ...and this fraction of the larger side's rate (runs of one program differ by that much in
 * conditions a trace cannot see, such as the machine's load). */
#define JVMS_COMPARE_MIN_RELATIVE 0.05
/* ...and, for times, a thousandth of a thread (1 ms per second). */
#define JVMS_COMPARE_MIN_NS_PER_S 1e6

/* Compares @other with @baseline. Fails only when a history or sample store cannot be read;
 * cancellable between slices. Threads: runs in the calling thread (the window calls it from a
 * worker, jvms_compare_compute_async). */
JvmsComparison *jvms_compare_compute        (const JvmsCompareSide *baseline,
                                             const JvmsCompareSide *other,
                                             GCancellable          *cancellable,
                                             GError               **error);
/* The same in a worker thread; the sides' histories are referenced until it completes and
 * their strings copied. */
void            jvms_compare_compute_async  (const JvmsCompareSide *baseline,
                                             const JvmsCompareSide *other,
                                             GCancellable          *cancellable,
                                             GAsyncReadyCallback    callback,
                                             gpointer               user_data);
JvmsComparison *jvms_compare_compute_finish (GAsyncResult          *result,
                                             GError               **error);
void            jvms_comparison_free        (JvmsComparison        *self);

/* docs/compare.md's JSON, pretty-printed, without a final newline; @baseline_trace and
 * @other_trace are the file names shown. @limit > 0 keeps that many rows per table. */
char           *jvms_comparison_to_json     (const JvmsComparison  *self,
                                             const char            *baseline_trace,
                                             const char            *other_trace,
                                             guint                  limit);
/* The text of `jvmscope-cli compare`, translated, at most @limit rows per table (0: all). */
char           *jvms_comparison_to_text     (const JvmsComparison  *self,
                                             const char            *baseline_trace,
                                             const char            *other_trace,
                                             guint                  limit);

/* The text's cells, which the window's table shows too: a rate in its unit ("0.250 s/s",
 * "1.20 MB/s", "3.00/s"), a change with its uncertainty ("+0.250 s/s ± 0.010 s/s"), a share
 * ("12.5 %") and a change of share ("+2.0 ± 0.5 %"); and a table's title, translated. */
char           *jvms_compare_format_rate         (const char *unit,
                                                  double      value);
char           *jvms_compare_format_change       (const char *unit,
                                                  double      change,
                                                  double      uncertainty);
char           *jvms_compare_format_share        (double      share);
char           *jvms_compare_format_share_change (double      change,
                                                  double      uncertainty);
const char     *jvms_compare_table_title         (JvmsCompareTable table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsComparison, jvms_comparison_free)

G_END_DECLS
