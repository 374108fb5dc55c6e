/* sampled-fixture.h: the async-profiler-like recordings the sampled tests share
 * (test-report-sampled.c, test-sampled-view.c): wall-clock samples in known states, a batch, and
 * what each sample should count as, the naive model the index, the report and the view are
 * compared with. */
#pragma once

#include "jvms-states.h"
#include "profiler-gen.h"

G_BEGIN_DECLS

#define SAMPLED_MS       G_GINT64_CONSTANT (1000000)
#define SAMPLED_INTERVAL (10 * SAMPLED_MS)

/* One sample the file stands for, as the model sees it: thread, time, kind. */
typedef struct
{
  guint       thread;
  gint64      time;
  JvmsSampled kind;
} SampledPoint;

/* The wall-clock recording (event wall, interval 10 ms): its bytes and, in @points (a GArray of
 * SampledPoint, batches expanded), every sample it holds. */
GBytes            *sampled_wall_build   (GArray **points);
/* Its threads. */
extern const ProfilerGenThread sampled_threads[];
extern const guint             sampled_n_threads;

G_END_DECLS
