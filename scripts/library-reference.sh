#!/usr/bin/env bash
# Regenerates docs/library-reference.md from FaultlineTesting's symbol graph;
# --check only verifies it (every public symbol documented, the file current).
# --html DIR also renders a DocC archive with the toolchain's docc (offline).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swiftc >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swiftc ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
mode=()
html=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --check) mode=(--check); shift ;;
    --html) html="${2:?--html needs a directory}"; shift 2 ;;
    *) echo "library-reference.sh: unknown argument: $1 (expected --check or --html DIR)" >&2; exit 2 ;;
  esac
done
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT
swiftc -emit-module -emit-module-path "$graphs/FaultlineTesting.swiftmodule" -module-name FaultlineTesting -package-name faultline \
  -swift-version 6 -DFAULTLINE_LAUNCH Sources/FaultlineTesting/*.swift \
  -emit-symbol-graph -emit-symbol-graph-dir "$graphs"
python3 scripts/library-reference.py "$graphs/FaultlineTesting.symbols.json" "${mode[@]}"
if [[ -n "$html" ]]; then
  docc convert --additional-symbol-graph-dir "$graphs" --fallback-display-name FaultlineTesting \
    --fallback-bundle-identifier faultline.FaultlineTesting --output-path "$html" --transform-for-static-hosting
  echo "library-reference.sh: DocC archive in $html (serve it as static files)"
fi
