#!/usr/bin/env bash
# Profiles of Faultline, nginx and HAProxy under bench/run.sh's scenarios: for each proxy and
# scenario, system calls per request (strace -c), heap allocations per request (an LD_PRELOAD
# counter, bench/alloccount.c) and a CPU profile (perf record). See docs/bench.md.
#
#   bench/profile.sh                                        default scenarios, 5 s per run
#   BENCH_SCENARIOS=latency,tls_upstream BENCH_SECONDS=2 bench/profile.sh
#   BENCH_ONLY=faultline FAULTLINE_BIN=/tmp/x/faultline bench/profile.sh
#
# Environment (the rest as for bench/run.sh, whose setup this script reuses):
#   BENCH_SCENARIOS   scenarios of run.sh (default tls_upstream,latency,close,
#                     tls_listener,tls_close,keepalive; h2 and h2_large run h2load)
#   BENCH_SECONDS     seconds of each of the three load runs per proxy and scenario (default 5)
#   BENCH_WARMUP      seconds of warm-up before them (default 1)
#   BENCH_LAYOUT      split (default here: one worker per proxy, alone on CPU 1) or shared
#   BENCH_PROFILE_DIR where profile-latest.md and profile-PROXY-SCENARIO.txt go
#                     (default bench/results)
#   BENCH_SHIPPED_DEFAULTS=1  Faultline with its shipped defaults (JSON Lines to a file in the
#                     work directory, HAR capture and the request journal on) instead of as
#                     quiet as the peers: what the defaults cost per request
#
# The three figures come from three separate load runs (wrk, or h2load for h2), never stacked:
# allocation totals read before and after one run, strace attached during another, perf during
# the third. Every
# proxy runs with the allocation counter preloaded for the whole script. Needs strace, perf
# (Debian linux-perf) and gcc besides run.sh's tools; run as root (or with ptrace and perf
# permissions) since strace and perf attach to running processes.
set -euo pipefail

: "${BENCH_LAYOUT:=split}"
: "${BENCH_SECONDS:=5}"
: "${BENCH_WARMUP:=1}"
: "${BENCH_SCENARIOS:=tls_upstream,latency,close,tls_listener,tls_close,keepalive}"
export BENCH_LAYOUT BENCH_SECONDS BENCH_WARMUP BENCH_SCENARIOS
unset FAULTLINE_BEFORE_BIN            # three proxies only
BENCH_PROFILE=1

# Called by run.sh right after it made $WORK: builds the counter there and has every proxy
# started with it preloaded.
profile_setup() {
  need strace
  need perf
  need gcc
  gcc -O2 -shared -fPIC -o "$WORK/alloccount.so" "$BENCH_DIR/alloccount.c" -ldl -pthread \
    || die "could not compile bench/alloccount.c"
  mkdir -p "$WORK/alloc"
  PROXY_ENV=(env LD_PRELOAD="$WORK/alloccount.so" ALLOCCOUNT_DIR="$WORK/alloc")
}

# shellcheck source=bench/run.sh
source "$(dirname "${BASH_SOURCE[0]}")/run.sh"

OUT_DIR=${BENCH_PROFILE_DIR:-$BENCH_DIR/results}
mkdir -p "$OUT_DIR"
find_demangler

# pids_of PROXY : the process tree of PROXY, one pid a line.
pids_of() { descendants "${PID[$1]}"; }

# alloc_totals PROXY : sets ALLOCS and FREES, summed over the processes of PROXY's tree. Each process's
# counter thread (bench/alloccount.c) rewrites $WORK/alloc/PID with "SEQUENCE ALLOCS FREES"
# when its FIFO PID.fifo is opened and closed; the sequence tells the fresh line from the last.
alloc_totals() {
  local a=0 f=0 pid file seq0 seq x y
  for pid in $(pids_of "$1"); do
    file=$WORK/alloc/$pid
    [[ -p $file.fifo && -s $file ]] || die "$1: pid $pid has no allocation counter ($file.fifo missing)"
    read -r seq0 x y <"$file"
    timeout 2 bash -c 'echo >"$1"' _ "$file.fifo" || die "$1: the allocation counter of pid $pid did not answer"
    for _ in $(seq 1 100); do
      read -r seq x y <"$file"
      [[ $seq == "$seq0" ]] || break
      sleep 0.01
    done
    [[ $seq != "$seq0" ]] || die "$1: the allocation counter of pid $pid did not write its totals"
    a=$((a + x)); f=$((f + y))
  done
  ALLOCS=$a FREES=$f
}
for p in "${PROXIES[@]}"; do
  [[ -p $WORK/alloc/${PID[$p]}.fifo ]] \
    || die "$p: the preloaded allocation counter is not running ($WORK/alloc/${PID[$p]}.fifo missing)"
  alloc_totals "$p"
done

# load RUN [SECONDS] : one run of the scenario's load generator (LOAD_TOOL, wrk or h2load, with
# LOAD_ARGS) for SECONDS (default DURATION); prints the number of requests it completed (empty
# when it failed; its output stays in $WORK/load-RUN.txt).
load() {
  local out="$WORK/load-$1.txt" seconds=${2:-$DURATION}
  if [[ $LOAD_TOOL == h2load ]]; then
    if timeout $((seconds + 60)) h2load "${LOAD_ARGS[@]}" -D "$seconds" >"$out" 2>&1; then
      python3 "$BENCH_DIR/h2load_stats.py" "$out" | sed -n 's/^requests=\([0-9]*\) .*/\1/p'
    fi
  elif timeout $((seconds + 60)) wrk -s "$BENCH_DIR/stats.lua" -d "${seconds}s" "${LOAD_ARGS[@]}" >"$out" 2>&1; then
    sed -n 's/^BENCH requests=\([0-9]*\) .*/\1/p' "$out"
  fi
}

# wait_attached LOG N : waits (up to 5 s) until strace's LOG says N processes are attached.
wait_attached() {
  local deadline=$((SECONDS + 5))
  while ((SECONDS < deadline)); do
    (($(grep -c ' attached' "$1" 2>/dev/null || true) + 0 >= $2)) && return 0
    sleep 0.1
  done
  return 1
}

# profile_one PROXY SCENARIO : the three runs; appends a line to $TSV.
profile_one() {
  local p=$1 s=$2 run="$1-$2" a0 f0 a1 f1 n_alloc n_strace n_perf pids spid ppid
  load_args "$p" "$s"
  scenario_cpu "$p" "$s" 0
  ((WARMUP == 0)) || load "$run-warmup" "$WARMUP" >/dev/null

  # (b) heap allocations: the counters' totals just before and just after one run.
  alloc_totals "$p"; a0=$ALLOCS f0=$FREES
  n_alloc=$(load "$run-alloc")
  alloc_totals "$p"; a1=$ALLOCS f1=$FREES

  # (a) system calls: strace -c on every process of the tree; with -f strace attaches every
  # thread of each ("attached with N threads"), and any process or thread started later.
  mapfile -t pids < <(pids_of "$p")
  # shellcheck disable=SC2046  # one -p per process
  strace -c -f -U name,calls -S calls -o "$WORK/strace-$run.txt" \
    $(printf -- '-p %s ' "${pids[@]}") 2>"$WORK/strace-$run.log" &
  spid=$!
  STARTED_PIDS+=("$spid")
  wait_attached "$WORK/strace-$run.log" "${#pids[@]}" \
    || log "$run: strace did not report attaching to all ${#pids[@]} process(es)"
  n_strace=$(load "$run-strace")
  stop "$spid" INT

  # (c) CPU profile: perf on the same processes, software clock (no hardware counters here).
  perf record -e cpu-clock -F 999 -g -o "$WORK/perf-$run.data" \
    -p "$(IFS=,; echo "${pids[*]}")" >"$WORK/perf-$run.log" 2>&1 &
  ppid=$!
  STARTED_PIDS+=("$ppid")
  sleep 0.5
  n_perf=$(load "$run-perf")
  stop "$ppid" INT
  {
    echo "# perf record -e cpu-clock -F 999 -g: $p, scenario $s ($LAYOUT layout), ${DURATION} s," \
      "${n_perf:-?} requests; perf report --no-children --sort dso,symbol, top 25"
    # The sample count; then the entries without perf's empty trailing columns ("-  -").
    perf report -i "$WORK/perf-$run.data" --no-children --sort dso,symbol --stdio -g none 2>/dev/null \
      | awk '/^# Samples:/ { print; next } /^#/ || /^[[:space:]]*$/ { next } n++ < 25' \
      | sed -E 's/([[:space:]]+-)+[[:space:]]*$//; s/[[:space:]]+$//' | "${DEMANGLE[@]}" || true
  } >"$OUT_DIR/profile-$run.txt"

  scenario_cpu "$p" "$s" 1
  kill -0 "${PID[$p]}" 2>/dev/null || { show_log "$p"; die "$p died during $s"; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$s" "${n_alloc:-0}" "$((a1 - a0))" "$((f1 - f0))" \
    "${n_strace:-0}" "$WORK/strace-$run.txt" >>"$TSV"
}

TSV=$WORK/profile.tsv
: >"$TSV"
log "profiling ${PROXIES[*]} ($LAYOUT layout): ${#SCENARIOS[@]} scenarios x 3 runs of ${DURATION}s (+${WARMUP}s warm-up)," \
  "about $(( ${#SCENARIOS[@]} * ${#PROXIES[@]} * (3 * DURATION + WARMUP + 3) ))s"
for s in "${SCENARIOS[@]}"; do
  for p in "${PROXIES[@]}"; do
    log "  $s: $p"
    profile_one "$p" "$s"
  done
done

python3 - "$TSV" "$OUT_DIR" "$LAYOUT" "$WORKERS" "$DURATION" "${BENCH_SHIPPED_DEFAULTS:-0}" <<'EOF'
import os, sys
tsv, out_dir, layout, workers, seconds = sys.argv[1:6]
shipped = sys.argv[6] == "1"
LABEL = {"faultline": "Faultline", "nginx": "nginx", "haproxy": "HAProxy"}

def syscalls(path):
    """{name: calls} and the total from `strace -c -U name,calls`."""
    calls, total = {}, None
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return calls, None
    for line in lines:
        f = line.split()
        if len(f) != 2 or not f[1].isdigit():
            continue
        if f[0] == "total":
            total = int(f[1])
        else:
            calls[f[0]] = int(f[1])
    return calls, total

def per(n, reqs):
    return f"{n / reqs:,.2f}" if reqs else "n/a"

rows, profiles = [], []
for line in open(tsv):
    p, s, n_alloc, allocs, frees, n_strace, strace_file = line.rstrip("\n").split("\t")
    n_alloc, allocs, frees, n_strace = int(n_alloc), int(allocs), int(frees), int(n_strace)
    calls, total = syscalls(strace_file)
    # Calls below 0.005 per request are left out: idle work (timers) during the run, not the
    # request path.
    top = [kv for kv in sorted(calls.items(), key=lambda kv: -kv[1])
           if n_strace and kv[1] / n_strace >= 0.005][:6]
    top_text = ", ".join(f"{k} {v / n_strace:.2f}" for k, v in top) if n_strace else "n/a"
    prof = f"profile-{p}-{s}.txt"
    hot = "n/a"
    try:
        with open(os.path.join(out_dir, prof)) as f:
            lines = [l.rstrip("\n") for l in f if not l.startswith("#") and l.strip()]
        profiles.append((s, p, prof, lines))
        entries = []
        for l in lines[:3]:
            # "  12.34%  dso  [.] symbol": the symbol, shortened, and its share
            pct, _, rest = l.strip().partition(" ")
            dso, _, sym = rest.strip().partition(" ")
            sym = sym.strip().removeprefix("[.] ").removeprefix("[k] ")
            entries.append(f"{sym[:40]} {pct}")
        hot = "; ".join(entries) or "n/a"
    except OSError:
        pass
    rows.append(f"| {s} | {LABEL.get(p, p)} | {per(total or 0, n_strace) if total else 'n/a'} | {top_text} "
                f"| {per(allocs, n_alloc)} | {per(frees, n_alloc)} | {hot} |")

out = [f"# Faultline, nginx and HAProxy: system calls, allocations and CPU profiles per request",
       "",
       f"Layout {layout} ({workers} {'worker/thread' if workers == '1' else 'workers/threads'} per proxy), "
       f"{seconds} s per load run (wrk; h2load for h2); three separate "
       "runs per proxy and scenario: heap allocation calls (LD_PRELOAD counter, bench/alloccount.c; "
       "malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign), system calls "
       "(strace -c -f, all processes and threads), CPU profile (perf record -e cpu-clock -g, "
       "top entries in the files named). All per request, requests as counted by wrk or h2load. "
       + ("Faultline with its shipped defaults (JSON Lines to a file, HAR capture and the request journal on), "
          "the peers without access logs. " if shipped else "")
       + "See docs/bench.md.",
       "",
       "| scenario | proxy | syscalls/req | top syscalls per request | allocs/req | frees/req | hottest symbols (self CPU) |",
       "|---|---|---:|---|---:|---:|---|"] + rows + [""]
print("\n".join(out))
# The file also gets the top of every CPU profile (the whole top 25 is in the .txt files).
for s, p, prof, lines in profiles:
    out += [f"## CPU profile: {LABEL.get(p, p)}, {s}", "", f"Top 12 of {prof} (self CPU, perf report --no-children --sort dso,symbol):",
            "", "```"] + lines[:12] + ["```", ""]
with open(os.path.join(out_dir, "profile-latest.md"), "w") as f:
    f.write("\n".join(out))
EOF
log "table written to ${OUT_DIR#"$ROOT/"}/profile-latest.md; CPU profiles in ${OUT_DIR#"$ROOT/"}/profile-PROXY-SCENARIO.txt"
exit 0
