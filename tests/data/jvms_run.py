"""Running the command line from a test: a timeout asks with SIGTERM first."""
import subprocess


def run(cmd, timeout=None):
    """Runs cmd; on a timeout it is asked to stop with SIGTERM first, so that the recorder stops
    its perf (which runs in a process group of its own and would outlive a SIGKILL)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.terminate()
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        err = "timed out after %s s\n%s" % (timeout, err)
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)
