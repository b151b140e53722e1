#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/Targets and runs each for a while.
#
#   scripts/fuzz.sh [seconds] [target...]     default: 60 seconds, every target
#   scripts/fuzz.sh --keep-going [seconds] [target...]
#                                             go on after a crash (libFuzzer fork mode) to
#                                             find more than the first one
#   scripts/fuzz.sh --build-only              build the targets, run nothing
#   scripts/fuzz.sh --runs N [target...]      replay the corpus, then N inputs from a fixed
#                                             seed: the same inputs on every machine (CI),
#                                             so a run never fails by luck
#
# The library modules are built by SwiftPM with coverage and AddressSanitizer
# (.build/fuzz, a debug build, so the targets can `@testable import` internal writers);
# each target file is then linked by swiftc with libFuzzer against their objects. Each
# target starts from its seed corpus (Fuzz/corpus/<target>, committed) plus what earlier
# runs on this machine found (.build/fuzz/corpus/<target>). A crash, a broken invariant,
# a leak, a timeout or running out of memory writes the input to Fuzz/artifacts/<target>/
# (not committed) and makes the script exit non-zero after every target has run.
# Reproduce one with: .build/fuzz/targets/<target> Fuzz/artifacts/<target>/crash-…
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=60
runs=0
build_only=0
keep_going=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-only) build_only=1; shift ;;
    --keep-going) keep_going=1; shift ;;
    --runs) runs=${2:?--runs needs a count}; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *[!0-9]*) break ;;
    *) seconds=$1; shift ;;
  esac
done

all_targets=()
for file in Fuzz/Targets/*.swift; do
  all_targets+=("$(basename "$file" .swift)")
done
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then targets=("${all_targets[@]}"); fi
for target in "${targets[@]}"; do
  if [[ ! -f "Fuzz/Targets/$target.swift" ]]; then
    echo "fuzz.sh: no target $target (have: ${all_targets[*]})" >&2
    exit 2
  fi
done

scripts/setup.sh
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

build=.build/fuzz
c_modules=(CLLHTTP CLinux)
swift_modules=(FaultlineSync FaultlineHTTP FaultlineHTTP2 FaultlineIO FaultlineConfig FaultlineLog FaultlineTLS FaultlineAppPins FaultlineProxy)
start=$(date +%s)
# FaultlineProxy depends on every other library module, so this builds all of them.
swift build -c debug --build-path "$build" --target FaultlineProxy \
  -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address
# The objects of the modules' current sources only: a file renamed or removed since an
# earlier build leaves its stale object behind in the build directory.
objects=()
for module in "${c_modules[@]}"; do
  for source in Sources/"$module"/*.c; do
    objects+=("$build/debug/$module.build/$(basename "$source").o")
  done
done
for module in "${swift_modules[@]}"; do
  mapfile -t -O "${#objects[@]}" objects < <(python3 -c '
import json, sys
for entry in json.load(open(sys.argv[1])).values():
    if "object" in entry: print(entry["object"])' "$build/debug/$module.build/output-file-map.json")
done
mkdir -p "$build/targets"
# The C modules' module maps, so the targets can import modules that import them privately.
module_maps=(-Xcc "-fmodule-map-file=$build/debug/CLLHTTP.build/module.modulemap"
             -Xcc "-fmodule-map-file=$build/debug/CLinux.build/module.modulemap"
             -Xcc "-fmodule-map-file=Sources/COpenSSL/module.modulemap"
             -Xcc "-fmodule-map-file=Sources/CNghttp2/module.modulemap")
read -r -a ssl_libs <<<"$(pkg-config --libs openssl libnghttp2)"
for target in "${targets[@]}"; do
  swiftc -module-name "FuzzTarget" -parse-as-library -swift-version 6 -warnings-as-errors \
    -sanitize=fuzzer,address -g -Onone -use-ld=lld \
    Fuzz/Support/*.swift "Fuzz/Targets/$target.swift" \
    -I "$build/debug/Modules" "${module_maps[@]}" "${objects[@]}" "${ssl_libs[@]}" \
    -o "$build/targets/$target"
done
built=$(date +%s)
echo "fuzz.sh: built ${#targets[@]} target(s) in $((built - start)) s" >&2
[[ $build_only -eq 1 ]] && exit 0

# Swift's own crash backtracer would race libFuzzer's and ASan's handlers.
export SWIFT_BACKTRACE=enable=no
# Leaks inside Foundation itself, one narrow stack each (Fuzz/sanitizers/lsan-fuzz.supp).
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/sanitizers/lsan-fuzz.supp print_suppressions=0"
failed=()
printf '%-16s %12s %10s %8s %s\n' target runs execs/s crashes artefact
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  artifacts="Fuzz/artifacts/$target"
  mkdir -p "$corpus" "$artifacts" "Fuzz/corpus/$target"
  log="$build/logs/$target.log"
  mkdir -p "$(dirname "$log")"
  before=$(find "$artifacts" -type f | wc -l)
  dict=()
  [[ -f "Fuzz/dict/$target.dict" ]] && dict=("-dict=Fuzz/dict/$target.dict")
  mode=()
  [[ $keep_going -eq 1 ]] && mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  status=0
  budget=(-max_total_time="$seconds")
  inputs=("$corpus" "Fuzz/corpus/$target")
  if [[ $runs -gt 0 ]]; then
    # Only the committed seeds: inputs an earlier local run found would make the run differ.
    budget=(-runs="$runs" -seed=1)
    inputs=("$build/ci-corpus/$target" "Fuzz/corpus/$target")
    rm -rf "$build/ci-corpus/$target"
    mkdir -p "$build/ci-corpus/$target"
  fi
  "$build/targets/$target" "${budget[@]}" -print_final_stats=1 -max_len=4096 \
    -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$artifacts/" "${dict[@]}" "${mode[@]}" \
    "${inputs[@]}" >"$log" 2>&1 || status=$?
  if [[ $keep_going -eq 1 ]]; then
    # Fork mode reports progress lines only: "#N: cov: … exec/s: R …".
    last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
    done_runs=$(grep -oE '^#[0-9]+' <<<"$last" | tr -d '#' || true)
    rate=$(( ${done_runs:-0} / (seconds > 0 ? seconds : 1) ))
  else
    done_runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
    rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
  fi
  after=$(find "$artifacts" -type f | wc -l)
  crashes=$((after - before))
  newest=""
  # `|| true`: head closing the pipe early is not a failure (pipefail would make it one).
  if [[ $crashes -gt 0 ]]; then newest=$(ls -t "$artifacts" | head -1 || true); fi
  new_artifacts=()
  if [[ $crashes -gt 0 ]]; then mapfile -t new_artifacts < <(ls -t "$artifacts" | head -"$crashes"); fi
  if [[ $status -ne 0 && $crashes -eq 0 ]]; then crashes=1; newest="(exit $status, see $log)"; fi
  printf '%-16s %12s %10s %8s %s\n' "$target" "${done_runs:-?}" "${rate:-?}" "$crashes" "${newest:+$artifacts/$newest}"
  if [[ $crashes -gt 0 ]]; then
    failed+=("$target")
    # What broke: each new input is run again on its own (fork mode keeps the children's
    # output elsewhere), and the distinct first lines are listed with how often they came.
    for artifact in "${new_artifacts[@]:0:50}"; do
      "$build/targets/$target" -artifact_prefix="$build/triage-" "$artifacts/$artifact" 2>&1 \
        | grep -m1 -E 'INVARIANT BROKEN|Fatal error|SUMMARY: AddressSanitizer|ERROR: LeakSanitizer|ERROR: libFuzzer: (timeout|out-of-memory)' || true
    done | sed -E 's/"([^"\\]|\\.)*"/"…"/g' | cut -c1-160 | sort | uniq -c | sort -rn | head -15 | sed 's/^/    /' >&2 || true
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz.sh: crashes in: ${failed[*]} (inputs in Fuzz/artifacts/, logs in $build/logs/)" >&2
  exit 1
fi
