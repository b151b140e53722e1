#!/usr/bin/env bash
# Checks the Swift library (FaultlineTesting) beyond this machine's own build:
# - it type-checks without FAULTLINE_LAUNCH, the shape it has where Foundation has no
#   Process (an iOS simulator's test target), so `connect` users there can build it;
# - docs/library-reference.md documents every public symbol (scripts/library-reference.py).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swiftc >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swiftc ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
swiftc -typecheck -swift-version 6 -module-name FaultlineTesting Sources/FaultlineTesting/*.swift
echo "check-library.sh: FaultlineTesting type-checks without launching (connect only, as on iOS)"
scripts/library-reference.sh --check

# The README's dependency snippet, as a user pastes it: a package beside a checkout named
# Faultline, with a test target importing FaultlineTesting.
consumer=$(mktemp -d)
trap 'rm -rf "$consumer"' EXIT
ln -s "$PWD" "$consumer/Faultline"
mkdir -p "$consumer/MyApp/Sources/MyApp" "$consumer/MyApp/Tests/MyAppTests"
python3 - "$consumer/MyApp/Package.swift" <<'PY'
import re, sys
readme = open("README.md").read()
match = re.search(r"<!-- dependency snippet: built by scripts/check-library.sh -->\n```swift\n(.*?)```", readme, re.S)
if not match:
    sys.exit("check-library.sh: README.md has no dependency snippet")
open(sys.argv[1], "w").write(match.group(1))
PY
echo 'public func greeting() -> String { "hello" }' > "$consumer/MyApp/Sources/MyApp/MyApp.swift"
cat > "$consumer/MyApp/Tests/MyAppTests/MyAppTests.swift" <<'SWIFT'
import Foundation
import FaultlineTesting
import MyApp

func connectsWithTheREADMEsCall() -> Faultline? {
    guard let admin = URL(string: "http://localhost:9901"), let proxy = URL(string: "http://localhost:8080") else { return nil }
    return Faultline.connect(admin: admin, proxy: proxy, token: "change-me")
}
SWIFT
(cd "$consumer/MyApp" && swift build --build-tests >"$consumer/build.log" 2>&1) || {
  cat "$consumer/build.log" >&2
  echo "check-library.sh: the README's dependency snippet does not build" >&2
  exit 1
}
echo "check-library.sh: the README's dependency snippet builds a package whose tests import FaultlineTesting"
