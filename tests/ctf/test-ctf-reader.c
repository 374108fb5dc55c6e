/* The CTF reader against babeltrace2 on the real LTTng traces: every event, in order, with its
 * time, CPU and the decoded scheduler and block fields; the trace information; the counts of
 * `jvmscope-cli summary`. */
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#include "ctf-synthetic.h"
#include "ctf-test-util.h"

static const char *traces[] = { "scp_src", "scp_dest" };

static gint64
field_int (const char *payload, const char *name)
{
  g_autofree char *text = ctf_test_payload_field (payload, name);
  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

static guint64
field_uint (const char *payload, const char *name)
{
  g_autofree char *text = ctf_test_payload_field (payload, name);
  g_assert_nonnull (text);
  return g_ascii_strtoull (text, NULL, 10);
}

static void
check_fields (const BtLine *bt, const JvmsKernelEvent *ours)
{
  switch (ours->type)
    {
    case JVMS_KERNEL_EVENT_SCHED_SWITCH:
      {
        g_assert_cmpint (ours->sched_switch.prev_tid, ==, field_int (bt->payload, "prev_tid"));
        g_assert_cmpint (ours->sched_switch.next_tid, ==, field_int (bt->payload, "next_tid"));
        /* LTTng subtracts 100 from sched_switch prios; we give the kernel's p->prio. */
        g_assert_cmpint (ours->sched_switch.prev_prio, ==, field_int (bt->payload, "prev_prio") + 100);
        g_assert_cmpint (ours->sched_switch.next_prio, ==, field_int (bt->payload, "next_prio") + 100);
        g_autofree char *prev_comm = ctf_test_payload_field (bt->payload, "prev_comm");
        g_autofree char *next_comm = ctf_test_payload_field (bt->payload, "next_comm");
        g_assert_cmpstr (ours->sched_switch.prev_comm, ==, prev_comm);
        g_assert_cmpstr (ours->sched_switch.next_comm, ==, next_comm);
        /* Linux 3.6: lttng-modules recorded task->state, whose S/D/T/t bits are ours. */
        gint64 raw = field_int (bt->payload, "prev_state");
        if (raw < 16)
          g_assert_cmpuint (ours->sched_switch.prev_state, ==, (guint) raw);
        /* The event happens in the context of the thread that leaves the CPU. */
        g_assert_cmpint (ours->tid, ==, ours->sched_switch.prev_tid);
      }
      break;
    case JVMS_KERNEL_EVENT_SCHED_WAKEUP:
    case JVMS_KERNEL_EVENT_SCHED_WAKEUP_NEW:
      g_assert_cmpint (ours->wakeup.tid, ==, field_int (bt->payload, "tid"));
      g_assert_cmpint (ours->wakeup.target_cpu, ==, field_int (bt->payload, "target_cpu"));
      break;
    case JVMS_KERNEL_EVENT_SCHED_MIGRATE:
      g_assert_cmpint (ours->migrate.tid, ==, field_int (bt->payload, "tid"));
      g_assert_cmpint (ours->migrate.orig_cpu, ==, field_int (bt->payload, "orig_cpu"));
      g_assert_cmpint (ours->migrate.dest_cpu, ==, field_int (bt->payload, "dest_cpu"));
      break;
    case JVMS_KERNEL_EVENT_PROCESS_FORK:
      g_assert_cmpint (ours->fork.parent_tid, ==, field_int (bt->payload, "parent_tid"));
      g_assert_cmpint (ours->fork.child_tid, ==, field_int (bt->payload, "child_tid"));
      break;
    case JVMS_KERNEL_EVENT_PROCESS_EXEC:
      {
        g_autofree char *filename = ctf_test_payload_field (bt->payload, "filename");
        g_assert_cmpstr (ours->task.filename, ==, filename);
        g_assert_cmpint (ours->task.tid, ==, field_int (bt->payload, "pid"));
      }
      break;
    case JVMS_KERNEL_EVENT_PROCESS_EXIT:
      g_assert_cmpint (ours->task.tid, ==, field_int (bt->payload, "tid"));
      break;
    case JVMS_KERNEL_EVENT_COMM:
      {
        g_assert_cmpint (ours->task.tid, ==, field_int (bt->payload, "tid"));
        g_assert_cmpint (ours->task.pid, ==, field_int (bt->payload, "pid"));
        g_autofree char *name = ctf_test_payload_field (bt->payload, "name");
        g_assert_cmpstr (ours->task.comm, ==, name);
      }
      break;
    case JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT:
    case JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE:
    case JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE:
      g_assert_cmpuint (ours->block.dev, ==, field_uint (bt->payload, "dev"));
      g_assert_cmpuint (ours->block.sector, ==, field_uint (bt->payload, "sector"));
      g_assert_cmpuint (ours->block.nr_sector, ==, field_uint (bt->payload, "nr_sector"));
      g_assert_cmpuint (strlen (ours->block.rwbs), >, 0);
      break;
    default:
      break;
    }
}

static void
test_events (gconstpointer data)
{
  const char *dir = ctf_test_trace_dir (data);
  int status = -1;
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_events (dir, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpuint (bt->len, >, 0);

  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GPtrArray) ours = ctf_test_read_all (dir, JVMS_CTF_READER_DEFAULT, &warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpuint (ours->len, ==, bt->len);

  guint n_switch = 0, n_known_tid = 0;
  for (guint i = 0; i < bt->len; i++)
    {
      const BtLine *b = g_ptr_array_index (bt, i);
      const OurEvent *o = g_ptr_array_index (ours, i);
      g_assert_cmpstr (o->name, ==, b->name);
      g_assert_cmpint (o->event.time, ==, b->time);
      g_assert_cmpint (o->event.cpu, ==, b->cpu);
      check_fields (b, &o->event);
      if (o->event.type == JVMS_KERNEL_EVENT_SCHED_SWITCH)
        n_switch++;
      if (o->event.tid >= 0)
        n_known_tid++;
    }
  g_assert_cmpuint (n_switch, >, 0);
  /* After the first sched_switch every event knows its thread. */
  g_assert_cmpuint (n_known_tid, >, ours->len / 2);
}

/* `babeltrace2 DIR` stops at the first packet that begins before the previous one ended (its
 * muxer's rule, which LTTng 2.1 traces break); what it printed is our beginning. */
static void
test_prefix_of_cli (gconstpointer data)
{
  const char *dir = ctf_test_trace_dir (data);
  int status = -1;
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_cli (dir, &status);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ours = ctf_test_read_all (dir, JVMS_CTF_READER_NAMES_ONLY, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bt->len, >, 0);
  g_assert_cmpuint (bt->len, <=, ours->len);
  if (status == 0)
    g_assert_cmpuint (bt->len, ==, ours->len);
  for (guint i = 0; i < bt->len; i++)
    {
      const BtLine *b = g_ptr_array_index (bt, i);
      const OurEvent *o = g_ptr_array_index (ours, i);
      g_assert_cmpstr (o->name, ==, b->name);
      g_assert_cmpint (o->event.time, ==, b->time);
    }
}

/* The metadata text as babeltrace2 decodes it. */
static char *
metadata_text (const char *dir)
{
  const char *argv[] = { "babeltrace2", "--output-format=ctf-metadata", dir, NULL };
  char *out = NULL;
  int wait_status = 0;
  g_autoptr(GError) error = NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, &out, NULL, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  return out;
}

static char *
tsdl_value (const char *text, const char *key)
{
  g_autofree char *pattern = g_strdup_printf ("\t%s = ", key);
  const char *hit = strstr (text, pattern);
  g_assert_nonnull (hit);
  const char *value = hit + strlen (pattern);
  const char *end = strchr (value, ';');
  g_assert_nonnull (end);
  char *v = g_strndup (value, (gsize) (end - value));
  if (v[0] == '"')
    {
      char *unquoted = g_strndup (v + 1, strlen (v) - 2);
      g_free (v);
      return unquoted;
    }
  return v;
}

static void
test_info (gconstpointer data)
{
  const char *dir = ctf_test_trace_dir (data);
  g_autofree char *tsdl = metadata_text (dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (dir, JVMS_CTF_READER_NAMES_ONLY, &error);
  g_assert_no_error (error);
  const JvmsCtfTraceInfo *info = jvms_ctf_reader_get_info (reader);

  g_autofree char *hostname = tsdl_value (tsdl, "hostname");
  g_autofree char *release = tsdl_value (tsdl, "kernel_release");
  g_autofree char *tracer = tsdl_value (tsdl, "tracer_name");
  g_autofree char *major = tsdl_value (tsdl, "tracer_major");
  g_autofree char *freq = tsdl_value (tsdl, "freq");
  g_autofree char *offset = tsdl_value (tsdl, "offset");
  g_assert_cmpstr (info->hostname, ==, hostname);
  g_assert_cmpstr (info->kernel_release, ==, release);
  g_assert_cmpstr (info->tracer_name, ==, tracer);
  g_assert_cmpint (info->tracer_major, ==, atoi (major));
  g_assert_cmpstr (info->clock_name, ==, "monotonic");
  g_assert_cmpuint (info->clock_frequency, ==, g_ascii_strtoull (freq, NULL, 10));
  /* babeltrace2 splits the offset in cycles into whole seconds and the cycles left. */
  guint64 offset_cycles = g_ascii_strtoull (offset, NULL, 10);
  g_assert_cmpuint ((guint64) info->clock_offset_seconds * info->clock_frequency + info->clock_offset_cycles,
                    ==, offset_cycles);
  g_assert_true (info->clock_origin_is_unix_epoch);
  g_assert_cmpuint (info->n_streams, ==, 1);

  JvmsKernelEvent event;
  gint64 first = 0;
  gboolean any = FALSE;
  while (jvms_ctf_reader_next (reader, &event, &error))
    if (!any)
      first = event.time, any = TRUE;
  g_assert_no_error (error);
  g_assert_true (any);
  g_assert_cmpint (jvms_ctf_reader_get_first_time (reader), ==, first);
  /* The packet index's range holds the events. */
  g_assert_cmpint (info->begin_ns, <=, first);
  g_assert_cmpint (info->begin_ns, >, 0);
  g_assert_cmpint (info->end_ns, >, info->begin_ns);
  g_assert_cmpuint (jvms_ctf_reader_get_discarded (reader), ==, 0);
  g_assert_cmpuint (jvms_ctf_reader_get_n_unordered (reader), ==, 0);
}

static void
test_cli_summary (gconstpointer data)
{
  const char *dir = ctf_test_trace_dir (data);
  const char *cli = g_getenv ("JVMS_CLI");
  g_assert_nonnull (cli);
  const char *argv[] = { cli, "summary", dir, "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int wait_status = 0;
  g_autoptr(GError) error = NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, &err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (wait_status, &error));
  g_assert_no_error (error);

  g_autoptr(JsonParser) parser = json_parser_new ();
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "ctf");
  JsonObject *counts = json_object_get_object_member (root, "event_counts");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "warnings")), ==, 0);

  int status = -1;
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_events (dir, &status);
  g_assert_cmpint (status, ==, 0);
  g_autoptr(GHashTable) expected = ctf_test_count_names (bt);
  g_assert_cmpuint (json_object_get_size (counts), ==, g_hash_table_size (expected));
  GHashTableIter iter;
  gpointer name, n;
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &name, &n))
    {
      g_assert_true (json_object_has_member (counts, name));
      g_assert_cmpint (json_object_get_int_member (counts, name), ==, GPOINTER_TO_UINT (n));
    }
  g_assert_cmpint (json_object_get_int_member (root, "total_events"), ==, bt->len);
}

/* The written trace goes through babeltrace2's muxer without trouble: plain `babeltrace2 DIR`
 * is the oracle for the order of two CPUs, and its warning for the discarded events. */
static void
test_synthetic (void)
{
  g_autofree char *dir = ctf_test_tmp_dir ();
  ctf_synthetic_write (dir);

  const char *argv[] = { "babeltrace2", dir, "--component=sink.text.pretty",
                         "--params=clock-seconds=true,no-delta=true,field-trace:hostname=false", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int wait_status = 0;
  g_autoptr(GError) error = NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_cli (dir, NULL);

  /* "WARNING: Tracer discarded 3 events between [1700000000.000007000] and [...]" */
  const char *warning = strstr (err, "Tracer discarded ");
  g_assert_nonnull (warning);
  guint64 discarded = g_ascii_strtoull (warning + strlen ("Tracer discarded "), NULL, 10);
  const char *bracket = strchr (warning, '[');
  g_assert_nonnull (bracket);
  gint64 lost_time = g_ascii_strtoll (bracket + 1, NULL, 10) * 1000000000
                   + g_ascii_strtoll (strchr (bracket, '.') + 1, NULL, 10);

  g_autoptr(GPtrArray) ours = ctf_test_read_all (dir, JVMS_CTF_READER_DEFAULT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ours->len, ==, bt->len + 1);

  guint j = 0, n_syscalls = 0, n_block = 0, n_switch = 0, n_lost = 0;
  for (guint i = 0; i < ours->len; i++)
    {
      const OurEvent *o = g_ptr_array_index (ours, i);
      const JvmsKernelEvent *e = &o->event;
      if (e->type == JVMS_KERNEL_EVENT_LOST)
        {
          n_lost++;
          g_assert_cmpuint (e->lost.lost, ==, discarded);
          g_assert_cmpint (e->time, ==, lost_time);
          g_assert_cmpint (e->cpu, ==, 0);
          continue;
        }
      const BtLine *b = g_ptr_array_index (bt, j++);
      g_assert_cmpstr (o->name, ==, b->name);
      g_assert_cmpint (e->time, ==, b->time);
      g_assert_cmpint (e->cpu, ==, b->cpu);
      check_fields (b, e);
      switch (e->type)
        {
        case JVMS_KERNEL_EVENT_SYSCALL_ENTER:
          n_syscalls++;
          g_assert_cmpstr (e->syscall.sys, ==, "read");
          g_assert_cmpint (e->syscall.id, ==, -1);
          g_assert_cmpint (e->tid, >, 0);
          g_assert_cmpint (e->pid, ==, 4200);
          break;
        case JVMS_KERNEL_EVENT_SYSCALL_EXIT:
          n_syscalls++;
          g_assert_cmpstr (e->syscall.sys, ==, "read");
          g_assert_cmpint (e->syscall.ret, ==, field_int (b->payload, "ret"));
          break;
        case JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE:
          n_block++;
          g_assert_cmpint (field_int (b->payload, "rwbs"), ==, 33);
          g_assert_cmpstr (e->block.rwbs, ==, "WS");
          break;
        case JVMS_KERNEL_EVENT_SCHED_SWITCH:
          {
            /* Linux 5.15: lttng-modules records TASK_REPORT bits, ours as they are. */
            gint64 raw = field_int (b->payload, "prev_state");
            guint32 expected = raw == 256 ? JVMS_TASK_PREEMPTED
                             : raw == 128 ? JVMS_TASK_IDLE
                             : raw == 1 ? JVMS_TASK_INTERRUPTIBLE : JVMS_TASK_RUNNING;
            g_assert_cmpuint (e->sched_switch.prev_state, ==, expected);
            n_switch++;
          }
          break;
        case JVMS_KERNEL_EVENT_PROCESS_FORK:
          g_assert_cmpint (e->fork.parent_pid, ==, field_int (b->payload, "parent_pid"));
          g_assert_cmpint (e->fork.child_pid, ==, field_int (b->payload, "child_pid"));
          g_assert_cmpstr (e->fork.child_comm, ==, "java");
          break;
        default:
          break;
        }
    }
  g_assert_cmpuint (j, ==, bt->len);
  g_assert_cmpuint (n_lost, ==, 1);
  g_assert_cmpuint (n_syscalls, ==, 6);
  g_assert_cmpuint (n_block, ==, 1);
  g_assert_cmpuint (n_switch, ==, 5);

  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (dir, JVMS_CTF_READER_NAMES_ONLY, &error);
  g_assert_no_error (error);
  const JvmsCtfTraceInfo *info = jvms_ctf_reader_get_info (reader);
  g_assert_cmpstr (info->hostname, ==, "synthetic-host");
  g_assert_cmpstr (info->kernel_release, ==, "5.15.0-91-generic");
  g_assert_cmpstr (info->domain, ==, "kernel");
  g_assert_cmpint (info->tracer_minor, ==, 13);
  g_assert_cmpuint (info->n_streams, ==, 2);
  JvmsKernelEvent event;
  while (jvms_ctf_reader_next (reader, &event, &error))
    ;
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_ctf_reader_get_discarded (reader), ==, discarded);

  ctf_test_rm_rf (dir);
}

/* lttng-modules 2.1 ends a packet after the next one began. babeltrace2 starts the gap of
 * discarded events at the first packet's end, after the next events: the loss is placed at the
 * stream's next event instead, and no event time changes. */
static void
test_synthetic_overlap (void)
{
  g_autofree char *plain = ctf_test_tmp_dir ();
  g_autofree char *overlap = ctf_test_tmp_dir ();
  ctf_synthetic_write (plain);
  ctf_synthetic_write_with_end (overlap, 9200);
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_cli (plain, NULL);

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (overlap, JVMS_CTF_READER_NAMES_ONLY, &error);
  g_assert_no_error (error);
  JvmsKernelEvent event;
  guint j = 0, n_lost = 0;
  while (jvms_ctf_reader_next (reader, &event, &error))
    {
      if (event.type == JVMS_KERNEL_EVENT_LOST)
        {
          n_lost++;
          /* The first event of the packet after the gap, on CPU 0: timer_start at 9000. */
          g_assert_cmpint (event.time, ==, G_GINT64_CONSTANT (1700000000000009000));
          continue;
        }
      g_assert_cmpuint (j, <, bt->len);
      const BtLine *b = g_ptr_array_index (bt, j++);
      g_assert_cmpstr (event.name, ==, b->name);
      g_assert_cmpint (event.time, ==, b->time);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (j, ==, bt->len);
  g_assert_cmpuint (n_lost, ==, 1);
  g_assert_cmpuint (jvms_ctf_reader_get_n_unordered (reader), ==, 0);
  ctf_test_rm_rf (plain);
  ctf_test_rm_rf (overlap);
}

static void
test_synthetic_cli (void)
{
  g_autofree char *dir = ctf_test_tmp_dir ();
  ctf_synthetic_write (dir);
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_cli (dir, NULL);
  g_autoptr(GHashTable) expected = ctf_test_count_names (bt);

  const char *argv[] = { g_getenv ("JVMS_CLI"), "summary", dir, "--json", NULL };
  g_autofree char *out = NULL;
  int wait_status = 0;
  g_autoptr(GError) error = NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  g_autoptr(JsonParser) parser = json_parser_new ();
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  JsonObject *counts = json_object_get_object_member (root, "event_counts");
  g_assert_cmpuint (json_object_get_size (counts), ==, g_hash_table_size (expected));
  GHashTableIter iter;
  gpointer name, n;
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &name, &n))
    g_assert_cmpint (json_object_get_int_member (counts, name), ==, GPOINTER_TO_UINT (n));
  g_assert_cmpint (json_object_get_int_member (root, "discarded_events"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (root, "streams"), ==, 2);
  ctf_test_rm_rf (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autofree char *events = g_strdup_printf ("/ctf/reader/%s/events-vs-babeltrace2", traces[i]);
      g_autofree char *prefix = g_strdup_printf ("/ctf/reader/%s/prefix-of-babeltrace2-cli", traces[i]);
      g_autofree char *info = g_strdup_printf ("/ctf/reader/%s/info", traces[i]);
      g_autofree char *cli = g_strdup_printf ("/ctf/cli/%s/summary-vs-babeltrace2", traces[i]);
      g_test_add_data_func (events, traces[i], test_events);
      g_test_add_data_func (prefix, traces[i], test_prefix_of_cli);
      g_test_add_data_func (info, traces[i], test_info);
      g_test_add_data_func (cli, traces[i], test_cli_summary);
    }
  g_test_add_func ("/ctf/reader/synthetic/events-vs-babeltrace2", test_synthetic);
  g_test_add_func ("/ctf/reader/synthetic/overlapping-packets", test_synthetic_overlap);
  g_test_add_func ("/ctf/cli/synthetic/summary-vs-babeltrace2", test_synthetic_cli);
  return g_test_run ();
}
