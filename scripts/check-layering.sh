#!/usr/bin/env bash
# Checks the layering rule on the sources and Package.swift (README.md, Layout): imports point downward only,
# C modules stay behind `private import`, each C module is imported by exactly one Swift module, and
# the CLI, the demo origin and the test library use no C at all: neither a C module nor the C
# library itself (Glibc, Musl, Darwin); they reach the system through FaultlineIO or Foundation.
#
#   scripts/check-layering.sh        exits non-zero and lists every violation
#
# Layers, lowest first; a module may import only modules of a lower layer:
#   0  FaultlineSync (the lock type every layer shares)
#   1  FaultlineIO, FaultlineHTTP
#   2  FaultlineTLS, FaultlineLog, FaultlineHTTP2
#   3  FaultlineConfig, FaultlineDemoOrigin, FaultlineAppPins
#   4  FaultlineProxy
#   5  faultline (the CLI)
#   5  FaultlineTesting (the test library: a client of the binary, so it imports no Faultline module)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

declare -A layer=(
  [FaultlineSync]=0
  [FaultlineIO]=1 [FaultlineHTTP]=1
  [FaultlineTLS]=2 [FaultlineLog]=2 [FaultlineHTTP2]=2
  [FaultlineConfig]=3 [FaultlineDemoOrigin]=3 [FaultlineAppPins]=3
  [FaultlineProxy]=4
  [faultline]=5 [FaultlineTesting]=5
)
c_modules='CLinux|CLLHTTP|COpenSSL|CNghttp2'
# The C library, which only modules that may use C import.
c_library='Glibc|Musl|Darwin'
# Modules that may not import a C module or the C library at all, not even privately.
no_c=(faultline FaultlineDemoOrigin FaultlineTesting)
# Modules that talk to the binary from outside and may import no module of the table at all.
no_faultline=(FaultlineTesting)

failures=0
# The one Swift module that imports each C module (module=importer lines).
declare -A c_importer=()
fail() {
  echo "check-layering: $*" >&2
  failures=$((failures + 1))
}

for dir in Sources/*/; do
  module=$(basename "$dir")
  [[ $module =~ ^($c_modules)$ ]] && continue
  if [[ -z ${layer[$module]+set} ]]; then
    fail "$module has no layer; add it to scripts/check-layering.sh"
    continue
  fi
  while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    statement=${rest#*:}
    # The imported module is the word after `import` (and an optional kind such as `struct`).
    imported=$(sed -E 's/.*import[[:space:]]+((typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+)?([A-Za-z0-9_]+).*/\3/' <<<"$statement")
    where="$file:$line: $(sed -E 's/^[[:space:]]+//' <<<"$statement")"
    if [[ $imported =~ ^($c_library)$ ]]; then
      for banned in "${no_c[@]}"; do
        [[ $module == "$banned" ]] && fail "$where: $module may not use the C library; use FaultlineIO or Foundation"
      done
    elif [[ $imported =~ ^($c_modules)$ ]]; then
      if [[ -n ${c_importer[$imported]+set} && ${c_importer[$imported]} != "$module" ]]; then
        fail "$where: $imported is already imported by ${c_importer[$imported]}; each C module has exactly one Swift importer"
      fi
      c_importer[$imported]=$module
      for banned in "${no_c[@]}"; do
        [[ $module == "$banned" ]] && fail "$where: $module may not import a C module"
      done
      [[ $statement =~ ^[[:space:]]*private[[:space:]]+import[[:space:]] ]] \
        || fail "$where: a C module must be imported with \`private import\`"
    elif [[ -n ${layer[$imported]+set} ]]; then
      for client in "${no_faultline[@]}"; do
        [[ $module == "$client" ]] && fail "$where: $module is a client of the binary and may not import $imported"
      done
      (( ${layer[$imported]} < ${layer[$module]} )) \
        || fail "$where: $module (layer ${layer[$module]}) may not import $imported (layer ${layer[$imported]})"
    fi
  done < <(grep -rnE --include='*.swift' '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]' "$dir" || true)
done

# Every C module is someone's: one Swift module imports it (the sources are its only users).
for c_module in ${c_modules//|/ }; do
  [[ -n ${c_importer[$c_module]+set} ]] || fail "$c_module is imported by no Swift module under Sources/"
done

# The same rules on Package.swift's target dependencies.
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
layers=$(for module in "${!layer[@]}"; do echo "$module=${layer[$module]}"; done)
while IFS= read -r problem; do
  [[ -n $problem ]] && fail "Package.swift: $problem"
done < <(swift package dump-package | python3 -c '
import json, re, sys
layers = dict(line.split("=") for line in sys.argv[1].split())
c_modules, no_c, no_faultline = re.compile(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split()
dependents = {}
for target in json.load(sys.stdin)["targets"]:
    name = target["name"]
    if name not in layers: continue
    for dependency in target.get("dependencies", []):
        used = (dependency.get("byName") or dependency.get("target") or dependency.get("product") or [""])[0]
        if c_modules.fullmatch(used):
            dependents.setdefault(used, []).append(name)
            if name in no_c: print(f"{name} may not depend on the C module {used}")
        elif used in layers and name in no_faultline:
            print(f"{name} is a client of the binary and may not depend on {used}")
        elif used in layers and int(layers[used]) >= int(layers[name]):
            print(f"{name} (layer {layers[name]}) may not depend on {used} (layer {layers[used]})")
for used, names in sorted(dependents.items()):
    joined = " and ".join(names)
    if len(names) > 1: print(f"the C module {used} is a dependency of {joined}; exactly one module may wrap it")
' "$layers" "$c_modules" "${no_c[*]}" "${no_faultline[*]}")

if [[ $failures -gt 0 ]]; then
  echo "check-layering: $failures violation(s)" >&2
  exit 1
fi
echo "check-layering: imports point downward; C modules stay private, one importer each; no C above the I/O layers" >&2
