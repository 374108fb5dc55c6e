/* jvms-recorder-bundle-private.h: one recording in progress and its description, bundle.json.
 *
 * bundle.json (format_version 1) sits beside recording.jfr and kernel.perf.data in the
 * OUT.jvmtrace folder; docs/recording.md lists every member. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "jvms-recorder-perf-private.h"
#include "jvms-recorder-losses-private.h"

#define JVMS_BUNDLE_FORMAT_VERSION 1

typedef enum
{
  JVMS_STOP_JVM_EXIT,
  JVMS_STOP_DURATION,
  JVMS_STOP_SIGNAL,
  JVMS_STOP_REQUEST,            /* jvms_recorder_stop (self, 0): a window's Stop button */
} JvmsStopReason;

typedef struct
{
  /* what was asked */
  char *out_dir;                /* absolute */
  double duration_s;            /* 0: until the JVM exits or a signal */
  GPid attach_pid;              /* 0: launch */
  gboolean include_sensitive;
  gboolean no_kernel;
  gboolean no_syscalls;
  gboolean no_switch_counters;
  char **java_argv;             /* as given, before the recorder's own options */
  char *settings;               /* the .jfc used */
  char *jfr_path, *perf_data_path, *clock_log_path;

  /* what happened */
  GPid pid;
  char *jdk_version, *jdk_version_full;
  JvmsPerfProbe probe;
  gboolean kernel_recorded;
  JsonNode *kernel_events;      /* array of perf event names */
  char *syscall_scope;
  char *counters;
  char **switch_counters;       /* read at each sched_switch; NULL when not */
  gboolean switch_hardware;
  char *switch_group_refused;   /* what perf said refusing the group; the plain switch recorded */
  gint64 buffer_per_cpu_bytes;  /* perf's ring buffer per CPU as perf sized it, -1 unknown */
  JvmsPerfLosses losses;        /* what perf lost, when losses_known */
  gboolean losses_known;
  char *losses_error;           /* why not known */
  JsonArray *not_recorded;      /* {what, reason, how_to_allow?} */
  GDateTime *start_time, *end_time;
  gint64 start_monotonic_ns, end_monotonic_ns;
  gint64 mono_minus_real_start, bracket_start, mono_minus_real_end, bracket_end;
  JvmsStopReason stop_reason;
  int stop_signal;
  gboolean jvm_status_known;
  int jvm_exit_status, jvm_term_signal;
  JsonArray *helpers;           /* {pid, role, command, start/end_monotonic_ns}: our own processes */
  /* CLOCK_MONOTONIC ns, 0 when it did not happen */
  gint64 command_start_ns;      /* the recorder was asked to record */
  gint64 kernel_start_ns;       /* perf acknowledged "enable" */
  gint64 kernel_stop_ns;        /* perf was asked to stop */
  gint64 jfr_written_ns;        /* recording.jfr was complete (attach mode) */
} JvmsRecording;

void jvms_recording_init (JvmsRecording *rec);
void jvms_recording_clear (JvmsRecording *rec);

/* Adds to not_recorded; how_to_allow may be NULL. */
void jvms_recording_missing (JvmsRecording *rec, const char *what, const char *reason,
                             const char *how_to_allow);

/* Adds to helpers: a process the recorder ran while recording (perf, jcmd), which the
 * kernel layer sees and which is not the JVM's work. */
void jvms_recording_add_helper (JvmsRecording *rec, const char *role, GPid pid, char **argv,
                                gint64 start_ns, gint64 end_ns);

/* Computes the clock member from the files in the bundle and writes bundle.json. */
gboolean jvms_recording_write_bundle (JvmsRecording *rec, GError **error);
