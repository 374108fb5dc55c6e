/* test-perf-reader.c: the perf.data reader against `perf script` on files recorded by the real
 * perf in the test: counts per event name, time order, decoded sched_switch and syscall fields,
 * header information. */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jvms-perf.h"
#include "perf-fixture.h"

static PerfFixture fixture;

static GHashTable *
our_counts (const char *path, JvmsPerfReaderFlags flags)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open (path, flags, &error);
  g_assert_no_error (error);
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JvmsKernelEvent ev;
  while (jvms_perf_reader_next (reader, &ev, &error))
    {
      /* perf script leaves out a switch's reads of counters that did not move; we do not. */
      if (ev.type == JVMS_KERNEL_EVENT_COUNTER_SAMPLE && ev.counter.at_switch && ev.counter.period == 0)
        continue;
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, ev.name));
      g_hash_table_replace (counts, g_strdup (ev.name), GUINT_TO_POINTER (n + 1));
    }
  g_assert_no_error (error);
  return counts;
}

static void
assert_same_counts (GHashTable *expected, GHashTable *got)
{
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (got, key));
      if (n != GPOINTER_TO_UINT (value))
        g_error ("%s: perf script counts %u, we count %u", (const char *) key, GPOINTER_TO_UINT (value), n);
    }
  g_hash_table_iter_init (&iter, got);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (expected, key))
      g_error ("%s: we count %u, perf script shows none", (const char *) key, GPOINTER_TO_UINT (value));
}

static void
check_counts (const char *path)
{
  g_autoptr(GHashTable) expected = perf_script_counts (path);
  g_assert_true (g_hash_table_contains (expected, "sched:sched_switch"));
  g_assert_true (g_hash_table_contains (expected, "raw_syscalls:sys_enter"));
  g_assert_true (g_hash_table_contains (expected, "PERF_RECORD_COMM"));
  g_autoptr(GHashTable) ordered = our_counts (path, JVMS_PERF_READER_DEFAULT);
  assert_same_counts (expected, ordered);
  g_autoptr(GHashTable) names_only = our_counts (path, JVMS_PERF_READER_NAMES_ONLY);
  assert_same_counts (expected, names_only);
}

static void
test_counts (void)
{
  check_counts (fixture.full);
}

/* Walks the data section as a naive oracle: does the file hold compressed records at all? */
static guint
count_compressed_records (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  guint64 off, size;
  memcpy (&off, data + 40, 8);
  memcpy (&size, data + 48, 8);
  guint n = 0;
  for (guint64 pos = off; pos + 8 <= off + size;)
    {
      guint32 type;
      guint16 rsize;
      memcpy (&type, data + pos, 4);
      memcpy (&rsize, data + pos + 6, 2);
      g_assert_cmpuint (rsize, >=, 8);
      n += type == 81 || type == 83;
      pos += rsize;
    }
  return n;
}

static void
test_counts_compressed (void)
{
  g_assert_cmpuint (count_compressed_records (fixture.full_z), >, 0);
  check_counts (fixture.full_z);
}

static void
check_order (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open (path, JVMS_PERF_READER_DEFAULT, &error);
  g_assert_no_error (error);
  JvmsKernelEvent ev;
  gint64 last = 0;
  guint64 timed = 0, untimed = 0;
  while (jvms_perf_reader_next (reader, &ev, &error))
    {
      if (ev.time == 0)
        {
          untimed++;
          continue;
        }
      g_assert_cmpint (ev.time, >=, last);
      last = ev.time;
      timed++;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (timed, >, 1000);
  /* -a synthesizes COMM and MMAP records for every thread that existed before the recording. */
  g_assert_cmpuint (untimed, >, 0);
  g_assert_cmpuint (jvms_perf_reader_get_n_unordered (reader), ==, 0);
  g_assert_cmpint (jvms_perf_reader_get_last_time (reader), ==, last);
  g_assert_cmpint (jvms_perf_reader_get_first_time (reader), >, 0);
  g_assert_cmpint (jvms_perf_reader_get_first_time (reader), <=, last);
}

static void
test_order (void)
{
  check_order (fixture.full);
  check_order (fixture.full_z);
}

static char *
state_letters (guint32 state)
{
  static const char letters[] = "SDTtXZPI";
  GString *s = g_string_new (NULL);
  for (guint bit = 0; bit < 8; bit++)
    if (state & (1u << bit))
      {
        if (s->len > 0)
          g_string_append_c (s, '|');
        g_string_append_c (s, letters[bit]);
      }
  if (s->len == 0)
    g_string_append_c (s, 'R');
  if (state & JVMS_TASK_PREEMPTED)
    g_string_append_c (s, '+');
  return g_string_free (s, FALSE);
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
assert_same_lines (GPtrArray *expected, GPtrArray *got, const char *what)
{
  g_ptr_array_sort (expected, compare_strings);
  g_ptr_array_sort (got, compare_strings);
  g_assert_cmpuint (expected->len, >, 0);
  for (guint i = 0; i < MIN (expected->len, got->len); i++)
    if (strcmp (g_ptr_array_index (expected, i), g_ptr_array_index (got, i)) != 0)
      g_error ("%s differ at %u:\n perf script: %s\n ours:        %s", what, i,
               (const char *) g_ptr_array_index (expected, i), (const char *) g_ptr_array_index (got, i));
  g_assert_cmpuint (expected->len, ==, got->len);
}

/* Every sched_switch, sched_waking and sys_enter/sys_exit decoded as perf script prints it. */
static void
check_fields (const char *path)
{
  g_autofree char *out = perf_script (path, PERF_SCRIPT_FIELDS);
  g_autoptr(GRegex) head = g_regex_new ("^\\s*(-?\\d+)\\s+\\[(\\d+)\\]\\s+(\\d+)\\.(\\d+):\\s+(\\S+):\\s*(.*)$", 0, 0, NULL);
  g_autoptr(GRegex) sw = g_regex_new ("^prev_comm=(.*) prev_pid=(-?\\d+) prev_prio=(-?\\d+) prev_state=(\\S+) "
                                      "==> next_comm=(.*) next_pid=(-?\\d+) next_prio=(-?\\d+)$", 0, 0, NULL);
  g_autoptr(GRegex) wake = g_regex_new ("^comm=(.*) pid=(-?\\d+) prio=-?\\d+ target_cpu=(\\d+)$", 0, 0, NULL);
  g_autoptr(GRegex) sys = g_regex_new ("^NR (-?\\d+) \\(", 0, 0, NULL);
  g_autoptr(GRegex) sysx = g_regex_new ("^NR (-?\\d+) = (-?\\d+)$", 0, 0, NULL);
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
  guint n_switch = 0, n_sys = 0, n_wake = 0;

  char *next = out;
  for (char *line = perf_next_line (&next); line != NULL; line = perf_next_line (&next))
    {
      char **l = &line;
      g_autoptr(GMatchInfo) m = NULL;
      if (!g_regex_match (head, *l, 0, &m))
        continue;
      g_autofree char *tid = g_match_info_fetch (m, 1);
      g_autofree char *cpu = g_match_info_fetch (m, 2);
      g_autofree char *sec = g_match_info_fetch (m, 3);
      g_autofree char *ns = g_match_info_fetch (m, 4);
      g_autofree char *event = g_match_info_fetch (m, 5);
      g_autofree char *trace = g_match_info_fetch (m, 6);
      g_autofree char *when = g_strdup_printf ("%s%s %d %s", sec, ns, atoi (cpu), tid);
      g_autoptr(GMatchInfo) f = NULL;
      if (strcmp (event, "sched:sched_switch") == 0 && g_regex_match (sw, trace, 0, &f))
        {
          g_autofree char *pc = g_match_info_fetch (f, 1), *pp = g_match_info_fetch (f, 2);
          g_autofree char *ps = g_match_info_fetch (f, 4), *nc = g_match_info_fetch (f, 5);
          g_autofree char *np = g_match_info_fetch (f, 6);
          g_ptr_array_add (expected, g_strdup_printf ("%s switch %s/%s %s %s/%s", when, pc, pp, ps, nc, np));
          n_switch++;
        }
      else if (strcmp (event, "sched:sched_waking") == 0 && g_regex_match (wake, trace, 0, &f))
        {
          g_autofree char *c = g_match_info_fetch (f, 1), *p = g_match_info_fetch (f, 2);
          g_autofree char *t = g_match_info_fetch (f, 3);
          g_ptr_array_add (expected, g_strdup_printf ("%s waking %s/%s %d", when, c, p, atoi (t)));
          n_wake++;
        }
      else if (strcmp (event, "raw_syscalls:sys_enter") == 0 && g_regex_match (sys, trace, 0, &f))
        {
          g_autofree char *id = g_match_info_fetch (f, 1);
          g_ptr_array_add (expected, g_strdup_printf ("%s enter %s", when, id));
          n_sys++;
        }
      else if (strcmp (event, "raw_syscalls:sys_exit") == 0 && g_regex_match (sysx, trace, 0, &f))
        {
          g_autofree char *id = g_match_info_fetch (f, 1), *ret = g_match_info_fetch (f, 2);
          g_ptr_array_add (expected, g_strdup_printf ("%s exit %s = %s", when, id, ret));
        }
    }
  g_assert_cmpuint (n_switch, >, 10);
  g_assert_cmpuint (n_wake, >, 10);
  g_assert_cmpuint (n_sys, >, 10);

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open (path, JVMS_PERF_READER_DEFAULT, &error);
  g_assert_no_error (error);
  JvmsKernelEvent ev;
  gboolean saw_read = FALSE;
  while (jvms_perf_reader_next (reader, &ev, &error))
    {
      g_autofree char *when = g_strdup_printf ("%" G_GINT64_FORMAT "%09" G_GINT64_FORMAT " %d %d",
                                               ev.time / 1000000000, ev.time % 1000000000, ev.cpu, ev.tid);
      switch (ev.type)
        {
        case JVMS_KERNEL_EVENT_SCHED_SWITCH:
          {
            g_autofree char *st = state_letters (ev.sched_switch.prev_state);
            /* A dying task's last switch carries tid -1: its pid is already detached. */
            if (ev.tid != -1)
              g_assert_cmpint (ev.tid, ==, ev.sched_switch.prev_tid);
            g_ptr_array_add (got, g_strdup_printf ("%s switch %s/%d %s %s/%d", when, ev.sched_switch.prev_comm,
                                                   ev.sched_switch.prev_tid, st, ev.sched_switch.next_comm,
                                                   ev.sched_switch.next_tid));
            break;
          }
        case JVMS_KERNEL_EVENT_SCHED_WAKING:
          g_ptr_array_add (got, g_strdup_printf ("%s waking %s/%d %d", when, ev.wakeup.comm, ev.wakeup.tid,
                                                 ev.wakeup.target_cpu));
          break;
        case JVMS_KERNEL_EVENT_SYSCALL_ENTER:
          g_ptr_array_add (got, g_strdup_printf ("%s enter %" G_GINT64_FORMAT, when, ev.syscall.id));
          /* The numbers of the x86_64 ABI never change. */
          if (ev.syscall.id == 0)
            {
              g_assert_cmpstr (ev.syscall.sys, ==, "read");
              saw_read = TRUE;
            }
          else if (ev.syscall.id == 1)
            g_assert_cmpstr (ev.syscall.sys, ==, "write");
          else if (ev.syscall.id == 59)
            g_assert_cmpstr (ev.syscall.sys, ==, "execve");
          else if (ev.syscall.id >= 0 && ev.syscall.id < 335)
            g_assert_nonnull (ev.syscall.sys);
          break;
        case JVMS_KERNEL_EVENT_SYSCALL_EXIT:
          g_ptr_array_add (got, g_strdup_printf ("%s exit %" G_GINT64_FORMAT " = %" G_GINT64_FORMAT, when,
                                                 ev.syscall.id, ev.syscall.ret));
          break;
        default:
          break;
        }
    }
  g_assert_no_error (error);
  g_assert_true (saw_read);
  assert_same_lines (expected, got, "decoded fields");
}

static void
test_fields (void)
{
  check_fields (fixture.full);
}

static void
test_fields_compressed (void)
{
  check_fields (fixture.full_z);
}

/* Counter samples of the group: one per member whose value moved, with a period. */
static void
test_counters (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open (fixture.full, JVMS_PERF_READER_DEFAULT, &error);
  g_assert_no_error (error);
  JvmsKernelEvent ev;
  guint n_cpu_clock = 0, n_task_clock = 0, n_fork = 0, n_comm = 0, n_exec = 0;
  while (jvms_perf_reader_next (reader, &ev, &error))
    {
      if (ev.type == JVMS_KERNEL_EVENT_COUNTER_SAMPLE)
        {
          /* A switch reads its group whether it moved or not. */
          if (!ev.counter.at_switch)
            g_assert_cmpuint (ev.counter.period, >, 0);
          g_assert_cmpuint (ev.counter.value, >=, ev.counter.period);
          g_assert_cmpint (ev.cpu, >=, 0);
          g_assert_cmpint (ev.time, >, 0);
          n_cpu_clock += g_strcmp0 (ev.counter.counter, "cpu-clock") == 0;
          n_task_clock += g_strcmp0 (ev.counter.counter, "task-clock") == 0;
        }
      else if (ev.type == JVMS_KERNEL_EVENT_PROCESS_FORK && g_str_equal (ev.name, "PERF_RECORD_FORK"))
        {
          g_assert_cmpint (ev.fork.child_tid, >, 0);
          n_fork++;
        }
      else if (ev.type == JVMS_KERNEL_EVENT_COMM)
        {
          n_comm += ev.task.comm[0] != '\0';
        }
      else if (ev.type == JVMS_KERNEL_EVENT_PROCESS_EXEC)
        {
          g_assert_nonnull (ev.task.filename);
          n_exec += g_str_has_suffix (ev.task.filename, "/cat");
        }
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n_cpu_clock, >, 0);
  g_assert_cmpuint (n_task_clock, >, 0);
  g_assert_cmpuint (n_fork, >, 0);
  g_assert_cmpuint (n_comm, >, 0);
  /* The workload runs cat 10 times; other programs on the machine may run it too. */
  g_assert_cmpuint (n_exec, >=, 10);
}

/* The counters a sched_switch reads: delivered before that switch, at its time and CPU, named
 * for the thread it switches out, 0 included; per CPU they add up to the task-clock and
 * page-faults perf script shows after each switch (it leaves out those that did not move). */
static void
test_switch_reads (void)
{
  g_autofree char *out = perf_script (fixture.full, "cpu,time,event,period");
  g_autoptr(GRegex) head = g_regex_new ("^\\s*\\[(\\d+)\\]\\s+(\\d+\\.\\d+):\\s+(\\d+)\\s+(\\S+):", 0, 0, NULL);
  /* [cpu][0: task-clock, 1: page-faults] */
  guint64 want[64][2] = { { 0 } }, have[64][2] = { { 0 } };
  g_autofree char *leader = NULL;
  char *next = out;
  guint n_switch_reads = 0;
  for (char *line = perf_next_line (&next); line != NULL; line = perf_next_line (&next))
    {
      /* Most lines are system calls: only these can matter (a switch's reads follow it at its
       * time and CPU, which no other sample of that CPU shares). */
      if (strstr (line, "sched_switch") == NULL && strstr (line, "task-clock") == NULL
          && strstr (line, "page-faults") == NULL)
        continue;
      g_autoptr(GMatchInfo) m = NULL;
      if (!g_regex_match (head, line, 0, &m))
        continue;
      g_autofree char *cpu = g_match_info_fetch (m, 1), *when = g_match_info_fetch (m, 2);
      g_autofree char *period = g_match_info_fetch (m, 3), *event = g_match_info_fetch (m, 4);
      g_autofree char *at = g_strdup_printf ("%s %s", cpu, when);
      int c = atoi (cpu);
      g_assert_cmpint (c, <, 64);
      if (strcmp (event, "sched:sched_switch") == 0)
        g_free (g_steal_pointer (&leader)), leader = g_strdup (at);
      else if (leader != NULL && strcmp (leader, at) == 0
               && (strcmp (event, "task-clock") == 0 || strcmp (event, "page-faults") == 0))
        want[c][event[0] == 'p'] += g_ascii_strtoull (period, NULL, 10);
    }

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open (fixture.full, JVMS_PERF_READER_DEFAULT, &error);
  g_assert_no_error (error);
  JvmsKernelEvent ev;
  gint64 read_time = -1;
  gint32 read_cpu = -1, read_tid = -2;
  guint n_read = 0;
  while (jvms_perf_reader_next (reader, &ev, &error))
    {
      if (ev.type == JVMS_KERNEL_EVENT_COUNTER_SAMPLE && ev.counter.at_switch)
        {
          g_assert_true (g_str_equal (ev.counter.counter, "task-clock") || g_str_equal (ev.counter.counter, "page-faults"));
          g_assert_cmpint (ev.cpu, >=, 0);
          g_assert_cmpint (ev.cpu, <, 64);
          have[ev.cpu][ev.counter.counter[0] == 'p'] += ev.counter.period;
          if (n_read > 0)
            {
              g_assert_cmpint (ev.time, ==, read_time);
              g_assert_cmpint (ev.cpu, ==, read_cpu);
              g_assert_cmpint (ev.counter.prev_tid, ==, read_tid);
            }
          read_time = ev.time, read_cpu = ev.cpu, read_tid = ev.counter.prev_tid;
          n_read++;
          continue;
        }
      if (ev.type == JVMS_KERNEL_EVENT_SCHED_SWITCH && n_read > 0)
        {
          /* Both counters of the group, then the switch they belong to. */
          g_assert_cmpuint (n_read, ==, 2);
          g_assert_cmpint (ev.time, ==, read_time);
          g_assert_cmpint (ev.cpu, ==, read_cpu);
          g_assert_cmpint (read_tid, ==, ev.sched_switch.prev_tid);
          n_switch_reads++;
        }
      else
        g_assert_cmpuint (n_read, ==, 0);
      n_read = 0;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n_switch_reads, >, 10);
  guint64 total = 0;
  for (guint c = 0; c < 64; c++)
    for (guint k = 0; k < 2; k++)
      {
        g_assert_cmpuint (have[c][k], ==, want[c][k]);
        total += have[c][0];
      }
  g_assert_cmpuint (total, >, 0);
}

static void
test_header (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open (fixture.full, JVMS_PERF_READER_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (jvms_perf_reader_get_n_cpus (reader), ==, (gint) sysconf (_SC_NPROCESSORS_ONLN));
  g_assert_cmpint (jvms_perf_reader_get_clockid (reader), ==, CLOCK_MONOTONIC);
  char host[256] = "";
  gethostname (host, sizeof host - 1);
  g_assert_cmpstr (jvms_perf_reader_get_hostname (reader), ==, host);
  g_assert_nonnull (jvms_perf_reader_get_perf_version (reader));

  gboolean names[2] = { FALSE, FALSE };
  for (guint i = 0; i < jvms_perf_reader_get_n_attrs (reader); i++)
    {
      const JvmsPerfAttr *a = jvms_perf_reader_get_attr (reader, i);
      names[0] |= g_strcmp0 (a->name, "sched:sched_switch") == 0;
      names[1] |= g_strcmp0 (a->name, "cpu-clock/period=1000000/") == 0;
      g_assert_true (a->use_clockid);
    }
  g_assert_true (names[0] && names[1]);

  /* CLOCK_DATA: one reading of both clocks; compare its offset with the clocks now. */
  const JvmsPerfClockData *cd = jvms_perf_reader_get_clock_data (reader);
  g_assert_true (cd->present);
  g_assert_cmpint (cd->clockid, ==, CLOCK_MONOTONIC);
  struct timespec mono, real;
  clock_gettime (CLOCK_MONOTONIC, &mono);
  clock_gettime (CLOCK_REALTIME, &real);
  gint64 now_mono = mono.tv_sec * G_GINT64_CONSTANT (1000000000) + mono.tv_nsec;
  gint64 now_real = real.tv_sec * G_GINT64_CONSTANT (1000000000) + real.tv_nsec;
  g_assert_cmpint ((gint64) cd->clockid_ns, <=, now_mono);
  gint64 drift = ((gint64) cd->tod_ns - (gint64) cd->clockid_ns) - (now_real - now_mono);
  g_assert_cmpint (ABS (drift), <, G_GINT64_CONSTANT (1000000000));

  JvmsKernelEvent ev;
  while (jvms_perf_reader_next (reader, &ev, &error))
    ;
  g_assert_no_error (error);
  g_assert_cmpint (jvms_perf_reader_get_first_time (reader), >=, (gint64) cd->clockid_ns - G_GINT64_CONSTANT (60000000000));
  g_assert_cmpint (jvms_perf_reader_get_last_time (reader), <=, now_mono);
  g_assert_cmpuint (jvms_perf_reader_get_lost (reader), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  perf_fixture_setup (&fixture, TRUE);
  g_test_add_func ("/perf/reader/header", test_header);
  g_test_add_func ("/perf/reader/counts", test_counts);
  g_test_add_func ("/perf/reader/counts-compressed", test_counts_compressed);
  g_test_add_func ("/perf/reader/order", test_order);
  g_test_add_func ("/perf/reader/fields", test_fields);
  g_test_add_func ("/perf/reader/fields-compressed", test_fields_compressed);
  g_test_add_func ("/perf/reader/counters", test_counters);
  g_test_add_func ("/perf/reader/switch-reads", test_switch_reads);
  int ret = g_test_run ();
  perf_fixture_teardown (&fixture, ret != 0);
  return ret;
}
