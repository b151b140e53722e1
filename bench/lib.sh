# Helpers shared by bench/run.sh and bench/faults.sh. Source it after defining log and die.

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

# find_faultline: sets FL_BIN to $FAULTLINE_BIN, or to the release build (built when missing
# or when BENCH_BUILD is set).
find_faultline() {
  if [[ -n ${FAULTLINE_BIN:-} ]]; then
    FL_BIN=$FAULTLINE_BIN
    [[ -x $FL_BIN ]] || die "FAULTLINE_BIN=$FL_BIN is not an executable file"
    return
  fi
  FL_BIN=$ROOT/.build/release/faultline
  if [[ ! -x $FL_BIN || -n ${BENCH_BUILD:-} ]]; then
    if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
      export PATH="/opt/swift/usr/bin:$PATH"
    fi
    command -v swift >/dev/null 2>&1 || die "swift not found; run scripts/setup.sh"
    log "building Faultline (swift build -c release --product faultline)"
    swift build -c release --product faultline >&2 || die "release build of faultline failed"
  fi
  [[ -x $FL_BIN ]] || die "$FL_BIN missing after the build"
}

# descendants PID: the process and all its descendants (nginx master + workers).
descendants() {
  local pid=$1 child
  echo "$pid"
  for child in $(pgrep -P "$pid" 2>/dev/null || true); do descendants "$child"; done
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

# start NAME CMD... : runs CMD in the background, logs to $WORK/NAME.log, sets LAST_PID
start() {
  local name=$1; shift
  "$@" >"$WORK/$name.log" 2>&1 &
  LAST_PID=$!
  STARTED_PIDS+=("$LAST_PID")
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
