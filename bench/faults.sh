#!/usr/bin/env bash
# Fault engine overhead: Faultline in front of the nginx origin of bench/run.sh, started
# three times one after another with `workers: 2`, and measured with wrk. See
# docs/bench.md, "Fault engine overhead".
#
#   (a) base    one catch-all route, no faults
#   (b) rules   BENCH_RULES routes with a 503 fault that never match, then the catch-all
#   (c) delay0  the catch-all with a `delay: 0` fault that fires on every request
#   (d) paths50 50 routes with a 503 fault whose path never matches, then the catch-all
#   (e) match50 50 routes with a 503 fault on every path whose `headers` and `query`
#               conditions never hold (wrk sends neither), then the catch-all
#
# Targets: (b)/(a) >= 0.95, (c)/(a) >= 0.9 and (e)/(d) >= 0.95 in requests per second: (e)
# compares every request's header and query conditions against 50 rules, (d) only the route
# index's path lookup.
#
#   bench/faults.sh                      10 s per measurement, one round
#   BENCH_ROUNDS=3 bench/faults.sh       medians of three rounds (order rotated per round)
#
# Environment:
#   BENCH_SECONDS        seconds per measurement (default 10)
#   BENCH_WARMUP         seconds of warm-up before each measurement (default 2; 0 = none)
#   BENCH_ROUNDS         start and measure every config N times, report medians (default 1)
#   BENCH_RULES          non-matching routes in (b) (default 1000)
#   BENCH_READY_TIMEOUT  seconds to wait for each server to answer (default 30)
#   BENCH_KEEP=1         keep the temporary directory (configs, logs, raw wrk output)
#   BENCH_BUILD=0        use the release binary as it is (default: bring it up to date)
#   FAULTLINE_BIN        Faultline binary (default .build/release/faultline, built if missing)
#
# Prints a Markdown table and writes it to bench/results/faults-latest.md. Exits 0 when the
# run completed (targets met or not); non-zero when a tool is missing, a server does not
# start or answers wrongly, or Faultline dies during a measurement.
set -euo pipefail

BENCH_NAME=faults
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# ---------------------------------------------------------------------------- settings
read_common_settings
RULES=${BENCH_RULES:-1000}
[[ $RULES =~ ^[1-9][0-9]*$ ]] || die "BENCH_RULES must be a positive integer, got '$RULES'"
CONFIGS=(base rules delay0 paths50 match50)

# ------------------------------------------------------------------------------- tools
need wrk
need curl
need python3
need timeout
find_nginx

find_faultline
# nginx and HAProxy run with access logs off in bench/run.sh, so every Faultline here runs
# without an access log ("log": {"off": true}; the default logs every exchange to stdout) and
# without the in-memory HAR capture ("har": {"enabled": false}; on by default): the table
# measures the fault engine, not logging. Keys the binary does not know yet are left out
# (bench/lib.sh, faultline_quiet_json).
FL_QUIET=$(faultline_quiet_json)

# ----------------------------------------------------------------- processes + cleanup
make_workdir faults

# expect NAME PORT PATH STATUS : GET PATH answers STATUS (and the origin's 64 bytes for /64).
expect() {
  local name=$1 port=$2 path=$3 want=$4 code
  code=$(curl -sS --max-time 5 -o "$WORK/$name.body" -w '%{http_code}' "http://127.0.0.1:$port$path") \
    || die "$name: GET $path failed"
  [[ $code == "$want" ]] || { show_log "$name"; die "$name: GET $path returned HTTP $code, expected $want"; }
  if [[ $path == /64 ]]; then
    cmp -s "$WORK/$name.body" "$WORK/www/64" || die "$name: GET /64 returned a body different from the origin's"
  fi
}

# --------------------------------------------------------------------------- origin
start_origin
expect origin "$ORIGIN_PORT" /64 200

# -------------------------------------------------------------------------- configs
# write_config NAME PORT : the config of (a), (b) or (c) listening on PORT.
write_config() {
  python3 - "$1" "$2" "$ORIGIN_PORT" "$RULES" "$FL_QUIET" >"$WORK/$1.json" <<'EOF'
import json, sys
name, port, origin, rules = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
quiet = json.loads("{" + sys.argv[5] + "}")
routes = []
if name == "rules":
    routes = [{"name": f"r{i}", "match": {"path_prefix": f"/never/{i}"}, "upstream": "origin",
               "faults": [{"status": 503}]} for i in range(rules)]
if name == "paths50":
    routes = [{"name": f"p{i}", "match": {"path_prefix": f"/never/{i}"}, "upstream": "origin",
               "faults": [{"status": 503}]} for i in range(50)]
if name == "match50":
    routes = [{"name": f"m{i}", "match": {"headers": {"x-tenant": f"tenant-{i}*", "x-canary": True},
                                          "query": {"variant": f"v{i}"}},
               "upstream": "origin", "faults": [{"status": 503}]} for i in range(50)]
catch_all = {"name": "all", "upstream": "origin"}
if name == "delay0":
    catch_all["faults"] = [{"delay": 0}]
routes.append(catch_all)
print(json.dumps({"workers": 2, "listeners": [{"address": f"127.0.0.1:{port}"}],
                  "upstreams": {"origin": {"url": f"http://127.0.0.1:{origin}"}}, "routes": routes,
                  **quiet}))
EOF
}

# ------------------------------------------------------------------------ measuring
RESULTS=$WORK/results.tsv
: >"$RESULTS"
# run_config NAME ROUND : starts Faultline with NAME's config, checks it, measures, stops it.
run_config() {
  local name=$1 round=$2 port pid code
  port=$(free_port)
  write_config "$name" "$port"
  start "$name" "$FL_BIN" run --config "$WORK/$name.json"
  pid=$LAST_PID
  wait_ready "$name" "$port" "$pid"
  expect "$name" "$port" /64 200
  [[ $name != rules ]] || expect "$name" "$port" "/never/$((RULES - 1))/x" 503
  [[ $name != paths50 ]] || expect "$name" "$port" "/never/49/x" 503
  if [[ $name == match50 ]]; then
    code=$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' -H 'X-Tenant: tenant-49-a' -H 'X-Canary: 1' \
      "http://127.0.0.1:$port/64?variant=v49") || die "match50: the matching request failed"
    [[ $code == 503 ]] || die "match50: a request meeting rule m49 returned HTTP $code, expected 503"
  fi
  log "  round $((round + 1))/$ROUNDS: $name (pid $pid, port $port)"
  printf '%s\t%s\n' "$name" "$(wrk_keepalive "$name-$round" "$pid" "http://127.0.0.1:$port/64")" >>"$RESULTS"
  if ! kill -0 "$pid" 2>/dev/null; then
    show_log "$name"
    die "Faultline ($name) died during the measurement"
  fi
  stop "$pid"
}

measure_rounds

# -------------------------------------------------------------------------- report
mkdir -p "$BENCH_DIR/results"
PYTHONPATH="$BENCH_DIR" python3 - "$RESULTS" "$BENCH_DIR/results/faults-latest.md" "$DURATION" "$WARMUP" "$ROUNDS" "$RULES" \
  "$(nproc) cores, $(uname -sr)" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(shown_path "$FL_BIN")" "$FL_QUIET" <<'EOF'
import sys
from bench_stats import load_runs, overhead_table, write_report
results, out, seconds, warmup, rounds, rules, host, date, binary, quiet = sys.argv[1:]
rows = [("base", "(a) catch-all, no faults", None, None),
        ("rules", f"(b) {rules} non-matching rules + catch-all", 0.95, "base"),
        ("delay0", "(c) catch-all with `delay: 0` on every request", 0.90, "base"),
        ("paths50", "(d) 50 non-matching path rules + catch-all", None, None),
        ("match50", "(e) 50 rules on every path whose header and query conditions never hold + catch-all",
         0.95, "paths50")]
title = (f"Fault engine overhead, {date}: {host}; Faultline `workers: 2`, wrk -t2 -c50 keep-alive "
         f"GET /64 for {seconds} s (+{warmup} s warm-up); median of {rounds} round(s).")
footer = (f"Binary: `{binary}`. No access log and no HAR capture, as nginx and HAProxy in bench/run.sh "
          f"run without access logs; added to every config: `{quiet or 'nothing (neither key accepted by this binary)'}`.")
write_report(overhead_table(load_runs(results), title, rows, footer), out)
EOF
log "table written to bench/results/faults-latest.md"
exit 0
