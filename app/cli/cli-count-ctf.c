/* Counting the events of an LTTng (CTF) trace folder, by event name as babeltrace2 prints it. */
#include "cli-count.h"

#include "jvms-ctf.h"

static void
set_string (JsonObject *extra, const char *name, const char *value)
{
  if (value != NULL)
    json_object_set_string_member (extra, name, value);
}

gboolean
jvms_cli_count_ctf (const char *path, JvmsCliCounts *out, GError **error)
{
  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (path, JVMS_CTF_READER_NAMES_ONLY, error);
  if (reader == NULL)
    return FALSE;

  JvmsKernelEvent event;
  g_autoptr(GError) local_error = NULL;
  guint64 discarded_packets = 0;
  while (jvms_ctf_reader_next (reader, &event, &local_error))
    {
      /* Losses are not events: babeltrace2 reports them apart, and so do we. */
      if (event.type == JVMS_KERNEL_EVENT_LOST)
        {
          if (event.lost.lost == 0)
            discarded_packets++;
          continue;
        }
      jvms_cli_counts_add (out, event.name, 1);
    }

  GPtrArray *warnings = jvms_ctf_reader_get_warnings (reader);
  for (guint i = 0; i < warnings->len; i++)
    jvms_cli_counts_warn (out, "%s", (const char *) g_ptr_array_index (warnings, i));
  if (local_error != NULL)
    jvms_cli_counts_warn (out, "%s", local_error->message);

  const JvmsCtfTraceInfo *info = jvms_ctf_reader_get_info (reader);
  set_string (out->extra, "hostname", info->hostname);
  set_string (out->extra, "domain", info->domain);
  set_string (out->extra, "kernel_release", info->kernel_release);
  set_string (out->extra, "tracer_name", info->tracer_name);
  set_string (out->extra, "clock_name", info->clock_name);
  json_object_set_int_member (out->extra, "clock_frequency", (gint64) info->clock_frequency);
  json_object_set_int_member (out->extra, "streams", info->n_streams);
  json_object_set_int_member (out->extra, "start_time_ns", jvms_ctf_reader_get_first_time (reader));
  json_object_set_int_member (out->extra, "duration_ns",
                              jvms_ctf_reader_get_last_time (reader) - jvms_ctf_reader_get_first_time (reader));
  json_object_set_int_member (out->extra, "discarded_events", (gint64) jvms_ctf_reader_get_discarded (reader));
  if (discarded_packets > 0)
    json_object_set_int_member (out->extra, "discarded_packet_gaps", (gint64) discarded_packets);
  if (jvms_ctf_reader_get_n_unordered (reader) > 0)
    json_object_set_int_member (out->extra, "events_out_of_order",
                                (gint64) jvms_ctf_reader_get_n_unordered (reader));
  return TRUE;
}
