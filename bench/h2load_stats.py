#!/usr/bin/env python3
"""Turns h2load's output into the key=value line bench/report.py reads (as bench/stats.lua
does for wrk).

usage: h2load_stats.py H2LOAD-OUTPUT.txt

Prints `requests=N duration_us=N bytes=N connect_errors=0 read_errors=N write_errors=0
status_errors=N timeouts=N`, or `no-h2 PROTOCOL` when h2load did not negotiate h2 (it would
have measured HTTP/1.1 instead). Exits 1 when the output has no result.
"""
import re
import sys

UNITS = {"s": 1e6, "ms": 1e3, "us": 1.0}


def main(path):
    text = open(path, errors="replace").read()
    protocols = re.findall(r"^Application protocol: (\S+)", text, re.M)
    if not protocols or any(p != "h2" for p in protocols):
        print("no-h2 %s" % (",".join(sorted(set(protocols))) or "none"))
        return 0
    finished = re.search(r"^finished in ([\d.]+)(s|ms|us),", text, re.M)
    requests = re.search(r"^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, "
                         r"(\d+) failed, (\d+) errored, (\d+) timeout", text, re.M)
    codes = re.search(r"^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", text, re.M)
    traffic = re.search(r"^traffic: \S+ \((\d+)\) total", text, re.M)
    if not (finished and requests and codes and traffic):
        print("h2load_stats: no result in %s" % path, file=sys.stderr)
        return 1
    _, _, done, _, failed, errored, timeouts = (int(x) for x in requests.groups())
    print("requests=%d duration_us=%d bytes=%s connect_errors=0 read_errors=%d write_errors=0 "
          "status_errors=%d timeouts=%d" % (
              done, round(float(finished.group(1)) * UNITS[finished.group(2)]), traffic.group(1),
              failed + errored, int(codes.group(3)) + int(codes.group(4)), timeouts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
