/* bench-common.h: the clocks and order statistics the benches report their figures with
 * ("figure NAME VALUE UNIT", "ratio NAME VALUE"), in one place so that every bench measures a
 * millisecond and a p99 the same way. */
#pragma once

#include <glib.h>
#include <sys/resource.h>

G_BEGIN_DECLS

/* CLOCK_MONOTONIC (GLib's monotonic clock, at nanoseconds). */
double jvms_bench_wall_s          (void);
/* CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID): what a call on it costs, whatever
 * else the process runs. */
double jvms_bench_thread_cpu_s    (void);
/* CPU time of the whole process (CLOCK_PROCESS_CPUTIME_ID): a frame's cost with the renderer's
 * and the loaders' threads. */
double jvms_bench_process_cpu_s   (void);
/* User plus system time of getrusage (@who): RUSAGE_SELF, or RUSAGE_CHILDREN for the children
 * waited for (perf, java). */
double jvms_bench_rusage_cpu_s    (int who);

static inline double jvms_bench_wall_ms        (void) { return 1e3 * jvms_bench_wall_s (); }
static inline double jvms_bench_thread_cpu_ms  (void) { return 1e3 * jvms_bench_thread_cpu_s (); }
static inline double jvms_bench_process_cpu_ms (void) { return 1e3 * jvms_bench_process_cpu_s (); }

/* Ascending order of doubles, for qsort and g_array_sort. */
int    jvms_bench_compare_double  (const void *a, const void *b);

/* The order statistics below sort @values (@n of them) in place; NAN when @n is 0.
 *
 * The nearest rank: the smallest value with at least the fraction @q of the values at or below
 * it (rank ceil(q n), at least 1). The p50 of an even count is the lower middle. */
double jvms_bench_percentile       (double *values, guint n, double q);
/* The value at index floor(q n) of the sorted values, at most the last: one rank above
 * jvms_bench_percentile when q n is whole (the upper middle of an even count, the largest of
 * 100 values at q = 0.99). The views', the profile's and the records' benches have always
 * reported this one; kept so that their logged figures stay comparable. */
double jvms_bench_percentile_above (double *values, guint n, double q);
/* The median: the mean of the two middle values of an even count. */
double jvms_bench_median           (double *values, guint n);

/* The same of a GArray of doubles. */
static inline double
jvms_bench_percentile_of (GArray *values, double q)
{
  return jvms_bench_percentile ((double *) (void *) values->data, values->len, q);
}

static inline double
jvms_bench_percentile_above_of (GArray *values, double q)
{
  return jvms_bench_percentile_above ((double *) (void *) values->data, values->len, q);
}

G_END_DECLS
