#!/usr/bin/env bash
# Faultline as a forward proxy intercepting HTTPS, beside mitmproxy's mitmdump (the tool
# people would otherwise use), in front of the HTTPS port of the nginx origin of bench/run.sh.
# See docs/bench.md, "Forward proxy".
#
#   (1) keep-alive HTTPS through interception: hey -c 50 -x http://PROXY https://localhost:O/64
#       (hey speaks CONNECT; one intercepted TLS connection per client, reused): req/s, p50,
#       p99, proxy CPU per request
#   (2) a new host per connection: bench/forward_client.py, one connection after another
#       (CONNECT, TLS with a new SNI name PREFIX-N.bench.test, GET /64, close), alternating
#       with the same for one cached name: p50 of each, the difference (what minting a leaf
#       and the first upstream connection for a name cost), and the resident memory added by
#       BENCH_NEW_HOSTS (default 1000) minted names
#   (3) Faultline only, the reference for (1)'s CPU: hey -c 50 https://localhost:T/64 to a
#       Faultline TLS listener whose upstream is the same HTTPS origin (TLS on both sides,
#       as with interception)
#
# Targets (issue "Faultline as the device's proxy"): (1) Faultline >= 20x mitmdump's req/s;
# (1) Faultline CPU/request <= 1.5x (3)'s; (2) new-host p50 - cached p50 < 5 ms; (2) RSS
# added by 1,000 minted names < 10 MiB.
#
#   bench/forward.sh                           both proxies, 10 s per hey measurement
#   BENCH_PROXIES=mitmdump bench/forward.sh    one of them (faultline, mitmdump)
#
# Environment: BENCH_SECONDS, BENCH_WARMUP, BENCH_READY_TIMEOUT, BENCH_KEEP, BENCH_BUILD and
# FAULTLINE_BIN as in bench/faults.sh; BENCH_PROXIES; BENCH_NEW_HOSTS; MITMDUMP (default
# .build/bench-mitmproxy/bin/mitmdump, made with:
#   python3 -m venv .build/bench-mitmproxy && .build/bench-mitmproxy/bin/pip install mitmproxy).
#
# Prints a Markdown table and writes it to bench/results/forward-latest.md. A proxy that does
# not pass its check (an intercepted GET /64 through curl) is reported as not measured, with
# the reason, and the script then exits 1 after writing the table; a missing tool exits 1 at once.
set -euo pipefail

BENCH_NAME=forward
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

read_common_settings
read -r -a PROXIES <<<"${BENCH_PROXIES:-faultline mitmdump}"
NEW_HOSTS=${BENCH_NEW_HOSTS:-1000}
[[ $NEW_HOSTS =~ ^[1-9][0-9]*$ ]] || die "BENCH_NEW_HOSTS must be a positive integer, got '$NEW_HOSTS'"

need hey
need curl
need openssl
need python3
need timeout
find_nginx
for proxy in "${PROXIES[@]}"; do
  case $proxy in
    faultline) find_faultline; FL_QUIET=$(faultline_quiet_json) ;;
    mitmdump)
      MITMDUMP=${MITMDUMP:-$ROOT/.build/bench-mitmproxy/bin/mitmdump}
      [[ -x $MITMDUMP ]] || die "mitmdump not found at $MITMDUMP; install it with: python3 -m venv .build/bench-mitmproxy && .build/bench-mitmproxy/bin/pip install mitmproxy (or set MITMDUMP)"
      ;;
    *) die "BENCH_PROXIES: unknown proxy '$proxy' (known: faultline mitmdump)" ;;
  esac
done

make_workdir forward

# The bench CA and two leaves it signs: origin.pem (localhost, 127.0.0.1 and *.bench.test,
# the names of scenario 2) and proxy.pem (Faultline's TLS listener of scenario 3).
mint_certificates() {
  local t=$WORK/tls leaf
  mkdir -p "$t"
  printf '%s\n' '[req]' 'distinguished_name = dn' 'prompt = no' '[dn]' 'CN = bench' \
    '[ca_ext]' 'basicConstraints = critical, CA:TRUE' 'keyUsage = critical, keyCertSign, cRLSign' \
    '[origin_ext]' 'subjectAltName = DNS:localhost, IP:127.0.0.1, DNS:*.bench.test' 'extendedKeyUsage = serverAuth' \
    '[proxy_ext]' 'subjectAltName = DNS:localhost, IP:127.0.0.1' 'extendedKeyUsage = serverAuth' >"$t/openssl.cnf"
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$t/ca-key.pem"
  openssl req -new -x509 -config "$t/openssl.cnf" -extensions ca_ext -key "$t/ca-key.pem" -subj "/CN=Forward bench CA" \
    -days 2 -out "$t/ca.pem"
  for leaf in origin proxy; do
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$t/$leaf-key.pem"
    openssl req -new -config "$t/openssl.cnf" -key "$t/$leaf-key.pem" -subj "/CN=localhost" -out "$t/$leaf.csr"
    openssl x509 -req -in "$t/$leaf.csr" -CA "$t/ca.pem" -CAkey "$t/ca-key.pem" -set_serial "0x$(openssl rand -hex 8)" \
      -days 2 -sha256 -extfile "$t/openssl.cnf" -extensions "${leaf}_ext" -out "$t/$leaf.pem"
  done
}
mint_certificates >"$WORK/openssl.log" 2>&1 || { cat "$WORK/openssl.log" >&2; die "could not mint the bench certificates"; }

# The origin: bench/run.sh's nginx template with its HTTPS server kept.
ORIGIN_PORT=$(free_port)
ORIGIN_TLS_PORT=$(free_port)
mkdir -p "$WORK/www" "$WORK/origin-tmp" && chmod 777 "$WORK/origin-tmp"
printf '%063d\n' 0 | tr 0 f >"$WORK/www/64"
sed -e 's|@TLS@||' -e "s|@DIR@|$WORK|g" -e "s|@PORT@|$ORIGIN_PORT|g" -e "s|@ORIGIN_TLS_PORT@|$ORIGIN_TLS_PORT|g" \
  "$BENCH_DIR/conf/origin-nginx.conf.in" >"$WORK/origin.conf"
start origin "$NGINX" -p "$WORK/" -e "$WORK/origin-error.log" -c "$WORK/origin.conf"
ORIGIN_PID=$LAST_PID
wait_ready origin "$ORIGIN_PORT" "$ORIGIN_PID"
ORIGIN_URL=https://localhost:$ORIGIN_TLS_PORT/64
[[ $(curl -sS --max-time 5 --cacert "$WORK/tls/ca.pem" "$ORIGIN_URL") == $(cat "$WORK/www/64") ]] \
  || die "the origin's HTTPS port does not serve /64 ($ORIGIN_URL)"
log "origin: nginx on 127.0.0.1:$ORIGIN_PORT, HTTPS on 127.0.0.1:$ORIGIN_TLS_PORT"

RESULTS=$WORK/results.tsv
: >"$RESULTS"
# record NAME FIELDS... : one line of the results file.
record() { local name=$1; shift; printf '%s\t%s\n' "$name" "$*" >>"$RESULTS"; }

# hey_run RUN PID URL [HEY_ARG...] : warm-up, then hey -c 50 for DURATION s while sampling
# PID's CPU; prints requests=, rps=, p50_us=, p99_us=, non200=, cpu_us=, or status=error.
hey_run() {
  local run=$1 pid=$2 url=$3 out="$WORK/hey-$1.txt" cpu0 cpu1 limit=$((DURATION + WARMUP + 60))
  shift 3
  ((WARMUP > 0)) && { timeout "$limit" hey -z "${WARMUP}s" -c 50 "$@" "$url" >"$WORK/hey-$run.warmup.txt" 2>&1 || true; }
  cpu0=$(cpu_ticks "$pid")
  if ! timeout "$limit" hey -z "${DURATION}s" -c 50 "$@" "$url" >"$out" 2>&1; then
    log "$run: hey failed:"; tail -n 5 "$out" >&2 || true
    echo "status=error"; return
  fi
  cpu1=$(cpu_ticks "$pid")
  python3 - "$out" "$(( (cpu1 - cpu0) * 1000000 / HZ ))" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
ok = sum(int(n) for n in re.findall(r"\[200\]\s+(\d+) responses", text))
total = sum(int(n) for n in re.findall(r"\[\d+\]\s+(\d+) responses", text))
# "Error distribution:" lines: "  [COUNT]\tGet \"URL\": what went wrong".
errors = sum(int(n) for n in re.findall(r"^\s+\[(\d+)\]\s+(?:Get|Post|Head)\b", text, re.M))
rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
p50 = re.search(r"50%+ in ([\d.]+) secs", text)
p99 = re.search(r"99%+ in ([\d.]+) secs", text)
if not rps or ok == 0:
    print("status=error")
else:
    print(f"requests={ok} rps={float(rps.group(1)):.0f} p50_us={float(p50.group(1)) * 1e6:.0f} "
          f"p99_us={float(p99.group(1)) * 1e6:.0f} non200={total - ok} errors={errors} cpu_us={sys.argv[2]}")
EOF
}

# rss_kib PID : resident memory of PID's process tree, KiB (VmRSS; VmHWM with hwm).
rss_kib() {
  local total=0 pid key=${2:-VmRSS}
  for pid in $(descendants "$1"); do
    total=$((total + $(awk -v k="$key:" '$1 == k {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)))
  done
  echo "$total"
}

# measure NAME PID PORT CA : scenarios (1) and (2) through the forward proxy on PORT, whose
# interception CA is CA. Fails (non-zero) when the check does not pass.
measure() {
  local name=$1 pid=$2 port=$3 ca=$4 body rss0 rss1 line
  body=$(curl -sS --max-time 10 -x "http://127.0.0.1:$port" --cacert "$ca" "$ORIGIN_URL" 2>"$WORK/$name-check.txt") || true
  if [[ $body != "$(cat "$WORK/www/64")" ]]; then
    record "$name-check" "status=error reason=$(tr -s '\n\t ' ' ' <"$WORK/$name-check.txt" | cut -c1-200 | tr ' ' '_')"
    log "$name: an intercepted GET /64 through curl -x failed: $(cat "$WORK/$name-check.txt")"
    return 1
  fi
  log "$name: (1) keep-alive HTTPS through interception"
  record "$name-keepalive" "$(hey_run "$name-keepalive" "$pid" "$ORIGIN_URL" -x "http://127.0.0.1:$port")"
  log "$name: (2) a new host per connection ($NEW_HOSTS new names alternating with a cached one)"
  python3 "$BENCH_DIR/forward_client.py" --proxy "127.0.0.1:$port" --target "127.0.0.1:$ORIGIN_TLS_PORT" --ca "$ca" \
    --count 20 --names cached >/dev/null || true
  rss0=$(rss_kib "$pid")
  line=$(python3 "$BENCH_DIR/forward_client.py" --proxy "127.0.0.1:$port" --target "127.0.0.1:$ORIGIN_TLS_PORT" \
    --ca "$ca" --count "$NEW_HOSTS" --names mixed --prefix "n$RANDOM") || line="status=error $line"
  rss1=$(rss_kib "$pid")
  record "$name-newhost" "$line rss_added_kib=$((rss1 - rss0)) hwm_kib=$(rss_kib "$pid" VmHWM)"
  kill -0 "$pid" 2>/dev/null || { show_log "$name"; die "$name died during the measurement"; }
}

FAILED=0
for proxy in "${PROXIES[@]}"; do
  port=$(free_port)
  case $proxy in
    faultline)
      # (1) and (2): a forward listener intercepting every host, trusting the bench CA upstream.
      mkdir -p "$WORK/flca"
      "$FL_BIN" certs init --dir "$WORK/flca" >"$WORK/flca.log" 2>&1 || die "faultline certs init failed"
      printf '{"workers": 2, "listeners": [{"address": "127.0.0.1:%s", "mode": "forward", "forward": {"ca": {"certificate": "%s", "key": "%s"}, "upstream_ca": "%s", "max_tunnels": 100000}}], "routes": [{"name": "all"}]%s}\n' \
        "$port" "$WORK/flca/ca.pem" "$WORK/flca/ca-key.pem" "$WORK/tls/ca.pem" "${FL_QUIET:+, $FL_QUIET}" >"$WORK/faultline.json"
      if ! "$FL_BIN" check-config "$WORK/faultline.json" >"$WORK/faultline-check.log" 2>&1; then
        record "faultline-check" "status=error reason=check-config_refused_the_forward_config"
        log "faultline: check-config refuses the forward config: $(cat "$WORK/faultline-check.log")"
        FAILED=1; continue
      fi
      start faultline "$FL_BIN" run --config "$WORK/faultline.json"
      pid=$LAST_PID
      sleep 1
      measure faultline "$pid" "$port" "$WORK/flca/ca.pem" || FAILED=1
      stop "$pid"
      # (3) the reference: a TLS listener, upstream the same HTTPS origin.
      tls_port=$(free_port)
      printf '{"workers": 2, "listeners": [{"address": "127.0.0.1:%s", "tls": {"certificate": "%s", "key": "%s"}}], "upstreams": {"origin": {"url": "https://localhost:%s", "trust": {"ca_file": "%s", "system": false}}}, "routes": [{"name": "all", "upstream": "origin"}]%s}\n' \
        "$tls_port" "$WORK/tls/proxy.pem" "$WORK/tls/proxy-key.pem" "$ORIGIN_TLS_PORT" "$WORK/tls/ca.pem" \
        "${FL_QUIET:+, $FL_QUIET}" >"$WORK/faultline-tls.json"
      start faultline-tls "$FL_BIN" run --config "$WORK/faultline-tls.json"
      pid=$LAST_PID
      sleep 1
      if [[ $(curl -sS --max-time 5 --cacert "$WORK/tls/ca.pem" "https://localhost:$tls_port/64") == $(cat "$WORK/www/64") ]]; then
        log "faultline: (3) TLS listener to the HTTPS origin (the reference)"
        record "faultline-tlslistener" "$(hey_run faultline-tlslistener "$pid" "https://localhost:$tls_port/64")"
      else
        show_log faultline-tls; die "Faultline's TLS listener does not serve /64"
      fi
      stop "$pid"
      ;;
    mitmdump)
      mkdir -p "$WORK/mitm"
      # The upstream is checked against the bench CA, as Faultline checks it.
      start mitmdump "$MITMDUMP" --listen-host 127.0.0.1 --listen-port "$port" --set "confdir=$WORK/mitm" \
        --set "ssl_verify_upstream_trusted_ca=$WORK/tls/ca.pem" --set termlog_verbosity=error --set flow_detail=0
      pid=$LAST_PID
      for _ in $(seq 1 $((READY_TIMEOUT * 10))); do
        [[ -s $WORK/mitm/mitmproxy-ca-cert.pem ]] && curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/" && break
        kill -0 "$pid" 2>/dev/null || { show_log mitmdump; die "mitmdump exited during startup"; }
        sleep 0.1
      done
      measure mitmdump "$pid" "$port" "$WORK/mitm/mitmproxy-ca-cert.pem" || FAILED=1
      stop "$pid"
      ;;
  esac
done

mkdir -p "$BENCH_DIR/results"
python3 - "$RESULTS" "$BENCH_DIR/results/forward-latest.md" "$DURATION" "$WARMUP" "$NEW_HOSTS" \
  "$(nproc) cores, $(uname -sr)" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(shown_path "${FL_BIN:-}")" "$(shown_path "${MITMDUMP:-}")" <<'EOF'
import sys
results, out, seconds, warmup, new_hosts, host, date, fl_bin, mitm = sys.argv[1:]
runs = {}
for line in open(results):
    name, _, fields = line.rstrip("\n").partition("\t")
    runs[name] = dict(item.partition("=")[::2] for item in fields.split())
def get(name, key):
    # A failed measurement has status=error: none of its numbers count.
    if "status" in runs.get(name, {}):
        return None
    value = runs.get(name, {}).get(key)
    try:
        return float(value)
    except (TypeError, ValueError):
        return None
lines = [f"Forward proxy, {date}: {host}; hey -c 50 for {seconds} s (+{warmup} s warm-up); "
         f"new hosts: {new_hosts} connections with new names alternating with {new_hosts} with a cached one, one at a time.", ""]
lines += ["| proxy | (1) keep-alive req/s | p50 ms | p99 ms | CPU µs/req | (2) new-host p50 ms | cached p50 ms | added ms | RSS added by new names MiB |",
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
for proxy in ("faultline", "mitmdump"):
    if f"{proxy}-check" in runs:
        reason = runs[f"{proxy}-check"].get("reason", "").replace("_", " ")
        lines.append(f"| {proxy} | not measured: {reason} | | | | | | | |")
        continue
    if f"{proxy}-keepalive" not in runs:
        continue
    rps, p50, p99 = get(f"{proxy}-keepalive", "rps"), get(f"{proxy}-keepalive", "p50_us"), get(f"{proxy}-keepalive", "p99_us")
    cpu = get(f"{proxy}-keepalive", "cpu_us")
    requests = get(f"{proxy}-keepalive", "requests")
    new, old = get(f"{proxy}-newhost", "new_p50_us"), get(f"{proxy}-newhost", "cached_p50_us")
    rss = get(f"{proxy}-newhost", "rss_added_kib")
    f = lambda v, scale=1, fmt="{:,.2f}": "error" if v is None else fmt.format(v / scale)
    lines.append(f"| {proxy} | {f(rps, fmt='{:,.0f}')} | {f(p50, 1000)} | {f(p99, 1000)} | "
                 f"{f(cpu / requests if cpu is not None and requests else None, fmt='{:,.1f}')} | {f(new, 1000)} | {f(old, 1000)} | "
                 f"{f(new - old if new is not None and old is not None else None, 1000)} | {f(rss, 1024)} |")
tls = runs.get("faultline-tlslistener")
if tls and "requests" in tls:
    lines += ["", f"Reference (3), Faultline TLS listener to the HTTPS origin: {float(tls['rps']):,.0f} req/s, "
                  f"{float(tls['cpu_us']) / float(tls['requests']):.1f} CPU µs/req."]
targets = []
def verdict(ok):
    return "n/a" if ok is None else ("met" if ok else "**missed**")
fl_rps, mitm_rps = get("faultline-keepalive", "rps"), get("mitmdump-keepalive", "rps")
targets.append(("(1) Faultline req/s ≥ 20× mitmdump's", None if fl_rps is None or not mitm_rps else fl_rps / mitm_rps >= 20,
                "" if fl_rps is None or not mitm_rps else f"{fl_rps / mitm_rps:.1f}×"))
fl_cpu = get("faultline-keepalive", "cpu_us"); fl_req = get("faultline-keepalive", "requests")
ref = (float(tls["cpu_us"]) / float(tls["requests"])) if tls and "requests" in tls else None
ratio = (fl_cpu / fl_req) / ref if fl_cpu is not None and fl_req and ref else None
targets.append(("(1) Faultline CPU/request ≤ 1.5× its TLS listener's (3)", None if ratio is None else ratio <= 1.5,
                "" if ratio is None else f"{ratio:.2f}×"))
new, old = get("faultline-newhost", "new_p50_us"), get("faultline-newhost", "cached_p50_us")
added = None if new is None or old is None else (new - old) / 1000
targets.append(("(2) a new host adds < 5 ms at p50", None if added is None else added < 5, "" if added is None else f"{added:.2f} ms"))
rss = get("faultline-newhost", "rss_added_kib")
scaled = None if rss is None else rss / 1024 * 1000 / int(new_hosts)
targets.append(("(2) RSS added by 1,000 minted names < 10 MiB", None if scaled is None else scaled < 10,
                "" if scaled is None else f"{scaled:.1f} MiB"))
lines += ["", "| target | measured | met |", "|---|---:|---|"]
lines += [f"| {label} | {value} | {verdict(ok)} |" for label, ok, value in targets]
lines += ["", f"Binaries: Faultline `{fl_bin or '-'}`, mitmdump `{mitm or '-'}`."]
text = "\n".join(lines) + "\n"
open(out, "w").write(text)
print(text, end="")
EOF
log "table written to bench/results/forward-latest.md"
exit "$FAILED"
