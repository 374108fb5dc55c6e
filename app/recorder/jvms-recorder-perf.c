/* jvms-recorder-perf.c: runs and supervises `perf record` for a recording. */
#include "config.h"

#include "jvms-recorder-perf-private.h"

#include "jvms-recorder-clock-private.h"
#include "jvms-recorder-run-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
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
/* Counters read at every context switch, system-wide: sched_switch leads the group and is its
 * only sampled member (:S), so each switch records what the CPU counted since the previous one,
 * the run of the thread it takes off the CPU (docs/records.md). On every CPU, not only the
 * JVM's cgroup: a cgroup-scoped group is not read when another process's thread switches, so
 * the run it ends would have no count. Without a PMU, the software counters: task-clock (the
 * run's time, a check on its duration), page faults, migrations, switches. context-switches in
 * both: a run that counted more than one switch held one perf did not record, and its counts
 * are not that thread's alone. */
static const char * const hw_switch_counters[] = { "cycles", "instructions", "cache-misses", "cache-references",
                                                   "context-switches", NULL };
static const char * const sw_switch_counters[] = { "task-clock", "page-faults", "cpu-migrations", "context-switches", NULL };
/* ftrace filters are limited in size; a JVM seldom has more threads than this at attach time. */
#define MAX_FILTER_TIDS 200
/* Per CPU. 16M lost nothing at 300 k events/s on an idle machine; 32M leaves room for a perf
 * that waits for a CPU on a loaded one. */
#define PERF_BUFFER "32M"


/* The bytes per CPU perf's ring buffer gets for `-m @spec`, as perf's parse_pages_arg sizes it:
 * a size with a unit (B, K, M, G) is rounded up to whole pages, a bare number is pages, and
 * the pages are rounded up to a power of two. -1 when perf would refuse @spec. */
static gint64
perf_buffer_bytes (const char *spec)
{
  static const struct { char tag; guint64 mult; } units[] = {
    { 'B', 1 }, { 'K', 1 << 10 }, { 'M', 1 << 20 }, { 'G', 1 << 30 },
  };
  guint64 page = (guint64) sysconf (_SC_PAGESIZE);
  guint64 value, pages;
  char *end = NULL;

  if (spec == NULL || !g_ascii_isdigit (spec[0]))
    return -1;
  value = g_ascii_strtoull (spec, &end, 10);
  if (end[0] == '\0')
    pages = value;
  else
    {
      guint64 mult = 0;
      for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
        if (g_ascii_toupper (end[0]) == units[i].tag && end[1] == '\0')
          mult = units[i].mult;
      if (mult == 0 || value > G_MAXINT64 / mult)
        return -1;
      pages = (value * mult + page - 1) / page;
    }
  if (pages == 0 || pages > ((guint64) G_MAXINT64 / page) / 2)
    return -1;
  guint64 pow2 = 1;
  while (pow2 < pages)
    pow2 <<= 1;
  return (gint64) (pow2 * page);
}

/* How long perf may take to acknowledge "enable", and to answer a question. */
#define START_TIMEOUT_S 60
#define PROBE_TIMEOUT_S 30

struct _JvmsPerfSession
{
  GSubprocess *process;
  GPid pid;
  char **argv;
  char *tmpdir;
  char *ctl_path, *ack_path, *log_path;
  int ctl_fd, ack_fd;
  gboolean exited;
  GPtrArray *events;
  char *syscall_scope;
  const char *counters;
  const char * const *switch_counters;
  gboolean switch_hardware;
  gint64 buffer_bytes;     /* per CPU, as perf sizes it from -m */
  char *perf_path, *output;
  JvmsPerfLosses losses;
  gboolean losses_known;
  char *losses_error;
  gint64 enabled_ns, stopped_ns;
  GString *ack;
  GSource *ack_source, *deadline;
  GTask *start_task;   /* waiting for perf's "ack" */
  GTask *stop_task;    /* waiting for perf to exit */
};

/* ------------------------------------------------------------------ probe */

typedef struct
{
  JvmsPerfProbe probe;
  GCancellable *cancellable;
} Probe;

static void
probe_free (gpointer data)
{
  Probe *p = data;
  jvms_perf_probe_clear (&p->probe);
  g_clear_object (&p->cancellable);
  g_free (p);
}

/* What a probe program said (NULL when it could not run); FALSE when the probe was
 * cancelled, which ends it. */
static gboolean
probe_answer (GTask *task, GAsyncResult *res, JvmsRunResult **out)
{
  g_autoptr(GError) error = NULL;
  *out = jvms_run_finish (res, &error);
  if (*out == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return FALSE;
    }
  return TRUE;
}

static void
on_probe_stat (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(GTask) task = data;
  Probe *p = g_task_get_task_data (task);
  g_autoptr(JvmsRunResult) r = NULL;
  if (!probe_answer (task, res, &r))
    return;
  const char *stat = r != NULL ? r->output : NULL;
  if (stat != NULL && r->status == 0 && strstr (stat, "instructions") != NULL
      && strstr (stat, "<not supported>") == NULL && strstr (stat, "<not counted>") == NULL)
    p->probe.hw_counters = TRUE;
  else
    {
      g_autofree char *said = stat != NULL ? g_strstrip (g_strdup (stat)) : g_strdup ("(did not run)");
      p->probe.hw_counters_reason = g_strdup_printf ("`perf stat -e instructions true` says: %s", said);
    }
  g_task_return_boolean (task, TRUE);
}

static void
on_probe_version (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(GTask) task = data;
  Probe *p = g_task_get_task_data (task);
  g_autoptr(JvmsRunResult) r = NULL;
  if (!probe_answer (task, res, &r))
    return;
  /* Debian's /usr/bin/perf is a wrapper that fails without a perf for the running kernel. */
  if (r == NULL || r->status != 0 || !g_str_has_prefix (r->output, "perf version "))
    {
      g_clear_pointer (&p->probe.perf_path, g_free);
      g_task_return_boolean (task, TRUE);
      return;
    }
  p->probe.version = g_strstrip (g_strdup (r->output + strlen ("perf version ")));
  const char *stat_argv[] = { p->probe.perf_path, "stat", "-x", ",", "-e", "instructions", "--", "true", NULL };
  jvms_run_async (stat_argv, PROBE_TIMEOUT_S, p->cancellable, on_probe_stat, g_steal_pointer (&task));
}

void
jvms_perf_probe_async (GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_perf_probe_async);
  Probe *p = g_new0 (Probe, 1);
  p->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  p->probe.paranoid = G_MININT;
  g_task_set_task_data (task, p, probe_free);
  g_autofree char *paranoid = NULL;
  if (g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &paranoid, NULL, NULL))
    p->probe.paranoid = (int) g_ascii_strtoll (paranoid, NULL, 10);
  p->probe.perf_path = g_find_program_in_path ("perf");
  if (p->probe.perf_path == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  const char *version_argv[] = { p->probe.perf_path, "--version", NULL };
  jvms_run_async (version_argv, PROBE_TIMEOUT_S, cancellable, on_probe_version, g_steal_pointer (&task));
}

gboolean
jvms_perf_probe_finish (GAsyncResult *result, JvmsPerfProbe *probe, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  jvms_perf_probe_clear (probe);
  probe->paranoid = G_MININT;
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  Probe *p = g_task_get_task_data (G_TASK (result));
  *probe = p->probe;
  memset (&p->probe, 0, sizeof p->probe);
  return TRUE;
}

void
jvms_perf_probe_clear (JvmsPerfProbe *probe)
{
  g_clear_pointer (&probe->perf_path, g_free);
  g_clear_pointer (&probe->version, g_free);
  g_clear_pointer (&probe->hw_counters_reason, g_free);
}

/* ------------------------------------------------------------------ session */

static void
session_clear (gpointer data)
{
  JvmsPerfSession *session = data;
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
  g_strfreev (session->argv);
  g_ptr_array_unref (session->events);
  g_free (session->syscall_scope);
  g_free (session->perf_path);
  g_free (session->output);
  jvms_perf_losses_clear (&session->losses);
  g_free (session->losses_error);
  if (session->ack != NULL)
    g_string_free (session->ack, TRUE);
}

static JvmsPerfSession *
session_ref (JvmsPerfSession *session)
{
  return g_rc_box_acquire (session);
}

static void
session_unref (gpointer session)
{
  g_rc_box_release_full (session, session_clear);
}

static void
destroy_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

static void
own_process_group (gpointer data)
{
  /* perf in a group of its own outlives a recorder that dies (kill -9, a crash of the window)
   * and would record the whole machine until the disk is full: it gets SIGTERM, on which it
   * writes its file and leaves, when the thread that spawned it ends. @data is the recorder's
   * pid, read before the fork: if it died before the prctl, the signal was never armed. */
  pid_t recorder = (pid_t) GPOINTER_TO_INT (data);
  if (prctl (PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid () != recorder)
    _exit (1);
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

static void
start_done (JvmsPerfSession *session, GError *error)
{
  destroy_source (&session->ack_source);
  destroy_source (&session->deadline);
  g_autoptr(GTask) task = g_steal_pointer (&session->start_task);
  if (task == NULL)
    return;
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, session_ref (session), session_unref);
}

static void stop_after_exit (JvmsPerfSession *session);

static void
on_perf_exit (GObject *source, GAsyncResult *result, gpointer data)
{
  JvmsPerfSession *session = data;
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  session->exited = TRUE;
  if (session->start_task != NULL)
    {
      g_autofree char *tail = read_log_tail (session);
      start_done (session, g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, "%s",
                                        tail[0] ? tail : "perf record exited without a word"));
    }
  if (session->stop_task != NULL)
    stop_after_exit (session);
  session_unref (session);
}

static gboolean
on_ack (gint fd, GIOCondition condition, gpointer data)
{
  JvmsPerfSession *session = data;
  char buf[64];
  ssize_t n = read (fd, buf, sizeof buf - 1);
  if (n > 0)
    g_string_append_len (session->ack, buf, n);
  if (strstr (session->ack->str, "ack") != NULL)
    {
      session->enabled_ns = jvms_clock_monotonic_ns ();
      start_done (session, NULL);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_start_deadline (gpointer data)
{
  JvmsPerfSession *session = data;
  /* The exit handler fails the start with what perf said. */
  g_subprocess_force_exit (session->process);
  g_clear_pointer (&session->deadline, g_source_unref);
  return G_SOURCE_REMOVE;
}

void
jvms_perf_session_start_async (const JvmsPerfConfig *config, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, NULL, callback, user_data);
  g_task_set_source_tag (task, jvms_perf_session_start_async);
  JvmsPerfSession *session = g_rc_box_new0 (JvmsPerfSession);
  g_task_set_task_data (task, session, session_unref);
  session->ctl_fd = session->ack_fd = -1;
  session->events = g_ptr_array_new_with_free_func (g_free);
  session->ack = g_string_new (NULL);
  session->perf_path = g_strdup (config->perf_path);
  session->output = g_strdup (config->output);
  g_autoptr(GError) error = NULL;
  session->tmpdir = g_dir_make_tmp ("jvmscope-perf-XXXXXX", &error);
  if (session->tmpdir == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  session->ctl_path = g_build_filename (session->tmpdir, "ctl", NULL);
  session->ack_path = g_build_filename (session->tmpdir, "ack", NULL);
  session->log_path = g_build_filename (session->tmpdir, "perf.log", NULL);
  if (mkfifo (session->ctl_path, 0600) != 0 || mkfifo (session->ack_path, 0600) != 0)
    {
      int e = errno;
      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (e), "%s: cannot make a fifo: %s",
                               session->tmpdir, g_strerror (e));
      return;
    }
  /* Read-write opens of a fifo never block, whoever comes first. */
  session->ctl_fd = open (session->ctl_path, O_RDWR | O_CLOEXEC);
  session->ack_fd = open (session->ack_path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
  if (session->ctl_fd < 0 || session->ack_fd < 0)
    {
      int e = errno;
      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (e), "%s: cannot open the fifos: %s",
                               session->tmpdir, g_strerror (e));
      return;
    }

  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  /* Tests only (docs/recording.md): a buffer small enough that perf loses events, so that what
   * the recorder says of losses is checked against perf's own tools on a real file. */
  const char *buffer = g_getenv ("JVMSCOPE_TEST_PERF_BUFFER");
  if (buffer == NULL || buffer[0] == '\0')
    buffer = PERF_BUFFER;
  session->buffer_bytes = perf_buffer_bytes (buffer);
  const char * const head[] = {
    config->perf_path, "record", "-o", config->output, "-k", "CLOCK_MONOTONIC", "-a", "-m", buffer,
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
  if (!config->no_switch_counters)
    {
      session->switch_hardware = config->hw_counters;
      session->switch_counters = config->hw_counters ? hw_switch_counters : sw_switch_counters;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (system_events); i++)
    if (session->switch_counters != NULL && g_str_equal (system_events[i], "sched:sched_switch"))
      {
        g_autofree char *members = g_strjoinv (",", (char **) session->switch_counters);
        /* Tests only (docs/recording.md): one more member, such as a counter that does not exist,
         * makes perf refuse the group as a kernel without it would. */
        const char *extra = g_getenv ("JVMSCOPE_TEST_SWITCH_COUNTER");
        g_autofree char *group = extra != NULL && extra[0] != '\0'
                                 ? g_strdup_printf ("{sched:sched_switch,%s,%s}:S", members, extra)
                                 : g_strdup_printf ("{sched:sched_switch,%s}:S", members);
        add_event (argv, session->events, group);
      }
    else
      add_event (argv, session->events, system_events[i]);
  if (config->cgroup == NULL)
    add_event (argv, session->events, session->counters);
  g_ptr_array_add (argv, NULL);
  session->argv = g_strdupv ((char **) argv->pdata);

  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_set_stdout_file_path (launcher, session->log_path);
  /* The death signal follows the spawning thread: this one runs the session's main context, which
   * lives as long as the recorder. */
  g_subprocess_launcher_set_child_setup (launcher, own_process_group, GINT_TO_POINTER ((int) getpid ()), NULL);
  session->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  if (session->process == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  session->pid = jvms_subprocess_pid (session->process);
  g_subprocess_wait_async (session->process, NULL, on_perf_exit, session_ref (session));

  static const char enable[] = "enable\n";
  if (write (session->ctl_fd, enable, sizeof enable - 1) != sizeof enable - 1)
    {
      int e = errno;
      g_subprocess_force_exit (session->process);
      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", session->ctl_path, g_strerror (e));
      return;
    }
  session->start_task = g_steal_pointer (&task);
  GMainContext *context = g_main_context_get_thread_default ();
  session->ack_source = g_unix_fd_source_new (session->ack_fd, G_IO_IN);
  g_source_set_callback (session->ack_source, G_SOURCE_FUNC (on_ack), session, NULL);
  g_source_attach (session->ack_source, context);
  session->deadline = g_timeout_source_new_seconds (START_TIMEOUT_S);
  g_source_set_callback (session->deadline, on_start_deadline, session, NULL);
  g_source_attach (session->deadline, context);
}

JvmsPerfSession *
jvms_perf_session_start_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* perf record does not say what it lost; the file does. Read with the project's reader in a
 * thread: a recording of a busy machine takes a second or two per gigabyte. */
static void
count_losses (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  JvmsPerfSession *session = data;
  g_autoptr(GError) error = NULL;
  session->losses_known = jvms_perf_losses_read (session->output, &session->losses, &error);
  if (!session->losses_known)
    session->losses_error = g_strdup (error->message);
  g_task_return_boolean (task, TRUE);
}

static void
stop_after_exit (JvmsPerfSession *session)
{
  g_autoptr(GTask) task = g_steal_pointer (&session->stop_task);
  g_autofree char *log = NULL;
  if (!g_file_get_contents (session->log_path, &log, NULL, NULL) || strstr (log, "Captured and wrote") == NULL)
    {
      g_autofree char *tail = read_log_tail (session);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "perf record ended without writing its file: %s", tail);
      return;
    }
  g_task_run_in_thread (task, count_losses);
}

void
jvms_perf_session_stop_async (JvmsPerfSession *session, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (session->stop_task == NULL);
  GTask *task = g_task_new (NULL, NULL, callback, user_data);
  g_task_set_source_tag (task, jvms_perf_session_stop_async);
  g_task_set_task_data (task, session_ref (session), session_unref);
  session->stop_task = task;
  session->stopped_ns = jvms_clock_monotonic_ns ();
  if (session->exited)
    stop_after_exit (session);
  else
    g_subprocess_send_signal (session->process, SIGINT);
}

gboolean
jvms_perf_session_stop_finish (JvmsPerfSession *session, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
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

const char * const *
jvms_perf_session_switch_counters (JvmsPerfSession *session, gboolean *hardware)
{
  *hardware = session->switch_hardware;
  return session->switch_counters;
}

gint64
jvms_perf_session_buffer_bytes (JvmsPerfSession *session)
{
  return session->buffer_bytes;
}

const JvmsPerfLosses *
jvms_perf_session_losses (JvmsPerfSession *session, const char **why_unknown)
{
  if (why_unknown != NULL)
    *why_unknown = session->losses_error;
  return session->losses_known ? &session->losses : NULL;
}

GPid
jvms_perf_session_get_pid (JvmsPerfSession *session)
{
  return session->pid;
}

char **
jvms_perf_session_get_argv (JvmsPerfSession *session)
{
  return session->argv;
}

gint64
jvms_perf_session_enabled_ns (JvmsPerfSession *session)
{
  return session->enabled_ns;
}

gint64
jvms_perf_session_stopped_ns (JvmsPerfSession *session)
{
  return session->stopped_ns;
}

void
jvms_perf_session_free (JvmsPerfSession *session)
{
  if (session == NULL)
    return;
  if (session->process != NULL && !session->exited)
    g_subprocess_force_exit (session->process);
  session_unref (session);
}
