"""A naive model of the kernel layer's rules (docs/analysis.md), replayed on `perf script -F
tid,cpu,time,event,trace --ns` output: per thread, the time in each kernel state, and the switch
records that evidence shows missing. Evidence: an event recorded in a thread's own context (the
line's tid: a wake-up or migration it performs, a block request or counter sample taken while
it runs, its own switch-out) puts it on that CPU then;
where the model believed otherwise, its belief holds up to when it was last certain, the span
from there to the evidence is unknown, and the thread runs on that CPU from the evidence on; the
thread believed on that CPU is not (unknown from when it was last certain; the one missing
record switched it out). A thread with switch-ins and no line of its own is silent: the missing
records next to its runs are counted apart (missing_silent)."""
import re

LINE = re.compile(r"^\s*(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):\s*(.*)$")
SWITCH = re.compile(r"prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+) ")
WAKE = re.compile(r" pid=(\d+) prio=")


class Thread:
    def __init__(self):
        self.state = None      # None before the thread is first seen
        self.cpu = -1
        self.start = 0
        self.certain = 0       # the state is proven up to here
        self.exiting = False
        self.totals = {}
        self.own = 0           # lines in its own context
        self.blamed = 0        # missing records next to its runs


class Model:
    def __init__(self):
        self.threads = {}
        self.current = {}      # cpu -> tid (0: idle), once a switch on it was seen
        self.missing = 0
        self.missing_from_idle = 0

    def get(self, tid):
        return self.threads.setdefault(tid, Thread())

    def transition(self, k, t, state, cpu):
        if k.state == state and k.cpu == cpu:
            return
        if k.state is not None:
            k.totals[k.state] = k.totals.get(k.state, 0) + t - k.start
        k.state, k.cpu, k.start, k.certain = state, cpu, t, t

    def contradicted(self, k):
        if k.state is None or k.state == "unknown":
            return False
        if k.certain > k.start:
            k.totals[k.state] = k.totals.get(k.state, 0) + k.certain - k.start
            k.start = k.certain
        k.state, k.cpu = "unknown", -1
        return True

    def evidence(self, tid, t, cpu, set_cpu):
        k = self.get(tid)
        if k.state == "running" and k.cpu == cpu:
            k.certain = t
            return
        elsewhere = k.state == "running"
        cur = self.current.get(cpu)
        other = self.threads.get(cur) if cur and cur != tid else None
        if self.contradicted(k):
            self.missing += 2 if elsewhere else 1
            if cur == 0:
                self.missing_from_idle += 1
            if other is not None:
                other.blamed += 1
            if elsewhere:
                k.blamed += 1
        if other is not None and other.state == "running" and other.cpu == cpu:
            self.contradicted(other)
        self.transition(k, t, "running", cpu)
        if set_cpu and (self.current.get(cpu, 0) == 0 or other is not None):
            self.current[cpu] = tid

    def feed(self, line):
        m = LINE.match(line)
        if not m:
            return
        ctx, cpu = int(m.group(1)), int(m.group(2))
        t = int(m.group(3)) * 1_000_000_000 + int(m.group(4))
        event, trace = m.group(5), m.group(6)
        self.handle(ctx, cpu, t, event, trace)
        # Heard from, after the handlers made the threads they name (the events the index
        # reads; others are not evidence).
        if ctx > 0 and ctx in self.threads and (event.split(":")[0] in ("sched", "block", "raw_syscalls")
                                                or ":" not in event):
            self.threads[ctx].own += 1

    def handle(self, ctx, cpu, t, event, trace):
        if event == "sched:sched_switch":
            s = SWITCH.search(trace)
            prev, prev_state, nxt = int(s.group(1)), s.group(2), int(s.group(3))
            if prev > 0:
                k = self.get(prev)
                if k.state is not None:
                    self.evidence(prev, t, cpu, False)
                if k.exiting or "X" in prev_state or "Z" in prev_state:
                    state = "exited"
                elif prev_state.startswith("R"):
                    state = "runnable"
                elif "D" in prev_state:
                    state = "blocked-io"
                else:
                    state = "blocked"
                self.transition(k, t, state, -1)
            if nxt > 0:
                k = self.get(nxt)
                if k.state == "running" and self.contradicted(k):
                    self.missing += 1
                    k.blamed += 1
                k.exiting = False
                self.transition(k, t, "running", cpu)
            self.current[cpu] = nxt
        elif event in ("sched:sched_waking", "sched:sched_wakeup", "sched:sched_wakeup_new"):
            if ctx > 0:
                self.evidence(ctx, t, cpu, True)
            k = self.get(int(WAKE.search(trace).group(1)))
            if event == "sched:sched_wakeup_new":
                k.exiting = False
                if k.state != "running":
                    self.transition(k, t, "runnable", -1)
            elif k.state in (None, "blocked", "blocked-io", "unknown"):
                self.transition(k, t, "runnable", -1)
        elif event == "sched:sched_migrate_task" or event.startswith("block:") or ":" not in event:
            # Migrations, block requests and counter samples ("cycles", "cpu-clock/period=N/").
            if ctx > 0:
                self.evidence(ctx, t, cpu, True)
        elif event == "sched:sched_process_exit":
            self.get(int(WAKE.search(trace).group(1))).exiting = True

    @property
    def missing_silent(self):
        return sum(k.blamed for k in self.threads.values() if k.own == 0)

    def finish(self, end):
        for k in self.threads.values():
            if k.state is not None:
                k.totals[k.state] = k.totals.get(k.state, 0) + end - k.start
                k.state = None
