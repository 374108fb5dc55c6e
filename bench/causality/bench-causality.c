/* bench-causality: the critical path (analysis/jvms-critical-path.c) of random threads of the
 * JVM over random ranges, on a large bundle recorded by the bench (bench/index's Handoff.java:
 * pairs of threads handing a token back and forth, every hand-off a wake-up, so that paths are
 * long chains), cached in /tmp.
 *
 *   figure critical_path_p50 / critical_path_p99         wall time of one path, ms
 *   figure critical_path_cpu_p50 / critical_path_cpu_p99 CPU time of the calling thread, ms
 *   figure segments_p99                                  segments of a path
 *   ratio  path_vs_read_p50  a path's wall time over the baseline's, medians: the baseline reads
 *                            the asked thread's kernel states over the same range (one history
 *                            query, every interval iterated), in the same run, the same ranges
 *   figure critical_path_cpu_wait_p50                    the calling thread's time waiting for a
 *                                                        CPU during a path (schedstat run_delay), ms
 *   figure slow_queries_cpu_wait_share                   of the slowest 2 % of paths' wall time,
 *                                                        the share spent waiting for a CPU
 * and a line for each of those slowest paths: its wall and CPU time, its wait for a CPU, the rest
 * (neither: the disk, a lock), its major page faults and its segments.
 *
 * Threads: those of the recorded JVM with a kernel state; ranges: a start uniform over the trace,
 * a length log-uniform from 1 ms to the whole trace (clipped at its end); a fixed seed, so that
 * runs ask the same questions. The index's node cache is warm after the first queries: the
 * figures are those of a user asking path after path in one session.
 *
 * Usage: bench-causality [SECONDS-OF-RECORDING] [QUERIES] (defaults 25 s, about 1 GB of trace,
 * and 200); JVMS_BENCH_DIR overrides the folder (/tmp/jvmscope-bench-causality). The recording
 * and its index are reused while they exist.
 *
 * JVMS_BENCH_QUESTION="TID FROM TO [TIMES]" asks that one question instead (FROM and TO in ns
 * from the trace's start, as a slow query's line gives them) TIMES times (1) in one process, and
 * prints the wall and CPU time of each: a profiler (perf record, callgrind's
 * --toggle-collect=jvms_critical_path_compute) then sees the path alone, without the CLI's
 * JSON. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench-common.h"
#include "jvms-critical-path.h"
#include "jvms-scope.h"
#include "jvms-thread-list.h"
#include "jvms-trace-index.h"

static void
run (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  int status = 0;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("bench-causality: %s: %s\n", argv[0], error->message);
      exit (1);
    }
}

/* The calling thread's time waiting for a CPU (run_delay of /proc/thread-self/schedstat), ms;
 * 0 without schedstats. */
static double
thread_run_delay_ms (void)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/proc/thread-self/schedstat", &text, NULL, NULL))
    return 0;
  guint64 run = 0, delay = 0;
  if (sscanf (text, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &run, &delay) != 2)
    return 0;
  return delay / 1e6;
}

/* The calling thread's major page faults so far (pages read from disk). */
static long
thread_major_faults (void)
{
  struct rusage ru;
  return getrusage (RUSAGE_THREAD, &ru) == 0 ? ru.ru_majflt : 0;
}

/* The baseline: the asked thread's kernel states over [from, to), read and iterated. */
static gint64
read_states (JvmsHistory *history, JvmsAttribute kernel, gint64 from, gint64 to)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistoryRange) range = jvms_history_query_range (history, from, to, &kernel, 1, &error);
  gint64 n = 0;
  JvmsInterval iv;
  while (range != NULL && jvms_history_range_next (range, &iv, &error))
    n++;
  if (error != NULL)
    {
      g_printerr ("bench-causality: %s\n", error->message);
      exit (1);
    }
  return n;
}

int
main (int argc, char **argv)
{
  const char *seconds = argc > 1 ? argv[1] : "25";
  guint queries = argc > 2 ? (guint) CLAMP (atoi (argv[2]), 1, 100000) : 200;
  const char *base = g_getenv ("JVMS_BENCH_DIR") != NULL ? g_getenv ("JVMS_BENCH_DIR") : "/tmp/jvmscope-bench-causality";
  g_autofree char *bundle = g_strdup_printf ("%s/handoff-%ss.jvmtrace", base, seconds);
  g_autofree char *classes = g_build_filename (base, "classes", NULL);
  g_autofree char *cache = g_build_filename (base, "cache", NULL);
  g_mkdir_with_parents (base, 0700);

  g_autofree char *bundle_json = g_build_filename (bundle, "bundle.json", NULL);
  if (!g_file_test (bundle_json, G_FILE_TEST_EXISTS))
    {
      g_printerr ("bench-causality: recording %s s of Handoff into %s\n", seconds, bundle);
      const char *javac[] = { "javac", "-d", classes, HANDOFF_JAVA, NULL };
      run (javac);
      const char *record[] = { JVMS_CLI, "record", "-o", bundle, "--", "java", "-cp", classes, "Handoff", seconds, NULL };
      run (record);
    }

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (bundle, &error);
  if (index != NULL)
    jvms_trace_index_set_cache_dir (index, cache);
  if (index == NULL || !jvms_trace_index_load (index, NULL, &error))
    {
      g_printerr ("bench-causality: %s\n", error->message);
      return 1;
    }
  JvmsTraceIndexStats stats;
  jvms_trace_index_get_stats (index, &stats);
  g_autoptr(JvmsHistory) history = jvms_trace_index_dup_history (index);
  gint64 pid = 0;
  if (!jvms_scope_choose_jvm (history, bundle, 0, &pid, &error))
    {
      g_printerr ("bench-causality: %s\n", error->message);
      return 1;
    }
  g_autoptr(JvmsThreadList) list = jvms_thread_list_read (history);
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (const JvmsThreadInfo *));
  for (guint i = 0; i < jvms_thread_list_get_len (list); i++)
    {
      const JvmsThreadInfo *info = jvms_thread_list_get (list, i);
      if (info->pid == pid && info->kernel_state != JVMS_ATTRIBUTE_INVALID)
        g_array_append_val (threads, info);
    }
  if (threads->len == 0)
    {
      g_printerr ("bench-causality: %s: no thread of the JVM (pid %" G_GINT64_FORMAT ") has a kernel state\n",
                  bundle, pid);
      return 1;
    }
  gint64 start = jvms_history_get_start_time (history), end = jvms_history_get_end_time (history);
  const char *question = g_getenv ("JVMS_BENCH_QUESTION");
  if (question != NULL)
    {
      gint64 tid = 0, from = 0, to = 0;
      guint times = 1;
      if (sscanf (question, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %u",
                  &tid, &from, &to, &times) < 3)
        {
          g_printerr ("bench-causality: JVMS_BENCH_QUESTION is \"TID FROM TO [TIMES]\"\n");
          return 1;
        }
      for (guint i = 0; i < MAX (times, 1u); i++)
        {
          gint64 t0 = g_get_monotonic_time ();
          double c0 = jvms_bench_thread_cpu_ms ();
          g_autoptr(JvmsCriticalPath) p = jvms_critical_path_compute (history, tid, start + from, start + to, NULL, &error);
          double cpu_ms = jvms_bench_thread_cpu_ms () - c0;
          if (p == NULL)
            {
              g_printerr ("bench-causality: %s\n", error->message);
              return 1;
            }
          printf ("question %u: %.3f ms wall, %.3f ms CPU, %u segments, %u hand-offs\n", i,
                  (g_get_monotonic_time () - t0) / 1e3, cpu_ms, p->segments->len, p->handoffs->len);
        }
      return 0;
    }
  /* A cached index reads no input: the bundle's size is its files'. */
  guint64 input = 0;
  g_autoptr(GDir) dir = g_dir_open (bundle, 0, NULL);
  for (const char *name; dir != NULL && (name = g_dir_read_name (dir)) != NULL;)
    {
      g_autofree char *file = g_build_filename (bundle, name, NULL);
      GStatBuf st;
      if (g_stat (file, &st) == 0)
        input += st.st_size;
    }
  stats.input_bytes = MAX (stats.input_bytes, input);
  printf ("# bundle %s: %.1f MB, index %.1f MB, %.3f s, %u threads of pid %" G_GINT64_FORMAT ", %u queries\n",
          bundle, stats.input_bytes / 1e6, stats.index_bytes / 1e6, (end - start) / 1e9, threads->len, pid, queries);

  g_autofree double *wall = g_new (double, queries), *cpu = g_new (double, queries);
  g_autofree double *segs = g_new (double, queries), *read = g_new (double, queries);
  /* Where a slow query's wall time went: on a CPU, waiting for one, or neither (disk). */
  g_autofree double *delay = g_new (double, queries), *sorted_wall = g_new (double, queries);
  g_autofree long *faults = g_new (long, queries);
  /* Each question, so that a slow one can be asked again alone (jvmscope-cli critical-path). */
  g_autofree gint64 *tids = g_new (gint64, queries), *froms = g_new (gint64, queries), *tos = g_new (gint64, queries);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20);
  double span = (double) (end - start);
  guint hops_max = 0, threads_max = 0;
  for (guint q = 0; q < queries; q++)
    {
      const JvmsThreadInfo *info = g_array_index (threads, const JvmsThreadInfo *,
                                                  g_rand_int_range (rand, 0, (gint32) threads->len));
      double len = exp (g_rand_double_range (rand, log (1e6), log (MAX (span, 1e6 + 1))));
      gint64 from = start + (gint64) g_rand_double_range (rand, 0, span);
      gint64 to = MIN (end, from + (gint64) len);

      tids[q] = info->tid;
      froms[q] = from;
      tos[q] = to;
      double d0 = thread_run_delay_ms ();
      long f0 = thread_major_faults ();
      gint64 t0 = g_get_monotonic_time ();
      double c0 = jvms_bench_thread_cpu_ms ();
      g_autoptr(JvmsCriticalPath) p = jvms_critical_path_compute (history, info->tid, from, to, NULL, &error);
      cpu[q] = jvms_bench_thread_cpu_ms () - c0;
      wall[q] = (g_get_monotonic_time () - t0) / 1e3;
      delay[q] = thread_run_delay_ms () - d0;
      faults[q] = thread_major_faults () - f0;
      if (p == NULL)
        {
          g_printerr ("bench-causality: %s\n", error->message);
          return 1;
        }
      segs[q] = p->segments->len;
      hops_max = MAX (hops_max, p->handoffs->len);
      threads_max = MAX (threads_max, p->n_threads);

      t0 = g_get_monotonic_time ();
      read_states (history, info->kernel_state, from, to);
      read[q] = (g_get_monotonic_time () - t0) / 1e3;
    }
  /* The slowest queries (the 1 % above the p99's and the p99 itself), before the sorts below. */
  memcpy (sorted_wall, wall, queries * sizeof (double));
  double slow = jvms_bench_percentile (sorted_wall, queries, 0.98);
  double delay_sum = 0, delay_slow = 0, wall_slow = 0;
  for (guint q = 0; q < queries; q++)
    {
      delay_sum += delay[q];
      if (wall[q] < slow)
        continue;
      delay_slow += delay[q];
      wall_slow += wall[q];
      printf ("# slow query %u: %.3f ms wall, %.3f ms CPU, %.3f ms waiting for a CPU, %.3f ms neither, "
              "%ld major faults, %.0f segments (--thread %" G_GINT64_FORMAT " --from %" G_GINT64_FORMAT
              "ns --to %" G_GINT64_FORMAT "ns)\n", q, wall[q], cpu[q], delay[q],
              MAX (0, wall[q] - cpu[q] - delay[q]), faults[q], segs[q], tids[q], froms[q] - start, tos[q] - start);
    }
  printf ("figure slow_queries_cpu_wait_share %.2f\n", wall_slow > 0 ? delay_slow / wall_slow : 0);
  printf ("figure critical_path_cpu_wait_p50 %.3f ms\n", jvms_bench_percentile (delay, queries, 0.5));
  double wall_p50 = jvms_bench_percentile (wall, queries, 0.5), read_p50 = jvms_bench_percentile (read, queries, 0.5);
  printf ("# at most %u hand-offs and %u threads on one path\n", hops_max, threads_max);
  printf ("figure critical_path_p50 %.3f ms\n", wall_p50);
  printf ("figure critical_path_p99 %.3f ms\n", jvms_bench_percentile (wall, queries, 0.99));
  printf ("figure critical_path_cpu_p50 %.3f ms\n", jvms_bench_percentile (cpu, queries, 0.5));
  printf ("figure critical_path_cpu_p99 %.3f ms\n", jvms_bench_percentile (cpu, queries, 0.99));
  printf ("figure segments_p99 %.0f segments\n", jvms_bench_percentile (segs, queries, 0.99));
  printf ("figure read_states_p50 %.3f ms\n", read_p50);
  printf ("ratio path_vs_read_p50 %.2f\n", read_p50 > 0 ? wall_p50 / read_p50 : 0);
  return 0;
}
