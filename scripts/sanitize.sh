#!/usr/bin/env bash
# The test suite under a sanitizer: the package (library modules, the faultline binary and
# the tests) is built with ThreadSanitizer or AddressSanitizer in its own build directory,
# and the tests run against that sanitized binary.
#
#   scripts/sanitize.sh [thread|address] [swift test arguments...]
#
#   scripts/sanitize.sh thread                 every suite but the timing ones, under TSan
#   scripts/sanitize.sh address --filter 'FaultlineLogTests|MalformedRequestTests'
#
# Every sanitized process (the test runner and each faultline the integration tests start)
# writes its reports to .build/<mode>/reports/ rather than to a stderr the tests may
# capture; the script prints a summary (one line per distinct report: kind and the first
# frame in Faultline's sources) and exits non-zero when a test failed or any report was
# written. Reports whose top frames are only in the Swift runtime or Foundation are listed
# separately, as are those in the tests' own code; neither fails the run (docs/testing.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode="${1:-thread}"
[[ $# -gt 0 ]] && shift
# FAULTLINE_TSAN makes FaultlineSync's TracedMutex tell TSan about each lock (docs/testing.md).
flags=()
case "$mode" in
  thread) dir=.build/tsan; flags=(-Xswiftc -DFAULTLINE_TSAN) ;;
  address) dir=.build/asan ;;
  -h|--help)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
  *) echo "sanitize.sh: unknown sanitizer: $mode (expected thread or address)" >&2; exit 2 ;;
esac

scripts/setup.sh
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

reports="$PWD/$dir/reports"
rm -rf "$reports"
mkdir -p "$reports"

start=$(date +%s)
swift build --build-path "$dir" --sanitize="$mode" "${flags[@]}" --build-tests
built=$(date +%s)
echo "sanitize.sh: $mode build took $((built - start)) s" >&2

export FAULTLINE_BIN="$PWD/$dir/debug/faultline"
symbolizer=$(command -v llvm-symbolizer || true)
case "$mode" in
  thread)
    # Keep going after a report so one run lists every race.
    # Fuzz/sanitizers/tsan.supp: reports known not to be races (docs/testing.md).
    export TSAN_OPTIONS="log_path=$reports/tsan halt_on_error=0 second_deadlock_stack=1 suppressions=$PWD/Fuzz/sanitizers/tsan.supp${symbolizer:+ external_symbolizer_path=$symbolizer}"
    ;;
  address)
    export ASAN_OPTIONS="log_path=$reports/asan detect_leaks=1 detect_stack_use_after_return=0${symbolizer:+ external_symbolizer_path=$symbolizer}"
    # Fuzz/sanitizers/lsan.supp: the launchers in the integration tests' own code.
    export LSAN_OPTIONS="suppressions=$PWD/Fuzz/sanitizers/lsan.supp print_suppressions=0"
    ;;
esac

status=0
# Suites that measure time (delays, rates, timeouts, URLSession's give-up time) measure the
# sanitizer's 2-15x slowdown instead: left out unless named.
TIMED='FaultAccuracyTests|FaultNonBlockingTests|FaultClientTableTests|FaultClientTableH2Tests|BodyTests|LifecycleTests|LoggingSinkTests|StreamingTests'
if [[ $# -eq 0 ]]; then
  swift test --build-path "$dir" --sanitize="$mode" "${flags[@]}" --skip-build --skip "$TIMED" || status=$?
else
  swift test --build-path "$dir" --sanitize="$mode" "${flags[@]}" --skip-build --parallel "$@" || status=$?
fi
finished=$(date +%s)
echo "sanitize.sh: $mode tests took $((finished - built)) s (exit $status)" >&2

# One line per report: its kind and the first frame inside Faultline's sources (or the
# tests' own code, which does not fail the run).
ours=0
tests=0
theirs=0
shopt -s nullglob
for report in "$reports"/*; do
  [[ "$report" == *.part* ]] && continue
  # A log can hold several reports (TSan keeps going): split on the banner lines.
  awk -v base="$report.part" '
    /^==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer)|^WARNING: ThreadSanitizer/ { n++ }
    n > 0 { print > (base n) }' "$report"
  for part in "$report".part*; do
    kind=$(grep -m1 -oE '(ERROR|WARNING): (ThreadSanitizer|AddressSanitizer|LeakSanitizer): [a-zA-Z -]+' "$part" || true)
    source_frame=$(grep -m1 -oE 'Sources/[A-Za-z0-9_/+.-]+\.(swift|c):[0-9]+' "$part" || true)
    test_frame=$(grep -m1 -oE 'Tests/[A-Za-z0-9_/+.-]+\.swift:[0-9]+' "$part" || true)
    if [[ -n "$source_frame" ]]; then
      ours=$((ours + 1))
      echo "sanitize.sh: $kind at $source_frame ($(basename "$part"))"
    elif [[ -n "$test_frame" ]]; then
      tests=$((tests + 1))
      echo "sanitize.sh: $kind in test code at $test_frame ($(basename "$part"))"
    else
      theirs=$((theirs + 1))
      echo "sanitize.sh: $kind outside Faultline's code ($(basename "$part"))"
    fi
  done
done
echo "sanitize.sh: $mode: $ours report(s) in Faultline's sources, $tests in test code, $theirs elsewhere;" \
     "reports in $dir/reports/" >&2
if [[ $ours -gt 0 && $status -eq 0 ]]; then status=1; fi
exit "$status"
