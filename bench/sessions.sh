#!/usr/bin/env bash
# Cost of idle sessions on requests outside them: Faultline in front of the nginx origin of
# bench/run.sh, started once per config with `workers: 2`, measured with wrk keep-alive GET /64
# (the keep-alive scenario of bench/run.sh). See docs/bench.md, "Sessions overhead".
#
#   (a) base      no sessions
#   (b) idle      BENCH_SESSIONS sessions, each holding BENCH_SESSION_RULES rules (a 503 fault
#                 on a path nobody requests), created through the admin API; the measured
#                 requests carry no session header
#   (c) insession the same sessions; every measured request carries one session's header
#                 (its rules match nothing, so it ends on the catch-all; informational)
#
# Target: (b)/(a) >= 0.95 in requests per second, in the same run.
#
#   bench/sessions.sh                    10 s per measurement, one round
#   BENCH_ROUNDS=3 bench/sessions.sh     medians of three rounds (order rotated per round)
#
# Environment: BENCH_SECONDS, BENCH_WARMUP, BENCH_ROUNDS, BENCH_READY_TIMEOUT, BENCH_KEEP,
# BENCH_BUILD, FAULTLINE_BIN as in bench/faults.sh; BENCH_SESSIONS (default 100) and
# BENCH_SESSION_RULES (default 10).
#
# Prints a Markdown table and writes it to bench/results/sessions-latest.md. Exits 0 when the
# run completed (target met or not); non-zero when a tool is missing, a server does not start
# or answers wrongly, a session cannot be created, or Faultline dies during a measurement.
set -euo pipefail

BENCH_NAME=sessions
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

read_common_settings
SESSIONS=${BENCH_SESSIONS:-100}
SESSION_RULES=${BENCH_SESSION_RULES:-10}
[[ $SESSIONS =~ ^[1-9][0-9]*$ ]] || die "BENCH_SESSIONS must be a positive integer, got '$SESSIONS'"
[[ $SESSION_RULES =~ ^[1-9][0-9]*$ ]] || die "BENCH_SESSION_RULES must be a positive integer, got '$SESSION_RULES'"
CONFIGS=(base idle insession)

need wrk
need curl
need python3
need timeout
find_nginx
find_faultline
# As in bench/faults.sh: no access log, no HAR capture and no global request journal
# (bench/lib.sh, faultline_quiet_json), so the table measures the session lookup alone.
FL_QUIET=$(faultline_quiet_json)

make_workdir sessions

start_origin

# write_config PORT ADMIN_PORT : one catch-all route and the admin API.
write_config() {
  printf '{"workers": 2, "listeners": [{"address": "127.0.0.1:%s"}], "admin": {"address": "127.0.0.1:%s"}, "upstreams": {"origin": {"url": "http://127.0.0.1:%s"}}, "routes": [{"name": "all", "upstream": "origin"}]%s}\n' \
    "$1" "$2" "$ORIGIN_PORT" "${FL_QUIET:+, $FL_QUIET}"
}

# create_sessions ADMIN_PORT : creates the sessions and their rules; prints one session id.
# Checks that a request in the last session on one of its rule paths gets the rule's 503.
create_sessions() {
  python3 - "$1" "$SESSIONS" "$SESSION_RULES" <<'EOF'
import json, sys, urllib.request
port, sessions, rules = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
base = f"http://127.0.0.1:{port}"
def call(method, path, body):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)
ids = []
for s in range(sessions):
    session = call("POST", "/sessions", {"name": f"bench-{s}", "ttl_s": 3600})
    ids.append(session["id"])
    for r in range(rules):
        call("POST", f"/sessions/{session['id']}/rules",
             {"name": f"r{r}", "match": {"path_prefix": f"/never/{s}/{r}"}, "faults": [{"status": 503}]})
print(ids[-1])
EOF
}

RESULTS=$WORK/results.tsv
: >"$RESULTS"
# run_config NAME ROUND : starts Faultline, loads the sessions (b, c), checks, measures, stops it.
run_config() {
  local name=$1 round=$2 port admin pid session= code
  local header=()
  port=$(free_port)
  admin=$(free_port)
  write_config "$port" "$admin" >"$WORK/$name.json"
  start "$name" "$FL_BIN" run --config "$WORK/$name.json"
  pid=$LAST_PID
  wait_ready "$name" "$port" "$pid"
  if [[ $name != base ]]; then
    session=$(create_sessions "$admin") || { show_log "$name"; die "$name: creating $SESSIONS sessions failed"; }
    code=$(curl -sS -o /dev/null -w '%{http_code}' -H "X-Faultline-Session: $session" \
      "http://127.0.0.1:$port/never/$((SESSIONS - 1))/$((SESSION_RULES - 1))/x")
    [[ $code == 503 ]] || die "$name: a request in the last session on its last rule got HTTP $code, expected 503"
    code=$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/never/$((SESSIONS - 1))/0/x")
    # The origin has no such file: its 404, not the session rule's 503.
    [[ $code == 404 ]] || die "$name: a request outside every session got HTTP $code, expected the origin's 404 (a session rule leaked?)"
  fi
  [[ $name == insession ]] && header=(-H "X-Faultline-Session: $session")
  log "  round $((round + 1))/$ROUNDS: $name (pid $pid, port $port)"
  printf '%s\t%s\n' "$name" "$(wrk_keepalive "$name-$round" "$pid" "http://127.0.0.1:$port/64" "${header[@]}")" >>"$RESULTS"
  kill -0 "$pid" 2>/dev/null || { show_log "$name"; die "Faultline ($name) died during the measurement"; }
  stop "$pid"
}

measure_rounds

mkdir -p "$BENCH_DIR/results"
PYTHONPATH="$BENCH_DIR" python3 - "$RESULTS" "$BENCH_DIR/results/sessions-latest.md" "$DURATION" "$WARMUP" "$ROUNDS" "$SESSIONS" \
  "$SESSION_RULES" "$(nproc) cores, $(uname -sr)" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(shown_path "$FL_BIN")" "$FL_QUIET" <<'EOF'
import sys
from bench_stats import load_runs, overhead_table, write_report
results, out, seconds, warmup, rounds, sessions, rules, host, date, binary, quiet = sys.argv[1:]
rows = [("base", "(a) no sessions", None, None),
        ("idle", f"(b) {sessions} idle sessions x {rules} rules, requests outside them", 0.95, "base"),
        ("insession", "(c) the same, every request in one session (no rule matches)", None, "base")]
title = (f"Sessions overhead, {date}: {host}; Faultline `workers: 2`, wrk -t2 -c50 keep-alive GET /64 "
         f"for {seconds} s (+{warmup} s warm-up); median of {rounds} round(s).")
write_report(overhead_table(load_runs(results), title, rows,
                            f"Binary: `{binary}`. Added to every config: `{quiet or 'nothing'}`."), out)
EOF
log "table written to bench/results/sessions-latest.md"
exit 0
