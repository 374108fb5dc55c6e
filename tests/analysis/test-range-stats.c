/* The side panel's statistics against a naive model: random intervals are written to a real
 * index with the builder and kept in plain arrays; the statistics of random ranges, computed
 * by range queries in a worker thread, must equal sums over the arrays. The CSV and JSON
 * writers must give back every row. */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "jvms-history.h"
#include "jvms-samples.h"
#include "jvms-range-stats.h"
#include "jvms-states.h"
#include "jvms-thread-list.h"
#include "jvms-trace-index.h"

#define END_TIME 100000
#define N_THREADS 3

typedef struct
{
  gint64 start, end;
  gint64 i;       /* ints */
  double d;       /* doubles */
  const char *s;  /* strings (static) */
  gboolean null;
} Iv;

typedef struct
{
  GArray *user[N_THREADS];
  GArray *kernel[N_THREADS];
  GArray *waiters;
  GArray *pause;
  GArray *cycles[2];
  /* Events by type */
  GArray *current[2];              /* CPUs/<n>/current-thread, with nulls (idle) */
  GArray *syscall[N_THREADS];      /* Threads/<tid>/kernel-state/syscall */
  GArray *compilation;             /* JIT/<tid>/compilation */
  GArray *safepoint_starts;        /* gint64: when each safepoint began (some show twice) */
  GArray *collection_starts;       /* gint64: when each collection began (some nest) */
  GArray *samples;                 /* JvmsSample, times only */
} Model;

static const char *pause_names[] = { "Pause Young (Normal)", "Pause Remark", "Pause Full" };

/* Writes a random step function to @attr and keeps it in @out. Values never repeat back to
 * back, so the index stores exactly the intervals the model holds. */
static void
random_steps (JvmsHistoryBuilder *b, JvmsAttribute attr, GArray *out, int kind)
{
  gint64 t = g_test_rand_int_range (1, 2000);
  Iv prev = { .start = 0, .null = TRUE };
  while (t < END_TIME)
    {
      Iv iv = { .start = t };
      g_autoptr(GError) error = NULL;
      do
        {
          iv.null = (kind == 2 && prev.null == FALSE) /* pauses alternate with nothing */
                    || (kind == 5 && !prev.null && g_test_rand_int_range (0, 4) == 0);
          iv.i = g_test_rand_int_range (0, kind == 0 ? JVMS_USER_STATE_N : kind == 1 ? JVMS_KERNEL_STATE_N : 4);
          iv.d = g_test_rand_double_range (0, 1e9);
          iv.s = pause_names[g_test_rand_int_range (0, G_N_ELEMENTS (pause_names))];
        }
      while ((prev.null && iv.null)
             || (!prev.null && !iv.null && (kind == 3 ? FALSE : kind == 2 ? FALSE : iv.i == prev.i)));
      gboolean ok;
      if (iv.null)
        ok = jvms_history_builder_modify_null (b, attr, t, &error);
      else if (kind == 2)
        ok = jvms_history_builder_modify_string (b, attr, t, iv.s, &error);
      else if (kind == 4)
        ok = jvms_history_builder_modify_double (b, attr, t, iv.d, &error);
      else
        ok = jvms_history_builder_modify_int (b, attr, t, iv.i, &error);
      g_assert_no_error (error);
      g_assert_true (ok);
      if (out->len > 0)
        g_array_index (out, Iv, out->len - 1).end = t;
      g_array_append_val (out, iv);
      prev = iv;
      t += g_test_rand_int_range (1, 3000);
    }
  if (out->len > 0)
    g_array_index (out, Iv, out->len - 1).end = END_TIME;
}

static gint64
clip (const Iv *iv, gint64 t0, gint64 t1)
{
  gint64 s = MAX (iv->start, t0), e = MIN (iv->end, t1);
  return e > s ? e - s : 0;
}

static const JvmsStatRow *
find_row (const JvmsRangeStats *stats, const char *section, const char *subject,
          const char *key)
{
  for (guint i = 0; i < stats->rows->len; i++)
    {
      const JvmsStatRow *r = g_ptr_array_index (stats->rows, i);
      if (g_str_equal (r->section, section) && g_str_equal (r->subject, subject)
          && g_str_equal (r->key, key))
        return r;
    }
  return NULL;
}

static void
got_stats (GObject *source, GAsyncResult *result, gpointer user_data)
{
  JvmsRangeStats **out = user_data;
  g_autoptr(GError) error = NULL;
  *out = jvms_range_stats_compute_finish (result, &error);
  g_assert_no_error (error);
}

static guint
check_states (const JvmsRangeStats *stats, GArray *ivs, const char *subject, gboolean user,
              gint64 t0, gint64 t1)
{
  guint n_rows = 0;
  int n = user ? JVMS_USER_STATE_N : JVMS_KERNEL_STATE_N;
  for (int v = 0; v < n; v++)
    {
      gint64 expected = 0;
      for (guint i = 0; i < ivs->len; i++)
        {
          const Iv *iv = &g_array_index (ivs, Iv, i);
          if (!iv->null && iv->i == v)
            expected += clip (iv, t0, t1);
        }
      g_autofree char *key = g_strconcat (user ? "java:" : "kernel:",
                                          user ? jvms_user_state_name (v) : jvms_kernel_state_name (v),
                                          NULL);
      const JvmsStatRow *row = find_row (stats, "thread-states", subject, key);
      if (expected == 0)
        g_assert_null (row);
      else
        {
          g_assert_nonnull (row);
          g_assert_cmpfloat (row->value, ==, (double) expected);
          g_assert_cmpstr (row->unit, ==, "ns");
          n_rows++;
        }
    }
  return n_rows;
}

static void
check_numeric (const JvmsRangeStats *stats, GArray **series, guint n_series,
               const char *section, const char *subject, gint64 t0, gint64 t1, gboolean doubles)
{
  double w = 0, sum = 0, sq = 0, min = INFINITY, max = -INFINITY;
  for (guint k = 0; k < n_series; k++)
    for (guint i = 0; i < series[k]->len; i++)
      {
        const Iv *iv = &g_array_index (series[k], Iv, i);
        double d = (double) clip (iv, t0, t1) / 1e9;
        if (iv->null || d <= 0)
          continue;
        double v = doubles ? iv->d : (double) iv->i;
        w += d, sum += v * d, sq += v * v * d;
        min = MIN (min, v), max = MAX (max, v);
      }
  const JvmsStatRow *r_sum = find_row (stats, section, subject, "sum");
  if (w <= 0)
    {
      g_assert_null (r_sum);
      return;
    }
  double mean = sum / w;
  g_assert_nonnull (r_sum);
  g_assert_cmpfloat_with_epsilon (r_sum->value, sum, fabs (sum) * 1e-9 + 1e-9);
  g_assert_cmpfloat (find_row (stats, section, subject, "min")->value, ==, min);
  g_assert_cmpfloat (find_row (stats, section, subject, "max")->value, ==, max);
  g_assert_cmpfloat_with_epsilon (find_row (stats, section, subject, "mean")->value, mean,
                                  fabs (mean) * 1e-9 + 1e-9);
  double sd = sqrt (MAX (sq / w - mean * mean, 0));
  g_assert_cmpfloat_with_epsilon (find_row (stats, section, subject, "stddev")->value, sd,
                                  fabs (mean) * 1e-6 + 1e-6);
}

/* Growing ids as the analysis writes collections and safepoints: some hold a nested one (a G1
 * concurrent cycle around a young collection: the innermost gcId shows, the enclosing one
 * comes back), some show again after a gap (a safepoint's operation, then its end phase). */
static void
random_collections (JvmsHistoryBuilder *b, JvmsAttribute attr, GArray *starts)
{
  g_autoptr(GError) error = NULL;
  gint64 t = g_test_rand_int_range (1, 3000), id = 0;
  while (t + 40 < END_TIME)
    {
      g_assert_true (jvms_history_builder_modify_int (b, attr, t, ++id, &error));
      g_array_append_val (starts, t);
      gint64 end = t + g_test_rand_int_range (40, 4000);
      end = MIN (end, END_TIME - 1);
      if (g_test_rand_bit () && end - t >= 40)
        {
          gint64 inner = t + g_test_rand_int_range (1, (gint32) (end - t) / 2);
          gint64 inner_end = inner + g_test_rand_int_range (1, (gint32) (end - inner));
          g_assert_true (jvms_history_builder_modify_int (b, attr, inner, ++id, &error));
          g_array_append_val (starts, inner);
          g_assert_true (jvms_history_builder_modify_int (b, attr, inner_end, id - 1, &error));
        }
      if (end >= END_TIME)
        break;
      g_assert_true (jvms_history_builder_modify_null (b, attr, end, &error));
      t = end + g_test_rand_int_range (1, 3000);
      if (g_test_rand_bit () && t + 40 < END_TIME)
        {
          g_assert_true (jvms_history_builder_modify_int (b, attr, t, id, &error));
          end = t + g_test_rand_int_range (1, 2000);
          if (end >= END_TIME)
            break;
          g_assert_true (jvms_history_builder_modify_null (b, attr, end, &error));
          t = end + g_test_rand_int_range (1, 3000);
        }
    }
  g_assert_no_error (error);
}

/* Point samples of every kind at non-decreasing random times, written to a sample store. */
static void
random_samples (const char *path, GArray *out)
{
  g_autoptr(GError) error = NULL;
  JvmsSamplesWriter *w = jvms_samples_writer_new (path, &error);
  g_assert_no_error (error);
  static const JvmsSampleKind kinds[] = { JVMS_SAMPLE_EXECUTION, JVMS_SAMPLE_NATIVE,
                                          JVMS_SAMPLE_ALLOCATION, JVMS_SAMPLE_OLD_OBJECT };
  gint64 t = 0;
  for (int i = 0; i < 2000; i++)
    {
      t += g_test_rand_int_range (0, 100);
      JvmsSample sample = { .kind = kinds[g_test_rand_int_range (0, 4)], .time = t, .tid = 100,
                            .state = "STATE_RUNNABLE", .class_name = "java.lang.Object" };
      jvms_samples_writer_add (w, &sample);
      g_array_append_val (out, sample);
    }
  g_assert_true (jvms_samples_writer_close (w, &error));
  g_assert_no_error (error);
  jvms_samples_writer_free (w);
}

/* Model intervals that begin in [t0, t1) after the history start (0), by value; @any counts
 * every one, null ones too (a CPU going idle is a context switch). */
static guint64
begun (GArray *ivs, gint64 t0, gint64 t1, gboolean with_null, gint64 value)
{
  guint64 n = 0;
  for (guint i = 0; i < ivs->len; i++)
    {
      const Iv *iv = &g_array_index (ivs, Iv, i);
      if (iv->start < t0 || iv->start >= t1 || iv->start <= 0)
        continue;
      if (iv->null ? with_null : (value < 0 || iv->i == value))
        n++;
    }
  return n;
}

static guint64
starts_in (GArray *starts, gint64 t0, gint64 t1)
{
  guint64 n = 0;
  for (guint i = 0; i < starts->len; i++)
    {
      gint64 start = g_array_index (starts, gint64, i);
      n += start >= t0 && start < t1;
    }
  return n;
}

static void
check_event (const JvmsRangeStats *stats, const char *subject, const char *key,
             guint64 expected)
{
  const JvmsStatRow *row = find_row (stats, "events", subject, key);
  if (expected == 0)
    {
      g_assert_null (row);
      return;
    }
  g_assert_nonnull (row);
  g_assert_cmpstr (row->unit, ==, "count");
  g_assert_cmpfloat (row->value, ==, (double) expected);
}

static guint
check_events (const JvmsRangeStats *stats, const Model *m, gint64 t0, gint64 t1)
{
  guint64 kinds[4] = { 0 };
  for (guint i = 0; i < m->samples->len; i++)
    {
      const JvmsSample *sample = &g_array_index (m->samples, JvmsSample, i);
      if (sample->time >= t0 && sample->time < t1)
        kinds[sample->kind == JVMS_SAMPLE_EXECUTION ? 0 : sample->kind == JVMS_SAMPLE_NATIVE ? 1
              : sample->kind == JVMS_SAMPLE_ALLOCATION ? 2 : 3]++;
    }
  check_event (stats, "jfr", "jdk.ExecutionSample", kinds[0]);
  check_event (stats, "jfr", "jdk.NativeMethodSample", kinds[1]);
  check_event (stats, "jfr", "jdk.ObjectAllocationSample", kinds[2]);
  check_event (stats, "jfr", "jdk.OldObjectSample", kinds[3]);

  check_event (stats, "jfr", "jdk.GarbageCollection", starts_in (m->collection_starts, t0, t1));
  check_event (stats, "jfr", "jdk.SafepointBegin", starts_in (m->safepoint_starts, t0, t1));
  check_event (stats, "jfr", "jdk.GCPhasePause", begun (m->pause, t0, t1, FALSE, -1));
  check_event (stats, "jfr", "jdk.Compilation", begun (m->compilation, t0, t1, FALSE, -1));
  for (int v = 0; v < JVMS_USER_STATE_N; v++)
    {
      if (v == JVMS_USER_STATE_RUNNING)
        continue;
      guint64 n = 0;
      for (int t = 0; t < N_THREADS; t++)
        n += begun (m->user[t], t0, t1, FALSE, v);
      g_autofree char *key = g_strconcat ("java-state:", jvms_user_state_name (v), NULL);
      check_event (stats, "jfr", key, n);
    }

  guint64 switches = 0, syscalls = 0, runnable = 0;
  for (int c = 0; c < 2; c++)
    switches += begun (m->current[c], t0, t1, TRUE, -1);
  for (int t = 0; t < N_THREADS; t++)
    {
      syscalls += begun (m->syscall[t], t0, t1, FALSE, -1);
      runnable += begun (m->kernel[t], t0, t1, FALSE, JVMS_KERNEL_STATE_RUNNABLE);
    }
  check_event (stats, "kernel", "sched_switch", switches);
  check_event (stats, "kernel", "sys_enter", syscalls);
  check_event (stats, "kernel", "runnable", runnable);

  guint n_rows = 0;
  for (guint i = 0; i < stats->rows->len; i++)
    n_rows += g_str_equal (((const JvmsStatRow *) g_ptr_array_index (stats->rows, i))->section, "events");
  return n_rows;
}

static void
test_against_model (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("jvms-stats-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (dir, "index.jvmh", NULL);
  JvmsHistoryBuilder *b = jvms_history_builder_new (path, 0, NULL, &error);
  g_assert_no_error (error);

  Model m;
  char subjects[N_THREADS][32];
  for (int t = 0; t < N_THREADS; t++)
    {
      char p[64];
      g_snprintf (p, sizeof p, "Threads/%d/name", 100 + t);
      g_assert_true (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, p), 0,
                                                          t == 0 ? "main" : "worker", &error));
      g_snprintf (subjects[t], sizeof subjects[t], "%s (%d)", t == 0 ? "main" : "worker", 100 + t);
      m.user[t] = g_array_new (FALSE, FALSE, sizeof (Iv));
      m.kernel[t] = g_array_new (FALSE, FALSE, sizeof (Iv));
      g_snprintf (p, sizeof p, "Threads/%d/user-state", 100 + t);
      random_steps (b, jvms_history_builder_attribute (b, p), m.user[t], 0);
      g_snprintf (p, sizeof p, "Threads/%d/kernel-state", 100 + t);
      random_steps (b, jvms_history_builder_attribute (b, p), m.kernel[t], 1);
      g_snprintf (p, sizeof p, "Threads/%d/kernel-state/syscall", 100 + t);
      m.syscall[t] = g_array_new (FALSE, FALSE, sizeof (Iv));
      random_steps (b, jvms_history_builder_attribute (b, p), m.syscall[t], 2);
    }
  for (int c = 0; c < 2; c++)
    {
      char p[64];
      g_snprintf (p, sizeof p, "CPUs/%d/current-thread", c);
      m.current[c] = g_array_new (FALSE, FALSE, sizeof (Iv));
      random_steps (b, jvms_history_builder_attribute (b, p), m.current[c], 5);
    }
  m.compilation = g_array_new (FALSE, FALSE, sizeof (Iv));
  random_steps (b, jvms_history_builder_attribute (b, "JIT/7/compilation"), m.compilation, 2);
  m.safepoint_starts = g_array_new (FALSE, FALSE, sizeof (gint64));
  random_collections (b, jvms_history_builder_attribute (b, "VM/safepoint"), m.safepoint_starts);
  m.collection_starts = g_array_new (FALSE, FALSE, sizeof (gint64));
  random_collections (b, jvms_history_builder_attribute (b, "GC/collection"), m.collection_starts);
  g_autofree char *samples_path = g_build_filename (dir, "index.samples", NULL);
  m.samples = g_array_new (FALSE, FALSE, sizeof (JvmsSample));
  random_samples (samples_path, m.samples);
  g_assert_true (jvms_history_builder_modify_string (b, jvms_history_builder_attribute (b, "Locks/0x7f00/class"),
                                                      0, "java.lang.Object", &error));
  m.waiters = g_array_new (FALSE, FALSE, sizeof (Iv));
  random_steps (b, jvms_history_builder_attribute (b, "Locks/0x7f00/waiters"), m.waiters, 3);
  m.pause = g_array_new (FALSE, FALSE, sizeof (Iv));
  random_steps (b, jvms_history_builder_attribute (b, "GC/pause"), m.pause, 2);
  for (int c = 0; c < 2; c++)
    {
      char p[64];
      g_snprintf (p, sizeof p, "CPUs/%d/counters/cycles", c);
      m.cycles[c] = g_array_new (FALSE, FALSE, sizeof (Iv));
      random_steps (b, jvms_history_builder_attribute (b, p), m.cycles[c], 4);
    }
  gboolean closed = jvms_history_builder_close (b, END_TIME, &error);
  g_assert_no_error (error);
  g_assert_true (closed);
  JvmsHistory *h = jvms_history_builder_get_history (b);

  guint n_events = 0;
  for (int round = 0; round < 20; round++)
    {
      gint64 t0 = g_test_rand_int_range (0, END_TIME - 10);
      gint64 t1 = g_test_rand_int_range ((gint32) t0 + 1, END_TIME + 1);
      JvmsRangeStats *stats = NULL;
      jvms_range_stats_compute_async (h, samples_path, t0, t1, NULL, got_stats, &stats);
      while (stats == NULL)
        g_main_context_iteration (NULL, TRUE);
      g_assert_cmpint (stats->t0, ==, t0);
      g_assert_cmpint (stats->t1, ==, t1);

      guint n_states = 0;
      for (int t = 0; t < N_THREADS; t++)
        {
          n_states += check_states (stats, m.user[t], subjects[t], TRUE, t0, t1);
          n_states += check_states (stats, m.kernel[t], subjects[t], FALSE, t0, t1);
        }
      g_assert_cmpuint (n_states, >, 0);
      check_numeric (stats, &m.waiters, 1, "locks", "java.lang.Object 0x7f00", t0, t1, FALSE);
      n_events += check_events (stats, &m, t0, t1);
      check_numeric (stats, m.cycles, 2, "counters", "cycles", t0, t1, TRUE);

      for (guint k = 0; k < G_N_ELEMENTS (pause_names); k++)
        {
          gint64 total = 0, longest = 0, count = 0;
          for (guint i = 0; i < m.pause->len; i++)
            {
              const Iv *iv = &g_array_index (m.pause, Iv, i);
              gint64 d = clip (iv, t0, t1);
              if (iv->null || d == 0 || !g_str_equal (iv->s, pause_names[k]))
                continue;
              total += d, count++, longest = MAX (longest, d);
            }
          const JvmsStatRow *r = find_row (stats, "gc", pause_names[k], "count");
          if (count == 0)
            {
              g_assert_null (r);
              continue;
            }
          g_assert_nonnull (r);
          g_assert_cmpfloat (r->value, ==, (double) count);
          g_assert_cmpfloat (find_row (stats, "gc", pause_names[k], "total")->value, ==, (double) total);
          g_assert_cmpfloat (find_row (stats, "gc", pause_names[k], "max")->value, ==, (double) longest);
        }

      /* Every row comes back out of both writers. */
      g_autofree char *csv = jvms_range_stats_to_csv (stats);
      g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);
      g_assert_cmpstr (lines[0], ==, "section,subject,key,value,unit");
      g_assert_cmpuint (g_strv_length (lines), ==, stats->rows->len + 2); /* header, final "" */
      g_autofree char *json = jvms_range_stats_to_json (stats);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
      JsonObject *root = json_node_get_object (json_parser_get_root (parser));
      JsonArray *rows = json_object_get_array_member (root, "rows");
      g_assert_cmpuint (json_array_get_length (rows), ==, stats->rows->len);
      for (guint i = 0; i < stats->rows->len; i++)
        {
          const JvmsStatRow *r = g_ptr_array_index (stats->rows, i);
          JsonObject *o = json_array_get_object_element (rows, i);
          g_assert_cmpstr (json_object_get_string_member (o, "key"), ==, r->key);
          g_assert_cmpfloat (json_object_get_double_member (o, "value"), ==, r->value);
        }
      jvms_range_stats_free (stats);
    }

  /* Twenty random ranges over this much activity cannot all be empty of events. */
  g_assert_cmpuint (n_events, >, 0);

  jvms_history_unref (h);
  jvms_history_builder_free (b);
  for (int t = 0; t < N_THREADS; t++)
    {
      g_array_unref (m.user[t]);
      g_array_unref (m.kernel[t]);
      g_array_unref (m.syscall[t]);
    }
  for (int c = 0; c < 2; c++)
    g_array_unref (m.current[c]);
  g_array_unref (m.compilation);
  g_array_unref (m.safepoint_starts);
  g_array_unref (m.collection_starts);
  g_array_unref (m.samples);
  g_unlink (samples_path);
  g_array_unref (m.waiters);
  g_array_unref (m.pause);
  g_array_unref (m.cycles[0]);
  g_array_unref (m.cycles[1]);
  g_unlink (path);
  g_rmdir (dir);
}

/* A cancelled computation reports G_IO_ERROR_CANCELLED and nothing else. */
static void
got_cancelled (GObject *source, GAsyncResult *result, gpointer user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;
  JvmsRangeStats *stats = jvms_range_stats_compute_finish (result, &error);
  g_assert_null (stats);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  *done = TRUE;
}

static void
test_cancelled (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("jvms-stats-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "index.jvmh", NULL);
  JvmsHistoryBuilder *b = jvms_history_builder_new (path, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, "Threads/1/user-state"),
                                                   10, 0, &error));
  g_assert_true (jvms_history_builder_close (b, 1000, &error));
  JvmsHistory *h = jvms_history_builder_get_history (b);

  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  gboolean done = FALSE;
  jvms_range_stats_compute_async (h, NULL, 0, 1000, cancellable, got_cancelled, &done);
  g_cancellable_cancel (cancellable);
  while (!done)
    g_main_context_iteration (NULL, TRUE);

  jvms_history_unref (h);
  jvms_history_builder_free (b);
  g_unlink (path);
  g_rmdir (dir);
}

/* The events of the whole bundled sample against `jfr summary` of its recording: every point
 * event of the JFR file is in the sample store, every collection (jdk.GarbageCollection,
 * concurrent cycles included) begins inside the trace, and so does every safepoint, the one
 * JFR begins to stop the recording (no operation or end follows it) included. */
static guint64
summary_count (const char *summary, const char *type)
{
  g_autofree char *pattern = g_strdup_printf ("^\\s*%s\\s+(\\d+)\\s", type);
  g_autoptr(GRegex) regex = g_regex_new (pattern, G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  if (!g_regex_match (regex, summary, 0, &match))
    return 0;
  g_autofree char *count = g_match_info_fetch (match, 1);
  return g_ascii_strtoull (count, NULL, 10);
}

static double
event_count (const JvmsRangeStats *stats, const char *key)
{
  const JvmsStatRow *row = find_row (stats, "events", "jfr", key);
  return row != NULL ? row->value : 0.0;
}

static void
test_sample_against_jfr_summary (void)
{
  const char *bundle = g_getenv ("JVMS_SAMPLE_TRACE");
  g_assert_nonnull (bundle);
  g_autofree char *recording = g_build_filename (bundle, "recording.jfr", NULL);
  const char *argv[] = { "jfr", "summary", recording, NULL };
  g_autofree char *summary = NULL;
  int status = 0;
  g_autoptr(GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &summary, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  g_autofree char *cache = g_dir_make_tmp ("jvms-stats-cache-XXXXXX", &error);
  g_assert_no_error (error);
  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (bundle, &error);
  g_assert_no_error (error);
  jvms_trace_index_set_cache_dir (index, cache);
  g_assert_true (jvms_trace_index_load (index, NULL, &error));
  g_assert_no_error (error);
  JvmsHistory *h = jvms_trace_index_dup_history (index);
  /* The end is inclusive for events: old-object samples are taken when the recording ends. */
  gint64 t0 = jvms_history_get_start_time (h), t1 = jvms_history_get_end_time (h) + 1;
  JvmsRangeStats *stats = NULL;
  jvms_range_stats_compute_async (h, jvms_trace_index_get_samples_path (index), t0, t1, NULL,
                                      got_stats, &stats);
  while (stats == NULL)
    g_main_context_iteration (NULL, TRUE);

  static const char * const exact[] = { "jdk.ExecutionSample", "jdk.NativeMethodSample",
                                        "jdk.ObjectAllocationSample", "jdk.OldObjectSample",
                                        "jdk.GarbageCollection", "jdk.SafepointBegin" };
  guint64 total = 0;
  for (guint i = 0; i < G_N_ELEMENTS (exact); i++)
    {
      guint64 expected = summary_count (summary, exact[i]);
      g_test_message ("%s: jfr summary %" G_GUINT64_FORMAT ", panel %.0f", exact[i], expected,
                      event_count (stats, exact[i]));
      g_assert_cmpfloat (event_count (stats, exact[i]), ==, (double) expected);
      total += expected;
    }
  g_assert_cmpuint (total, >, 0);
  /* Pauses and compilations are intervals: two that abut merge. So never more than JFR's. */
  static const char * const at_most[] = { "jdk.GCPhasePause", "jdk.Compilation" };
  for (guint i = 0; i < G_N_ELEMENTS (at_most); i++)
    {
      guint64 expected = summary_count (summary, at_most[i]);
      g_test_message ("%s: jfr summary %" G_GUINT64_FORMAT ", panel %.0f", at_most[i], expected,
                      event_count (stats, at_most[i]));
      g_assert_cmpfloat (event_count (stats, at_most[i]), <=, (double) expected);
      g_assert_cmpfloat (event_count (stats, at_most[i]), >, 0);
    }
  /* The per-thread rows are the recorded JVM's threads only: the sample's kernel layer has
   * other processes' threads, which must not be listed as the recording's. */
  g_autoptr(JvmsThreadList) threads = jvms_thread_list_read (h);
  guint others = 0, ours = 0;
  for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      g_autofree char *subject = g_strcmp0 (t->name, t->key) != 0
                                 ? g_strdup_printf ("%s (%s)", t->name, t->key) : g_strdup (t->key);
      gboolean listed = FALSE;
      for (guint r = 0; r < stats->rows->len && !listed; r++)
        {
          const JvmsStatRow *row = g_ptr_array_index (stats->rows, r);
          listed = g_strcmp0 (row->section, "thread-states") == 0 && g_strcmp0 (row->subject, subject) == 0;
        }
      if (t->kind == JVMS_THREAD_KIND_OTHER_PROCESS)
        {
          others++;
          g_assert_false (listed);
        }
      else if (listed)
        ours++;
    }
  g_test_message ("threads of other processes: %u (none listed); the JVM's listed: %u", others, ours);
  g_assert_cmpuint (others, >, 0);
  g_assert_cmpuint (ours, >, 0);
  jvms_range_stats_free (stats);
  jvms_history_unref (h);
  g_clear_object (&index);

  g_autoptr(GDir) dir = g_dir_open (cache, 0, NULL);
  const char *name;
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (cache, name, NULL);
      g_unlink (path);
    }
  g_rmdir (cache);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/App/selection-stats/sample-vs-jfr-summary", test_sample_against_jfr_summary);
  g_test_add_func ("/App/selection-stats/against-model", test_against_model);
  g_test_add_func ("/App/selection-stats/cancelled", test_cancelled);
  return g_test_run ();
}
