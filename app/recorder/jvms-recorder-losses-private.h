/* jvms-recorder-losses-private.h: what perf did not record, counted in the perf.data it wrote.
 *
 * Two kinds of loss, both per CPU:
 * - events perf's ring buffer dropped: PERF_RECORD_LOST records (where, how many) and perf's
 *   LOST_SAMPLES totals, as `perf report --stats` and `perf script --show-lost-events` show them;
 * - context switches missing: on a CPU, a sched_switch whose prev_pid is not the thread the
 *   previous switch put there. Inside a LOST gap that is the gap; elsewhere the kernel dropped
 *   the record without a word (on these VMs, every switch out of the idle task at a wake-up and
 *   out of PID 1's tokio-rt-worker threads). The index calls the time between the two switches
 *   unknown for the threads involved.
 */
#pragma once

#include <glib.h>

typedef struct
{
  guint64 lost_events;          /* sum of the LOST records' counts */
  guint64 lost_records;         /* LOST records: gaps */
  guint64 switches;             /* sched_switch records */
  /* Places where at least one switch is missing: a switch whose prev_pid is not the thread the
   * CPU's previous switch put there. */
  guint64 switch_gaps;
  guint64 switch_gaps_in_lost;  /* of which a LOST record on that CPU came between the two */
  guint64 switch_gaps_after_idle; /* of which that thread was the idle task */
} JvmsPerfCpuLosses;

typedef struct
{
  GArray *cpus;                 /* JvmsPerfCpuLosses, indexed by CPU (LOST records of no known CPU
                                 * are in the totals only) */
  JvmsPerfCpuLosses total;
  guint64 lost_samples;         /* perf's LOST_SAMPLES totals, all events and CPUs */
  /* Switch gaps outside LOST gaps by the name of the thread switched in before, whose switch-out is missing
   * (char * -> GUINT_TO_POINTER count): on these VMs, always the same few threads. */
  GHashTable *switch_gaps_after;
} JvmsPerfLosses;

/* Reads @path (perf.data) once, in file order. FALSE with @error naming the file when it cannot
 * be read to its end; what was counted before the damage is kept in @out. */
gboolean jvms_perf_losses_read  (const char *path, JvmsPerfLosses *out, GError **error);
void     jvms_perf_losses_clear (JvmsPerfLosses *losses);
