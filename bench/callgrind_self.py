#!/usr/bin/env python3
"""Instructions of their own per function, summed over callgrind dump files (bench/instructions.sh).

usage: callgrind_self.py REQUESTS TOP FILE... [--minus FILE...]

Prints the TOP functions by self cost as "Ir-per-request  share  object:function", with the
total first. With --minus, the costs of the dumps after it are taken away first: two windows
of N and n requests on the same connections' setup leave the cost of N - n requests, without
the TLS handshakes and connection setup both windows share.

Self cost is every cost line of a function but the ones following a `calls=` line, which carry
the inclusive cost of that call (callgrind's format, docs of valgrind 3.19).
"""
import collections
import os
import re
import sys


def self_costs(path, totals, names):
    fn = ob = None
    after_call = False
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line:
            continue
        key, sep, value = line.partition("=")
        if sep and key in ("ob", "fn", "cob", "cfn", "fl", "fi", "fe", "cfi", "cfl", "calls"):
            if key == "calls":
                after_call = True
                continue
            match = re.match(r"\((\d+)\)\s*(.*)", value)
            kind = "ob" if key in ("ob", "cob") else "fn" if key in ("fn", "cfn") else "fl"
            if match:
                ident, name = (kind, match.group(1)), match.group(2)
                if name:
                    names[ident] = name
                name = names.get(ident, "?")
            else:
                name = value
            if key == "ob":
                ob = name
            elif key == "fn":
                fn = (ob, name)
            continue
        if line[0] in "0123456789+-*" and fn is not None:
            if after_call:
                after_call = False
                continue
            parts = line.split()
            if len(parts) >= 2:
                totals[fn] += int(parts[1])


def main():
    requests, top, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    minus = []
    if "--minus" in files:
        files, minus = files[:files.index("--minus")], files[files.index("--minus") + 1:]
    totals = collections.Counter()
    for path in files:
        self_costs(path, totals, {})
    for path in minus:
        smaller = collections.Counter()
        self_costs(path, smaller, {})
        totals.subtract(smaller)
    total = sum(totals.values())
    print(f"{total / requests:12,.0f}  100.0%  total (user-space instructions per request)")
    for (ob, name), cost in totals.most_common(top):
        print(f"{cost / requests:12,.0f}  {100 * cost / total:5.1f}%  {os.path.basename(ob or '?')}:{name}")


if __name__ == "__main__":
    main()
