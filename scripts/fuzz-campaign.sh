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

log=$DIR/log.$(date +%Y%m%dT%H%M%S)
# shellcheck disable=SC2086
"$BIN" -rss_limit_mb=1024 -malloc_limit_mb=256 -timeout=$timeout -print_final_stats=1 \
  $extra -dict="$dict" -artifact_prefix="$DIR/artifacts/" "$DIR/corpus" >"$log" 2>&1 &
pid=$!

# utime + stime + cutime + cstime, in clock ticks (fields 14-17 of /proc/PID/stat; the
# command name in field 2 has no spaces here).
ticks=$(getconf CLK_TCK)
cpu_seconds() {
  awk -v t="$ticks" '{ printf "%d\n", ($14 + $15 + $16 + $17) / t }' "/proc/$1/stat" 2>/dev/null || echo -1
}
used=0
while kill -0 "$pid" 2>/dev/null; do
  used=$(cpu_seconds "$pid")
  [ "$used" -ge 0 ] || break
  if [ "$used" -ge "$BUDGET" ]; then
    kill -INT "$pid"
    break
  fi
  sleep 5
done
set +e
wait "$pid"
rc=$?
set -e

last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
corpus=$(find "$DIR/corpus" -type f | wc -l)
findings=$(find "$DIR/artifacts" -type f | wc -l)
echo "campaign $TARGET cpu_s=$used execs=${execs:-?} cov=${cov:-?} ft=${ft:-?} corpus=$corpus findings=$findings exit=$rc log=$log"
# 72 is libFuzzer's exit status after the interrupt this script sends.
[ "$findings" -eq 0 ] && { [ "$rc" -eq 0 ] || [ "$rc" -eq 72 ]; }
