/* sampled-fixture.c: see sampled-fixture.h. */
#include "sampled-fixture.h"

const ProfilerGenThread sampled_threads[] = {
  { 501, "worker" },
  { 502, "server" },
};
const guint sampled_n_threads = G_N_ELEMENTS (sampled_threads);

/* What each stack's top Java frame makes of a sample "interrupted in a system call". */
static const ProfilerGenStack stacks[] = {
  { { "app.Work.compute", "java.lang.Thread.run", NULL } },
  { { "java.lang.Thread.sleep", "app.Work.nap", NULL } },
  { { "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park", NULL } },
  { { "sun.nio.ch.EPoll.wait", "sun.nio.ch.EPollSelectorImpl.doSelect", NULL } },
  { { "java.io.FileInputStream.readBytes", "app.Work.load", NULL } },
  { { "app.Native.call", "app.Work.run", NULL } },
  { { "java.lang.Object.wait", "app.Work.await", NULL } },
};
enum { RUN, SLEEP, PARK, SOCKET, FILE_READ, OTHER, WAIT };

static void
add (GArray *samples, GArray *points, ProfilerGenKind kind, guint thread, gint64 time, guint stack,
     const char *state, guint n, JvmsSampled as)
{
  ProfilerGenSample s = { kind, thread, time, stack, state, n };
  g_array_append_val (samples, s);
  if (kind == PROFILER_GEN_ALLOC)
    as = JVMS_SAMPLED_ALLOC;
  /* A batch of n: n samples an interval apart from its time (docs/writers.md). */
  for (guint i = 0; i < MAX (n, 1); i++)
    {
      SampledPoint p = { thread, time + (gint64) i * SAMPLED_INTERVAL, as };
      g_array_append_val (points, p);
    }
}

GBytes *
sampled_wall_build (GArray **out_points)
{
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (ProfilerGenSample));
  GArray *points = g_array_new (FALSE, FALSE, sizeof (SampledPoint));
  /* worker: 100 samples 10 ms apart, 3 in 10 running, 5 sleeping, 2 parked; 4 allocations. */
  for (guint i = 0; i < 100; i++)
    {
      gint64 t = 5 * SAMPLED_MS + (gint64) i * SAMPLED_INTERVAL;
      guint r = i % 10;
      if (r < 3)
        add (samples, points, PROFILER_GEN_WALL, 0, t, RUN, "STATE_RUNNABLE", 1, JVMS_SAMPLED_RUNNING);
      else if (r < 8)
        add (samples, points, PROFILER_GEN_WALL, 0, t, SLEEP, "STATE_SLEEPING", 1, JVMS_SAMPLED_SLEEPING);
      else
        add (samples, points, PROFILER_GEN_WALL, 0, t, PARK, "STATE_SLEEPING", 1, JVMS_SAMPLED_PARKED);
      if (i % 25 == 1)
        add (samples, points, PROFILER_GEN_ALLOC, 0, t + SAMPLED_MS, RUN, NULL, 1, JVMS_SAMPLED_ALLOC);
    }
  /* server: a batch of 40 idle samples in a socket poll, 10 running, a batch of 25 reading a
   * file, 5 off CPU in an unnamed call, 5 in Object.wait, 3 without a state. */
  add (samples, points, PROFILER_GEN_WALL, 1, 0, SOCKET, "STATE_SLEEPING", 40, JVMS_SAMPLED_SOCKET_IO);
  for (guint i = 0; i < 10; i++)
    add (samples, points, PROFILER_GEN_WALL, 1, 400 * SAMPLED_MS + i * SAMPLED_INTERVAL, RUN,
         "STATE_RUNNABLE", 1, JVMS_SAMPLED_RUNNING);
  add (samples, points, PROFILER_GEN_WALL, 1, 500 * SAMPLED_MS, FILE_READ, "STATE_SLEEPING", 25,
       JVMS_SAMPLED_FILE_IO);
  for (guint i = 0; i < 5; i++)
    add (samples, points, PROFILER_GEN_WALL, 1, 750 * SAMPLED_MS + i * SAMPLED_INTERVAL, OTHER,
         "STATE_SLEEPING", 1, JVMS_SAMPLED_OFF_CPU);
  for (guint i = 0; i < 5; i++)
    add (samples, points, PROFILER_GEN_WALL, 1, 800 * SAMPLED_MS + i * SAMPLED_INTERVAL, WAIT,
         "STATE_SLEEPING", 1, JVMS_SAMPLED_WAITING);
  for (guint i = 0; i < 3; i++)
    add (samples, points, PROFILER_GEN_WALL, 1, 900 * SAMPLED_MS + i * SAMPLED_INTERVAL, RUN, NULL, 1,
         JVMS_SAMPLED_UNKNOWN);
  ProfilerGenSettings settings = { "4.0", "wall", "10000000", NULL };
  *out_points = points;
  return profiler_gen_build (&settings, sampled_threads, G_N_ELEMENTS (sampled_threads), stacks,
                             G_N_ELEMENTS (stacks), (const ProfilerGenSample *) samples->data,
                             samples->len, 1000 * SAMPLED_MS);
}
