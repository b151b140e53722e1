#!/usr/bin/env bash
# Cost of dashboards watching the live stream: Faultline (`workers: 2`, admin API on) in front
# of the nginx origin of bench/run.sh, measured with wrk keep-alive GET /64 (the keep-alive
# scenario of bench/run.sh) with 0, 1 and 10 clients reading GET /exchanges/stream (curl -N,
# which reads as fast as the stream comes, as an open dashboard tab does). See docs/bench.md,
# "Dashboard overhead".
#
#   (a) none  no stream client (the live feed still records: an admin listener exists)
#   (b) one   one stream client
#   (c) ten   ten stream clients
#
# Targets: (b)/(a) >= 0.97 and (c)/(a) >= 0.90 in requests per second, in the same run.
#
#   bench/dashboard.sh                    10 s per measurement, one round
#   BENCH_ROUNDS=3 bench/dashboard.sh     medians of three rounds (order rotated per round)
#
# Environment: BENCH_SECONDS, BENCH_WARMUP, BENCH_ROUNDS, BENCH_READY_TIMEOUT, BENCH_KEEP,
# BENCH_BUILD, FAULTLINE_BIN as in bench/sessions.sh; BENCH_DASHBOARD_QUIET=1 also turns the
# global journal off, so (a) builds no exchange records at all and (b), (c) pay for building
# them (a watched stream records exchanges whatever the log, HAR and journal settings).
#
# Prints a Markdown table and writes it to bench/results/dashboard-latest.md (or BENCH_OUT).
# Exits 0 when the run completed (targets met or not); non-zero when a tool is missing, a
# server does not start or answers wrongly, a stream client got no event, or Faultline dies.
set -euo pipefail

BENCH_NAME=dashboard
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

read_common_settings
CONFIGS=(none one ten)
OUT=${BENCH_OUT:-$BENCH_DIR/results/dashboard-latest.md}

need wrk
need curl
need python3
need timeout
find_nginx
find_faultline
# No access log and no HAR capture; the global journal stays on (its default), so every config
# builds the exchange record it needs and the table measures the live feed and its streams.
# BENCH_DASHBOARD_QUIET=1: the journal off too (bench/lib.sh, faultline_quiet_json).
if [[ ${BENCH_DASHBOARD_QUIET:-0} == 1 ]]; then
  FL_QUIET=$(faultline_quiet_json)
else
  FL_QUIET='"log": {"off": true}, "har": {"enabled": false}'
fi

make_workdir dashboard

start_origin

# write_config PORT ADMIN_PORT : one catch-all route and the admin API.
write_config() {
  printf '{"workers": 2, "listeners": [{"address": "127.0.0.1:%s"}], "admin": {"address": "127.0.0.1:%s"}, "upstreams": {"origin": {"url": "http://127.0.0.1:%s"}}, "routes": [{"name": "all", "upstream": "origin"}]%s}\n' \
    "$1" "$2" "$ORIGIN_PORT" "${FL_QUIET:+, $FL_QUIET}"
}

RESULTS=$WORK/results.tsv
: >"$RESULTS"
# run_config NAME ROUND : starts Faultline and the stream clients, measures, checks, stops all.
run_config() {
  local name=$1 round=$2 port admin pid clients=0 i streams=()
  case $name in one) clients=1 ;; ten) clients=10 ;; esac
  port=$(free_port)
  admin=$(free_port)
  write_config "$port" "$admin" >"$WORK/$name.json"
  start "$name" "$FL_BIN" run --config "$WORK/$name.json"
  pid=$LAST_PID
  wait_ready "$name" "$port" "$pid"
  for ((i = 0; i < clients; i++)); do
    start "$name-stream-$i" curl -sN -o "$WORK/$name-stream-$i.sse" "http://127.0.0.1:$admin/exchanges/stream"
    streams+=("$LAST_PID")
  done
  log "  round $((round + 1))/$ROUNDS: $name (pid $pid, port $port, $clients stream client(s))"
  printf '%s\t%s\n' "$name" "$(wrk_keepalive "$name-$round" "$pid" "http://127.0.0.1:$port/64")" >>"$RESULTS"
  kill -0 "$pid" 2>/dev/null || { show_log "$name"; die "Faultline ($name) died during the measurement"; }
  for ((i = 0; i < clients; i++)); do
    grep -q '^event: exchanges' "$WORK/$name-stream-$i.sse" || die "$name: stream client $i received no exchanges event"
  done
  for i in "${streams[@]}"; do stop "$i"; done
  stop "$pid"
}

measure_rounds

mkdir -p "$(dirname "$OUT")"
PYTHONPATH="$BENCH_DIR" python3 - "$RESULTS" "$OUT" "$DURATION" "$WARMUP" "$ROUNDS" \
  "$(nproc) cores, $(uname -sr)" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(shown_path "$FL_BIN")" "$FL_QUIET" <<'PY'
import sys
from bench_stats import load_runs, overhead_table, write_report
results, out, seconds, warmup, rounds, host, date, binary, quiet = sys.argv[1:]
rows = [("none", "(a) no stream client", None, None),
        ("one", "(b) one dashboard on the live stream", 0.97, "none"),
        ("ten", "(c) ten dashboards on the live stream", 0.90, "none")]
title = (f"Dashboard overhead, {date}: {host}; Faultline `workers: 2` with the admin API, wrk -t2 -c50 keep-alive "
         f"GET /64 for {seconds} s (+{warmup} s warm-up); median of {rounds} round(s).")
write_report(overhead_table(load_runs(results), title, rows,
                            f"Binary: `{binary}`. Added to every config: `{quiet or 'nothing'}`."), out)
PY
log "table written to $OUT"
exit 0
