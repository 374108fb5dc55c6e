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
 * Compiler threads' on-CPU time is charged to jit. Time that one layer alone cannot classify
 * (JFR's RUNNING without a kernel layer; kernel BLOCKED without a JFR layer) is charged to the
 * nearest kind the layer supports and listed in "unknowns", never guessed silently.
 * docs/report.md documents the JSON schema (jvms_report_to_json), which is kept stable.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "jvms-history.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_FINDING_MONITOR_CONTENTION,
  JVMS_FINDING_CPU_CONTENTION,
  JVMS_FINDING_GC,
  JVMS_FINDING_JIT,
  JVMS_FINDING_SAFEPOINT,
  JVMS_FINDING_SLEEPING,
  JVMS_FINDING_PARKING,
  JVMS_FINDING_IO,
  JVMS_FINDING_ALLOCATION,
  JVMS_FINDING_PROGRAM_LOGIC,
} JvmsFindingKind;
#define JVMS_FINDING_N 10

/* "monitor-contention", "cpu-contention", ... as in the JSON. */
const char *jvms_finding_kind_name (JvmsFindingKind kind);

typedef struct
{
  /* Range; a bound outside the history is clamped to it. */
  gint64      from;
  gint64      to;
  /* Only threads whose tid (decimal) or name equals this; NULL for all threads of the JVM. */
  const char *thread;
  /* The point-sample store beside the index (execution and allocation samples); NULL if none. */
  const char *samples_path;
  /* How many items of evidence each finding lists at most (0: 10). */
  guint       max_evidence;
} JvmsReportOptions;

/* Computes the report over @history. The result is a JSON object following docs/report.md.
 * Fails only when the history cannot be read (damage); an empty range or no thread gives a
 * report with no findings. */
JsonNode   *jvms_report_compute    (JvmsHistory             *history,
                                    const JvmsReportOptions *options,
                                    GError                 **error);

G_END_DECLS
