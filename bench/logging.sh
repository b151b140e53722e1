#!/usr/bin/env bash
# Access logging overhead: Faultline in front of the nginx origin of bench/run.sh, started
# once per config and measurement, one at a time, with `workers: 2`, and measured with wrk
# on bench/run.sh's scenario (1): keep-alive GET /64, 2 threads, 50 connections. See
# docs/bench.md, "Access logging overhead".
#
#   (a) off       "log": {"off": true}, HAR capture off                    (the baseline)
#   (b) json      JSON Lines of every exchange to a file in the temporary directory
#                 ("format": "json", "destination": "file"), HAR capture off
#   (c) headers   the same with "headers": true
#   (d) har       HAR capture on ("har": {"enabled": true}), logging off; informational,
#                 only when the binary's config loader knows `har`
#   (e) journal   the request journal on (its default capacity), logging and HAR off
#   (f) defaults  the shipped defaults together: JSON Lines to a file, HAR capture and the
#                 request journal on
# (b)-(d) run with the journal off, so each of (b)-(e) costs one feature.
#
# Targets: (b)/(a) >= 0.90, (c)/(a) >= 0.85 and (f)/(a) >= 0.80 in requests per second. Also reported for (b)
# and (c): the lines the log file gained during each measurement against wrk's request count
# (dropped records are allowed, but counted here), and any "dropped" counter the admin API
# shows.
#
#   bench/logging.sh                     10 s per measurement, one round
#   BENCH_ROUNDS=3 bench/logging.sh      medians of three rounds (order rotated per round)
#
# Environment:
#   BENCH_SECONDS        seconds per measurement (default 10)
#   BENCH_WARMUP         seconds of warm-up before each measurement (default 2; 0 = none)
#   BENCH_ROUNDS         start and measure every config N times, report medians (default 1)
#   BENCH_HAR            0 skips (d); default 1 (run when the binary accepts the `har` key)
#   BENCH_READY_TIMEOUT  seconds to wait for each server to answer (default 30)
#   BENCH_KEEP=1         keep the temporary directory (configs, logs, access logs, raw wrk
#                        output); the access logs take a few hundred MB per measurement
#   BENCH_BUILD=0        use the release binary as it is (default: bring it up to date)
#   FAULTLINE_BIN        Faultline binary (default .build/release/faultline, built if missing)
#
# Prints a Markdown table and writes it to bench/results/logging-latest.md. Exits 0 when the
# run completed (targets met or not, every exchange logged or not); non-zero when a tool is
# missing, the binary refuses a config, a server does not start or answers wrongly, or
# Faultline dies during a measurement.
set -euo pipefail

BENCH_NAME=logging
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# ---------------------------------------------------------------------------- settings
read_common_settings
HAR=${BENCH_HAR:-1}
[[ $HAR == 0 || $HAR == 1 ]] || die "BENCH_HAR must be 0 or 1, got '$HAR'"

# ------------------------------------------------------------------------------- tools
need wrk
need curl
need python3
need timeout
find_nginx

find_faultline

# The baseline is as quiet as the peers of bench/run.sh (nginx and HAProxy run with access
# logs off): no access log, no HAR capture. `har` is left out when the loader lacks it.
FL_QUIET=$(faultline_quiet_json)
case $FL_QUIET in
  *'"log"'*) ;;
  *) die "$FL_BIN does not accept a top-level \"log\" section; there is no access logging to measure" ;;
esac
HAR_OFF=
case $FL_QUIET in *'"har"'*) HAR_OFF='"har": {"enabled": false}' ;; esac
JOURNAL_OFF=
case $FL_QUIET in *'"journal"'*) JOURNAL_OFF='"journal": {"capacity": 0}' ;; esac
CONFIGS=(off json headers)
if [[ $HAR == 1 ]]; then
  if faultline_accepts '"log": {"off": true}, "har": {"enabled": true}'; then
    CONFIGS+=(har)
  else
    log "note: $FL_BIN does not accept \"har\": {\"enabled\": true}; (d) HAR capture is skipped"
  fi
fi
# (e) and (f) need a binary with the journal and HAR capture (one that can turn both off).
if [[ -n $JOURNAL_OFF && -n $HAR_OFF ]]; then
  CONFIGS+=(journal defaults)
else
  log "note: $FL_BIN cannot turn the journal or HAR capture off; (e) and (f) are skipped"
fi

# ----------------------------------------------------------------- processes + cleanup
make_workdir logging

# expect NAME PORT : GET /64 answers 200 and the origin's 64 bytes.
expect() {
  local name=$1 port=$2 code
  code=$(curl -sS --max-time 5 -o "$WORK/$name.body" -w '%{http_code}' "http://127.0.0.1:$port/64") \
    || die "$name: GET /64 failed"
  [[ $code == 200 ]] || { show_log "$name"; die "$name: GET /64 returned HTTP $code, expected 200"; }
  cmp -s "$WORK/$name.body" "$WORK/www/64" || die "$name: GET /64 returned a body different from the origin's"
}

# lines FILE : its number of lines (0 when it does not exist).
lines() {
  if [[ -f $1 ]]; then wc -l <"$1" | tr -d ' '; else echo 0; fi
}

# --------------------------------------------------------------------------- origin
mkdir -p "$WORK/access"
start_origin
expect origin "$ORIGIN_PORT"

# -------------------------------------------------------------------------- configs
# write_config NAME RUN PORT ADMIN-PORT ACCESS-LOG : the config of (a)...(d). Every config
# has the same admin listener (idle during the measurement; read afterwards for counters).
write_config() {
  local name=$1 run=$2 members
  case $name in
    off)     members=$FL_QUIET ;;
    json)    members="\"log\": {\"format\": \"json\", \"destination\": \"file\", \"path\": \"$5\"}${HAR_OFF:+, $HAR_OFF}${JOURNAL_OFF:+, $JOURNAL_OFF}" ;;
    headers) members="\"log\": {\"format\": \"json\", \"destination\": \"file\", \"path\": \"$5\", \"headers\": true}${HAR_OFF:+, $HAR_OFF}${JOURNAL_OFF:+, $JOURNAL_OFF}" ;;
    har)     members="\"log\": {\"off\": true}, \"har\": {\"enabled\": true}${JOURNAL_OFF:+, $JOURNAL_OFF}" ;;
    journal) members="\"log\": {\"off\": true}, $HAR_OFF" ;;
    defaults) members="\"log\": {\"format\": \"json\", \"destination\": \"file\", \"path\": \"$5\"}" ;;
  esac
  cat >"$WORK/$run.json" <<EOF
{"workers": 2, "listeners": [{"address": "127.0.0.1:$3"}], "admin": {"address": "127.0.0.1:$4"},
 "upstreams": {"origin": {"url": "http://127.0.0.1:$ORIGIN_PORT"}},
 "routes": [{"name": "all", "upstream": "origin"}],
 $members}
EOF
  local out
  out=$("$FL_BIN" check-config "$WORK/$run.json" 2>&1) \
    || die "$FL_BIN refuses the config of ($name), $WORK/$run.json: $out"
}

# admin_dropped ADMIN-PORT : every admin counter whose name contains "dropped" or "failed",
# as "GET:/path=>key.path=N,..." (";" between endpoints; no spaces: it goes in results.tsv) from
# GET /health, GET /stats and any other plain GET endpoint the admin API lists whose name
# mentions log, sink or drop (e.g. GET /log); "n/a" when none shows one.
admin_dropped() {
  python3 - "$1" <<'EOF'
import json, sys, urllib.request, urllib.error
base = f"http://127.0.0.1:{sys.argv[1]}"
def get(path):
    try:
        with urllib.request.urlopen(base + path, timeout=3) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        try:
            return json.loads(e.read())
        except Exception:
            return None
    except Exception:
        return None
paths = ["/health", "/stats"]
listing = get("/faultline-bench-no-such-endpoint") or {}
for ep in listing.get("endpoints", []) if isinstance(listing, dict) else []:
    method, _, path = str(ep).partition(" ")
    if method == "GET" and "{" not in path and path not in paths \
            and any(w in path.lower() for w in ("log", "sink", "drop")):
        paths.append(path)
found = []
def walk(value, where):
    if isinstance(value, dict):
        for k, v in value.items():
            key = f"{where}.{k}" if where else k
            if any(w in k.lower() for w in ("dropped", "failed")) \
                    and isinstance(v, (int, float)) and not isinstance(v, bool):
                found.append(f"{key}={v}")
            else:
                walk(v, key)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            walk(v, f"{where}[{i}]")
shown = []
for path in paths:
    found = []
    walk(get(path), "")
    if found:
        shown.append(f"GET:{path}=>" + ",".join(found))
print(";".join(shown) if shown else "n/a")
EOF
}

# inspect_log FILE FROM-LINE : "json_ok=yes|no|none headers=yes|no|none log_dropped=N|n/a":
# whether the first record written during the measurement (line FROM-LINE + 1) is a JSON
# object, whether it carries request headers, and the largest "dropped" count any record
# reports (e.g. a record about lost records).
inspect_log() {
  local file=$1 from=$2
  if [[ ! -s $file ]]; then
    echo "json_ok=none headers=none log_dropped=n/a"
    return
  fi
  { tail -n +"$((from + 1))" "$file" | head -n 1; grep -F -i dropped "$file" | head -n 1000 || true; } \
    | python3 -c '
import json, sys
first = sys.stdin.readline()
try:
    rec = json.loads(first)
    ok = "yes" if isinstance(rec, dict) else "no"
except Exception:
    rec, ok = None, ("none" if not first.strip() else "no")
headers = "none" if rec is None else ("yes" if any(k.startswith("http.request.header.") for k in rec) else "no")
dropped = None
for line in sys.stdin:
    try:
        r = json.loads(line)
    except Exception:
        continue
    for k, v in (r.items() if isinstance(r, dict) else []):
        if "dropped" in k.lower() and isinstance(v, int) and not isinstance(v, bool):
            dropped = max(dropped or 0, v)
print("json_ok=%s headers=%s log_dropped=%s" % (ok, headers, "n/a" if dropped is None else dropped))'
}

# ------------------------------------------------------------------------ measuring
RESULTS=$WORK/results.tsv
: >"$RESULTS"
# run_config NAME ROUND : starts Faultline with NAME's config, checks it, warms up, counts the
# access log's lines, measures, reads the admin counters, stops Faultline (so the log is
# flushed), counts again.
run_config() {
  local name=$1 round=$2 run="$1-$2" port admin pid url out cpu0 cpu1 before after stats \
    access="$WORK/access/$1-$2.jsonl" limit=$((DURATION + WARMUP + 60)) dropped
  port=$(free_port)
  admin=$(free_port)
  write_config "$name" "$run" "$port" "$admin" "$access"
  start "$run" "$FL_BIN" run --config "$WORK/$run.json"
  pid=$LAST_PID
  wait_ready "$run" "$port" "$pid"
  expect "$run" "$port"
  url="http://127.0.0.1:$port/64"
  out="$WORK/wrk-$run.txt"
  log "  round $((round + 1))/$ROUNDS: $name (pid $pid, port $port)"
  if ((WARMUP > 0)); then
    timeout "$limit" wrk -t2 -c50 -d "${WARMUP}s" "$url" >"$WORK/wrk-$run.warmup.txt" 2>&1 || true
  fi
  sleep 1                         # let the log writer drain the warm-up's records
  before=$(lines "$access")
  cpu0=$(cpu_ticks "$pid")
  if timeout "$limit" wrk -s "$BENCH_DIR/stats.lua" -t2 -c50 -d "${DURATION}s" "$url" >"$out" 2>&1 \
      && grep -q '^BENCH ' "$out"; then
    cpu1=$(cpu_ticks "$pid")
    stats="$(grep '^BENCH ' "$out" | sed 's/^BENCH //') cpu_us=$(( (cpu1 - cpu0) * 1000000 / HZ ))"
  else
    log "$name: wrk failed:"; tail -n 5 "$out" >&2 || true
    stats="status=error"
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    show_log "$run"
    die "Faultline ($name) died during the measurement"
  fi
  sleep 1                         # records still queued reach the file or the dropped count
  dropped=$(admin_dropped "$admin")
  stop "$pid"
  after=$(lines "$access")
  printf '%s\t%s logged=%d log_file=%s %s admin_dropped=%s killed=%s stdout_lines=%d\n' \
    "$name" "$stats" "$((after - before))" "$([[ -e $access ]] && echo yes || echo no)" \
    "$(inspect_log "$access" "$before")" "$dropped" "${STOP_KILLED:-no}" "$(lines "$WORK/$run.log")" >>"$RESULTS"
  [[ -n ${BENCH_KEEP:-} ]] || rm -f "$access"
}

LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
measure_rounds

# -------------------------------------------------------------------------- report
mkdir -p "$BENCH_DIR/results"
PYTHONPATH="$BENCH_DIR" python3 - "$RESULTS" "$BENCH_DIR/results/logging-latest.md" "$DURATION" "$WARMUP" "$ROUNDS" \
  "$(nproc) cores, $(uname -sr), load average $LOAD_AT_START at the start" \
  "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(shown_path "$FL_BIN")" "$HAR_OFF" \
  "$HAR" "${CONFIGS[*]}" "$JOURNAL_OFF" <<'EOF'
import sys
from bench_stats import good as good_of, load_runs, median as median_of
(results, out, seconds, warmup, rounds, host, date, binary, har_off, har_wanted,
 configs, journal_off) = sys.argv[1:]
configs = configs.split()
runs = load_runs(results)
good = lambda name: good_of(runs, name)
median = lambda name, key: median_of(runs, name, key)

har_note = "HAR capture off" if har_off else "HAR capture: key unknown to this binary"
if journal_off:
    har_note += ", journal off"
rows = [("off", f"(a) logging off, {har_note}", None, "a"),
        ("json", "(b) JSON Lines of every exchange to a file", 0.90, "b"),
        ("headers", "(c) (b) + `headers: true`", 0.85, "c"),
        ("har", "(d) HAR capture on, logging off (informational)", None, "d"),
        ("journal", "(e) request journal on, logging and HAR off (informational)", None, "e"),
        ("defaults", "(f) shipped defaults: (b) + HAR capture + request journal", 0.80, "f")]
base = median("off", "rps")
lines = [f"Access logging overhead, {date}: {host}; Faultline `workers: 2`, wrk -t2 -c50 keep-alive "
         f"GET /64 for {seconds} s (+{warmup} s warm-up); median of {rounds} round(s).", "",
         "| config | req/s | CPU µs/req | p50 ms | p99 ms | errors | ratio to (a) | target | met | log lines / wrk requests |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
notes = []
for name, label, target, letter in rows:
    if name not in configs:
        if name == "har":
            why = "BENCH_HAR=0" if har_wanted == "0" else "this binary does not accept `\"har\": {\"enabled\": true}`"
            notes.append(f"- (d) not measured: {why}.")
        continue
    tgt = "" if target is None else f"≥ {target:.2f}"
    rps = median(name, "rps")
    logged_cell = "—"
    nothing_logged = False
    if name in ("json", "headers", "defaults"):
        g = good(name)
        req = sum(int(r["requests"]) for r in g)
        logged = sum(int(r["logged"]) for r in g)
        pct = f" ({100 * logged / req:.1f}%)" if req else ""
        logged_cell = f"{logged:,} / {req:,}{pct}"
        missing = req - logged
        files = {r.get("log_file") for r in g}
        parts = []
        if files == {"no"}:
            parts.append("the log file was never created")
        if logged == 0:
            nothing_logged = True
            parts.append("**no exchange logged**, so its ratio to (a) does not measure logging")
        elif missing > 0:
            parts.append(f"**{missing:,} exchanges not in the file** ({100 * missing / req:.2f}%)")
        elif missing < 0:
            parts.append(f"every exchange logged ({-missing} more lines than wrk's count: requests in flight "
                         "when wrk stopped, or records other than exchanges)")
        else:
            parts.append("every exchange logged")
        jsons = {r.get("json_ok") for r in g}
        if "no" in jsons:
            parts.append("a record is **not a JSON object**")
        elif "yes" in jsons:
            parts.append("records are JSON objects")
        if name == "headers":
            hs = {r.get("headers") for r in g}
            if "yes" in hs and "no" not in hs:
                parts.append("request headers present")
            elif "no" in hs:
                parts.append("**no `http.request.header.*` field** in the first record")
        ad = [r.get("admin_dropped", "n/a").replace("GET:", "GET ").replace("=>", ": ")
              .replace(",", ", ").replace(";", "; ") for r in g]
        ad_known = [f"`{a}`" for a in ad if a != "n/a"]
        parts.append(f"admin API after each measurement: {'; '.join(ad_known)}" if ad_known
                     else "the admin API shows no dropped counter")
        ld = [r.get("log_dropped", "n/a") for r in g if r.get("log_dropped", "n/a") != "n/a"]
        if ld:
            parts.append(f"largest `dropped` count in a log record: {max(int(x) for x in ld):,}")
        if any(r.get("killed") not in (None, "no") for r in g):
            parts.append("Faultline needed SIGKILL after SIGTERM (records may have been lost at exit)")
        notes.append(f"- ({letter}) " + "; ".join(parts) + ".")
    if rps is None:
        lines.append(f"| {label} | error | | | | | | {tgt} | n/a | {logged_cell} |")
        continue
    ratio = rps / base if base else None
    if name == "off":
        ratio_text = "1.00"
    else:
        ratio_text = f"{ratio:.3f}" if ratio is not None else "n/a"
    met = "" if target is None else ("n/a" if ratio is None else ("met" if ratio >= target else "**missed**"))
    if met and nothing_logged:
        met += " (nothing logged)"
    lines.append(f"| {label} | {rps:,.0f} | {median(name, 'cpu'):.1f} | {median(name, 'p50_us') / 1000:.2f} | "
                 f"{median(name, 'p99_us') / 1000:.2f} | {median(name, 'errors')} | {ratio_text} | "
                 f"{tgt} | {met} | {logged_cell} |")
quiet_out = [f"({l}) {sum(int(r.get('stdout_lines', 0)) for r in runs.get(n, []))}"
             for n, _, _, l in rows if n in configs]
lines += ["", "Log lines: lines the access log file gained during the measurement (counted after the "
          "warm-up had drained and again after Faultline stopped), summed over rounds, against wrk's "
          "completed requests.", ""]
lines += notes
lines += [f"- Lines Faultline wrote to stdout/stderr per config, all rounds: {', '.join(quiet_out)}.",
          "", f"Binary: `{binary}`."]
text = "\n".join(lines) + "\n"
open(out, "w").write(text)
print(text, end="")
EOF
log "table written to bench/results/logging-latest.md"
exit 0
