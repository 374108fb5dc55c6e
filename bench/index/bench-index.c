/* bench-index: indexes a large bundle recorded by the bench (cached in /tmp), and in the same
 * run reads the same files with `cat` to /dev/null, the baseline.
 *
 *   figure index_mb_per_s   trace bytes indexed per second of wall time
 *   figure events_per_s     events consumed from all readers per second
 *   figure peak_rss         peak resident memory of this process, MiB
 *   figure index_cpu_mb_per_s  trace bytes per second of CPU time (user + system)
 *   ratio  index_vs_read    our throughput over cat's
 *   figure wakers_time_pct  what keeping each wait's waker (kernel-state/waker, /device) adds to
 *                           the build's CPU time, median of alternate builds with and without
 *   figure wakers_bytes_pct what it adds to the index's bytes
 *
 * Usage: bench-index [SECONDS-OF-RECORDING] (default 20); JVMS_BENCH_DIR overrides the folder
 * (/tmp/jvmscope-bench-index). The recording is reused while it exists. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bench-common.h"
#include "jvms-build.h"
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
      g_printerr ("bench-index: %s: %s\n", argv[0], error->message);
      exit (1);
    }
}

/* One build of @bundle into @dir, with or without wakers: its CPU seconds and index bytes. */
static void
build_once (const char *bundle, const char *dir, gboolean wakers, double *cpu, double *bytes)
{
  g_autofree char *index_path = g_build_filename (dir, "w.jvmsidx", NULL);
  g_autofree char *samples_path = g_build_filename (dir, "w.samples", NULL);
  JvmsBuildRequest req = {
    .kind = JVMS_TRACE_KIND_BUNDLE,
    .trace_path = bundle,
    .index_path = index_path,
    .samples_path = samples_path,
    .identity = "bench",
    .without_wakers = !wakers,
  };
  JvmsBuildResult res = { 0 };
  g_autoptr(GError) error = NULL;
  double t = jvms_bench_rusage_cpu_s (RUSAGE_SELF);
  if (!jvms_build_index (&req, &res, NULL, &error))
    {
      g_printerr ("bench-index: %s\n", error->message);
      exit (1);
    }
  *cpu = jvms_bench_rusage_cpu_s (RUSAGE_SELF) - t;
  GStatBuf st;
  *bytes = g_stat (index_path, &st) == 0 ? (double) st.st_size : 0;
  g_clear_pointer (&res.history, jvms_history_unref);
  g_clear_pointer (&res.warnings, g_ptr_array_unref);
  g_clear_pointer (&res.notes, g_ptr_array_unref);
  g_unlink (index_path);
  g_unlink (samples_path);
}

/* What keeping wakers costs: builds with and without, alternately (the machine's load moves
 * under long runs), medians of each. */
static void
wakers_cost (const char *bundle, const char *base)
{
  enum { N = 3 };
  double cpu[2][N], bytes[2][N];
  g_autofree char *dir = g_build_filename (base, "wakers", NULL);
  g_mkdir_with_parents (dir, 0700);
  for (guint i = 0; i < N; i++)
    for (guint w = 0; w < 2; w++)
      build_once (bundle, dir, w == 1, &cpu[w][i], &bytes[w][i]);
  double with = jvms_bench_median (cpu[1], N), without = jvms_bench_median (cpu[0], N);
  printf ("# wakers: CPU %.2f s with, %.2f s without (medians of %d); index %.1f MB with, %.1f MB without\n",
          with, without, N, bytes[1][0] / 1e6, bytes[0][0] / 1e6);
  printf ("figure wakers_time_pct %.1f %%\n", 100 * (with / without - 1));
  printf ("figure wakers_bytes_pct %.1f %%\n", 100 * (bytes[1][0] / bytes[0][0] - 1));
  g_rmdir (dir);
}

static double
cat_seconds (const char *bundle)
{
  g_autofree char *jfr = g_build_filename (bundle, "recording.jfr", NULL);
  g_autofree char *perf = g_build_filename (bundle, "kernel.perf.data", NULL);
  g_autofree char *cmd = g_strdup_printf ("cat '%s' '%s' > /dev/null", jfr, perf);
  const char *argv[] = { "sh", "-c", cmd, NULL };
  double t = jvms_bench_wall_s ();
  run (argv);
  return jvms_bench_wall_s () - t;
}

int
main (int argc, char **argv)
{
  const char *seconds = argc > 1 ? argv[1] : "20";
  const char *base = g_getenv ("JVMS_BENCH_DIR") != NULL ? g_getenv ("JVMS_BENCH_DIR") : "/tmp/jvmscope-bench-index";
  g_autofree char *bundle = g_strdup_printf ("%s/handoff-%ss.jvmtrace", base, seconds);
  g_autofree char *classes = g_build_filename (base, "classes", NULL);
  g_autofree char *cache = g_build_filename (base, "cache", NULL);
  g_mkdir_with_parents (base, 0700);

  g_autofree char *bundle_json = g_build_filename (bundle, "bundle.json", NULL);
  if (!g_file_test (bundle_json, G_FILE_TEST_EXISTS))
    {
      g_printerr ("bench-index: recording %s s of Handoff into %s\n", seconds, bundle);
      const char *javac[] = { "javac", "-d", classes, BENCH_SRCDIR "/Handoff.java", NULL };
      run (javac);
      const char *record[] = { JVMS_CLI, "record", "-o", bundle, "--", "java", "-cp", classes, "Handoff", seconds, NULL };
      run (record);
    }

  double cat1 = cat_seconds (bundle);

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (bundle, &error);
  if (index == NULL)
    {
      g_printerr ("bench-index: %s\n", error->message);
      return 1;
    }
  jvms_trace_index_set_cache_dir (index, cache);
  jvms_trace_index_set_force_rebuild (index, TRUE);
  struct rusage before;
  getrusage (RUSAGE_SELF, &before);
  double t = jvms_bench_wall_s ();
  if (!jvms_trace_index_load (index, NULL, &error))
    {
      g_printerr ("bench-index: %s\n", error->message);
      return 1;
    }
  double secs = jvms_bench_wall_s () - t;
  double cat2 = cat_seconds (bundle);
  double cat = MIN (cat1, cat2);

  JvmsTraceIndexStats stats;
  jvms_trace_index_get_stats (index, &stats);
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  double cpu = (ru.ru_utime.tv_sec - before.ru_utime.tv_sec) + (ru.ru_utime.tv_usec - before.ru_utime.tv_usec) / 1e6
               + (ru.ru_stime.tv_sec - before.ru_stime.tv_sec) + (ru.ru_stime.tv_usec - before.ru_stime.tv_usec) / 1e6;
  double mb = stats.input_bytes / 1e6;
  printf ("# bundle %s: %.1f MB, %" G_GUINT64_FORMAT " events, index %.1f MB, %" G_GUINT64_FORMAT " intervals, %.2f s (cat %.2f s)\n",
          bundle, mb, stats.n_events, stats.index_bytes / 1e6, stats.n_intervals, secs, cat);
  printf ("figure index_mb_per_s %.1f MB/s\n", mb / secs);
  printf ("figure events_per_s %.0f events/s\n", stats.n_events / secs);
  printf ("figure peak_rss %.1f MiB\n", ru.ru_maxrss / 1024.0);
  /* The machine is shared: CPU time says what the indexer costs whatever the load. */
  printf ("figure index_cpu_mb_per_s %.1f MB/s\n", mb / cpu);
  printf ("ratio index_vs_read %.3f\n", (mb / secs) / (mb / cat));
  wakers_cost (bundle, base);
  return 0;
}
