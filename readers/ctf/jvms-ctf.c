#include "jvms-ctf.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "jvms-ctf-bt.h"
#include "jvms-ctf-decode.h"
#include "jvms-ctf-repair.h"
#include "jvms-input-file.h"

G_DEFINE_QUARK (jvms-ctf-error-quark, jvms_ctf_error)

/* LTTng writes `metadata` in the trace folder, which lttng puts two or three levels below the
 * session folder (kernel/, ust/uid/1000/64-bit/): look that deep and no deeper. */
#define TRACE_SEARCH_DEPTH 3
/* The tid-to-pid table learns from the trace; a hostile trace must not grow it forever. */
#define MAX_KNOWN_TIDS (1u << 20)

/* One data stream of source.ctf.fs (one output port), and the batch of messages taken from it. */
typedef struct
{
  bt_message_iterator    *iter;
  bt_message_array_const  msgs;  /* belongs to @iter; the references in it are ours */
  guint64                 count, pos;
  gboolean                ended;
  gint32                  cpu;
  gint64                  last_time;
  gboolean                head_known;
  gint64                  head_time;
  /* A discarded-events (or -packets) message waiting for the stream's next event: see
   * head_time(). */
  const bt_message       *pending_lost;
  gboolean                warned_time;  /* an event of this stream had a time out of range */
  char                   *name;  /* the port name: trace uuid | stream id | file paths */
} Upstream;

struct _JvmsCtfReader
{
  char              *folder;
  JvmsCtfReaderFlags flags;
  JvmsCtfTraceInfo   info;
  gboolean           info_from_trace;
  guint              kernel_version;

  char              *repair_dir;     /* a temporary copy with damaged stream files repaired */
  bt_graph          *graph;
  bt_component_class_sink *sink_class;
  GArray            *upstreams;      /* Upstream */
  const bt_message  *current;        /* the message the last event points into */
  gboolean           failed;

  GHashTable        *kinds;          /* const bt_event_class * -> JvmsCtfEventKind * */
  GHashTable        *cpu_tid;        /* cpu -> tid the last sched_switch put on it */
  GHashTable        *tid_pid;        /* tid -> pid */
  GPtrArray         *warnings;
  GPtrArray         *strings;        /* info strings */

  gint64             first_time, last_time;
  gboolean           any_event;
  guint64            discarded;
  guint64            n_unordered;
};

static void
kind_free (gpointer data)
{
  JvmsCtfEventKind *kind = data;
  jvms_ctf_event_kind_clear (kind);
  g_free (kind);
}

static void
upstream_release_batch (Upstream *up)
{
  for (; up->pos < up->count; up->pos++)
    bt_message_put_ref (up->msgs[up->pos]);
  up->count = up->pos = 0;
  up->head_known = FALSE;
}

void
jvms_ctf_reader_free (JvmsCtfReader *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->current, bt_message_put_ref);
  if (self->upstreams != NULL)
    {
      for (guint i = 0; i < self->upstreams->len; i++)
        {
          Upstream *up = &g_array_index (self->upstreams, Upstream, i);
          upstream_release_batch (up);
          g_clear_pointer (&up->pending_lost, bt_message_put_ref);
          g_clear_pointer (&up->iter, bt_message_iterator_put_ref);
          g_free (up->name);
        }
      g_array_unref (self->upstreams);
    }
  g_clear_pointer (&self->graph, bt_graph_put_ref);
  g_clear_pointer (&self->sink_class, bt_component_class_sink_put_ref);
  if (self->repair_dir != NULL)
    jvms_ctf_repair_remove (self->repair_dir);
  g_free (self->repair_dir);
  g_clear_pointer (&self->kinds, g_hash_table_unref);
  g_clear_pointer (&self->cpu_tid, g_hash_table_unref);
  g_clear_pointer (&self->tid_pid, g_hash_table_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->strings, g_ptr_array_unref);
  g_free (self->folder);
  g_free (self);
}

/* ---- The sink: one input port per upstream; its consume method refills empty batches. ---- */

static bt_component_class_initialize_method_status
sink_initialize (bt_self_component_sink *self_component,
                 bt_self_component_sink_configuration *configuration,
                 const bt_value *params, void *initialize_method_data)
{
  JvmsCtfReader *reader = initialize_method_data;
  bt_self_component_set_data (bt_self_component_sink_as_self_component (self_component), reader);
  for (guint i = 0; i < reader->upstreams->len; i++)
    {
      char name[32];
      g_snprintf (name, sizeof name, "in%u", i);
      if (bt_self_component_sink_add_input_port (self_component, name, NULL, NULL)
          != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
        return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
    }
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static bt_component_class_sink_graph_is_configured_method_status
sink_graph_is_configured (bt_self_component_sink *self_component)
{
  JvmsCtfReader *reader =
    bt_self_component_get_data (bt_self_component_sink_as_self_component (self_component));
  for (guint i = 0; i < reader->upstreams->len; i++)
    {
      Upstream *up = &g_array_index (reader->upstreams, Upstream, i);
      bt_self_component_port_input *port =
        bt_self_component_sink_borrow_input_port_by_index (self_component, i);
      if (bt_message_iterator_create_from_sink_component (self_component, port, &up->iter)
          != BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK)
        return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
    }
  return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

/* A stream that fails to decode ends alone: its error becomes a warning and the other streams
 * go on, which babeltrace2's own muxer does not allow. */
static bt_component_class_sink_consume_method_status
sink_consume (bt_self_component_sink *self_component)
{
  JvmsCtfReader *reader =
    bt_self_component_get_data (bt_self_component_sink_as_self_component (self_component));
  gboolean any_open = FALSE;

  for (guint i = 0; i < reader->upstreams->len; i++)
    {
      Upstream *up = &g_array_index (reader->upstreams, Upstream, i);
      if (up->ended)
        continue;
      any_open = TRUE;
      if (up->pos < up->count)
        continue;

      up->count = up->pos = 0;
      up->head_known = FALSE;
      bt_message_iterator_next_status status =
        bt_message_iterator_next (up->iter, &up->msgs, &up->count);
      /* Taken whatever the status: babeltrace2 2.0.4's ctf source returns the messages decoded
       * before a decoding error with an OK status and leaves the error on the thread, and any
       * later call into the library with an error there aborts (its own CLI does, with two
       * streams). */
      g_autofree char *why = jvms_ctf_bt_take_error_text ();
      if (status != BT_MESSAGE_ITERATOR_NEXT_STATUS_OK || why != NULL)
        {
          /* A batch that came with an error is not read: babeltrace2 2.0.4 has already torn
           * down what its events point into. Nothing came with the other statuses. */
          if (status == BT_MESSAGE_ITERATOR_NEXT_STATUS_OK)
            upstream_release_batch (up);
          up->count = 0;
        }
      if (why != NULL)
        {
          g_ptr_array_add (reader->warnings,
                           g_strdup_printf ("%s: stream %s ends early, events after this "
                                            "point are lost: %s",
                                            reader->folder, up->name, why));
          up->ended = TRUE;
        }
      else if (status == BT_MESSAGE_ITERATOR_NEXT_STATUS_END)
        up->ended = TRUE;
      else if (status != BT_MESSAGE_ITERATOR_NEXT_STATUS_OK
               && status != BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN)
        {
          g_ptr_array_add (reader->warnings,
                           g_strdup_printf ("%s: stream %s ends early, events after this "
                                            "point are lost: libbabeltrace2 failed (status %d) "
                                            "without saying why",
                                            reader->folder, up->name, (int) status));
          up->ended = TRUE;
        }
    }
  return any_open ? BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK
                  : BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
}

/* ---- Trace information ---- */

static const char *
keep_string (JvmsCtfReader *self, const char *s)
{
  if (s == NULL)
    return NULL;
  char *copy = g_strdup (s);
  g_ptr_array_add (self->strings, copy);
  return copy;
}

static const char *
env_string (JvmsCtfReader *self, const bt_trace *trace, const char *name)
{
  const bt_value *value = bt_trace_borrow_environment_entry_value_by_name_const (trace, name);
  if (value == NULL || bt_value_get_type (value) != BT_VALUE_TYPE_STRING)
    return NULL;
  return keep_string (self, bt_value_string_get (value));
}

static gint
env_int (const bt_trace *trace, const char *name)
{
  const bt_value *value = bt_trace_borrow_environment_entry_value_by_name_const (trace, name);
  if (value == NULL || bt_value_get_type (value) != BT_VALUE_TYPE_SIGNED_INTEGER)
    return -1;
  gint64 v = bt_value_integer_signed_get (value);
  return v >= 0 && v <= G_MAXINT ? (gint) v : -1;
}

static void
note_stream (JvmsCtfReader *self, const bt_stream *stream)
{
  const bt_trace *trace = bt_stream_borrow_trace_const (stream);
  const char *domain = env_string (self, trace, "domain");
  /* The kernel trace describes the machine; a UST trace beside it only if alone. */
  if (self->info_from_trace && !(g_strcmp0 (domain, "kernel") == 0
                                 && g_strcmp0 (self->info.domain, "kernel") != 0))
    return;
  self->info_from_trace = TRUE;

  JvmsCtfTraceInfo *info = &self->info;
  info->domain = domain;
  info->hostname = env_string (self, trace, "hostname");
  info->sysname = env_string (self, trace, "sysname");
  info->kernel_release = env_string (self, trace, "kernel_release");
  info->kernel_version = env_string (self, trace, "kernel_version");
  info->tracer_name = env_string (self, trace, "tracer_name");
  info->tracer_major = env_int (trace, "tracer_major");
  info->tracer_minor = env_int (trace, "tracer_minor");
  info->tracer_patchlevel = env_int (trace, "tracer_patchlevel");
  self->kernel_version = jvms_ctf_parse_kernel_release (info->kernel_release);

  const bt_clock_class *clock =
    bt_stream_class_borrow_default_clock_class_const (bt_stream_borrow_class_const (stream));
  if (clock != NULL)
    {
      int64_t seconds = 0;
      uint64_t cycles = 0;
      info->clock_name = keep_string (self, bt_clock_class_get_name (clock));
      info->clock_frequency = bt_clock_class_get_frequency (clock);
      bt_clock_class_get_offset (clock, &seconds, &cycles);
      info->clock_offset_seconds = seconds;
      info->clock_offset_cycles = cycles;
      info->clock_origin_is_unix_epoch = bt_clock_class_origin_is_unix_epoch (clock);
    }
}

static void
note_packet (Upstream *up, const bt_packet *packet)
{
  const bt_field *context = bt_packet_borrow_context_field_const (packet);
  gint64 cpu = jvms_ctf_member_int (context, "cpu_id", -1);
  up->cpu = cpu >= 0 && cpu <= G_MAXINT32 ? (gint32) cpu : -1;
}

/* ---- Merging ---- */

static gboolean
is_loss (const bt_message *msg)
{
  bt_message_type type = bt_message_get_type (msg);
  return type == BT_MESSAGE_TYPE_DISCARDED_EVENTS || type == BT_MESSAGE_TYPE_DISCARDED_PACKETS;
}

static gboolean
is_head (const bt_message *msg)
{
  return bt_message_get_type (msg) == BT_MESSAGE_TYPE_EVENT || is_loss (msg);
}

/* Whether the event's clock value lies beyond what signed 64-bit nanoseconds from the clock's
 * origin can hold: a damaged timestamp (a real clock gets there in the year 2262). babeltrace2
 * gives no time for it, and leaves an error on the thread with the status. */
static gboolean
event_time_out_of_range (JvmsCtfReader *self, Upstream *up, const bt_message *msg)
{
  if (bt_message_event_borrow_stream_class_default_clock_class_const (msg) == NULL)
    return FALSE;
  const bt_clock_snapshot *snapshot = bt_message_event_borrow_default_clock_snapshot_const (msg);
  int64_t ns;
  if (bt_clock_snapshot_get_ns_from_origin (snapshot, &ns)
      == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
    return FALSE;
  /* Its cause names the snapshot by address only: the warning below says it better. */
  bt_current_thread_clear_error ();
  if (!up->warned_time)
    {
      /* Once per stream: a hostile trace may hold millions of them. */
      const bt_clock_class *clock = bt_clock_snapshot_borrow_clock_class_const (snapshot);
      const char *event_name =
        bt_event_class_get_name (bt_event_borrow_class_const (bt_message_event_borrow_event_const (msg)));
      const char *clock_name = bt_clock_class_get_name (clock);
      g_ptr_array_add (self->warnings,
                       g_strdup_printf ("%s: stream %s: event %s at %" G_GUINT64_FORMAT " cycles of "
                                        "clock %s lies beyond the signed 64-bit nanoseconds from "
                                        "the clock's origin (a damaged timestamp); it and any "
                                        "other such event of the stream are left out",
                                        self->folder, up->name,
                                        event_name != NULL ? event_name : "(unnamed)",
                                        (guint64) bt_clock_snapshot_get_value (snapshot),
                                        clock_name != NULL ? clock_name : "(unnamed)"));
      up->warned_time = TRUE;
    }
  return TRUE;
}

/* Consumes the messages that carry no event, keeping what they say, drops the events that
 * have no time, and sets a loss aside until the stream's next event is known. */
static void
skip_to_head (JvmsCtfReader *self, Upstream *up)
{
  while (up->pos < up->count)
    {
      const bt_message *msg = up->msgs[up->pos];
      if (bt_message_get_type (msg) == BT_MESSAGE_TYPE_EVENT
          && event_time_out_of_range (self, up, msg))
        {
          bt_message_put_ref (msg);
          up->pos++;
          continue;
        }
      if (is_head (msg))
        {
          if (up->pending_lost != NULL || !is_loss (msg))
            return;
          up->pending_lost = msg;
          up->pos++;
          up->head_known = FALSE;
          continue;
        }
      switch (bt_message_get_type (msg))
        {
        case BT_MESSAGE_TYPE_STREAM_BEGINNING:
          note_stream (self, bt_message_stream_beginning_borrow_stream_const (msg));
          break;
        case BT_MESSAGE_TYPE_PACKET_BEGINNING:
          note_packet (up, bt_message_packet_beginning_borrow_packet_const (msg));
          break;
        default:
          break;
        }
      bt_message_put_ref (msg);
      up->pos++;
    }
}

/* Whether the stream's next delivery is known: an event or loss in the batch, or a loss set
 * aside at the end of the stream. */
static gboolean
has_head (const Upstream *up)
{
  if (up->pos < up->count)
    return TRUE;
  return up->pending_lost != NULL && up->ended;
}

static gboolean
snapshot_ns (const bt_clock_snapshot *snapshot, gint64 *ns)
{
  int64_t value;
  if (bt_clock_snapshot_get_ns_from_origin (snapshot, &value)
      != BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
    {
      /* Out of range (events out of range never get here: skip_to_head() drops them; a loss
       * takes the stream's last time). The status leaves an error on the thread, and the next
       * run of the graph would abort on it. */
      bt_current_thread_clear_error ();
      return FALSE;
    }
  *ns = value;
  return TRUE;
}

static gboolean
message_time (const bt_message *msg, gint64 *t)
{
  switch (bt_message_get_type (msg))
    {
    case BT_MESSAGE_TYPE_EVENT:
      return bt_message_event_borrow_stream_class_default_clock_class_const (msg) != NULL
          && snapshot_ns (bt_message_event_borrow_default_clock_snapshot_const (msg), t);
    case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
      {
        const bt_stream *stream = bt_message_discarded_events_borrow_stream_const (msg);
        return bt_stream_class_discarded_events_have_default_clock_snapshots (bt_stream_borrow_class_const (stream))
            && snapshot_ns (bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const (msg), t);
      }
    case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
      {
        const bt_stream *stream = bt_message_discarded_packets_borrow_stream_const (msg);
        return bt_stream_class_discarded_packets_have_default_clock_snapshots (bt_stream_borrow_class_const (stream))
            && snapshot_ns (bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const (msg), t);
      }
    default:
      return FALSE;
    }
}

/* The head's own time, or the stream's last one when it has none; never before the last.
 * A loss begins where the previous packet ended, which lttng-modules 2.1 puts after the first
 * events of the next packet: it is placed no later than the stream's next event, so that the
 * events keep their own times. */
static gint64
head_time (JvmsCtfReader *self, Upstream *up)
{
  if (up->head_known)
    return up->head_time;

  const bt_message *msg = up->pending_lost != NULL ? up->pending_lost : up->msgs[up->pos];
  gint64 t = up->last_time;
  gboolean have = message_time (msg, &t);
  gint64 next;
  if (up->pending_lost != NULL && up->pos < up->count
      && bt_message_get_type (up->msgs[up->pos]) == BT_MESSAGE_TYPE_EVENT
      && message_time (up->msgs[up->pos], &next) && (!have || next < t))
    {
      t = next;
      have = TRUE;
    }

  if (have && t < up->last_time && up->last_time != G_MININT64)
    {
      if (up->pending_lost == NULL)
        self->n_unordered++;
      t = up->last_time;
    }
  else if (!have && up->last_time == G_MININT64)
    t = self->any_event ? self->last_time : 0;

  up->head_time = t;
  up->head_known = TRUE;
  return t;
}

/* Until every stream still open shows its next event (or has ended): a stream's next event
 * may be the earliest of all. */
static gboolean
fill_heads (JvmsCtfReader *self, GError **error)
{
  for (;;)
    {
      gboolean need = FALSE;
      for (guint i = 0; i < self->upstreams->len; i++)
        {
          Upstream *up = &g_array_index (self->upstreams, Upstream, i);
          if (up->ended)
            continue;
          skip_to_head (self, up);
          if (!has_head (up))
            need = TRUE;
        }
      if (!need)
        return TRUE;

      /* babeltrace2 aborts the process when called with an error pending: one left there by
       * a call above that failed unnoticed ends the reading instead. */
      g_autofree char *pending = jvms_ctf_bt_take_error_text ();
      if (pending != NULL)
        {
          self->failed = TRUE;
          g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_BABELTRACE,
                       "%s: reading the trace failed: %s", self->folder, pending);
          return FALSE;
        }
      bt_graph_run_once_status status = bt_graph_run_once (self->graph);
      switch (status)
        {
        case BT_GRAPH_RUN_ONCE_STATUS_OK:
        case BT_GRAPH_RUN_ONCE_STATUS_AGAIN:
          break;
        case BT_GRAPH_RUN_ONCE_STATUS_END:
          for (guint i = 0; i < self->upstreams->len; i++)
            g_array_index (self->upstreams, Upstream, i).ended = TRUE;
          break;
        case BT_GRAPH_RUN_ONCE_STATUS_MEMORY_ERROR:
        case BT_GRAPH_RUN_ONCE_STATUS_ERROR:
        default:
          {
            g_autofree char *why = jvms_ctf_bt_take_error_text ();
            self->failed = TRUE;
            g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_BABELTRACE,
                         "%s: reading the trace failed: %s", self->folder, why);
            return FALSE;
          }
        }
    }
}

/* ---- Events ---- */

static const JvmsCtfEventKind *
event_kind (JvmsCtfReader *self, const bt_event_class *cls)
{
  JvmsCtfEventKind *kind = g_hash_table_lookup (self->kinds, cls);
  if (kind == NULL)
    {
      kind = g_new0 (JvmsCtfEventKind, 1);
      jvms_ctf_event_kind_init (kind, bt_event_class_get_name (cls));
      g_hash_table_insert (self->kinds, (gpointer) cls, kind);
    }
  return kind;
}

static gint32
lookup_pid (JvmsCtfReader *self, gint32 tid)
{
  if (tid == 0)
    return 0;
  gpointer pid;
  if (tid > 0 && g_hash_table_lookup_extended (self->tid_pid, GINT_TO_POINTER (tid), NULL, &pid))
    return GPOINTER_TO_INT (pid);
  return -1;
}

static void
learn_pid (JvmsCtfReader *self, gint32 tid, gint32 pid)
{
  if (tid <= 0 || pid < 0)
    return;
  if (g_hash_table_size (self->tid_pid) >= MAX_KNOWN_TIDS
      && !g_hash_table_contains (self->tid_pid, GINT_TO_POINTER (tid)))
    return;
  g_hash_table_insert (self->tid_pid, GINT_TO_POINTER (tid), GINT_TO_POINTER (pid));
}

/* Whose context the event was recorded in: the trace's context fields when it has them,
 * otherwise what the scheduler events said about this CPU. */
static void
fill_identity (JvmsCtfReader *self, const bt_event *bt_ev, JvmsKernelEvent *event)
{
  const bt_field *context = bt_event_borrow_common_context_field_const (bt_ev);
  gint64 tid = jvms_ctf_member_int (context, "tid", -1);
  gint64 pid = jvms_ctf_member_int (context, "pid", -1);
  gboolean from_context = tid >= 0 && tid <= G_MAXINT32;

  if (from_context)
    {
      event->tid = (gint32) tid;
      event->pid = pid >= 0 && pid <= G_MAXINT32 ? (gint32) pid : lookup_pid (self, event->tid);
      learn_pid (self, event->tid, event->pid);
    }
  else
    {
      gpointer current;
      event->tid = event->cpu >= 0
                   && g_hash_table_lookup_extended (self->cpu_tid, GINT_TO_POINTER (event->cpu),
                                                    NULL, &current)
                 ? GPOINTER_TO_INT (current) : -1;
      if (event->type == JVMS_KERNEL_EVENT_SCHED_SWITCH)
        event->tid = event->sched_switch.prev_tid;
      event->pid = lookup_pid (self, event->tid);
    }

  switch (event->type)
    {
    case JVMS_KERNEL_EVENT_SCHED_SWITCH:
      if (event->cpu >= 0 && event->sched_switch.next_tid >= 0)
        g_hash_table_insert (self->cpu_tid, GINT_TO_POINTER (event->cpu),
                             GINT_TO_POINTER (event->sched_switch.next_tid));
      break;
    case JVMS_KERNEL_EVENT_PROCESS_FORK:
      if (event->fork.parent_pid < 0)
        event->fork.parent_pid = lookup_pid (self, event->fork.parent_tid);
      learn_pid (self, event->fork.parent_tid, event->fork.parent_pid);
      learn_pid (self, event->fork.child_tid, event->fork.child_pid);
      break;
    case JVMS_KERNEL_EVENT_PROCESS_EXEC:
      /* exec makes the calling thread its process's only thread, and its leader. */
      event->task.pid = event->task.tid;
      learn_pid (self, event->task.tid, event->task.tid);
      break;
    case JVMS_KERNEL_EVENT_PROCESS_EXIT:
      event->task.pid = lookup_pid (self, event->task.tid);
      break;
    case JVMS_KERNEL_EVENT_COMM:
      if (event->task.pid < 0)
        event->task.pid = lookup_pid (self, event->task.tid);
      learn_pid (self, event->task.tid, event->task.pid);
      break;
    default:
      break;
    }
}

static void
convert (JvmsCtfReader *self, Upstream *up, const bt_message *msg, gint64 time,
         JvmsKernelEvent *event)
{
  memset (event, 0, sizeof *event);
  event->time = time;
  event->cpu = up->cpu;
  event->pid = -1;
  event->tid = -1;

  switch (bt_message_get_type (msg))
    {
    case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
      {
        uint64_t count = 0;
        event->type = JVMS_KERNEL_EVENT_LOST;
        event->name = "discarded events";
        if (bt_message_discarded_events_get_count (msg, &count) == BT_PROPERTY_AVAILABILITY_AVAILABLE)
          event->lost.lost = count;
        self->discarded += event->lost.lost;
      }
      return;
    case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
      /* Whole packets missing (a gap in packet_seq_num): how many events is unknown. */
      event->type = JVMS_KERNEL_EVENT_LOST;
      event->name = "discarded packets";
      return;
    default:
      break;
    }

  const bt_event *bt_ev = bt_message_event_borrow_event_const (msg);
  const bt_event_class *cls = bt_event_borrow_class_const (bt_ev);
  const JvmsCtfEventKind *kind = event_kind (self, cls);
  event->type = kind->type;
  event->name = bt_event_class_get_name (cls);
  if (event->name == NULL)
    event->name = "(unnamed event)";
  if (self->flags & JVMS_CTF_READER_NAMES_ONLY)
    return;

  jvms_ctf_decode_payload (bt_event_borrow_payload_field_const (bt_ev), kind,
                           self->kernel_version, event);
  fill_identity (self, bt_ev, event);
}

gboolean
jvms_ctf_reader_next (JvmsCtfReader *self, JvmsKernelEvent *event, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  g_clear_pointer (&self->current, bt_message_put_ref);
  if (self->failed)
    return FALSE;
  if (!fill_heads (self, error))
    return FALSE;

  Upstream *best = NULL;
  gint64 best_time = 0;
  for (guint i = 0; i < self->upstreams->len; i++)
    {
      Upstream *up = &g_array_index (self->upstreams, Upstream, i);
      if (!has_head (up))
        continue;
      gint64 t = head_time (self, up);
      if (best == NULL || t < best_time)
        best = up, best_time = t;
    }
  if (best == NULL)
    return FALSE;

  const bt_message *msg;
  if (best->pending_lost != NULL)
    {
      msg = best->pending_lost;
      best->pending_lost = NULL;
    }
  else
    msg = best->msgs[best->pos++];
  best->head_known = FALSE;
  best->last_time = best_time;
  self->current = msg;
  convert (self, best, msg, best_time, event);

  if (!self->any_event)
    self->first_time = best_time;
  self->any_event = TRUE;
  self->last_time = best_time;
  return TRUE;
}

/* ---- Opening ---- */

/* Folders looked into before the search gives up: a session folder holds a few; a folder that
 * is not a trace (a home folder opened by mistake) must not be walked whole. */
#define TRACE_SEARCH_MAX_FOLDERS 10000

typedef struct
{
  GPtrArray  *found;
  GHashTable *seen;    /* "dev:ino" of the folders entered: a bind mount cannot loop */
  guint       budget;
} TraceSearch;

static void
find_traces (TraceSearch *search, const char *dir, guint depth)
{
  GStatBuf st;
  if (search->budget == 0 || g_stat (dir, &st) != 0)
    return;
  search->budget--;
  char *key = g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
                               (guint64) st.st_dev, (guint64) st.st_ino);
  if (!g_hash_table_add (search->seen, key))
    return;
  /* Whatever `metadata` is: the open says what is wrong with one that is not a file. */
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  GStatBuf mst;
  if (g_lstat (metadata, &mst) == 0)
    {
      g_ptr_array_add (search->found, g_strdup (dir));
      return;
    }
  if (depth == 0)
    return;
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  g_autoptr(GPtrArray) children = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL && children->len < search->budget)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        g_ptr_array_add (children, g_steal_pointer (&child));
    }
  g_ptr_array_sort (children, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < children->len; i++)
    find_traces (search, g_ptr_array_index (children, i), depth - 1);
}

GPtrArray *
jvms_ctf_find_traces (const char *folder)
{
  g_return_val_if_fail (folder != NULL, NULL);
  TraceSearch search = {
    .found = g_ptr_array_new_with_free_func (g_free),
    .seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
    .budget = TRACE_SEARCH_MAX_FOLDERS,
  };
  find_traces (&search, folder, TRACE_SEARCH_DEPTH);
  g_hash_table_unref (search.seen);
  return search.found;
}

static gboolean
folder_is_empty (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  return d != NULL && g_dir_read_name (d) == NULL;
}

/* The stream time range from the packet index, without reading any event. */
static void
query_ranges (JvmsCtfReader *self, const char * const *inputs)
{
  const bt_component_class_source *cls = jvms_ctf_bt_source_class (NULL);
  if (cls == NULL)
    return;
  bt_value *params = jvms_ctf_bt_inputs_params (inputs);
  bt_query_executor *query =
    bt_query_executor_create (bt_component_class_source_as_component_class_const (cls),
                              "babeltrace.trace-infos", params);
  bt_value_put_ref (params);
  if (query == NULL)
    {
      bt_current_thread_clear_error ();
      return;
    }
  const bt_value *result = NULL;
  if (bt_query_executor_query (query, &result) == BT_QUERY_EXECUTOR_QUERY_STATUS_OK
      && bt_value_get_type (result) == BT_VALUE_TYPE_ARRAY)
    {
      gboolean any = FALSE;
      for (guint64 t = 0; t < bt_value_array_get_length (result); t++)
        {
          const bt_value *trace = bt_value_array_borrow_element_by_index_const (result, t);
          const bt_value *streams = bt_value_get_type (trace) == BT_VALUE_TYPE_MAP
            ? bt_value_map_borrow_entry_value_const (trace, "stream-infos") : NULL;
          if (streams == NULL || bt_value_get_type (streams) != BT_VALUE_TYPE_ARRAY)
            continue;
          for (guint64 s = 0; s < bt_value_array_get_length (streams); s++)
            {
              const bt_value *stream = bt_value_array_borrow_element_by_index_const (streams, s);
              const bt_value *range = bt_value_get_type (stream) == BT_VALUE_TYPE_MAP
                ? bt_value_map_borrow_entry_value_const (stream, "range-ns") : NULL;
              if (range == NULL || bt_value_get_type (range) != BT_VALUE_TYPE_MAP)
                continue;
              const bt_value *begin = bt_value_map_borrow_entry_value_const (range, "begin");
              const bt_value *end = bt_value_map_borrow_entry_value_const (range, "end");
              if (begin == NULL || end == NULL
                  || bt_value_get_type (begin) != BT_VALUE_TYPE_SIGNED_INTEGER
                  || bt_value_get_type (end) != BT_VALUE_TYPE_SIGNED_INTEGER)
                continue;
              gint64 b = bt_value_integer_signed_get (begin);
              gint64 e = bt_value_integer_signed_get (end);
              if (!any || b < self->info.begin_ns)
                self->info.begin_ns = b;
              if (!any || e > self->info.end_ns)
                self->info.end_ns = e;
              any = TRUE;
            }
        }
    }
  else
    bt_current_thread_clear_error ();
  bt_value_put_ref (result);
  bt_query_executor_put_ref (query);
}

static gboolean
build_graph (JvmsCtfReader *self, const char * const *inputs, GError **error)
{
  self->graph = bt_graph_create (0);
  if (self->graph == NULL)
    g_error ("libbabeltrace2: out of memory");

  const bt_component_source *source = NULL;
  g_autofree char *why = NULL;
  if (!jvms_ctf_bt_add_source (self->graph, inputs, &source, &why, error))
    {
      if (why != NULL)
        g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_METADATA,
                     "%s: babeltrace2 cannot open the trace: %s", self->folder, why);
      return FALSE;
    }

  guint64 n_ports = bt_component_source_get_output_port_count (source);
  for (guint64 i = 0; i < n_ports; i++)
    {
      Upstream up = { 0 };
      up.cpu = -1;
      up.last_time = G_MININT64;
      up.name = g_strdup (bt_port_get_name (bt_port_output_as_port_const (
        bt_component_source_borrow_output_port_by_index_const (source, i))));
      g_array_append_val (self->upstreams, up);
    }
  self->info.n_streams = (guint) n_ports;

  self->sink_class = bt_component_class_sink_create ("jvmscope-merge", sink_consume);
  if (self->sink_class == NULL
      || bt_component_class_sink_set_initialize_method (self->sink_class, sink_initialize)
         != BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK
      || bt_component_class_sink_set_graph_is_configured_method (self->sink_class, sink_graph_is_configured)
         != BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK)
    g_error ("libbabeltrace2: out of memory");

  const bt_component_sink *sink = NULL;
  if (bt_graph_add_sink_component_with_initialize_method_data (self->graph, self->sink_class, "merge",
                                                               NULL, self, BT_LOGGING_LEVEL_NONE, &sink)
      != BT_GRAPH_ADD_COMPONENT_STATUS_OK)
    {
      g_autofree char *text = jvms_ctf_bt_take_error_text ();
      g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_BABELTRACE,
                   "%s: cannot set up the babeltrace2 graph: %s", self->folder, text);
      return FALSE;
    }
  for (guint64 i = 0; i < n_ports; i++)
    if (bt_graph_connect_ports (self->graph,
                                bt_component_source_borrow_output_port_by_index_const (source, i),
                                bt_component_sink_borrow_input_port_by_index_const (sink, i), NULL)
        != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
      {
        g_autofree char *text = jvms_ctf_bt_take_error_text ();
        g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_BABELTRACE,
                     "%s: cannot connect stream %" G_GUINT64_FORMAT ": %s", self->folder, i, text);
        return FALSE;
      }
  return TRUE;
}

JvmsCtfReader *
jvms_ctf_reader_open (const char *folder, JvmsCtfReaderFlags flags, GError **error)
{
  g_return_val_if_fail (folder != NULL, NULL);

  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_NOT_FOUND,
                   g_file_test (folder, G_FILE_TEST_EXISTS)
                   ? "%s: not a folder; an LTTng trace is a folder holding a metadata file"
                   : "%s: no such folder", folder);
      return NULL;
    }

  g_autoptr(JvmsCtfReader) self = g_new0 (JvmsCtfReader, 1);
  self->folder = g_strdup (folder);
  self->flags = flags;
  self->upstreams = g_array_new (FALSE, TRUE, sizeof (Upstream));
  self->kinds = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, kind_free);
  self->cpu_tid = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->tid_pid = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->strings = g_ptr_array_new_with_free_func (g_free);
  self->info.tracer_major = self->info.tracer_minor = self->info.tracer_patchlevel = -1;

  g_autoptr(GPtrArray) traces = jvms_ctf_find_traces (folder);
  if (traces->len == 0)
    {
      g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_NOT_FOUND,
                   folder_is_empty (folder)
                   ? "%s: the folder is empty: no CTF metadata file"
                   : "%s: no CTF metadata file in the folder or the three levels below it",
                   folder);
      return NULL;
    }
  /* babeltrace2 opens the metadata with a blocking fopen(): a named pipe there would hang
   * every probe until its time limit, and the reading for ever. */
  for (guint i = 0; i < traces->len; i++)
    {
      g_autofree char *metadata = g_build_filename (g_ptr_array_index (traces, i), "metadata", NULL);
      g_autoptr(GError) open_error = NULL;
      struct stat st;
      int fd = jvms_input_file_open (metadata, &st, &open_error);
      if (fd < 0)
        {
          g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_METADATA, "%s", open_error->message);
          return NULL;
        }
      close (fd);
    }
  g_ptr_array_add (traces, NULL);
  const char * const *inputs = (const char * const *) traces->pdata;

  if (jvms_ctf_bt_source_class (error) == NULL)
    return NULL;

  g_autofree char *too_large = jvms_ctf_metadata_too_large (inputs);
  if (too_large != NULL)
    {
      g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_METADATA, "%s", too_large);
      return NULL;
    }

  jvms_ctf_check_stream_files (inputs, self->warnings);

  /* A metadata file babeltrace2 cannot parse fails the open; a stream file it cannot index is
   * salvaged packet by packet into a temporary copy. */
  g_autofree char *why = NULL;
  g_auto(GStrv) repaired = NULL;
  /* Damage our own walk of the packets sees goes straight to the repair: babeltrace2 may loop
   * on it until the probe's time limit. */
  JvmsCtfProbeResult probe = JVMS_CTF_PROBE_FAILED;
  why = jvms_ctf_scan_damage (inputs);
  if (why == NULL)
    {
      probe = jvms_ctf_bt_probe_guarded (inputs);
      if (probe == JVMS_CTF_PROBE_FAILED)
        jvms_ctf_bt_probe (inputs, &why);
      else if (probe == JVMS_CTF_PROBE_HUNG)
        why = g_strdup_printf ("babeltrace2 did not finish indexing the stream files within %u "
                               "ms (a packet that declares a size of 0?)",
                               jvms_ctf_bt_probe_timeout_ms (inputs));
    }
  if (probe != JVMS_CTF_PROBE_OK)
    {
      g_autoptr(GError) repair_error = NULL;
      if (!jvms_ctf_repair_traces (inputs, why, &self->repair_dir, &repaired,
                                   self->warnings, NULL, &repair_error))
        {
          if (repair_error != NULL)
            g_propagate_error (error, g_steal_pointer (&repair_error));
          else
            g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_METADATA,
                         "%s: babeltrace2 cannot open the trace: %s", folder, why);
          return NULL;
        }
      inputs = (const char * const *) repaired;
      /* Each kept range was probed alone; the whole must pass too before it runs here. */
      if (jvms_ctf_bt_probe_guarded (inputs) != JVMS_CTF_PROBE_OK)
        {
          g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_STREAM,
                       "%s: babeltrace2 cannot open the trace even without its damaged packets: %s",
                       folder, why);
          return NULL;
        }
    }

  /* The query parses the metadata again: done first, its copy is gone before the graph's
   * is made, so that the two are never in memory at once. */
  query_ranges (self, inputs);
  if (!build_graph (self, inputs, error))
    return NULL;

  /* Warnings name the user's files, not the repaired copies. */
  if (repaired != NULL)
    for (guint i = 0; i < self->upstreams->len; i++)
      {
        Upstream *up = &g_array_index (self->upstreams, Upstream, i);
        g_autoptr(GString) name = g_string_new (up->name);
        for (guint t = 0; repaired[t] != NULL && t < traces->len; t++)
          g_string_replace (name, repaired[t], g_ptr_array_index (traces, t), 0);
        g_free (up->name);
        up->name = g_string_free (g_steal_pointer (&name), FALSE);
      }

  /* Read every stream's beginning now, so that the trace information is there at open. */
  if (!fill_heads (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

const JvmsCtfTraceInfo *
jvms_ctf_reader_get_info (JvmsCtfReader *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->info;
}

GPtrArray *
jvms_ctf_reader_get_warnings (JvmsCtfReader *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->warnings;
}

gint64
jvms_ctf_reader_get_first_time (JvmsCtfReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->any_event ? self->first_time : 0;
}

gint64
jvms_ctf_reader_get_last_time (JvmsCtfReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->any_event ? self->last_time : 0;
}

guint64
jvms_ctf_reader_get_discarded (JvmsCtfReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->discarded;
}

guint64
jvms_ctf_reader_get_n_unordered (JvmsCtfReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_unordered;
}
