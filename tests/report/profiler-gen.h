/* profiler-gen.h: a JFR file as async-profiler writes one (docs/writers.md), byte by byte with the
 * shared writer (tests/jfr/jfr-writer.h): its settings (jdk.ActiveSetting on its own type ids:
 * version and event on jdk.ActiveRecording, interval and wall on jdk.ExecutionSample), CPU
 * samples (jdk.ExecutionSample), wall-clock samples (profiler.WallClockSample with a state and a
 * batch size, or jdk.ExecutionSample with a state as before 4.0), allocation samples
 * (jdk.ObjectAllocationInNewTLAB), and a profiler.Log line. One chunk; ticks are nanoseconds from
 * its start (PROFILER_GEN_START_NANOS).
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
  PROFILER_GEN_CPU,        /* jdk.ExecutionSample, state STATE_DEFAULT (or the given one) */
  PROFILER_GEN_WALL,       /* profiler.WallClockSample with a state and a batch size */
  PROFILER_GEN_ALLOC,      /* jdk.ObjectAllocationInNewTLAB */
} ProfilerGenKind;

typedef struct
{
  ProfilerGenKind kind;
  guint           thread;   /* index into the threads */
  gint64          time;     /* ns from the chunk start */
  guint           stack;    /* index into the stacks */
  const char     *state;    /* "STATE_RUNNABLE", "STATE_SLEEPING", "STATE_DEFAULT"; NULL: none */
  guint           samples;  /* WALL: the batch size (0 is 1) */
} ProfilerGenSample;

/* Settings as async-profiler writes them: NULL leaves one out. */
typedef struct
{
  const char *version;   /* "4.0" */
  const char *event;     /* "cpu", "wall" */
  const char *interval;  /* ns, "10000000"; "0" for the default */
  const char *wall;      /* ns, or NULL */
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
