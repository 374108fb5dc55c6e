"""A perf.data of system calls recorded by a test (the bundled sample has none): a shell that
copies, sleeps, lists a folder and fails to list a missing one, so that calls of several kinds,
a blocking one and failing ones are there."""
import subprocess


def record_syscalls(data):
    """Records raw_syscalls enter and exit into @data (CLOCK_MONOTONIC, as the recorder's perf);
    returns perf's CompletedProcess."""
    return subprocess.run(["perf", "record", "-q", "-e", "raw_syscalls:sys_enter", "-e", "raw_syscalls:sys_exit",
                           "-k", "CLOCK_MONOTONIC", "-o", data, "--", "sh", "-c",
                           "dd if=/dev/zero of=/dev/null bs=1 count=500 2>/dev/null; sleep 0.05; "
                           "ls / /nonexistent >/dev/null 2>&1; true"],
                          capture_output=True, text=True)
