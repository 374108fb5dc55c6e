/* perf-decode.c: kernel records (samples, COMM, FORK, EXIT, LOST...) into JvmsKernelEvents.
 * Every field is read with memcpy after a bounds check: RAW payloads are only 4-byte aligned and
 * every size comes from the file. */
#include "perf-private.h"

#include <string.h>

#include "perf-syscalls.h"

static inline guint64
rd64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return v;
}

static inline guint32
rd32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return v;
}

const char *
perf_record_type_name (guint32 type)
{
  static const char *const names[] = {
    [PERF_RECORD_MMAP] = "PERF_RECORD_MMAP",
    [PERF_RECORD_LOST] = "PERF_RECORD_LOST",
    [PERF_RECORD_COMM] = "PERF_RECORD_COMM",
    [PERF_RECORD_EXIT] = "PERF_RECORD_EXIT",
    [PERF_RECORD_THROTTLE] = "PERF_RECORD_THROTTLE",
    [PERF_RECORD_UNTHROTTLE] = "PERF_RECORD_UNTHROTTLE",
    [PERF_RECORD_FORK] = "PERF_RECORD_FORK",
    [PERF_RECORD_READ] = "PERF_RECORD_READ",
    [PERF_RECORD_SAMPLE] = "PERF_RECORD_SAMPLE",
    [PERF_RECORD_MMAP2] = "PERF_RECORD_MMAP2",
    [PERF_RECORD_AUX] = "PERF_RECORD_AUX",
    [PERF_RECORD_ITRACE_START] = "PERF_RECORD_ITRACE_START",
    [PERF_RECORD_LOST_SAMPLES] = "PERF_RECORD_LOST_SAMPLES",
    [PERF_RECORD_SWITCH] = "PERF_RECORD_SWITCH",
    [PERF_RECORD_SWITCH_CPU_WIDE] = "PERF_RECORD_SWITCH_CPU_WIDE",
    [PERF_RECORD_NAMESPACES] = "PERF_RECORD_NAMESPACES",
    [PERF_RECORD_KSYMBOL] = "PERF_RECORD_KSYMBOL",
    [PERF_RECORD_BPF_EVENT] = "PERF_RECORD_BPF_EVENT",
    [PERF_RECORD_CGROUP] = "PERF_RECORD_CGROUP",
    [PERF_RECORD_TEXT_POKE] = "PERF_RECORD_TEXT_POKE",
    [PERF_RECORD_AUX_OUTPUT_HW_ID] = "PERF_RECORD_AUX_OUTPUT_HW_ID",
  };
  if (type < G_N_ELEMENTS (names))
    return names[type];
  return NULL;
}

static PerfIdSlot *
slot_of (JvmsPerfReader *self, guint64 id)
{
  /* Every record needs its id looked up, twice: a few ids (events x CPUs) do all the work. */
  guint k = (guint) (id % PERF_SLOT_CACHE);
  if (self->slot_cache[k] != NULL && self->slot_cache[k]->id == id)
    return self->slot_cache[k];
  PerfIdSlot *slot = g_hash_table_lookup (self->id_to_slot, &id);
  if (slot != NULL)
    self->slot_cache[k] = slot;
  return slot;
}

PerfAttr *
perf_decode_attr_of (JvmsPerfReader *self, const guint8 *rec, gsize size)
{
  if (self->n_attrs == 1)
    return &self->attrs[0];
  guint32 type = rd32 (rec);
  gsize off;
  if (type == PERF_RECORD_SAMPLE)
    {
      if (self->sample_id_pos < 0)
        return &self->attrs[0];
      off = 8 + (gsize) self->sample_id_pos * 8;
      if (off > size || size - off < 8)
        return NULL;
    }
  else
    {
      if (self->trailer_id_pos < 0)
        return &self->attrs[0];
      gsize back = (gsize) self->trailer_id_pos * 8;
      if (size < 8 + back)
        return NULL;
      off = size - back;
    }
  PerfIdSlot *slot = slot_of (self, rd64 (rec + off));
  return slot != NULL ? slot->attr : NULL;
}

#define ID_TRAILER_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
                         PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* The sample_id trailer of a non-sample record whose fixed body is @body bytes. */
static gboolean
parse_trailer (const PerfAttr *a, const guint8 *rec, gsize size, gsize body, PerfSample *s)
{
  if (a == NULL || !a->attr.sample_id_all)
    return FALSE;
  guint64 t = a->attr.sample_type;
  gsize n = (gsize) __builtin_popcountll (t & ID_TRAILER_BITS) * 8;
  if (size < 8 + body || size - 8 - body < n)
    return FALSE;
  const guint8 *p = rec + size - n;
  if (t & PERF_SAMPLE_TID)
    {
      s->pid = (gint32) rd32 (p);
      s->tid = (gint32) rd32 (p + 4);
      p += 8;
    }
  if (t & PERF_SAMPLE_TIME)
    {
      s->time = rd64 (p);
      s->has_time = TRUE;
      p += 8;
    }
  if (t & PERF_SAMPLE_ID)
    {
      s->id = rd64 (p);
      p += 8;
    }
  if (t & PERF_SAMPLE_STREAM_ID)
    p += 8;
  if (t & PERF_SAMPLE_CPU)
    s->cpu = (gint32) rd32 (p);
  return TRUE;
}

/* The body of PERF_SAMPLE_READ, laid out by the attr's read_format (perf_event_open(2)):
 *   PERF_FORMAT_GROUP:  u64 nr; [u64 time_enabled]; [u64 time_running];
 *                       then nr entries { u64 value; [u64 id]; [u64 lost] }
 *   alone:              one entry { u64 value; [u64 time_enabled]; [u64 time_running];
 *                       [u64 id]; [u64 lost] }
 * Every reader of a read walks it through this: where the entries start, their size, and
 * where an entry's id is. */
typedef struct
{
  gboolean group;
  gboolean has_id;  /* PERF_FORMAT_ID: an entry names its counter */
  gsize    head;    /* bytes before the first entry: nr and the times of a group */
  gsize    entry;   /* bytes from one entry to the next; its value is its first u64 */
  gsize    id_at;   /* the id's offset in an entry, when has_id */
} PerfReadLayout;

static PerfReadLayout
read_layout (guint64 rf)
{
  gsize times = 8 * (((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) ? 1 : 0)
                     + ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) ? 1 : 0));
  gsize after_value = 8 * (((rf & PERF_FORMAT_ID) ? 1 : 0) + ((rf & PERF_FORMAT_LOST) ? 1 : 0));
  PerfReadLayout l = { .group = (rf & PERF_FORMAT_GROUP) != 0, .has_id = (rf & PERF_FORMAT_ID) != 0 };
  if (l.group)
    {
      l.head = 8 + times;
      l.entry = 8 + after_value;
      l.id_at = 8;
    }
  else
    {
      l.head = 0;
      l.entry = 8 + times + after_value;
      l.id_at = 8 + times;
    }
  return l;
}

/* The bytes of the read at @p, which has @avail bytes after it; 0 when it does not fit. */
static gsize
read_size (PerfReadLayout l, const guint8 *p, gsize avail)
{
  if (!l.group)
    return avail >= l.entry ? l.entry : 0;
  if (avail < l.head)
    return 0;
  guint64 nr = rd64 (p);
  if (nr > (avail - l.head) / l.entry)
    return 0;
  return l.head + (gsize) nr * l.entry;
}

/* The read's entries, of a read that read_size measured. */
static inline guint64
read_count (PerfReadLayout l, const guint8 *read)
{
  return l.group ? rd64 (read) : 1;
}

static inline const guint8 *
read_entry (PerfReadLayout l, const guint8 *read, guint64 i)
{
  return read + l.head + (gsize) i * l.entry;
}

/* Fields of a sample in sample_type order, up to RAW: nothing after it is used. */
static gboolean
parse_sample (const PerfAttr *a, const guint8 *rec, gsize size, PerfSample *s)
{
  guint64 t = a->attr.sample_type;
  gsize pos = 8;
#define NEED(n) G_STMT_START { if (size - pos < (gsize) (n)) return FALSE; } G_STMT_END
  if (t & PERF_SAMPLE_IDENTIFIER)
    {
      NEED (8);
      s->id = rd64 (rec + pos);
      pos += 8;
    }
  if (t & PERF_SAMPLE_IP)
    {
      NEED (8);
      pos += 8;
    }
  if (t & PERF_SAMPLE_TID)
    {
      NEED (8);
      s->pid = (gint32) rd32 (rec + pos);
      s->tid = (gint32) rd32 (rec + pos + 4);
      pos += 8;
    }
  if (t & PERF_SAMPLE_TIME)
    {
      NEED (8);
      s->time = rd64 (rec + pos);
      s->has_time = TRUE;
      pos += 8;
    }
  if (t & PERF_SAMPLE_ADDR)
    {
      NEED (8);
      pos += 8;
    }
  if (t & PERF_SAMPLE_ID)
    {
      NEED (8);
      s->id = rd64 (rec + pos);
      pos += 8;
    }
  if (t & PERF_SAMPLE_STREAM_ID)
    {
      NEED (8);
      pos += 8;
    }
  if (t & PERF_SAMPLE_CPU)
    {
      NEED (8);
      s->cpu = (gint32) rd32 (rec + pos);
      pos += 8;
    }
  if (t & PERF_SAMPLE_PERIOD)
    {
      NEED (8);
      s->period = rd64 (rec + pos);
      pos += 8;
    }
  if (t & PERF_SAMPLE_READ)
    {
      gsize n = read_size (read_layout (a->attr.read_format), rec + pos, size - pos);
      if (n == 0)
        return FALSE;
      s->read = rec + pos;
      s->read_size = n;
      pos += n;
    }
  if (t & PERF_SAMPLE_CALLCHAIN)
    {
      NEED (8);
      guint64 nr = rd64 (rec + pos);
      if (nr > (size - pos - 8) / 8)
        return FALSE;
      pos += 8 + (gsize) nr * 8;
    }
  if (t & PERF_SAMPLE_RAW)
    {
      NEED (4);
      guint32 n = rd32 (rec + pos);
      pos += 4;
      NEED (n);
      s->raw = rec + pos;
      s->raw_size = n;
      pos += n;
    }
#undef NEED
  return TRUE;
}

guint64
perf_decode_time (JvmsPerfReader *self, const guint8 *rec, gsize size)
{
  const PerfAttr *a = perf_decode_attr_of (self, rec, size);
  if (a == NULL)
    return 0;
  guint64 t = a->attr.sample_type;
  if (!(t & PERF_SAMPLE_TIME))
    return 0;
  if (rd32 (rec) == PERF_RECORD_SAMPLE)
    {
      gsize off = 8 + 8 * (((t & PERF_SAMPLE_IDENTIFIER) ? 1 : 0) + ((t & PERF_SAMPLE_IP) ? 1 : 0)
                           + ((t & PERF_SAMPLE_TID) ? 1 : 0));
      return size >= off + 8 ? rd64 (rec + off) : 0;
    }
  if (!a->attr.sample_id_all)
    return 0;
  gsize n = (gsize) __builtin_popcountll (t & ID_TRAILER_BITS) * 8;
  gsize back = n - ((t & PERF_SAMPLE_TID) ? 8 : 0);
  return size >= 8 + n ? rd64 (rec + size - back) : 0;
}

static JvmsKernelEvent *
emit (JvmsPerfReader *self, JvmsKernelEventType type, const char *name, const PerfSample *s)
{
  if (self->n_out >= PERF_OUT_MAX)
    return NULL;
  JvmsKernelEvent *ev = &self->out[self->n_out++];
  memset (ev, 0, sizeof *ev);
  ev->type = type;
  ev->name = name;
  ev->time = (gint64) s->time;
  ev->cpu = s->cpu;
  ev->pid = s->pid;
  ev->tid = s->tid;
  return ev;
}

static void
note_bad_sample (JvmsPerfReader *self, guint64 offset)
{
  if (self->n_bad_samples++ == 0)
    self->first_bad_sample_offset = offset;
}

static void
note_unknown_id (JvmsPerfReader *self, guint64 offset)
{
  if (self->n_unknown_id++ == 0)
    self->first_unknown_id_offset = offset;
}

/* Whether a sample of a group that tracepoint @a leads repeats the one before: the leader's own
 * count, which is its hits, has not moved since its last read. perf record can write the same
 * sample twice (two identical records, seen in a file of the perf-reader test's fixture), and
 * perf script, which takes the leader's period from that count, shows it once; a hit of the
 * tracepoint always moves it. */
static gboolean
repeats_last_read (JvmsPerfReader *self, const PerfAttr *a, const PerfSample *s)
{
  PerfReadLayout l = read_layout (a->attr.read_format);
  if (a->attr.type != PERF_TYPE_TRACEPOINT || !l.group || !l.has_id)
    return FALSE;
  guint64 nr = read_count (l, s->read);
  for (guint64 i = 0; i < nr; i++)
    {
      const guint8 *e = read_entry (l, s->read, i);
      PerfIdSlot *slot = slot_of (self, rd64 (e + l.id_at));
      if (slot != NULL && slot->attr == a)
        return slot->seen && rd64 (e) == slot->last_value;
    }
  return FALSE;
}

/* PERF_SAMPLE_READ: like perf, one event per counter whose value moved since its last read;
 * every counter of a group a tracepoint leads, moved or not (a sched_switch's reads: a run
 * without a page fault has 0 of them, not an unknown number; whether the tracepoint's format
 * is known or not, so that a file without it gives the same events). A tracepoint's own count
 * in the group is its hits, which the tracepoint's event says: it is left out. */
static void
decode_read (JvmsPerfReader *self, const PerfAttr *a, const PerfSample *s, guint64 offset)
{
  gboolean at_switch = a->attr.type == PERF_TYPE_TRACEPOINT && a->tp != NULL
                       && a->tp->type == JVMS_KERNEL_EVENT_SCHED_SWITCH;
  gboolean led = a->attr.type == PERF_TYPE_TRACEPOINT;
  /* The run a switch's reads end is its prev's: the sample's own tid is -1 for a thread that
   * is exiting (its pid is already detached), and the reads still count its run. */
  gint32 prev_tid = at_switch && s->raw != NULL
                      ? (gint32) perf_field_read_int (&a->tp->fields[TP_SWITCH_PREV_PID], s->raw, s->raw_size, -1)
                      : -1;
  PerfReadLayout l = read_layout (a->attr.read_format);
  guint64 nr = read_count (l, s->read);
  for (guint64 i = 0; i < nr; i++)
    {
      const guint8 *e = read_entry (l, s->read, i);
      guint64 value = rd64 (e);
      if (!l.has_id)
        {
          note_unknown_id (self, offset);
          continue;
        }
      PerfIdSlot *slot = slot_of (self, rd64 (e + l.id_at));
      if (slot == NULL)
        {
          note_unknown_id (self, offset);
          continue;
        }
      guint64 delta = value - slot->last_value;
      slot->last_value = value;
      slot->seen = TRUE;
      if ((delta == 0 && !led) || (slot->attr == a && led))
        continue;
      JvmsKernelEvent *ev = emit (self, JVMS_KERNEL_EVENT_COUNTER_SAMPLE, slot->attr->name, s);
      if (ev == NULL)
        return;
      ev->counter.counter = slot->attr->counter;
      ev->counter.period = delta;
      ev->counter.value = value;
      ev->counter.at_switch = at_switch;
      ev->counter.prev_tid = prev_tid;
    }
}

static void
decode_tracepoint (JvmsPerfReader *self, const PerfAttr *a, const PerfSample *s)
{
  const PerfTpDecoder *tp = a->tp;
  if ((self->flags & JVMS_PERF_READER_NAMES_ONLY) || tp == NULL
      || tp->type == JVMS_KERNEL_EVENT_OTHER || s->raw == NULL)
    {
      emit (self, JVMS_KERNEL_EVENT_OTHER, a->name, s);
      return;
    }
  JvmsKernelEvent *ev = emit (self, tp->type, a->name, s);
  if (ev == NULL)
    return;
  const guint8 *raw = s->raw;
  gsize rs = s->raw_size;
  const PerfField *f = tp->fields;

  switch (tp->type)
    {
    case JVMS_KERNEL_EVENT_SCHED_SWITCH:
      {
        perf_field_read_str (&f[TP_SWITCH_PREV_COMM], raw, rs, ev->sched_switch.prev_comm, JVMS_KERNEL_COMM_LEN);
        perf_field_read_str (&f[TP_SWITCH_NEXT_COMM], raw, rs, ev->sched_switch.next_comm, JVMS_KERNEL_COMM_LEN);
        ev->sched_switch.prev_tid = (gint32) perf_field_read_int (&f[TP_SWITCH_PREV_PID], raw, rs, -1);
        ev->sched_switch.next_tid = (gint32) perf_field_read_int (&f[TP_SWITCH_NEXT_PID], raw, rs, -1);
        ev->sched_switch.prev_prio = (gint32) perf_field_read_int (&f[TP_SWITCH_PREV_PRIO], raw, rs, -1);
        ev->sched_switch.next_prio = (gint32) perf_field_read_int (&f[TP_SWITCH_NEXT_PRIO], raw, rs, -1);
        guint64 state = (guint64) perf_field_read_int (&f[TP_SWITCH_PREV_STATE], raw, rs, 0);
        guint32 norm = 0;
        for (guint bit = 0; bit < 32; bit++)
          if (state & (G_GUINT64_CONSTANT (1) << bit))
            norm |= tp->state_map[bit];
        if (state & tp->preempt_bit)
          norm |= JVMS_TASK_PREEMPTED;
        ev->sched_switch.prev_state = norm;
        break;
      }
    case JVMS_KERNEL_EVENT_SCHED_WAKING:
    case JVMS_KERNEL_EVENT_SCHED_WAKEUP:
    case JVMS_KERNEL_EVENT_SCHED_WAKEUP_NEW:
      perf_field_read_str (&f[TP_WAKE_COMM], raw, rs, ev->wakeup.comm, JVMS_KERNEL_COMM_LEN);
      ev->wakeup.tid = (gint32) perf_field_read_int (&f[TP_WAKE_PID], raw, rs, -1);
      ev->wakeup.target_cpu = (gint32) perf_field_read_int (&f[TP_WAKE_TARGET_CPU], raw, rs, -1);
      {
        /* The kernel's trace flags: TRACE_FLAG_HARDIRQ 0x08, SOFTIRQ 0x10, NMI 0x40. */
        gint64 flags = perf_field_read_int (&f[TP_WAKE_FLAGS], raw, rs, -1);
        ev->wakeup.in_irq = flags < 0 ? -1 : (flags & 0x58) != 0;
      }
      break;
    case JVMS_KERNEL_EVENT_SCHED_MIGRATE:
      perf_field_read_str (&f[TP_MIGRATE_COMM], raw, rs, ev->migrate.comm, JVMS_KERNEL_COMM_LEN);
      ev->migrate.tid = (gint32) perf_field_read_int (&f[TP_MIGRATE_PID], raw, rs, -1);
      ev->migrate.orig_cpu = (gint32) perf_field_read_int (&f[TP_MIGRATE_ORIG_CPU], raw, rs, -1);
      ev->migrate.dest_cpu = (gint32) perf_field_read_int (&f[TP_MIGRATE_DEST_CPU], raw, rs, -1);
      break;
    case JVMS_KERNEL_EVENT_PROCESS_FORK:
      /* The tracepoint names threads only: the child's process is not known here (a FORK
       * record says it). */
      ev->fork.parent_pid = s->pid;
      ev->fork.parent_tid = (gint32) perf_field_read_int (&f[TP_FORK_PARENT_PID], raw, rs, -1);
      ev->fork.child_pid = -1;
      ev->fork.child_tid = (gint32) perf_field_read_int (&f[TP_FORK_CHILD_PID], raw, rs, -1);
      perf_field_read_str (&f[TP_FORK_CHILD_COMM], raw, rs, ev->fork.child_comm, JVMS_KERNEL_COMM_LEN);
      break;
    case JVMS_KERNEL_EVENT_PROCESS_EXEC:
      ev->task.pid = s->pid;
      ev->task.tid = (gint32) perf_field_read_int (&f[TP_EXEC_PID], raw, rs, -1);
      if (perf_field_read_str (&f[TP_EXEC_FILENAME], raw, rs, self->filename, sizeof self->filename) >= 0)
        ev->task.filename = self->filename;
      break;
    case JVMS_KERNEL_EVENT_PROCESS_EXIT:
      ev->task.pid = s->pid;
      ev->task.tid = (gint32) perf_field_read_int (&f[TP_EXIT_PID], raw, rs, -1);
      perf_field_read_str (&f[TP_EXIT_COMM], raw, rs, ev->task.comm, JVMS_KERNEL_COMM_LEN);
      break;
    case JVMS_KERNEL_EVENT_SYSCALL_ENTER:
    case JVMS_KERNEL_EVENT_SYSCALL_EXIT:
      ev->syscall.id = perf_field_read_int (&f[TP_SYS_ID], raw, rs, -1);
      ev->syscall.sys = perf_syscall_name (ev->syscall.id);
      if (tp->type == JVMS_KERNEL_EVENT_SYSCALL_EXIT)
        ev->syscall.ret = perf_field_read_int (&f[TP_SYS_RET], raw, rs, 0);
      break;
    case JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT:
    case JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE:
    case JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE:
      ev->block.dev = (guint32) perf_field_read_int (&f[TP_BLOCK_DEV], raw, rs, 0);
      ev->block.sector = (guint64) perf_field_read_int (&f[TP_BLOCK_SECTOR], raw, rs, 0);
      ev->block.nr_sector = (guint32) perf_field_read_int (&f[TP_BLOCK_NR_SECTOR], raw, rs, 0);
      perf_field_read_str (&f[TP_BLOCK_RWBS], raw, rs, ev->block.rwbs, sizeof ev->block.rwbs);
      break;
    default:
      break;
    }
}

static void
decode_sample (JvmsPerfReader *self, const guint8 *rec, gsize size, guint64 offset)
{
  PerfAttr *a = perf_decode_attr_of (self, rec, size);
  if (a == NULL)
    {
      note_unknown_id (self, offset);
      return;
    }
  PerfSample s = { .pid = -1, .tid = -1, .cpu = -1 };
  if (!a->usable || !parse_sample (a, rec, size, &s))
    {
      note_bad_sample (self, offset);
      return;
    }
  /* A tracepoint that leads a group is both: the counters read first (they were read in the
   * context of the thread being switched out), then the tracepoint. */
  if ((a->attr.sample_type & PERF_SAMPLE_READ) && repeats_last_read (self, a, &s))
    return;
  if (a->attr.sample_type & PERF_SAMPLE_READ)
    decode_read (self, a, &s, offset);
  if (a->attr.type == PERF_TYPE_TRACEPOINT)
    decode_tracepoint (self, a, &s);
  else if (!(a->attr.sample_type & PERF_SAMPLE_READ))
    {
      JvmsKernelEvent *ev = emit (self, JVMS_KERNEL_EVENT_COUNTER_SAMPLE, a->name, &s);
      if (ev == NULL)
        return;
      ev->counter.counter = a->counter;
      ev->counter.period = (a->attr.sample_type & PERF_SAMPLE_PERIOD) ? s.period : a->attr.sample_period;
    }
}

static void
copy_comm (char *out, const guint8 *p, gsize avail)
{
  gsize n = strnlen ((const char *) p, MIN (avail, (gsize) JVMS_KERNEL_COMM_LEN - 1));
  memcpy (out, p, n);
  out[n] = '\0';
}

void
perf_decode_record (JvmsPerfReader *self, const guint8 *rec, gsize size, guint64 offset)
{
  guint32 type = rd32 (rec);
  self->n_out = 0;
  self->out_pos = 0;

  if (type == PERF_RECORD_SAMPLE)
    {
      decode_sample (self, rec, size, offset);
      return;
    }

  const char *name = perf_record_type_name (type);
  PerfAttr *a = perf_decode_attr_of (self, rec, size);
  PerfSample s = { .pid = -1, .tid = -1, .cpu = -1 };
  gboolean names_only = (self->flags & JVMS_PERF_READER_NAMES_ONLY) != 0;

  switch (type)
    {
    case PERF_RECORD_COMM:
      {
        /* u32 pid, tid; char comm[] padded to 8; then the trailer. */
        gsize n = a != NULL && a->attr.sample_id_all
          ? (gsize) __builtin_popcountll (a->attr.sample_type & ID_TRAILER_BITS) * 8 : 0;
        if (size < 16 + n)
          break;
        parse_trailer (a, rec, size, 8, &s);
        JvmsKernelEvent *ev = emit (self, JVMS_KERNEL_EVENT_COMM, name, &s);
        if (ev == NULL)
          return;
        ev->task.pid = (gint32) rd32 (rec + 8);
        ev->task.tid = (gint32) rd32 (rec + 12);
        if (ev->pid < 0)
          {
            ev->pid = ev->task.pid;
            ev->tid = ev->task.tid;
          }
        if (!names_only)
          copy_comm (ev->task.comm, rec + 16, size - 16 - n);
        return;
      }
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
      {
        /* u32 pid, ppid, tid, ptid; u64 time; then the trailer. */
        if (size < 32)
          break;
        /* The body's own time is ignored, as perf does: ordering uses the trailer's. */
        parse_trailer (a, rec, size, 24, &s);
        JvmsKernelEvent *ev = emit (self, type == PERF_RECORD_FORK ? JVMS_KERNEL_EVENT_PROCESS_FORK
                                                                   : JVMS_KERNEL_EVENT_PROCESS_EXIT,
                                    name, &s);
        if (ev == NULL)
          return;
        gint32 pid = (gint32) rd32 (rec + 8), ppid = (gint32) rd32 (rec + 12);
        gint32 tid = (gint32) rd32 (rec + 16), ptid = (gint32) rd32 (rec + 20);
        if (type == PERF_RECORD_FORK)
          {
            ev->fork.parent_pid = ppid;
            ev->fork.parent_tid = ptid;
            ev->fork.child_pid = pid;
            ev->fork.child_tid = tid;
          }
        else
          {
            ev->task.pid = pid;
            ev->task.tid = tid;
          }
        return;
      }
    case PERF_RECORD_LOST:
      {
        /* u64 id, lost; then the trailer. */
        if (size < 24)
          break;
        parse_trailer (a, rec, size, 16, &s);
        JvmsKernelEvent *ev = emit (self, JVMS_KERNEL_EVENT_LOST, name, &s);
        if (ev == NULL)
          return;
        ev->lost.lost = rd64 (rec + 16);
        self->lost += ev->lost.lost;
        return;
      }
    case PERF_RECORD_LOST_SAMPLES:
      {
        if (size < 16)
          break;
        parse_trailer (a, rec, size, 8, &s);
        self->lost_samples += rd64 (rec + 8);
        emit (self, JVMS_KERNEL_EVENT_OTHER, name, &s);
        return;
      }
    default:
      break;
    }

  /* Other kernel records, or a known one too short for its body: delivered by name. */
  if (name == NULL)
    return;
  parse_trailer (a, rec, size, 0, &s);
  emit (self, JVMS_KERNEL_EVENT_OTHER, name, &s);
}
