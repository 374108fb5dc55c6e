/* recorder-perf.h: the kernel side of jvmscope-cli record, one `perf record` process.
 *
 * perf starts with its events disabled and a control fifo (`-D -1 --control fifo:...`); the
 * session counts as started once perf has acknowledged "enable", so no JVM event happens
 * before the kernel recording is live. Stopping sends SIGINT, as Ctrl-C would, and waits.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

typedef struct
{
  char *perf_path;         /* NULL when perf is not in PATH */
  char *version;           /* "6.1.187" */
  gboolean hw_counters;    /* `perf stat -e instructions` counts on this machine */
  char *hw_counters_reason;
  int paranoid;            /* /proc/sys/kernel/perf_event_paranoid, G_MININT when unreadable */
} JvmsPerfProbe;

void jvms_perf_probe_run (JvmsPerfProbe *probe);
void jvms_perf_probe_clear (JvmsPerfProbe *probe);

typedef struct
{
  const char *perf_path;
  const char *output;          /* kernel.perf.data */
  const char *cgroup;          /* perf -G name holding only the JVM, or NULL */
  const GPid *syscall_tids;    /* without a cgroup: system calls of these threads only */
  guint n_syscall_tids;
  gboolean hw_counters;
  gboolean no_syscalls;        /* leave system calls out: they are most of the file */
} JvmsPerfConfig;

typedef struct _JvmsPerfSession JvmsPerfSession;

/* Returns once perf records, or NULL with perf's own words in the error. */
JvmsPerfSession *jvms_perf_session_start (const JvmsPerfConfig *config, GError **error);

/* True while perf runs; false once it has exited (on its own or after stop). */
gboolean jvms_perf_session_running (JvmsPerfSession *session);

/* SIGINT, then waits for perf to write its file. Fails when perf ended badly. */
gboolean jvms_perf_session_stop (JvmsPerfSession *session, GError **error);

/* The events asked for, as an array of strings. */
JsonNode *jvms_perf_session_events_json (JvmsPerfSession *session);
const char *jvms_perf_session_syscall_scope (JvmsPerfSession *session);
const char *jvms_perf_session_counters (JvmsPerfSession *session);
/* PERF_RECORD_LOST records (gaps) and samples they lost; -1 when perf report could not tell. */
gint64 jvms_perf_session_lost_records (JvmsPerfSession *session);
gint64 jvms_perf_session_lost_samples (JvmsPerfSession *session);
const char *jvms_perf_session_log (JvmsPerfSession *session);

void jvms_perf_session_free (JvmsPerfSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsPerfSession, jvms_perf_session_free)
