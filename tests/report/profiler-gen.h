/* profiler-gen.h: a JFR file as async-profiler writes one (docs/writers.md), byte by byte with the
 * shared writer (tests/jfr/jfr-writer.h): its settings (jdk.ActiveSetting on its own type ids:
 * version and event on jdk.ActiveRecording, interval and wall on jdk.ExecutionSample), CPU
 * samples (jdk.ExecutionSample), wall-clock samples (profiler.WallClockSample with a state and a
 * batch size, or jdk.ExecutionSample with a state as before 4.0), allocation samples
 * (jdk.ObjectAllocationInNewTLAB), profiler.Window spans, and a profiler.Log line. One chunk;
 * ticks are nanoseconds from
 * its start (PROFILER_GEN_START_NANOS).
 *
 * Or, with dd_trace set, as dd-trace-java's profiler (ddprof) writes one, its types declared with
 * the fields its jfrMetadata.cpp gives them: CPU samples as datadog.ExecutionSample, wall-clock
 * samples as datadog.MethodSample (eventThread, stackTrace, state, weight: the batch size), and
 * a datadog.DatadogProfilerConfig with its intervals in milliseconds (@Timespan) when given,
 * and datadog.Endpoint spans (eventThread, endpoint, operation).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PROFILER_GEN_START_NANOS G_GINT64_CONSTANT (1700000000000000000)

typedef struct
{
  gint64      os_tid;
  const char *name;
} ProfilerGenThread;

/* Frames top first, "package.Class.method" (split at the last dot), at most 4, NULL-ended. */
typedef struct
{
  const char *frames[5];
} ProfilerGenStack;

typedef enum
{
  PROFILER_GEN_CPU,        /* jdk.ExecutionSample, state STATE_DEFAULT (or the given one);
                            * dd_trace: datadog.ExecutionSample */
  PROFILER_GEN_WALL,       /* profiler.WallClockSample with a state and a batch size;
                            * dd_trace: datadog.MethodSample, the batch size its weight */
  PROFILER_GEN_ALLOC,      /* jdk.ObjectAllocationInNewTLAB */
  PROFILER_GEN_WINDOW,     /* profiler.Window over [time, time + duration), on the thread (no
                            * stack); async-profiler's file only */
  PROFILER_GEN_ENDPOINT,   /* datadog.Endpoint @endpoint over [time, time + duration), on the
                            * thread (no stack); dd_trace only */
} ProfilerGenKind;

typedef struct
{
  ProfilerGenKind kind;
  guint           thread;   /* index into the threads */
  gint64          time;     /* ns from the chunk start */
  guint           stack;    /* index into the stacks */
  const char     *state;    /* "STATE_RUNNABLE", "STATE_SLEEPING", "STATE_DEFAULT"; NULL: none */
  guint           samples;  /* WALL: the batch size (0 is 1) */
  gint64          duration; /* WINDOW, ENDPOINT: ns */
  const char     *endpoint; /* ENDPOINT: "GET /orders" */
} ProfilerGenSample;

/* Settings as async-profiler writes them: NULL leaves one out. */
typedef struct
{
  const char *version;   /* "4.0" */
  const char *event;     /* "cpu", "wall" */
  const char *interval;  /* ns, "10000000"; "0" for the default */
  const char *wall;      /* ns, or NULL */
  /* dd-trace-java's file instead (version, event, interval and wall unused); its config's
   * intervals in ms, both 0 for no datadog.DatadogProfilerConfig. */
  gboolean    dd_trace;
  gint64      dd_cpu_interval_ms;
  gint64      dd_wall_interval_ms;
} ProfilerGenSettings;

GBytes *profiler_gen_build (const ProfilerGenSettings *settings,
                            const ProfilerGenThread   *threads,
                            guint                      n_threads,
                            const ProfilerGenStack    *stacks,
                            guint                      n_stacks,
                            const ProfilerGenSample   *samples,
                            guint                      n_samples,
                            gint64                     duration);

/* profiler_gen_build written to @path; aborts the test on failure. */
void    profiler_gen_write (const char                *path,
                            const ProfilerGenSettings *settings,
                            const ProfilerGenThread   *threads,
                            guint                      n_threads,
                            const ProfilerGenStack    *stacks,
                            guint                      n_stacks,
                            const ProfilerGenSample   *samples,
                            guint                      n_samples,
                            gint64                     duration);

G_END_DECLS
