#!/usr/bin/env bash
# Instructions per request of Faultline, nginx and HAProxy, counted by valgrind's callgrind:
# the one figure on this shared 2-core machine that does not move with the load beside it, so
# it shows what a change to the request path saves (req/s moves by ±10-20 % between runs). For
# each proxy and scenario: a warm-up, then two windows (counters zeroed, h2load -n, counters
# dumped) of BENCH_REQUESTS and a fifth of that; their difference ÷ its requests is the user-space
# instructions (Ir) per request without connection setup and TLS handshakes, and the functions
# with the most instructions of their own. See docs/bench.md.
#
#   bench/instructions.sh                                    keepalive,tls_upstream,tls_listener,h2
#   BENCH_SCENARIOS=h2 BENCH_ONLY=faultline bench/instructions.sh
#   FAULTLINE_BIN=/tmp/before/faultline BENCH_ONLY=faultline bench/instructions.sh
#
# Environment (the rest as for bench/run.sh, whose setup this script reuses):
#   BENCH_SCENARIOS   any of keepalive,tls_upstream,tls_listener,h2 (default all four)
#   BENCH_REQUESTS    requests counted per proxy and scenario (default 5000)
#   BENCH_PROFILE_DIR where instructions-latest.md and instructions-PROXY-SCENARIO.txt go
#                     (default bench/results)
#   BENCH_SHIPPED_DEFAULTS=1  Faultline with its shipped defaults (JSON Lines to a file in the
#                     work directory, HAR capture and the request journal on) instead of as
#                     quiet as the peers: what the defaults cost per request
#   BENCH_DUMP_INSTR=yes  callgrind keeps counts per instruction (with BENCH_KEEP=1, in the kept
#                     directory's cg/), to read a hot function's code beside objdump -d
#
# Every proxy runs under valgrind for the whole script, one worker or thread each (the split
# layout), so only the count matters here, never the time. Needs valgrind (Debian valgrind,
# installed by scripts/setup.sh --bench) and objcopy (binutils): valgrind 3.19 cannot read the
# Swift toolchain's DWARF 5, so Faultline runs as a copy without debug information (its symbol
# table stays, which is what the function names come from).
set -euo pipefail

: "${BENCH_SCENARIOS:=keepalive,tls_upstream,tls_listener,h2}"
REQUESTS=${BENCH_REQUESTS:-5000}
[[ $REQUESTS =~ ^[1-9][0-9]{2,6}$ ]] || { echo "instructions: BENCH_REQUESTS must be 100-9999999, got '$REQUESTS'" >&2; exit 2; }
case ",${BENCH_SCENARIOS// /}," in
  *,latency,*|*,large,*|*,close,*|*,tls_close,*|*,h2_large,*)
    echo "instructions: BENCH_SCENARIOS takes keepalive, tls_upstream, tls_listener and h2 only" >&2; exit 2 ;;
esac
export BENCH_LAYOUT=split BENCH_SCENARIOS BENCH_READY_TIMEOUT=${BENCH_READY_TIMEOUT:-180}
unset FAULTLINE_BEFORE_BIN
BENCH_NAME=instructions BENCH_PROFILE_NAME=instructions
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need valgrind
need callgrind_control
need objcopy
need h2load

# Called by run.sh right after it made $WORK (and found Faultline's binary): every proxy starts
# under callgrind, counting from the start (zeroed before each measurement), one output file
# per process and dump; Faultline as a copy without debug information.
BENCH_PROFILE=1
SHOWN_BIN=
# nginx without its master process: its one process serves the requests as a worker would, and
# stays a process callgrind_control can reach (a worker forked by the master runs as an
# unprivileged user, out of its reach).
NGINX_MASTER=off
profile_setup() {
  # nginx workers run as an unprivileged user and write their own files here.
  mkdir -p "$WORK/cg" && chmod 777 "$WORK/cg"
  PROXY_ENV=(valgrind --tool=callgrind --callgrind-out-file="$WORK/cg/%p.out" --dump-instr=${BENCH_DUMP_INSTR:-no}
             --log-file="$WORK/cg/%p.log")
  if [[ -n ${FL_BIN:-} ]]; then
    SHOWN_BIN=$(shown_path "$FL_BIN")
    objcopy --strip-debug "$FL_BIN" "$WORK/faultline" || die "objcopy --strip-debug $FL_BIN failed"
    FL_BIN=$WORK/faultline
  fi
}

# shellcheck source=bench/run.sh
source "$BENCH_DIR/run.sh"

OUT_DIR=${BENCH_PROFILE_DIR:-$BENCH_DIR/results}
mkdir -p "$OUT_DIR"
find_demangler

# control PROXY OPTION : runs `callgrind_control OPTION` on every process of PROXY's tree. A
# process blocked in epoll_wait only reads the command when it runs again, so one request at a
# time is sent to it until every command is done; POKES counts them (they are served, and
# counted, around the measured requests: at most a few in thousands).
control() {
  local p=$1 option=$2 pid pids=() waiting=()
  mapfile -t pids < <(descendants "${PID[$p]}")
  for pid in "${pids[@]}"; do
    timeout 120 callgrind_control "$option" "$pid" >"$WORK/cg/control-$pid.txt" 2>&1 &
    waiting+=("$!")
  done
  for pid in "${waiting[@]}"; do
    while kill -0 "$pid" 2>/dev/null; do
      curl -s -o /dev/null --max-time 5 "http://127.0.0.1:${PORT[$p]}/64" || true
      POKES=$((POKES + 1))
      sleep 0.2
    done
    wait "$pid" || die "$p: callgrind_control $option did not finish ($(cat "$WORK"/cg/control-*.txt | tail -n 3))"
  done
}

# h2load_args PROXY SCENARIO : H2LOAD_ARGS for a counted run (-n is added by the caller): run.sh's
# load arguments for the scenario, which h2load takes as they are (-t, -c, -m, the URL), with
# --h1 where run.sh loads with wrk.
h2load_args() {
  load_args "$1" "$2"
  H2LOAD_ARGS=("${LOAD_ARGS[@]}")
  [[ $LOAD_TOOL == h2load ]] || H2LOAD_ARGS=(--h1 "${LOAD_ARGS[@]}")
}

# window PROXY RUN N : zeroes the counters, sends N requests, dumps; sets DUMPS (the dump files)
# and WINDOW_IR (their instructions summed).
window() {
  local p=$1 run=$2 n=$3 done_requests file ir
  control "$p" -z
  timeout 1800 h2load -n "$n" "${H2LOAD_ARGS[@]}" >"$WORK/h2load-$run.txt" 2>&1 \
    || { tail -n 5 "$WORK/h2load-$run.txt" >&2; die "$run: h2load failed"; }
  done_requests=$(sed -n 's/^requests: [0-9]* total, [0-9]* started, \([0-9]*\) done, \([0-9]*\) succeeded.*/\1 \2/p' \
    "$WORK/h2load-$run.txt")
  [[ $done_requests == "$n $n" ]] \
    || die "$run: h2load did not complete every request with success (done, succeeded: $done_requests)"
  control "$p" -d
  mapfile -t DUMPS < <(find "$WORK/cg" -name '*.out.*' -newer "$WORK/h2load-$run.txt")
  ((${#DUMPS[@]} > 0)) || die "$run: callgrind wrote no dump"
  WINDOW_IR=0
  for file in "${DUMPS[@]}"; do
    ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p; s/^totals: \([0-9]*\).*/\1/p' "$file" | head -n 1)
    WINDOW_IR=$((WINDOW_IR + ${ir:-0}))
  done
}

# count_one PROXY SCENARIO : warm-up, then two counted windows, REQUESTS and a fifth of that, each
# on new connections (h2load opens them per run); their difference is the cost of the requests
# alone, without the handshakes and connection setup both windows have. Appends to $TSV.
count_one() {
  local p=$1 s=$2 run="$1-$2" small=$((REQUESTS / 5)) large_ir small_ir large_dumps small_dumps
  h2load_args "$p" "$s"
  # The warm-up fills the upstream pool and the caches, and makes TLS sessions.
  timeout 600 h2load -n $((REQUESTS / 10 + 100)) "${H2LOAD_ARGS[@]}" >"$WORK/h2load-$run-warmup.txt" 2>&1 \
    || { tail -n 5 "$WORK/h2load-$run-warmup.txt" >&2; die "$run: the warm-up failed"; }
  POKES=0
  window "$p" "$run-small" "$small"
  small_ir=$WINDOW_IR small_dumps=("${DUMPS[@]}")
  window "$p" "$run-large" "$REQUESTS"
  large_ir=$WINDOW_IR large_dumps=("${DUMPS[@]}")
  {
    echo "# callgrind: $p, scenario $s: a window of $REQUESTS requests minus one of $small, per request" \
      "($POKES single requests woke the process for callgrind's commands, some inside the windows);" \
      "instructions of each function's own, per request"
    python3 "$BENCH_DIR/callgrind_self.py" $((REQUESTS - small)) 40 "${large_dumps[@]}" --minus "${small_dumps[@]}" \
      | "${DEMANGLE[@]}"
  } >"$OUT_DIR/instructions-$run.txt"
  printf '%s\t%s\t%s\t%s\n' "$p" "$s" "$((large_ir - small_ir))" "$POKES" >>"$TSV"
  kill -0 "${PID[$p]}" 2>/dev/null || { show_log "$p"; die "$p died during $s"; }
}

TSV=$WORK/instructions.tsv
: >"$TSV"
for s in "${SCENARIOS[@]}"; do
  for p in "${PROXIES[@]}"; do
    log "  $s: $p ($REQUESTS requests under callgrind)"
    count_one "$p" "$s"
  done
done

python3 - "$TSV" "$OUT_DIR" "$((REQUESTS - REQUESTS / 5))" "$SHOWN_BIN" "${BENCH_SHIPPED_DEFAULTS:-0}" <<'EOF'
import os, sys
tsv, out_dir, requests, binary = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
shipped = sys.argv[5] == "1"
LABEL = {"faultline": "Faultline", "nginx": "nginx", "haproxy": "HAProxy"}
NAME = {"keepalive": "keep-alive GET /64, 50 conns (h2load --h1)",
        "tls_upstream": "TLS to the origin, keep-alive GET /tls/64, 50 conns",
        "tls_listener": "TLS listener, keep-alive GET /64, 50 conns",
        "h2": "h2 TLS listener, GET /64, 10 conns × 10 streams"}
counts = {}
for line in open(tsv):
    p, s, total, pokes = line.rstrip("\n").split("\t")
    counts.setdefault(s, {})[p] = (int(total), int(pokes))
proxies = [p for p in LABEL if any(p in row for row in counts.values())]
out = ["# Instructions per request: Faultline, nginx and HAProxy", "",
       f"valgrind --tool=callgrind, one worker or thread per proxy; per proxy and scenario, after a warm-up, "
       f"two counted windows of h2load -n on new connections whose difference is {requests} requests "
       "without connection setup or handshakes; user-space instructions (Ir) of every process of the "
       "proxy divided by those requests" + (f"; Faultline: {binary}" if binary else "")
       + ("; Faultline with its shipped defaults (JSON Lines to a file, HAR capture and the request journal on), "
          "the peers without access logs" if shipped else "") + ". See docs/bench.md.", "",
       "| scenario | " + " | ".join(LABEL[p] for p in proxies) + " | Faultline ÷ the lower peer |",
       "|---|" + "---:|" * (len(proxies) + 1)]
for s, row in counts.items():
    cells, per = [], {}
    for p in proxies:
        if p in row:
            per[p] = row[p][0] / requests
            cells.append(f"{per[p] / 1000:,.1f}k")
        else:
            cells.append("n/a")
    peers = [v for p, v in per.items() if p != "faultline"]
    ratio = f"{per['faultline'] / min(peers):.2f}×" if "faultline" in per and peers and min(peers) > 0 else "n/a"
    out.append(f"| {NAME.get(s, s)} | " + " | ".join(cells) + f" | {ratio} |")
out += ["", "Kernel time (system calls, loopback TCP) is not in these counts; bench/profile.sh counts "
        "the system calls. Functions with the most instructions of their own: "
        "instructions-PROXY-SCENARIO.txt beside this file.", ""]
text = "\n".join(out)
print(text)
open(os.path.join(out_dir, "instructions-latest.md"), "w").write(text)
EOF
log "table written to ${OUT_DIR#"$ROOT/"}/instructions-latest.md"
exit 0
