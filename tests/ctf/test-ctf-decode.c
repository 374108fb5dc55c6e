/* The value mappings of the CTF reader, against the kernel's and lttng-modules' definitions. */
#include "jvms-ctf-decode.h"

#define KV(a, b, c) (((guint) (a) << 16) | ((guint) (b) << 8) | (guint) (c))

static void
test_kernel_release (void)
{
  g_assert_cmpuint (jvms_ctf_parse_kernel_release ("3.6.11-1-ARCH"), ==, KV (3, 6, 11));
  g_assert_cmpuint (jvms_ctf_parse_kernel_release ("5.15.0-91-generic"), ==, KV (5, 15, 0));
  g_assert_cmpuint (jvms_ctf_parse_kernel_release ("6.1"), ==, KV (6, 1, 0));
  g_assert_cmpuint (jvms_ctf_parse_kernel_release ("4.14.300+"), ==, KV (4, 14, 255));
  g_assert_cmpuint (jvms_ctf_parse_kernel_release ("6"), ==, 0);
  g_assert_cmpuint (jvms_ctf_parse_kernel_release ("linux"), ==, 0);
  g_assert_cmpuint (jvms_ctf_parse_kernel_release (""), ==, 0);
  g_assert_cmpuint (jvms_ctf_parse_kernel_release (NULL), ==, 0);
  g_assert_cmpuint (jvms_ctf_parse_kernel_release ("99999999999999999999.1"), ==, 0);
}

static void
test_prev_state (void)
{
  /* 4.14 and later, and unknown kernels: TASK_REPORT bits, 0x100 when preempted. */
  guint modern[] = { 0, KV (4, 14, 0), KV (6, 1, 0) };
  for (guint i = 0; i < G_N_ELEMENTS (modern); i++)
    {
      g_assert_cmpuint (jvms_ctf_map_prev_state (0, modern[i]), ==, JVMS_TASK_RUNNING);
      g_assert_cmpuint (jvms_ctf_map_prev_state (1, modern[i]), ==, JVMS_TASK_INTERRUPTIBLE);
      g_assert_cmpuint (jvms_ctf_map_prev_state (2, modern[i]), ==, JVMS_TASK_UNINTERRUPTIBLE);
      g_assert_cmpuint (jvms_ctf_map_prev_state (0x40, modern[i]), ==, JVMS_TASK_PARKED);
      g_assert_cmpuint (jvms_ctf_map_prev_state (0x80, modern[i]), ==, JVMS_TASK_IDLE);
      g_assert_cmpuint (jvms_ctf_map_prev_state (0x100, modern[i]), ==, JVMS_TASK_PREEMPTED);
    }

  /* 3.6 (the test traces): raw task->state; EXIT_ZOMBIE 16, EXIT_DEAD 32, TASK_DEAD 64;
   * lttng-modules did not mark preemption before 3.13. */
  guint v36 = KV (3, 6, 11);
  g_assert_cmpuint (jvms_ctf_map_prev_state (1, v36), ==, JVMS_TASK_INTERRUPTIBLE);
  g_assert_cmpuint (jvms_ctf_map_prev_state (2, v36), ==, JVMS_TASK_UNINTERRUPTIBLE);
  g_assert_cmpuint (jvms_ctf_map_prev_state (4, v36), ==, JVMS_TASK_STOPPED);
  g_assert_cmpuint (jvms_ctf_map_prev_state (8, v36), ==, JVMS_TASK_TRACED);
  g_assert_cmpuint (jvms_ctf_map_prev_state (16, v36), ==, JVMS_TASK_ZOMBIE);
  g_assert_cmpuint (jvms_ctf_map_prev_state (32, v36), ==, JVMS_TASK_DEAD);
  g_assert_cmpuint (jvms_ctf_map_prev_state (64, v36), ==, JVMS_TASK_DEAD);
  g_assert_cmpuint (jvms_ctf_map_prev_state (128 | 2, v36), ==, JVMS_TASK_UNINTERRUPTIBLE); /* killable */
  g_assert_cmpuint (jvms_ctf_map_prev_state (512, v36), ==, JVMS_TASK_RUNNING);

  /* 3.13: TASK_PARKED 512, TASK_STATE_MAX 1024 marks preemption. */
  guint v313 = KV (3, 13, 0);
  g_assert_cmpuint (jvms_ctf_map_prev_state (512, v313), ==, JVMS_TASK_PARKED);
  g_assert_cmpuint (jvms_ctf_map_prev_state (1024, v313), ==, JVMS_TASK_PREEMPTED);
  g_assert_cmpuint (jvms_ctf_map_prev_state (16, v313), ==, JVMS_TASK_ZOMBIE);

  /* 3.14 swapped EXIT_DEAD and EXIT_ZOMBIE. */
  g_assert_cmpuint (jvms_ctf_map_prev_state (16, KV (3, 14, 0)), ==, JVMS_TASK_DEAD);
  g_assert_cmpuint (jvms_ctf_map_prev_state (32, KV (3, 14, 0)), ==, JVMS_TASK_ZOMBIE);

  /* 4.2: TASK_NOLOAD 1024 (TASK_IDLE = D | NOLOAD), TASK_STATE_MAX 2048. */
  guint v44 = KV (4, 4, 0);
  g_assert_cmpuint (jvms_ctf_map_prev_state (1024 | 2, v44), ==, JVMS_TASK_IDLE);
  g_assert_cmpuint (jvms_ctf_map_prev_state (2048, v44), ==, JVMS_TASK_PREEMPTED);

  /* 4.8: TASK_NEW 2048, TASK_STATE_MAX 4096. */
  guint v49 = KV (4, 9, 0);
  g_assert_cmpuint (jvms_ctf_map_prev_state (4096, v49), ==, JVMS_TASK_PREEMPTED);
  g_assert_cmpuint (jvms_ctf_map_prev_state (2048, v49), ==, JVMS_TASK_RUNNING);
  g_assert_cmpuint (jvms_ctf_map_prev_state (1, v49), ==, JVMS_TASK_INTERRUPTIBLE);
}

static void
test_rwbs (void)
{
  static const struct { guint64 flags; const char *text; } cases[] = {
    { 0, "N" },
    { 1 << 0, "W" },
    { 1 << 2, "R" },
    { (1 << 2) | (1 << 3), "RA" },
    { (1 << 0) | (1 << 5), "WS" },
    { (1 << 2) | (1 << 6), "RM" },
    { 1 << 1, "D" },
    { (1 << 1) | (1 << 7), "DE" },
    { 1 << 8, "F" },
    { (1 << 10) | (1 << 0) | (1 << 9), "FWF" },
    { (1 << 10) | (1 << 0) | (1 << 9) | (1 << 5) | (1 << 6), "FWFSM" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char text[12];
      jvms_ctf_rwbs_text (cases[i].flags, text, sizeof text);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
  /* A short buffer truncates, never overflows. */
  char tiny[3];
  jvms_ctf_rwbs_text ((1 << 10) | (1 << 0) | (1 << 9) | (1 << 5), tiny, sizeof tiny);
  g_assert_cmpstr (tiny, ==, "FW");
}

static void
test_kinds (void)
{
  static const struct { const char *name; JvmsKernelEventType type; const char *sys; } cases[] = {
    { "sched_switch", JVMS_KERNEL_EVENT_SCHED_SWITCH, NULL },
    { "sched_waking", JVMS_KERNEL_EVENT_SCHED_WAKING, NULL },
    { "sched_wakeup", JVMS_KERNEL_EVENT_SCHED_WAKEUP, NULL },
    { "sched_wakeup_new", JVMS_KERNEL_EVENT_SCHED_WAKEUP_NEW, NULL },
    { "sched_migrate_task", JVMS_KERNEL_EVENT_SCHED_MIGRATE, NULL },
    { "sched_process_fork", JVMS_KERNEL_EVENT_PROCESS_FORK, NULL },
    { "sched_process_exec", JVMS_KERNEL_EVENT_PROCESS_EXEC, NULL },
    { "sched_process_exit", JVMS_KERNEL_EVENT_PROCESS_EXIT, NULL },
    { "sched_process_free", JVMS_KERNEL_EVENT_OTHER, NULL },
    { "lttng_statedump_process_state", JVMS_KERNEL_EVENT_COMM, NULL },
    { "block_rq_insert", JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT, NULL },
    { "block_rq_issue", JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE, NULL },
    { "block_rq_complete", JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE, NULL },
    { "block_rq_requeue", JVMS_KERNEL_EVENT_OTHER, NULL },
    { "syscall_entry_read", JVMS_KERNEL_EVENT_SYSCALL_ENTER, "read" },
    { "syscall_exit_openat", JVMS_KERNEL_EVENT_SYSCALL_EXIT, "openat" },
    { "compat_syscall_entry_write", JVMS_KERNEL_EVENT_SYSCALL_ENTER, "write" },
    { "compat_syscall_exit_write", JVMS_KERNEL_EVENT_SYSCALL_EXIT, "write" },
    { "syscall_entry_unknown", JVMS_KERNEL_EVENT_SYSCALL_ENTER, NULL },
    { "sys_futex", JVMS_KERNEL_EVENT_SYSCALL_ENTER, "futex" },
    { "exit_syscall", JVMS_KERNEL_EVENT_SYSCALL_EXIT, NULL },
    { "timer_start", JVMS_KERNEL_EVENT_OTHER, NULL },
    { "", JVMS_KERNEL_EVENT_OTHER, NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      JvmsCtfEventKind kind;
      jvms_ctf_event_kind_init (&kind, cases[i].name);
      g_assert_cmpint (kind.type, ==, cases[i].type);
      g_assert_cmpstr (kind.sys, ==, cases[i].sys);
      jvms_ctf_event_kind_clear (&kind);
    }
  JvmsCtfEventKind none;
  jvms_ctf_event_kind_init (&none, NULL);
  g_assert_cmpint (none.type, ==, JVMS_KERNEL_EVENT_OTHER);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ctf/decode/kernel-release", test_kernel_release);
  g_test_add_func ("/ctf/decode/prev-state", test_prev_state);
  g_test_add_func ("/ctf/decode/rwbs", test_rwbs);
  g_test_add_func ("/ctf/decode/event-kinds", test_kinds);
  return g_test_run ();
}
