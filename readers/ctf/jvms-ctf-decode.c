#include "jvms-ctf-decode.h"

#include <string.h>

#define KV(a, b, c) (((guint) (a) << 16) | ((guint) (b) << 8) | (guint) (c))

/* lttng-modules' block probes (instrumentation/events/block.h). */
enum
{
  RWBS_FLAG_WRITE    = 1 << 0,
  RWBS_FLAG_DISCARD  = 1 << 1,
  RWBS_FLAG_READ     = 1 << 2,
  RWBS_FLAG_RAHEAD   = 1 << 3,
  RWBS_FLAG_BARRIER  = 1 << 4,
  RWBS_FLAG_SYNC     = 1 << 5,
  RWBS_FLAG_META     = 1 << 6,
  RWBS_FLAG_SECURE   = 1 << 7,
  RWBS_FLAG_FLUSH    = 1 << 8,
  RWBS_FLAG_FUA      = 1 << 9,
  RWBS_FLAG_PREFLUSH = 1 << 10,
};

/* LTTng subtracts MAX_RT_PRIO from the prios of sched_switch (and only there); perf shows the
 * kernel's p->prio. */
#define LTTNG_SWITCH_PRIO_BIAS 100

void
jvms_ctf_event_kind_init (JvmsCtfEventKind *kind, const char *name)
{
  static const struct { const char *name; JvmsKernelEventType type; } exact[] = {
    { "sched_switch", JVMS_KERNEL_EVENT_SCHED_SWITCH },
    { "sched_waking", JVMS_KERNEL_EVENT_SCHED_WAKING },
    { "sched_wakeup", JVMS_KERNEL_EVENT_SCHED_WAKEUP },
    { "sched_wakeup_new", JVMS_KERNEL_EVENT_SCHED_WAKEUP_NEW },
    { "sched_migrate_task", JVMS_KERNEL_EVENT_SCHED_MIGRATE },
    { "sched_process_fork", JVMS_KERNEL_EVENT_PROCESS_FORK },
    { "sched_process_exec", JVMS_KERNEL_EVENT_PROCESS_EXEC },
    { "sched_process_exit", JVMS_KERNEL_EVENT_PROCESS_EXIT },
    { "lttng_statedump_process_state", JVMS_KERNEL_EVENT_COMM },
    { "task_rename", JVMS_KERNEL_EVENT_COMM },
    { "block_rq_insert", JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT },
    { "block_rq_issue", JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE },
    { "block_rq_complete", JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE },
    /* LTTng < 2.6: one exit event for every syscall, with its number. */
    { "exit_syscall", JVMS_KERNEL_EVENT_SYSCALL_EXIT },
  };
  /* LTTng >= 2.6 names the syscall in the event name; compat_ are 32-bit tasks. */
  static const struct { const char *prefix; JvmsKernelEventType type; } prefixes[] = {
    { "syscall_entry_", JVMS_KERNEL_EVENT_SYSCALL_ENTER },
    { "syscall_exit_", JVMS_KERNEL_EVENT_SYSCALL_EXIT },
    { "compat_syscall_entry_", JVMS_KERNEL_EVENT_SYSCALL_ENTER },
    { "compat_syscall_exit_", JVMS_KERNEL_EVENT_SYSCALL_EXIT },
    { "sys_", JVMS_KERNEL_EVENT_SYSCALL_ENTER }, /* LTTng < 2.6 entries */
  };

  kind->type = JVMS_KERNEL_EVENT_OTHER;
  kind->sys = NULL;
  if (name == NULL)
    return;

  for (gsize i = 0; i < G_N_ELEMENTS (exact); i++)
    if (strcmp (name, exact[i].name) == 0)
      {
        kind->type = exact[i].type;
        return;
      }
  for (gsize i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (name, prefixes[i].prefix))
      {
        const char *sys = name + strlen (prefixes[i].prefix);
        kind->type = prefixes[i].type;
        if (*sys != '\0' && strcmp (sys, "unknown") != 0)
          kind->sys = g_strdup (sys);
        return;
      }
}

void
jvms_ctf_event_kind_clear (JvmsCtfEventKind *kind)
{
  g_clear_pointer (&kind->sys, g_free);
}

guint
jvms_ctf_parse_kernel_release (const char *release)
{
  if (release == NULL)
    return 0;
  guint64 part[3] = { 0, 0, 0 };
  const char *p = release;
  for (guint i = 0; i < 3; i++)
    {
      char *end = NULL;
      if (!g_ascii_isdigit (*p))
        {
          if (i < 2)
            return 0;
          break;
        }
      part[i] = g_ascii_strtoull (p, &end, 10);
      p = end;
      if (*p != '.')
        {
          if (i < 1)
            return 0;
          break;
        }
      p++;
    }
  if (part[0] == 0 || part[0] > 255 || part[1] > 255)
    return 0;
  return KV (part[0], part[1], MIN (part[2], 255));
}

guint32
jvms_ctf_map_prev_state (gint64 raw, guint kernel_version)
{
  guint64 s = (guint64) raw;

  /* Unknown kernels are taken as current ones: what LTTng 2.10+ mostly runs on. */
  if (kernel_version == 0 || kernel_version >= KV (4, 14, 0))
    return (guint32) (s & 0x1ff);

  /* Raw task->state. S, D, T and t kept their bits in every version. */
  guint32 out = (guint32) (s & 0xf);
  guint64 exit_dead, exit_zombie;
  if (kernel_version >= KV (3, 14, 0))
    exit_dead = 16, exit_zombie = 32;
  else
    exit_zombie = 16, exit_dead = 32;
  guint64 task_dead = 64;
  guint64 parked = kernel_version >= KV (3, 9, 0) ? 512 : 0;
  guint64 noload = kernel_version >= KV (4, 2, 0) ? 1024 : 0;
  /* TASK_STATE_MAX, which lttng-modules ORs in when the task was preempted (3.13 to 4.13). */
  guint64 state_max = kernel_version >= KV (4, 8, 0) ? 4096
                    : kernel_version >= KV (4, 2, 0) ? 2048
                    : kernel_version >= KV (3, 9, 0) ? 1024
                    : 512;

  if (s & (exit_dead | task_dead))
    out |= JVMS_TASK_DEAD;
  if (s & exit_zombie)
    out |= JVMS_TASK_ZOMBIE;
  if (parked != 0 && (s & parked))
    out |= JVMS_TASK_PARKED;
  if (noload != 0 && (s & noload) && (out & JVMS_TASK_UNINTERRUPTIBLE))
    out = (out & ~(guint32) JVMS_TASK_UNINTERRUPTIBLE) | JVMS_TASK_IDLE;
  if (kernel_version >= KV (3, 13, 0) && (s & state_max))
    out |= JVMS_TASK_PREEMPTED;
  return out;
}

void
jvms_ctf_rwbs_text (guint64 flags, char *out, gsize out_size)
{
  char text[16];
  gsize i = 0;

  /* The order of the kernel's blk_fill_rwbs(). */
  if (flags & RWBS_FLAG_PREFLUSH)
    text[i++] = 'F';
  if (flags & RWBS_FLAG_WRITE)
    text[i++] = 'W';
  else if (flags & RWBS_FLAG_DISCARD)
    {
      text[i++] = 'D';
      if (flags & RWBS_FLAG_SECURE)
        text[i++] = 'E';
    }
  else if (flags & RWBS_FLAG_FLUSH)
    text[i++] = 'F';
  else if (flags & RWBS_FLAG_READ)
    text[i++] = 'R';
  else
    text[i++] = 'N';
  if (flags & RWBS_FLAG_FUA)
    text[i++] = 'F';
  if (flags & RWBS_FLAG_RAHEAD)
    text[i++] = 'A';
  if (flags & RWBS_FLAG_BARRIER)
    text[i++] = 'B';
  if (flags & RWBS_FLAG_SYNC)
    text[i++] = 'S';
  if (flags & RWBS_FLAG_META)
    text[i++] = 'M';
  text[i] = '\0';
  g_strlcpy (out, text, out_size);
}

const bt_field *
jvms_ctf_member (const bt_field *structure, const char *name)
{
  if (structure == NULL || bt_field_get_class_type (structure) != BT_FIELD_CLASS_TYPE_STRUCTURE)
    return NULL;
  return bt_field_structure_borrow_member_field_by_name_const (structure, name);
}

gboolean
jvms_ctf_field_int (const bt_field *field, gint64 *out)
{
  if (field == NULL)
    return FALSE;
  bt_field_class_type type = bt_field_get_class_type (field);
  if (bt_field_class_type_is (type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
    *out = (gint64) bt_field_integer_unsigned_get_value (field);
  else if (bt_field_class_type_is (type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
    *out = bt_field_integer_signed_get_value (field);
  else
    return FALSE;
  return TRUE;
}

gint64
jvms_ctf_member_int (const bt_field *structure, const char *name, gint64 fallback)
{
  gint64 value;
  if (jvms_ctf_field_int (jvms_ctf_member (structure, name), &value))
    return value;
  return fallback;
}

const char *
jvms_ctf_member_string (const bt_field *structure, const char *name)
{
  const bt_field *field = jvms_ctf_member (structure, name);
  if (field == NULL || bt_field_get_class_type (field) != BT_FIELD_CLASS_TYPE_STRING)
    return NULL;
  return bt_field_string_get_value (field);
}

/* Thread ids and CPUs are 32-bit in the kernel; anything else is damage, shown as unknown. */
static gint32
member_i32 (const bt_field *structure, const char *name)
{
  gint64 v = jvms_ctf_member_int (structure, name, -1);
  return v >= G_MININT32 && v <= G_MAXINT32 ? (gint32) v : -1;
}

static void
copy_comm (char dest[JVMS_KERNEL_COMM_LEN], const bt_field *structure, const char *name)
{
  const char *comm = jvms_ctf_member_string (structure, name);
  g_strlcpy (dest, comm != NULL ? comm : "", JVMS_KERNEL_COMM_LEN);
}

static gint32
switch_prio (const bt_field *payload, const char *name)
{
  gint32 prio = member_i32 (payload, name);
  return prio == -1 && jvms_ctf_member (payload, name) == NULL ? -1 : prio + LTTNG_SWITCH_PRIO_BIAS;
}

void
jvms_ctf_decode_payload (const bt_field *payload, const JvmsCtfEventKind *kind,
                         guint kernel_version, JvmsKernelEvent *event)
{
  switch (kind->type)
    {
    case JVMS_KERNEL_EVENT_SCHED_SWITCH:
      event->sched_switch.prev_tid = member_i32 (payload, "prev_tid");
      event->sched_switch.next_tid = member_i32 (payload, "next_tid");
      event->sched_switch.prev_prio = switch_prio (payload, "prev_prio");
      event->sched_switch.next_prio = switch_prio (payload, "next_prio");
      event->sched_switch.prev_state =
        jvms_ctf_map_prev_state (jvms_ctf_member_int (payload, "prev_state", 0), kernel_version);
      copy_comm (event->sched_switch.prev_comm, payload, "prev_comm");
      copy_comm (event->sched_switch.next_comm, payload, "next_comm");
      break;

    case JVMS_KERNEL_EVENT_SCHED_WAKING:
    case JVMS_KERNEL_EVENT_SCHED_WAKEUP:
    case JVMS_KERNEL_EVENT_SCHED_WAKEUP_NEW:
      event->wakeup.tid = member_i32 (payload, "tid");
      event->wakeup.target_cpu = member_i32 (payload, "target_cpu");
      event->wakeup.in_irq = -1; /* LTTng records no trace flags with it */
      copy_comm (event->wakeup.comm, payload, "comm");
      break;

    case JVMS_KERNEL_EVENT_SCHED_MIGRATE:
      event->migrate.tid = member_i32 (payload, "tid");
      event->migrate.orig_cpu = member_i32 (payload, "orig_cpu");
      event->migrate.dest_cpu = member_i32 (payload, "dest_cpu");
      copy_comm (event->migrate.comm, payload, "comm");
      break;

    case JVMS_KERNEL_EVENT_PROCESS_FORK:
      /* parent_pid and child_pid exist since lttng-modules 2.4; the reader fills the
       * parent's pid from what it knows when they are absent. */
      event->fork.parent_tid = member_i32 (payload, "parent_tid");
      event->fork.parent_pid = member_i32 (payload, "parent_pid");
      event->fork.child_tid = member_i32 (payload, "child_tid");
      event->fork.child_pid = member_i32 (payload, "child_pid");
      copy_comm (event->fork.child_comm, payload, "child_comm");
      break;

    case JVMS_KERNEL_EVENT_PROCESS_EXEC:
      {
        /* lttng-modules < 2.4 called the thread "pid". */
        gint32 tid = member_i32 (payload, "tid");
        if (tid == -1)
          tid = member_i32 (payload, "pid");
        event->task.tid = tid;
        event->task.pid = -1;
        event->task.filename = jvms_ctf_member_string (payload, "filename");
        /* The kernel names the task after the file's last component. */
        const char *base = event->task.filename != NULL ? strrchr (event->task.filename, '/') : NULL;
        g_strlcpy (event->task.comm,
                   base != NULL ? base + 1 : (event->task.filename != NULL ? event->task.filename : ""),
                   JVMS_KERNEL_COMM_LEN);
      }
      break;

    case JVMS_KERNEL_EVENT_PROCESS_EXIT:
      event->task.tid = member_i32 (payload, "tid");
      event->task.pid = -1;
      event->task.filename = NULL;
      copy_comm (event->task.comm, payload, "comm");
      break;

    case JVMS_KERNEL_EVENT_COMM:
      /* lttng_statedump_process_state (tid, pid, name) or task_rename (tid, newcomm). */
      event->task.tid = member_i32 (payload, "tid");
      event->task.pid = member_i32 (payload, "pid");
      event->task.filename = NULL;
      if (jvms_ctf_member (payload, "name") != NULL)
        copy_comm (event->task.comm, payload, "name");
      else
        copy_comm (event->task.comm, payload, "newcomm");
      break;

    case JVMS_KERNEL_EVENT_SYSCALL_ENTER:
    case JVMS_KERNEL_EVENT_SYSCALL_EXIT:
      /* Only LTTng < 2.6 and the *_unknown events carry the number. */
      event->syscall.id = jvms_ctf_member_int (payload, "id", -1);
      event->syscall.sys = kind->sys;
      event->syscall.ret = kind->type == JVMS_KERNEL_EVENT_SYSCALL_EXIT
                         ? jvms_ctf_member_int (payload, "ret", 0) : 0;
      break;

    case JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT:
    case JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE:
    case JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE:
      {
        gint64 dev = jvms_ctf_member_int (payload, "dev", 0);
        gint64 sector = jvms_ctf_member_int (payload, "sector", 0);
        gint64 nr = jvms_ctf_member_int (payload, "nr_sector", 0);
        event->block.dev = (guint32) dev;
        event->block.sector = (guint64) sector;
        event->block.nr_sector = (guint32) nr;
        const char *text = jvms_ctf_member_string (payload, "rwbs");
        if (text != NULL)
          g_strlcpy (event->block.rwbs, text, sizeof event->block.rwbs);
        else
          jvms_ctf_rwbs_text ((guint64) jvms_ctf_member_int (payload, "rwbs", 0),
                              event->block.rwbs, sizeof event->block.rwbs);
      }
      break;

    case JVMS_KERNEL_EVENT_COUNTER_SAMPLE:
    case JVMS_KERNEL_EVENT_LOST:
    case JVMS_KERNEL_EVENT_OTHER:
    default:
      break;
    }
}
