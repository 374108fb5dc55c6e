#!/bin/sh
# run-fuzz.sh [--build-only] [SECONDS]: builds the clang libFuzzer build (build-fuzz, ASan + UBSan, our
# libraries built with the fuzzer's coverage instrumentation) and runs every fuzz target for
# SECONDS each (default 20) with the per-input limits of docs/reliability.md, on seed corpora
# made from the test files and the formats' dictionaries. Prints one line per target, starting
# with its name and ending with "ok" or "FAILED (...)" (scripts/run-tests.sh counts them);
# exits non-zero on any crash, leak, timeout or out-of-memory, or when the build fails.
# Crashing inputs are kept in build-fuzz/fuzz-out/TARGET/.
set -eu

# --build-only: build the targets and stop (scripts/run-tests.sh builds them in the background
# while the sanitized build's tests run).
BUILD_ONLY=0
if [ "${1:-}" = --build-only ]; then BUILD_ONLY=1; shift; fi
SECONDS_PER_TARGET=${1:-20}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${JVMS_SHARED_DIR:-$ROOT/../shared}
BUILD=${JVMS_FUZZ_BUILD:-$ROOT/build-fuzz}
OUT=$BUILD/fuzz-out

# No window: the targets need none, and the build stays small.
OPTIONS="-Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false -Dgui=disabled -Dc_args=-fsanitize=fuzzer-no-link"
# shellcheck disable=SC2086 # one word per option
if [ ! -f "$BUILD/build.ninja" ]; then
  CC=clang meson setup "$BUILD" "$ROOT" $OPTIONS >/dev/null
else
  meson setup --reconfigure "$BUILD" "$ROOT" $OPTIONS >/dev/null
fi
TARGETS="fuzz-jfr fuzz-perf fuzz-ctf fuzz-history fuzz-bundle fuzz-samples fuzz-events fuzz-record-expr"
REGRESS="fuzz-jfr-regress fuzz-history-regress fuzz-bundle-regress fuzz-samples-regress fuzz-events-regress fuzz-record-expr-regress fuzz-seeds"
# Only the fuzz targets and the seed writers: the rest of the tree is built by the other builds.
# shellcheck disable=SC2046 # one word per target
if ! ninja -C "$BUILD" $(for t in $TARGETS $REGRESS; do printf 'tests/fuzz/%s ' "$t"; done) >"$BUILD/fuzz-build.log" 2>&1; then
  tail -n 30 "$BUILD/fuzz-build.log"
  echo "fuzz-build FAILED (see $BUILD/fuzz-build.log)"
  exit 1
fi
if [ "$BUILD_ONLY" -eq 1 ]; then exit 0; fi

rm -rf "$OUT"
mkdir -p "$OUT"
F=$BUILD/tests/fuzz
D=$ROOT/tests/fuzz
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
LIMITS="-rss_limit_mb=1024 -malloc_limit_mb=256 -max_total_time=$SECONDS_PER_TARGET -print_final_stats=1"

# Seeds. JFR: the shared test recordings (decompressed) and the shapes of issue 28. CTF: the
# stream files the target writes itself (JVMS_FUZZ_CTF_SEEDS). Index and bundle.json: built by
# the regression drivers.
for t in $TARGETS; do mkdir -p "$OUT/$t/corpus" "$OUT/$t/artifacts"; done
"$F/fuzz-jfr-regress" --write-corpus "$OUT/fuzz-jfr/corpus" "$SHARED"/testdata/jfr/*.jfr.gz
"$F/fuzz-history-regress" --write-corpus "$OUT/fuzz-history/corpus"
"$F/fuzz-bundle-regress" --write-corpus "$OUT/fuzz-bundle/corpus"
"$F/fuzz-samples-regress" --write-corpus "$OUT/fuzz-samples/corpus"
"$F/fuzz-events-regress" --write-corpus "$OUT/fuzz-events/corpus"
"$F/fuzz-record-expr-regress" --write-corpus "$OUT/fuzz-record-expr/corpus"
# perf: the head of the bundled sample (a stream without its feature sections), and, where perf
# may record, small files with sched tracepoints (formats in TRACING_DATA), syscalls, a counter
# group, a counter group sched_switch reads, and zstd-compressed records.
head -c 262144 "$ROOT/data/sample/sample.jvmtrace/kernel.perf.data" >"$OUT/fuzz-perf/corpus/sample-head.data"
P=$OUT/fuzz-perf/corpus
{
  perf record -q -e sched:sched_switch -e sched:sched_wakeup -a -o "$P/sched.data" -- sleep 0.02
  perf record -q -z -e sched:sched_switch -a -o "$P/sched-z.data" -- sleep 0.02
  perf record -q -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -o "$P/syscalls.data" -- true
  perf record -q -e '{cpu-clock,task-clock}' -a -o "$P/group.data" -- sleep 0.01
  # sched_switch reading a counter group, as jvmscope-cli record asks (docs/records.md); of one
  # task, without -a, whose synthesized threads would make it too big a seed
  perf record -q --no-inherit -e '{sched:sched_switch,task-clock,page-faults}:S' -o "$P/switch-group.data" -- sleep 0.02
} >/dev/null 2>&1 || true
find "$P" -name '*.data' -size +256k -delete
# The shapes of issue 28 (attributes sharing one id table); JFR's come with its corpus above.
"$F/fuzz-seeds" perf "$P"
# Inputs the campaigns found (tests/fuzz/findings/FORMAT-KIND-SHA1, replayed by the readers'
# tests too) join the seeds: every run goes through them first.
for f in "$D"/findings/*; do
  [ -f "$f" ] || continue
  t=fuzz-$(basename "$f" | cut -d- -f1)
  if [ -d "$OUT/$t/corpus" ]; then cp "$f" "$OUT/$t/corpus/"; fi
done

# One target's campaign; its line goes to $OUT/$t/result. Runs in a subshell, so that the
# environment one target needs stays its own.
run_target() (
  t=$1
  dict=$D/$(echo "$t" | sed 's/^fuzz-//').dict
  extra=""
  timeout=5
  case $t in
    fuzz-jfr) extra="-max_len=1048576" ;;
    fuzz-perf) extra="-max_len=262144" ;;
    # Past bundle.json's bounds (64 levels, 10,000 brackets; docs/recording.md). Each
    # bundle.json beside a real recording, so that the JFR layer it drives runs too (without
    # one only the parse and the "no layer" path run); a small one: with the sample's 0.7 MB
    # recording an input took a second here, with this one 50 ms.
    fuzz-bundle)
      extra="-max_len=65536"
      gzip -dc "$SHARED/testdata/jfr/nativemem.jfr.gz" >"$OUT/$t/recording.jfr"
      export JVMS_FUZZ_BUNDLE_JFR="$OUT/$t/recording.jfr" ;;
    fuzz-ctf) export JVMS_FUZZ_CTF_SEEDS="$OUT/fuzz-ctf/corpus" ;;
    # Blocks decode to at most 255 times their size: 64 KiB inputs keep each run short.
    fuzz-events) extra="-max_len=65536" ;;
    fuzz-record-expr) extra="-max_len=8192" ;;
  esac
  log=$OUT/$t/log
  set +e
  # shellcheck disable=SC2086
  "$F/$t" $LIMITS -timeout=$timeout $extra -dict="$dict" -artifact_prefix="$OUT/$t/artifacts/" "$OUT/$t/corpus" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | sed 's/ft: //')
  corpus=$(find "$OUT/$t/corpus" -type f | wc -l)
  if [ "$rc" -eq 0 ] && [ "${execs:-0}" -gt 0 ]; then
    result=ok
  elif [ "$rc" -eq 0 ]; then
    # A target that exits at once fuzzed nothing.
    result="FAILED (no input run: ${execs:-no} executions; $log)"
  else
    result="FAILED (status $rc: $(grep -m1 -o 'ERROR: [A-Za-z]*: [a-z-]*\|ERROR: libFuzzer: [a-z-]*' "$log" || echo see log); $log)"
  fi
  printf '%-14s %4ss  execs %-9s cov %-6s ft %-6s corpus %-5s %s\n' "$t" "$SECONDS_PER_TARGET" \
    "${execs:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$result" >"$OUT/$t/result"
)

# FUZZ_JOBS campaigns at a time (default 2, the CI machine's cores): each target is
# single-threaded, so the stage takes about half as long as one after the other.
JOBS=${FUZZ_JOBS:-2}
running=0
for t in $TARGETS; do
  run_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then
    wait
    running=0
  fi
done
wait

status=0
for t in $TARGETS; do
  if [ -f "$OUT/$t/result" ]; then
    cat "$OUT/$t/result"
    grep -q ' ok$' "$OUT/$t/result" || status=1
  else
    echo "$t FAILED (no result: the campaign's shell ended early)"
    status=1
  fi
done
exit $status
