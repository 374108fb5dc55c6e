/* bench-record: what `jvmscope-cli record` costs a JVM that is not scheduler-bound.
 *
 * Runs bench/record/Bench.java RUNS times plain and RUNS times under the recorder, alternating so
 * that the machine's load falls on both alike, and compares the medians of the time the
 * workload itself measures for its work (start-up and the final dump excluded):
 *   figure overhead_percent      wall time of the work, recorded over plain, minus 1
 *   figure cpu_overhead_percent  CPU time of the JVM during the work, likewise
 *   figure bytes_per_second      bundle size over the recording's duration
 *   ratio record_over_plain      the wall-time ratio
 * and what the counters read at each context switch cost (docs/records.md): a third run each
 * round, recorded with --no-switch-counters (a plain sched_switch), against the recorded one:
 *   figure switch_counters_overhead_percent      wall time of the work, with them over without, minus 1
 *   figure switch_counters_cpu_overhead_percent  CPU time of the JVM during the work, likewise
 *   figure record_cpu_s / record_cpu_s_without_switch_counters
 *                                the whole command's CPU time (JVM, perf, recorder), medians
 *   ratio with_over_without_switch_counters      the wall-time ratio
 * and what attaching to a running JVM costs the user in time: RUNS times
 * `jvmscope-cli record --pid PID --duration 3` on the same workload (running long):
 *   figure attach_overhead_s     the command's wall time minus the 3 s asked for (perf's probe and
 *                                start, jcmd's attach, JFR's file, perf's stop), median
 *   figure attach_cpu_s          CPU time of the command and its helpers (perf, jcmd), median
 *   ratio attach_over_duration   the command's wall time over the 3 s asked for
 * Usage: bench-record [RUNS (3)] [ROUNDS (20000)]
 */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench-common.h"

static gboolean
run (const char * const *argv, char **out, GError **error)
{
  int status;
  g_autofree char *err = NULL;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, &err, &status, error))
    return FALSE;
  if (!g_spawn_check_wait_status (status, error))
    {
      g_prefix_error (error, "%s: %s: ", argv[0], err);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_work (const char *out, double *wall, double *cpu)
{
  const char *w = strstr (out, "work_ns ");
  const char *c = strstr (out, "cpu_ns ");
  if (w == NULL || c == NULL)
    return FALSE;
  *wall = g_ascii_strtod (w + strlen ("work_ns "), NULL);
  *cpu = g_ascii_strtod (c + strlen ("cpu_ns "), NULL);
  return TRUE;
}

static guint64
dir_bytes (const char *dir)
{
  guint64 total = 0;
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      GStatBuf st;
      if (g_stat (p, &st) == 0)
        total += st.st_size;
    }
  return total;
}

static double
recording_seconds (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "bundle.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  if (!json_parser_load_from_file (parser, path, NULL))
    return 0;
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  return (json_object_get_int_member (o, "end_monotonic_ns") - json_object_get_int_member (o, "start_monotonic_ns")) / 1e9;
}

static void remove_dir (const char *dir);

/* The bundle's bytes per second of recording; removes it. */
static double
take_rate (const char *dir)
{
  double secs = recording_seconds (dir);
  double rate = secs > 0 ? dir_bytes (dir) / secs : 0;
  remove_dir (dir);
  return rate;
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_unlink (p);
    }
  g_rmdir (dir);
}

#define ATTACH_DURATION_S 3

/* `record --pid --duration 3` against a running Bench: wall and CPU time of each command. */
static gboolean
measure_attach (const char *classes, const char *tmp, int runs, double *wall, double *cpu, GError **error)
{
  /* Enough rounds to outlive every attach. */
  const char *target[] = { "java", "-cp", classes, "Bench", "2000000000", NULL };
  g_autoptr(GSubprocess) jvm = g_subprocess_newv (target, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, error);
  if (jvm == NULL)
    return FALSE;
  g_usleep (3 * G_USEC_PER_SEC);   /* the JVM is up and warming up */
  const char *pid = g_subprocess_get_identifier (jvm);
  g_autofree char *out_dir = g_build_filename (tmp, "a.jvmtrace", NULL);
  g_autofree char *duration = g_strdup_printf ("%d", ATTACH_DURATION_S);
  gboolean ok = TRUE;
  for (int i = 0; ok && i < runs; i++)
    {
      const char *attach[] = { JVMSCOPE_CLI, "record", "-o", out_dir, "--pid", pid, "--duration", duration, NULL };
      double c0 = jvms_bench_rusage_cpu_s (RUSAGE_CHILDREN);
      gint64 t0 = g_get_monotonic_time ();
      ok = run (attach, NULL, error);
      wall[i] = (g_get_monotonic_time () - t0) / 1e6;
      cpu[i] = jvms_bench_rusage_cpu_s (RUSAGE_CHILDREN) - c0;
      fprintf (stderr, "attach %d: %.3f s wall, %.3f s CPU\n", i, wall[i], cpu[i]);
      remove_dir (out_dir);
    }
  g_subprocess_force_exit (jvm);
  g_subprocess_wait (jvm, NULL, NULL);
  return ok;
}

int
main (int argc, char **argv)
{
  int runs = argc > 1 ? atoi (argv[1]) : 3;
  const char *rounds = argc > 2 ? argv[2] : "20000";
  if (runs < 1 || runs > 50)
    {
      fprintf (stderr, "usage: bench-record [RUNS (1-50)] [ROUNDS]\n");
      return 2;
    }
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("jvmscope-bench-record-XXXXXX", &error);
  if (tmp == NULL)
    {
      fprintf (stderr, "bench-record: %s\n", error->message);
      return 1;
    }
  g_autofree char *classes = g_build_filename (tmp, "classes", NULL);
  const char *javac[] = { "javac", "-d", classes, BENCH_JAVA_SOURCE, NULL };
  if (!run (javac, NULL, &error))
    {
      fprintf (stderr, "bench-record: javac: %s\n", error->message);
      return 1;
    }

  g_autofree double *plain_wall = g_new (double, runs), *plain_cpu = g_new (double, runs);
  g_autofree double *rec_wall = g_new (double, runs), *rec_cpu = g_new (double, runs);
  g_autofree double *rates = g_new (double, runs), *bare_rates = g_new (double, runs);
  g_autofree double *bare_wall = g_new (double, runs), *bare_cpu = g_new (double, runs);
  g_autofree double *rec_all = g_new (double, runs), *bare_all = g_new (double, runs);
  g_autofree char *out_dir = g_build_filename (tmp, "b.jvmtrace", NULL);
  for (int i = 0; i < runs; i++)
    {
      g_autofree char *out1 = NULL, *out2 = NULL, *out3 = NULL;
      const char *plain[] = { "java", "-cp", classes, "Bench", rounds, NULL };
      const char *recorded[] = { JVMSCOPE_CLI, "record", "-o", out_dir, "--", "java", "-cp", classes, "Bench", rounds, NULL };
      const char *bare[] = { JVMSCOPE_CLI, "record", "-o", out_dir, "--no-switch-counters", "--", "java", "-cp",
                             classes, "Bench", rounds, NULL };
      double c0 = 0, c1 = 0, c2 = 0;
      gboolean ok = run (plain, &out1, &error) && parse_work (out1, &plain_wall[i], &plain_cpu[i]);
      if (ok)
        {
          /* Which of the two recordings goes first alternates: neither always follows the plain run. */
          const char * const *first = i % 2 ? bare : recorded, * const *second = i % 2 ? recorded : bare;
          char **first_out = i % 2 ? &out3 : &out2, **second_out = i % 2 ? &out2 : &out3;
          c0 = jvms_bench_rusage_cpu_s (RUSAGE_CHILDREN);
          ok = run (first, first_out, &error);
          c1 = jvms_bench_rusage_cpu_s (RUSAGE_CHILDREN);
          *(i % 2 ? &bare_rates[i] : &rates[i]) = take_rate (out_dir);
          if (ok)
            ok = run (second, second_out, &error);
          c2 = jvms_bench_rusage_cpu_s (RUSAGE_CHILDREN);
          *(i % 2 ? &rates[i] : &bare_rates[i]) = take_rate (out_dir);
          rec_all[i] = i % 2 ? c2 - c1 : c1 - c0;
          bare_all[i] = i % 2 ? c1 - c0 : c2 - c1;
        }
      if (!ok || !parse_work (out2, &rec_wall[i], &rec_cpu[i]) || !parse_work (out3, &bare_wall[i], &bare_cpu[i]))
        {
          fprintf (stderr, "bench-record: run %d: %s\n", i, error != NULL ? error->message : "no work_ns line");
          return 1;
        }
      fprintf (stderr, "run %d: plain %.3f s (CPU %.3f s), recorded %.3f s (CPU %.3f s), without switch counters "
               "%.3f s (CPU %.3f s); command CPU %.3f / %.3f s; %.0f bytes/s\n", i, plain_wall[i] / 1e9,
               plain_cpu[i] / 1e9, rec_wall[i] / 1e9, rec_cpu[i] / 1e9, bare_wall[i] / 1e9, bare_cpu[i] / 1e9,
               rec_all[i], bare_all[i], rates[i]);
    }
  g_autofree double *attach_wall = g_new (double, runs), *attach_cpu = g_new (double, runs);
  if (!measure_attach (classes, tmp, runs, attach_wall, attach_cpu, &error))
    {
      fprintf (stderr, "bench-record: attach: %s\n", error->message);
      return 1;
    }
  remove_dir (classes);   /* only Bench*.class files */
  g_rmdir (tmp);

  double wall_ratio = jvms_bench_median (rec_wall, runs) / jvms_bench_median (plain_wall, runs);
  double cpu_ratio = jvms_bench_median (rec_cpu, runs) / jvms_bench_median (plain_cpu, runs);
  printf ("figure overhead_percent %.2f %%\n", (wall_ratio - 1) * 100);
  printf ("figure cpu_overhead_percent %.2f %%\n", (cpu_ratio - 1) * 100);
  printf ("figure bytes_per_second %.0f B/s\n", jvms_bench_median (rates, runs));
  printf ("ratio record_over_plain %.4f\n", wall_ratio);
  double switch_ratio = jvms_bench_median (rec_wall, runs) / jvms_bench_median (bare_wall, runs);
  printf ("figure switch_counters_overhead_percent %.2f %%\n", (switch_ratio - 1) * 100);
  printf ("figure switch_counters_cpu_overhead_percent %.2f %%\n",
          (jvms_bench_median (rec_cpu, runs) / jvms_bench_median (bare_cpu, runs) - 1) * 100);
  printf ("figure record_cpu_s %.2f s\n", jvms_bench_median (rec_all, runs));
  printf ("figure record_cpu_s_without_switch_counters %.2f s\n", jvms_bench_median (bare_all, runs));
  printf ("ratio with_over_without_switch_counters %.4f\n", switch_ratio);
  printf ("figure bytes_per_second_without_switch_counters %.0f B/s\n", jvms_bench_median (bare_rates, runs));
  double attach_median = jvms_bench_median (attach_wall, runs);
  printf ("figure attach_overhead_s %.2f s\n", attach_median - ATTACH_DURATION_S);
  printf ("figure attach_cpu_s %.2f s\n", jvms_bench_median (attach_cpu, runs));
  printf ("ratio attach_over_duration %.3f\n", attach_median / ATTACH_DURATION_S);
  return 0;
}
