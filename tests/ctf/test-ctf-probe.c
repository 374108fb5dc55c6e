/* test-ctf-probe.c: the babeltrace2 probe's budget is CPU time, not wall time.
 *
 * On a loaded machine a probe waits for a CPU: at load 25 one that needed 0.25 s of CPU took
 * over 2 s, and a good trace was called hung. Here the probe's child is stopped (SIGSTOP) for
 * three times its budget, then let go: it has used little CPU, so its answer must be taken. A
 * wall-clock budget fails this test. A probe that really spins (babeltrace2 on a packet of size
 * 0 loops for ever) is still ended: tests/ctf/test-ctf-repair covers that.
 *
 * A child stopped for good stands for one that deadlocked after fork() on a lock another
 * thread held (the sanitizers' allocator is not fork-safe): its CPU clock stands still, and
 * the probe must kill it and ask a new child, not call a good trace hung. */
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include "ctf-synthetic.h"
#include "ctf-test-util.h"
#include "jvms-ctf-bt.h"

typedef struct
{
  const char * const *inputs;
  JvmsCtfProbeResult  result;
  gboolean            use_prober;
} Probe;

static gpointer
probe_thread (gpointer data)
{
  Probe *p = data;
  if (p->use_prober)
    {
      JvmsCtfProber *prober = jvms_ctf_prober_new ();
      p->result = jvms_ctf_prober_probe (prober, p->inputs);
      jvms_ctf_prober_free (prober);
    }
  else
    p->result = jvms_ctf_bt_probe_guarded (p->inputs);
  return NULL;
}

/* Our children, from /proc (the probe forks from the probing thread). */
static GArray *
children (void)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_autofree char *task_dir = g_strdup_printf ("/proc/%d/task", (int) getpid ());
  g_autoptr (GDir) d = g_dir_open (task_dir, 0, NULL);
  const char *tid;
  while (d != NULL && (tid = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (task_dir, tid, "children", NULL);
      g_autofree char *text = NULL;
      if (!g_file_get_contents (path, &text, NULL, NULL))
        continue;
      g_auto (GStrv) words = g_strsplit (g_strstrip (text), " ", -1);
      for (guint i = 0; words[i] != NULL; i++)
        if (*words[i] != '\0')
          {
            pid_t pid = (pid_t) g_ascii_strtoll (words[i], NULL, 10);
            g_array_append_val (pids, pid);
          }
    }
  return pids;
}

static pid_t
first_child (void)
{
  for (guint i = 0; i < 100000; i++)
    {
      g_autoptr (GArray) pids = children ();
      if (pids->len > 0)
        return g_array_index (pids, pid_t, 0);
    }
  return 0;
}

static gboolean
process_gone (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d", (int) pid);
  return !g_file_test (path, G_FILE_TEST_EXISTS);
}

static void
check_stuck_probe (gconstpointer data)
{
  gboolean use_prober = GPOINTER_TO_INT (data);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("jvms-ctf-probe-XXXXXX", &error);
  g_assert_no_error (error);
  ctf_synthetic_write_with_classes (dir, 8000);
  const char *inputs[] = { dir, NULL };

  Probe p = { inputs, JVMS_CTF_PROBE_HUNG, use_prober };
  GThread *thread = g_thread_new ("probe", probe_thread, &p);
  pid_t child = first_child ();
  g_assert_cmpint (child, >, 0);
  g_assert_cmpint (kill (child, SIGSTOP), ==, 0);
  g_thread_join (thread);
  g_assert_cmpint (p.result, ==, JVMS_CTF_PROBE_OK);
  /* The stuck child was killed and reaped, not left stopped. */
  g_assert_true (process_gone (child));

  ctf_test_rm_rf (dir);
}

static void
check_stopped_probe (gconstpointer data)
{
  gboolean use_prober = GPOINTER_TO_INT (data);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("jvms-ctf-probe-XXXXXX", &error);
  g_assert_no_error (error);
  ctf_synthetic_write_with_classes (dir, 8000);
  const char *inputs[] = { dir, NULL };
  guint budget_ms = jvms_ctf_bt_probe_timeout_ms (inputs);
  g_assert_cmpuint (budget_ms, ==, 1500); /* meson.build sets it */

  Probe p = { inputs, JVMS_CTF_PROBE_HUNG, use_prober };
  GThread *thread = g_thread_new ("probe", probe_thread, &p);
  /* Catch the child while babeltrace2 parses the metadata (about half a second), and stop it
   * for three budgets of wall time: it uses no CPU meanwhile. */
  pid_t child = first_child ();
  g_assert_cmpint (child, >, 0);
  g_assert_cmpint (kill (child, SIGSTOP), ==, 0);
  g_usleep ((gulong) budget_ms * 3 * 1000);
  g_assert_cmpint (kill (child, SIGCONT), ==, 0);
  g_thread_join (thread);
  g_assert_cmpint (p.result, ==, JVMS_CTF_PROBE_OK);

  ctf_test_rm_rf (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/ctf/probe/stopped-child-guarded", GINT_TO_POINTER (FALSE),
                        check_stopped_probe);
  g_test_add_data_func ("/ctf/probe/stopped-child-prober", GINT_TO_POINTER (TRUE),
                        check_stopped_probe);
  g_test_add_data_func ("/ctf/probe/stuck-child-guarded", GINT_TO_POINTER (FALSE),
                        check_stuck_probe);
  g_test_add_data_func ("/ctf/probe/stuck-child-prober", GINT_TO_POINTER (TRUE),
                        check_stuck_probe);
  return g_test_run ();
}
