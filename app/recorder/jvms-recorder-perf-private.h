/* jvms-recorder-perf-private.h: the kernel side of a recording, one `perf record` process.
 *
 * perf starts with its events disabled and a control fifo (`-D -1 --control fifo:...`); the
 * session counts as started once perf has acknowledged "enable", so no JVM event happens
 * before the kernel recording is live. Stopping sends SIGINT, as Ctrl-C would, and waits.
 * Every wait is asynchronous, on the thread-default main context of the caller, so that a
 * window's main loop keeps running while perf starts and stops.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "jvms-recorder-losses-private.h"

typedef struct
{
  char *perf_path;         /* NULL when perf is not in PATH */
  char *version;           /* "6.1.187" */
  gboolean hw_counters;    /* `perf stat -e instructions` counts on this machine */
  char *hw_counters_reason;
  int paranoid;            /* /proc/sys/kernel/perf_event_paranoid, G_MININT when unreadable */
} JvmsPerfProbe;

/* Finds perf and asks it what it can record (`perf --version`, `perf stat -e instructions true`). */
void jvms_perf_probe_async (GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
/* Fills @probe (cleared first); fails only when cancelled. */
gboolean jvms_perf_probe_finish (GAsyncResult *result, JvmsPerfProbe *probe, GError **error);
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
  gboolean no_switch_counters; /* a plain sched_switch, without the counter group it reads */
} JvmsPerfConfig;

typedef struct _JvmsPerfSession JvmsPerfSession;

/* Completes once perf records, or with perf's own words in the error. */
void             jvms_perf_session_start_async  (const JvmsPerfConfig *config,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
JvmsPerfSession *jvms_perf_session_start_finish (GAsyncResult         *result,
                                                 GError              **error);

/* SIGINT, then waits for perf to write its file and counts what it lost. Fails when perf
 * ended badly. */
void     jvms_perf_session_stop_async  (JvmsPerfSession     *session,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean jvms_perf_session_stop_finish (JvmsPerfSession     *session,
                                        GAsyncResult        *result,
                                        GError             **error);

/* The events asked for, as an array of strings. */
JsonNode   *jvms_perf_session_events_json   (JvmsPerfSession *session);
const char *jvms_perf_session_syscall_scope (JvmsPerfSession *session);
const char *jvms_perf_session_counters      (JvmsPerfSession *session);
/* The counters each sched_switch reads (NULL-terminated; NULL when none), and whether they are
 * hardware ones. */
const char * const *jvms_perf_session_switch_counters (JvmsPerfSession *session,
                                                       gboolean        *hardware);
/* perf's ring buffer per CPU in bytes, as perf sizes it from the -m given (-1: unknown). */
gint64      jvms_perf_session_buffer_bytes  (JvmsPerfSession *session);
/* What perf lost, read from its file once it stopped; NULL with @why_unknown (may be NULL)
 * when the file could not be read to its end. */
const JvmsPerfLosses *jvms_perf_session_losses (JvmsPerfSession *session,
                                                const char     **why_unknown);
/* perf's pid and command line: a helper of the recording, listed in bundle.json. */
GPid        jvms_perf_session_get_pid       (JvmsPerfSession *session);
char      **jvms_perf_session_get_argv      (JvmsPerfSession *session);
/* CLOCK_MONOTONIC when perf acknowledged "enable", and when it was asked to stop (0 before). */
gint64      jvms_perf_session_enabled_ns    (JvmsPerfSession *session);
gint64      jvms_perf_session_stopped_ns    (JvmsPerfSession *session);

/* Kills a perf still running (its file is then incomplete) and drops the session. */
void        jvms_perf_session_free          (JvmsPerfSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsPerfSession, jvms_perf_session_free)
