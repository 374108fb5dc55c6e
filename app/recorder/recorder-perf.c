/* recorder-perf.c: runs and supervises `perf record` for jvmscope-cli record. */
#include "config.h"

#include "recorder-perf.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Scheduling of every CPU: who takes the CPU from the JVM is only seen system-wide. */
static const char * const system_events[] = {
  "sched:sched_switch",
  "sched:sched_waking",
  "sched:sched_wakeup_new",
  "sched:sched_migrate_task",
  "sched:sched_process_fork",
  "sched:sched_process_exec",
  "sched:sched_process_exit",
  "block:block_rq_insert",
  "block:block_rq_issue",
  "block:block_rq_complete",
};

/* About 100 samples a second per busy thread: enough to colour a time slice, cheap to take. */
#define HW_COUNTERS "{cycles/period=10000000/,instructions,cache-misses,cache-references}:S"
#define SW_COUNTER "cpu-clock/period=10000000/"
/* ftrace filters are limited in size; a JVM seldom has more threads than this at attach time. */
#define MAX_FILTER_TIDS 200
/* Per CPU. 16M lost nothing at 300 k events/s on an idle machine; 32M leaves room for a perf
 * that waits for a CPU on a loaded one. */
#define PERF_BUFFER "32M"

struct _JvmsPerfSession
{
  GSubprocess *process;
  char *tmpdir;
  char *ctl_path, *ack_path, *log_path;
  int ctl_fd, ack_fd;
  gboolean exited;
  GPtrArray *events;
  char *syscall_scope;
  const char *counters;
  char *log;
  char *perf_path, *output;
  gint64 lost_records, lost_samples;
};

static char *
run_capture (const char * const *argv, int *status)
{
  g_autoptr(GSubprocess) p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                     | G_SUBPROCESS_FLAGS_STDERR_MERGE, NULL);
  char *out = NULL;
  *status = -1;
  if (p == NULL || !g_subprocess_communicate_utf8 (p, NULL, NULL, &out, NULL, NULL))
    return NULL;
  *status = g_subprocess_get_if_exited (p) ? g_subprocess_get_exit_status (p) : -1;
  return out;
}

void
jvms_perf_probe_run (JvmsPerfProbe *probe)
{
  memset (probe, 0, sizeof *probe);
  probe->paranoid = G_MININT;
  g_autofree char *paranoid = NULL;
  if (g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &paranoid, NULL, NULL))
    probe->paranoid = (int) g_ascii_strtoll (paranoid, NULL, 10);

  g_autofree char *path = g_find_program_in_path ("perf");
  if (path == NULL)
    return;
  int status;
  const char *version_argv[] = { path, "--version", NULL };
  g_autofree char *version = run_capture (version_argv, &status);
  /* Debian's /usr/bin/perf is a wrapper that fails without a perf for the running kernel. */
  if (version == NULL || status != 0 || !g_str_has_prefix (version, "perf version "))
    return;
  probe->perf_path = g_steal_pointer (&path);
  probe->version = g_strstrip (g_strdup (version + strlen ("perf version ")));

  const char *stat_argv[] = { probe->perf_path, "stat", "-x", ",", "-e", "instructions", "--", "true", NULL };
  g_autofree char *stat = run_capture (stat_argv, &status);
  if (stat != NULL && status == 0 && strstr (stat, "instructions") != NULL
      && strstr (stat, "<not supported>") == NULL && strstr (stat, "<not counted>") == NULL)
    probe->hw_counters = TRUE;
  else
    probe->hw_counters_reason = g_strdup_printf ("`perf stat -e instructions true` says: %s",
                                                 stat != NULL ? g_strstrip (stat) : "(did not run)");
}

void
jvms_perf_probe_clear (JvmsPerfProbe *probe)
{
  g_clear_pointer (&probe->perf_path, g_free);
  g_clear_pointer (&probe->version, g_free);
  g_clear_pointer (&probe->hw_counters_reason, g_free);
}

static void
own_process_group (gpointer data)
{
  /* perf must drain its buffers even when the JVM and the rest of the machine keep the CPUs
   * busy; raising its priority needs privileges and is only attempted. */
  if (setpriority (PRIO_PROCESS, 0, -5) != 0)
    {
      /* not allowed: stay at the normal priority */
    }
  /* Ctrl-C goes to the terminal's foreground group: perf must not stop before the JVM has
   * written its recording, so the recorder alone decides when perf stops. */
  setpgid (0, 0);
}

static void
on_perf_exit (GObject *source, GAsyncResult *result, gpointer data)
{
  JvmsPerfSession *session = data;
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  session->exited = TRUE;
}

static void
add_event (GPtrArray *argv, GPtrArray *events, const char *event)
{
  g_ptr_array_add (argv, g_strdup ("-e"));
  g_ptr_array_add (argv, g_strdup (event));
  g_ptr_array_add (events, g_strdup (event));
}

static char *
tid_filter (const GPid *tids, guint n)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%scommon_pid == %d", i ? " || " : "", (int) tids[i]);
  return g_string_free (s, FALSE);
}

static char *
read_log_tail (JvmsPerfSession *session)
{
  g_autofree char *log = NULL;
  if (!g_file_get_contents (session->log_path, &log, NULL, NULL))
    return g_strdup ("");
  gsize len = strlen (log);
  return g_strdup (g_strstrip (log + (len > 2000 ? len - 2000 : 0)));
}

JvmsPerfSession *
jvms_perf_session_start (const JvmsPerfConfig *config, GError **error)
{
  g_autoptr(JvmsPerfSession) session = g_new0 (JvmsPerfSession, 1);
  session->ctl_fd = session->ack_fd = -1;
  session->events = g_ptr_array_new_with_free_func (g_free);
  session->perf_path = g_strdup (config->perf_path);
  session->output = g_strdup (config->output);
  session->tmpdir = g_dir_make_tmp ("jvmscope-perf-XXXXXX", error);
  if (session->tmpdir == NULL)
    return NULL;
  session->ctl_path = g_build_filename (session->tmpdir, "ctl", NULL);
  session->ack_path = g_build_filename (session->tmpdir, "ack", NULL);
  session->log_path = g_build_filename (session->tmpdir, "perf.log", NULL);
  if (mkfifo (session->ctl_path, 0600) != 0 || mkfifo (session->ack_path, 0600) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: cannot make a fifo: %s",
                   session->tmpdir, g_strerror (e));
      return NULL;
    }
  /* Read-write opens of a fifo never block, whoever comes first. */
  session->ctl_fd = open (session->ctl_path, O_RDWR | O_CLOEXEC);
  session->ack_fd = open (session->ack_path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
  if (session->ctl_fd < 0 || session->ack_fd < 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: cannot open the fifos: %s",
                   session->tmpdir, g_strerror (e));
      return NULL;
    }

  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  const char * const head[] = {
    config->perf_path, "record", "-o", config->output, "-k", "CLOCK_MONOTONIC", "-a", "-m", PERF_BUFFER,
    "-D", "-1",
  };
  for (gsize i = 0; i < G_N_ELEMENTS (head); i++)
    g_ptr_array_add (argv, g_strdup (head[i]));
  g_ptr_array_add (argv, g_strdup ("--control"));
  g_ptr_array_add (argv, g_strdup_printf ("fifo:%s,%s", session->ctl_path, session->ack_path));

  /* Events of the JVM only come first: a -G applies to every event before it. */
  session->counters = config->hw_counters ? HW_COUNTERS : SW_COUNTER;
  if (config->cgroup != NULL)
    {
      if (!config->no_syscalls)
        {
          add_event (argv, session->events, "raw_syscalls:sys_enter");
          add_event (argv, session->events, "raw_syscalls:sys_exit");
          session->syscall_scope = g_strdup_printf ("the JVM's cgroup %s: every thread of the JVM", config->cgroup);
        }
      add_event (argv, session->events, session->counters);
      g_ptr_array_add (argv, g_strdup ("-G"));
      g_ptr_array_add (argv, g_strdup (config->cgroup));
    }
  else if (!config->no_syscalls && config->n_syscall_tids > 0 && config->n_syscall_tids <= MAX_FILTER_TIDS)
    {
      g_autofree char *filter = tid_filter (config->syscall_tids, config->n_syscall_tids);
      add_event (argv, session->events, "raw_syscalls:sys_enter");
      g_ptr_array_add (argv, g_strdup ("--filter"));
      g_ptr_array_add (argv, g_strdup (filter));
      add_event (argv, session->events, "raw_syscalls:sys_exit");
      g_ptr_array_add (argv, g_strdup ("--filter"));
      g_ptr_array_add (argv, g_strdup (filter));
      session->syscall_scope = g_strdup_printf ("the %u threads the JVM had when recording started "
                                                "(a filter on common_pid); threads started later are missing",
                                                config->n_syscall_tids);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (system_events); i++)
    add_event (argv, session->events, system_events[i]);
  if (config->cgroup == NULL)
    add_event (argv, session->events, session->counters);
  g_ptr_array_add (argv, NULL);

  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_set_stdout_file_path (launcher, session->log_path);
  g_subprocess_launcher_set_child_setup (launcher, own_process_group, NULL, NULL);
  session->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, error);
  if (session->process == NULL)
    return NULL;
  g_subprocess_wait_async (session->process, NULL, on_perf_exit, session);

  static const char enable[] = "enable\n";
  if (write (session->ctl_fd, enable, sizeof enable - 1) != sizeof enable - 1)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", session->ctl_path, g_strerror (e));
      return NULL;
    }
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  GString *ack = g_string_new (NULL);
  while (strstr (ack->str, "ack") == NULL)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      if (session->exited || g_get_monotonic_time () > deadline)
        {
          if (!session->exited)
            g_subprocess_force_exit (session->process);
          while (!session->exited)
            g_main_context_iteration (NULL, TRUE);
          g_autofree char *tail = read_log_tail (session);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", tail[0] ? tail : "perf record exited without a word");
          g_string_free (ack, TRUE);
          return NULL;
        }
      struct pollfd pfd = { session->ack_fd, POLLIN, 0 };
      if (poll (&pfd, 1, 50) > 0)
        {
          char buf[64];
          ssize_t n = read (session->ack_fd, buf, sizeof buf - 1);
          if (n > 0)
            g_string_append_len (ack, buf, n);
        }
    }
  g_string_free (ack, TRUE);
  return g_steal_pointer (&session);
}

/* perf record does not say what it lost; the file does, in LOST records (one per gap) and
 * LOST_SAMPLES totals, which `perf report --stats` counts in a fraction of a second. */
static void
count_losses (JvmsPerfSession *session)
{
  const char *argv[] = { session->perf_path, "report", "--stats", "-i", session->output, NULL };
  int status;
  g_autofree char *stats = run_capture (argv, &status);
  session->lost_records = session->lost_samples = -1;
  if (stats == NULL || status != 0)
    return;
  session->lost_records = session->lost_samples = 0;
  gboolean per_event = FALSE;
  g_auto(GStrv) lines = g_strsplit (stats, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_strstrip (lines[i]);
      /* The aggregated block comes first, then one block per event ("<name> stats:"). */
      if (g_str_has_suffix (line, " stats:"))
        per_event = TRUE;
      else if (!per_event && g_str_has_prefix (line, "LOST events:"))
        session->lost_records = g_ascii_strtoll (line + strlen ("LOST events:"), NULL, 10);
      else if (per_event && g_str_has_prefix (line, "LOST_SAMPLES events:"))
        session->lost_samples += g_ascii_strtoll (line + strlen ("LOST_SAMPLES events:"), NULL, 10);
    }
}

gboolean
jvms_perf_session_running (JvmsPerfSession *session)
{
  return !session->exited;
}

gboolean
jvms_perf_session_stop (JvmsPerfSession *session, GError **error)
{
  if (!session->exited)
    g_subprocess_send_signal (session->process, SIGINT);
  while (!session->exited)
    g_main_context_iteration (NULL, TRUE);

  g_free (session->log);
  g_autofree char *log = NULL;
  session->log = g_file_get_contents (session->log_path, &log, NULL, NULL) ? g_strdup (log) : g_strdup ("");
  if (strstr (session->log, "Captured and wrote") == NULL)
    {
      g_autofree char *tail = read_log_tail (session);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "perf record ended without writing its file: %s", tail);
      return FALSE;
    }
  count_losses (session);
  return TRUE;
}

JsonNode *
jvms_perf_session_events_json (JvmsPerfSession *session)
{
  JsonArray *array = json_array_new ();
  for (guint i = 0; i < session->events->len; i++)
    json_array_add_string_element (array, g_ptr_array_index (session->events, i));
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);
  json_node_take_array (node, array);
  return node;
}

const char *
jvms_perf_session_syscall_scope (JvmsPerfSession *session)
{
  return session->syscall_scope;
}

const char *
jvms_perf_session_counters (JvmsPerfSession *session)
{
  return session->counters;
}

gint64
jvms_perf_session_lost_records (JvmsPerfSession *session)
{
  return session->lost_records;
}

gint64
jvms_perf_session_lost_samples (JvmsPerfSession *session)
{
  return session->lost_samples;
}

const char *
jvms_perf_session_log (JvmsPerfSession *session)
{
  return session->log != NULL ? session->log : "";
}

void
jvms_perf_session_free (JvmsPerfSession *session)
{
  if (session == NULL)
    return;
  if (session->process != NULL && !session->exited)
    {
      g_subprocess_force_exit (session->process);
      while (!session->exited)
        g_main_context_iteration (NULL, TRUE);
    }
  g_clear_object (&session->process);
  if (session->ctl_fd >= 0)
    close (session->ctl_fd);
  if (session->ack_fd >= 0)
    close (session->ack_fd);
  if (session->ctl_path != NULL)
    g_unlink (session->ctl_path);
  if (session->ack_path != NULL)
    g_unlink (session->ack_path);
  if (session->log_path != NULL)
    g_unlink (session->log_path);
  if (session->tmpdir != NULL)
    g_rmdir (session->tmpdir);
  g_free (session->tmpdir);
  g_free (session->ctl_path);
  g_free (session->ack_path);
  g_free (session->log_path);
  g_ptr_array_unref (session->events);
  g_free (session->syscall_scope);
  g_free (session->log);
  g_free (session->perf_path);
  g_free (session->output);
  g_free (session);
}
