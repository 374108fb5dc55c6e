#!/bin/sh
# run-fuzz.sh [SECONDS]: builds the clang libFuzzer build (build-fuzz, ASan + UBSan) and runs
# every fuzz target for SECONDS each (default 20) with the per-input limits of
# docs/reliability.md, on seed corpora made from the test files and the formats' dictionaries.
# Prints one line per target (executions, coverage, result); exits non-zero on any crash, leak,
# timeout or out-of-memory. Crashing inputs are kept in build-fuzz/fuzz-out/TARGET/.
set -eu

SECONDS_PER_TARGET=${1:-20}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${JVMS_SHARED_DIR:-$ROOT/../shared}
BUILD=${JVMS_FUZZ_BUILD:-$ROOT/build-fuzz}
OUT=$BUILD/fuzz-out

if [ ! -f "$BUILD/build.ninja" ]; then
  CC=clang meson setup "$BUILD" "$ROOT" -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
TARGETS="fuzz-jfr fuzz-ctf fuzz-history fuzz-bundle"
REGRESS="fuzz-jfr-regress fuzz-history-regress fuzz-bundle-regress"
# shellcheck disable=SC2046 # one word per target
ninja -C "$BUILD" $(for t in $TARGETS $REGRESS; do printf 'tests/fuzz/%s ' "$t"; done) >/dev/null

rm -rf "$OUT"
mkdir -p "$OUT"
F=$BUILD/tests/fuzz
D=$ROOT/tests/fuzz
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
LIMITS="-timeout=5 -rss_limit_mb=1024 -malloc_limit_mb=256 -max_total_time=$SECONDS_PER_TARGET -print_final_stats=1"

# Seeds. JFR: the shared test recordings (decompressed). CTF: the stream files the target
# writes itself (JVMS_FUZZ_CTF_SEEDS). Index and bundle.json: built by the regression drivers.
for t in $TARGETS; do mkdir -p "$OUT/$t/corpus" "$OUT/$t/artifacts"; done
"$F/fuzz-jfr-regress" --write-corpus "$OUT/fuzz-jfr/corpus" "$SHARED"/testdata/jfr/*.jfr.gz
"$F/fuzz-history-regress" --write-corpus "$OUT/fuzz-history/corpus"
"$F/fuzz-bundle-regress" --write-corpus "$OUT/fuzz-bundle/corpus"

status=0
for t in $TARGETS; do
  dict=$D/$(echo "$t" | sed 's/^fuzz-//').dict
  extra=""
  case $t in
    fuzz-jfr) extra="-max_len=1048576" ;;
    fuzz-ctf) export JVMS_FUZZ_CTF_SEEDS="$OUT/fuzz-ctf/corpus" ;;
  esac
  log=$OUT/$t/log
  set +e
  # shellcheck disable=SC2086
  "$F/$t" $LIMITS $extra -dict="$dict" -artifact_prefix="$OUT/$t/artifacts/" "$OUT/$t/corpus" >"$log" 2>&1
  rc=$?
  set -e
  unset JVMS_FUZZ_CTF_SEEDS
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | sed 's/ft: //')
  corpus=$(find "$OUT/$t/corpus" -type f | wc -l)
  if [ "$rc" -eq 0 ]; then
    result=ok
  else
    result="FAILED (status $rc: $(grep -m1 -o 'ERROR: [A-Za-z]*: [a-z-]*\|ERROR: libFuzzer: [a-z-]*' "$log" || echo see log); $log)"
    status=1
  fi
  printf '%-14s %4ss  execs %-9s cov %-6s ft %-6s corpus %-5s %s\n' "$t" "$SECONDS_PER_TARGET" \
    "${execs:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$result"
done
exit $status
