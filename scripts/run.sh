#!/usr/bin/env bash
# Main job: set up, build the release binary and run Faultline with the default config.
# Extra arguments are passed to `faultline run`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/setup.sh
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

# Static Swift runtime and Foundation: one self-contained binary, about 6 MiB less memory.
swift build -c release --product faultline --static-swift-stdlib
# The default config's TLS listener needs a development certificate: minted on first run
# (a local CA plus a localhost certificate; no key is ever committed).
if [[ ! -f certs/proxy.pem || ! -f certs/proxy-key.pem ]]; then
  .build/release/faultline certs init --dir certs --names localhost,127.0.0.1
fi
exec .build/release/faultline run --config config/default.json "$@"
