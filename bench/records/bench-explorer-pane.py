#!/usr/bin/env python3
"""bench-explorer-pane: the Explorer pane's time and memory on a recording (issue 22, item 4 of
the window's part; docs/records.md, "The Explorer pane").

    bench-explorer-pane.py --jvmscope BIN [--baseline BIN] --trace TRACE --source-root DIR
                           --schema-dir DIR [--runs N]

Each BIN (and the baseline, another build of the window) opens TRACE under Xvfb (its index is
built by the first run into a cache kept in /tmp), the Explorer is shown (Ctrl+Shift+X) and, as a
user would, a filter and then a metric are applied. Measured from the key or Enter to the pane's
state dump saying it shows the answer (JVMSCOPE_DEBUG_DUMP_STATE, read every 50 ms, so the
figures are 50 ms coarse), and the window's resident memory from /proc.

Prints, per BIN (the baseline's with the prefix base_), medians of the runs:
  figure explorer_records      records in the pane
  figure explorer_open_s       Ctrl+Shift+X to the table filled (the quanta read)
  figure explorer_filter_s     Enter in Filter to the answer (`duration > 10us`)
  figure explorer_metric_s     Enter in Metrics to the answer (`twice = duration * 2`)
  figure explorer_rss_mib      resident memory after the metric, less before the pane was shown
  figure explorer_rss_before_mib  the window's resident memory before the pane was shown
  figure explorer_rss_after_mib   and after the metric (the pane open with its records)
  figure explorer_hwm_mib      the window's peak resident memory (VmHWM)
and, with --baseline, ratio NAME (ours over the baseline's) for each.
"""
import argparse, configparser, importlib.util, os, statistics, subprocess, tempfile, time


def rss_kib(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def run_once(w, binary, args, cache):
    tmp = tempfile.mkdtemp(prefix="bench-explorer-")
    xvfb, display = w.start_xvfb("1600x1200")
    state = os.path.join(tmp, "state.ini")
    env = dict(os.environ)
    env.update({"DISPLAY": display, "GDK_BACKEND": "x11", "GSETTINGS_SCHEMA_DIR": args.schema_dir,
                "GSETTINGS_BACKEND": "memory", "XDG_CACHE_HOME": cache,
                "XDG_CONFIG_HOME": os.path.join(tmp, "config"), "XDG_DATA_HOME": os.path.join(tmp, "data"),
                "JVMSCOPE_DEBUG_DUMP_STATE": state, "LC_ALL": "C.UTF-8", "GTK_A11Y": "none"})
    env.pop("WAYLAND_DISPLAY", None)

    def get(section, key):
        cp = configparser.RawConfigParser()
        try:
            cp.read(state)
            return cp.get(section, key)
        except (configparser.Error, OSError):
            return None

    def wait(pred, timeout=1800):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred():
                return time.monotonic()
            time.sleep(0.05)
        raise RuntimeError("timed out")

    def xdo(*cmd):
        subprocess.run(["xdotool", *cmd], env=env, capture_output=True)

    def type_into(key, text):
        b = [int(v) for v in get("explorer", key).strip(";").split(";")]
        xdo("mousemove", str(b[0] + b[2] // 2), str(b[1] + b[3] // 2))
        xdo("click", "--repeat", "3", "1")
        time.sleep(0.3)
        xdo("key", "ctrl+a")
        xdo("type", "--delay", "10", text)
        t0 = time.monotonic()
        xdo("key", "Return")
        return t0

    app = subprocess.Popen([binary, args.trace], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait(lambda: get("window", "loading") == "false" and get("views", "complete") == "true")
        time.sleep(2)
        before = rss_kib(app.pid, "VmRSS")
        t0 = time.monotonic()
        xdo("key", "ctrl+shift+x")
        t1 = wait(lambda: get("explorer", "busy") == "false" and (get("explorer", "rows") or "0") != "0")
        records = int(get("explorer", "rows"))
        f0 = type_into("filter-bounds", "duration > 10us")
        f1 = wait(lambda: get("explorer", "filter") == "duration > 10us" and get("explorer", "busy") == "false")
        m0 = type_into("metric-bounds", "twice = duration * 2")
        m1 = wait(lambda: get("explorer", "metrics") == "twice = duration * 2" and get("explorer", "busy") == "false")
        time.sleep(1)
        return {"records": records, "open_s": t1 - t0, "filter_s": f1 - f0, "metric_s": m1 - m0,
                "rss_mib": (rss_kib(app.pid, "VmRSS") - before) / 1024.0,
                "rss_before_mib": before / 1024.0, "rss_after_mib": rss_kib(app.pid, "VmRSS") / 1024.0,
                "hwm_mib": rss_kib(app.pid, "VmHWM") / 1024.0}
    finally:
        app.terminate()
        try:
            app.wait(timeout=30)
        except subprocess.TimeoutExpired:
            app.kill()
        xvfb.terminate()
        xvfb.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jvmscope", required=True)
    ap.add_argument("--baseline")
    ap.add_argument("--trace", required=True)
    ap.add_argument("--source-root", required=True)
    ap.add_argument("--schema-dir", required=True)
    ap.add_argument("--cache", default="/tmp/bench-explorer-cache")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    spec = importlib.util.spec_from_file_location("w", os.path.join(args.source_root, "tests", "app", "test-window.py"))
    import sys
    sys.path.insert(0, os.path.join(args.source_root, "tests", "data"))
    w = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(w)
    results = {}
    for name, binary in (("", args.jvmscope), ("base_", args.baseline)):
        if binary is None:
            continue
        runs = [run_once(w, binary, args, args.cache) for _ in range(args.runs)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        results[name] = med
        print("figure %sexplorer_records %d records" % (name, med["records"]))
        for k, unit in (("open_s", "s"), ("filter_s", "s"), ("metric_s", "s"), ("rss_mib", "MiB"),
                        ("rss_before_mib", "MiB"), ("rss_after_mib", "MiB"), ("hwm_mib", "MiB")):
            print("figure %sexplorer_%s %.3f %s" % (name, k, med[k], unit), flush=True)
    if "base_" in results:
        for k in ("open_s", "filter_s", "metric_s", "rss_mib", "hwm_mib"):
            b = results["base_"][k]
            print("ratio explorer_%s %.3f" % (k, results[""][k] / b if b else 0))


if __name__ == "__main__":
    main()
