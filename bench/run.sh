#!/usr/bin/env bash
# Faultline benchmark: Faultline, nginx and HAProxy as equivalent reverse proxies in
# front of the same nginx origin, measured with wrk in one run. See docs/bench.md.
#
#   bench/run.sh                                  all three proxies, 10 s per measurement
#   BENCH_SECONDS=3 bench/run.sh                  shorter measurements
#   BENCH_ONLY=nginx,haproxy bench/run.sh         skip Faultline (or any other subset)
#   BENCH_SCENARIOS=keepalive,tls_upstream bench/run.sh   only some scenarios
#   FAULTLINE_BEFORE_BIN=/tmp/old/faultline bench/run.sh  before and after a change, one run
#
# Environment:
#   BENCH_SECONDS        seconds per measurement (default 10)
#   BENCH_WARMUP         seconds of warm-up before each measurement (default 2; 0 = none)
#   BENCH_ROUNDS         repeat every measurement N times, proxies interleaved, and report
#                        the median (default 1)
#   BENCH_ONLY           comma-separated subset of faultline,nginx,haproxy (default all), plus
#                        faultline-before when FAULTLINE_BEFORE_BIN is set
#   BENCH_SCENARIOS      comma-separated subset of keepalive,latency,large,close,
#                        tls_upstream,tls_listener,tls_close,h2,h2_large (default all); h2 and
#                        h2_large use h2load on a third, TLS + ALPN h2, listener (bench/h2.sh)
#   BENCH_LAYOUT         shared (default): every process on every core, 2 workers/threads per
#                        proxy, wrk -t2; split: wrk and the origin pinned to CPU 0, each proxy
#                        alone on CPU 1 with 1 worker/thread, wrk -t1 (needs taskset and 2 CPUs;
#                        the latency scenario moves the proxy to CPU 0 for its measurement)
#   BENCH_WORKERS        shared layout only: workers per proxy, 1 or 2 (default 2); bench/scaling.sh
#                        runs both to show how each proxy scales from one core to two
#   BENCH_MAX_STEAL      a measurement during which the hypervisor stole more than this share of
#                        the machine (percent, /proc/stat's steal; default 3) is measured again
#   BENCH_STEAL_RETRIES  how many times at most (default 3; then the least-stolen one is kept)
#   BENCH_RESULTS_TSV    also copy the raw measurements (results.tsv) to this file
#   BENCH_TLS_KEY        key type of the bench certificates: ec (P-256, default) or rsa (2048)
#   BENCH_READY_TIMEOUT  seconds to wait for each server to answer (default 30)
#   BENCH_KEEP=1         keep the temporary directory (configs, logs, raw wrk output)
#   BENCH_BUILD=0        use the release binary as it is (default: bring it up to date)
#   FAULTLINE_BIN        Faultline binary (default .build/release/faultline, built if missing)
#   FAULTLINE_BEFORE_BIN a second Faultline binary (say, main before a change), measured as the
#                        proxy faultline-before with the same config, interleaved with the
#                        others; the report adds its column and before/after ratios (never built)
#   BENCH_OUT            report file (default bench/results/latest.md; with
#                        FAULTLINE_BEFORE_BIN, bench/results/before-after-latest.md)
#
# Prints a Markdown table and writes it to BENCH_OUT. Exits 0 when the
# run completed (targets met or not); non-zero when a tool is missing, a server does not
# start or answers wrongly, or a proxy dies during the run.
set -euo pipefail

# bench/profile.sh and bench/instructions.sh source this script with BENCH_PROFILE=1 for its
# setup: the proxies are started (with the prefix their profile_setup puts in PROXY_ENV: an
# LD_PRELOAD allocation counter, or valgrind) and verified, then control returns to them.
if [[ -n ${BENCH_PROFILE:-} && ${BASH_SOURCE[0]} == "$0" ]]; then
  echo "bench: BENCH_PROFILE is for bench/profile.sh, which sources this script; unset it" >&2
  exit 2
fi
BENCH_NAME=bench
[[ -z ${BENCH_PROFILE:-} ]] || BENCH_NAME=${BENCH_PROFILE_NAME:-profile}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=bench/h2.sh
source "$BENCH_DIR/h2.sh"

# ---------------------------------------------------------------------------- settings
read_common_settings
LAYOUT=${BENCH_LAYOUT:-shared}
[[ $LAYOUT == shared || $LAYOUT == split ]] || die "BENCH_LAYOUT must be shared or split, got '$LAYOUT'"
MAX_STEAL=${BENCH_MAX_STEAL:-3}
[[ $MAX_STEAL =~ ^([0-9]|[1-9][0-9]|100)$ ]] || die "BENCH_MAX_STEAL must be a percentage 0-100, got '$MAX_STEAL'"
STEAL_RETRIES=${BENCH_STEAL_RETRIES:-3}
[[ $STEAL_RETRIES =~ ^[0-9]$ ]] || die "BENCH_STEAL_RETRIES must be 0-9, got '$STEAL_RETRIES'"

# With FAULTLINE_BEFORE_BIN a second Faultline, faultline-before, joins the run.
ALL_PROXIES=(faultline nginx haproxy)
[[ -z ${FAULTLINE_BEFORE_BIN:-} ]] || ALL_PROXIES=(faultline faultline-before nginx haproxy)
PROXIES=()
IFS=',' read -r -a requested <<< "${BENCH_ONLY:-$(IFS=,; echo "${ALL_PROXIES[*]}")}"
for r in "${requested[@]}"; do
  r=$(echo "$r" | tr -d '[:space:]' | tr '[:upper:]' '[:lower:]')
  [[ -z $r ]] && continue
  if [[ $r == faultline-before && -z ${FAULTLINE_BEFORE_BIN:-} ]]; then
    die "BENCH_ONLY: faultline-before needs FAULTLINE_BEFORE_BIN (the binary to measure)"
  fi
  case " ${ALL_PROXIES[*]} " in
    *" $r "*) ;;
    *) die "BENCH_ONLY: unknown proxy '$r' (expected a subset of $(IFS=,; echo "${ALL_PROXIES[*]}"))" ;;
  esac
done
for p in "${ALL_PROXIES[@]}"; do
  for r in "${requested[@]}"; do
    r=$(echo "$r" | tr -d '[:space:]' | tr '[:upper:]' '[:lower:]')
    if [[ $r == "$p" ]]; then PROXIES+=("$p"); break; fi
  done
done
[[ ${#PROXIES[@]} -gt 0 ]] || die "BENCH_ONLY selects no proxy"
enabled() { case " ${PROXIES[*]} " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

ALL_SCENARIOS=(keepalive latency large close tls_upstream tls_listener tls_close h2 h2_large)
SCENARIOS=()
if [[ -n ${BENCH_SCENARIOS:-} ]]; then
  IFS=',' read -r -a wanted <<< "$BENCH_SCENARIOS"
else
  wanted=("${ALL_SCENARIOS[@]}")
fi
for i in "${!wanted[@]}"; do
  wanted[i]=$(echo "${wanted[i]}" | tr -d '[:space:]' | tr '[:upper:]' '[:lower:]')
  [[ -z ${wanted[i]} ]] && continue
  case " ${ALL_SCENARIOS[*]} " in
    *" ${wanted[i]} "*) ;;
    *) die "BENCH_SCENARIOS: unknown scenario '${wanted[i]}' (expected a subset of $(IFS=,; echo "${ALL_SCENARIOS[*]}"))" ;;
  esac
done
for s in "${ALL_SCENARIOS[@]}"; do
  case " ${wanted[*]} " in *" $s "*) SCENARIOS+=("$s") ;; esac
done
[[ ${#SCENARIOS[@]} -gt 0 ]] || die "BENCH_SCENARIOS selects no scenario"
# TLS is set up (certificates, TLS ports, /tls/ routes) only when a TLS scenario runs.
TLS=
case " ${SCENARIOS[*]} " in *" tls_"*|*" h2"*) TLS=1 ;; esac
# The h2 listeners (a third port per proxy, TLS with ALPN h2) only when an h2 scenario runs.
H2=
case " ${SCENARIOS[*]} " in *" h2"*) H2=1 ;; esac
TLS_KEY=${BENCH_TLS_KEY:-ec}
[[ $TLS_KEY == ec || $TLS_KEY == rsa ]] || die "BENCH_TLS_KEY must be ec or rsa, got '$TLS_KEY'"

# ------------------------------------------------------------------------------- tools
need wrk
need curl
need python3
need timeout
[[ -z $TLS ]] || need openssl
[[ -z $H2 ]] || need h2load
find_nginx
# Layout: WORKERS (the proxies' workers, nginx worker processes, HAProxy threads) and WRK_T
# (wrk's and h2load's threads). In the split layout this script pins itself to CPU 0, so
# everything it starts (origin, wrk, h2load, curl) runs there, and each proxy is started
# with PROXY_PIN, alone on CPU 1.
PROXY_PIN=()
if [[ $LAYOUT == split ]]; then
  command -v taskset >/dev/null 2>&1 \
    || die "BENCH_LAYOUT=split needs 'taskset' (Debian package util-linux); or use BENCH_LAYOUT=shared"
  (($(nproc) >= 2)) || die "BENCH_LAYOUT=split needs 2 CPUs, this process may use $(nproc); use BENCH_LAYOUT=shared"
  taskset -c 1 true 2>/dev/null && taskset -c 0 true 2>/dev/null \
    || die "BENCH_LAYOUT=split pins to CPUs 0 and 1, which this process may not use ($(taskset -p $$ 2>/dev/null))"
  taskset -p -c 0 $$ >/dev/null || die "could not pin bench/run.sh to CPU 0"
  PROXY_PIN=(taskset -c 1)
  WORKERS=1
  WRK_T=-t1
else
  WORKERS=${BENCH_WORKERS:-2}
  [[ $WORKERS == 1 || $WORKERS == 2 ]] || die "BENCH_WORKERS must be 1 or 2, got '$WORKERS'"
  WRK_T=-t2
fi
if enabled haproxy; then
  HAPROXY=$(command -v haproxy || true)
  [[ -z $HAPROXY && -x /usr/sbin/haproxy ]] && HAPROXY=/usr/sbin/haproxy
  [[ -n $HAPROXY ]] || die "'haproxy' not found; run: scripts/setup.sh --bench"
fi

if enabled faultline; then
  find_faultline
  # nginx and HAProxy run with access logs off, so Faultline does too: no access log
  # ("log": {"off": true}; the default logs every exchange to stdout) and no in-memory HAR
  # capture ("har": {"enabled": false}; on by default). Keys the binary does not know yet
  # are left out (bench/lib.sh, faultline_quiet_json).
  case ${BENCH_SHIPPED_DEFAULTS:-0} in
    0) FL_QUIET=$(faultline_quiet_json) ;;
    # bench/profile.sh and bench/instructions.sh only: what the shipped defaults cost per
    # request (JSON Lines to a file, HAR capture and the request journal on); the log member
    # is written with the config, once the work directory exists. A req/s table against quiet
    # peers would not be a fair one: bench/logging.sh measures the defaults against Faultline bare.
    1) [[ -n ${BENCH_PROFILE:-} ]] || die "BENCH_SHIPPED_DEFAULTS=1 is for bench/profile.sh and bench/instructions.sh"
       FL_QUIET= ;;
    *) die "BENCH_SHIPPED_DEFAULTS must be 0 or 1, got '$BENCH_SHIPPED_DEFAULTS'" ;;
  esac
fi
if enabled faultline-before; then
  FLB_BIN=$FAULTLINE_BEFORE_BIN
  [[ -x $FLB_BIN ]] || die "FAULTLINE_BEFORE_BIN=$FLB_BIN is not an executable file"
  # Probed on its own: an older binary may not know a key the newer one accepts.
  FLB_QUIET=$(FL_BIN=$FLB_BIN faultline_quiet_json)
  if enabled faultline && [[ $FLB_QUIET != "$FL_QUIET" ]]; then
    log "note: the two Faultline binaries accept different quiet members" \
      "(after: ${FL_QUIET:-none}; before: ${FLB_QUIET:-none}); their configs differ there"
  fi
fi
OUT=${BENCH_OUT:-$BENCH_DIR/results/latest.md}
if [[ -z ${BENCH_OUT:-} && -n ${FAULTLINE_BEFORE_BIN:-} ]]; then
  OUT=$BENCH_DIR/results/before-after-latest.md
fi

# ----------------------------------------------------------------- processes + cleanup
make_workdir bench
# profile.sh's hook: builds its allocation counter into $WORK and sets PROXY_ENV, the
# `env VAR=...` prefix every proxy is started with.
PROXY_ENV=()
[[ -z ${BENCH_PROFILE:-} ]] || profile_setup

# verify NAME PORT : exact bodies for /64 and /1m through the proxy.
verify() {
  local name=$1 port=$2 code
  code=$(curl -sS --max-time 5 -o "$WORK/$name.64" -w '%{http_code}' "http://127.0.0.1:$port/64") \
    || die "$name: GET /64 failed"
  [[ $code == 200 ]] || die "$name: GET /64 returned HTTP $code"
  cmp -s "$WORK/$name.64" "$WORK/www/64" \
    || die "$name: GET /64 returned a body different from the origin's 64 bytes ($(wc -c <"$WORK/$name.64") bytes)"
  code=$(curl -sS --max-time 10 -o "$WORK/$name.1m" -w '%{http_code}' "http://127.0.0.1:$port/1m") \
    || die "$name: GET /1m failed"
  [[ $code == 200 ]] || die "$name: GET /1m returned HTTP $code"
  cmp -s "$WORK/$name.1m" "$WORK/www/1m" \
    || die "$name: GET /1m returned a body different from the origin's 1 MiB ($(wc -c <"$WORK/$name.1m") bytes)"
  code=$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' -H 'Connection: close' "http://127.0.0.1:$port/64") \
    || die "$name: GET /64 with Connection: close failed"
  [[ $code == 200 ]] || die "$name: GET /64 with Connection: close returned HTTP $code"
  rm -f "$WORK/$name.1m"
}

# verify_tls NAME URL-BASE [CURL-ARGS...] : exact bytes of /64 at URL-BASE; an https
# server's certificate is verified against the bench CA.
verify_tls() {
  local name=$1 base=$2 code; shift 2
  code=$(curl -sS --max-time 5 --cacert "$WORK/tls/ca.pem" "$@" -o "$WORK/$name.tls64" \
      -w '%{http_code}' "$base/64") || { show_log "$name"; die "$name: GET $base/64 failed"; }
  [[ $code == 200 ]] || { show_log "$name"; die "$name: GET $base/64 returned HTTP $code"; }
  cmp -s "$WORK/$name.tls64" "$WORK/www/64" \
    || die "$name: GET $base/64 returned a body different from the origin's 64 bytes ($(wc -c <"$WORK/$name.tls64") bytes)"
}

# render TEMPLATE OUT PORT [TLS-PORT [H2-PORT]]: lines marked @TLS@ are kept only when TLS
# is on, lines marked @H2@ only when an h2 scenario runs.
render() {
  local tls_sed='/@TLS@/d' h2_sed='/@H2@/d'
  [[ -z $TLS ]] || tls_sed='s|@TLS@||'
  [[ -z $H2 ]] || h2_sed='s|@H2@||'
  sed -e "$tls_sed" -e "$h2_sed" -e "s|@DIR@|$WORK|g" -e "s|@PORT@|$3|g" -e "s|@TLS_PORT@|${4:-0}|g" \
    -e "s|@H2_PORT@|${5:-0}|g" -e "s|@WORKERS@|$WORKERS|g" -e "s|@NGINX_MASTER@|${NGINX_MASTER:-on}|g" \
    -e "s|@ORIGIN_PORT@|$ORIGIN_PORT|g" -e "s|@ORIGIN_TLS_PORT@|$ORIGIN_TLS_PORT|g" "$1" >"$2"
}

# --------------------------------------------------------------------------- ports
read -r ORIGIN_PORT FL_PORT NGINX_PORT HAPROXY_PORT FLB_PORT \
        ORIGIN_TLS_PORT FL_TLS_PORT NGINX_TLS_PORT HAPROXY_TLS_PORT FLB_TLS_PORT \
        FL_H2_PORT NGINX_H2_PORT HAPROXY_H2_PORT FLB_H2_PORT < <(python3 - <<'EOF'
import socket
socks = []
for _ in range(14):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks:
    s.close()
EOF
)
declare -A PORT=([faultline]=$FL_PORT [faultline-before]=$FLB_PORT [nginx]=$NGINX_PORT
                 [haproxy]=$HAPROXY_PORT)
declare -A TLS_PORT=([faultline]=$FL_TLS_PORT [faultline-before]=$FLB_TLS_PORT
                     [nginx]=$NGINX_TLS_PORT [haproxy]=$HAPROXY_TLS_PORT)
declare -A H2_PORT=([faultline]=$FL_H2_PORT [faultline-before]=$FLB_H2_PORT
                    [nginx]=$NGINX_H2_PORT [haproxy]=$HAPROXY_H2_PORT)
declare -A PID=()

# ----------------------------------------------------------------------- certificates
# A CA minted for this run, and two leaves it signs, both for DNS:localhost and
# IP:127.0.0.1: origin.pem (the origin's TLS listener) and proxy.pem (the proxies' TLS
# listeners). Only the openssl CLI; everything stays in $WORK/tls, deleted on exit.
pin_of() {   # SPKI pin: base64(sha256(DER SubjectPublicKeyInfo)) of a PEM certificate
  openssl x509 -in "$1" -noout -pubkey | openssl pkey -pubin -outform DER \
    | openssl dgst -sha256 -binary | base64
}
mint_certificates() {
  local t=$1 leaf keygen
  if [[ $TLS_KEY == ec ]]; then
    keygen=(openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256)
  else
    keygen=(openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048)
  fi
  printf '%s\n' '[req]' 'distinguished_name = dn' 'prompt = no' '[dn]' 'CN = unused' \
    '[ca_ext]' 'basicConstraints = critical,CA:TRUE' 'keyUsage = critical,keyCertSign,cRLSign' \
    'subjectKeyIdentifier = hash' \
    '[leaf_ext]' 'basicConstraints = critical,CA:FALSE' \
    'keyUsage = critical,digitalSignature,keyEncipherment' 'extendedKeyUsage = serverAuth' \
    'subjectAltName = DNS:localhost,IP:127.0.0.1' 'subjectKeyIdentifier = hash' \
    'authorityKeyIdentifier = keyid' >"$t/openssl.cnf"
  "${keygen[@]}" -out "$t/ca-key.pem" || return 1
  openssl req -new -x509 -config "$t/openssl.cnf" -extensions ca_ext -key "$t/ca-key.pem" \
    -subj "/CN=Faultline bench CA" -days 2 -sha256 -out "$t/ca.pem" || return 1
  for leaf in origin proxy; do
    "${keygen[@]}" -out "$t/$leaf-key.pem" || return 1
    openssl req -new -config "$t/openssl.cnf" -key "$t/$leaf-key.pem" \
      -subj "/CN=localhost" -out "$t/$leaf.csr" || return 1
    openssl x509 -req -in "$t/$leaf.csr" -CA "$t/ca.pem" -CAkey "$t/ca-key.pem" \
      -set_serial "0x$(openssl rand -hex 8)" -days 2 -sha256 \
      -extfile "$t/openssl.cnf" -extensions leaf_ext -out "$t/$leaf.pem" || return 1
  done
  cat "$t/proxy.pem" "$t/proxy-key.pem" >"$t/proxy-combined.pem"     # HAProxy's crt
  chmod 755 "$t" && chmod 644 "$t"/*.pem
}
if [[ -n $TLS ]]; then
  mkdir -p "$WORK/tls"
  mint_certificates "$WORK/tls" >"$WORK/openssl.log" 2>&1 \
    || { cat "$WORK/openssl.log" >&2; die "could not mint the bench certificates with openssl"; }
  LEAF_PIN=$(pin_of "$WORK/tls/origin.pem")
  CA_PIN=$(pin_of "$WORK/tls/ca.pem")
  [[ ${#LEAF_PIN} -eq 44 && ${#CA_PIN} -eq 44 ]] || die "could not compute the SPKI pins"
  log "TLS: $TLS_KEY certificates minted; origin leaf pin $LEAF_PIN, CA pin $CA_PIN"
fi

# --------------------------------------------------------------------------- origin
mkdir -p "$WORK/www"
for d in origin-tmp nginx-tmp; do mkdir -p "$WORK/$d" && chmod 777 "$WORK/$d"; done
printf '%063d\n' 0 | tr 0 f >"$WORK/www/64"                 # 63 x 'f' + newline
head -c 1048576 /dev/urandom >"$WORK/www/1m"
mkdir -p "$WORK/www/tls"                                   # the same files under /tls/
cp "$WORK/www/64" "$WORK/www/1m" "$WORK/www/tls/"
chmod 755 "$WORK/www" "$WORK/www/tls"; chmod 644 "$WORK/www/64" "$WORK/www/1m" "$WORK/www/tls/"*
[[ $(wc -c <"$WORK/www/64") -eq 64 ]] || die "could not create the 64-byte file"

render "$BENCH_DIR/conf/origin-nginx.conf.in" "$WORK/origin.conf" "$ORIGIN_PORT"
log "origin: nginx on 127.0.0.1:$ORIGIN_PORT${TLS:+, HTTPS on 127.0.0.1:$ORIGIN_TLS_PORT}"
start origin "$NGINX" -p "$WORK/" -e "$WORK/origin-error.log" -c "$WORK/origin.conf"
PID[origin]=$LAST_PID
wait_ready origin "$ORIGIN_PORT" "${PID[origin]}"
verify origin "$ORIGIN_PORT"
if [[ -n $TLS ]]; then
  verify_tls origin "https://localhost:$ORIGIN_TLS_PORT/tls" --resolve "localhost:$ORIGIN_TLS_PORT:127.0.0.1"
fi

# --------------------------------------------------------------------------- proxies
# faultline_config OUT PORT TLS-PORT QUIET : Faultline's config. Both Faultline binaries get
# the same one but for the ports (and the quiet members each binary accepts).
faultline_config() {
  local out=$1 port=$2 tls_port=$3 quiet=$4 h2_port=$5 h2_listener=
  # The h2 listener is a TLS listener like the other: Faultline offers h2 by ALPN by default.
  [[ -z $H2 ]] || h2_listener=",
               {\"address\": \"127.0.0.1:$h2_port\", \"tls\": {\"certificate\": \"$WORK/tls/proxy.pem\", \"key\": \"$WORK/tls/proxy-key.pem\"}}"
  if [[ -n $TLS ]]; then
    cat >"$out" <<EOF
{"workers": $WORKERS,
 "listeners": [{"address": "127.0.0.1:$port"},
               {"address": "127.0.0.1:$tls_port", "tls": {"certificate": "$WORK/tls/proxy.pem", "key": "$WORK/tls/proxy-key.pem"}}$h2_listener],
 "upstreams": {"origin": {"url": "http://127.0.0.1:$ORIGIN_PORT"},
               "tlsorigin": {"url": "https://localhost:$ORIGIN_TLS_PORT",
                             "trust": {"ca_file": "$WORK/tls/ca.pem", "system": false},
                             "pins": {"sha256": ["$LEAF_PIN", "$CA_PIN"], "mode": "enforce"}}},
 "routes": [{"name": "tls", "match": {"path_prefix": "/tls/"}, "upstream": "tlsorigin"},
            {"name": "all", "upstream": "origin"}]${quiet:+,
 $quiet}}
EOF
  else
    cat >"$out" <<EOF
{"workers": $WORKERS, "listeners": [{"address": "127.0.0.1:$port"}], "upstreams": {"origin": {"url": "http://127.0.0.1:$ORIGIN_PORT"}}, "routes": [{"name": "all", "upstream": "origin"}]${quiet:+, $quiet}}
EOF
  fi
}
if enabled faultline; then
  [[ ${BENCH_SHIPPED_DEFAULTS:-0} != 1 ]] \
    || FL_QUIET="\"log\": {\"format\": \"json\", \"destination\": \"file\", \"path\": \"$WORK/faultline-access.jsonl\"}"
  faultline_config "$WORK/faultline.json" "$FL_PORT" "$FL_TLS_PORT" "$FL_QUIET" "$FL_H2_PORT"
  log "faultline: $FL_BIN on 127.0.0.1:$FL_PORT${TLS:+, TLS on 127.0.0.1:$FL_TLS_PORT}${H2:+, h2 on 127.0.0.1:$FL_H2_PORT}"
  start faultline "${PROXY_PIN[@]}" "${PROXY_ENV[@]}" "$FL_BIN" run --config "$WORK/faultline.json"
  PID[faultline]=$LAST_PID
fi
if enabled faultline-before; then
  faultline_config "$WORK/faultline-before.json" "$FLB_PORT" "$FLB_TLS_PORT" "$FLB_QUIET" "$FLB_H2_PORT"
  log "faultline-before: $FLB_BIN on 127.0.0.1:$FLB_PORT${TLS:+, TLS on 127.0.0.1:$FLB_TLS_PORT}${H2:+, h2 on 127.0.0.1:$FLB_H2_PORT}"
  start faultline-before "${PROXY_PIN[@]}" "${PROXY_ENV[@]}" "$FLB_BIN" run --config "$WORK/faultline-before.json"
  PID[faultline-before]=$LAST_PID
fi
if enabled nginx; then
  render "$BENCH_DIR/conf/proxy-nginx.conf.in" "$WORK/nginx.conf" "$NGINX_PORT" "$NGINX_TLS_PORT" "$NGINX_H2_PORT"
  log "nginx: on 127.0.0.1:$NGINX_PORT${TLS:+, TLS on 127.0.0.1:$NGINX_TLS_PORT}${H2:+, h2 on 127.0.0.1:$NGINX_H2_PORT}"
  start nginx "${PROXY_PIN[@]}" "${PROXY_ENV[@]}" "$NGINX" -p "$WORK/" -e "$WORK/nginx-error.log" -c "$WORK/nginx.conf"
  PID[nginx]=$LAST_PID
fi
if enabled haproxy; then
  render "$BENCH_DIR/conf/haproxy.cfg.in" "$WORK/haproxy.cfg" "$HAPROXY_PORT" "$HAPROXY_TLS_PORT" "$HAPROXY_H2_PORT"
  "$HAPROXY" -c -q -f "$WORK/haproxy.cfg" >&2 || die "haproxy rejected its generated config"
  log "haproxy: on 127.0.0.1:$HAPROXY_PORT${TLS:+, TLS on 127.0.0.1:$HAPROXY_TLS_PORT}${H2:+, h2 on 127.0.0.1:$HAPROXY_H2_PORT}"
  start haproxy "${PROXY_PIN[@]}" "${PROXY_ENV[@]}" "$HAPROXY" -db -f "$WORK/haproxy.cfg"
  PID[haproxy]=$LAST_PID
fi
for p in "${PROXIES[@]}"; do
  wait_ready "$p" "${PORT[$p]}" "${PID[$p]}"
  verify "$p" "${PORT[$p]}"
  if [[ -n $TLS ]]; then
    # (5) through the proxy to the origin's HTTPS listener; (6) the proxy's own TLS
    # listener, its certificate verified against the bench CA; (7) the same, closing.
    verify_tls "$p" "http://127.0.0.1:${PORT[$p]}/tls"
    verify_tls "$p" "https://127.0.0.1:${TLS_PORT[$p]}"
    verify_tls "$p" "https://127.0.0.1:${TLS_PORT[$p]}" -H 'Connection: close'
  fi
  [[ -z $H2 ]] || verify_h2 "$p" "https://127.0.0.1:${H2_PORT[$p]}"
  log "$p: ready, bodies verified${TLS:+ (plain, /tls/ over the HTTPS upstream, TLS listener${H2:+, h2 listener})}"
done
[[ $LAYOUT == shared ]] || for p in "${PROXIES[@]}"; do
  log "$p: $(taskset -c -p "${PID[$p]}" | sed 's/.*affinity list: /pinned to CPU /')," \
    "$(ls /proc/"${PID[$p]}"/task | wc -l) thread(s), $(descendants "${PID[$p]}" | wc -l) process(es)"
done

# load_args PROXY SCENARIO : sets LOAD_TOOL (wrk or h2load) and LOAD_ARGS, the load generator's
# arguments for SCENARIO against PROXY (URL last). bench/profile.sh uses it too.
load_args() {
  local p=$1 url="http://127.0.0.1:${PORT[$1]}" tls="https://127.0.0.1:${TLS_PORT[$1]}"
  LOAD_TOOL=wrk
  case $2 in
    keepalive)    LOAD_ARGS=("$WRK_T" -c50 "$url/64") ;;
    latency)      LOAD_ARGS=(-t1 -c1 --latency "$url/64") ;;
    large)        LOAD_ARGS=("$WRK_T" -c8 "$url/1m") ;;
    close)        LOAD_ARGS=("$WRK_T" -c50 -H 'Connection: close' "$url/64") ;;
    tls_upstream) LOAD_ARGS=("$WRK_T" -c50 "$url/tls/64") ;;
    tls_listener) LOAD_ARGS=("$WRK_T" -c50 "$tls/64") ;;
    tls_close)    LOAD_ARGS=("$WRK_T" -c50 -H 'Connection: close' "$tls/64") ;;
    h2)           LOAD_TOOL=h2load; LOAD_ARGS=("$WRK_T" -c10 -m10 "https://127.0.0.1:${H2_PORT[$p]}/64") ;;
    h2_large)     LOAD_TOOL=h2load; LOAD_ARGS=("$WRK_T" -c4 -m2 "https://127.0.0.1:${H2_PORT[$p]}/1m") ;;
    *) die "load_args: unknown scenario '$2'" ;;
  esac
}

# scenario_cpu PROXY SCENARIO CPU : in the split layout, the latency scenario ("one connection,
# all on one core") runs the proxy on CPU 0 beside wrk and the origin; this moves every thread
# of PROXY's process tree to CPU (0 before that measurement, 1 after). A no-op otherwise.
scenario_cpu() {
  [[ $LAYOUT == split && $2 == latency ]] || return 0
  pin_tree "${PID[$1]}" "$3" || die "$1: could not move the proxy to CPU $3"
}

# Setup done: bench/profile.sh takes over from here.
[[ -z ${BENCH_PROFILE:-} ]] || return 0

# ------------------------------------------------------------------------ measuring
RESULTS=$WORK/results.tsv
: >"$RESULTS"
CRASHED=()

# measure PROXY SCENARIO WRK-ARGS... (the URL is the last argument)
measure() {
  local p=$1 scenario=$2; shift 2
  local out="$WORK/wrk-$p-$scenario-$round.txt" limit=$((DURATION + WARMUP + 60))
  if ! kill -0 "${PID[$p]}" 2>/dev/null; then
    printf '%s\t%s\tstatus=died\n' "$p" "$scenario" >>"$RESULTS"
    return 0
  fi
  if ((WARMUP > 0)); then
    timeout "$limit" wrk "$@" -d "${WARMUP}s" >"$WORK/wrk-$p-$scenario-$round.warmup.txt" 2>&1 || true
  fi
  counters_start "${PID[$p]}" "${PID[origin]}"
  if timeout "$limit" wrk -s "$BENCH_DIR/stats.lua" -d "${DURATION}s" "$@" >"$out" 2>&1 \
      && counters_stop "${PID[$p]}" "${PID[origin]}" && grep -q '^BENCH ' "$out"; then
    # The round is recorded so the report can pair before and after within a round.
    printf '%s\t%s\t%s %s round=%d\n' "$p" "$scenario" "$(grep '^BENCH ' "$out" | sed 's/^BENCH //')" \
      "$(counter_fields)" "$round" >>"$RESULTS"
  else
    log "$p/$scenario: wrk failed:"; tail -n 5 "$out" >&2 || true
    printf '%s\t%s\tstatus=error\n' "$p" "$scenario" >>"$RESULTS"
  fi
  if ! kill -0 "${PID[$p]}" 2>/dev/null; then
    log "$p died during $scenario"
    show_log "$p"
    CRASHED+=("$p")
    printf '%s\t%s\tstatus=died\n' "$p" "$scenario" >>"$RESULTS"
  fi
}

# stolen_permille RESULT-LINE : thousandths of the machine's time the hypervisor gave another
# guest during the measurement of a result line; nothing for a line without counters (an error).
stolen_permille() {
  local all steal
  all=$(sed -n 's/.* machine_all_us=\([0-9]*\).*/\1/p' <<<"$1")
  steal=$(sed -n 's/.* machine_steal_us=\([0-9]*\).*/\1/p' <<<"$1")
  [[ -n $all && -n $steal ]] && ((all > 0)) || return 0
  echo $((steal * 1000 / all))
}

# measure_unstolen PROXY SCENARIO : one measurement (measure, or measure_h2 for h2load) with the
# arguments load_args set. On these shared machines another guest of the host sometimes takes a
# third of both cores for seconds at a time (/proc/stat's steal): a measurement caught in that
# says nothing about the proxy, and one such round in three moves a median. A measurement that
# lost more than MAX_STEAL % is measured again, at most STEAL_RETRIES times; the least-stolen
# one is kept, with how many were thrown away (repeats=) and what it lost (stolen_permille=).
measure_unstolen() {
  local p=$1 s=$2 attempt thrown before line permille best="" best_permille=0
  for ((attempt = 0; attempt <= STEAL_RETRIES; attempt++)); do
    before=$(wc -l <"$RESULTS")
    if [[ $LOAD_TOOL == h2load ]]; then
      measure_h2 "$p" "$s" "${LOAD_ARGS[@]}"
    else
      measure "$p" "$s" "${LOAD_ARGS[@]}"
    fi
    line=$(tail -n +"$((before + 1))" "$RESULTS")
    permille=$(stolen_permille "$line")
    # An error or a death is recorded as it is and never measured again.
    [[ -n $permille && $line != *$'\n'* ]] || return 0
    sed -i "$((before + 1)),\$d" "$RESULTS"
    if [[ -z $best ]] || ((permille < best_permille)); then best=$line best_permille=$permille; fi
    ((permille > MAX_STEAL * 10)) || break
    ((attempt == STEAL_RETRIES)) \
      || log "  $p/$s: the hypervisor took $((permille / 10)).$((permille % 10)) % of the machine; measuring again"
  done
  thrown=$((attempt > STEAL_RETRIES ? STEAL_RETRIES : attempt))
  printf '%s stolen_permille=%d repeats=%d\n' "$best" "$best_permille" "$thrown" >>"$RESULTS"
  STEAL_REPEATS=$((STEAL_REPEATS + thrown))
}
STEAL_REPEATS=0

# round_order ROUND : the proxies in measuring order for ROUND. The order rotates each round so
# no proxy always goes first. The two Faultlines of a before/after run rotate as one unit, so they
# are always measured back to back (under the same machine load), and swap places every round.
round_order() {
  local round=$1 units=() order=() i u p
  for p in "${PROXIES[@]}"; do
    if [[ $p == faultline-before ]] && enabled faultline; then continue; fi
    units+=("$p")
  done
  for ((i = 0; i < ${#units[@]}; i++)); do
    u=${units[(i + round) % ${#units[@]}]}
    if [[ $u == faultline ]] && enabled faultline-before; then
      if ((round % 2)); then order+=(faultline-before faultline); else order+=(faultline faultline-before); fi
    else
      order+=("$u")
    fi
  done
  echo "${order[*]}"
}

# status_kb PROXY FIELD : a /proc/PID/status field (kB) summed over the proxy's process tree.
status_kb() {
  local kb=0 pid v
  for pid in $(descendants "${PID[$1]}"); do
    v=$(awk -v f="$2:" '$1 == f {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [[ -n $v ]] && kb=$((kb + v))
  done
  echo "$kb"
}
# Resident memory before any load, for bench/memory.sh's split of the peak.
declare -A IDLE_KB=()
for p in "${PROXIES[@]}"; do IDLE_KB[$p]=$(status_kb "$p" VmRSS); done

total=$(( ROUNDS * ${#SCENARIOS[@]} * ${#PROXIES[@]} * (DURATION + WARMUP) ))
LOADAVG_START=$(cut -d' ' -f1-3 /proc/loadavg)
log "measuring ${PROXIES[*]}: ${#SCENARIOS[@]} scenarios x ${DURATION}s (+${WARMUP}s warm-up) x $ROUNDS round(s), about ${total}s"
for ((round = 0; round < ROUNDS; round++)); do
  for s in "${SCENARIOS[@]}"; do
    for p in $(round_order "$round"); do
      log "  round $((round + 1))/$ROUNDS, $s: $p"
      load_args "$p" "$s"
      scenario_cpu "$p" "$s" 0
      measure_unstolen "$p" "$s"
      if kill -0 "${PID[$p]}" 2>/dev/null; then scenario_cpu "$p" "$s" 1; fi
    done
  done
done

# Peak RSS: VmHWM summed over the proxy's process tree (nginx master + workers); beside it
# the resident memory before the load and, at the end, its anonymous and file-backed parts.
for p in "${PROXIES[@]}"; do
  kb=$(status_kb "$p" VmHWM)
  if ((kb > 0)); then
    printf '%s\trss\trss_kb=%d idle_kb=%d anon_kb=%d file_kb=%d\n' "$p" "$kb" "${IDLE_KB[$p]}" \
      "$(status_kb "$p" RssAnon)" "$(status_kb "$p" RssFile)" >>"$RESULTS"
  fi
done

# -------------------------------------------------------------------------- report
mkdir -p "$(dirname "$OUT")"
META=$WORK/meta.txt
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "host=$(getconf _NPROCESSORS_ONLN) cores, $(uname -sr)"   # nproc would count the pinned script's one
  echo "seconds=$DURATION"
  echo "warmup=$WARMUP"
  echo "rounds=$ROUNDS"
  echo "layout=$LAYOUT"
  echo "workers=$WORKERS"
  echo "nginx=$("$NGINX" -v 2>&1 | sed 's/.*nginx\///')"
  enabled haproxy && echo "haproxy=$("$HAPROXY" -v 2>/dev/null | head -n1 | awk '{print $3}')"
  echo "wrk=$(wrk -v 2>&1 | head -n1 | awk '{print $2}')"
  [[ -z $H2 ]] || echo "h2load=$(h2load --version 2>&1 | head -n1 | awk '{print $2}')"
  enabled faultline && echo "faultline=$(shown_path "$FL_BIN")"
  enabled faultline && echo "faultline_quiet=${FL_QUIET:-none}"
  enabled faultline-before && echo "faultline_before=$(shown_path "$FLB_BIN")"
  enabled faultline-before && echo "faultline_before_quiet=${FLB_QUIET:-none}"
  echo "proxies=${PROXIES[*]}"
  echo "scenarios=${SCENARIOS[*]}"
  echo "loadavg_start=$LOADAVG_START"
  echo "loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "max_steal=$MAX_STEAL"
  echo "steal_retries=$STEAL_RETRIES"
  echo "steal_repeats=$STEAL_REPEATS"
  [[ -z $TLS ]] || echo "tls_key=$TLS_KEY"
} >"$META"
python3 "$BENCH_DIR/report.py" "$RESULTS" "$META" "$OUT"
[[ -z ${BENCH_RESULTS_TSV:-} ]] || cp "$RESULTS" "$BENCH_RESULTS_TSV"
log "table written to ${OUT#"$ROOT/"}"

if [[ ${#CRASHED[@]} -gt 0 ]]; then
  die "proxy died during the run: ${CRASHED[*]}"
fi
exit 0
