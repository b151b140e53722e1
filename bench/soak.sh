#!/usr/bin/env bash
# Soak: Faultline (release build, workers 2) in front of its demo origin, driven by wrk with
# a mix of keep-alive and new connections over a plain route and routes with random faults
# (status, delay, close and reset after N bytes, truncate), while the proxy's resident memory
# (VmRSS) and open file descriptors are sampled from /proc. Then checksummed exchanges on the
# plain route while wrk keeps the fault routes busy. See docs/bench.md, "Soak".
#
#   bench/soak.sh                        1,000,000 requests, then 100,000 checksummed exchanges
#   bench/soak.sh --requests 50000       a quick check (checksummed exchanges: a tenth, 5,000)
#
# Options:
#   --requests N     requests in the measured phase (default 1000000)
#   --warmup N       requests before the measured phase (default max(N/10, 20000))
#   --exchanges N    checksummed exchanges (default N/10: 100,000 for the full soak)
#   --connections N  wrk connections (default 50, over 2 threads)
#   --seed N         seed of the proxy's fault decisions and of the checker (default 1)
#
# Environment: BENCH_READY_TIMEOUT, BENCH_KEEP, BENCH_BUILD and FAULTLINE_BIN as in
# bench/run.sh.
#
# Targets: RSS at the end within 5 % of RSS after the warm-up; open fds back to their
# starting count once idle (no growth); zero corrupted and zero misrouted exchanges.
# Prints a Markdown table and writes it to bench/results/soak-latest.md. Exits 0 when the run
# completed (targets met or not); non-zero when a tool is missing, a server does not start or
# answers wrongly, or Faultline dies during the run.
set -euo pipefail

BENCH_NAME=soak
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# ---------------------------------------------------------------------------- settings
REQUESTS=1000000
WARMUP_REQUESTS=
EXCHANGES=
CONNECTIONS=50
SEED=1
while (($#)); do
  case $1 in
    --requests|--warmup|--exchanges|--connections|--seed) (($# >= 2)) || die "$1 needs a value" ;;
  esac
  case $1 in
    --requests) REQUESTS=${2:-}; shift 2 ;;
    --warmup) WARMUP_REQUESTS=${2:-}; shift 2 ;;
    --exchanges) EXCHANGES=${2:-}; shift 2 ;;
    --connections) CONNECTIONS=${2:-}; shift 2 ;;
    --seed) SEED=${2:-}; shift 2 ;;
    -h|--help) sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
positive() { [[ $2 =~ ^[1-9][0-9]{0,9}$ ]] || die "$1 must be a positive integer below 10^10, got '$2'"; }
positive --requests "$REQUESTS"
[[ -n $WARMUP_REQUESTS ]] || WARMUP_REQUESTS=$(( REQUESTS / 10 > 20000 ? REQUESTS / 10 : 20000 ))
positive --warmup "$WARMUP_REQUESTS"
[[ -n $EXCHANGES ]] || EXCHANGES=$(( REQUESTS / 10 > 1000 ? REQUESTS / 10 : 1000 ))
positive --exchanges "$EXCHANGES"
positive --connections "$CONNECTIONS"
((CONNECTIONS >= 2 && CONNECTIONS <= 5000)) || die "--connections must be 2...5000, got $CONNECTIONS"
[[ $SEED =~ ^[0-9]{1,9}$ ]] || die "--seed must be a non-negative integer below 10^9, got '$SEED'"
read_ready_timeout
THREADS=2

# ------------------------------------------------------------------------------- tools
# ensure TOOL PACKAGE: installs the Debian package when the tool is missing (root or sudo).
ensure() {
  command -v "$1" >/dev/null 2>&1 && return 0
  command -v apt-get >/dev/null 2>&1 || die "'$1' not found and apt-get is not available; install $2"
  local sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "'$1' not found; need root or sudo to install $2"
    sudo_cmd=(sudo)
  fi
  log "installing $2 (apt-get)"
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$2" >&2
  command -v "$1" >/dev/null 2>&1 || die "'$1' still missing after installing $2"
}
ensure wrk wrk
ensure curl curl
ensure python3 python3
need timeout
find_faultline

# ----------------------------------------------------------------- processes + cleanup
make_workdir soak

ORIGIN_PORT=$(free_port)
log "origin: faultline demo-origin on 127.0.0.1:$ORIGIN_PORT"
start origin "$FL_BIN" demo-origin --listen "127.0.0.1:$ORIGIN_PORT" --workers 1
ORIGIN_PID=$LAST_PID
wait_ready origin "$ORIGIN_PORT" "$ORIGIN_PID"

FL_PORT=$(free_port)
sed -e "s|@PORT@|$FL_PORT|g" -e "s|@ORIGIN_PORT@|$ORIGIN_PORT|g" -e "s|@SEED@|$SEED|g" \
  "$BENCH_DIR/conf/soak-faultline.json.in" >"$WORK/soak.json"
"$FL_BIN" check-config "$WORK/soak.json" >"$WORK/check-config.txt" 2>&1 \
  || { cat "$WORK/check-config.txt" >&2; die "faultline check-config refused the soak config"; }
log "faultline: 127.0.0.1:$FL_PORT ($FL_BIN)"
start faultline "$FL_BIN" run --config "$WORK/soak.json"
FL_PID=$LAST_PID
wait_ready faultline "$FL_PORT" "$FL_PID"

# Each fault route must be live (a 503 from the status route within a few tries).
injected=
for _ in $(seq 1 40); do
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -H 'Host: status.soak' "http://127.0.0.1:$FL_PORT/64" || true)
  [[ $code == 503 ]] && { injected=1; break; }
done
[[ -n $injected ]] || die "the status.soak route never injected its 503: are the fault routes loaded?"

# ----------------------------------------------------------------------- sampling
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$FL_PID/status" 2>/dev/null || echo 0; }
fd_count() { find "/proc/$FL_PID/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
alive() { kill -0 "$FL_PID" 2>/dev/null || { show_log faultline; die "Faultline died during the soak ($1)"; }; }

PHASE_FILE=$WORK/phase
SAMPLES=$WORK/samples.tsv
echo start >"$PHASE_FILE"
printf 'seconds\tphase\trss_kb\tfds\n' >"$SAMPLES"
(
  begin=$SECONDS
  while kill -0 "$FL_PID" 2>/dev/null; do
    printf '%d\t%s\t%s\t%s\n' $((SECONDS - begin)) "$(cat "$PHASE_FILE")" "$(rss_kb)" "$(fd_count)" >>"$SAMPLES"
    sleep 1
  done
) &
STARTED_PIDS+=("$!")

# settle: waits (up to 15 s) until the fd count is back at its starting value, after the
# pooled upstream connections' idle timeout (2 s in the soak config) has passed.
settle() {
  local deadline=$((SECONDS + 15))
  sleep 2.5
  while ((SECONDS < deadline)) && (( $(fd_count) > FD_START )); do sleep 0.5; done
}

# run_wrk NAME REQUESTS HOSTS : wrk until REQUESTS requests were sent. wrk runs for a fixed
# time (-d) whatever its script does, so the requests go in slices: each slice's threads stop
# sending at their share of what remains, and its length is sized from the previous slice's
# rate (at most 30 s; connections are opened afresh at each slice). Sums the slices' SOAK
# lines into $WORK/wrk-NAME.txt (latency fields: the worst slice).
run_wrk() {
  local name=$1 total=$2 hosts=$3 done=0 slice=0 rate=0 remaining quota duration sent started took
  while ((done < total)); do
    remaining=$((total - done))
    quota=$(( (remaining + THREADS - 1) / THREADS ))
    if ((rate > 0)); then
      duration=$(( remaining / rate + 2 ))
      ((duration <= 30)) || duration=30
    else
      duration=5
    fi
    started=$SECONDS
    timeout $((duration + 60)) wrk -t"$THREADS" -c"$CONNECTIONS" -d "${duration}s" --timeout 10s -s "$BENCH_DIR/soak.lua" \
      "http://127.0.0.1:$FL_PORT" -- "$quota" "$hosts" >"$WORK/wrk-$name-$slice.txt" 2>&1 || true
    grep -q '^SOAK ' "$WORK/wrk-$name-$slice.txt" \
      || { tail -n 5 "$WORK/wrk-$name-$slice.txt" >&2; die "wrk ($name, slice $slice) did not finish"; }
    alive "$name, slice $slice"
    sent=$(sed -n 's/^SOAK sent=\([0-9]*\).*/\1/p' "$WORK/wrk-$name-$slice.txt")
    ((sent > 0)) || die "wrk ($name, slice $slice) sent nothing"
    took=$((SECONDS - started))
    rate=$(( sent / (took > 0 ? took : 1) ))
    done=$((done + sent))
    slice=$((slice + 1))
    log "  $name: $done / $total requests"
  done
  cat "$WORK/wrk-$name"-*.txt | awk '/^SOAK / {
      for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] ~ /_us$/ && kv[1] != "duration_us") { if (kv[2] + 0 > sum[kv[1]]) sum[kv[1]] = kv[2] } else sum[kv[1]] += kv[2]; if (!(kv[1] in seen)) { seen[kv[1]] = 1; order[++n] = kv[1] } } }
    END { printf "SOAK"; for (i = 1; i <= n; i++) printf " %s=%s", order[i], sum[order[i]]; printf "\n" }' >"$WORK/wrk-$name.txt"
}

# The readiness probes' pooled upstream connections expire first (2 s idle in the config).
sleep 2.5
FD_START=$(fd_count)
RSS_START=$(rss_kb)
log "start: RSS $((RSS_START / 1024)) MiB, $FD_START fds"

echo warmup >"$PHASE_FILE"
log "warm-up: $WARMUP_REQUESTS requests (wrk -t$THREADS -c$CONNECTIONS, all routes)"
run_wrk warmup "$WARMUP_REQUESTS" all
alive warm-up
settle
RSS_WARM=$(rss_kb)
FD_WARM=$(fd_count)
log "after warm-up: RSS $((RSS_WARM / 1024)) MiB, $FD_WARM fds"

echo main >"$PHASE_FILE"
log "measured phase: $REQUESTS requests"
MAIN_START=$SECONDS
run_wrk main "$REQUESTS" all
MAIN_SECONDS=$((SECONDS - MAIN_START))
alive "measured phase"
RSS_MAX=$(awk -F'\t' '$2 == "main" && $3 > max {max = $3} END {print max + 0}' "$SAMPLES")
settle
RSS_END=$(rss_kb)
FD_END=$(fd_count)
log "after the measured phase: RSS $((RSS_END / 1024)) MiB, $FD_END fds"

echo check >"$PHASE_FILE"
log "checksummed: $EXCHANGES exchanges on the plain route, wrk on the fault routes alongside"
# wrk ends when it is stopped below (SIGINT makes it print its summary) or after its -d.
wrk -t1 -c"$(( CONNECTIONS / 2 ))" -d "$(( EXCHANGES / 20 + 600 ))s" --timeout 10s \
  -s "$BENCH_DIR/soak.lua" "http://127.0.0.1:$FL_PORT" -- 1000000000 faults >"$WORK/wrk-faults.txt" 2>&1 &
FAULT_WRK=$!
STARTED_PIDS+=("$FAULT_WRK")
python3 "$BENCH_DIR/soak_check.py" --port "$FL_PORT" --exchanges "$EXCHANGES" --seed "$SEED" \
  >"$WORK/check.txt" 2>"$WORK/check-errors.txt" || true
stop "$FAULT_WRK" INT
alive "checksummed phase"
grep -q '^CHECK ' "$WORK/check.txt" || { cat "$WORK/check-errors.txt" >&2; die "the checker did not finish"; }
settle
RSS_CHECK=$(rss_kb)
FD_CHECK=$(fd_count)
[[ -s $WORK/check-errors.txt ]] && { log "checker examples:"; head -n 10 "$WORK/check-errors.txt" >&2; }

# -------------------------------------------------------------------------- report
mkdir -p "$BENCH_DIR/results"
python3 - "$BENCH_DIR/results/soak-latest.md" "$(nproc) cores, $(uname -sr)" "$(date -u '+%Y-%m-%d %H:%M UTC')" \
  "$(shown_path "$FL_BIN")" "$REQUESTS" "$WARMUP_REQUESTS" "$CONNECTIONS" "$MAIN_SECONDS" \
  "$RSS_START" "$RSS_WARM" "$RSS_END" "$RSS_MAX" "$RSS_CHECK" "$FD_START" "$FD_WARM" "$FD_END" "$FD_CHECK" \
  "$(grep '^SOAK ' "$WORK/wrk-warmup.txt")" "$(grep '^SOAK ' "$WORK/wrk-main.txt")" \
  "$(grep '^CHECK ' "$WORK/check.txt")" "$(grep '^SOAK ' "$WORK/wrk-faults.txt" || true)" <<'EOF'
import sys
(out, host, date, binary, requests, warmup, conns, seconds, rss_start, rss_warm, rss_end, rss_max, rss_check,
 fd_start, fd_warm, fd_end, fd_check, wrk_warm, wrk_main, check, wrk_faults) = sys.argv[1:]
def kv(line):
    return dict(item.partition("=")[::2] for item in line.split()[1:])
main, chk, faults = kv(wrk_main), kv(check), kv(wrk_faults)
mib = lambda kb: "%.1f MiB" % (int(kb) / 1024)
ratio = int(rss_end) / max(int(rss_warm), 1)
errors = lambda d: "connect %s, read %s, write %s, timeouts %s" % (d.get("connect_errors"), d.get("read_errors"),
                                                                    d.get("write_errors"), d.get("timeouts"))
met = lambda ok: "met" if ok else "**missed**"
rps = int(main["responses"]) / max(int(main["duration_us"]) / 1e6, 1e-6)
lines = [
    f"Soak, {date}: {host}; Faultline `workers: 2` (release build) in front of its demo origin; wrk -t2 -c{conns}, "
    f"keep-alive with 10 % `Connection: close`, 5 of 9 requests on fault routes (status 503, delay 0–5 ms, close after "
    f"100 B, reset after 50 B, truncate at 500 B, each with a probability); {warmup} warm-up requests, then {requests}.",
    "",
    "| measure | value | target | met |",
    "|---|---|---|---|",
    f"| measured phase | {int(main['sent']):,} requests, {int(main['responses']):,} responses in {seconds} s ({rps:,.0f}/s): 200 × {int(main['status_200']):,}, "
    f"503 × {int(main['status_503']):,}, other × {int(main['status_other']):,}; socket errors (the faults): {errors(main)} | | |",
    f"| RSS at start / after warm-up / end | {mib(rss_start)} / {mib(rss_warm)} / {mib(rss_end)} (max during the phase {mib(rss_max)}) | | |",
    f"| RSS end ÷ after warm-up | {ratio:.3f} | ≤ 1.05 | {met(ratio <= 1.05)} |",
    f"| open fds at start / after warm-up / end (idle) | {fd_start} / {fd_warm} / {fd_end} | end ≤ start | {met(int(fd_end) <= int(fd_start))} |",
    f"| checksummed exchanges (plain route) | {int(chk['exchanges']):,} in {chk['seconds']} s: ok {int(chk['ok']):,}, errors {chk['errors']}; "
    f"alongside {int(faults.get('responses', '0')):,} fault-route responses | | |",
    f"| corrupted | {chk['corrupted']} | 0 | {met(chk['corrupted'] == '0')} |",
    f"| misrouted | {chk['misrouted']} | 0 | {met(chk['misrouted'] == '0')} |",
    f"| after the checksummed phase | RSS {mib(rss_check)}, {fd_check} fds | | |",
    "",
    f"Binary: `{binary}`. RSS and fds are read from `/proc/PID/status` (VmRSS) and `/proc/PID/fd` once the proxy is idle "
    f"again (pooled upstream connections expire after 2 s); samples every second are in `samples.tsv` with `BENCH_KEEP=1`.",
]
text = "\n".join(lines) + "\n"
open(out, "w").write(text)
print(text, end="")
EOF
log "table written to bench/results/soak-latest.md"
exit 0
