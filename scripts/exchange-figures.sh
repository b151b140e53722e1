#!/usr/bin/env bash
# Prints the figures the exchange-core refactor is measured by (docs/exchange-refactor.md):
# lines per module, mutable stored fields per host type, requirements per client/upstream
# protocol, and the pairs `duplicates` finds in Sources/ (when the tool is on PATH).
#
#   scripts/exchange-figures.sh          prints a Markdown report on stdout
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "## Lines per module (Swift, comments and blanks included)"
echo
echo "| module | files | lines |"
echo "| --- | ---: | ---: |"
for dir in Sources/*/; do
  module=$(basename "$dir")
  files=$(find "$dir" -name '*.swift' | wc -l)
  [[ $files -eq 0 ]] && continue
  lines=$(find "$dir" -name '*.swift' -print0 | xargs -0 cat | wc -l)
  echo "| $module | $files | $lines |"
done
for dir in Sources/FaultlineProxy/*/; do
  sub=${dir#Sources/}
  echo "| ${sub%/} | $(find "$dir" -name '*.swift' | wc -l) | $(find "$dir" -name '*.swift' -print0 | xargs -0 cat | wc -l) |"
done
echo

python3 - <<'PY'
import pathlib, re

sources = list(pathlib.Path("Sources").rglob("*.swift"))

def body_lines(kind, name):
    """The lines at depth 1 of every declaration `kind name` (the type and its extensions)."""
    out = []
    pattern = re.compile(rf"^\s*(?:(?:public|package|internal|fileprivate|private|final)\s+)*(?:{kind})\s+{name}\b")
    for path in sources:
        lines = path.read_text().splitlines()
        i = 0
        while i < len(lines):
            if pattern.match(lines[i]):
                depth = lines[i].count("{") - lines[i].count("}")
                i += 1
                while i < len(lines) and depth > 0:
                    line = lines[i]
                    if depth == 1:
                        out.append(line)
                    depth += line.count("{") - line.count("}")
                    i += 1
            else:
                i += 1
    return out

def stored_vars(name):
    count = 0
    for line in body_lines("class|struct|actor", name):
        stripped = re.sub(r"//.*", "", line).strip()
        m = re.match(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|unowned|weak|lazy|static|nonisolated)(?:\([^)]*\))?\s+)*var\s+\w+", stripped)
        if not m or re.search(r"\bstatic\b", stripped):
            continue
        # A computed property opens a body (`{` before any `=`) that is not an observer.
        brace, equals = stripped.find("{"), stripped.find("=")
        if brace >= 0 and (equals < 0 or brace < equals) and not re.search(r"\{\s*(didSet|willSet)", stripped):
            continue
        count += 1
    return count

def requirements(name):
    return sum(1 for line in body_lines("protocol", name)
               if re.match(r"^\s*(?:mutating\s+)?(func|var|init|subscript)\b", line))

print("## Mutable stored fields per host type")
print()
print("| type | `var` stored fields |")
print("| --- | ---: |")
for name in ["DownstreamConnection", "HTTP2Stream", "HTTP2Connection", "Exchange", "UpstreamConnection",
             "HTTP2UpstreamStream", "AdminConnection", "DemoOriginConnection", "RequestInputLoop"]:
    print(f"| {name} | {stored_vars(name)} |")
print()
print("## Requirements per protocol of the exchange seam")
print()
print("| protocol | requirements |")
print("| --- | ---: |")
for name in ["ExchangeClient", "ExchangeHost", "ClientCodec", "UpstreamConnectionOwner", "UpstreamStreamOwner",
             "UpstreamLegOwner"]:
    if any(re.search(rf"\bprotocol\s+{name}\b", p.read_text()) for p in sources):
        print(f"| {name} | {requirements(name)} |")
print()
print("## Requirements per protocol of the I/O seams (the in-memory transport, the shared request loop)")
print()
print("| protocol | requirements |")
print("| --- | ---: |")
for name in ["StreamTransport", "StreamNetwork", "RequestInputOwner"]:
    if any(re.search(rf"\bprotocol\s+{name}\b", p.read_text()) for p in sources):
        print(f"| {name} | {requirements(name)} |")
PY
echo
echo "## duplicates --repo Sources --most 40"
echo
if command -v duplicates >/dev/null 2>&1; then
  echo '```'
  duplicates --repo Sources --most 40 --seconds 120
  echo '```'
else
  echo "(the duplicates tool is not on PATH)"
fi
