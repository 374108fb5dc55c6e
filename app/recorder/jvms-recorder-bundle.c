/* jvms-recorder-bundle.c: bundle.json of a recording, clock offset included. */
#include "config.h"

#include "jvms-recorder-bundle-private.h"

#include <signal.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "jvms-recorder-clock-private.h"
#include "jvms-recorder-jvm-private.h"

/* The log method's bound: HotSpot reads CLOCK_MONOTONIC for timenanos and again for
 * uptimenanos, so the largest difference falls short of D by at most the gap between those
 * two reads; a few hundred ns on this class of machine (docs/recording.md). */
#define LOG_METHOD_UNCERTAINTY_NS 1000
/* JFR reads the chunk's wall time and tick count one after the other. */
#define BRIDGE_READ_GAP_NS 2000

void
jvms_recording_init (JvmsRecording *rec)
{
  memset (rec, 0, sizeof *rec);
  rec->not_recorded = json_array_new ();
  rec->helpers = json_array_new ();
  rec->probe.paranoid = G_MININT;
  rec->buffer_per_cpu_bytes = -1;
}

void
jvms_recording_clear (JvmsRecording *rec)
{
  g_free (rec->out_dir);
  g_strfreev (rec->java_argv);
  g_free (rec->settings);
  g_free (rec->jfr_path);
  g_free (rec->perf_data_path);
  g_free (rec->clock_log_path);
  g_free (rec->jdk_version);
  g_free (rec->jdk_version_full);
  jvms_perf_probe_clear (&rec->probe);
  g_clear_pointer (&rec->kernel_events, json_node_unref);
  g_free (rec->syscall_scope);
  g_free (rec->counters);
  g_strfreev (rec->switch_counters);
  jvms_perf_losses_clear (&rec->losses);
  g_free (rec->switch_group_refused);
  g_free (rec->losses_error);
  g_clear_pointer (&rec->not_recorded, json_array_unref);
  g_clear_pointer (&rec->helpers, json_array_unref);
  g_clear_pointer (&rec->start_time, g_date_time_unref);
  g_clear_pointer (&rec->end_time, g_date_time_unref);
}

void
jvms_recording_missing (JvmsRecording *rec, const char *what, const char *reason,
                        const char *how_to_allow)
{
  JsonObject *o = json_object_new ();
  json_object_set_string_member (o, "what", what);
  json_object_set_string_member (o, "reason", reason);
  if (how_to_allow != NULL)
    json_object_set_string_member (o, "how_to_allow", how_to_allow);
  json_array_add_object_element (rec->not_recorded, o);
}

void
jvms_recording_add_helper (JvmsRecording *rec, const char *role, GPid pid, char **argv,
                           gint64 start_ns, gint64 end_ns)
{
  JsonObject *o = json_object_new ();
  json_object_set_int_member (o, "pid", pid);
  json_object_set_string_member (o, "role", role);
  JsonArray *command = json_array_new ();
  for (gsize i = 0; argv != NULL && argv[i] != NULL; i++)
    json_array_add_string_element (command, argv[i]);
  json_object_set_array_member (o, "command", command);
  json_object_set_int_member (o, "start_monotonic_ns", start_ns);
  if (end_ns > 0)
    json_object_set_int_member (o, "end_monotonic_ns", end_ns);
  else
    json_object_set_null_member (o, "end_monotonic_ns");
  json_array_add_object_element (rec->helpers, o);
}

static void
add_string_or_null (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_cpu_losses (JsonBuilder *b, const JvmsPerfCpuLosses *c)
{
  add_int (b, "events", (gint64) c->lost_events);
  add_int (b, "records", (gint64) c->lost_records);
  add_int (b, "switches", (gint64) c->switches);
  add_int (b, "switch_gaps", (gint64) c->switch_gaps);
  add_int (b, "switch_gaps_in_lost", (gint64) c->switch_gaps_in_lost);
  add_int (b, "switch_gaps_after_idle", (gint64) c->switch_gaps_after_idle);
}

/* recorded.kernel.lost (docs/recording.md, "What perf lost"): the totals, then each CPU's. */
static void
add_losses (JsonBuilder *b, const JvmsRecording *rec)
{
  json_builder_set_member_name (b, "lost");
  if (!rec->losses_known)
    {
      json_builder_add_null_value (b);
      add_string_or_null (b, "lost_unknown", rec->losses_error != NULL ? rec->losses_error : "not read");
      return;
    }
  const JvmsPerfLosses *l = &rec->losses;
  json_builder_begin_object (b);
  add_cpu_losses (b, &l->total);
  add_int (b, "samples", (gint64) l->lost_samples);
  json_builder_set_member_name (b, "switch_gaps_after");
  json_builder_begin_object (b);
  if (l->switch_gaps_after != NULL)
    {
      g_autoptr(GList) names = g_list_sort (g_hash_table_get_keys (l->switch_gaps_after), (GCompareFunc) g_strcmp0);
      for (GList *n = names; n != NULL; n = n->next)
        add_int (b, n->data, GPOINTER_TO_UINT (g_hash_table_lookup (l->switch_gaps_after, n->data)));
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "per_cpu");
  json_builder_begin_array (b);
  for (guint i = 0; l->cpus != NULL && i < l->cpus->len; i++)
    {
      const JvmsPerfCpuLosses *c = &g_array_index (l->cpus, JvmsPerfCpuLosses, i);
      json_builder_begin_object (b);
      add_int (b, "cpu", i);
      add_cpu_losses (b, c);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_strv (JsonBuilder *b, const char *name, char **v)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (gsize i = 0; v != NULL && v[i] != NULL; i++)
    json_builder_add_string_value (b, v[i]);
  json_builder_end_array (b);
}

static void
add_time (JsonBuilder *b, const char *name, GDateTime *t)
{
  g_autofree char *s = t != NULL ? g_date_time_format_iso8601 (t) : NULL;
  add_string_or_null (b, name, s);
}

/* Writes the clock member; *offset_ns receives D when one was found (TRUE). */
static gboolean
add_clock (JsonBuilder *b, JvmsRecording *rec, gint64 *offset_ns)
{
  gboolean have_offset = FALSE;
  json_builder_set_member_name (b, "clock");
  json_builder_begin_object (b);
  add_string_or_null (b, "perf_clock", rec->kernel_recorded ? "CLOCK_MONOTONIC" : NULL);
  add_string_or_null (b, "relation", "monotonic_ns = jfr_ticks * 1e9 / jfr_ticks_per_second + jfr_ticks_to_monotonic_offset_ns");

  JvmsJfrChunkStart chunk;
  g_autoptr(GError) chunk_error = NULL;
  gboolean have_chunk = jvms_jfr_chunk_start_read (rec->jfr_path, &chunk, &chunk_error);
  JvmsClockLog log;
  g_autoptr(GError) log_error = NULL;
  gboolean have_log = jvms_clock_log_parse (rec->clock_log_path, &log, &log_error);
  gboolean ns_ticks = have_chunk && chunk.ticks_per_second == 1000000000;

  if (have_chunk)
    add_int (b, "jfr_ticks_per_second", chunk.ticks_per_second);

  /* The bridge through wall time, for a cross-check, or alone when there is no log. */
  gboolean have_bridge = FALSE;
  gint64 bridge_offset = 0, bridge_uncertainty = 0;
  if (ns_ticks)
    {
      bridge_offset = chunk.start_nanos + rec->mono_minus_real_start - chunk.start_ticks;
      gint64 drift = ABS (rec->mono_minus_real_end - rec->mono_minus_real_start);
      bridge_uncertainty = rec->bracket_start + drift + BRIDGE_READ_GAP_NS;
      have_bridge = TRUE;
      json_builder_set_member_name (b, "bridge");
      json_builder_begin_object (b);
      add_int (b, "jfr_chunk_start_nanos", chunk.start_nanos);
      add_int (b, "jfr_chunk_start_ticks", chunk.start_ticks);
      add_int (b, "monotonic_minus_realtime_ns_at_start", rec->mono_minus_real_start);
      add_int (b, "monotonic_minus_realtime_ns_at_end", rec->mono_minus_real_end);
      add_int (b, "offset_ns", bridge_offset);
      add_int (b, "uncertainty_ns", bridge_uncertainty);
      json_builder_end_object (b);
    }

  if (have_log)
    {
      json_builder_set_member_name (b, "log");
      json_builder_begin_object (b);
      add_string_or_null (b, "file", "jvm-clock.log");
      add_int (b, "lines", log.n_lines);
      add_int (b, "offset_ns", log.offset_ns);
      add_int (b, "spread_ns", log.spread_ns);
      json_builder_end_object (b);
    }

  if (!ns_ticks)
    {
      add_string_or_null (b, "method", "none");
      json_builder_set_member_name (b, "jfr_ticks_to_monotonic_offset_ns");
      json_builder_add_null_value (b);
      json_builder_set_member_name (b, "uncertainty_ns");
      json_builder_add_null_value (b);
      add_string_or_null (b, "why", have_chunk
                          ? "JFR ticks are not nanoseconds (TSC fast time): offset and slope must be fitted"
                          : chunk_error->message);
    }
  else if (have_log)
    {
      add_string_or_null (b, "method", "jvm-log-timenanos-uptimenanos");
      add_int (b, "jfr_ticks_to_monotonic_offset_ns", log.offset_ns);
      add_int (b, "uncertainty_ns", LOG_METHOD_UNCERTAINTY_NS);
      *offset_ns = log.offset_ns;
      have_offset = TRUE;
      if (have_bridge)
        add_int (b, "methods_disagree_by_ns", ABS (log.offset_ns - bridge_offset));
    }
  else
    {
      add_string_or_null (b, "method", "wall-clock-bridge");
      add_int (b, "jfr_ticks_to_monotonic_offset_ns", bridge_offset);
      add_int (b, "uncertainty_ns", bridge_uncertainty);
      add_string_or_null (b, "why", log_error->message);
      *offset_ns = bridge_offset;
      have_offset = TRUE;
    }
  json_builder_end_object (b);
  return have_offset;
}

static void
add_int_or_null (JsonBuilder *b, const char *name, gboolean known, gint64 value)
{
  json_builder_set_member_name (b, name);
  if (known)
    json_builder_add_int_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* When each layer recorded, on CLOCK_MONOTONIC: the kernel from perf's "enable" to its stop,
 * JFR from its first chunk's start to its last chunk's end (ticks put on the clock with D).
 * The analysis takes the span where both recorded as the default range of an attached JVM. */
static void
add_timing (JsonBuilder *b, JvmsRecording *rec, gboolean have_offset, gint64 offset_ns)
{
  JvmsJfrSpan span;
  gboolean have_span = have_offset && jvms_jfr_file_span (rec->jfr_path, &span, NULL)
                       && span.ticks_per_second == 1000000000;
  gint64 jfr_start = have_span ? span.start_ticks + offset_ns : 0;
  gint64 jfr_end = have_span ? span.end_ticks + offset_ns : 0;
  gboolean kernel = rec->kernel_recorded && rec->kernel_start_ns > 0 && rec->kernel_stop_ns > 0;

  json_builder_set_member_name (b, "timing");
  json_builder_begin_object (b);
  add_int (b, "command_start_monotonic_ns", rec->command_start_ns);
  add_int_or_null (b, "requested_duration_ns", rec->duration_s > 0, (gint64) (rec->duration_s * 1e9));
  add_int_or_null (b, "kernel_start_monotonic_ns", kernel, rec->kernel_start_ns);
  add_int_or_null (b, "kernel_end_monotonic_ns", kernel, rec->kernel_stop_ns);
  add_int_or_null (b, "jfr_start_monotonic_ns", have_span, jfr_start);
  add_int_or_null (b, "jfr_end_monotonic_ns", have_span, jfr_end);
  add_int_or_null (b, "kernel_margin_before_ns", kernel && have_span, jfr_start - rec->kernel_start_ns);
  add_int_or_null (b, "kernel_margin_after_ns", kernel && have_span, rec->kernel_stop_ns - jfr_end);
  /* From the command to JFR recording: launching the JVM, or attaching with jcmd. */
  add_int_or_null (b, "start_ns", have_span, jfr_start - rec->command_start_ns);
  /* From the end of the JFR recording to its file written whole (attach mode). */
  add_int_or_null (b, "dump_ns", have_span && rec->jfr_written_ns > 0, rec->jfr_written_ns - jfr_end);
  /* The whole command so far: from its start to this file (what the user waited). */
  add_int (b, "command_ns", jvms_clock_monotonic_ns () - rec->command_start_ns);
  json_builder_end_object (b);
}

static void
add_signal (JsonBuilder *b, const char *name, int sig)
{
  const char *abbrev = sigabbrev_np (sig);
  g_autofree char *s = abbrev != NULL ? g_strconcat ("SIG", abbrev, NULL) : g_strdup_printf ("%d", sig);
  add_string_or_null (b, name, s);
}

static const char *
stop_reason_name (JvmsStopReason reason)
{
  switch (reason)
    {
    case JVMS_STOP_JVM_EXIT: return "jvm-exit";
    case JVMS_STOP_DURATION: return "duration";
    case JVMS_STOP_SIGNAL: return "signal";
    case JVMS_STOP_REQUEST: return "request";
    default: return "unknown";
    }
}

gboolean
jvms_recording_write_bundle (JvmsRecording *rec, GError **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  add_string_or_null (b, "format", "jvmscope-bundle");
  add_int (b, "format_version", JVMS_BUNDLE_FORMAT_VERSION);
  g_autofree char *recorder = g_strdup_printf ("jvmscope-cli %s", PACKAGE_VERSION);
  add_string_or_null (b, "recorder", recorder);
  add_string_or_null (b, "mode", rec->attach_pid ? "attach" : "launch");
  g_auto(GStrv) command = rec->attach_pid == 0 ? g_strdupv (rec->java_argv)
                                                : jvms_recorder_process_argv (rec->attach_pid);
  if (command != NULL)
    {
      g_auto(GStrv) shown = rec->include_sensitive ? g_strdupv (command)
                                                   : jvms_recorder_redact_argv (command);
      add_strv (b, "command", shown);
      json_builder_set_member_name (b, "command_redacted");
      json_builder_add_boolean_value (b, !rec->include_sensitive);
    }
  /* 0: the JVM ended before its id was read (jvms_subprocess_pid); no pid is better than the
   * idle task's, which the analysis would then take for the JVM. */
  if (rec->pid > 0)
    add_int (b, "pid", rec->pid);
  add_time (b, "start_time", rec->start_time);
  add_time (b, "end_time", rec->end_time);
  add_int (b, "start_monotonic_ns", rec->start_monotonic_ns);
  add_int (b, "end_monotonic_ns", rec->end_monotonic_ns);

  json_builder_set_member_name (b, "stop");
  json_builder_begin_object (b);
  add_string_or_null (b, "reason", stop_reason_name (rec->stop_reason));
  if (rec->stop_reason == JVMS_STOP_SIGNAL)
    add_signal (b, "signal", rec->stop_signal);
  if (rec->jvm_status_known)
    {
      if (rec->jvm_term_signal != 0)
        add_signal (b, "jvm_killed_by", rec->jvm_term_signal);
      else
        add_int (b, "jvm_exit_status", rec->jvm_exit_status);
    }
  json_builder_end_object (b);

  struct utsname uts;
  json_builder_set_member_name (b, "system");
  json_builder_begin_object (b);
  add_string_or_null (b, "kernel_release", uname (&uts) == 0 ? uts.release : NULL);
  add_int (b, "cpu_count", sysconf (_SC_NPROCESSORS_ONLN));
  if (rec->probe.paranoid != G_MININT)
    add_int (b, "perf_event_paranoid", rec->probe.paranoid);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "jdk");
  json_builder_begin_object (b);
  add_string_or_null (b, "version", rec->jdk_version);
  add_string_or_null (b, "version_output", rec->jdk_version_full);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "perf");
  json_builder_begin_object (b);
  add_string_or_null (b, "version", rec->probe.version);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "files");
  json_builder_begin_object (b);
  add_string_or_null (b, "jfr", g_file_test (rec->jfr_path, G_FILE_TEST_IS_REGULAR) ? "recording.jfr" : NULL);
  add_string_or_null (b, "kernel", rec->kernel_recorded ? "kernel.perf.data" : NULL);
  add_string_or_null (b, "clock_log", g_file_test (rec->clock_log_path, G_FILE_TEST_IS_REGULAR) ? "jvm-clock.log" : NULL);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "recorded");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "jfr");
  json_builder_begin_object (b);
  g_autofree char *settings_name = g_path_get_basename (rec->settings);
  add_string_or_null (b, "settings", settings_name);
  json_builder_set_member_name (b, "sensitive_events");
  json_builder_add_boolean_value (b, rec->include_sensitive);
  add_strv (b, rec->include_sensitive ? "sensitive_events_enabled" : "sensitive_events_disabled",
            (char **) jvms_sensitive_events);
  json_builder_end_object (b);
  if (rec->kernel_recorded)
    {
      json_builder_set_member_name (b, "kernel");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "perf_events");
      json_builder_add_value (b, json_node_copy (rec->kernel_events));
      add_string_or_null (b, "system_calls_of", rec->syscall_scope);
      add_string_or_null (b, "counters", rec->counters);
      /* What each sched_switch read, for exact counters per quantum (docs/records.md). */
      json_builder_set_member_name (b, "switch_counters");
      if (rec->switch_counters == NULL)
        json_builder_add_null_value (b);
      else
        {
          json_builder_begin_object (b);
          add_strv (b, "counters", rec->switch_counters);
          json_builder_set_member_name (b, "hardware");
          json_builder_add_boolean_value (b, rec->switch_hardware);
          json_builder_set_member_name (b, "hardware_available");
          json_builder_add_boolean_value (b, rec->probe.hw_counters);
          json_builder_end_object (b);
        }
      /* Set when perf refused the group and the plain sched_switch was recorded instead. */
      if (rec->switch_group_refused != NULL)
        add_string_or_null (b, "switch_counters_refused", rec->switch_group_refused);
      add_int (b, "buffer_per_cpu_bytes", rec->buffer_per_cpu_bytes);
      /* Kept from before "lost": the LOST records (gaps) and LOST_SAMPLES total, -1 unknown. */
      add_int (b, "lost_records", rec->losses_known ? (gint64) rec->losses.total.lost_records : -1);
      add_int (b, "lost_samples", rec->losses_known ? (gint64) rec->losses.lost_samples : -1);
      add_losses (b, rec);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "not_recorded");
  JsonNode *missing = json_node_new (JSON_NODE_ARRAY);
  json_node_set_array (missing, rec->not_recorded);
  json_builder_add_value (b, missing);

  json_builder_set_member_name (b, "helpers");
  JsonNode *helpers = json_node_new (JSON_NODE_ARRAY);
  json_node_set_array (helpers, rec->helpers);
  json_builder_add_value (b, helpers);

  gint64 offset = 0;
  gboolean have_offset = add_clock (b, rec, &offset);
  add_timing (b, rec, have_offset, offset);
  json_builder_end_object (b);

  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  g_autofree char *path = g_build_filename (rec->out_dir, "bundle.json", NULL);
  return json_generator_to_file (gen, path, error);
}
