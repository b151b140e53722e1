# Helpers shared by bench/run.sh, bench/faults.sh, bench/logging.sh and bench/soak.sh. Each sets
# BENCH_NAME (the prefix of its messages) and sources this file first thing: it sets BENCH_DIR
# and ROOT, changes to ROOT and defines log and die.
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH_DIR")
cd "$ROOT"

log() { echo "$BENCH_NAME: $*" >&2; }
die() { echo "$BENCH_NAME: error: $*" >&2; exit 1; }

# need TOOL: fails with the install hint when TOOL is missing.
need() {
  command -v "$1" >/dev/null 2>&1 || die "'$1' not found; install the bench tools with: scripts/setup.sh --bench"
}

# find_nginx: sets NGINX to the nginx binary (it is the origin of every benchmark).
find_nginx() {
  NGINX=$(command -v nginx || true)
  [[ -z $NGINX && -x /usr/sbin/nginx ]] && NGINX=/usr/sbin/nginx
  [[ -n $NGINX ]] || die "'nginx' not found (it is the origin); run: scripts/setup.sh --bench"
}

# find_faultline: sets FL_BIN to $FAULTLINE_BIN, or to the release build (brought up to date
# unless BENCH_BUILD=0).
find_faultline() {
  if [[ -n ${FAULTLINE_BIN:-} ]]; then
    FL_BIN=$FAULTLINE_BIN
    [[ -x $FL_BIN ]] || die "FAULTLINE_BIN=$FL_BIN is not an executable file"
    return
  fi
  FL_BIN=$ROOT/.build/release/faultline
  # Always brought up to date (a no-op when it is): a stale binary would measure old code.
  if [[ ${BENCH_BUILD:-1} != 0 ]]; then
    if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
      export PATH="/opt/swift/usr/bin:$PATH"
    fi
    command -v swift >/dev/null 2>&1 || die "swift not found; run scripts/setup.sh"
    # Static Swift runtime and Foundation, as scripts/run.sh builds it: only the code used is
    # mapped, about 6 MiB less resident memory than the shared libraries.
    log "building Faultline (swift build -c release --product faultline --static-swift-stdlib)"
    swift build -c release --product faultline --static-swift-stdlib >&2 || die "release build of faultline failed"
  fi
  [[ -x $FL_BIN ]] || die "$FL_BIN missing after the build"
}

# find_demangler : sets DEMANGLE to the command that turns Swift symbols into readable names
# (swift-demangle --simplified), or to `cat` when the toolchain's demangler is not there.
find_demangler() {
  local d
  DEMANGLE=(cat)
  for d in /opt/swift/usr/bin/swift-demangle "$(command -v swift-demangle || true)"; do
    if [[ -n $d && -x $d ]]; then DEMANGLE=("$d" --simplified); return 0; fi
  done
  log "note: swift-demangle not found; Swift symbols stay mangled"
}

# shown_path PATH : PATH relative to the repository when it lies inside it, as the reports
# name binaries (a result file should not name one machine's directories).
shown_path() {
  local path=$1
  [[ $path == "$ROOT/"* ]] && path=${path#"$ROOT/"}
  printf '%s\n' "$path"
}

# free_port : an unused loopback port.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# run_bench_once WORK TAG [VAR=VALUE...] : bench/run.sh for one round with the given settings;
# its table, raw results and output go to WORK/report-TAG.md, WORK/results-TAG.tsv and
# WORK/run-TAG.log (whose last lines are shown if it fails). Later calls reuse the binary the
# first one brought up to date.
run_bench_once() {
  local work=$1 tag=$2
  shift 2
  env "$@" BENCH_ROUNDS=1 BENCH_OUT="$work/report-$tag.md" BENCH_RESULTS_TSV="$work/results-$tag.tsv" \
    "$BENCH_DIR/run.sh" >"$work/run-$tag.log" 2>&1 \
    || { tail -n 20 "$work/run-$tag.log" >&2; die "bench/run.sh failed ($tag)"; }
  export BENCH_BUILD=0
}

# descendants PID: the process and all its descendants (nginx master + workers).
descendants() {
  local pid=$1 child
  echo "$pid"
  for child in $(pgrep -P "$pid" 2>/dev/null || true); do descendants "$child"; done
}

# pin_tree PID CPU : moves every thread of PID's process tree (nginx master + workers, all
# of HAProxy's or Faultline's threads) to CPU, with taskset -a.
pin_tree() {
  local pid
  for pid in $(descendants "$1"); do
    taskset -a -p -c "$2" "$pid" >/dev/null || return 1
  done
}

# cpu_ticks PID: CPU time (clock ticks, user + system) of a process tree, every thread counted.
cpu_ticks() {
  local total=0 pid task
  for pid in $(descendants "$1"); do
    for task in /proc/"$pid"/task/*; do
      total=$((total + $(awk '{print $14 + $15}' "$task/stat" 2>/dev/null || echo 0)))
    done
  done
  echo "$total"
}
HZ=$(getconf CLK_TCK)

# machine_ticks: three figures from /proc/stat, in clock ticks summed over every core: the time
# spent on anything but idling (user, nice, system, irq, softirq), all the time counted (those,
# idle, iowait and what the hypervisor stole), and the stolen time alone. Over a measurement,
# busy ÷ all × cores is how much of the machine the proxy, the client and the origin used
# together, over exactly the same window: what a second worker could still have used
# (bench/scaling.sh). Stolen ÷ all is the share of the machine another guest of the host took
# while they ran (run.sh measures again a measurement that lost more than BENCH_MAX_STEAL).
machine_ticks() {
  awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, $9; exit}' /proc/stat
}

# loopback_packets: packets the loopback interface has carried (every one is sent and received
# on this machine, so each costs both ends). Over a measurement, divided by the requests, it is
# how many packets a proxy makes the client, the origin and itself handle per request.
loopback_packets() {
  awk '$1 == "lo:" {print $3; exit}' /proc/net/dev
}

# tcp_opens: TCP connections this machine has opened (/proc/net/snmp's ActiveOpens): every
# connect() of the client to the proxy and of the proxy to the origin. Over a measurement,
# per request, it shows a proxy that closes pooled upstream connections and opens them again
# (a pool capped below the concurrency) and what the close scenario costs in connections.
tcp_opens() {
  awk '$1 == "Tcp:" && $6 ~ /^[0-9]+$/ {print $6; exit}' /proc/net/snmp
}

# counters_start PROXY-PID ORIGIN-PID, right before a load generator, and counters_stop with
# the same arguments right after it: every counter a measurement reports is read on both sides
# (counters_read), and counter_fields prints their differences as result fields. The load
# generator's CPU comes from bash's `times` (this shell's finished children): it is the last
# thing counters_start does and the first counters_stop does, so the processes the reads start
# are not counted as the client's. `times` is a builtin and runs in this shell (in a command
# substitution it would count the subshell's children instead).
counters_start() {
  COUNTERS_START=$(counters_read "$1" "$2")
  times >"$WORK/.client-start"
}
counters_stop() {
  times >"$WORK/.client-stop"
  COUNTERS_STOP=$(counters_read "$1" "$2")
}

# counters_read PROXY-PID ORIGIN-PID: in clock ticks, the proxy's CPU, the machine's busy, all
# and stolen time (machine_ticks) and the origin's CPU; then the loopback packets and TCP
# connections opened.
counters_read() {
  echo "$(cpu_ticks "$1") $(machine_ticks) $(cpu_ticks "$2") $(loopback_packets) $(tcp_opens)"
}

# counter_fields: the result fields of the last counters_start and counters_stop: CPU in µs of
# the proxy (cpu_us), the machine (busy, all and stolen), the origin and the load generator;
# packets and TCP connections opened.
counter_fields() {
  local -a a b
  local client
  read -r -a a <<<"$COUNTERS_START"; read -r -a b <<<"$COUNTERS_STOP"
  client=$(awk 'FNR == 2 {gsub(/[ms]/, " "); t = ($1 * 60 + $2 + $3 * 60 + $4) * 1000000; if (NR == FNR) s = -t; else s += t}
                END {printf "%.0f", s}' "$WORK/.client-start" "$WORK/.client-stop")
  printf 'cpu_us=%d machine_busy_us=%d machine_all_us=%d machine_steal_us=%d origin_cpu_us=%d client_cpu_us=%d lo_packets=%d tcp_opens=%d' \
    $(( (b[0] - a[0]) * 1000000 / HZ )) $(( (b[1] - a[1]) * 1000000 / HZ )) $(( (b[2] - a[2]) * 1000000 / HZ )) \
    $(( (b[3] - a[3]) * 1000000 / HZ )) $(( (b[4] - a[4]) * 1000000 / HZ )) "$client" $(( b[5] - a[5] )) $(( b[6] - a[6] ))
}

# start NAME CMD... : runs CMD in the background, logs to $WORK/NAME.log, sets LAST_PID
start() {
  local name=$1; shift
  "$@" >"$WORK/$name.log" 2>&1 &
  LAST_PID=$!
  STARTED_PIDS+=("$LAST_PID")
  STARTED_NAMES[$LAST_PID]=$name
}

# show_log NAME : the last lines of NAME's output and error log.
show_log() {
  local name=$1 f
  if [[ -s $WORK/$name.log ]]; then
    echo "---- last lines of $name's output ----" >&2
    tail -n 20 "$WORK/$name.log" >&2
    echo "--------------------------------------" >&2
  fi
  for f in "$WORK/$name"-error.log; do
    [[ -s $f ]] && { echo "---- $f ----" >&2; tail -n 20 "$f" >&2; }
  done
  return 0
}

# wait_ready NAME PORT PID : polls GET /64 until 200, the process exits, or the timeout.
wait_ready() {
  local name=$1 port=$2 pid=$3 code=000 deadline=$((SECONDS + READY_TIMEOUT))
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      show_log "$name"
      die "$name exited during startup"
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port/64" || true)
    [[ $code == 200 ]] && return 0
    sleep 0.1
  done
  show_log "$name"
  [[ $code == 000 ]] && die "$name did not accept connections on 127.0.0.1:$port within ${READY_TIMEOUT}s"
  die "$name answered GET /64 with HTTP $code instead of 200 (127.0.0.1:$port)"
}

# faultline_accepts MEMBERS : whether $FL_BIN's `check-config` accepts a tiny valid config
# with the JSON members MEMBERS (e.g. '"har": {"enabled": false}') added at the top level.
# Only the config loader runs: nothing is bound, no upstream is contacted.
faultline_accepts() {
  local dir rc=0
  dir=$(mktemp -d /tmp/faultline-probe.XXXXXX)
  printf '{"listeners": [{"address": "127.0.0.1:1"}], "upstreams": {"origin": {"url": "http://127.0.0.1:1"}}, "routes": [{"name": "all", "upstream": "origin"}], %s}\n' \
    "$1" >"$dir/probe.json"
  "$FL_BIN" check-config "$dir/probe.json" >"$dir/out.txt" 2>&1 || rc=$?
  rm -rf "$dir"
  return "$rc"
}

# faultline_quiet_json : prints the top-level JSON members that make Faultline as quiet as the
# peers it is compared with (nginx and HAProxy run with access logs off): `"log": {"off": true}`
# (no access log), `"har": {"enabled": false}` (no in-memory HAR capture of recent
# exchanges) and `"journal": {"capacity": 0}` (no global request journal), separated by ", ",
# with no leading or trailing comma. Each member is included
# only when this binary's config loader accepts it (probed with `check-config`), so a binary
# that does not know `har` yet still starts; what was left out is said on stderr. The output is
# empty when neither is accepted. Call it once and splice the result into a config object:
#   FL_QUIET=$(faultline_quiet_json);  echo "{\"workers\": 2${FL_QUIET:+, $FL_QUIET}}"
# Needs FL_BIN and log().
faultline_quiet_json() {
  local members=() m out=
  for m in '"log": {"off": true}' '"har": {"enabled": false}' '"journal": {"capacity": 0}'; do
    if faultline_accepts "$m"; then
      members+=("$m")
    else
      log "note: $FL_BIN does not accept $m (its config loader lacks the key); configs leave it out"
    fi
  done
  for m in "${members[@]}"; do out+=${out:+, }$m; done
  echo "$out"
}

# make_workdir NAME : creates $WORK (/tmp/faultline-NAME.XXXXXX) and arranges for every
# process started with `start` to be stopped, and $WORK removed (unless BENCH_KEEP), at exit.
make_workdir() {
  WORK=$(mktemp -d "/tmp/faultline-$1.XXXXXX")
  chmod 755 "$WORK"            # nginx workers may run as an unprivileged user
  STARTED_PIDS=()
  declare -gA STARTED_NAMES=()
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

cleanup() {
  local rc=$? pid i
  trap - EXIT INT TERM
  for ((i = ${#STARTED_PIDS[@]} - 1; i >= 0; i--)); do
    kill -TERM "${STARTED_PIDS[i]}" 2>/dev/null || true
  done
  for pid in "${STARTED_PIDS[@]}"; do
    stop_wait "$pid"
  done
  if [[ -n ${BENCH_KEEP:-} ]]; then
    log "kept $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}

# stop_wait PID : waits up to 5 s for a signalled process, then SIGKILLs it and its children.
# Sets STOP_KILLED=1 when it had to.
stop_wait() {
  local pid=$1
  STOP_KILLED=
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "process $pid did not stop on SIGTERM; killing it"
    STOP_KILLED=1
    pkill -KILL -P "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
  fi
  local status=0
  { wait "$pid"; } 2>/dev/null || status=$?
  # A server that died of a signal other than the ones sent to stop it crashed: say which one
  # and keep the run's directory, with its log.
  if ((status > 128)) && [[ $((status - 128)) != 15 && $((status - 128)) != 2 && -z $STOP_KILLED ]]; then
    log "process $pid (${STARTED_NAMES[$pid]:-unnamed}) died of signal $((status - 128)); keeping $WORK"
    BENCH_KEEP=1
  fi
}

# stop PID [SIGNAL] : SIGNAL (default TERM), wait, and forget the process (so cleanup never
# signals a reused pid).
stop() {
  local pid=$1 kept=() p
  kill -"${2:-TERM}" "$pid" 2>/dev/null || true
  stop_wait "$pid"
  for p in "${STARTED_PIDS[@]}"; do [[ $p == "$pid" ]] || kept+=("$p"); done
  STARTED_PIDS=("${kept[@]}")
}

# read_ready_timeout : READY_TIMEOUT from BENCH_READY_TIMEOUT, checked (every script takes it).
read_ready_timeout() {
  READY_TIMEOUT=${BENCH_READY_TIMEOUT:-30}
  [[ $READY_TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "BENCH_READY_TIMEOUT must be a positive integer"
}

# read_common_settings : DURATION, WARMUP, READY_TIMEOUT and ROUNDS from BENCH_SECONDS,
# BENCH_WARMUP, BENCH_READY_TIMEOUT and BENCH_ROUNDS, checked (the timed benchmarks take them).
read_common_settings() {
  DURATION=${BENCH_SECONDS:-10}
  WARMUP=${BENCH_WARMUP:-2}
  ROUNDS=${BENCH_ROUNDS:-1}
  read_ready_timeout
  [[ $DURATION =~ ^[1-9][0-9]*$ ]] || die "BENCH_SECONDS must be a positive integer, got '$DURATION'"
  [[ $WARMUP =~ ^[0-9]+$ ]] || die "BENCH_WARMUP must be a non-negative integer, got '$WARMUP'"
  [[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS must be a positive integer, got '$ROUNDS'"
}

# start_origin : the nginx origin of every benchmark, serving /64 (63 'f' and a newline) on a
# free loopback port; sets ORIGIN_PORT and ORIGIN_PID once it answers. Needs WORK and NGINX.
start_origin() {
  ORIGIN_PORT=$(free_port)
  mkdir -p "$WORK/www" "$WORK/origin-tmp" && chmod 777 "$WORK/origin-tmp"
  printf '%063d\n' 0 | tr 0 f >"$WORK/www/64"
  chmod 755 "$WORK/www"; chmod 644 "$WORK/www/64"
  sed -e '/@TLS@/d' -e "s|@DIR@|$WORK|g" -e "s|@PORT@|$ORIGIN_PORT|g" \
    "$BENCH_DIR/conf/origin-nginx.conf.in" >"$WORK/origin.conf"
  log "origin: nginx on 127.0.0.1:$ORIGIN_PORT"
  start origin "$NGINX" -p "$WORK/" -e "$WORK/origin-error.log" -c "$WORK/origin.conf"
  ORIGIN_PID=$LAST_PID
  wait_ready origin "$ORIGIN_PORT" "$ORIGIN_PID"
}

# wrk_keepalive RUN PID URL [WRK_ARG...] : warms up, then measures keep-alive GET URL with
# `wrk -t2 -c50` and stats.lua for DURATION seconds while sampling PID's CPU time; prints the
# BENCH fields plus cpu_us, or "status=error" (with wrk's last lines on stderr). Raw output
# goes to $WORK/wrk-RUN.txt.
wrk_keepalive() {
  local run=$1 pid=$2 url=$3 out="$WORK/wrk-$1.txt" cpu0 cpu1 limit=$((DURATION + WARMUP + 60))
  shift 3
  if ((WARMUP > 0)); then
    timeout "$limit" wrk -t2 -c50 -d "${WARMUP}s" "$@" "$url" >"$WORK/wrk-$run.warmup.txt" 2>&1 || true
  fi
  cpu0=$(cpu_ticks "$pid")
  if timeout "$limit" wrk -s "$BENCH_DIR/stats.lua" -t2 -c50 -d "${DURATION}s" "$@" "$url" >"$out" 2>&1 \
      && grep -q '^BENCH ' "$out"; then
    cpu1=$(cpu_ticks "$pid")
    echo "$(grep '^BENCH ' "$out" | sed 's/^BENCH //') cpu_us=$(( (cpu1 - cpu0) * 1000000 / HZ ))"
  else
    log "$run: wrk failed:"; tail -n 5 "$out" >&2 || true
    echo "status=error"
  fi
}

# measure_rounds : runs `run_config NAME ROUND` (defined by the calling script) for every
# name in CONFIGS, ROUNDS times, one Faultline at a time, the order rotated each round so no
# config always runs first.
measure_rounds() {
  log "measuring ${CONFIGS[*]}: ${DURATION}s (+${WARMUP}s warm-up) x $ROUNDS round(s) each, one Faultline at a time"
  local round i
  for ((round = 0; round < ROUNDS; round++)); do
    for ((i = 0; i < ${#CONFIGS[@]}; i++)); do
      run_config "${CONFIGS[(i + round) % ${#CONFIGS[@]}]}" "$round"
    done
  done
}
