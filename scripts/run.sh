#!/usr/bin/env bash
# Main job: set up, build the release binary and run Faultline with the default config.
# Extra arguments are passed to `faultline run`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/setup.sh
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

swift build -c release --product faultline
exec .build/release/faultline run --config config/default.json "$@"
