#!/usr/bin/env bash
# Everything CI does, from a fresh Debian 12 machine: install what is needed, build twice
# (plain gcc with warnings as errors, and AddressSanitizer + UndefinedBehaviorSanitizer),
# run every test in both builds, run every libFuzzer target for a bounded time (a third build,
# clang), and end with the line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

scripts/install-deps.sh || { echo "dependency installation failed"; echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
began=$(date +%s)
rm -f "$root/failed-tests.txt"

# The minutes each stage took, so that the 30-minute budget can be watched in the log.
stage() {
  echo "=== $1 (at $(( ($(date +%s) - began) / 60 )) min $(( ($(date +%s) - began) % 60 )) s)"
}

# setup_build DIR MESON-ARGS...: configure DIR once, reconfigure it afterwards.
setup_build() {
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$@"
  fi
}

# count_results DIR: add that build's test results to the totals. Every test that meson lists
# must have its result in the log: a log that is missing or cannot be read, or tests without a
# result (meson test killed half-way), count as failures, never as nothing.
count_results() {
  local dir=$1
  local log=$dir/meson-logs/testlog.json
  local listed out
  listed=$(meson test -C "$dir" --list "${test_args[@]}" 2>/dev/null | grep -c ' / ')
  if [ "$listed" -eq 0 ]; then
    echo "meson lists no test in $dir: counted as one failure"
    failed=$((failed + 1))
  fi
  if ! out=$(python3 - "$log" "$listed" 2>>"$root/failed-tests.txt" <<'PY'
import json, sys
ok = bad = 0
try:
    with open(sys.argv[1]) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)["result"]
            if r in ("OK", "EXPECTEDFAIL"):
                ok += 1
            else:
                # SKIP counts as a failure on purpose: no test may be skipped to get green.
                bad += 1
                t = json.loads(line)
                print(f"{sys.argv[1].split('/')[0]}: {t['name']} {r}", file=sys.stderr)
                # Its failed checks (each with the two lines after it) and its last lines, so
                # that the cause is in the log's tail too.
                out = (t.get("stdout") or "").splitlines()
                shown = [i + k for i, l in enumerate(out) if l.startswith("not ok")
                         for k in range(3)][:18]
                shown += range(max(len(out) - 4, 0), len(out))
                for i in sorted(set(i for i in shown if i < len(out))):
                    print(f"    {out[i][:300]}", file=sys.stderr)
except (OSError, ValueError, KeyError, TypeError) as e:
    print(f"{sys.argv[1]}: {e!r}", file=sys.stderr)
    sys.exit(1)
missing = max(int(sys.argv[2]) - ok - bad, 0)
if missing:
    print(f"{missing} of the {sys.argv[2]} tests meson lists have no result in {sys.argv[1]}",
          file=sys.stderr)
print(ok, bad + missing)
PY
  ); then
    echo "the test log of $dir ($log) is missing or cannot be read: counted as one failure"
    failed=$((failed + 1))
    return
  fi
  local p f
  read -r p f <<<"$out"
  passed=$((passed + p))
  failed=$((failed + f))
}

# compile_build DIR MESON-ARGS...: configure and compile DIR.
compile_build() {
  local dir=$1; shift
  setup_build "$dir" "$@" && meson compile -C "$dir"
}

# The sanitized build compiles while the plain build's tests run, at the lowest priority: the
# tests keep the CPUs they ask for (a nice-19 task gets about 1/70 of a CPU beside a nice-0
# one), and the compiler takes the time they leave idle (the window tests mostly wait). This
# saves the two minutes the compile took between the stages.
sanitize_args=(-Db_sanitize=address,undefined -Db_lundef=false -Dwerror=true -Dgui=enabled)
sanitize_compile_pid=
start_sanitize_compile() {
  ( renice -n 19 -p "$BASHPID" >/dev/null 2>&1
    compile_build build-sanitize "${sanitize_args[@]}" ) >build/sanitize-compile.log 2>&1 &
  sanitize_compile_pid=$!
}

# The fuzz build (clang), the same way, while the sanitized build's tests run; run_fuzz below
# builds again (nothing left to do, or whatever failed, with its log).
start_fuzz_compile() {
  ( renice -n 19 -p "$BASHPID" >/dev/null 2>&1
    JVMS_FUZZ_BUILD=$root/build-fuzz scripts/run-fuzz.sh --build-only ) >/dev/null 2>&1 &
}

# run_build DIR [MESON-ARGS...]: compile DIR (or wait for its compile started before), run its tests.
run_build() {
  local dir=$1; shift
  stage "build $dir"
  local built=0
  if [ "$dir" = build-sanitize ] && [ -n "$sanitize_compile_pid" ]; then
    wait "$sanitize_compile_pid" && built=1
    tail -n 3 build/sanitize-compile.log
    # Anything the background compile left (or a failure, shown in full) is done here.
    [ "$built" -eq 1 ] && meson compile -C "$dir" >/dev/null || { cat build/sanitize-compile.log; built=0; }
    [ "$built" -eq 0 ] && compile_build "$dir" "$@" && built=1
  else
    compile_build "$dir" "$@" && built=1
  fi
  if [ "$built" -eq 0 ]; then
    echo "build $dir failed"
    failed=$((failed + 1))
    return
  fi
  [ "$dir" = build ] && start_sanitize_compile
  [ "$dir" = build-sanitize ] && start_fuzz_compile
  stage "test $dir"
  rm -f "$dir/meson-logs/testlog.json"
  meson test -C "$dir" --print-errorlogs --num-processes 2 "${test_args[@]}" || true
  count_results "$dir"
}

# The window is an `auto` feature: CI asks for it, so that a machine without GTK or libadwaita
# fails the build instead of quietly dropping the window, widget and translation tests.
test_args=()
run_build build -Dwerror=true -Dgui=enabled
# The sanitized build runs every test but the suite plain-only: long tests (about 450 s of the
# 30-minute budget) whose code runs sanitized in others, docs/reliability.md says where.
test_args=(--no-suite plain-only)
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
LSAN_OPTIONS=suppressions=$root/tests/lsan.supp:print_suppressions=0 \
  run_build build-sanitize "${sanitize_args[@]}"

# Fuzz targets (issue 8): each for FUZZ_SECONDS (default 20) from its seed corpus under ASan +
# UBSan with per-input limits; each target counts as one test.
run_fuzz() {
  stage "fuzz build-fuzz"
  if ! clang -fsanitize=fuzzer -x c -o /dev/null - >/dev/null 2>&1 <<'C'
int LLVMFuzzerTestOneInput (const unsigned char *d, unsigned long n) { return d != 0 && n > 1; }
C
  then
    echo "clang cannot link libFuzzer (Debian 12: clang and libclang-rt-14-dev)"
    failed=$((failed + 1))
    return
  fi
  local out
  # The background build of the targets (start_fuzz_compile) ends first.
  wait
  out=$(JVMS_FUZZ_BUILD=$root/build-fuzz scripts/run-fuzz.sh "${FUZZ_SECONDS:-12}" 2>&1)
  local rc=$?
  echo "$out"
  local ok bad
  ok=$(printf '%s\n' "$out" | grep -c '^fuzz-.* ok$')
  bad=$(printf '%s\n' "$out" | grep -c '^fuzz-.* FAILED')
  # A script that stopped before its lines (seeding failed) still counts as a failure.
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi
  passed=$((passed + ok))
  failed=$((failed + bad))
}
run_fuzz

stage "end"
# The names of the tests that failed, last, where a reader of only the log's tail sees them.
if [ -s "$root/failed-tests.txt" ]; then
  echo "failed:"
  sed 's/^/  /' "$root/failed-tests.txt"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
