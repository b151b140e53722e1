#!/usr/bin/env python3
"""Checksummed exchanges for bench/soak.sh (see docs/bench.md, "Soak").

Sends N requests with random bodies through the proxy to the demo origin's /echo on the
plain route, over keep-alive connections (a share with Connection: close, so the next one
is new), with Content-Length or chunked bodies. Every body starts with the exchange's own
nonce. Each response must carry the checksum of ITS request's body and ITS nonce:

- /echo?nonce=N: the origin's JSON names the query (nonce) and the body's SHA-256 and size;
- /echo?raw=1&nonce=N: the origin echoes the body, which must come back byte for byte.

A response with another exchange's nonce is counted as misrouted; one with the right nonce
but a wrong checksum, size or bytes (or that does not parse) as corrupted; a failed
connection or a status other than 200 as an error (the plain route injects no fault, so
errors are reported too). Prints one line `CHECK exchanges=… ok=… corrupted=… misrouted=…
errors=… seconds=…` and up to 10 examples of failures on stderr.
"""
import argparse
import hashlib
import json
import multiprocessing
import os
import random
import socket
import sys
import threading
import time


class Failure(Exception):
    pass


class Connection:
    """One keep-alive connection to the proxy, opened on demand, read through a buffered file."""

    def __init__(self, port, timeout):
        self.port, self.timeout = port, timeout
        self.sock, self.reader = None, None

    def ensure(self):
        if self.sock is None:
            self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.reader = self.sock.makefile("rb")

    def close(self):
        # The socket is only released once its file is closed too.
        for part in (self.reader, self.sock):
            if part is not None:
                try:
                    part.close()
                except OSError:
                    pass
        self.sock, self.reader = None, None

    def line(self):
        """The next line without its CRLF."""
        line = self.reader.readline(65536)
        if not line:
            raise Failure("closed by the proxy")
        if not line.endswith(b"\r\n"):
            raise Failure("line not ended by CRLF %r" % line[:60])
        return line[:-2]

    def exactly(self, count):
        data = self.reader.read(count)
        if len(data) != count:
            raise Failure("closed by the proxy")
        return data

    def until_close(self):
        return self.reader.read()

    def response(self):
        """Status, headers (lowercase names) and body of one response."""
        status_line = self.line()
        parts = status_line.split(b" ", 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/1."):
            raise Failure("bad status line %r" % status_line[:60])
        status = int(parts[1])
        headers = {}
        while True:
            line = self.line()
            if not line:
                break
            name, _, value = line.partition(b":")
            headers[name.strip().lower().decode("latin-1")] = value.strip().decode("latin-1")
        if "chunked" in headers.get("transfer-encoding", "").lower():
            body = b""
            while True:
                size = int(self.line().split(b";")[0], 16)
                if size == 0:
                    while self.line():
                        pass
                    break
                body += self.exactly(size)
                if self.exactly(2) != b"\r\n":
                    raise Failure("chunk not followed by CRLF")
        elif "content-length" in headers:
            body = self.exactly(int(headers["content-length"]))
        else:
            body = self.until_close()
            self.close()
        return status, headers, body


def request_bytes(path, body, chunked, close, rng):
    head = "POST %s HTTP/1.1\r\nHost: plain.soak\r\nContent-Type: application/octet-stream\r\n" % path
    if close:
        head += "Connection: close\r\n"
    if not chunked:
        return (head + "Content-Length: %d\r\n\r\n" % len(body)).encode() + body
    out = (head + "Transfer-Encoding: chunked\r\n\r\n").encode()
    offset = 0
    while offset < len(body):
        step = rng.randint(1, max(1, len(body)))
        piece = body[offset:offset + step]
        out += b"%x\r\n%s\r\n" % (len(piece), piece)
        offset += step
    return out + b"0\r\n\r\n"


def classify(raw, nonce, body, response):
    """'ok', 'misrouted', 'corrupted' or 'error', and a reason."""
    status, headers, payload = response
    if status != 200:
        return "error", "status %d" % status
    if raw:
        if payload == body:
            return "ok", ""
        other = payload.split(b"|", 1)[0].decode("latin-1")
        if payload.count(b"|") and other != nonce and other.startswith("n"):
            return "misrouted", "echo of %s" % other
        return "corrupted", "echo of %d bytes differs from the %d sent" % (len(payload), len(body))
    try:
        document = json.loads(payload)
    except ValueError:
        return "corrupted", "response is not JSON: %r" % payload[:80]
    seen = document.get("args", {}).get("nonce") if isinstance(document.get("args"), dict) else None
    if seen is None:
        seen = dict((k.lower(), v) for k, v in document.get("headers", {}).items()).get("x-nonce") \
            if isinstance(document.get("headers"), dict) else None
    if seen != nonce:
        return "misrouted", "response of nonce %s" % seen
    if document.get("body_sha256") != hashlib.sha256(body).hexdigest() or document.get("body_bytes") != len(body):
        return "corrupted", "origin saw %s bytes with another checksum" % document.get("body_bytes")
    return "ok", ""


def run_thread(port, count, tag, seed, counts, examples, lock, timeout):
    rng = random.Random(seed)
    conn = Connection(port, timeout)
    local = {"ok": 0, "corrupted": 0, "misrouted": 0, "errors": 0}
    for i in range(count):
        nonce = "n%s-%d-%08x" % (tag, i, rng.getrandbits(32))
        size = rng.choice([0, rng.randint(1, 200), rng.randint(200, 4000), rng.randint(4000, 32768)])
        body = nonce.encode() + b"|" + os.urandom(size)
        raw = rng.random() < 0.5
        path = ("/echo?raw=1&nonce=%s" if raw else "/echo?nonce=%s") % nonce
        close = rng.random() < 0.1
        try:
            conn.ensure()
            conn.sock.sendall(request_bytes(path, body, rng.random() < 0.3, close, rng))
            response = conn.response()
            kind, reason = classify(raw, nonce, body, response)
            if close or response[1].get("connection", "").lower() == "close":
                conn.close()
        except (OSError, Failure, ValueError) as error:
            kind, reason = "errors", "%s: %s" % (type(error).__name__, error)
            conn.close()
        kind = "errors" if kind == "error" else kind
        local[kind] += 1
        if kind != "ok":
            with lock:
                if len(examples) < 10:
                    examples.append("%s %s: %s" % (kind, nonce, reason))
    conn.close()
    with lock:
        for key, value in local.items():
            counts[key] += value


def run_process(args):
    port, count, threads, seed, proc, timeout = args
    counts = {"ok": 0, "corrupted": 0, "misrouted": 0, "errors": 0}
    examples, lock = [], threading.Lock()
    share = [count // threads + (1 if t < count % threads else 0) for t in range(threads)]
    workers = [threading.Thread(target=run_thread,
                                args=(port, share[t], "%d.%d" % (proc, t), seed * 1000 + proc * 100 + t,
                                      counts, examples, lock, timeout))
               for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return counts, examples


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--exchanges", type=int, default=100000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8, help="connections per process")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    if not (1 <= args.exchanges <= 100000000 and 1 <= args.processes <= 64 and 1 <= args.threads <= 256):
        parser.error("exchanges, processes or threads out of range")
    start = time.time()
    share = [args.exchanges // args.processes + (1 if p < args.exchanges % args.processes else 0)
             for p in range(args.processes)]
    with multiprocessing.Pool(args.processes) as pool:
        results = pool.map(run_process, [(args.port, share[p], args.threads, args.seed, p, args.timeout)
                                         for p in range(args.processes)])
    total = {"ok": 0, "corrupted": 0, "misrouted": 0, "errors": 0}
    examples = []
    for counts, found in results:
        for key in total:
            total[key] += counts[key]
        examples += found
    for line in examples[:10]:
        print("check: " + line, file=sys.stderr)
    print("CHECK exchanges=%d ok=%d corrupted=%d misrouted=%d errors=%d seconds=%.1f" % (
        args.exchanges, total["ok"], total["corrupted"], total["misrouted"], total["errors"], time.time() - start))


if __name__ == "__main__":
    main()
