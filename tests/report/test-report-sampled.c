/* A recording without thread states (async-profiler's, written byte by byte: profiler-gen.c):
 * the index never says RUNNING, its per-thread sample counters hold every sample (batches
 * expanded) at its time, and the report's estimated time per kind and per thread equals the
 * samples' shares times the interval, said to be estimates, over the whole trace and a part of
 * it. The naive model is the list of samples the file was written from (sampled-fixture.c). A
 * CPU-only file whose interval setting is 0 is charged async-profiler's default, 10 ms. A
 * dd-trace-java file: weights are samples, intervals from its config or its defaults. */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "jvms-recording-info.h"
#include "jvms-report.h"
#include "jvms-thread-list.h"
#include "report-fixture.h"
#include "sampled-fixture.h"

/* Where the model charges a kind of sample (docs/report.md), -1 nowhere. */
static int
model_finding (JvmsSampled k)
{
  switch (k)
    {
    case JVMS_SAMPLED_CPU:
    case JVMS_SAMPLED_RUNNING:
    case JVMS_SAMPLED_NATIVE:
      return JVMS_FINDING_PROGRAM_LOGIC;
    case JVMS_SAMPLED_SLEEPING:
      return JVMS_FINDING_SLEEPING;
    case JVMS_SAMPLED_PARKED:
    case JVMS_SAMPLED_WAITING:
    case JVMS_SAMPLED_OFF_CPU:
      return JVMS_FINDING_PARKING;
    case JVMS_SAMPLED_BLOCKED:
      return JVMS_FINDING_MONITOR_CONTENTION;
    case JVMS_SAMPLED_SOCKET_IO:
    case JVMS_SAMPLED_FILE_IO:
      return JVMS_FINDING_IO;
    default:
      return -1;
    }
}

static JvmsReport *
report (ReportFixture *f, gint64 from, gint64 to)
{
  gint64 start = jvms_history_get_start_time (f->history);
  JvmsReportOptions options = {
    .from = from >= 0 ? start + from : start,
    .to = to >= 0 ? start + to : jvms_history_get_end_time (f->history),
    .samples_path = jvms_trace_index_get_samples_path (f->index),
  };
  g_autoptr(GError) error = NULL;
  JvmsReport *r = jvms_report_compute (f->history, &options, &error);
  g_assert_no_error (error);
  return r;
}

/* The report over [from, to) against the model's samples in it. */
static void
check_report (ReportFixture *f, GArray *points, gint64 from, gint64 to)
{
  g_autoptr(JvmsReport) r = report (f, from, to);
  gint64 start = jvms_history_get_start_time (f->history);
  gint64 lo = r->from - start, hi = r->to - start;
  gint64 finding_ns[JVMS_FINDING_N] = { 0 };
  gint64 thread_ns[2] = { 0 };
  guint64 thread_kind[2][JVMS_SAMPLED_N] = { { 0 } };
  gint64 total = 0;
  for (guint i = 0; i < points->len; i++)
    {
      const SampledPoint *p = &g_array_index (points, SampledPoint, i);
      if (p->time < lo || p->time >= hi)
        continue;
      int k = model_finding (p->kind);
      if (k < 0)
        continue;
      finding_ns[k] += SAMPLED_INTERVAL;
      thread_ns[p->thread] += SAMPLED_INTERVAL;
      thread_kind[p->thread][p->kind]++;
      total += SAMPLED_INTERVAL;
    }
  g_assert_cmpint (r->analysed_ns, ==, total);
  g_assert_cmpint (r->estimated_ns, ==, total);
  guint n_findings = 0;
  for (guint k = 0; k < JVMS_FINDING_N; k++)
    n_findings += finding_ns[k] > 0;
  g_assert_cmpuint (r->findings->len, ==, n_findings);
  for (guint i = 0; i < r->findings->len; i++)
    {
      const JvmsFinding *fd = g_ptr_array_index (r->findings, i);
      g_test_message ("%s: %" G_GINT64_FORMAT " ns", jvms_finding_kind_name (fd->kind), fd->lost_ns);
      g_assert_cmpint (fd->lost_ns, ==, finding_ns[fd->kind]);
      g_assert_cmpint (fd->estimated_ns, ==, fd->lost_ns);
      /* The share is the samples' share. */
      g_assert_cmpfloat_with_epsilon (fd->share, (double) finding_ns[fd->kind] / total, 1e-12);
    }
  for (guint i = 0; i < r->threads->len; i++)
    {
      const JvmsReportThread *t = &g_array_index (r->threads, JvmsReportThread, i);
      guint m = t->tid == sampled_threads[0].os_tid ? 0 : 1;
      g_assert_cmpint (t->analysed_ns, ==, thread_ns[m]);
      g_assert_cmpint (t->estimated_ns, ==, thread_ns[m]);
      for (guint k = 0; k < JVMS_SAMPLED_N; k++)
        g_assert_cmpuint (t->sampled[k], ==, thread_kind[m][k]);
      /* Never a nanosecond of time nobody recorded. */
      g_assert_cmpint (t->user_ns[JVMS_USER_STATE_RUNNING], ==, 0);
    }

  /* The JSON says the basis. */
  g_autofree char *json = jvms_report_to_json (r, "trace.jfr", NULL, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  JsonObject *rec = json_object_get_object_member (root, "recording");
  g_assert_false (json_object_get_boolean_member (rec, "thread_states"));
  g_assert_cmpstr (json_object_get_string_member (rec, "writer"), ==, "async-profiler");
  JsonArray *findings = json_object_get_array_member (root, "findings");
  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *fd = json_array_get_object_element (findings, i);
      g_assert_true (json_object_has_member (fd, "estimated_from"));
      JsonObject *e = json_object_get_object_member (fd, "estimated_from");
      g_assert_cmpint (json_object_get_int_member (e, "estimated_ns"), ==,
                       json_object_get_int_member (fd, "lost_ns"));
      g_assert_nonnull (strstr (json_object_get_string_member (e, "text"), "× 10 ms"));
      JsonArray *parts = json_object_get_array_member (e, "parts");
      gint64 ns = 0;
      for (guint p = 0; p < json_array_get_length (parts); p++)
        {
          JsonObject *part = json_array_get_object_element (parts, p);
          g_assert_cmpint (json_object_get_int_member (part, "interval_ns"), ==, SAMPLED_INTERVAL);
          g_assert_cmpstr (json_object_get_string_member (part, "interval_from"), ==, "setting");
          ns += json_object_get_int_member (part, "samples") * SAMPLED_INTERVAL;
        }
      g_assert_cmpint (ns, ==, json_object_get_int_member (fd, "lost_ns"));
    }
  g_autofree char *text = jvms_report_to_text (r, "trace.jfr");
  g_assert_nonnull (strstr (text, "estimated from"));
  g_assert_nonnull (strstr (text, "sampled by async-profiler 4.0: wall clock every 10 ms"));
}

static void
test_wall_shares (void)
{
  g_autoptr(GArray) points = NULL;
  g_autoptr(GBytes) bytes = sampled_wall_build (&points);
  ReportFixture f = { 0 };
  report_fixture_open_bytes (&f, bytes);

  /* The index: every thread NOT_RECORDED from start to end, nothing else. */
  g_autoptr(JvmsThreadList) list = jvms_thread_list_read (f.history);
  g_assert_cmpuint (jvms_thread_list_get_len (list), ==, sampled_n_threads);
  for (guint i = 0; i < sampled_n_threads; i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_lookup (list, sampled_threads[i].os_tid);
      g_assert_nonnull (t);
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsHistoryRange) range =
        jvms_history_query_range (f.history, jvms_history_get_start_time (f.history),
                                  jvms_history_get_end_time (f.history), &t->user_state, 1, &error);
      g_assert_no_error (error);
      JvmsInterval iv;
      guint n = 0;
      while (jvms_history_range_next (range, &iv, &error))
        if (iv.value.type != JVMS_VALUE_NULL)
          {
            g_assert_cmpint (iv.value.i, ==, JVMS_USER_STATE_NOT_RECORDED);
            n++;
          }
      g_assert_no_error (error);
      g_assert_cmpuint (n, ==, 1);

      /* Each counter steps once per sample, at the sample's time. */
      JvmsAttribute folder = jvms_history_lookup_child (f.history, t->folder, "samples");
      g_assert_cmpuint (folder, !=, JVMS_ATTRIBUTE_INVALID);
      for (guint k = 0; k < JVMS_SAMPLED_N; k++)
        {
          g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
          for (guint p = 0; p < points->len; p++)
            {
              const SampledPoint *sp = &g_array_index (points, SampledPoint, p);
              if (sp->thread == i && sp->kind == k)
                g_array_append_val (times, sp->time);
            }
          JvmsAttribute a = jvms_history_lookup_child (f.history, folder, jvms_sampled_name (k));
          if (times->len == 0)
            {
              g_assert_cmpuint (a, ==, JVMS_ATTRIBUTE_INVALID);
              continue;
            }
          g_assert_cmpuint (a, !=, JVMS_ATTRIBUTE_INVALID);
          g_autoptr(JvmsHistoryRange) steps =
            jvms_history_query_range (f.history, jvms_history_get_start_time (f.history),
                                      jvms_history_get_end_time (f.history), &a, 1, &error);
          guint seen = 0;
          while (jvms_history_range_next (steps, &iv, &error))
            {
              if (iv.value.type == JVMS_VALUE_NULL)
                continue;
              g_assert_cmpuint (seen, <, times->len);
              g_assert_cmpint (iv.value.i, ==, seen + 1);
              g_assert_cmpint (iv.start - PROFILER_GEN_START_NANOS, ==, g_array_index (times, gint64, seen));
              seen++;
            }
          g_assert_no_error (error);
          g_assert_cmpuint (seen, ==, times->len);
        }
    }

  g_autoptr(JvmsRecordingInfo) info =
    jvms_recording_info_from_metadata (jvms_history_get_metadata (f.history, "recording"));
  g_assert_nonnull (info);
  g_assert_cmpint (info->writer, ==, JVMS_WRITER_ASYNC_PROFILER);
  g_assert_cmpstr (info->version, ==, "4.0");
  g_assert_false (info->thread_states);
  g_assert_cmpint (info->samplers[JVMS_SAMPLER_WALL].source, ==, JVMS_INTERVAL_SETTING);
  g_assert_cmpint (info->samplers[JVMS_SAMPLER_WALL].ns, ==, SAMPLED_INTERVAL);
  g_assert_cmpint (info->samplers[JVMS_SAMPLER_CPU].source, ==, JVMS_INTERVAL_NONE);

  /* The profiler's warning is a note, on one line. */
  g_auto(GStrv) notes = jvms_trace_index_dup_notes (f.index);
  g_assert_nonnull (notes[0]);
  g_assert_nonnull (strstr (notes[0], "[WARN] a warning of the profiler over two lines"));

  check_report (&f, points, -1, -1);
  /* Part of the trace: the batch in the socket poll is cut by the range at its samples. */
  check_report (&f, points, 100 * SAMPLED_MS, 300 * SAMPLED_MS);
  check_report (&f, points, 395 * SAMPLED_MS, 777 * SAMPLED_MS);
  report_fixture_close (&f);
}

static void
test_cpu_default_interval (void)
{
  static const ProfilerGenThread threads[] = { { 601, "spinner" } };
  static const ProfilerGenStack stacks[] = { { { "app.Spin.loop", NULL } } };
  ProfilerGenSample samples[7];
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    samples[i] = (ProfilerGenSample) { PROFILER_GEN_CPU, 0, (gint64) (1 + 30 * i) * SAMPLED_MS, 0,
                                       "STATE_RUNNABLE", 0 };
  /* async-profiler 2.9: interval 0 is its 10 ms default. */
  ProfilerGenSettings settings = { "2.9", "cpu", "0", NULL };
  g_autoptr(GBytes) bytes = profiler_gen_build (&settings, threads, 1, stacks, 1, samples,
                                                G_N_ELEMENTS (samples), 300 * SAMPLED_MS);
  ReportFixture f = { 0 };
  report_fixture_open_bytes (&f, bytes);
  g_autoptr(JvmsReport) r = report (&f, -1, -1);
  g_assert_cmpuint (r->findings->len, ==, 1);
  const JvmsFinding *fd = g_ptr_array_index (r->findings, 0);
  g_assert_cmpint (fd->kind, ==, JVMS_FINDING_PROGRAM_LOGIC);
  g_assert_cmpint (fd->lost_ns, ==, 7 * 10 * SAMPLED_MS);
  g_assert_cmpuint (fd->sampled[JVMS_SAMPLED_CPU], ==, 7);
  g_assert_cmpint (r->recording->samplers[JVMS_SAMPLER_CPU].source, ==, JVMS_INTERVAL_DEFAULT);
  g_autofree char *text = jvms_report_to_text (r, "trace.jfr");
  g_assert_nonnull (strstr (text, "0.070 s, estimated from 7 samples × 10 ms"));
  g_assert_nonnull (strstr (text, "CPU every 10 ms (the writer's default)"));
  g_autofree char *json = jvms_report_to_json (r, "trace.jfr", NULL, NULL);
  g_assert_nonnull (strstr (json, "\"interval_from\" : \"default\""));
  g_assert_nonnull (strstr (json, "\"text\" : \"7 samples × 10 ms (cpu)\""));
  report_fixture_close (&f);
}

/* dd-trace-java's file (profiler-gen.c, dd_trace): its samples carry a weight, the samples one
 * event stands for, and its intervals come from its DatadogProfilerConfig (milliseconds), else
 * its defaults (10 ms CPU, 50 ms wall clock). A spinner with 5 CPU events of weight 2, a sleeper
 * with 3 wall-clock events SLEEPING of weight 4, a parker with 2 PARKED of weight 1. */
static void
check_dd_trace (gint64 cpu_ms, gint64 wall_ms, JvmsIntervalSource source)
{
  static const ProfilerGenThread threads[] = { { 701, "spinner" }, { 702, "sleeper" }, { 703, "parker" } };
  static const ProfilerGenStack stacks[] = {
    { { "app.Spin.loop", NULL } },
    { { "java.lang.Thread.sleep", "app.Nap.run", NULL } },
    { { "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park", NULL } },
  };
  ProfilerGenSample samples[10];
  guint n = 0;
  for (guint i = 0; i < 5; i++)
    samples[n++] = (ProfilerGenSample) { PROFILER_GEN_CPU, 0, (gint64) (5 + 40 * i) * SAMPLED_MS, 0,
                                         "RUNNABLE", 2 };
  for (guint i = 0; i < 3; i++)
    samples[n++] = (ProfilerGenSample) { PROFILER_GEN_WALL, 1, (gint64) (7 + 50 * i) * SAMPLED_MS, 1,
                                         "SLEEPING", 4 };
  for (guint i = 0; i < 2; i++)
    samples[n++] = (ProfilerGenSample) { PROFILER_GEN_WALL, 2, (gint64) (9 + 70 * i) * SAMPLED_MS, 2,
                                         "PARKED", 1 };
  ProfilerGenSettings settings = { .dd_trace = TRUE, .dd_cpu_interval_ms = cpu_ms,
                                   .dd_wall_interval_ms = wall_ms };
  g_autoptr(GBytes) bytes = profiler_gen_build (&settings, threads, G_N_ELEMENTS (threads), stacks,
                                                G_N_ELEMENTS (stacks), samples, n, 300 * SAMPLED_MS);
  ReportFixture f = { 0 };
  report_fixture_open_bytes (&f, bytes);
  g_autoptr(JvmsReport) r = report (&f, -1, -1);
  gint64 cpu = (cpu_ms > 0 ? cpu_ms : 10) * SAMPLED_MS, wall = (wall_ms > 0 ? wall_ms : 50) * SAMPLED_MS;

  g_assert_nonnull (r->recording);
  g_assert_cmpint (r->recording->writer, ==, JVMS_WRITER_DD_TRACE);
  g_assert_false (r->recording->thread_states);
  g_assert_cmpint (r->recording->samplers[JVMS_SAMPLER_CPU].source, ==, source);
  g_assert_cmpint (r->recording->samplers[JVMS_SAMPLER_CPU].ns, ==, cpu);
  g_assert_cmpint (r->recording->samplers[JVMS_SAMPLER_WALL].source, ==, source);
  g_assert_cmpint (r->recording->samplers[JVMS_SAMPLER_WALL].ns, ==, wall);
  gint64 want[JVMS_FINDING_N] = { 0 };
  want[JVMS_FINDING_PROGRAM_LOGIC] = 5 * 2 * cpu;
  want[JVMS_FINDING_SLEEPING] = 3 * 4 * wall;
  want[JVMS_FINDING_PARKING] = 2 * wall;
  guint n_found = 0;
  for (guint i = 0; i < r->findings->len; i++)
    {
      const JvmsFinding *fd = g_ptr_array_index (r->findings, i);
      g_test_message ("%s: %" G_GINT64_FORMAT " ns", jvms_finding_kind_name (fd->kind), fd->lost_ns);
      g_assert_cmpint (fd->lost_ns, ==, want[fd->kind]);
      n_found++;
    }
  g_assert_cmpuint (n_found, ==, 3);
  report_fixture_close (&f);
}

static void
test_dd_trace_config (void)
{
  check_dd_trace (20, 100, JVMS_INTERVAL_SETTING);
}

static void
test_dd_trace_defaults (void)
{
  check_dd_trace (0, 0, JVMS_INTERVAL_DEFAULT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/sampled/wall-shares", test_wall_shares);
  g_test_add_func ("/report/sampled/cpu-default-interval", test_cpu_default_interval);
  g_test_add_func ("/report/sampled/dd-trace-config", test_dd_trace_config);
  g_test_add_func ("/report/sampled/dd-trace-defaults", test_dd_trace_defaults);
  return g_test_run ();
}
