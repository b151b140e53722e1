#!/usr/bin/env bash
# Cost of a rule's `json` conditions: Faultline in front of nginx (a location answering any
# POST with 200), `workers: 2`, wrk keep-alive POST of a 4 KiB JSON body (bench/json-match.lua).
# See docs/bench.md, "JSON body matching".
#
#   (a) paths   50 path_prefix rules that match nothing, then the catch-all: the body streams
#   (b) json    the same, plus a rule on /post whose json condition (/user/tier = platinum)
#               does not hold: every body is read before routing, parsed once, and replayed
#   (c) held    the json rule is on another path: every body is read first and replayed, none
#               is parsed (the cost of holding alone)
#
#   bench/json-match.sh                  10 s per measurement, one round
#   BENCH_ROUNDS=3 bench/json-match.sh   medians of three rounds (order rotated per round)
#
# Environment as in bench/sessions.sh (FAULTLINE_BIN, BENCH_SECONDS, BENCH_WARMUP, BENCH_ROUNDS,
# BENCH_BUILD, BENCH_KEEP). Prints a Markdown table and writes bench/results/json-match-latest.md.
set -euo pipefail

BENCH_NAME=json-match
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

read_common_settings
CONFIGS=(paths json held)
need wrk
need curl
need python3
need timeout
find_nginx
find_faultline
FL_QUIET=$(faultline_quiet_json)
make_workdir json-match

# The origin: bench/run.sh's nginx with a location that answers a POST (nginx reads and
# drops its body) with 200.
ORIGIN_PORT=$(free_port)
mkdir -p "$WORK/www" "$WORK/origin-tmp" && chmod 777 "$WORK/origin-tmp" && chmod 755 "$WORK/www"
printf '%063d\n' 0 | tr 0 f >"$WORK/www/64" && chmod 644 "$WORK/www/64"   # what wait_ready asks for
sed -e '/@TLS@/d' -e "s|@DIR@|$WORK|g" -e "s|@PORT@|$ORIGIN_PORT|g" \
  -e 's|        root .*www;|&\n        location = /post { return 200 "ok\\n"; }|' \
  "$BENCH_DIR/conf/origin-nginx.conf.in" >"$WORK/origin.conf"
start origin "$NGINX" -p "$WORK/" -e "$WORK/origin-error.log" -c "$WORK/origin.conf"
wait_ready origin "$ORIGIN_PORT" "$LAST_PID"

# write_config NAME PORT
write_config() {
  python3 - "$1" "$2" "$ORIGIN_PORT" "$FL_QUIET" <<'PY'
import json, sys
name, port, origin, quiet = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
routes = [{"name": f"r{i}", "match": {"path_prefix": f"/never/{i}"}, "upstream": "origin",
           "faults": [{"status": 503}]} for i in range(50)]
if name in ("json", "held"):
    routes.append({"name": "platinum", "match": {"path": "/post" if name == "json" else "/other",
                                                 "json": {"/user/tier": "platinum"}},
                   "upstream": "origin", "faults": [{"status": 503}]})
routes.append({"name": "all", "upstream": "origin"})
config = {"workers": 2, "listeners": [{"address": f"127.0.0.1:{port}"}],
          "upstreams": {"origin": {"url": f"http://127.0.0.1:{origin}"}}, "routes": routes}
if quiet:
    config.update(json.loads("{" + quiet + "}"))
print(json.dumps(config))
PY
}

RESULTS=$WORK/results.tsv
: >"$RESULTS"
export BENCH_DIR
run_config() {
  local name=$1 round=$2 port pid code
  port=$(free_port)
  write_config "$name" "$port" >"$WORK/$name.json"
  start "$name" "$FL_BIN" run --config "$WORK/$name.json"
  pid=$LAST_PID
  wait_ready "$name" "$port" "$pid"
  code=$(curl -sS -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary '{"user": {"tier": "gold"}}' "http://127.0.0.1:$port/post")
  [[ $code == 200 ]] || die "$name: POST /post got HTTP $code, expected the origin's 200"
  if [[ $name == json ]]; then
    code=$(curl -sS -o /dev/null -w '%{http_code}' --data-binary '{"user": {"tier": "platinum"}}' "http://127.0.0.1:$port/post")
    [[ $code == 503 ]] || die "json: a platinum body got HTTP $code, expected the rule's 503 (json conditions not in effect?)"
  fi
  log "  round $((round + 1))/$ROUNDS: $name (pid $pid, port $port)"
  printf '%s\t%s\n' "$name" "$(wrk_keepalive "$name-$round" "$pid" "http://127.0.0.1:$port/post" -s "$BENCH_DIR/json-match.lua")" >>"$RESULTS"
  kill -0 "$pid" 2>/dev/null || { show_log "$name"; die "Faultline ($name) died during the measurement"; }
  stop "$pid"
}

measure_rounds

mkdir -p "$BENCH_DIR/results"
PYTHONPATH="$BENCH_DIR" python3 - "$RESULTS" "$BENCH_DIR/results/json-match-latest.md" "$DURATION" "$WARMUP" "$ROUNDS" \
  "$(nproc) cores, $(uname -sr)" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(shown_path "$FL_BIN")" <<'EOF'
import sys
from bench_stats import load_runs, median, overhead_table, write_report
results, out, seconds, warmup, rounds, host, date, binary = sys.argv[1:]
runs = load_runs(results)
rows = [("paths", "(a) 50 path rules + catch-all (body streams)", None, None),
        ("json", "(b) the same + a json rule on the path that does not hold (body read, parsed, replayed)", None, "paths"),
        ("held", "(c) the json rule on another path (body read and replayed, not parsed)", None, "paths")]
title = (f"JSON body matching, {date}: {host}; Faultline `workers: 2`, wrk -t2 -c50 keep-alive POST of a "
         f"4 KiB JSON body for {seconds} s (+{warmup} s warm-up); median of {rounds} round(s).")
a, b, c = (median(runs, name, "cpu") for name in ("paths", "json", "held"))
cost = ""
if a is not None and b is not None:
    cost = (f"Cost of the json rule: {b - a:+.1f} µs of Faultline CPU per request ((b) − (a))"
            + (f", of which holding and replaying the body {c - a:+.1f} µs ((c) − (a))." if c is not None else ".") + "\n\n")
write_report(overhead_table(runs, title, rows, f"{cost}Binary: `{binary}`."), out)
EOF
log "table written to bench/results/json-match-latest.md"
exit 0
