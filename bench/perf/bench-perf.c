/* bench-perf: our perf.data reader against `perf script` on the same file of about 200 MB.
 *
 * The file is recorded once and cached in /tmp: perf record -a of the scheduler events while two
 * threads of this program hand a token back and forth through pipes (the worst case for a
 * scheduler trace: every handoff is a wakeup and two context switches).
 *
 *   bench-perf [--file F] [--handoffs N]     record F if missing, then measure
 *   bench-perf --handoff N                   the workload itself (run under perf)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench-common.h"
#include "jvms-perf.h"

typedef struct
{
  int  in, out;
  long n;
} Side;

static gpointer
handoff_thread (gpointer data)
{
  Side *s = data;
  char c = 0;
  for (long i = 0; i < s->n; i++)
    {
      if (read (s->in, &c, 1) != 1 || write (s->out, &c, 1) != 1)
        break;
    }
  return NULL;
}

static int
run_handoff (long n)
{
  int a[2], b[2];
  if (pipe (a) != 0 || pipe (b) != 0)
    return 1;
  Side side = { a[0], b[1], n };
  GThread *t = g_thread_new ("handoff", handoff_thread, &side);
  char c = 'x';
  for (long i = 0; i < n; i++)
    if (write (a[1], &c, 1) != 1 || read (b[0], &c, 1) != 1)
      break;
  g_thread_join (t);
  return 0;
}

static void
record (const char *self_exe, const char *file, long handoffs)
{
  g_autofree char *tmp = g_strconcat (file, ".tmp", NULL);
  g_autofree char *n = g_strdup_printf ("%ld", handoffs);
  const char *argv[] = { "perf", "record", "-q", "-o", tmp, "-a", "-k", "CLOCK_MONOTONIC", "-m", "16M",
                         "-e", "sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,"
                               "sched:sched_migrate_task,sched:sched_process_fork,sched:sched_process_exit",
                         "--", self_exe, "--handoff", n, NULL };
  g_autoptr(GError) error = NULL;
  gint status;
  fprintf (stderr, "recording %s (%ld handoffs)...\n", file, handoffs);
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    {
      fprintf (stderr, "perf record failed: %s\n", error->message);
      exit (1);
    }
  if (rename (tmp, file) != 0)
    {
      fprintf (stderr, "cannot rename %s: %s\n", tmp, g_strerror (errno));
      exit (1);
    }
}

int
main (int argc, char **argv)
{
  const char *file = "/tmp/jvmscope-bench-perf.data";
  long handoffs = 550000;
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--handoff") == 0 && i + 1 < argc)
        return run_handoff (atol (argv[i + 1]));
      if (strcmp (argv[i], "--file") == 0 && i + 1 < argc)
        file = argv[++i];
      else if (strcmp (argv[i], "--handoffs") == 0 && i + 1 < argc)
        handoffs = atol (argv[++i]);
    }

  if (!g_file_test (file, G_FILE_TEST_EXISTS))
    {
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
      record (exe, file, handoffs);
    }
  struct stat st;
  if (stat (file, &st) != 0)
    return 1;
  double mb = (double) st.st_size / 1e6;

  /* Ours: every event decoded, every field touched. */
  double t0 = jvms_bench_wall_s ();
  double c0 = jvms_bench_rusage_cpu_s (RUSAGE_SELF);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open (file, JVMS_PERF_READER_DEFAULT, &error);
  if (reader == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  JvmsKernelEvent ev;
  guint64 n = 0, n_switch = 0, checksum = 0;
  while (jvms_perf_reader_next (reader, &ev, &error))
    {
      n++;
      checksum += (guint64) ev.time + (guint64) ev.tid;
      if (ev.type == JVMS_KERNEL_EVENT_SCHED_SWITCH)
        {
          n_switch++;
          checksum += (guint64) ev.sched_switch.next_tid + ev.sched_switch.prev_state
                      + (guint8) ev.sched_switch.prev_comm[0];
        }
      else if (ev.type == JVMS_KERNEL_EVENT_SCHED_WAKING || ev.type == JVMS_KERNEL_EVENT_SCHED_WAKEUP)
        checksum += (guint64) ev.wakeup.tid + (guint64) ev.wakeup.target_cpu;
    }
  if (error != NULL)
    fprintf (stderr, "warning: %s\n", error->message);
  double ours = jvms_bench_wall_s () - t0;
  double ours_cpu = jvms_bench_rusage_cpu_s (RUSAGE_SELF) - c0;
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);

  /* perf script, default output, on the same file. */
  const char *script[] = { "perf", "script", "-i", file, NULL };
  t0 = jvms_bench_wall_s ();
  c0 = jvms_bench_rusage_cpu_s (RUSAGE_CHILDREN);
  gint status;
  if (!g_spawn_sync (NULL, (char **) script, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error))
    {
      fprintf (stderr, "perf script: %s\n", error->message);
      return 1;
    }
  double theirs = jvms_bench_wall_s () - t0;
  double theirs_cpu = jvms_bench_rusage_cpu_s (RUSAGE_CHILDREN) - c0;

  printf ("figure file_mb %.1f MB\n", mb);
  printf ("figure events %" G_GUINT64_FORMAT " events\n", n);
  printf ("figure sched_switch_events %" G_GUINT64_FORMAT " events\n", n_switch);
  printf ("figure lost_events %" G_GUINT64_FORMAT " events\n", jvms_perf_reader_get_lost (reader));
  /* Eight engineers share two cores: wall time depends on who else runs, CPU time much less.
   * Both are printed; the speedup is taken on CPU time. */
  printf ("figure ours_seconds %.3f s\n", ours);
  printf ("figure ours_cpu_seconds %.3f s\n", ours_cpu);
  printf ("figure perf_script_seconds %.3f s\n", theirs);
  printf ("figure perf_script_cpu_seconds %.3f s\n", theirs_cpu);
  printf ("figure ours_mb_per_s %.1f MB/s\n", mb / ours_cpu);
  printf ("figure perf_script_mb_per_s %.1f MB/s\n", mb / theirs_cpu);
  printf ("figure ours_events_per_s %.0f events/s\n", (double) n / ours_cpu);
  printf ("figure peak_rss %.1f MB\n", (double) ru.ru_maxrss / 1024.0);
  printf ("ratio parse_speedup %.1f\n", theirs_cpu / ours_cpu);
  printf ("ratio parse_speedup_wall %.1f\n", theirs / ours);
  fprintf (stderr, "checksum %" G_GUINT64_FORMAT "\n", checksum);
  return 0;
}
