#!/bin/sh
# fuzz-campaign.sh TARGET CPU_SECONDS [OUTDIR]: the long fuzzing campaign of issue 8.
#
# Runs one libFuzzer target of build-fuzz (made by scripts/run-fuzz.sh, which also writes the seed
# corpora) with the per-input limits of CI (5 s, 1 GiB RSS, 256 MiB per allocation; 30 s for
# fuzz-ctf while its repair is slower than that) until the target has used CPU_SECONDS of CPU
# time, its children included, then interrupts it. The budget is CPU time, not wall time, so
# that a campaign on a shared, busy machine (run it under nice) still does the work it claims.
# The corpus grows in OUTDIR/TARGET/corpus across campaigns; findings land in
# OUTDIR/TARGET/artifacts. Prints one line:
#   campaign TARGET cpu_s=N execs=N cov=N ft=N corpus=N findings=N
# and exits non-zero when the target found anything (crash, leak, timeout, out-of-memory).
set -eu

TARGET=$1
BUDGET=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${JVMS_FUZZ_BUILD:-$ROOT/build-fuzz}
OUTDIR=${3:-$BUILD/campaign}
BIN=$BUILD/tests/fuzz/$TARGET
SEEDS=$BUILD/fuzz-out/$TARGET/corpus
[ -x "$BIN" ] || { echo "fuzz-campaign.sh: $BIN missing: run scripts/run-fuzz.sh first" >&2; exit 2; }

DIR=$OUTDIR/$TARGET
mkdir -p "$DIR/corpus" "$DIR/artifacts"
if [ -d "$SEEDS" ] && [ -z "$(ls -A "$DIR/corpus")" ]; then
  cp -r "$SEEDS"/. "$DIR/corpus/"
fi

dict=$ROOT/tests/fuzz/$(echo "$TARGET" | sed 's/^fuzz-//').dict
timeout=5
extra=""
case $TARGET in
  fuzz-jfr) extra="-max_len=1048576" ;;
  fuzz-perf) extra="-max_len=262144" ;;
  fuzz-ctf)
    export JVMS_FUZZ_CTF_SEEDS="$DIR/corpus"
    timeout=$(grep -q 'fuzz-ctf).*timeout=30' "$ROOT/scripts/run-fuzz.sh" && echo 30 || echo 5)
    ;;
esac
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

# utime + stime + cutime + cstime, in clock ticks (fields 14-17 of /proc/PID/stat; the
# command name in field 2 has no spaces here).
ticks=$(getconf CLK_TCK)
cpu_seconds() {
  awk -v t="$ticks" '{ printf "%d\n", ($14 + $15 + $16 + $17) / t }' "/proc/$1/stat" 2>/dev/null || echo -1
}

# libFuzzer's per-input timeout is wall-clock time: under nice on a busy machine a process can
# be starved past it on an input that takes milliseconds. A timeout is therefore run again,
# alone: if it finishes within the limit it was the machine, not the input; it is kept in
# artifacts/rechecked/ with its time, and the campaign goes on with the rest of its budget.
# Anything else (crash, leak, out-of-memory, or a timeout that repeats) ends the campaign.
used_total=0
rechecked=0
logs=""
rc=0
while [ "$used_total" -lt "$BUDGET" ]; do
  log=$DIR/log.$(date +%Y%m%dT%H%M%S)
  logs="$logs $log"
  # shellcheck disable=SC2086
  "$BIN" -rss_limit_mb=1024 -malloc_limit_mb=256 -timeout=$timeout -print_final_stats=1 \
    $extra -dict="$dict" -artifact_prefix="$DIR/artifacts/" "$DIR/corpus" >"$log" 2>&1 &
  pid=$!
  used=0
  while kill -0 "$pid" 2>/dev/null; do
    now=$(cpu_seconds "$pid")
    [ "$now" -ge 0 ] && used=$now
    if [ $((used_total + used)) -ge "$BUDGET" ]; then
      kill -INT "$pid"
      break
    fi
    sleep 5
  done
  set +e
  wait "$pid"
  rc=$?
  set -e
  used_total=$((used_total + used))
  # 72 is libFuzzer's exit status after the interrupt this script sends.
  [ "$rc" -eq 0 ] || [ "$rc" -eq 72 ] && break
  t=$(find "$DIR/artifacts" -maxdepth 1 -name 'timeout-*' -type f | head -n 1)
  [ -n "$t" ] || break
  mkdir -p "$DIR/artifacts/rechecked"
  set +e
  # At normal priority when we may (root): a campaign runs under nice, and a re-run as starved
  # as the campaign would time out the same way.
  renice=""
  [ "$(id -u)" -eq 0 ] && renice="nice -n -$(nice)"
  $renice "$BIN" -rss_limit_mb=1024 -malloc_limit_mb=256 -timeout=$timeout "$t" >"$t.rerun.log" 2>&1
  rerc=$?
  set -e
  # libFuzzer's own figure for the input, without the process start-up that a loaded machine
  # stretches; the re-run is held to the same per-input limit.
  ms=$(sed -n 's/^Executed .* in \([0-9]*\) ms$/\1/p' "$t.rerun.log")
  [ "$rerc" -eq 0 ] || break
  echo "$ms ms alone" >"$t.rerun.time"
  mv "$t" "$t.rerun.log" "$t.rerun.time" "$DIR/artifacts/rechecked/"
  rechecked=$((rechecked + 1))
  echo "fuzz-campaign.sh: $(basename "$t") took $ms ms alone: a timeout of the loaded machine, going on" >&2
done

# shellcheck disable=SC2086 # one word per log
last=$(cat $logs | grep -E '^#[0-9]+' | tail -n 1)
# shellcheck disable=SC2086
execs=$(cat $logs | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{ n += $1 } END { print n + 0 }')
cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
corpus=$(find "$DIR/corpus" -type f | wc -l)
findings=$(find "$DIR/artifacts" -maxdepth 1 -type f | wc -l)
echo "campaign $TARGET cpu_s=$used_total execs=$execs cov=${cov:-?} ft=${ft:-?} corpus=$corpus findings=$findings rechecked_timeouts=$rechecked exit=$rc logs=$logs"
[ "$findings" -eq 0 ] && { [ "$rc" -eq 0 ] || [ "$rc" -eq 72 ]; }
