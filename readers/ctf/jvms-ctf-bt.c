#include "jvms-ctf-bt.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jvms-ctf.h"

static const bt_plugin *ctf_plugin;

const bt_component_class_source *
jvms_ctf_bt_source_class (GError **error)
{
  static gsize once = 0;
  if (g_once_init_enter (&once))
    {
      const bt_plugin *plugin = NULL;
      /* The ctf plugin's TSDL parser says on which line the metadata is wrong only in its log,
       * whose level it reads from this variable when it is loaded; errors only, and only when
       * the user did not choose. jvms_ctf_metadata_diagnosis() catches that log. */
      if (g_getenv ("BABELTRACE_PLUGIN_CTF_METADATA_LOG_LEVEL") == NULL)
        g_setenv ("BABELTRACE_PLUGIN_CTF_METADATA_LOG_LEVEL", "E", FALSE);
      if (bt_plugin_find ("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE, &plugin)
          == BT_PLUGIN_FIND_STATUS_OK)
        ctf_plugin = plugin;
      bt_current_thread_clear_error ();
      g_once_init_leave (&once, 1);
    }
  const bt_component_class_source *cls = ctf_plugin != NULL
    ? bt_plugin_borrow_source_component_class_by_name_const (ctf_plugin, "fs")
    : NULL;
  if (cls == NULL)
    g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_BABELTRACE,
                 "the babeltrace2 plugin source.ctf.fs is not installed "
                 "(Debian: libbabeltrace2-0)");
  return cls;
}

/* The library's own causes describe its objects by address; the plugin's say what is wrong. */
static gboolean
cause_is_useful (const bt_error_cause *cause)
{
  return bt_error_cause_get_actor_type (cause) != BT_ERROR_CAUSE_ACTOR_TYPE_UNKNOWN;
}

char *
jvms_ctf_bt_take_error_text (void)
{
  const bt_error *error = bt_current_thread_take_error ();
  if (error == NULL)
    return NULL;

  GString *text = g_string_new (NULL);
  guint64 n = bt_error_get_cause_count (error);
  /* Causes are appended as the error travels up: the last one is the outermost. */
  for (guint64 i = n; i > 0; i--)
    {
      const bt_error_cause *cause = bt_error_borrow_cause_by_index (error, i - 1);
      if (!cause_is_useful (cause))
        continue;
      const char *message = bt_error_cause_get_message (cause);
      if (message == NULL || *message == '\0')
        continue;
      if (text->len > 0)
        g_string_append (text, ": ");
      for (const char *p = message; *p != '\0'; p++)
        g_string_append_c (text, *p == '\n' ? ' ' : *p);
      /* babeltrace2's messages end with a full stop; ours are joined by colons. */
      if (text->len > 0 && text->str[text->len - 1] == '.')
        g_string_truncate (text, text->len - 1);
    }
  bt_error_release (error);
  if (text->len == 0)
    g_string_append (text, "libbabeltrace2 gave no reason");
  return g_string_free (text, FALSE);
}

bt_value *
jvms_ctf_bt_inputs_params (const char * const *inputs)
{
  bt_value *params = bt_value_map_create ();
  bt_value *array = NULL;
  if (params == NULL || bt_value_map_insert_empty_array_entry (params, "inputs", &array)
                        != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK)
    g_error ("libbabeltrace2: out of memory");
  for (guint i = 0; inputs[i] != NULL; i++)
    if (bt_value_array_append_string_element (array, inputs[i]) != BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK)
      g_error ("libbabeltrace2: out of memory");
  return params;
}

gboolean
jvms_ctf_bt_add_source (bt_graph *graph, const char * const *inputs,
                        const bt_component_source **source, char **error_text,
                        GError **error)
{
  const bt_component_class_source *cls = jvms_ctf_bt_source_class (error);
  if (cls == NULL)
    return FALSE;

  bt_value *params = jvms_ctf_bt_inputs_params (inputs);
  bt_graph_add_component_status status =
    bt_graph_add_source_component (graph, cls, "source", params, BT_LOGGING_LEVEL_NONE, source);
  bt_value_put_ref (params);
  if (status == BT_GRAPH_ADD_COMPONENT_STATUS_OK)
    return TRUE;

  char *text = jvms_ctf_bt_take_error_text ();
  if (error_text != NULL)
    *error_text = text;
  else
    g_free (text);
  return FALSE;
}

gboolean
jvms_ctf_bt_probe (const char * const *inputs, char **error_text)
{
  bt_graph *graph = bt_graph_create (0);
  if (graph == NULL)
    g_error ("libbabeltrace2: out of memory");
  const bt_component_source *source = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok = jvms_ctf_bt_add_source (graph, inputs, &source, error_text, &error);
  if (error != NULL && error_text != NULL)
    *error_text = g_strdup (error->message);
  bt_graph_put_ref (graph);
  return ok;
}

guint
jvms_ctf_bt_probe_timeout_ms (const char * const *inputs)
{
  const char *env = g_getenv ("JVMS_CTF_PROBE_TIMEOUT_MS");
  if (env != NULL && g_ascii_strtoull (env, NULL, 10) > 0)
    return (guint) MIN (g_ascii_strtoull (env, NULL, 10), G_MAXUINT);

  guint64 bytes = 0;
  for (guint i = 0; inputs[i] != NULL; i++)
    {
      g_autoptr(GDir) d = g_dir_open (inputs[i], 0, NULL);
      const char *name;
      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (inputs[i], name, NULL);
          GStatBuf st;
          if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
            bytes += (guint64) st.st_size;
        }
    }
  return (guint) MIN (2000 + bytes / 50000, (guint64) G_MAXUINT);
}

/* In a probe's child, first: it dies with the thread that forked it, so that a reader killed
 * (kill -9 of the CLI, a crash of the window) does not leave babeltrace2 running until its
 * alarm. @parent is the forking process, read before the fork: if it died before the prctl, the
 * signal was never armed. */
static void
die_with_parent (pid_t parent)
{
  if (prctl (PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid () != parent)
    _exit (1);
}

/* CPU time @pid has used, in ns; -1 when it cannot be read. */
static gint64
child_cpu_ns (pid_t pid)
{
  clockid_t clock;
  struct timespec ts;
  if (clock_getcpuclockid (pid, &clock) != 0 || clock_gettime (clock, &ts) != 0)
    return -1;
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* A child whose CPU clock has not moved for this long is stuck, not slow: fork() copies a
 * multithreaded process with whatever locks its other threads held at that instant (the
 * sanitizers' allocator is not fork-safe), and a child that needs one of them waits for ever.
 * A stopped child (SIGSTOP, a debugger) looks the same, so the limit is far above any pause a
 * scheduler makes; on a stall the caller forks again instead of calling the trace hung. */
#define STALL_MS 10000
#define STALL_RETRIES 2

/* STALL_MS, or JVMS_CTF_PROBE_STALL_MS (tests/ctf/test-ctf-probe stops a child for good). */
static gint64
stall_ms (void)
{
  const char *env = g_getenv ("JVMS_CTF_PROBE_STALL_MS");
  if (env != NULL && g_ascii_strtoull (env, NULL, 10) > 0)
    return (gint64) MIN (g_ascii_strtoull (env, NULL, 10), G_MAXINT32);
  return STALL_MS;
}

/* Waits for the child @pid's one-byte answer on @fd. The budget is the child's CPU time, not
 * the wall clock: babeltrace2's endless loop spends CPU, while a probe on a loaded machine only
 * waits for it (at load 25 a probe that needed 0.25 s of CPU took over 2 s, and a good trace
 * was called hung). A wall-clock backstop, far above the budget, covers a child that runs too
 * slowly. Returns the answer; 0 when the child used its budget or reached the backstop, 's'
 * when its clock stood still for STALL_MS (stuck: the caller may try again). */
static char
await_verdict (int fd, pid_t pid, guint budget_ms)
{
  gint64 cpu0 = child_cpu_ns (pid);
  gint64 wall0 = g_get_monotonic_time ();
  gint64 backstop_ms = MAX ((gint64) budget_ms * 10, 30000);
  gint64 last_cpu = cpu0;
  gint64 last_progress_ms = 0;
  gint64 stall_limit_ms = stall_ms ();
  for (;;)
    {
      gint64 wall_ms = (g_get_monotonic_time () - wall0) / 1000;
      gint64 cpu = child_cpu_ns (pid);
      /* Without the child's clock (it exited, or the kernel refuses), the wall clock decides. */
      gint64 used_ms = cpu0 >= 0 && cpu >= 0 ? (cpu - cpu0) / 1000000 : wall_ms;
      if (cpu != last_cpu)
        {
          last_cpu = cpu;
          last_progress_ms = wall_ms;
        }
      if (used_ms >= budget_ms || wall_ms >= backstop_ms)
        return 0;
      if (cpu >= 0 && wall_ms - last_progress_ms >= stall_limit_ms)
        return 's';
      struct pollfd pfd = { fd, POLLIN, 0 };
      int r = poll (&pfd, 1, (int) CLAMP ((gint64) budget_ms - used_ms, 1, 100));
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        return 0;
      if (r > 0)
        {
          char verdict = 0;
          if (read (fd, &verdict, 1) != 1)
            return 0;
          return verdict;
        }
    }
}

/* In a probe's child: a CPU-time limit of its own a little above the parent's budget, in case
 * the parent cannot read the child's clock (SIGXCPU ends it). */
static void
limit_own_cpu (guint budget_ms)
{
  struct rlimit rl;
  rl.rlim_cur = budget_ms / 1000 + 2;
  rl.rlim_max = rl.rlim_cur + 1;
  setrlimit (RLIMIT_CPU, &rl);
}

/* One forked probe; 's' when the child stalled (see STALL_MS). */
static char
probe_in_child (const char * const *inputs, guint timeout_ms)
{
  int fds[2];
  if (pipe2 (fds, O_CLOEXEC) != 0)
    return jvms_ctf_bt_probe (inputs, NULL) ? 'y' : 'n';

  pid_t parent = getpid ();
  pid_t pid = fork ();
  if (pid < 0)
    {
      close (fds[0]);
      close (fds[1]);
      return jvms_ctf_bt_probe (inputs, NULL) ? 'y' : 'n';
    }
  if (pid == 0)
    {
      /* The child only runs babeltrace2 and leaves with _exit(): no atexit handler, no
       * flushing of the parent's stdio buffers. */
      die_with_parent (parent);
      close (fds[0]);
      limit_own_cpu (timeout_ms);
      gboolean ok = jvms_ctf_bt_probe (inputs, NULL);
      char verdict = ok ? 'y' : 'n';
      ssize_t n = write (fds[1], &verdict, 1);
      _exit (n == 1 ? 0 : 1);
    }

  close (fds[1]);
  char verdict = await_verdict (fds[0], pid, timeout_ms);
  close (fds[0]);
  if (verdict != 'y' && verdict != 'n')
    kill (pid, SIGKILL);
  int status;
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  return verdict;
}

JvmsCtfProbeResult
jvms_ctf_bt_probe_guarded (const char * const *inputs)
{
  /* Loaded before the fork, so that the child does not dlopen. */
  if (jvms_ctf_bt_source_class (NULL) == NULL)
    return JVMS_CTF_PROBE_FAILED;
  guint timeout_ms = jvms_ctf_bt_probe_timeout_ms (inputs);

  char verdict = probe_in_child (inputs, timeout_ms);
  for (guint retry = 0; verdict == 's' && retry < STALL_RETRIES; retry++)
    verdict = probe_in_child (inputs, timeout_ms);
  if (verdict == 'y')
    return JVMS_CTF_PROBE_OK;
  if (verdict == 'n')
    return JVMS_CTF_PROBE_FAILED;
  return JVMS_CTF_PROBE_HUNG;
}

/* ---- One child for many probes ---- */

struct _JvmsCtfProber
{
  pid_t pid;   /* 0: no child yet (or it was killed) */
  int   fd;    /* our end of the socket pair */
};

JvmsCtfProber *
jvms_ctf_prober_new (void)
{
  JvmsCtfProber *prober = g_new0 (JvmsCtfProber, 1);
  prober->fd = -1;
  return prober;
}

static void
prober_stop (JvmsCtfProber *prober, gboolean kill_it)
{
  if (prober->pid <= 0)
    return;
  if (kill_it)
    kill (prober->pid, SIGKILL);
  /* Without a kill the child sees the socket close and leaves. */
  close (prober->fd);
  prober->fd = -1;
  int status;
  while (waitpid (prober->pid, &status, 0) < 0 && errno == EINTR)
    ;
  prober->pid = 0;
}

void
jvms_ctf_prober_free (JvmsCtfProber *prober)
{
  if (prober == NULL)
    return;
  prober_stop (prober, FALSE);
  g_free (prober);
}

static gboolean
read_full (int fd, void *buf, gsize len)
{
  guint8 *p = buf;
  while (len > 0)
    {
      ssize_t n = read (fd, p, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* The child: requests are a u32 length and the inputs, each ending with a NUL; the answer is
 * one byte. It leaves with _exit() when the socket closes. */
G_GNUC_NORETURN static void
prober_serve (int fd)
{
  for (;;)
    {
      guint32 len = 0;
      if (!read_full (fd, &len, sizeof len) || len == 0 || len > (1u << 20))
        _exit (0);
      g_autofree char *request = g_malloc (len);
      if (!read_full (fd, request, len) || request[len - 1] != '\0')
        _exit (1);
      g_autoptr(GPtrArray) inputs = g_ptr_array_new ();
      for (char *p = request; p < request + len; p += strlen (p) + 1)
        g_ptr_array_add (inputs, p);
      g_ptr_array_add (inputs, NULL);
      /* The parent measures this child's CPU time per probe and kills it past the budget. */
      char verdict = jvms_ctf_bt_probe ((const char * const *) inputs->pdata, NULL) ? 'y' : 'n';
      if (write (fd, &verdict, 1) != 1)
        _exit (1);
    }
}

/* One request to the prober's child (forked first if there is none): its answer, 0 when it was
 * killed for its budget, 's' when it stalled, 'g' when there is no child and the guarded
 * probe must answer. */
static char
prober_probe_once (JvmsCtfProber *prober, const char * const *inputs, guint timeout_ms)
{
  if (prober->pid <= 0)
    {
      int fds[2];
      if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return 'g';
      pid_t parent = getpid ();
      pid_t pid = fork ();
      if (pid < 0)
        {
          close (fds[0]);
          close (fds[1]);
          return 'g';
        }
      if (pid == 0)
        {
          die_with_parent (parent);
          close (fds[0]);
          prober_serve (fds[1]);
        }
      close (fds[1]);
      prober->pid = pid;
      prober->fd = fds[0];
    }

  GByteArray *request = g_byte_array_new ();
  guint32 len = 0;
  g_byte_array_append (request, (const guint8 *) &len, sizeof len);
  for (guint i = 0; inputs[i] != NULL; i++)
    g_byte_array_append (request, (const guint8 *) inputs[i], (guint) strlen (inputs[i]) + 1);
  len = request->len - (guint32) sizeof len;
  memcpy (request->data, &len, sizeof len);
  gboolean sent = TRUE;
  for (gsize off = 0; sent && off < request->len;)
    {
      /* No SIGPIPE when the child is gone. */
      ssize_t n = send (prober->fd, request->data + off, request->len - off, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR)
        continue;
      sent = n > 0;
      off += n > 0 ? (gsize) n : 0;
    }
  g_byte_array_unref (request);

  char verdict = sent ? await_verdict (prober->fd, prober->pid, timeout_ms) : 0;
  if (verdict != 'y' && verdict != 'n')
    prober_stop (prober, TRUE);
  return verdict;
}

JvmsCtfProbeResult
jvms_ctf_prober_probe (JvmsCtfProber *prober, const char * const *inputs)
{
  if (jvms_ctf_bt_source_class (NULL) == NULL)
    return JVMS_CTF_PROBE_FAILED;
  guint timeout_ms = jvms_ctf_bt_probe_timeout_ms (inputs);

  char verdict = prober_probe_once (prober, inputs, timeout_ms);
  /* A stalled child is killed; the next try forks a new one. */
  for (guint retry = 0; verdict == 's' && retry < STALL_RETRIES; retry++)
    verdict = prober_probe_once (prober, inputs, timeout_ms);
  if (verdict == 'g')
    return jvms_ctf_bt_probe_guarded (inputs);
  if (verdict == 'y')
    return JVMS_CTF_PROBE_OK;
  if (verdict == 'n')
    return JVMS_CTF_PROBE_FAILED;
  return JVMS_CTF_PROBE_HUNG;
}
