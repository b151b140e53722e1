#!/usr/bin/env bash
# Regenerates scripts/link-order.txt: the functions the release binary runs at start-up and on
# each request path, hottest first, which the release link (Package.swift) lays side by side at
# the front of the binary's code with lld's --symbol-ordering-file. Code the kernel maps in is
# then the code that runs, not the 64 KiB around each function start-up happens to touch
# (docs/bench.md, "Memory per scenario").
#
#   scripts/link-order.sh          about 2 minutes; commit the changed scripts/link-order.txt
#
# SwiftPM does not relink when only the list changed: the script relinks the release binary
# itself (by hand: remove .build/release/faultline, then build).
#
# It runs a copy of the release binary without debug information under valgrind's callgrind
# (valgrind 3.19 cannot read the toolchain's DWARF 5), with the shipped defaults (JSON log to a
# file, HAR capture and the request journal on) and an upstream of each kind: the built-in demo
# origin over plain HTTP and `openssl s_server` over TLS with enforced pins. It drives HTTP/1
# keep-alive and a new connection per request, the TLS listener over HTTP/1.1 and h2, the TLS
# upstream and the admin API, then lists every function of the binary that ran, by instructions
# of its own. A stale list is harmless: names no longer in the binary are skipped, and new
# functions are laid out after the listed ones. Needs valgrind, objcopy, curl, h2load, openssl.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

die() { echo "link-order: error: $*" >&2; exit 1; }
for tool in valgrind objcopy curl h2load openssl python3; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found; install the bench tools with: scripts/setup.sh --bench"
done
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

swift build -c release --product faultline --static-swift-stdlib >&2
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

objcopy --strip-debug .build/release/faultline "$WORK/faultline"
"$WORK/faultline" certs init --dir "$WORK/certs" --names localhost,127.0.0.1 >/dev/null

# free_port : an ephemeral loopback port nothing listens on now.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
PLAIN=$(free_port) TLS=$(free_port) ADMIN=$(free_port) ORIGIN=$(free_port) TLS_ORIGIN=$(free_port)

openssl s_server -quiet -www -accept "127.0.0.1:$TLS_ORIGIN" \
  -cert "$WORK/certs/proxy.pem" -key "$WORK/certs/proxy-key.pem" >/dev/null 2>&1 &
PIDS+=($!)
LEAF_PIN=$("$WORK/faultline" pins compute "$WORK/certs/proxy.pem" --format json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["certificates"][0]["pin"])')

cat >"$WORK/faultline.json" <<EOF
{"workers": 1,
 "listeners": [{"address": "127.0.0.1:$PLAIN"},
               {"address": "127.0.0.1:$TLS", "tls": {"certificate": "certs/proxy.pem", "key": "certs/proxy-key.pem"}}],
 "admin": {"address": "127.0.0.1:$ADMIN"},
 "demo_origin": {"address": "127.0.0.1:$ORIGIN"},
 "upstreams": {"demo": {"url": "http://127.0.0.1:$ORIGIN"},
               "tlsorigin": {"url": "https://localhost:$TLS_ORIGIN",
                             "trust": {"ca_file": "certs/ca.pem", "system": false},
                             "pins": {"sha256": ["$LEAF_PIN"], "mode": "enforce"}}},
 "routes": [{"name": "tls", "match": {"path_prefix": "/tls/"}, "upstream": "tlsorigin"},
            {"name": "all", "upstream": "demo"}],
 "log": {"format": "json", "destination": "file", "path": "$WORK/access.log"}}
EOF
"$WORK/faultline" check-config "$WORK/faultline.json" >/dev/null || die "the profile config is refused"

valgrind --tool=callgrind --demangle=no --dump-instr=no --compress-strings=no \
  --callgrind-out-file="$WORK/callgrind.out" --log-file="$WORK/valgrind.log" \
  "$WORK/faultline" run --config "$WORK/faultline.json" >"$WORK/faultline.out" 2>&1 &
FL=$!
PIDS+=($FL)
for _ in $(seq 240); do
  curl -fsS -o /dev/null "http://127.0.0.1:$ADMIN/health" 2>/dev/null && break
  kill -0 "$FL" 2>/dev/null || die "faultline exited under valgrind: $(tail -5 "$WORK/faultline.out")"
  sleep 0.5
done
curl -fsS -o /dev/null "http://127.0.0.1:$ADMIN/health" || die "faultline did not answer on its admin port"

# Each path a bench scenario takes, a few hundred requests each (callgrind runs ~50x slower).
h2load -n 300 -c 2 -m 1 --h1 "http://127.0.0.1:$PLAIN/64" >/dev/null
for _ in $(seq 20); do curl -fsS -o /dev/null -H 'Connection: close' "http://127.0.0.1:$PLAIN/64"; done
h2load -n 300 -c 2 -m 1 --h1 "https://127.0.0.1:$TLS/64" >/dev/null
h2load -n 300 -c 2 -m 5 "https://127.0.0.1:$TLS/64" >/dev/null
h2load -n 100 -c 2 -m 1 --h1 "http://127.0.0.1:$PLAIN/tls/" >/dev/null
curl -fsS -o /dev/null "http://127.0.0.1:$PLAIN/bytes/1048576" || true
for path in /health /rules /pins /har /metrics /requests /stats /overview; do
  curl -sS -o /dev/null "http://127.0.0.1:$ADMIN$path" || true
done

kill -INT "$FL"
wait "$FL" || true
[[ -s $WORK/callgrind.out ]] || die "callgrind wrote no profile: $(tail -5 "$WORK/valgrind.log")"

python3 - "$WORK/callgrind.out" "$WORK/faultline" >scripts/link-order.txt <<'EOF'
import re, sys
# Self cost per function of the profiled binary: cost lines that follow a `calls=` line are
# the callee's inclusive cost, not the caller's own.
profile, binary = sys.argv[1], sys.argv[2]
own, obj, fn, after_call = {}, None, None, False
for line in open(profile, errors="replace"):
    if line.startswith("ob="):
        obj = line[3:].strip()
    elif line.startswith("fn="):
        fn = line[3:].strip() if obj == binary else None
        if fn:
            own.setdefault(fn, 0)
    elif line.startswith("calls="):
        after_call = True
    elif line[:1].isdigit() or line[:1] in "+-*":
        if fn and not after_call:
            fields = line.split()
            if len(fields) >= 2 and fields[1].isdigit():
                own[fn] += int(fields[1])
        after_call = False
names, seen = [], set()
for name, _ in sorted(own.items(), key=lambda item: -item[1]):
    name = re.sub(r"'\d+$", "", name)  # callgrind's suffix for a second function of one name
    if name.startswith("0x") or name in seen:
        continue
    seen.add(name)
    names.append(name)
print("\n".join(names))
EOF
echo "link-order: $(wc -l <scripts/link-order.txt) functions in scripts/link-order.txt" >&2
# SwiftPM does not see the list as an input of the link: relink with the new one.
rm -f .build/release/faultline "$(swift build -c release --show-bin-path)/faultline"
swift build -c release --product faultline --static-swift-stdlib >&2
