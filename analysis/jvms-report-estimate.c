/* jvms-report-estimate.c: time estimated from samples, for a recording without thread states
 * (jvms-report.h). A thread's samples of each kind over [from, to) are two values of its
 * counter Threads/<tid>/samples/<kind> apart (docs/attributes.md), read for every thread by two
 * full queries whatever the number of threads; each sample stands for its sampler's interval
 * (jvms-recording-info.h). */
#include "jvms-report-private.h"

#include "jvms-jfr-recording.h"

#include <string.h>

/* Where a sample of kind @k of an application thread is charged, and under which key. */
static gboolean
app_charge (JvmsSampled k, JvmsFindingKind *kind, const char **key)
{
  *key = NULL;
  switch (k)
    {
    case JVMS_SAMPLED_CPU:
    case JVMS_SAMPLED_RUNNING:
    case JVMS_SAMPLED_NATIVE:
      *kind = JVMS_FINDING_PROGRAM_LOGIC;
      return TRUE;
    case JVMS_SAMPLED_SLEEPING:
      *kind = JVMS_FINDING_SLEEPING;
      return TRUE;
    case JVMS_SAMPLED_PARKED:
      *kind = JVMS_FINDING_PARKING;
      *key = "LockSupport.park (sampled)";
      return TRUE;
    case JVMS_SAMPLED_WAITING:
      *kind = JVMS_FINDING_PARKING;
      *key = "Object.wait (sampled)";
      return TRUE;
    case JVMS_SAMPLED_BLOCKED:
      *kind = JVMS_FINDING_MONITOR_CONTENTION;
      /* The monitor evidence is "class@address": a sample names neither. */
      *key = "a monitor (sampled)@0";
      return TRUE;
    case JVMS_SAMPLED_SOCKET_IO:
      *kind = JVMS_FINDING_IO;
      *key = "socket (sampled)";
      return TRUE;
    case JVMS_SAMPLED_FILE_IO:
      *kind = JVMS_FINDING_IO;
      *key = "file (sampled)";
      return TRUE;
    case JVMS_SAMPLED_OFF_CPU:
      /* As the kernel rule: blocked in a system call nobody named is most often a futex. */
      *kind = JVMS_FINDING_PARKING;
      *key = "off CPU in a system call (sampled)";
      return TRUE;
    case JVMS_SAMPLED_UNKNOWN:
    default:
      return FALSE;
    }
}

/* The count of every counter at @time (0 before the history or without a value). */
static gboolean
counts_at (JvmsReportWork *w, gint64 time, GArray *out, GError **error)
{
  g_array_set_size (out, 0);
  if (time < jvms_history_get_start_time (w->history))
    return TRUE;
  w->n_queries++;
  return jvms_history_query_full (w->history, MIN (time, jvms_history_get_end_time (w->history)),
                                  out, error);
}

static guint64
count_of (GArray *full, JvmsAttribute a)
{
  if (a == JVMS_ATTRIBUTE_INVALID || a >= full->len)
    return 0;
  const JvmsInterval *iv = &g_array_index (full, JvmsInterval, a);
  return iv->value.type == JVMS_VALUE_INT && iv->value.i > 0 ? (guint64) iv->value.i : 0;
}

static void
charge_estimate (JvmsReportWork *w, JvmsReportWalked *t, JvmsFindingKind kind, JvmsSampled k,
                 guint64 n, const char *key)
{
  gint64 interval = jvms_recording_info_interval (w->recording, k);
  if (n == 0 || interval <= 0)
    return;
  gint64 ns = (gint64) MIN (n, (guint64) (G_MAXINT64 / interval));
  ns *= interval;
  jvms_report_charge (w, t, kind, ns, key);
  t->total_ns += ns;
  t->estimated_ns += ns;
  t->sampled[k] += n;
  w->tallies[kind].estimated_ns += ns;
  w->tallies[kind].sampled[k] += n;
}

static void
estimate_thread (JvmsReportWork *w, JvmsReportWalked *t, const guint64 n[JVMS_SAMPLED_N])
{
  /* Wall-clock samples cover all the thread's time, each in its state, running included; CPU
   * samples say it was on a CPU, a finer measure of the same running time (async-profiler's
   * CPU interval is a twentieth of its wall clock's by default). Both are true and neither may
   * be added to the other: the running time is the larger of the CPU samples' time and the
   * running wall-clock samples' (which include time runnable, waiting for a CPU), the other
   * states the wall clock's. */
  gboolean wall = FALSE;
  for (guint k = 0; k < JVMS_SAMPLED_N; k++)
    if (jvms_sampled_sampler (k) == JVMS_SAMPLER_WALL && n[k] > 0
        && jvms_recording_info_interval (w->recording, k) > 0)
      wall = TRUE;
  JvmsSampled dropped = JVMS_SAMPLED_N;
  if (wall)
    {
      /* Compared only: as doubles, which cannot overflow. */
      double cpu_ns = (double) n[JVMS_SAMPLED_CPU] * (double) jvms_recording_info_interval (w->recording, JVMS_SAMPLED_CPU);
      double running_ns = (double) n[JVMS_SAMPLED_RUNNING]
                          * (double) jvms_recording_info_interval (w->recording, JVMS_SAMPLED_RUNNING);
      dropped = cpu_ns > running_ns ? JVMS_SAMPLED_RUNNING : JVMS_SAMPLED_CPU;
    }
  for (guint k = 0; k < JVMS_SAMPLED_N; k++)
    {
      if (!JVMS_SAMPLED_IS_TIME (k) || n[k] == 0 || k == dropped)
        continue;
      if (t->kind != JVMS_THREAD_KIND_JAVA)
        {
          /* JVM-internal threads cost what they run (jvms-report.h). */
          gboolean busy = k == JVMS_SAMPLED_CPU || k == JVMS_SAMPLED_RUNNING || k == JVMS_SAMPLED_NATIVE;
          if (!busy || t->kind == JVMS_THREAD_KIND_JFR)
            continue;
          JvmsFindingKind kind = t->kind == JVMS_THREAD_KIND_JIT ? JVMS_FINDING_JIT
                                 : t->kind == JVMS_THREAD_KIND_GC ? JVMS_FINDING_GC : JVMS_FINDING_SAFEPOINT;
          charge_estimate (w, t, kind, k, n[k], kind == JVMS_FINDING_GC ? NULL : t->name);
          continue;
        }
      JvmsFindingKind kind;
      const char *key;
      if (app_charge (k, &kind, &key))
        charge_estimate (w, t, kind, k, n[k], kind == JVMS_FINDING_SLEEPING ? t->name : key);
    }
}

gboolean
jvms_report_estimate_samples (JvmsReportWork *w, GError **error)
{
  if (w->recording == NULL || w->recording->thread_states || w->has_kernel || w->to <= w->from)
    return TRUE;
  JvmsHistory *h = w->history;
  /* Each thread's counters, looked up once. */
  g_autofree JvmsAttribute *attrs = g_new (JvmsAttribute, (gsize) w->threads->len * JVMS_SAMPLED_N);
  gboolean any = FALSE;
  for (guint i = 0; i < w->threads->len; i++)
    {
      JvmsReportWalked *t = g_ptr_array_index (w->threads, i);
      JvmsAttribute folder = t->info->folder != JVMS_ATTRIBUTE_INVALID
        ? jvms_history_lookup_child (h, t->info->folder, "samples") : JVMS_ATTRIBUTE_INVALID;
      for (guint k = 0; k < JVMS_SAMPLED_N; k++)
        {
          JvmsAttribute a = folder != JVMS_ATTRIBUTE_INVALID
            ? jvms_history_lookup_child (h, folder, jvms_sampled_name (k)) : JVMS_ATTRIBUTE_INVALID;
          attrs[(gsize) i * JVMS_SAMPLED_N + k] = a;
          any |= a != JVMS_ATTRIBUTE_INVALID;
        }
    }
  if (!any)
    return TRUE;

  /* Samples at or before a time: the counter's value there. [from, to) holds those after
   * from - 1 up to to - 1. */
  g_autoptr(GArray) before = g_array_new (FALSE, TRUE, sizeof (JvmsInterval));
  g_autoptr(GArray) after = g_array_new (FALSE, TRUE, sizeof (JvmsInterval));
  if (!counts_at (w, w->from - 1, before, error) || !counts_at (w, w->to - 1, after, error))
    return FALSE;
  for (guint i = 0; i < w->threads->len; i++)
    {
      guint64 n[JVMS_SAMPLED_N];
      for (guint k = 0; k < JVMS_SAMPLED_N; k++)
        {
          JvmsAttribute a = attrs[(gsize) i * JVMS_SAMPLED_N + k];
          guint64 x = count_of (after, a), y = count_of (before, a);
          n[k] = x > y ? x - y : 0;
        }
      estimate_thread (w, g_ptr_array_index (w->threads, i), n);
    }
  return TRUE;
}

gboolean
jvms_report_sample_on_cpu (JvmsReportWork *w, const char *type, const char *state)
{
  if (w->recording == NULL)
    return TRUE;
  if (jvms_jfr_recording_sampler_of (w->recording, type, state) == JVMS_SAMPLER_EXECUTION)
    return FALSE;
  if (w->recording->writer != JVMS_WRITER_ASYNC_PROFILER)
    return TRUE;
  const JvmsSamplerInfo *cpu = &w->recording->samplers[JVMS_SAMPLER_CPU];
  const JvmsSamplerInfo *wall = &w->recording->samplers[JVMS_SAMPLER_WALL];
  if (wall->source == JVMS_INTERVAL_NONE || g_strcmp0 (wall->type, type) != 0)
    return TRUE;
  if (cpu->source != JVMS_INTERVAL_NONE && g_strcmp0 (cpu->type, type) == 0)
    return state == NULL || strcmp (state, "STATE_DEFAULT") == 0;
  /* Wall clock only: its running samples are the CPU's. */
  return g_strcmp0 (state, "STATE_RUNNABLE") == 0;
}
