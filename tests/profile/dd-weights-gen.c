/* dd-weights-gen PATH [CPU_ONLY_PATH]: writes a recording as dd-trace-java's profiler (ddprof)
 * writes one (tests/report/profiler-gen.c), whose CPU samples (datadog.ExecutionSample) carry
 * weights of 1 to 5 and whose wall-clock samples (datadog.MethodSample) weights of 1 to 3, on
 * three threads over 900 ms, its DatadogProfilerConfig saying a CPU interval of 10 ms and a
 * wall-clock one of 20 ms. profile-oracle compares the profile of it with jfr print's reading:
 * no public recording holds ddprof's samples (tests/jfr/testdata/README.md).
 * CPU_ONLY_PATH: the same without the wall-clock samples, so that the wall kind is the CPU
 * samples weighted by their period: CPU sample i (0 to 89) is on stack i % 3 with weight
 * i % 5 + 1, as profile-oracle's model of it says. */
#include <glib.h>

#include "profiler-gen.h"

#define MS G_GINT64_CONSTANT (1000000)

int
main (int argc, char **argv)
{
  if (argc != 2 && argc != 3)
    {
      g_printerr ("usage: dd-weights-gen PATH [CPU_ONLY_PATH]\n");
      return 2;
    }
  static const ProfilerGenThread threads[] = { { 801, "worker-1" }, { 802, "worker-2" }, { 803, "sleeper" } };
  static const ProfilerGenStack stacks[] = {
    { { "app.Work.spin", "app.Work.run", NULL } },
    { { "app.Work.hash", "app.Work.run", NULL } },
    { { "app.Work.hash", "app.Work.batch", "app.Work.run", NULL } },
    { { "java.lang.Thread.sleep", "app.Nap.run", NULL } },
  };
  ProfilerGenSample samples[120];
  guint n = 0;
  for (guint i = 0; i < 90; i++)
    samples[n++] = (ProfilerGenSample) { PROFILER_GEN_CPU, i % 2, (gint64) (5 + 10 * i) * MS, i % 3,
                                         "RUNNABLE", i % 5 + 1 };
  guint n_cpu = n;
  for (guint i = 0; i < 30; i++)
    samples[n++] = (ProfilerGenSample) { PROFILER_GEN_WALL, 2, (gint64) (7 + 30 * i) * MS, 3,
                                         "SLEEPING", i % 3 + 1 };
  ProfilerGenSettings settings = { .dd_trace = TRUE, .dd_cpu_interval_ms = 10, .dd_wall_interval_ms = 20 };
  profiler_gen_write (argv[1], &settings, threads, G_N_ELEMENTS (threads), stacks, G_N_ELEMENTS (stacks),
                      samples, n, 900 * MS);
  if (argc == 3)
    profiler_gen_write (argv[2], &settings, threads, G_N_ELEMENTS (threads), stacks, G_N_ELEMENTS (stacks),
                        samples, n_cpu, 900 * MS);
  return 0;
}
