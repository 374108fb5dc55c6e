/* bench-history: builds synthetic thread-state histories and measures the engine.
 *
 * The stream (issue 3's reference): attributes Threads/<i>/state, i < M; at t = 1 s every
 * thread i takes value i % 5 (the history starts there, so no null interval is stored); each
 * thread's next change comes at t + 1 + floor(-1e6 ln(1 - u)) ns; the change with the smallest
 * time is taken next, ties to the lower i; the new value is (current + 1 + r) % 5. u and r come
 * from one splitmix64 generator seeded with 42: u = (x >> 11) * 2^-53, r = x % 4; draws: one u
 * per thread at the start in thread order, then per change r first and u second. N changes
 * close N intervals; close() at the last change time closes M more.
 *
 * Usage: bench-history [--intervals N --attributes M] [--dir DIR]; without a size, runs
 * every size (1M, 10M, 100M x 1,000 and 10,000 attributes), each in its own process so that
 * peak_rss is that size's. Prints "figure NAME_<size> VALUE UNIT" lines.
 *
 * What is timed: build_rate times only the builder calls (the stream is generated in blocks
 * of 1M changes outside the timed part) and close(). Queries run on a fresh
 * jvms_history_open() with the default 64 MiB cache. Cold: the file's pages are dropped from
 * the page cache (posix_fadvise DONTNEED) and the node cache is empty, random attribute and
 * time over the whole trace. Warm: 10,000 random queries inside one 1% window of the trace
 * (a view), run once to load and then measured. */
#include "bench-common.h"
#include "jvms-history.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static guint64 rng_state = 42;

static guint64
splitmix64 (void)
{
  guint64 z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double
uniform (void)
{
  return (double) (splitmix64 () >> 11) * (1.0 / 9007199254740992.0);
}

static gint64
next_gap (void)
{
  return 1 + (gint64) floor (-1e6 * log (1.0 - uniform ()));
}

/* A binary heap of (time, thread), smallest time first, ties to the lower thread. */
typedef struct
{
  gint64  t;
  guint32 i;
} Ev;

static inline gboolean
ev_less (const Ev *a, const Ev *b)
{
  return a->t < b->t || (a->t == b->t && a->i < b->i);
}

static void
heap_down (Ev *h, guint n, guint k)
{
  for (;;)
    {
      guint l = 2 * k + 1, m = k;
      if (l < n && ev_less (&h[l], &h[m]))
        m = l;
      if (l + 1 < n && ev_less (&h[l + 1], &h[m]))
        m = l + 1;
      if (m == k)
        return;
      Ev t = h[k];
      h[k] = h[m];
      h[m] = t;
      k = m;
    }
}

typedef struct
{
  gint64  t;
  guint32 attr;
  guint32 value;
} Change;

static void
drop_page_cache (const char *path)
{
  int fd = open (path, O_RDONLY);
  if (fd >= 0)
    {
      posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED);
      close (fd);
    }
}

static const char *
size_name (guint64 n)
{
  static char buf[32];
  if (n % 1000000 == 0)
    g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT "M", n / 1000000);
  else if (n % 1000 == 0)
    g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT "k", n / 1000);
  else
    g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, n);
  return buf;
}

static gboolean build_only;
static gboolean summary_only;
static gint n_columns = 2000;

static int
run_one (guint64 n, guint m, const char *dir)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *tag = g_strdup_printf ("%s_%ua", size_name (n), m);
  g_autofree char *path = g_strdup_printf ("%s/bench-history-%d.hist", dir, (int) getpid ());
  const gint64 t_start = 1000000000;

  JvmsHistoryBuilder *b = jvms_history_builder_new (path, t_start, NULL, &error);
  if (b == NULL)
    {
      g_printerr ("bench-history: %s\n", error->message);
      return 1;
    }
  g_autofree JvmsAttribute *ids = g_new (JvmsAttribute, m);
  g_autofree guint32 *value = g_new (guint32, m);
  g_autofree Ev *heap = g_new (Ev, m);
  for (guint i = 0; i < m; i++)
    {
      g_autofree char *p = g_strdup_printf ("Threads/%u/state", i);
      ids[i] = jvms_history_builder_attribute (b, p);
      value[i] = i % 5;
      if (!jvms_history_builder_modify_int (b, ids[i], t_start, value[i], &error))
        g_error ("%s", error->message);
      heap[i].t = t_start + next_gap ();
      heap[i].i = i;
    }
  for (guint k = m / 2 + 1; k-- > 0;)
    heap_down (heap, m, k);

  const guint block = 1u << 20;
  g_autofree Change *ch = g_new (Change, block);
  double build = 0, build_cpu = 0;
  gint64 last = t_start;
  for (guint64 done = 0; done < n;)
    {
      guint c = (guint) MIN ((guint64) block, n - done);
      for (guint k = 0; k < c; k++)
        {
          Ev *e = &heap[0];
          guint32 i = e->i;
          guint64 x = splitmix64 ();
          value[i] = (value[i] + 1 + (guint32) (x % 4)) % 5;
          ch[k].t = e->t;
          ch[k].attr = ids[i];
          ch[k].value = value[i];
          e->t += next_gap ();
          heap_down (heap, m, 0);
        }
      double t0 = jvms_bench_wall_s (), c0 = jvms_bench_thread_cpu_s ();
      for (guint k = 0; k < c; k++)
        if (G_UNLIKELY (!jvms_history_builder_modify_int (b, ch[k].attr, ch[k].t, ch[k].value, &error)))
          g_error ("%s", error->message);
      build += jvms_bench_wall_s () - t0;
      build_cpu += jvms_bench_thread_cpu_s () - c0;
      last = ch[c - 1].t;
      done += c;
    }
  double t0 = jvms_bench_wall_s (), cc0 = jvms_bench_thread_cpu_s ();
  if (!jvms_history_builder_close (b, last, &error))
    g_error ("%s", error->message);
  double close_s = jvms_bench_wall_s () - t0;
  build += close_s;
  build_cpu += jvms_bench_thread_cpu_s () - cc0;
  jvms_history_builder_free (b);

  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  struct stat st;
  g_stat (path, &st);
  printf ("figure build_rate_%s %.4g intervals/s\n", tag, (double) n / build);
  printf ("figure build_time_%s %.3f s\n", tag, build);
  printf ("figure build_close_time_%s %.3f s\n", tag, close_s);
  printf ("figure build_rate_cpu_%s %.4g intervals/s\n", tag, (double) n / build_cpu);

  g_autoptr (JvmsHistory) h = jvms_history_open (path, 0, &error);
  if (h == NULL)
    g_error ("%s", error->message);
  guint64 n_iv = jvms_history_get_n_intervals (h);
  printf ("figure disk_bytes_per_interval_%s %.3f bytes\n", tag, (double) st.st_size / (double) n_iv);
  printf ("figure peak_rss_%s %.1f MiB\n", tag, (double) ru.ru_maxrss / 1024.0);
  fflush (stdout);
  if (build_only)
    {
      jvms_history_unref (g_steal_pointer (&h));
      g_unlink (path);
      return 0;
    }

  gint64 hs = jvms_history_get_start_time (h), he = jvms_history_get_end_time (h);
  gint64 span = he - hs;
  g_autoptr (GArray) lat = g_array_new (FALSE, FALSE, sizeof (double));
  JvmsInterval iv;
  JvmsAttribute ra[200];
  if (!summary_only)
    {

      /* Single, cold. */
      jvms_history_unref (g_steal_pointer (&h));
      drop_page_cache (path);
      h = jvms_history_open (path, 0, &error);
      for (guint q = 0; q < 2000; q++)
        {
          gint64 t = hs + (gint64) (uniform () * (double) span);
          JvmsAttribute a = (JvmsAttribute) (splitmix64 () % jvms_history_get_n_attributes (h));
          double a0 = jvms_bench_wall_s ();
          if (!jvms_history_query_single (h, a, t, &iv, &error))
            g_error ("%s", error->message);
          double us = (jvms_bench_wall_s () - a0) * 1e6;
          g_array_append_val (lat, us);
        }
      printf ("figure single_query_p50_cold_%s %.2f us\n", tag, jvms_bench_percentile_of (lat, 0.5));
      printf ("figure single_query_p99_cold_%s %.2f us\n", tag, jvms_bench_percentile_of (lat, 0.99));

      /* Single, warm: a view over 1% of the trace. */
      gint64 w0 = hs + (gint64) (uniform () * (double) span * 0.99), ww = span / 100;
      g_autofree gint64 *qt = g_new (gint64, 10000);
      g_autofree JvmsAttribute *qa = g_new (JvmsAttribute, 10000);
      for (guint q = 0; q < 10000; q++)
        {
          qt[q] = w0 + (gint64) (uniform () * (double) ww);
          qa[q] = (JvmsAttribute) (splitmix64 () % jvms_history_get_n_attributes (h));
        }
      for (guint pass = 0; pass < 2; pass++)
        {
          g_array_set_size (lat, 0);
          for (guint q = 0; q < 10000; q++)
            {
              double a0 = jvms_bench_wall_s ();
              if (!jvms_history_query_single (h, qa[q], qt[q], &iv, &error))
                g_error ("%s", error->message);
              double us = (jvms_bench_wall_s () - a0) * 1e6;
              g_array_append_val (lat, us);
            }
        }
      printf ("figure single_query_p50_warm_%s %.2f us\n", tag, jvms_bench_percentile_of (lat, 0.5));
      printf ("figure single_query_p99_warm_%s %.2f us\n", tag, jvms_bench_percentile_of (lat, 0.99));
      fflush (stdout);

      /* Full. */
      g_autoptr (GArray) full = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
      g_array_set_size (lat, 0);
      for (guint q = 0; q < 200; q++)
        {
          gint64 t = hs + (gint64) (uniform () * (double) span);
          double a0 = jvms_bench_wall_s ();
          if (!jvms_history_query_full (h, t, full, &error))
            g_error ("%s", error->message);
          double ms = (jvms_bench_wall_s () - a0) * 1e3;
          g_array_append_val (lat, ms);
        }
      printf ("figure full_query_p99_%s %.3f ms\n", tag, jvms_bench_percentile_of (lat, 0.99));

      /* Range: 1% window, 50 attributes. */
      g_array_set_size (lat, 0);
      for (guint q = 0; q < 50; q++)
        {
          for (guint i = 0; i < 50; i++)
            ra[i] = (JvmsAttribute) (splitmix64 () % jvms_history_get_n_attributes (h));
          gint64 t = hs + (gint64) (uniform () * (double) span * 0.99);
          double a0 = jvms_bench_wall_s ();
          g_autoptr (JvmsHistoryRange) r = jvms_history_query_range (h, t, t + span / 100, ra, 50, &error);
          if (r == NULL)
            g_error ("%s", error->message);
          guint64 cnt = 0;
          while (jvms_history_range_next (r, &iv, &error))
            cnt++;
          double ms = (jvms_bench_wall_s () - a0) * 1e3;
          g_array_append_val (lat, ms);
        }
      printf ("figure range_query_p99_%s %.3f ms\n", tag, jvms_bench_percentile_of (lat, 0.99));
      fflush (stdout);
    }

  /* Summary: 2,000 columns x 200 attributes. */
  guint na = MIN (200u, jvms_history_get_n_attributes (h));
  for (guint i = 0; i < na; i++)
    ra[i] = (JvmsAttribute) (splitmix64 () % jvms_history_get_n_attributes (h));
  g_autofree JvmsSummaryCell *cells = g_new (JvmsSummaryCell, (gsize) na * 2000);
  g_array_set_size (lat, 0);
  g_autoptr (GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  guint reps = n >= 100000000 ? 5 : 10;
  for (guint q = 0; q < reps; q++)
    {
      double a0 = jvms_bench_wall_s (), c0 = jvms_bench_thread_cpu_s ();
      if (!jvms_history_query_summary (h, hs, he, ra, na, (guint) n_columns, cells, &error))
        g_error ("%s", error->message);
      double ms = (jvms_bench_wall_s () - a0) * 1e3, cms = (jvms_bench_thread_cpu_s () - c0) * 1e3;
      g_array_append_val (lat, ms);
      g_array_append_val (cpu, cms);
    }
  printf ("figure summary_query_cpu_p50_whole_%s %.3f ms\n", tag, jvms_bench_percentile_of (cpu, 0.5));
  printf ("figure summary_query_cpu_p99_whole_%s %.3f ms\n", tag, jvms_bench_percentile_of (cpu, 0.99));
  printf ("figure summary_query_p50_whole_%s %.3f ms\n", tag, jvms_bench_percentile_of (lat, 0.5));
  printf ("figure summary_query_p99_whole_%s %.3f ms\n", tag, jvms_bench_percentile_of (lat, 0.99));
  fflush (stdout);
  g_array_set_size (lat, 0);
  g_array_set_size (cpu, 0);
  for (guint q = 0; q < reps * 2; q++)
    {
      /* Zoom factors from 2 to 10,000, log-uniform. */
      double f = pow (10, 0.3 + uniform () * 3.7);
      gint64 w = MAX ((gint64) ((double) span / f), 2000);
      gint64 t = hs + (gint64) (uniform () * (double) (span - w));
      double a0 = jvms_bench_wall_s (), c0 = jvms_bench_thread_cpu_s ();
      if (!jvms_history_query_summary (h, t, t + w, ra, na, (guint) n_columns, cells, &error))
        g_error ("%s", error->message);
      double ms = (jvms_bench_wall_s () - a0) * 1e3, cms = (jvms_bench_thread_cpu_s () - c0) * 1e3;
      g_array_append_val (lat, ms);
      g_array_append_val (cpu, cms);
    }
  printf ("figure summary_query_cpu_p50_zoom_%s %.3f ms\n", tag, jvms_bench_percentile_of (cpu, 0.5));
  printf ("figure summary_query_cpu_p99_zoom_%s %.3f ms\n", tag, jvms_bench_percentile_of (cpu, 0.99));
  printf ("figure summary_query_p50_zoom_%s %.3f ms\n", tag, jvms_bench_percentile_of (lat, 0.5));
  printf ("figure summary_query_p99_zoom_%s %.3f ms\n", tag, jvms_bench_percentile_of (lat, 0.99));
  fflush (stdout);
  jvms_history_unref (g_steal_pointer (&h));
  g_unlink (path);
  return 0;
}

int
main (int argc, char **argv)
{
  gint64 n = 0;
  gint m = 0;
  g_autofree char *dir = NULL;
  GOptionEntry entries[] = {
    { "intervals", 0, 0, G_OPTION_ARG_INT64, &n, "Intervals (changes) to build", "N" },
    { "attributes", 0, 0, G_OPTION_ARG_INT, &m, "Thread-state attributes", "M" },
    { "build-only", 0, 0, G_OPTION_ARG_NONE, &build_only, "Only build (for profiling)", NULL },
    { "summary-only", 0, 0, G_OPTION_ARG_NONE, &summary_only, "Build, then only the summary queries (for profiling)", NULL },
    { "columns", 0, 0, G_OPTION_ARG_INT, &n_columns, "Summary columns (2000)", "N" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Folder for the temporary index (/tmp)", "DIR" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("- state history benchmark");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("bench-history: %s\n", error->message);
      return 2;
    }
  if (dir == NULL)
    dir = g_strdup (g_get_tmp_dir ());
  if (n > 0 || m > 0)
    {
      if (n <= 0 || m <= 0)
        {
          g_printerr ("bench-history: --intervals and --attributes go together\n");
          return 2;
        }
      return run_one ((guint64) n, (guint) m, dir);
    }
  /* Every size, each in a child process so that its peak RSS is its own. */
  const guint64 sizes[] = { 1000000, 10000000, 100000000 };
  const guint attrs[] = { 1000, 10000 };
  int status = 0;
  for (guint a = 0; a < G_N_ELEMENTS (attrs); a++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      {
        g_autofree char *ns = g_strdup_printf ("%" G_GUINT64_FORMAT, sizes[s]);
        g_autofree char *ms = g_strdup_printf ("%u", attrs[a]);
        fflush (stdout);
        pid_t pid = fork ();
        if (pid == 0)
          {
            execl ("/proc/self/exe", argv[0], "--intervals", ns, "--attributes", ms, "--dir", dir, (char *) NULL);
            _exit (127);
          }
        int ws = 0;
        waitpid (pid, &ws, 0);
        if (!WIFEXITED (ws) || WEXITSTATUS (ws) != 0)
          status = 1;
      }
  return status;
}
