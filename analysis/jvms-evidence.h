/* jvms-evidence.h: the evidence of one finding of the root-cause report (jvms-finding.h): the
 * monitors, CPU holders, collections, methods or waits that its lost time is charged to, each
 * ranked most time (or weight) first. Only the members of the finding's kind are set; the others
 * are NULL or 0. Strings point into the report's string store (JvmsReport.strings).
 *
 * | kind               | members set                                                       |
 * | monitor-contention | monitors                                                          |
 * | cpu-contention     | cpu_holders                                                       |
 * | gc                 | collections, pause_ns, collectors, pauses, allocated_classes,     |
 * |                    | allocation_sites, the safepoint members, waiting_ns, cpu_holders  |
 * | program-logic      | execution_samples, hot_methods                                    |
 * | parking, io,       | items (what the threads waited on, did I/O on, the VM operation,  |
 * | safepoint, others  | the sleeping or compiling thread)                                 |
 * | safepoint          | items, the safepoint members                                      |
 * | jit                | items, waiting_ns, cpu_holders                                    |
 *
 * The safepoint members (gc: the GC safepoints; safepoint: the others) are n_safepoints,
 * time_to_safepoint_ns, operation_ns, resume_ns, stragglers and safepoints.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where a cause held what the finding's threads waited for: [from, to), epoch ns. */
typedef struct
{
  gint64 from, to;
} JvmsEvidenceInterval;

/* Intervals kept per cause: its longest. */
#define JVMS_EVIDENCE_MAX_INTERVALS 8

/* A thread named by a finding. In the holder lists (a monitor's holders, the threads that
 * preempted them, the CPU holders) it also carries how long it held the monitor or CPU, its
 * process, whether that process is the traced JVM, and its own intervals: a monitor holder's
 * hold intervals on that monitor (the runs of Locks/<address>/owner naming it that some wait
 * met), a thread that preempted a holder its running on that CPU while the holder waited for
 * it, a CPU holder its running while a thread of the finding waited for a CPU; elsewhere ns is
 * 0, pid -1, ours FALSE and intervals NULL. */
typedef struct
{
  gint64      tid;  /* -javaThreadId for a thread without an OS id (jvms-thread-list.h) */
  const char *name;
  gint64      ns;
  gint64      pid;  /* -1 when unknown */
  gboolean    ours;
  /* JvmsEvidenceInterval, disjoint, the longest first (ties: earliest first), at most
   * JVMS_EVIDENCE_MAX_INTERVALS; NULL outside holder lists. */
  GArray     *intervals;
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

/* A thread that held up safepoints: how long it took to arrive after the poll was armed, in which
 * state it spent most of that time ("running" to its poll, "runnable" without a CPU, in a
 * "syscall"), and its last sampled stack before it arrived. */
typedef struct
{
  gint64      tid;
  const char *name;
  gint64      ns;
  const char *state;
  GPtrArray  *stack;   /* const char* frames, top first (report strings); empty when none sampled */
} JvmsEvidenceStraggler;

/* One safepoint: its synchronisation, operation and resume, and who arrived last. */
typedef struct
{
  gint64      id;
  const char *operation;   /* NULL when not recorded */
  gint64      start;       /* epoch ns */
  gint64      sync_start;  /* the arm: the synchronisation's start, epoch ns */
  gint64      sync_ns, operation_ns, resume_ns;
  GArray     *stragglers;  /* JvmsEvidenceStraggler, longest first */
} JvmsEvidenceSafepoint;

/* A stack with its number of samples (and, for a finding's cited stacks, its weight in the
 * unit of their kind). */
typedef struct
{
  GPtrArray  *frames;      /* const char* frames, top first (report strings) */
  gint64      samples;
  guint64     weight;      /* cited stacks only; 0 elsewhere */
} JvmsEvidenceStack;

/* A contended monitor. */
typedef struct
{
  const char *class_name;      /* Java form */
  gint64      address;
  gint64      blocked_ns;
  GArray     *blocked_threads; /* JvmsThreadRef */
  GArray     *holders;         /* JvmsThreadRef with ns, pid and ours, most time first */
  /* What the holders did while the threads waited, over the waiters' blocked time: kind name
   * (docs/report.md's kinds, "unknown" when no holder or state is known) -> ns. */
  GArray     *holder_states;   /* JvmsEvidenceAmount */
  GArray     *preempted_by;    /* JvmsThreadRef with ns, pid, ours: who had the CPU while a holder waited for one */
  GArray     *holder_stacks;   /* JvmsEvidenceStack: the holders' samples while they held it and ran */
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
  /* Safepoints (gc, safepoint): the phases' sums over the range and the threads that arrived
   * last. */
  gint64  n_safepoints;
  gint64  time_to_safepoint_ns;
  gint64  operation_ns;
  gint64  resume_ns;
  GArray *stragglers;        /* JvmsEvidenceStraggler: summed over the safepoints, longest first */
  GArray *safepoints;        /* JvmsEvidenceSafepoint: the longest synchronisations first */
  /* Starved JVM threads (gc: GC workers; jit: compiler threads): their time runnable without a
   * CPU, and who had the CPUs meanwhile (cpu_holders). */
  gint64  waiting_ns;
  gint64  pause_waiting_ns;  /* gc: of waiting_ns, inside GC pauses */
  /* Any kind: the heaviest stacks the finding's threads were sampled in over the report's
   * range, in the profile kinds that show its cause (jvms-report-stacks.c); NULL without a
   * sample store. */
  GArray             *stacks;        /* JvmsEvidenceStack, heaviest first */
  const char         *stacks_kinds[3]; /* the profile kinds or event type queried, NULL-terminated */
  const char         *stacks_unit;   /* "samples", "bytes", "ns", "events" */
} JvmsEvidence;

/* Arrays of the element types above that free what their elements hold. */
GArray *jvms_thread_refs_new       (void);
GArray *jvms_evidence_amounts_new  (void);
GArray *jvms_evidence_items_new    (void);
GArray *jvms_evidence_monitors_new (void);
GArray *jvms_evidence_stragglers_new (void);
GArray *jvms_evidence_safepoints_new (void);
GArray *jvms_evidence_stacks_new    (void);

/* Frees the members and zeroes @self. */
void    jvms_evidence_clear        (JvmsEvidence *self);

/* Where causes held what others waited for (a monitor, a CPU, a wait they ended): tid ->
 * GArray of gint64 pairs [from, to), epoch ns. The report and the critical path keep their
 * causes' intervals here and give each cause its longest (jvms_evidence_longest_intervals). */
GHashTable *jvms_evidence_spans_new  (void);
/* Adds [@from, @to) to @tid's spans, merged into the last one when they meet; past @max spans a
 * cause's further ones are left out (0: no bound). */
void        jvms_evidence_add_span   (GHashTable *spans,
                                      gint64      tid,
                                      gint64      from,
                                      gint64      to,
                                      guint       max);
/* Extends the span @last ([from, to), NULL: none yet) by [@from, @to) when they meet, and says
 * whether it did. Spans mostly come in time order (or, walking back, in reverse), so one that
 * meets the last extends it; the report's spans and the critical path's own arrays share it. */
static inline gboolean
jvms_evidence_span_merge_last (gint64 *last, gint64 from, gint64 to)
{
  if (last == NULL || from > last[1] || to < last[0])
    return FALSE;
  last[0] = MIN (last[0], from);
  last[1] = MAX (last[1], to);
  return TRUE;
}
/* The longest intervals of the union of the @n_pairs spans @pairs (overlapping or touching
 * spans are one interval): JvmsEvidenceInterval, disjoint, the longest first (ties: earliest
 * first), at most JVMS_EVIDENCE_MAX_INTERVALS. @union_ns (may be NULL) gets the union's length. */
GArray     *jvms_evidence_longest_intervals (const gint64 *pairs,
                                             guint         n_pairs,
                                             gint64       *union_ns);
/* Adds @cur, an interval of such a union (disjoint from those added before), to @best, the
 * longest so far in that order (*@n_best of them, at most JVMS_EVIDENCE_MAX_INTERVALS): what
 * jvms_evidence_longest_intervals does with each, for a caller that merges the spans itself. */
void        jvms_evidence_longest_add (JvmsEvidenceInterval *best,
                                       guint                *n_best,
                                       JvmsEvidenceInterval  cur);

G_END_DECLS
