/* bench-common.c: see bench-common.h. */
#include "bench-common.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

static double
clock_s (clockid_t id)
{
  struct timespec ts;
  clock_gettime (id, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

double
jvms_bench_wall_s (void)
{
  return clock_s (CLOCK_MONOTONIC);
}

double
jvms_bench_thread_cpu_s (void)
{
  return clock_s (CLOCK_THREAD_CPUTIME_ID);
}

double
jvms_bench_process_cpu_s (void)
{
  return clock_s (CLOCK_PROCESS_CPUTIME_ID);
}

double
jvms_bench_rusage_cpu_s (int who)
{
  struct rusage ru;
  getrusage (who, &ru);
  return (double) (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec)
         + (double) (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int
jvms_bench_compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Sorts @values and returns the one at @index, clamped to [0, n - 1]. */
static double
sorted_at (double *values, guint n, double index)
{
  if (n == 0)
    return NAN;
  qsort (values, n, sizeof (double), jvms_bench_compare_double);
  return values[(guint) CLAMP (index, 0, n - 1)];
}

double
jvms_bench_percentile (double *values, guint n, double q)
{
  return sorted_at (values, n, ceil (q * n) - 1);
}

double
jvms_bench_percentile_above (double *values, guint n, double q)
{
  return sorted_at (values, n, floor (q * n));
}

double
jvms_bench_median (double *values, guint n)
{
  /* the lower and the upper middle: the same value for an odd count */
  return (jvms_bench_percentile (values, n, 0.5) + jvms_bench_percentile_above (values, n, 0.5)) / 2;
}
