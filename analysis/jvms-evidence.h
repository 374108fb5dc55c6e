/* jvms-evidence.h: the evidence of one finding of the root-cause report (jvms-finding.h): the
 * monitors, CPU holders, collections, methods or waits that its lost time is charged to, each
 * ranked most time (or weight) first. Only the members of the finding's kind are set; the others
 * are NULL or 0. Strings point into the report's string store (JvmsReport.strings).
 *
 * | kind               | members set                                                       |
 * | monitor-contention | monitors                                                          |
 * | cpu-contention     | cpu_holders                                                       |
 * | gc                 | collections, pause_ns, collectors, pauses, allocated_classes,     |
 * |                    | allocation_sites                                                  |
 * | program-logic      | execution_samples, hot_methods                                    |
 * | parking, io,       | items (what the threads waited on, did I/O on, the VM operation,  |
 * | safepoint, others  | the sleeping or compiling thread)                                 |
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A thread named by a finding. In the holder lists (a monitor's holders, the CPU holders) it
 * also carries how long it held the monitor or CPU, its process and whether that process is the
 * traced JVM; elsewhere ns is 0, pid -1 and ours FALSE. */
typedef struct
{
  gint64      tid;  /* -javaThreadId for a thread without an OS id (jvms-thread-list.h) */
  const char *name;
  gint64      ns;
  gint64      pid;  /* -1 when unknown */
  gboolean    ours;
} JvmsThreadRef;

/* A name with an amount: a collector and its collections, a pause and its time, a class or a
 * method and its bytes or samples. @share is the method's share of the execution samples for
 * hot methods, NAN elsewhere. */
typedef struct
{
  const char *name;
  gint64      value;
  double      share;
} JvmsEvidenceAmount;

/* What threads waited on, did I/O on or were stopped for, with the time and the threads. */
typedef struct
{
  const char *what;
  gint64      ns;
  GArray     *threads; /* JvmsThreadRef, most time first */
} JvmsEvidenceItem;

/* A contended monitor. */
typedef struct
{
  const char *class_name;      /* Java form */
  gint64      address;
  gint64      blocked_ns;
  GArray     *blocked_threads; /* JvmsThreadRef */
  GArray     *holders;         /* JvmsThreadRef with ns, pid and ours, most time first */
} JvmsEvidenceMonitor;

typedef struct
{
  GArray *monitors;          /* JvmsEvidenceMonitor */
  GArray *cpu_holders;       /* JvmsThreadRef with ns, pid, ours: who ran while ours waited */
  gint64  collections;       /* distinct GC ids in the range */
  gint64  pause_ns;          /* GC pauses in the range */
  GArray *collectors;        /* JvmsEvidenceAmount: collector, collections */
  GArray *pauses;            /* JvmsEvidenceAmount: pause name, ns */
  GArray *allocated_classes; /* JvmsEvidenceAmount: class, sampled bytes */
  GArray *allocation_sites;  /* JvmsEvidenceAmount: method, sampled bytes */
  gint64  execution_samples;
  GArray *hot_methods;       /* JvmsEvidenceAmount: method, samples, share */
  GArray *items;             /* JvmsEvidenceItem */
} JvmsEvidence;

/* Arrays of the element types above that free what their elements hold. */
GArray *jvms_thread_refs_new       (void);
GArray *jvms_evidence_amounts_new  (void);
GArray *jvms_evidence_items_new    (void);
GArray *jvms_evidence_monitors_new (void);

/* Frees the members and zeroes @self. */
void    jvms_evidence_clear        (JvmsEvidence *self);

G_END_DECLS
