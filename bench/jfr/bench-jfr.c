/* bench-jfr: our JFR reader against the JDK's (jdk.jfr.consumer.RecordingFile) on the same
 * recording of about 100 MB, both on one core, both touching every field of every event.
 *
 * The recording comes from BenchWorkload.java with every event enabled and thresholds 0
 * (tests/jfr/all-zero.jfc); it is made once and cached in $TMPDIR/jvms-bench-jfr/ (delete the
 * folder to make a new one). Ours reads in time order across chunks; the JDK program
 * (JdkRead.java) reads the file once to warm up, then once timed, in one JVM.
 *
 * Prints: figure ours_mb_per_s, figure jdk_mb_per_s, figure ours_events_per_s,
 * figure jdk_events_per_s, figure peak_rss (our process, MiB), figure largest_chunk (MiB),
 * ratio parse_speedup (our MB/s over the JDK's).
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "jvms-jfr.h"

#define TARGET_BYTES (100.0 * 1000 * 1000)

static gboolean
run (char **argv, char **out)
{
  g_autoptr(GError) error = NULL;
  int status = 0;
  g_autofree char *err = NULL;
  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, &err, &status, &error))
    {
      g_printerr ("bench-jfr: %s: %s\n", argv[0], error->message);
      return FALSE;
    }
  if (!g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("bench-jfr: %s: %s\n%s\n", argv[0], error->message, err ? err : "");
      return FALSE;
    }
  return TRUE;
}

static gboolean
record (const char *classes, const char *out, double seconds)
{
  g_autofree char *opt = g_strdup_printf ("-XX:StartFlightRecording=filename=%s,settings=%s",
                                          out, JVMS_JFR_SETTINGS);
  g_autofree char *millis = g_strdup_printf ("%d", (int) (seconds * 1000));
  char *argv[] = { "java", "-Xmx512m", opt, "-cp", (char *) classes, "BenchWorkload", millis, NULL };
  return run (argv, NULL);
}

static guint64
file_size (const char *path)
{
  GStatBuf st;
  return g_stat (path, &st) == 0 ? (guint64) st.st_size : 0;
}

static char *
ensure_recording (const char *dir)
{
  char *path = g_build_filename (dir, "bench.jfr", NULL);
  g_autofree char *classes = g_build_filename (dir, "classes", NULL);
  g_mkdir_with_parents (classes, 0755);
  g_autofree char *probe_class = g_build_filename (classes, "JdkRead.class", NULL);
  if (!g_file_test (probe_class, G_FILE_TEST_EXISTS))
    {
      char *argv[] = { "javac", "-d", classes, JVMS_BENCH_DIR "/BenchWorkload.java",
                       JVMS_BENCH_DIR "/JdkRead.java", NULL };
      if (!run (argv, NULL))
        return NULL;
    }
  if (file_size (path) > TARGET_BYTES * 0.8)
    return path;

  /* calibrate: a short recording tells how many bytes a second of this machine makes */
  g_autofree char *probe = g_build_filename (dir, "probe.jfr", NULL);
  g_printerr ("bench-jfr: recording a calibration run...\n");
  if (!record (classes, probe, 3.0))
    return NULL;
  double rate = file_size (probe) / 3.0;
  g_unlink (probe);
  double seconds = CLAMP (TARGET_BYTES / MAX (rate, 1.0), 3.0, 180.0);
  g_printerr ("bench-jfr: recording %.0f s of BenchWorkload into %s...\n", seconds, path);
  if (!record (classes, path, seconds))
    return NULL;
  return path;
}

typedef struct
{
  guint64 events;
  guint64 values;
  guint64 sink;
} Touch;

/* Every field of the event, read in one pass, and each constant resolved to its decoded form
 * (as the JDK hands out RecordedThread / RecordedStackTrace / RecordedClass objects). */
static void
touch_event (const JvmsJfrEvent *e, Touch *t, JvmsJfrValue *values)
{
  guint n = jvms_jfr_type_get_n_fields (jvms_jfr_event_get_type (e));
  guint good = jvms_jfr_event_get_values (e, values, n);
  for (guint i = 0; i < good; i++)
    {
      const JvmsJfrValue *v = &values[i];
      t->values++;
      switch (v->kind)
        {
        case JVMS_JFR_VALUE_INTEGER: t->sink += v->u; break;
        case JVMS_JFR_VALUE_FLOAT: t->sink += (guint64) v->d; break;
        case JVMS_JFR_VALUE_BOOLEAN: t->sink += v->b; break;
        case JVMS_JFR_VALUE_STRING: t->sink += (guchar) v->s[0]; break;
        case JVMS_JFR_VALUE_ARRAY: t->sink += v->array.length; break;
        case JVMS_JFR_VALUE_OBJECT:
          {
            const JvmsJfrThread *th;
            const JvmsJfrStackTrace *st;
            const char *s;
            if (jvms_jfr_value_get_thread (v, &th))
              t->sink += (guint64) th->os_thread_id;
            else if (jvms_jfr_value_get_stack_trace (v, &st))
              t->sink += st->n_frames;
            else if (jvms_jfr_value_get_class_name (v, &s) || jvms_jfr_value_get_string (v, &s))
              t->sink += (guchar) s[0];
            else
              t->sink += jvms_jfr_type_get_n_fields (v->object.type);
            break;
          }
        case JVMS_JFR_VALUE_NULL:
        default:
          break;
        }
    }
  t->events++;
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = g_build_filename (g_get_tmp_dir (), "jvms-bench-jfr", NULL);
  g_autofree char *path = ensure_recording (dir);
  if (path == NULL)
    return 1;
  guint64 size = file_size (path);

  /* one core, for both readers */
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (0, &set);
  sched_setaffinity (0, sizeof set, &set);

  g_autoptr(GError) error = NULL;
  Touch touch = { 0 };
  struct rusage ru0;
  getrusage (RUSAGE_SELF, &ru0);
  gint64 t0 = g_get_monotonic_time ();
  JvmsJfrFile *file = jvms_jfr_file_open (path, &error);
  if (file == NULL)
    {
      g_printerr ("bench-jfr: %s\n", error->message);
      return 1;
    }
  JvmsJfrReader *reader = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_TIME);
  const JvmsJfrEvent *e;
  g_autofree JvmsJfrValue *values = NULL;
  guint values_cap = 0;
  while ((e = jvms_jfr_reader_next (reader)) != NULL)
    {
      guint n = jvms_jfr_type_get_n_fields (jvms_jfr_event_get_type (e));
      if (n > values_cap)
        {
          values_cap = MAX (n, 64);
          values = g_renew (JvmsJfrValue, values, values_cap);
        }
      touch_event (e, &touch, values);
    }
  jvms_jfr_reader_free (reader);
  gint64 t1 = g_get_monotonic_time ();
  guint64 largest = 0;
  for (guint c = 0; c < jvms_jfr_file_get_n_chunks (file); c++)
    largest = MAX (largest, jvms_jfr_file_get_chunk (file, c)->size);
  guint n_chunks = jvms_jfr_file_get_n_chunks (file);
  guint n_warnings = jvms_jfr_file_get_warnings (file)->len;
  jvms_jfr_file_unref (file);
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);

  double ours_wall_s = (t1 - t0) / 1e6;
  double ours_s = (ru.ru_utime.tv_sec - ru0.ru_utime.tv_sec) + (ru.ru_stime.tv_sec - ru0.ru_stime.tv_sec)
                  + ((ru.ru_utime.tv_usec - ru0.ru_utime.tv_usec) + (ru.ru_stime.tv_usec - ru0.ru_stime.tv_usec)) / 1e6;
  if (g_getenv ("JVMS_BENCH_OURS_ONLY") != NULL)
    {
      printf ("# ours only: %.3f s CPU, %.3f s wall, %" G_GUINT64_FORMAT " events, peak RSS %.1f MiB\n", ours_s, ours_wall_s, touch.events, ru.ru_maxrss / 1024.0);
      return 0;
    }
  g_autofree char *classes = g_build_filename (dir, "classes", NULL);
  g_autofree char *out = NULL;
  char *jargv[] = { "taskset", "-c", "0", "java", "-XX:ActiveProcessorCount=1", "-Xmx2g",
                    "-cp", classes, "JdkRead", path, NULL };
  guint64 jdk_events = 0, jdk_ns = 0, jdk_cpu_ns = 0;
  if (!run (jargv, &out)
      || sscanf (out, "events %" G_GUINT64_FORMAT " ns %" G_GUINT64_FORMAT " cpu_ns %" G_GUINT64_FORMAT,
                 &jdk_events, &jdk_ns, &jdk_cpu_ns) != 3)
    {
      g_printerr ("bench-jfr: the JDK reader did not report\n");
      return 1;
    }
  double jdk_s = jdk_cpu_ns / 1e9;
  double jdk_wall_s = jdk_ns / 1e9;
  double mb = size / 1e6;

  printf ("# %s: %.1f MB, %u chunks, %" G_GUINT64_FORMAT " events (JDK: %" G_GUINT64_FORMAT "), %" G_GUINT64_FORMAT " values touched, %u warnings (sink %" G_GUINT64_FORMAT ")\n",
          path, mb, n_chunks, touch.events, jdk_events, touch.values, n_warnings, touch.sink & 1);
  /* The machine is shared: wall time depends on who else runs on CPU 0, so the figures use
   * CPU time (ours: user+sys of this process; JDK: CPU time of the whole JVM during the timed
   * pass, reader, JIT and GC threads included). Wall times are printed for reference. */
  printf ("# CPU time: ours %.3f s, JDK %.3f s; wall: ours %.3f s, JDK %.3f s (second pass in a warm JVM); both pinned to CPU 0\n",
          ours_s, jdk_s, ours_wall_s, jdk_wall_s);
  printf ("# wall-time ratio %.2f\n", jdk_wall_s / ours_wall_s);
  printf ("figure ours_mb_per_s %.1f MB/s\n", mb / ours_s);
  printf ("figure jdk_mb_per_s %.1f MB/s\n", mb / jdk_s);
  printf ("figure ours_events_per_s %.0f events/s\n", touch.events / ours_s);
  printf ("figure jdk_events_per_s %.0f events/s\n", jdk_events / jdk_s);
  printf ("figure peak_rss %.1f MiB\n", ru.ru_maxrss / 1024.0);
  printf ("figure largest_chunk %.1f MiB\n", largest / 1048576.0);
  printf ("ratio parse_speedup %.2f\n", jdk_s / ours_s);
  return touch.events == jdk_events ? 0 : 1;
}
