# Run by `perf script -s`: one line per sched_waking, "TIME TID WOKEN FLAGS CPU": the thread in
# whose context the wake-up ran (common_pid), the thread it woke, the kernel's trace flags
# (common_flags: 0x08 hardirq, 0x10 softirq, 0x40 NMI). The oracle of test-recorded.py's wakers.
from perf_trace_context import *  # noqa: F401,F403 (common_flags)


def sched__sched_waking(event_name, context, common_cpu, common_secs, common_nsecs, common_pid,
                        common_comm, common_callchain, comm, pid, prio, target_cpu, perf_sample_dict=None):
    print("%d %d %d %d %d" % (common_secs * 1000000000 + common_nsecs, common_pid, pid,
                              common_flags(context), common_cpu))
