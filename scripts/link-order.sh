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

BENCH_NAME=link-order
# The bench helpers: need, die, free_port, make_workdir/start/stop, find_faultline (which brings
# the release build up to date); this script profiles the repository's own build.
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../bench/lib.sh"
for tool in valgrind objcopy curl h2load openssl python3; do need "$tool"; done
unset FAULTLINE_BIN
find_faultline
make_workdir link-order

objcopy --strip-debug "$FL_BIN" "$WORK/faultline"
"$WORK/faultline" certs init --dir "$WORK/certs" --names localhost,127.0.0.1 >/dev/null
PLAIN=$(free_port) TLS=$(free_port) ADMIN=$(free_port) ORIGIN=$(free_port) TLS_ORIGIN=$(free_port)

start tls-origin openssl s_server -quiet -www -accept "127.0.0.1:$TLS_ORIGIN" \
  -cert "$WORK/certs/proxy.pem" -key "$WORK/certs/proxy-key.pem"
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

start faultline valgrind --tool=callgrind --demangle=no --dump-instr=no \
  --callgrind-out-file="$WORK/callgrind.out" --log-file="$WORK/valgrind.log" \
  "$WORK/faultline" run --config "$WORK/faultline.json"
FL=$LAST_PID
for _ in $(seq 240); do
  curl -fsS -o /dev/null "http://127.0.0.1:$ADMIN/health" 2>/dev/null && break
  kill -0 "$FL" 2>/dev/null || { show_log faultline; die "faultline exited under valgrind"; }
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

stop "$FL" INT     # callgrind writes its profile as the process exits
[[ -s $WORK/callgrind.out ]] || die "callgrind wrote no profile: $(tail -5 "$WORK/valgrind.log")"

# The binary's functions by instructions of their own (bench/callgrind_self.py reads the profile).
python3 - "$BENCH_DIR" "$WORK/callgrind.out" "$WORK/faultline" >scripts/link-order.txt <<'EOF'
import collections, re, sys
sys.path.insert(0, sys.argv[1])
from callgrind_self import self_costs
totals = collections.Counter()
self_costs(sys.argv[2], totals, {})
names, seen = [], set()
for (obj, name), _ in totals.most_common():
    name = re.sub(r"'\d+$", "", name)  # callgrind's suffix for a second function of one name
    if obj != sys.argv[3] or name.startswith("0x") or name in seen:
        continue
    seen.add(name)
    names.append(name)
print("\n".join(names))
EOF
log "$(wc -l <scripts/link-order.txt) functions in scripts/link-order.txt"
# SwiftPM does not see the list as an input of the link: relink with the new one.
rm -f .build/release/faultline "$(swift build -c release --show-bin-path)/faultline"
swift build -c release --product faultline --static-swift-stdlib >&2
