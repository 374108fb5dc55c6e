/* The clock test of issue 5 item 5: a Java workload alternating sleeps, parks, contended monitor
 * entries and spins is recorded with `jvmscope-cli record`, indexed, and every start and end
 * stamp of its JFR sleep, park and monitor-enter events must fall where the kernel had that
 * thread on a CPU (a thread stamps its own events, so a stamp inside one of its off-CPU
 * intervals means the clocks disagree), and the thread's off-CPU time during each event must
 * lie inside the event. The stamps also bound how far the kernel axis could be shifted without a
 * violation: that window is the self-calibrated uncertainty of the offset. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "jvms-states.h"
#include "jvms-trace-index.h"

static void
spawn_or_fail (const char * const *argv, const char *cwd)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  if (!g_spawn_sync (cwd, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("%s failed: %s\n%s%s", argv[0], error != NULL ? error->message : "", out ? out : "", err ? err : "");
}

static void
remove_dir (const char *path)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_dir (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static gboolean
on_cpu (const JvmsInterval *iv)
{
  return iv->value.type == JVMS_VALUE_INT
         && (iv->value.i == JVMS_KERNEL_STATE_RUNNING || iv->value.i == JVMS_KERNEL_STATE_SYSCALL);
}

static gboolean
off_cpu (const JvmsInterval *iv)
{
  return iv->value.type == JVMS_VALUE_INT
         && (iv->value.i == JVMS_KERNEL_STATE_RUNNABLE || iv->value.i == JVMS_KERNEL_STATE_BLOCKED
             || iv->value.i == JVMS_KERNEL_STATE_BLOCKED_IO);
}

static void
test_clock (void)
{
  const char *cli = g_getenv ("JVMS_CLI");
  const char *src = g_getenv ("JVMS_TEST_SRCDIR");
  g_assert_nonnull (cli);
  g_assert_nonnull (src);
  g_autofree char *dir = g_dir_make_tmp ("jvms-clock-XXXXXX", NULL);
  g_autofree char *classes = g_build_filename (dir, "classes", NULL);
  g_autofree char *java = g_build_filename (src, "Workload.java", NULL);
  g_autofree char *bundle = g_build_filename (dir, "clock.jvmtrace", NULL);
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);

  const char *javac[] = { "javac", "-d", classes, java, NULL };
  spawn_or_fail (javac, dir);
  const char *record[] = { cli, "record", "-o", bundle, "--", "java", "-cp", classes, "Workload", "25", NULL };
  spawn_or_fail (record, dir);

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (bundle, &error);
  g_assert_no_error (error);
  jvms_trace_index_set_cache_dir (index, cache);
  g_assert_true (jvms_trace_index_load (index, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (jvms_trace_index_get_layers (index), ==, JVMS_TRACE_LAYER_JFR | JVMS_TRACE_LAYER_KERNEL);
  g_autoptr(JvmsHistory) h = jvms_trace_index_dup_history (index);
  const char *method = jvms_history_get_metadata (h, "clock-method");
  g_assert_true (g_str_has_prefix (method, "bundle:"));

  gint64 t0 = jvms_history_get_start_time (h), t1 = jvms_history_get_end_time (h);
  gint64 lo = G_MININT64, hi = G_MAXINT64;
  guint n_events = 0, n_stamps = 0, n_unknown = 0, n_violations = 0, n_outside = 0;
  GString *report = g_string_new (NULL);

  JvmsAttribute threads = jvms_history_lookup (h, "Threads");
  g_autoptr(GArray) tids = jvms_history_list_children (h, threads);
  for (guint i = 0; i < tids->len; i++)
    {
      JvmsAttribute t = g_array_index (tids, JvmsAttribute, i);
      JvmsAttribute user = jvms_history_lookup_child (h, t, "user-state");
      JvmsAttribute kernel = jvms_history_lookup_child (h, t, "kernel-state");
      if (user == JVMS_ATTRIBUTE_INVALID || kernel == JVMS_ATTRIBUTE_INVALID)
        continue;
      g_autoptr(JvmsHistoryRange) r = jvms_history_query_range (h, t0, t1, &user, 1, &error);
      g_assert_no_error (error);
      JvmsInterval ev;
      while (jvms_history_range_next (r, &ev, &error))
        {
          if (ev.value.type != JVMS_VALUE_INT
              || (ev.value.i != JVMS_USER_STATE_SLEEPING && ev.value.i != JVMS_USER_STATE_PARKED
                  && ev.value.i != JVMS_USER_STATE_BLOCKED))
            continue;
          n_events++;
          gint64 stamps[2] = { ev.start, ev.end };
          for (int k = 0; k < 2; k++)
            {
              JvmsInterval kv;
              g_assert_true (jvms_history_query_single (h, kernel, stamps[k], &kv, &error));
              if (kv.value.type == JVMS_VALUE_NULL
                  || (kv.value.type == JVMS_VALUE_INT && kv.value.i == JVMS_KERNEL_STATE_UNKNOWN))
                {
                  n_unknown++;
                  continue;
                }
              n_stamps++;
              if (!on_cpu (&kv))
                {
                  n_violations++;
                  if (n_violations <= 10)
                    g_string_append_printf (report, "thread %s: %s stamp %" G_GINT64_FORMAT " of a %s event in kernel state %s [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")\n",
                                            jvms_history_get_name (h, t), k == 0 ? "start" : "end",
                                            stamps[k], jvms_user_state_name (ev.value.i),
                                            jvms_kernel_state_name (kv.value.i), kv.start, kv.end);
                  continue;
                }
              /* kernel' = kernel + d keeps the stamp on CPU while start + d <= stamp < end + d. */
              lo = MAX (lo, stamps[k] - kv.end + 1);
              hi = MIN (hi, stamps[k] - kv.start);
            }
          g_autoptr(JvmsHistoryRange) kr = jvms_history_query_range (h, ev.start, ev.end - 1, &kernel, 1, &error);
          g_assert_no_error (error);
          JvmsInterval kv;
          while (jvms_history_range_next (kr, &kv, &error))
            if (off_cpu (&kv) && (kv.start < ev.start || kv.end > ev.end))
              n_outside++;
          g_assert_no_error (error);
        }
      g_assert_no_error (error);
    }

  g_test_message ("clock: %s, bundle uncertainty %s ns; %u events, %u stamps checked, %u on unknown kernel state; "
                  "%u stamps off CPU, %u off-CPU intervals sticking out of their event; "
                  "the kernel axis could move by [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] ns (width %" G_GINT64_FORMAT " ns)",
                  method, jvms_history_get_metadata (h, "clock-uncertainty-ns"), n_events, n_stamps,
                  n_unknown, n_violations, n_outside, lo, hi, hi - lo);
  if (report->len > 0)
    g_test_message ("%s", report->str);
  g_string_free (report, TRUE);

  g_assert_cmpuint (n_events, >=, 100);
  g_assert_cmpuint (n_stamps, >=, n_events);
  g_assert_cmpuint (n_violations, ==, 0);
  g_assert_cmpuint (n_outside, ==, 0);
  g_assert_cmpint (lo, <=, 0);
  g_assert_cmpint (hi, >=, 0);
  g_assert_cmpint (hi - lo, <=, 10000);

  g_clear_pointer (&h, jvms_history_unref);
  g_clear_object (&index);
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Analysis/clock/jfr-stamps-on-cpu", test_clock);
  return g_test_run ();
}
