#!/usr/bin/env python3
"""Writes docs/library-reference.md from FaultlineTesting's symbol graph (the compiler's own
list of public symbols with their declarations and doc comments), or with --check, fails
when a public symbol has no doc comment or the checked-in reference differs from the
generated one.

    scripts/library-reference.py SYMBOLS.json [--check] [--output docs/library-reference.md]

scripts/library-reference.sh makes the symbol graph and runs this.
"""
import json
import sys
from collections import defaultdict

KIND_ORDER = ["swift.class", "swift.struct", "swift.enum", "swift.protocol", "swift.typealias"]
MEMBER_ORDER = ["swift.enum.case", "swift.init", "swift.type.property", "swift.property",
                "swift.type.method", "swift.method", "swift.func.op", "swift.subscript"]


def declaration(symbol):
    return "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))


def doc(symbol):
    lines = [line["text"] for line in symbol.get("docComment", {}).get("lines", [])]
    return "\n".join(lines).strip()


def synthesized(symbol):
    # Members the compiler writes itself (Equatable's ==, Codable's init(from:), …)
    # have no source location in this module.
    return "location" not in symbol


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    graph_path = argv[1]
    check = "--check" in argv
    output = "docs/library-reference.md"
    if "--output" in argv:
        output = argv[argv.index("--output") + 1]
    with open(graph_path) as handle:
        graph = json.load(handle)

    symbols = {s["identifier"]["precise"]: s for s in graph["symbols"]
               if s.get("accessLevel") == "public" and not synthesized(s)}
    undocumented = sorted(".".join(s["pathComponents"]) for s in symbols.values() if not doc(s))

    types = [s for s in symbols.values() if len(s["pathComponents"]) == 1 and s["kind"]["identifier"] in KIND_ORDER]
    types.sort(key=lambda s: s["pathComponents"][0])
    members = defaultdict(list)
    for symbol in symbols.values():
        path = symbol["pathComponents"]
        if len(path) > 1:
            members[path[0]].append(symbol)

    out = ["# FaultlineTesting reference", "",
           "Every public symbol of the Swift library, with its declaration and doc comment. Generated",
           "from the compiler's symbol graph by `scripts/library-reference.sh`; the test command",
           "fails when a public symbol has no doc comment or this file is out of date. How to use",
           "the library is in [testing-with-faultline.md](testing-with-faultline.md) and the",
           "README (Use it from your tests; From a Mac and Xcode).", ""]
    out.append("Types: " + ", ".join(f"[`{t['pathComponents'][0]}`](#{t['pathComponents'][0].lower()})" for t in types))
    out.append("")
    for symbol in types:
        name = symbol["pathComponents"][0]
        out += [f"## {name}", "", "```swift", declaration(symbol), "```", "", doc(symbol), ""]
        entries = members.get(name, [])
        entries.sort(key=lambda s: (MEMBER_ORDER.index(s["kind"]["identifier"]) if s["kind"]["identifier"] in MEMBER_ORDER else 99,
                                    ".".join(s["pathComponents"])))
        for member in entries:
            title = ".".join(member["pathComponents"][1:])
            out += [f"### {name}.{title}", "", "```swift", declaration(member), "```", "", doc(member), ""]
    text = "\n".join(line.rstrip() for line in out).rstrip() + "\n"

    if undocumented:
        print("library-reference: public symbols without a doc comment:", file=sys.stderr)
        for name in undocumented:
            print(f"  {name}", file=sys.stderr)
        return 1
    if check:
        try:
            with open(output) as handle:
                current = handle.read()
        except FileNotFoundError:
            current = ""
        if current != text:
            print(f"library-reference: {output} is out of date; run scripts/library-reference.sh", file=sys.stderr)
            return 1
        print(f"library-reference: {len(symbols)} public symbols, each documented; {output} is current")
        return 0
    with open(output, "w") as handle:
        handle.write(text)
    print(f"library-reference: wrote {output} ({len(symbols)} public symbols)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
