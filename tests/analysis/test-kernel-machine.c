/* Tests of the kernel state machine on synthetic sched event sequences, checked against a
 * naive model that replays the same events: per thread, time on CPU is the sum of its
 * switch-in→switch-out spans, time in a syscall the sum of enter→exit spans while on CPU,
 * time blocked the sum of switch-out(S)→wake-up spans. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "jvms-history.h"
#include "jvms-disk-requests.h"
#include "jvms-kernel-machine.h"
#include "jvms-states.h"
#include "jvms-threads.h"
#include "jvms-writer.h"

#define N_THREADS 12
#define N_CPUS    3
#define T0        G_GINT64_CONSTANT (1700000000000000000)

typedef struct
{
  /* The simulated kernel. */
  int     on_cpu;          /* -1 when off */
  gboolean runnable;
  gboolean in_syscall;
  gboolean seen;
  /* The naive model's tallies. */
  gint64  since;           /* start of the current span */
  int     state;           /* JvmsKernelState of the current span, -1 before first event */
  gint64  total[JVMS_KERNEL_STATE_N];
  GArray *truth;           /* TruthSpan: every change of state, for the lossy runs */
  GArray *wakes;           /* Wake: every wake-up that ended one of its waits */
} SimThread;

typedef struct
{
  gint64 at;
  gint64 waker;            /* packed as kernel-state/waker packs it */
} Wake;

typedef struct
{
  gint64 start;
  int    state;
  int    cpu;
} TruthSpan;

/* A switch-in the simulated kernel did not record: what the machine should make of it. */
typedef struct
{
  int    tid;
  gint64 at;               /* when it ran */
  gint64 certain;          /* when its last state (runnable) began; -1 if never seen */
  gint64 evidence;         /* its first recorded event after the switch-in; -1 if none */
} Dropped;

typedef struct
{
  GArray    *events;
  SimThread  threads[N_THREADS + 1]; /* tids 1..N_THREADS */
  int        current[N_CPUS];        /* tid, 0 idle */
  gint64     cpu_time[N_CPUS][N_THREADS + 1];
  gint64     cpu_since[N_CPUS];
  gint64     now;
  gboolean   lossy;                  /* drop some switch-ins from the idle task */
  GRand     *rand;
  GArray    *dropped;                /* Dropped */
  gboolean   switch_reads;           /* each switch reads task-clock first, as perf's group does */
} Sim;

static void
model_change (Sim *sim, int tid, int state)
{
  SimThread *t = &sim->threads[tid];
  if (t->state >= 0)
    t->total[t->state] += sim->now - t->since;
  t->state = state;
  t->since = sim->now;
  if (t->truth != NULL)
    {
      TruthSpan span = { sim->now, state, t->on_cpu };
      g_array_append_val (t->truth, span);
    }
}

static void
emit (Sim *sim, JvmsKernelEvent *ev)
{
  ev->time = sim->now;
  g_array_append_val (sim->events, *ev);
}

static void
do_switch (Sim *sim, int cpu, guint32 prev_state, int next)
{
  JvmsKernelEvent ev = { .type = JVMS_KERNEL_EVENT_SCHED_SWITCH, .name = "sched:sched_switch", .cpu = cpu };
  int prev = sim->current[cpu];
  ev.pid = ev.tid = prev;
  ev.sched_switch.prev_tid = prev;
  ev.sched_switch.next_tid = next;
  ev.sched_switch.prev_state = prev_state;
  g_snprintf (ev.sched_switch.prev_comm, JVMS_KERNEL_COMM_LEN, prev ? "worker-%d" : "swapper", prev);
  g_snprintf (ev.sched_switch.next_comm, JVMS_KERNEL_COMM_LEN, next ? "worker-%d" : "swapper", next);
  /* As perf on a VM does: some switches from the idle task are never recorded. */
  if (sim->lossy && prev == 0 && next > 0 && g_rand_int_range (sim->rand, 0, 4) == 0)
    {
      SimThread *n = &sim->threads[next];
      Dropped d = { next, sim->now, n->state >= 0 ? n->since : -1, -1 };
      g_array_append_val (sim->dropped, d);
    }
  else
    {
      if (sim->switch_reads)
        {
          /* The CPU's task-clock since its previous switch: the run this one ends. The
           * sample's own tid is -1 now and then, as for a thread on its way out. */
          JvmsKernelEvent read = { .type = JVMS_KERNEL_EVENT_COUNTER_SAMPLE, .name = "task-clock", .cpu = cpu,
                                   .pid = prev, .tid = g_rand_int_range (sim->rand, 0, 8) ? prev : -1 };
          read.counter.counter = "task-clock";
          read.counter.period = (guint64) (sim->now - sim->cpu_since[cpu]);
          read.counter.at_switch = TRUE;
          read.counter.prev_tid = prev;
          emit (sim, &read);
        }
      emit (sim, &ev);
    }

  sim->cpu_time[cpu][prev] += sim->now - sim->cpu_since[cpu];
  sim->cpu_since[cpu] = sim->now;
  if (prev > 0)
    {
      SimThread *p = &sim->threads[prev];
      p->on_cpu = -1;
      p->runnable = prev_state == JVMS_TASK_RUNNING;
      model_change (sim, prev, p->runnable ? JVMS_KERNEL_STATE_RUNNABLE
                               : prev_state == JVMS_TASK_UNINTERRUPTIBLE ? JVMS_KERNEL_STATE_BLOCKED_IO
                               : JVMS_KERNEL_STATE_BLOCKED);
    }
  sim->current[cpu] = next;
  if (next > 0)
    {
      SimThread *n = &sim->threads[next];
      n->on_cpu = cpu;
      n->runnable = FALSE;
      model_change (sim, next, n->in_syscall ? JVMS_KERNEL_STATE_SYSCALL : JVMS_KERNEL_STATE_RUNNING);
    }
}

/* Woken by what runs on @cpu (the event is recorded in the waker's context), in an interrupt
 * one time in four. */
static void
do_wake (Sim *sim, int tid, int cpu)
{
  int waker = sim->current[cpu];
  JvmsKernelEvent ev = { .type = JVMS_KERNEL_EVENT_SCHED_WAKING, .name = "sched:sched_waking", .cpu = cpu,
                         .pid = waker, .tid = waker };
  ev.wakeup.tid = tid;
  ev.wakeup.target_cpu = 0;
  ev.wakeup.in_irq = g_rand_int_range (sim->rand, 0, 4) == 0;
  if (sim->threads[tid].wakes != NULL)
    {
      Wake w = { sim->now, jvms_waker_pack (waker, ev.wakeup.in_irq) };
      g_array_append_val (sim->threads[tid].wakes, w);
    }
  g_snprintf (ev.wakeup.comm, JVMS_KERNEL_COMM_LEN, "worker-%d", tid);
  emit (sim, &ev);
  sim->threads[tid].runnable = TRUE;
  model_change (sim, tid, JVMS_KERNEL_STATE_RUNNABLE);
}

static void
do_syscall (Sim *sim, int tid, gboolean enter)
{
  SimThread *t = &sim->threads[tid];
  JvmsKernelEvent ev = { .type = enter ? JVMS_KERNEL_EVENT_SYSCALL_ENTER : JVMS_KERNEL_EVENT_SYSCALL_EXIT,
                         .name = enter ? "raw_syscalls:sys_enter" : "raw_syscalls:sys_exit",
                         .cpu = t->on_cpu, .pid = tid, .tid = tid };
  ev.syscall.id = 0;
  ev.syscall.sys = "read";
  emit (sim, &ev);
  t->in_syscall = enter;
  model_change (sim, tid, enter ? JVMS_KERNEL_STATE_SYSCALL : JVMS_KERNEL_STATE_RUNNING);
}

static void
do_counter (Sim *sim, int cpu)
{
  JvmsKernelEvent ev = { .type = JVMS_KERNEL_EVENT_COUNTER_SAMPLE, .name = "cycles", .cpu = cpu,
                         .pid = sim->current[cpu], .tid = sim->current[cpu] };
  ev.counter.counter = "cycles";
  ev.counter.period = 1000;
  emit (sim, &ev);
}

/* A random but kernel-consistent schedule. */
static void
simulate (Sim *sim, GRand *rand, int steps)
{
  memset (sim->threads, 0, sizeof sim->threads);
  sim->rand = rand;
  for (int i = 0; i <= N_THREADS; i++)
    {
      sim->threads[i].on_cpu = -1;
      sim->threads[i].state = -1;
      sim->threads[i].runnable = TRUE;
      sim->threads[i].wakes = g_array_new (FALSE, FALSE, sizeof (Wake));
      if (sim->lossy)
        sim->threads[i].truth = g_array_new (FALSE, FALSE, sizeof (TruthSpan));
    }
  memset (sim->current, 0, sizeof sim->current);
  memset (sim->cpu_time, 0, sizeof sim->cpu_time);
  sim->now = T0;
  for (int c = 0; c < N_CPUS; c++)
    sim->cpu_since[c] = T0;

  for (int s = 0; s < steps; s++)
    {
      sim->now += g_rand_int_range (rand, 1, 50000);
      int what = g_rand_int_range (rand, 0, 10);
      int cpu = g_rand_int_range (rand, 0, N_CPUS);
      int cur = sim->current[cpu];
      if (what < 5)
        {
          /* Switch: pick a runnable thread, or idle. */
          int candidates[N_THREADS], n = 0;
          for (int t = 1; t <= N_THREADS; t++)
            if (sim->threads[t].runnable && sim->threads[t].on_cpu < 0)
              candidates[n++] = t;
          int next = n > 0 && g_rand_int_range (rand, 0, 5) > 0 ? candidates[g_rand_int_range (rand, 0, n)] : 0;
          if (next == cur)
            continue;
          guint32 states[] = { JVMS_TASK_RUNNING, JVMS_TASK_INTERRUPTIBLE, JVMS_TASK_UNINTERRUPTIBLE };
          do_switch (sim, cpu, cur > 0 ? states[g_rand_int_range (rand, 0, 3)] : 0, next);
        }
      else if (what < 8)
        {
          int tid = g_rand_int_range (rand, 1, N_THREADS + 1);
          if (!sim->threads[tid].runnable && sim->threads[tid].on_cpu < 0)
            do_wake (sim, tid, cpu);
        }
      else if (what == 8 && cur > 0)
        do_syscall (sim, cur, !sim->threads[cur].in_syscall);
      else if (cur > 0)
        do_counter (sim, cpu);
    }
  sim->now += 1000;
  for (int t = 1; t <= N_THREADS; t++)
    model_change (sim, t, -1);
  for (int c = 0; c < N_CPUS; c++)
    sim->cpu_time[c][sim->current[c]] += sim->now - sim->cpu_since[c];
}

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("jvms-kernel-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "test.jvmsidx", NULL);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

/* The recorded JVM's pid for index_events_q (bundle.json's, in a real build); -1: none. */
static gint32 index_subject = -1;

/* Feeds @events into a new history and returns it opened from disk. */
static JvmsHistory *
index_events_q (Fixture *f, GArray *events, gint64 end, guint64 *n_unknown, JvmsKernelQuality *quality,
                GPtrArray *disk_notes)
{
  g_autoptr(GError) error = NULL;
  JvmsHistoryBuilder *b = jvms_history_builder_new (f->path, T0, NULL, &error);
  g_assert_no_error (error);
  JvmsWriter *w = jvms_writer_new (b, T0);
  JvmsThreads *threads = jvms_threads_new (w);
  if (index_subject > 0)
    jvms_threads_set_subject (threads, index_subject, JVMS_SUBJECT_BUNDLE);
  JvmsKernelMachine *km = jvms_kernel_machine_new (w, threads, 0);
  for (guint i = 0; i < events->len; i++)
    jvms_kernel_machine_feed (km, &g_array_index (events, JvmsKernelEvent, i));
  jvms_kernel_machine_finish (km, end);
  jvms_threads_flush (threads);
  g_assert_true (jvms_writer_check (w, &error));
  g_assert_no_error (error);
  g_assert_true (jvms_history_builder_close (b, end, &error));
  g_assert_no_error (error);
  if (n_unknown != NULL)
    *n_unknown = jvms_kernel_machine_n_unknown (km);
  if (quality != NULL)
    jvms_kernel_machine_get_quality (km, quality);
  if (disk_notes != NULL)
    jvms_kernel_machine_add_disk_notes (km, "t.perf", disk_notes);
  jvms_kernel_machine_free (km);
  jvms_threads_free (threads);
  jvms_writer_free (w);
  jvms_history_builder_free (b);
  JvmsHistory *h = jvms_history_open (f->path, 0, &error);
  g_assert_no_error (error);
  return h;
}

static JvmsHistory *
index_events (Fixture *f, GArray *events, gint64 end, guint64 *n_unknown)
{
  return index_events_q (f, events, end, n_unknown, NULL, NULL);
}

/* Time per value of an int attribute over [t0, t1). */
static void
sum_states (JvmsHistory *h, const char *path, gint64 t0, gint64 t1, gint64 *totals, guint n)
{
  memset (totals, 0, n * sizeof *totals);
  JvmsAttribute a = jvms_history_lookup (h, path);
  if (a == JVMS_ATTRIBUTE_INVALID)
    return;
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistoryRange) r = jvms_history_query_range (h, t0, t1, &a, 1, &error);
  g_assert_no_error (error);
  JvmsInterval iv;
  while (jvms_history_range_next (r, &iv, &error))
    {
      if (iv.value.type != JVMS_VALUE_INT)
        continue;
      g_assert_cmpint (iv.value.i, >=, 0);
      g_assert_cmpint (iv.value.i, <, n);
      totals[iv.value.i] += MIN (iv.end, t1) - MAX (iv.start, t0);
    }
  g_assert_no_error (error);
}

/* Each thread's switch-counters/task-clock: one interval per run, from its switch-in to its
 * switch-out, holding that run's task-clock (here its length), null between runs; they add up
 * to the thread's time on CPU in the model. */
static void
check_switch_reads (JvmsHistory *h, const Sim *sim, int subject)
{
  guint n_runs = 0;
  for (int t = 1; t <= N_THREADS; t++)
    {
      g_autofree char *path = g_strdup_printf ("Threads/%d/switch-counters/task-clock", t);
      JvmsAttribute a = jvms_history_lookup (h, path);
      /* With a subject, only its threads' runs (here each thread is a process of its own), but
       * a first run read before the thread's process was known (its sample's tid was -1). */
      if (subject > 0 && t != subject)
        {
          guint n = 0;
          if (a != JVMS_ATTRIBUTE_INVALID)
            {
              g_autoptr(JvmsHistoryRange) r = jvms_history_query_range (h, T0, sim->now, &a, 1, NULL);
              JvmsInterval iv;
              while (jvms_history_range_next (r, &iv, NULL))
                n += iv.value.type == JVMS_VALUE_INT;
            }
          g_assert_cmpuint (n, <=, 1);
          continue;
        }
      gint64 on_cpu = sim->threads[t].total[JVMS_KERNEL_STATE_RUNNING] + sim->threads[t].total[JVMS_KERNEL_STATE_SYSCALL];
      /* A thread still on a CPU at the end has a run no switch ended. */
      gint64 last_run = 0;
      for (int c = 0; c < N_CPUS; c++)
        if (sim->current[c] == t)
          last_run = sim->now - sim->cpu_since[c];
      gint64 sum = 0;
      if (a != JVMS_ATTRIBUTE_INVALID)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(JvmsHistoryRange) r = jvms_history_query_range (h, T0, sim->now, &a, 1, &error);
          g_assert_no_error (error);
          JvmsInterval iv;
          while (jvms_history_range_next (r, &iv, &error))
            if (iv.value.type == JVMS_VALUE_INT)
              {
                g_assert_cmpint (iv.value.i, ==, iv.end - iv.start);
                sum += iv.value.i;
                n_runs++;
              }
          g_assert_no_error (error);
        }
      if (sum != on_cpu - last_run)
        g_error ("thread %d: its runs' task-clock adds up to %" G_GINT64_FORMAT " ns, the model's time on CPU "
                 "to %" G_GINT64_FORMAT " ns (%" G_GINT64_FORMAT " of it still running at the end)",
                 t, sum, on_cpu, last_run);
    }
  g_assert_cmpuint (n_runs, >, subject > 0 ? 10 : 100);
}

static void
test_random_schedules (Fixture *f, gconstpointer data)
{
  for (guint32 seed = 1; seed <= 8; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      /* Half the seeds read task-clock at each switch: the states are the same with them. */
      Sim sim = { .events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent)), .switch_reads = seed % 2 == 0 };
      simulate (&sim, rand, 4000);
      guint64 n_unknown = 0;
      g_autoptr(JvmsHistory) h = index_events (f, sim.events, sim.now, &n_unknown);
      g_assert_cmpuint (n_unknown, ==, 0);
      if (sim.switch_reads)
        {
          check_switch_reads (h, &sim, -1);
          g_unlink (f->path);
          index_subject = 3;
          g_autoptr(JvmsHistory) hs = index_events (f, sim.events, sim.now, NULL);
          index_subject = -1;
          check_switch_reads (hs, &sim, 3);
        }

      for (int t = 1; t <= N_THREADS; t++)
        {
          gint64 got[JVMS_KERNEL_STATE_N];
          g_autofree char *path = g_strdup_printf ("Threads/%d/kernel-state", t);
          sum_states (h, path, T0, sim.now, got, JVMS_KERNEL_STATE_N);
          for (int s = 0; s < JVMS_KERNEL_STATE_N; s++)
            {
              if (got[s] != sim.threads[t].total[s])
                g_error ("seed %u thread %d state %s: index %" G_GINT64_FORMAT " ns, model %" G_GINT64_FORMAT " ns",
                         seed, t, jvms_kernel_state_name (s), got[s], sim.threads[t].total[s]);
            }
        }
      for (int c = 0; c < N_CPUS; c++)
        {
          /* current-thread holds tids: tally them per tid. */
          gint64 got[N_THREADS + 1];
          g_autofree char *path = g_strdup_printf ("CPUs/%d/current-thread", c);
          sum_states (h, path, T0, sim.now, got, N_THREADS + 1);
          for (int t = 1; t <= N_THREADS; t++)
            g_assert_cmpint (got[t], ==, sim.cpu_time[c][t]);
        }
      /* Every wait carries who ended it: the thread that ran the wake-up (0: the idle task),
       * flagged when in an interrupt. */
      guint n_checked = 0;
      for (int t = 1; t <= N_THREADS; t++)
        {
          g_autofree char *path = g_strdup_printf ("Threads/%d/kernel-state/waker", t);
          JvmsAttribute a = jvms_history_lookup (h, path);
          GArray *wakes = sim.threads[t].wakes;
          for (guint i = 0; i < wakes->len; i++)
            {
              const Wake *w = &g_array_index (wakes, Wake, i);
              JvmsInterval iv;
              g_assert_true (jvms_history_query_single (h, a, w->at - 1, &iv, NULL));
              if (iv.value.type != JVMS_VALUE_INT || iv.value.i != w->waker)
                g_error ("seed %u thread %d woken at +%" G_GINT64_FORMAT " by %" G_GINT64_FORMAT
                         " (irq %d): the index says %" G_GINT64_FORMAT, seed, t, w->at - T0,
                         jvms_waker_tid (w->waker), jvms_waker_in_irq (w->waker),
                         iv.value.type == JVMS_VALUE_INT ? iv.value.i : -1);
              n_checked++;
            }
        }
      g_assert_cmpuint (n_checked, >, 100);
      for (int t = 0; t <= N_THREADS; t++)
        g_array_unref (sim.threads[t].wakes);
      g_array_unref (sim.events);
      g_unlink (f->path);
    }
}

/* The first recorded event in @tid's own context after @at, or -1. */
static gint64
first_evidence (GArray *events, int tid, gint64 at)
{
  for (guint i = 0; i < events->len; i++)
    {
      const JvmsKernelEvent *ev = &g_array_index (events, JvmsKernelEvent, i);
      if (ev->time <= at)
        continue;
      if (ev->type == JVMS_KERNEL_EVENT_SCHED_SWITCH ? ev->sched_switch.prev_tid == tid : ev->tid == tid)
        return ev->time;
    }
  return -1;
}

/* Random schedules where a quarter of the switches from the idle task are not recorded. Every
 * such switch-in followed by an event of the thread is found; the thread is UNKNOWN exactly from
 * its wake-up (or preemption) to that event; every state the index does give is the true one. */
static void
test_lossy_schedules (Fixture *f, gconstpointer data)
{
  for (guint32 seed = 1; seed <= 8; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      Sim sim = { .events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent)), .lossy = TRUE,
                  .dropped = g_array_new (FALSE, FALSE, sizeof (Dropped)) };
      simulate (&sim, rand, 4000);
      JvmsKernelQuality q;
      g_autoptr(JvmsHistory) h = index_events_q (f, sim.events, sim.now, NULL, &q, NULL);

      guint64 n_found = 0;
      gint64 unknown[N_THREADS + 1] = { 0 };
      gint64 unseen_from[N_THREADS + 1]; /* an unrecorded switch-in nothing shows before the end */
      gint64 unknown_total = 0;
      for (int t = 0; t <= N_THREADS; t++)
        unseen_from[t] = G_MAXINT64;
      for (guint i = 0; i < sim.dropped->len; i++)
        {
          Dropped *d = &g_array_index (sim.dropped, Dropped, i);
          d->evidence = first_evidence (sim.events, d->tid, d->at);
          if (d->evidence < 0)
            unseen_from[d->tid] = d->at;
          if (d->certain < 0 || d->evidence < 0)
            continue;
          n_found++;
          unknown[d->tid] += d->evidence - d->certain;
          unknown_total += d->evidence - d->certain;
          g_autofree char *path = g_strdup_printf ("Threads/%d/kernel-state", d->tid);
          JvmsInterval iv;
          g_assert_true (jvms_history_query_single (h, jvms_history_lookup (h, path), d->certain, &iv, NULL));
          if (iv.value.type != JVMS_VALUE_INT || iv.value.i != JVMS_KERNEL_STATE_UNKNOWN
              || iv.start != d->certain || iv.end != d->evidence)
            g_error ("seed %u thread %d: switched in unrecorded at +%" G_GINT64_FORMAT ", runnable from +%" G_GINT64_FORMAT
                     ", first evidence +%" G_GINT64_FORMAT "; index [+%" G_GINT64_FORMAT ", +%" G_GINT64_FORMAT ") state %" G_GINT64_FORMAT,
                     seed, d->tid, d->at - T0, d->certain - T0, d->evidence - T0, iv.start - T0, iv.end - T0,
                     iv.value.type == JVMS_VALUE_INT ? iv.value.i : -1);
        }
      g_assert_cmpuint (sim.dropped->len, >, 10);
      g_assert_cmpuint (q.n_missing_switches, ==, n_found);
      g_assert_cmpuint (q.n_missing_from_idle, ==, n_found);
      g_assert_cmpint (q.other_unknown_ns, ==, unknown_total);
      g_assert_cmpint (q.jvm_unknown_ns, ==, 0);

      for (int t = 1; t <= N_THREADS; t++)
        {
          g_autofree char *path = g_strdup_printf ("Threads/%d/kernel-state", t);
          g_autofree char *cpu_path = g_strdup_printf ("Threads/%d/kernel-state/cpu", t);
          gint64 got[JVMS_KERNEL_STATE_N];
          sum_states (h, path, T0, sim.now, got, JVMS_KERNEL_STATE_N);
          g_assert_cmpint (got[JVMS_KERNEL_STATE_UNKNOWN], ==, unknown[t]);

          /* Soundness: a known state is the simulated kernel's, on the right CPU. */
          JvmsAttribute a[2] = { jvms_history_lookup (h, path), jvms_history_lookup (h, cpu_path) };
          if (a[0] == JVMS_ATTRIBUTE_INVALID)
            continue;
          g_autoptr(GError) error = NULL;
          g_autoptr(JvmsHistoryRange) r = jvms_history_query_range (h, T0, sim.now, a, 1, &error);
          g_assert_no_error (error);
          GArray *truth = sim.threads[t].truth;
          JvmsInterval iv;
          while (jvms_history_range_next (r, &iv, &error))
            {
              if (iv.value.type != JVMS_VALUE_INT || iv.value.i == JVMS_KERNEL_STATE_UNKNOWN)
                continue;
              JvmsInterval civ;
              g_assert_true (jvms_history_query_single (h, a[1], iv.start, &civ, NULL));
              for (guint k = 0; k + 1 < truth->len; k++)
                {
                  const TruthSpan *span = &g_array_index (truth, TruthSpan, k);
                  gint64 span_end = g_array_index (truth, TruthSpan, k + 1).start;
                  if (span_end <= iv.start || span->start >= iv.end || span_end == span->start
                      || span->start >= unseen_from[t])
                    continue;
                  gboolean on_cpu = span->state == JVMS_KERNEL_STATE_RUNNING || span->state == JVMS_KERNEL_STATE_SYSCALL;
                  if (span->state != iv.value.i || (on_cpu && (civ.value.type != JVMS_VALUE_INT || civ.value.i != span->cpu)))
                    g_error ("seed %u thread %d: index says %s on %" G_GINT64_FORMAT " over [+%" G_GINT64_FORMAT ", +%" G_GINT64_FORMAT
                             "), the kernel had it %s on %d over [+%" G_GINT64_FORMAT ", +%" G_GINT64_FORMAT ")",
                             seed, t, jvms_kernel_state_name (iv.value.i), civ.value.type == JVMS_VALUE_INT ? civ.value.i : -1,
                             iv.start - T0, iv.end - T0, jvms_kernel_state_name (span->state), span->cpu,
                             span->start - T0, span_end - T0);
                }
            }
          g_assert_no_error (error);
        }
      for (int t = 0; t <= N_THREADS; t++)
        {
          g_array_unref (sim.threads[t].truth);
          g_array_unref (sim.threads[t].wakes);
        }
      g_array_unref (sim.dropped);
      g_array_unref (sim.events);
      g_unlink (f->path);
    }
}

/* A switch-out of a thread whose switch-in was never recorded: the span before it becomes
 * UNKNOWN, nothing asserts, and the rest of the thread's life is unaffected. */
static void
test_missing_switch_in (Fixture *f, gconstpointer data)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent));
  JvmsKernelEvent ev = { .type = JVMS_KERNEL_EVENT_SCHED_SWITCH, .name = "sched_switch", .cpu = 0 };
  /* t0+100: 7 runs on CPU 0. */
  ev.time = T0 + 100; ev.sched_switch.prev_tid = 0; ev.sched_switch.next_tid = 7;
  g_array_append_val (events, ev);
  /* t0+200: 7 blocks (S). */
  ev.time = T0 + 200; ev.sched_switch.prev_tid = 7; ev.sched_switch.prev_state = JVMS_TASK_INTERRUPTIBLE;
  ev.sched_switch.next_tid = 0;
  g_array_append_val (events, ev);
  /* (lost: wake-up and switch-in of 7 on CPU 1 at t0+300) */
  /* t0+400: 7 switched out of CPU 1 while preempted. */
  ev.cpu = 1; ev.time = T0 + 400; ev.sched_switch.prev_tid = 7; ev.sched_switch.prev_state = JVMS_TASK_RUNNING;
  ev.sched_switch.next_tid = 0;
  g_array_append_val (events, ev);
  /* t0+500: 7 back on CPU 1 until the end. */
  ev.time = T0 + 500; ev.sched_switch.prev_tid = 0; ev.sched_switch.next_tid = 7;
  g_array_append_val (events, ev);

  guint64 n_unknown = 0;
  g_autoptr(JvmsHistory) h = index_events (f, events, T0 + 600, &n_unknown);
  g_assert_cmpuint (n_unknown, ==, 1);
  JvmsAttribute a = jvms_history_lookup (h, "Threads/7/kernel-state");
  g_assert_cmpuint (a, !=, JVMS_ATTRIBUTE_INVALID);
  const struct { gint64 t; JvmsValueType type; gint64 v; } expect[] = {
    { T0 + 50, JVMS_VALUE_NULL, 0 },
    { T0 + 150, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNING },
    { T0 + 250, JVMS_VALUE_INT, JVMS_KERNEL_STATE_UNKNOWN },
    { T0 + 399, JVMS_VALUE_INT, JVMS_KERNEL_STATE_UNKNOWN },
    { T0 + 450, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNABLE },
    { T0 + 550, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNING },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      JvmsInterval iv;
      g_autoptr(GError) error = NULL;
      g_assert_true (jvms_history_query_single (h, a, expect[i].t, &iv, &error));
      g_assert_no_error (error);
      g_assert_cmpint (iv.value.type, ==, expect[i].type);
      if (expect[i].type == JVMS_VALUE_INT)
        g_assert_cmpint (iv.value.i, ==, expect[i].v);
    }
  JvmsInterval iv;
  g_assert_true (jvms_history_query_single (h, jvms_history_lookup (h, "Threads/7/kernel-state/cpu"),
                                            T0 + 550, &iv, NULL));
  g_assert_cmpint (iv.value.i, ==, 1);
}

static void
add_switch (GArray *events, gint64 t, int cpu, int prev, int prev_pid, guint32 prev_state, int next)
{
  JvmsKernelEvent ev = { .type = JVMS_KERNEL_EVENT_SCHED_SWITCH, .name = "sched:sched_switch",
                         .time = T0 + t, .cpu = cpu, .pid = prev ? prev_pid : 0, .tid = prev };
  ev.sched_switch.prev_tid = prev;
  ev.sched_switch.next_tid = next;
  ev.sched_switch.prev_state = prev_state;
  g_strlcpy (ev.sched_switch.prev_comm, prev == 7 ? "VM Thread" : prev ? "worker" : "swapper", JVMS_KERNEL_COMM_LEN);
  g_strlcpy (ev.sched_switch.next_comm, next == 7 ? "VM Thread" : next ? "worker" : "swapper", JVMS_KERNEL_COMM_LEN);
  g_array_append_val (events, ev);
}

/* An event in the context of @tid (pid @pid) on @cpu. */
static void
add_context (GArray *events, JvmsKernelEventType type, gint64 t, int cpu, int pid, int tid, int woken)
{
  JvmsKernelEvent ev = { .type = type, .name = "context", .time = T0 + t, .cpu = cpu, .pid = pid, .tid = tid };
  if (type == JVMS_KERNEL_EVENT_SCHED_WAKING)
    {
      ev.wakeup.tid = woken;
      ev.wakeup.target_cpu = 1;
      g_strlcpy (ev.wakeup.comm, woken == 7 ? "VM Thread" : "worker", JVMS_KERNEL_COMM_LEN);
    }
  else if (type == JVMS_KERNEL_EVENT_COUNTER_SAMPLE)
    {
      ev.counter.counter = "cycles";
      ev.counter.period = 1000;
    }
  else
    ev.syscall.sys = "read";
  g_array_append_val (events, ev);
}

/* An interval the index must hold: its attribute, bounds (from T0) and value. */
typedef struct
{
  const char   *path;
  gint64        start, end;
  JvmsValueType type;
  gint64        v;
} Span;

static void
check_spans (JvmsHistory *h, const Span *expect, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      JvmsAttribute a = jvms_history_lookup (h, expect[i].path);
      g_assert_cmpuint (a, !=, JVMS_ATTRIBUTE_INVALID);
      JvmsInterval iv;
      g_autoptr(GError) error = NULL;
      g_assert_true (jvms_history_query_single (h, a, T0 + expect[i].start, &iv, &error));
      g_assert_no_error (error);
      if (iv.start != T0 + expect[i].start || iv.end != T0 + expect[i].end || iv.value.type != expect[i].type
          || (expect[i].type == JVMS_VALUE_INT && iv.value.i != expect[i].v))
        g_error ("%s at +%" G_GINT64_FORMAT ": [+%" G_GINT64_FORMAT ", +%" G_GINT64_FORMAT ") type %d value %" G_GINT64_FORMAT,
                 expect[i].path, expect[i].start, iv.start - T0, iv.end - T0, iv.value.type,
                 iv.value.type == JVMS_VALUE_INT ? iv.value.i : 0);
    }
}

/* Switches the kernel did not record, found by events in the thread's own context: the state
 * believed holds up to its last certain time, UNKNOWN from there to the evidence, RUNNING on the
 * evidence's CPU from it (docs/analysis.md, "Missing switch records"). Thread 7 is the JVM's
 * (pid 70, a HotSpot name), 8 and 9 another process's. */
static void
test_evidence (Fixture *f, gconstpointer data)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent));
  add_switch (events, 50, 1, 0, 0, 0, 7);
  add_switch (events, 80, 1, 7, 70, JVMS_TASK_INTERRUPTIBLE, 0);   /* CPU 1 idle, 7 blocked */
  add_switch (events, 100, 0, 0, 0, 0, 8);
  add_context (events, JVMS_KERNEL_EVENT_SCHED_WAKING, 200, 0, 80, 8, 7); /* 7 runnable */
  /* (not recorded: swapper/1 ==> 7 at about 250) */
  add_context (events, JVMS_KERNEL_EVENT_SCHED_WAKING, 300, 1, 70, 7, 9); /* 7 wakes 9 on CPU 1 */
  add_context (events, JVMS_KERNEL_EVENT_COUNTER_SAMPLE, 350, 1, 70, 7, 0);
  add_switch (events, 400, 1, 7, 70, JVMS_TASK_INTERRUPTIBLE, 0);  /* 7 blocked */
  add_switch (events, 500, 0, 8, 80, JVMS_TASK_INTERRUPTIBLE, 0);  /* CPU 0 idle */
  /* (not recorded: the wake-up of 7, swapper/0 ==> 7) */
  add_context (events, JVMS_KERNEL_EVENT_SYSCALL_ENTER, 700, 0, 70, 7, 0);
  add_context (events, JVMS_KERNEL_EVENT_SYSCALL_EXIT, 750, 0, 70, 7, 0);
  add_switch (events, 800, 0, 7, 70, JVMS_TASK_INTERRUPTIBLE, 0);
  add_switch (events, 900, 1, 0, 0, 0, 7);
  add_context (events, JVMS_KERNEL_EVENT_COUNTER_SAMPLE, 950, 1, 70, 7, 0);
  /* (not recorded: 7 ==> swapper/1) */
  add_switch (events, 1000, 1, 0, 0, 0, 7);

  guint64 n_unknown = 0;
  JvmsKernelQuality q;
  g_autoptr(JvmsHistory) h = index_events_q (f, events, T0 + 1100, &n_unknown, &q, NULL);
  g_assert_cmpuint (q.n_missing_switches, ==, 3);
  g_assert_cmpuint (q.n_missing_from_idle, ==, 2);
  g_assert_cmpint (q.jvm_unknown_ns, ==, 100 + 300 + 50);
  g_assert_cmpint (q.jvm_thread_ns, ==, 1100 - 50);
  g_assert_cmpint (q.other_unknown_ns, ==, 0);
  g_assert_cmpint (q.other_thread_ns, ==, (1100 - 100) + (1100 - 300));
  g_assert_cmpuint (n_unknown, ==, 3);

  const Span expect[] = {
    { "Threads/7/kernel-state", 50, 80, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNING },
    { "Threads/7/kernel-state", 80, 200, JVMS_VALUE_INT, JVMS_KERNEL_STATE_BLOCKED },
    { "Threads/7/kernel-state", 200, 300, JVMS_VALUE_INT, JVMS_KERNEL_STATE_UNKNOWN },
    { "Threads/7/kernel-state", 300, 400, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNING },
    { "Threads/7/kernel-state", 400, 700, JVMS_VALUE_INT, JVMS_KERNEL_STATE_UNKNOWN },
    { "Threads/7/kernel-state", 700, 750, JVMS_VALUE_INT, JVMS_KERNEL_STATE_SYSCALL },
    { "Threads/7/kernel-state", 750, 800, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNING },
    { "Threads/7/kernel-state", 800, 900, JVMS_VALUE_INT, JVMS_KERNEL_STATE_BLOCKED },
    { "Threads/7/kernel-state", 900, 950, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNING },
    { "Threads/7/kernel-state", 950, 1000, JVMS_VALUE_INT, JVMS_KERNEL_STATE_UNKNOWN },
    { "Threads/7/kernel-state", 1000, 1100, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNING },
    { "Threads/7/kernel-state/cpu", 300, 400, JVMS_VALUE_INT, 1 },
    { "Threads/7/kernel-state/cpu", 400, 700, JVMS_VALUE_NULL, 0 },
    { "Threads/7/kernel-state/cpu", 700, 800, JVMS_VALUE_INT, 0 },
    { "Threads/7/kernel-state/cpu", 1000, 1100, JVMS_VALUE_INT, 1 },
    { "CPUs/1/current-thread", 80, 300, JVMS_VALUE_NULL, 0 },
    { "CPUs/1/current-thread", 300, 400, JVMS_VALUE_INT, 7 },
    { "CPUs/1/current-thread", 400, 900, JVMS_VALUE_NULL, 0 },
    { "CPUs/0/current-thread", 500, 700, JVMS_VALUE_NULL, 0 },
    { "CPUs/0/current-thread", 700, 800, JVMS_VALUE_INT, 7 },
    { "Threads/8/kernel-state", 100, 500, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNING },
    { "Threads/9/kernel-state", 300, 1100, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNABLE },
  };
  check_spans (h, expect, G_N_ELEMENTS (expect));
}

/* A silent thread (docs/analysis.md, "Silent threads"): perf records switches into thread 5
 * and never an event in its context, not even its switch-out (here, threads of another user
 * namespace's PID 1). Each time it runs, the thread after it shows up by its own events on that
 * CPU: one record is missing (5 ==> 8), counted once, next to 5; 5 is not on the CPU from its
 * last proof on (unknown, not running until its next switch-in), and the CPU runs 8. */
static void
test_silent_thread (Fixture *f, gconstpointer data)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent));
  add_switch (events, 100, 0, 0, 0, 0, 8);
  add_switch (events, 200, 0, 8, 80, JVMS_TASK_RUNNING, 5);        /* 8 preempted by 5 */
  /* (not given to perf: 5's own events, and 5 ==> 8 at about 300) */
  add_context (events, JVMS_KERNEL_EVENT_SYSCALL_ENTER, 400, 0, 80, 8, 0);
  add_context (events, JVMS_KERNEL_EVENT_SYSCALL_EXIT, 450, 0, 80, 8, 0);
  add_switch (events, 500, 0, 8, 80, JVMS_TASK_INTERRUPTIBLE, 5);  /* 5 again */
  /* (not given: 5 ==> 0 at about 600) */
  add_switch (events, 700, 1, 0, 0, 0, 9);
  add_switch (events, 800, 1, 9, 90, JVMS_TASK_INTERRUPTIBLE, 0);

  JvmsKernelQuality q;
  g_autoptr(JvmsHistory) h = index_events_q (f, events, T0 + 1000, NULL, &q, NULL);
  /* One record missing (5 ==> 8): before, 2 (8's switch-in, then 5's at 500 "already on CPU"). */
  g_assert_cmpuint (q.n_missing_switches, ==, 1);
  g_assert_cmpuint (q.n_missing_from_idle, ==, 0);
  g_assert_cmpuint (q.n_missing_silent, ==, 1);
  g_assert_cmpuint (q.n_silent_threads, ==, 1);
  g_assert_cmpint (q.silent_tids[0], ==, 5);

  const Span expect[] = {
    { "Threads/5/kernel-state", 200, 500, JVMS_VALUE_INT, JVMS_KERNEL_STATE_UNKNOWN },
    { "Threads/5/kernel-state", 500, 1000, JVMS_VALUE_INT, JVMS_KERNEL_STATE_RUNNING },
    { "Threads/8/kernel-state", 200, 400, JVMS_VALUE_INT, JVMS_KERNEL_STATE_UNKNOWN },
    { "Threads/8/kernel-state", 400, 450, JVMS_VALUE_INT, JVMS_KERNEL_STATE_SYSCALL },
    { "CPUs/0/current-thread", 200, 400, JVMS_VALUE_INT, 5 },
    { "CPUs/0/current-thread", 400, 500, JVMS_VALUE_INT, 8 },
  };
  check_spans (h, expect, G_N_ELEMENTS (expect));
}

/* The kernel state under a JFR sample, on JDK 17's handshake as perf records it on a quiet
 * machine: every 10 ms the sampler (9) takes the CPU from the spinning thread (7), which runs its
 * signal handler (three system calls; every other time the sampler ran on another CPU and the
 * handler follows the spinning directly), is suspended until the sample is taken, then returns
 * through two more calls and spins for 10 ms. A sample taken during the suspension is the
 * thread's state before the signal: on CPU. The ring of recent intervals holds the previous
 * handshake's calls too, behind the long run: the walk must stop at that run. */
/* A kernel machine writing into a new history, for tests that ask it questions while it runs. */
typedef struct
{
  JvmsHistoryBuilder *b;
  JvmsWriter         *w;
  JvmsThreads        *threads;
  JvmsKernelMachine  *km;
} LiveMachine;

static JvmsKernelMachine *
live_open (Fixture *f, LiveMachine *m)
{
  g_autoptr(GError) error = NULL;
  m->b = jvms_history_builder_new (f->path, T0, NULL, &error);
  g_assert_no_error (error);
  m->w = jvms_writer_new (m->b, T0);
  m->threads = jvms_threads_new (m->w);
  m->km = jvms_kernel_machine_new (m->w, m->threads, 0);
  return m->km;
}

static void
live_close (LiveMachine *m, gint64 end)
{
  g_autoptr(GError) error = NULL;
  jvms_kernel_machine_finish (m->km, end);
  jvms_threads_flush (m->threads);
  g_assert_true (jvms_history_builder_close (m->b, end, &error));
  g_assert_no_error (error);
  jvms_kernel_machine_free (m->km);
  jvms_threads_free (m->threads);
  jvms_writer_free (m->w);
  jvms_history_builder_free (m->b);
}

static gint
compare_event_time (gconstpointer a, gconstpointer b)
{
  gint64 ta = ((const JvmsKernelEvent *) a)->time, tb = ((const JvmsKernelEvent *) b)->time;
  return ta < tb ? -1 : ta > tb;
}

/* Twenty handshakes as above, the sampler (9, of process @sampler_pid) running @sampler_us
 * after it took the CPU before the signal; the number of samples said to be on a CPU. */
static guint
sample_handshakes_on_cpu (Fixture *f, gint64 sampler_us, int sampler_pid)
{
  LiveMachine m;
  JvmsKernelMachine *km = live_open (f, &m);
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent));
  add_switch (events, 0, 1, 0, 0, 0, 7);
  const gint64 period = 10 * 1000 * 1000, us = 1000;
  const gint64 d = (sampler_us - 10) * us; /* the handshake's later steps move with the run */
  guint n_on_cpu = 0;
  for (int k = 1; k <= 20; k++)
    {
      gint64 t = k * period;
      /* Every other time the sampler runs on the other CPU: the signal comes without a switch. */
      if (k % 2 == 0)
        {
          add_switch (events, t, 1, 7, 70, JVMS_TASK_RUNNING, 9);                              /* the sampler runs */
          add_switch (events, t + d + 10 * us, 1, 9, sampler_pid, JVMS_TASK_INTERRUPTIBLE, 7); /* the signal */
        }
      for (int c = 0; c < 3; c++)
        {
          add_context (events, JVMS_KERNEL_EVENT_SYSCALL_ENTER, t + d + (11 + 2 * c) * us, 1, 70, 7, 0);
          add_context (events, JVMS_KERNEL_EVENT_SYSCALL_EXIT, t + d + (12 + 2 * c) * us, 1, 70, 7, 0);
        }
      add_switch (events, t + d + 17 * us, 1, 7, 70, JVMS_TASK_INTERRUPTIBLE, 0);   /* suspended */
      add_context (events, JVMS_KERNEL_EVENT_SCHED_WAKING, t + d + 40 * us, 0, sampler_pid, 9, 7);
      add_switch (events, t + d + 45 * us, 1, 0, 0, 0, 7);
      for (int c = 0; c < 2; c++)
        {
          add_context (events, JVMS_KERNEL_EVENT_SYSCALL_ENTER, t + d + (46 + 2 * c) * us, 1, 70, 7, 0);
          add_context (events, JVMS_KERNEL_EVENT_SYSCALL_EXIT, t + d + (47 + 2 * c) * us, 1, 70, 7, 0);
        }
      /* The machine is brought up to the sample's time, as the merged stream brings it. */
      gint64 sample = t + d + 30 * us;
      for (guint i = 0; i < events->len; i++)
        {
          JvmsKernelEvent *ev = &g_array_index (events, JvmsKernelEvent, i);
          if (ev->time > T0 + sample)
            {
              g_array_remove_range (events, 0, i);
              break;
            }
          jvms_kernel_machine_feed (km, ev);
          if (i + 1 == events->len)
            g_array_set_size (events, 0);
        }
      JvmsCpuState state = jvms_kernel_machine_sample_state (km, 7, T0 + sample);
      if (state == JVMS_CPU_STATE_ON_CPU)
        n_on_cpu++;
      else
        g_test_message ("handshake %d: state %d", k, state);
    }
  for (guint i = 0; i < events->len; i++)
    jvms_kernel_machine_feed (km, &g_array_index (events, JvmsKernelEvent, i));
  live_close (&m, T0 + 21 * period);
  return n_on_cpu;
}

static void
test_sample_handshakes (Fixture *f, gconstpointer data)
{
  g_assert_cmpuint (sample_handshakes_on_cpu (f, 10, 70), ==, 20);
}

/* Under load the sampler runs longer before it signals (a median of 45 us on a 2-CPU machine
 * running other work, a fifth of the handshakes above 50 us): a preemption by the thread's own
 * process before the handler is still the handshake, however long, so all 20 are on a CPU. The
 * same 80 us taken by another process's thread is a wait for a CPU: the 10 handshakes with a
 * switch are runnable. */
static void
test_sample_handshakes_slow_sampler (Fixture *f, gconstpointer data)
{
  g_assert_cmpuint (sample_handshakes_on_cpu (f, 80, 70), ==, 20);
  g_unlink (f->path);
  g_assert_cmpuint (sample_handshakes_on_cpu (f, 80, 80), ==, 10);
}

/* The same handshake in a trace without system calls (the bundled sample's kind): only the
 * handler's short run and the suspension show. Thread 7 spins on CPU 1 and is sampled while
 * running; thread 6 shares CPU 0 with a hog (8) and waits 5 ms for the CPU before each signal
 * reaches it. Each sample is the state when the signal came: on CPU for 7, waiting for 6. */
static void
test_sample_handshakes_no_syscalls (Fixture *f, gconstpointer data)
{
  LiveMachine m;
  JvmsKernelMachine *km = live_open (f, &m);
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent));
  const gint64 period = 10 * 1000 * 1000, us = 1000;
  add_switch (events, 0, 1, 0, 0, 0, 7);
  add_switch (events, 0, 0, 0, 0, 0, 6);
  guint n_right = 0, n_samples = 0;
  for (int k = 1; k <= 20; k++)
    {
      gint64 t = k * period;
      /* 7: its handler runs 40 us at the end of its run, then it is suspended until +300 us. */
      add_switch (events, t + 40 * us, 1, 7, 70, JVMS_TASK_INTERRUPTIBLE, 0);
      add_context (events, JVMS_KERNEL_EVENT_SCHED_WAKING, t + 300 * us, 0, 70, 9, 7);
      add_switch (events, t + 310 * us, 1, 0, 0, 0, 7);
      /* 6: preempted by the hog at -5 ms, signalled while it waits, back at +0, 40 us of
       * handler, suspended, woken at +300 us and waiting again behind the hog. */
      add_switch (events, t - 5000 * us, 0, 6, 70, JVMS_TASK_RUNNING, 8);
      add_switch (events, t, 0, 8, 80, JVMS_TASK_RUNNING, 6);
      add_switch (events, t + 40 * us, 0, 6, 70, JVMS_TASK_INTERRUPTIBLE, 8);
      add_context (events, JVMS_KERNEL_EVENT_SCHED_WAKING, t + 300 * us, 1, 70, 9, 6);
      add_switch (events, t + 2000 * us, 0, 8, 80, JVMS_TASK_RUNNING, 6);
      gint64 sample = t + 200 * us;
      g_array_sort (events, compare_event_time);
      guint fed = 0;
      while (fed < events->len && g_array_index (events, JvmsKernelEvent, fed).time <= T0 + sample)
        jvms_kernel_machine_feed (km, &g_array_index (events, JvmsKernelEvent, fed++));
      g_array_remove_range (events, 0, fed);
      JvmsCpuState s7 = jvms_kernel_machine_sample_state (km, 7, T0 + sample);
      JvmsCpuState s6 = jvms_kernel_machine_sample_state (km, 6, T0 + sample);
      n_samples += 2;
      n_right += (s7 == JVMS_CPU_STATE_ON_CPU) + (s6 == JVMS_CPU_STATE_WAITING);
      if (s7 != JVMS_CPU_STATE_ON_CPU || s6 != JVMS_CPU_STATE_WAITING)
        g_test_message ("handshake %d: 7 in %d, 6 in %d", k, s7, s6);
      fed = 0;
      while (fed < events->len)
        jvms_kernel_machine_feed (km, &g_array_index (events, JvmsKernelEvent, fed++));
      g_array_set_size (events, 0);
    }
  g_assert_cmpuint (n_right, ==, n_samples);
  live_close (&m, T0 + 21 * period);
}

/* Names, pids and kinds: a JVM is recognised by its HotSpot threads, other processes are not. */
static void
test_identity (Fixture *f, gconstpointer data)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent));
  JvmsKernelEvent ev = { .type = JVMS_KERNEL_EVENT_COMM, .name = "PERF_RECORD_COMM", .cpu = -1, .time = 0 };
  const struct { int pid, tid; const char *comm; } comms[] = {
    { 100, 100, "java" }, { 100, 101, "VM Thread" }, { 100, 102, "C2 CompilerThre" },
    { 100, 103, "worker-1" }, { 200, 200, "bash" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (comms); i++)
    {
      ev.task.pid = ev.pid = comms[i].pid;
      ev.task.tid = ev.tid = comms[i].tid;
      g_strlcpy (ev.task.comm, comms[i].comm, JVMS_KERNEL_COMM_LEN);
      g_array_append_val (events, ev);
    }
  g_autoptr(JvmsHistory) h = index_events (f, events, T0 + 1000, NULL);
  const struct { int tid; JvmsThreadKind kind; } expect[] = {
    { 100, JVMS_THREAD_KIND_JAVA }, { 101, JVMS_THREAD_KIND_VM }, { 102, JVMS_THREAD_KIND_JIT },
    { 103, JVMS_THREAD_KIND_JAVA }, { 200, JVMS_THREAD_KIND_OTHER_PROCESS },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      g_autofree char *kp = g_strdup_printf ("Threads/%d/kind", expect[i].tid);
      g_autofree char *np = g_strdup_printf ("Threads/%d/name", expect[i].tid);
      JvmsInterval iv;
      g_assert_true (jvms_history_query_single (h, jvms_history_lookup (h, kp), T0 + 500, &iv, NULL));
      g_assert_cmpint (iv.value.i, ==, expect[i].kind);
      g_assert_true (jvms_history_query_single (h, jvms_history_lookup (h, np), T0 + 500, &iv, NULL));
      g_assert_cmpstr (iv.value.s, ==, comms[i].comm);
    }
}

/* Which JVM is ours (issue 23). Two processes run HotSpot's threads: with a subject (bundle.json's
 * pid, JFR's, or the process of JFR's threads) only its threads are the JVM's and the other
 * JVM is another process; without one (a kernel-only trace) both are JVMs found, classified by
 * name, and none is taken for the recorded one until there is only one. */
typedef struct
{
  JvmsThreadKind kinds[4];   /* tids 101, 102, 301, 302 */
  gint32         jvm_pid;
  char          *jvms;
} Identity;

static void
identity_of_two_jvms (Fixture *f, JvmsSubjectSource source, gint32 subject, gboolean jfr_thread, Identity *out)
{
  const struct { int pid, tid; const char *comm; } comms[] = {
    { 100, 100, "java" }, { 100, 101, "VM Thread" }, { 100, 102, "worker" },
    { 300, 300, "java" }, { 300, 301, "GC Thread#0" }, { 300, 302, "client-1" },
  };
  g_autoptr(GError) error = NULL;
  JvmsHistoryBuilder *b = jvms_history_builder_new (f->path, T0, NULL, &error);
  g_assert_no_error (error);
  JvmsWriter *w = jvms_writer_new (b, T0);
  JvmsThreads *threads = jvms_threads_new (w);
  if (subject > 0)
    jvms_threads_set_subject (threads, subject, source);
  /* JFR knows thread 302 (its OS thread id): its process is the one that wrote the recording. */
  if (jfr_thread)
    jvms_threads_set_java (threads, jvms_threads_get (threads, 302, T0), "client-1", 12);
  JvmsKernelMachine *km = jvms_kernel_machine_new (w, threads, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (comms); i++)
    {
      JvmsKernelEvent ev = { .type = JVMS_KERNEL_EVENT_COMM, .name = "PERF_RECORD_COMM", .cpu = -1, .time = 0 };
      ev.task.pid = ev.pid = comms[i].pid;
      ev.task.tid = ev.tid = comms[i].tid;
      g_strlcpy (ev.task.comm, comms[i].comm, JVMS_KERNEL_COMM_LEN);
      jvms_kernel_machine_feed (km, &ev);
    }
  JvmsKernelEvent exec = { .type = JVMS_KERNEL_EVENT_PROCESS_EXEC, .name = "sched:sched_process_exec",
                           .time = T0 + 10, .cpu = 0, .pid = 300, .tid = 300 };
  exec.task.pid = exec.task.tid = 300;
  g_strlcpy (exec.task.comm, "java", JVMS_KERNEL_COMM_LEN);
  exec.task.filename = "/usr/lib/jvm/bin/java";
  jvms_kernel_machine_feed (km, &exec);
  jvms_kernel_machine_finish (km, T0 + 1000);
  jvms_threads_flush (threads);
  out->jvm_pid = jvms_threads_get_jvm_pid (threads);
  out->jvms = jvms_threads_describe_jvms (threads);
  g_assert_true (jvms_history_builder_close (b, T0 + 1000, &error));
  g_assert_no_error (error);
  jvms_kernel_machine_free (km);
  jvms_threads_free (threads);
  jvms_writer_free (w);
  jvms_history_builder_free (b);

  g_autoptr(JvmsHistory) h = jvms_history_open (f->path, 0, &error);
  g_assert_no_error (error);
  const int tids[] = { 101, 102, 301, 302 };
  for (gsize i = 0; i < G_N_ELEMENTS (tids); i++)
    {
      g_autofree char *path = g_strdup_printf ("Threads/%d/kind", tids[i]);
      JvmsInterval iv;
      g_assert_true (jvms_history_query_single (h, jvms_history_lookup (h, path), T0 + 500, &iv, NULL));
      out->kinds[i] = (JvmsThreadKind) iv.value.i;
    }
}

static void
test_identity_subject (Fixture *f, gconstpointer data)
{
  const JvmsThreadKind OTHER = JVMS_THREAD_KIND_OTHER_PROCESS;
  Identity id;

  /* The bundle names 300: the JVM 100 is another process, names notwithstanding. */
  identity_of_two_jvms (f, JVMS_SUBJECT_BUNDLE, 300, FALSE, &id);
  g_assert_cmpint (id.kinds[0], ==, OTHER);
  g_assert_cmpint (id.kinds[1], ==, OTHER);
  g_assert_cmpint (id.kinds[2], ==, JVMS_THREAD_KIND_GC);
  g_assert_cmpint (id.kinds[3], ==, JVMS_THREAD_KIND_JAVA);
  g_assert_cmpint (id.jvm_pid, ==, 300);
  g_assert_cmpstr (id.jvms, ==, "100\tjava\t\t3\n300\tjava\t/usr/lib/jvm/bin/java\t3");
  g_free (id.jvms);

  /* The subject names 100: the other way round. */
  identity_of_two_jvms (f, JVMS_SUBJECT_JFR, 100, FALSE, &id);
  g_assert_cmpint (id.kinds[0], ==, JVMS_THREAD_KIND_VM);
  g_assert_cmpint (id.kinds[1], ==, JVMS_THREAD_KIND_JAVA);
  g_assert_cmpint (id.kinds[2], ==, OTHER);
  g_assert_cmpint (id.kinds[3], ==, OTHER);
  g_assert_cmpint (id.jvm_pid, ==, 100);
  g_free (id.jvms);

  /* No subject but a JFR thread whose OS thread is in 300: 300 wrote the recording. */
  identity_of_two_jvms (f, JVMS_SUBJECT_NONE, 0, TRUE, &id);
  g_assert_cmpint (id.kinds[0], ==, OTHER);
  g_assert_cmpint (id.kinds[1], ==, OTHER);
  g_assert_cmpint (id.kinds[2], ==, JVMS_THREAD_KIND_GC);
  g_assert_cmpint (id.jvm_pid, ==, 300);
  g_free (id.jvms);

  /* Kernel only: both are JVMs found, neither is the recorded one. */
  identity_of_two_jvms (f, JVMS_SUBJECT_NONE, 0, FALSE, &id);
  g_assert_cmpint (id.kinds[0], ==, JVMS_THREAD_KIND_VM);
  g_assert_cmpint (id.kinds[1], ==, JVMS_THREAD_KIND_JAVA);
  g_assert_cmpint (id.kinds[2], ==, JVMS_THREAD_KIND_GC);
  g_assert_cmpint (id.kinds[3], ==, JVMS_THREAD_KIND_JAVA);
  g_assert_cmpint (id.jvm_pid, ==, -1);
  g_assert_cmpstr (id.jvms, ==, "100\tjava\t\t3\n300\tjava\t/usr/lib/jvm/bin/java\t3");
  g_free (id.jvms);
}

/* The jvms list is bounded: a 4 KB exec'd path is cut to 256 bytes, control characters (a tab
 * would split the line's fields) become '?'. */
static void
test_jvms_list_bounds (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  JvmsHistoryBuilder *b = jvms_history_builder_new (f->path, T0, NULL, &error);
  g_assert_no_error (error);
  JvmsWriter *w = jvms_writer_new (b, T0);
  JvmsThreads *threads = jvms_threads_new (w);
  JvmsThread *t = jvms_threads_get (threads, 500, T0);
  jvms_threads_set_pid (threads, t, 500);
  jvms_threads_set_comm (threads, t, "ja\tva");
  jvms_threads_add_jvm_pid (threads, 500);
  g_autofree char *path = g_strnfill (4000, 'a');
  jvms_threads_note_exec (threads, 500, path);
  g_autofree char *jvms = jvms_threads_describe_jvms (threads);
  g_autofree char *cut = g_strnfill (256, 'a');
  g_autofree char *expected = g_strdup_printf ("500\tja?va\t%s\t1", cut);
  g_assert_cmpstr (jvms, ==, expected);
  g_assert_true (jvms_history_builder_close (b, T0 + 1000, &error));
  jvms_threads_free (threads);
  jvms_writer_free (w);
  jvms_history_builder_free (b);
}

/* Counter rates: the events counted between two samples over the time between them, written at
 * the earlier sample, per thread and per CPU; disk queues count inserted and issued requests
 * until they complete, never below zero. */
static void
test_counters_and_disk (Fixture *f, gconstpointer data)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent));
  JvmsKernelEvent ev = { .type = JVMS_KERNEL_EVENT_COUNTER_SAMPLE, .name = "cycles", .cpu = 1, .pid = 5, .tid = 6 };
  ev.counter.counter = "cycles";
  ev.counter.period = 1000000;
  const gint64 times[] = { 1000, 2000, 6000 }; /* µs after T0 */
  for (gsize i = 0; i < G_N_ELEMENTS (times); i++)
    {
      ev.time = T0 + times[i] * 1000;
      g_array_append_val (events, ev);
    }
  JvmsKernelEvent blk = { .cpu = 0, .pid = -1, .tid = -1 };
  blk.block.dev = (8u << 20) | 16u;
  const struct { JvmsKernelEventType type; gint64 t; } io[] = {
    { JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE, 6100 }, /* issued before the recording: ignored */
    { JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT, 6200 },
    { JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT, 6300 },
    { JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE, 6400 },
    { JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE, 6500 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (io); i++)
    {
      blk.type = io[i].type;
      blk.name = "block";
      blk.time = T0 + io[i].t * 1000;
      g_array_append_val (events, blk);
    }
  g_autoptr(JvmsHistory) h = index_events (f, events, T0 + 7000000, NULL);

  const struct { const char *path; gint64 t; double rate; } expect[] = {
    { "Threads/6/counters/cycles", 1500, 1e6 / 1e-3 },  /* 1 M cycles in 1 ms */
    { "Threads/6/counters/cycles", 3000, 1e6 / 4e-3 },  /* then in 4 ms */
    { "CPUs/1/counters/cycles", 1500, 1e6 / 1e-3 },
    { "CPUs/1/counters/cycles", 5999, 1e6 / 4e-3 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      JvmsInterval iv;
      JvmsAttribute a = jvms_history_lookup (h, expect[i].path);
      g_assert_cmpuint (a, !=, JVMS_ATTRIBUTE_INVALID);
      g_assert_true (jvms_history_query_single (h, a, T0 + expect[i].t * 1000, &iv, NULL));
      g_assert_cmpint (iv.value.type, ==, JVMS_VALUE_DOUBLE);
      g_assert_cmpfloat_with_epsilon (iv.value.d, expect[i].rate, expect[i].rate * 1e-9);
    }
  JvmsInterval iv;
  /* Nothing is known before the first sample nor after the last. */
  g_assert_true (jvms_history_query_single (h, jvms_history_lookup (h, "Threads/6/counters/cycles"), T0 + 500000, &iv, NULL));
  g_assert_cmpint (iv.value.type, ==, JVMS_VALUE_NULL);
  g_assert_true (jvms_history_query_single (h, jvms_history_lookup (h, "Threads/6/counters/cycles"), T0 + 6500000, &iv, NULL));
  g_assert_cmpint (iv.value.type, ==, JVMS_VALUE_NULL);

  const struct { const char *path; gint64 t; gint64 v; } disk[] = {
    { "Disk/8:16/queue", 6250, 1 }, { "Disk/8:16/queue", 6350, 2 }, { "Disk/8:16/queue", 6600, 1 },
    { "Disk/8:16/in-flight", 6450, 1 }, { "Disk/8:16/in-flight", 6600, 0 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (disk); i++)
    {
      JvmsAttribute a = jvms_history_lookup (h, disk[i].path);
      g_assert_cmpuint (a, !=, JVMS_ATTRIBUTE_INVALID);
      g_assert_true (jvms_history_query_single (h, a, T0 + disk[i].t * 1000, &iv, NULL));
      g_assert_cmpint (iv.value.type, ==, JVMS_VALUE_INT);
      g_assert_cmpint (iv.value.i, ==, disk[i].v);
    }
}

/* More block requests in flight on a device than it has slots: the first
 * JVMS_DISK_REQUESTS_MAX_SLOTS have slots, the rest count only in the queue depth, and a note
 * says how many (the note analyze, its JSON and the window's banner show); a device within its
 * slots has none. */
static void
test_disk_overflow (Fixture *f, gconstpointer data)
{
  const guint extra = 3;
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent));
  JvmsKernelEvent blk = { .type = JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT, .name = "block", .cpu = 0,
                          .pid = 5, .tid = 5 };
  g_strlcpy (blk.block.rwbs, "W", sizeof blk.block.rwbs);
  blk.block.nr_sector = 8;
  blk.block.dev = (8u << 20) | 0u;
  blk.time = T0 + 500;
  g_array_append_val (events, blk);
  blk.block.dev = (8u << 20) | 16u;
  for (guint i = 0; i < JVMS_DISK_REQUESTS_MAX_SLOTS + extra; i++)
    {
      blk.time = T0 + 1000 + i;
      blk.block.sector = 8 * (guint64) i;
      g_array_append_val (events, blk);
    }
  gint64 end = T0 + 1000000;
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JvmsHistory) h = index_events_q (f, events, end, NULL, NULL, notes);

  JvmsInterval iv;
  g_assert_true (jvms_history_query_single (h, jvms_history_lookup (h, "Disk/8:16/queue"), end - 1, &iv, NULL));
  g_assert_cmpint (iv.value.i, ==, JVMS_DISK_REQUESTS_MAX_SLOTS + extra);
  g_autofree char *last = g_strdup_printf ("Disk/8:16/requests/%d", JVMS_DISK_REQUESTS_MAX_SLOTS - 1);
  g_autofree char *beyond = g_strdup_printf ("Disk/8:16/requests/%d", JVMS_DISK_REQUESTS_MAX_SLOTS);
  g_assert_cmpuint (jvms_history_lookup (h, last), !=, JVMS_ATTRIBUTE_INVALID);
  g_assert_cmpuint (jvms_history_lookup (h, beyond), ==, JVMS_ATTRIBUTE_INVALID);

  g_assert_cmpuint (notes->len, ==, 1);
  g_autofree char *want = g_strdup_printf ("t.perf: disk 8:16: %u block requests found all %d request "
                                           "slots busy: counted in the queue depth, not drawn as requests",
                                           extra, JVMS_DISK_REQUESTS_MAX_SLOTS);
  g_assert_cmpstr (g_ptr_array_index (notes, 0), ==, want);
}

/* A request with no completion, begun long before the end, is said in a note (on the sample,
 * a 4 KB read-ahead drew a bar over its last 4 s: this kernel records nothing in the idle task,
 * where the completion's interrupt came). One begun shortly before the end (in flight when
 * recording stopped) and one completed are not. */
static void
test_disk_no_completion (Fixture *f, gconstpointer data)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent));
  JvmsKernelEvent blk = { .name = "block", .cpu = 0, .pid = 5, .tid = 5 };
  g_strlcpy (blk.block.rwbs, "RA", sizeof blk.block.rwbs);
  blk.block.nr_sector = 8;
  blk.block.dev = (254u << 20) | 0u;
  const gint64 end = T0 + 5 * G_GINT64_CONSTANT (1000000000);
  const struct { gint64 at; guint64 sector; gboolean completed; } requests[] = {
    { T0 + 1000, 100, FALSE },              /* 5 s before the end: noted */
    { T0 + 2000, 200, TRUE },               /* completed: not noted */
    { end - 1500 * 1000 * 1000, 300, FALSE }, /* 1.5 s before: noted */
    { end - 500 * 1000 * 1000, 400, FALSE },  /* in flight at the end: not noted */
  };
  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      blk.type = JVMS_KERNEL_EVENT_BLOCK_RQ_INSERT;
      blk.time = requests[i].at;
      blk.block.sector = requests[i].sector;
      g_array_append_val (events, blk);
      blk.type = JVMS_KERNEL_EVENT_BLOCK_RQ_ISSUE;
      blk.time++;
      g_array_append_val (events, blk);
      if (requests[i].completed)
        {
          blk.type = JVMS_KERNEL_EVENT_BLOCK_RQ_COMPLETE;
          blk.time += 1000;
          g_array_append_val (events, blk);
        }
    }
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JvmsHistory) h = index_events_q (f, events, end, NULL, NULL, notes);

  g_assert_cmpuint (notes->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (notes, 0), ==,
                   "t.perf: disk 254:0: 2 block requests have no completion in the trace although begun more "
                   "than 1 s before its end (the oldest 5.000 s before): drawn up to the end. A disk stalled "
                   "that long, or a completion the kernel did not record (as in an interrupt on an idle CPU "
                   "where it records nothing in the idle task)");
  /* The interval itself still runs to the end: the note is what says why. */
  JvmsInterval iv;
  g_assert_true (jvms_history_query_single (h, jvms_history_lookup (h, "Disk/254:0/requests/0"), end - 1, &iv, NULL));
  g_assert_cmpint (iv.start, ==, T0 + 1000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/Analysis/kernel/random-schedules", Fixture, NULL, fixture_set_up, test_random_schedules, fixture_tear_down);
  g_test_add ("/Analysis/kernel/lossy-schedules", Fixture, NULL, fixture_set_up, test_lossy_schedules, fixture_tear_down);
  g_test_add ("/Analysis/kernel/missing-switch-in", Fixture, NULL, fixture_set_up, test_missing_switch_in, fixture_tear_down);
  g_test_add ("/Analysis/kernel/sample-handshakes", Fixture, NULL, fixture_set_up, test_sample_handshakes, fixture_tear_down);
  g_test_add ("/Analysis/kernel/sample-handshakes-slow-sampler", Fixture, NULL, fixture_set_up,
              test_sample_handshakes_slow_sampler, fixture_tear_down);
  g_test_add ("/Analysis/kernel/sample-handshakes-no-syscalls", Fixture, NULL, fixture_set_up, test_sample_handshakes_no_syscalls, fixture_tear_down);
  g_test_add ("/Analysis/kernel/evidence", Fixture, NULL, fixture_set_up, test_evidence, fixture_tear_down);
  g_test_add ("/Analysis/kernel/silent-thread", Fixture, NULL, fixture_set_up, test_silent_thread,
              fixture_tear_down);
  g_test_add ("/Analysis/kernel/identity", Fixture, NULL, fixture_set_up, test_identity, fixture_tear_down);
  g_test_add ("/Analysis/kernel/identity-subject", Fixture, NULL, fixture_set_up, test_identity_subject, fixture_tear_down);
  g_test_add ("/Analysis/kernel/jvms-list-bounds", Fixture, NULL, fixture_set_up, test_jvms_list_bounds, fixture_tear_down);
  g_test_add ("/Analysis/kernel/counters-and-disk", Fixture, NULL, fixture_set_up, test_counters_and_disk, fixture_tear_down);
  g_test_add ("/Analysis/kernel/disk-overflow", Fixture, NULL, fixture_set_up, test_disk_overflow, fixture_tear_down);
  g_test_add ("/Analysis/kernel/disk-no-completion", Fixture, NULL, fixture_set_up, test_disk_no_completion,
              fixture_tear_down);
  return g_test_run ();
}
