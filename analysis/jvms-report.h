/* jvms-report.h: the root-cause report — why were the JVM's threads slow in a time range?
 *
 * After Algorithm 1 of Daoud & Dagenais, "Multilevel analysis of the Java virtual machine based
 * on kernel and userspace traces" (2020): every thread of the JVM is walked top-down over the
 * range, and each nanosecond of its time is charged to one cause:
 *
 *   JFR user state                      kernel state          charged to
 *   SLEEPING                            any                   sleeping
 *   BLOCKED (monitor enter)             any                   monitor-contention
 *   PARKED, WAITING (Object.wait)       any                   parking
 *   SOCKET_IO, FILE_IO                  any                   io
 *   SAFEPOINT for a GC operation        any                   gc
 *   SAFEPOINT otherwise                 any                   safepoint
 *   RUNNING / NATIVE / no JFR state     RUNNABLE              cpu-contention
 *                                       BLOCKED_IO            io
 *                                       BLOCKED (futex)       parking
 *                                       BLOCKED (other)       io
 *                                       RUNNING, SYSCALL      on CPU: program-logic
 *
 * A recording without thread states (a profiler's, docs/writers.md) has threads NOT_RECORDED
 * between their samples: that time is never charged. Without a kernel layer, such a thread is
 * charged its samples instead, each its sampler's interval (jvms-report-estimate.c): on-CPU and
 * running samples to program-logic, wall-clock samples by their state as above; those times
 * are estimates and say so (estimated_ns, the samples per kind, and their basis in the JSON's
 * "estimated_from").
 *
 * Compiler threads' on-CPU time is charged to jit. Time that one layer alone cannot classify
 * (JFR's RUNNING without a kernel layer; kernel BLOCKED without a JFR layer) is charged to the
 * nearest kind the layer supports and listed in "unknowns", never guessed silently.
 *
 * The report is a typed model (JvmsReport, its JvmsFinding, their JvmsEvidence), computed by
 * jvms-report-walk.c (the charging rules), jvms-report-cpu.c, -gc.c and -samples.c (evidence)
 * and ranked by jvms-report-build.c; jvms-report-json.c writes docs/report.md's JSON (schema
 * version 1, kept stable) and jvms-report-text.c the text of `jvmscope-cli analyze`.
 */
#pragma once

#include "jvms-finding.h"
#include "jvms-history.h"
#include "jvms-recording-info.h"
#include "jvms-states.h"

G_BEGIN_DECLS

typedef struct
{
  /* Range; a bound outside the history is clamped to it. */
  gint64      from;
  gint64      to;
  /* Only threads whose folder name ("4242", "v17") or name equals this; NULL for all threads of
   * the JVM. */
  const char *thread;
  /* The point-sample store beside the index (execution and allocation samples); NULL if none. */
  const char *samples_path;
  /* How many items of evidence each finding lists at most (0: 10). */
  guint       max_evidence;
  /* The JVM whose threads are analysed (jvms_scope_choose_jvm); 0: the index's jvm-pid. */
  gint64      pid;
  /* Why the range is what it is, when it was not asked for (jvms_scope_default_range); NULL. */
  const char *range_why;
} JvmsReportOptions;

/* One analysed thread: where its time went. */
typedef struct
{
  gint64          tid;
  const char     *name;
  JvmsThreadKind  kind;
  gint64          analysed_ns;
  gint64          user_ns[JVMS_USER_STATE_N];     /* time in each JFR state */
  gint64          kernel_ns[JVMS_KERNEL_STATE_N]; /* time in each kernel state */
  gint64          lost_ns[JVMS_FINDING_N];        /* time charged to each kind */
  /* Of analysed_ns, what was estimated from samples (a recording without thread states:
   * samples × their sampler's interval), and the samples of each kind it was estimated from. */
  gint64          estimated_ns;
  guint64         sampled[JVMS_SAMPLED_N];
} JvmsReportThread;

typedef struct
{
  char         *layers;             /* the index's "layers" metadata, "" when absent */
  gint64        start;              /* the history's start: offsets count from it */
  gint64        from, to;           /* the range analysed, clamped to the history */
  char         *range_why;          /* JvmsReportOptions.range_why: "range.why" in JSON; or NULL */
  gint64        jvm_pid;            /* -1 when unknown */
  gint64        analysed_ns;        /* thread time charged, over every analysed thread */
  GPtrArray    *findings;           /* JvmsFinding*, most lost time first; kinds with time only */
  gint64        gc_collections;     /* distinct GC ids in the range */
  gint64        gc_pause_ns;
  GArray       *top_classes;        /* JvmsEvidenceAmount: allocated classes, sampled bytes */
  GArray       *threads;            /* JvmsReportThread, in the history's order */
  /* What one layer alone cannot know (English sentences, static); NULL-terminated. */
  const char   *unknowns[4];
  gint64        unknown_running_ns; /* JFR RUNNING with no kernel layer */
  gint64        unknown_blocked_ns; /* kernel BLOCKED with no JFR layer */
  /* History queries the computation made: its work, which tests bound (one thread list, one
   * range per batch of threads, a few for the evidence), whatever the number of threads. */
  guint         n_queries;
  GStringChunk *strings;            /* every string of the report */
  /* The kind of recording (the index's "recording" metadata), NULL without a JFR layer. */
  JvmsRecordingInfo *recording;
  gint64        estimated_ns;       /* of analysed_ns, estimated from samples */
} JvmsReport;

/* Computes the report over @history. Fails only when the history cannot be read (damage); an
 * empty range or no thread gives a report with no findings. */
JvmsReport *jvms_report_compute (JvmsHistory             *history,
                                 const JvmsReportOptions *options,
                                 GError                 **error);
void        jvms_report_free    (JvmsReport              *self);

/* The JSON object of docs/report.md (jvms-report-json.c), pretty-printed, without a final
 * newline. @trace (a file name: shown with g_filename_display_name), @warnings and @notes
 * (NULL-terminated; invalid UTF-8 is replaced) are added when not NULL. */
char       *jvms_report_to_json (const JvmsReport        *self,
                                 const char              *trace,
                                 const char * const      *warnings,
                                 const char * const      *notes);

/* The text report of `jvmscope-cli analyze` (jvms-report-text.c), translated, for people:
 * control characters of trace strings (thread, class, file names) are shown escaped. */
char       *jvms_report_to_text (const JvmsReport        *self,
                                 const char              *trace);

/* @s with its invalid UTF-8 replaced and its control characters (C0, DEL, C1) written as
 * \xHH or \uHHHH: a trace string made safe to print to a terminal. NULL gives "". */
char       *jvms_report_escape_text (const char          *s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsReport, jvms_report_free)

G_END_DECLS
