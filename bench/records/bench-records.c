/* bench-records: the Performance Explorer's records (issue 22, "Speed"; docs/records.md).
 *
 *   bench-records [--quanta N] [--records N] [--runs N] [--cache-dir DIR] [--trace-index FILE]
 *
 * A synthetic index of N quanta (default 1 M: 64 JVM threads, each quantum a RUNNING then a
 * SYSCALL interval on one CPU, then a wait, a method sample every fourth and a counter rate
 * every eighth) is written once into DIR (default /tmp) under a name that carries N, and only
 * opened by later runs.
 *
 * Prints:
 *   figure build_seconds      when the index was written now
 *   figure quanta_per_s       quanta read from that index per second of wall time (median run)
 *   figure quanta_cpu_per_s   the same per second of the process's CPU time
 *   figure quanta_index_per_s the same from FILE (--trace-index: a real trace's .jvmsidx)
 *   figure filter_ms          ms to parse and apply `duration > 1ms && thread ~ "^worker" &&
 *                             preempted` and compute `ipc = instructions / cycles` over the
 *                             records of an in-memory table of N records (--records, default
 *                             10 M), median run
 *   figure baseline_filter_ms the same filter and metric written as a C loop over the same table
 *   ratio  filter_ms          ours over that baseline
 */
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench-common.h"
#include "jvms-quanta.h"
#include "jvms-record-expr.h"
#include "jvms-record-set.h"
#include "jvms-states.h"

static gint64 n_quanta = 1000000;
static gint64 n_records = 10000000;
static int n_runs = 5;
static char *cache_dir;
static char *trace_index;

static gboolean
build_index (const char *path, GError **error)
{
  g_autoptr(JvmsHistoryBuilder) b = jvms_history_builder_new (path, 0, NULL, error);
  if (b == NULL)
    return FALSE;
  enum { N_THREADS = 64 };
  JvmsAttribute state[N_THREADS], cpu[N_THREADS], method[N_THREADS], cycles[N_THREADS];
  for (int t = 0; t < N_THREADS; t++)
    {
      char path_buf[128];
      g_snprintf (path_buf, sizeof path_buf, "Threads/%d/name", 1000 + t);
      JvmsAttribute name = jvms_history_builder_attribute (b, path_buf);
      g_autofree char *thread_name = g_strdup_printf ("worker-%d", t);
      jvms_history_builder_modify_string (b, name, 1, thread_name, NULL);
      g_snprintf (path_buf, sizeof path_buf, "Threads/%d/kind", 1000 + t);
      jvms_history_builder_modify_int (b, jvms_history_builder_attribute (b, path_buf), 1, JVMS_THREAD_KIND_JAVA, NULL);
      g_snprintf (path_buf, sizeof path_buf, "Threads/%d/kernel-state", 1000 + t);
      state[t] = jvms_history_builder_attribute (b, path_buf);
      g_snprintf (path_buf, sizeof path_buf, "Threads/%d/kernel-state/cpu", 1000 + t);
      cpu[t] = jvms_history_builder_attribute (b, path_buf);
      g_snprintf (path_buf, sizeof path_buf, "Threads/%d/method", 1000 + t);
      method[t] = jvms_history_builder_attribute (b, path_buf);
      g_snprintf (path_buf, sizeof path_buf, "Threads/%d/counters/cycles", 1000 + t);
      cycles[t] = jvms_history_builder_attribute (b, path_buf);
    }
  /* Threads take turns in slots of 4 us: quantum k of thread t runs in slot k * 64 + t. */
  gint64 per_thread = n_quanta / N_THREADS;
  GRand *rand = g_rand_new_with_seed (22);
  for (gint64 k = 0; k < per_thread; k++)
    for (int t = 0; t < N_THREADS; t++)
      {
        gint64 s = 10 + (k * N_THREADS + t) * 4000;
        gboolean ok = jvms_history_builder_modify_int (b, state[t], s, JVMS_KERNEL_STATE_RUNNING, error)
                      && jvms_history_builder_modify_int (b, cpu[t], s, t % 8, error)
                      && jvms_history_builder_modify_int (b, state[t], s + 2000, JVMS_KERNEL_STATE_SYSCALL, error)
                      && jvms_history_builder_modify_int (b, state[t], s + 3000,
                                                          g_rand_boolean (rand) ? JVMS_KERNEL_STATE_RUNNABLE
                                                                                : JVMS_KERNEL_STATE_BLOCKED, error)
                      && jvms_history_builder_modify_null (b, cpu[t], s + 3000, error);
        if (ok && k % 4 == 0)
          ok = jvms_history_builder_modify_string (b, method[t], s + 100, k % 8 ? "a.B.c" : "d.E.f", error)
               && jvms_history_builder_modify_null (b, method[t], s + 2500, error);
        if (ok && k % 8 == 0)
          ok = jvms_history_builder_modify_double (b, cycles[t], s + 1000, 1e9 + g_rand_double (rand) * 1e9, error);
        if (!ok)
          {
            g_rand_free (rand);
            return FALSE;
          }
      }
  g_rand_free (rand);
  return jvms_history_builder_close (b, 10 + (per_thread + 1) * N_THREADS * 4000, error);
}

static void
bench_quanta (const char *path, const char *figure)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistory) h = jvms_history_open (path, 0, &error);
  if (h == NULL)
    g_error ("%s", error->message);
  g_autoptr(GArray) wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  guint64 n = 0;
  for (int r = 0; r < n_runs; r++)
    {
      double t0 = jvms_bench_wall_s (), c0 = jvms_bench_process_cpu_s ();
      g_autoptr(JvmsRecordTable) q = jvms_quanta_read (h, G_MININT64, G_MAXINT64, &error);
      if (q == NULL)
        g_error ("%s", error->message);
      double t1 = jvms_bench_wall_s (), c1 = jvms_bench_process_cpu_s ();
      n = jvms_record_table_get_n_rows (q);
      g_array_append_val (wall, (double) { n / (t1 - t0) });
      g_array_append_val (cpu, (double) { n / MAX (c1 - c0, 1e-9) });
    }
  printf ("figure %s %.0f quanta/s\n", figure, jvms_bench_percentile_above_of (wall, 0.5));
  if (strcmp (figure, "quanta_per_s") == 0)
    printf ("figure quanta_cpu_per_s %.0f quanta/s\n", jvms_bench_percentile_above_of (cpu, 0.5));
  printf ("figure %s_n %" G_GUINT64_FORMAT " quanta\n", figure, n);
}

static void
bench_filter (void)
{
  g_autoptr(JvmsRecordTable) t = jvms_record_table_new ();
  guint c_dur = jvms_record_table_add_column (t, "duration", JVMS_RECORD_COLUMN_INT, TRUE);
  guint c_thread = jvms_record_table_add_column (t, "thread", JVMS_RECORD_COLUMN_STRING, FALSE);
  guint c_pre = jvms_record_table_add_column (t, "preempted", JVMS_RECORD_COLUMN_INT, FALSE);
  guint c_cyc = jvms_record_table_add_column (t, "cycles", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  guint c_ins = jvms_record_table_add_column (t, "instructions", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  static const char *names[] = { "worker-1", "main", "worker-2", "GC Thread#0" };
  GRand *rand = g_rand_new_with_seed (5);
  for (gint64 i = 0; i < n_records; i++)
    {
      guint64 row = jvms_record_table_add_row (t);
      jvms_record_table_set_int (t, c_dur, row, g_rand_int_range (rand, 1000, 3000000));
      jvms_record_table_set_string (t, c_thread, row, names[i % 4]);
      jvms_record_table_set_int (t, c_pre, row, g_rand_boolean (rand));
      jvms_record_table_set_double (t, c_cyc, row, g_rand_double_range (rand, 0, 1e7));
      jvms_record_table_set_double (t, c_ins, row, g_rand_double_range (rand, 0, 2e7));
    }
  g_rand_free (rand);
  g_autoptr(GArray) ours = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) base = g_array_new (FALSE, FALSE, sizeof (double));
  guint64 kept = 0, kept_base = 0;
  for (int r = 0; r < n_runs; r++)
    {
      g_autofree char *name = g_strdup_printf ("ipc%d", r);
      g_autofree char *metric = g_strdup_printf ("%s=instructions / cycles", name);
      double t0 = jvms_bench_wall_s ();
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsRecordExpr) e = jvms_record_expr_parse ("duration > 1ms && thread ~ \"^worker\" && preempted", t, &error);
      g_autoptr(JvmsRecordSet) set = jvms_record_set_new (jvms_record_table_get_n_rows (t), TRUE);
      jvms_record_set_filter (set, t, e);
      if (!jvms_record_expr_add_metric (t, metric, NULL, &error))
        g_error ("%s", error->message);
      double t1 = jvms_bench_wall_s ();
      kept = jvms_record_set_count (set);
      g_array_append_val (ours, (double) { (t1 - t0) * 1000 });

      /* The same by hand: the prefix test for the regular expression, the division inline. */
      t0 = jvms_bench_wall_s ();
      g_autoptr(JvmsRecordSet) set2 = jvms_record_set_new (jvms_record_table_get_n_rows (t), FALSE);
      g_autofree double *ipc = g_new (double, n_records);
      for (gint64 i = 0; i < n_records; i++)
        {
          const char *th = jvms_record_table_get_string (t, c_thread, i);
          if (jvms_record_table_get_int (t, c_dur, i) > 1000000 && th != NULL && g_str_has_prefix (th, "worker")
              && jvms_record_table_get_int (t, c_pre, i) != 0)
            jvms_record_set_add (set2, i);
          double c = jvms_record_table_get_number (t, c_cyc, i);
          ipc[i] = c != 0 ? jvms_record_table_get_number (t, c_ins, i) / c : NAN;
        }
      t1 = jvms_bench_wall_s ();
      kept_base = jvms_record_set_count (set2);
      g_array_append_val (base, (double) { (t1 - t0) * 1000 });
    }
  if (kept != kept_base)
    g_error ("the filter kept %" G_GUINT64_FORMAT ", the baseline %" G_GUINT64_FORMAT, kept, kept_base);
  double o = jvms_bench_percentile_above_of (ours, 0.5), b = jvms_bench_percentile_above_of (base, 0.5);
  printf ("figure filter_records %" G_GINT64_FORMAT " records (%" G_GUINT64_FORMAT " kept)\n", n_records, kept);
  printf ("figure filter_ms %.1f ms\n", o);
  printf ("figure baseline_filter_ms %.1f ms\n", b);
  printf ("ratio filter_ms %.3f\n", b > 0 ? o / b : 0);
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    { "quanta", 0, 0, G_OPTION_ARG_INT64, &n_quanta, "Quanta in the synthetic index", "N" },
    { "records", 0, 0, G_OPTION_ARG_INT64, &n_records, "Records in the filtered table", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &n_runs, "Runs of each measure (the median is printed)", "N" },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, "Where the synthetic index is kept", "DIR" },
    { "trace-index", 0, 0, G_OPTION_ARG_FILENAME, &trace_index, "Also read the quanta of this index", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— the Performance Explorer's records");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error) || n_quanta < 64 || n_records < 1 || n_runs < 1)
    {
      g_printerr ("bench-records: %s\n", error != NULL ? error->message : "bad numbers");
      return 2;
    }
  g_autofree char *path = g_strdup_printf ("%s/bench-records-%" G_GINT64_FORMAT ".jvmsidx",
                                           cache_dir != NULL ? cache_dir : g_get_tmp_dir (), n_quanta);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      double t0 = jvms_bench_wall_s ();
      if (!build_index (path, &error))
        {
          g_printerr ("bench-records: %s\n", error->message);
          return 1;
        }
      printf ("figure build_seconds %.2f s\n", jvms_bench_wall_s () - t0);
    }
  bench_quanta (path, "quanta_per_s");
  if (trace_index != NULL)
    bench_quanta (trace_index, "quanta_index_per_s");
  bench_filter ();
  return 0;
}
