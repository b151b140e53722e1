#!/usr/bin/python3
"""h2conformance: the project's own HTTP/2 conformance cases, run against one listener.

usage: h2conformance.py TARGET [--only PREFIX,...] [--list]

TARGET is JSON text or a file: {"host", "port", "tls", "ca", "server_name", "authority",
"timeout", "budget"}; without `tls` the listener is spoken to as h2c with prior knowledge.
Once `budget` seconds (default 120) have passed, the cases left are reported as not run. Each case
(h2conformance_cases.py) opens its own connection, does the handshake unless it tests the
preface, sends its frames and waits, never longer than `timeout` seconds (default 3) per
wait, for the outcome it expects, as h2spec states them: a connection error (GOAWAY with one
of the codes, then the connection closes), a stream error (RST_STREAM on the stream with one
of the codes, or a connection error with one of them), a response, or the connection going
on (a PING answered). Prints one JSON object on stdout:

{"listener": "tls", "passed": 97, "failed": 1, "elapsed_ms": 2100.0,
 "cases": [{"id": "5.1.1/2", "section": "5.1.1", "name": "...", "expected": "...",
            "passed": false, "actual": "HEADERS(5) DATA(5,END_STREAM); timed out", "ms": 3004.1}]}

Exit status 0 once the report is printed (whatever it says), 2 for bad arguments.
"""
import sys

# The tools run from the source tree: no __pycache__ beside them.
sys.dont_write_bytecode = True

import json
import os
import socket
import struct
import time

import hpack

from h2wire import FrameReader, client_socket, error_name

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM = ACK = 0x1
END_HEADERS = 0x4
PADDED = 0x8
PRIORITY_FLAG = 0x20
CODES = {"NO_ERROR": 0, "PROTOCOL_ERROR": 1, "INTERNAL_ERROR": 2, "FLOW_CONTROL_ERROR": 3,
         "SETTINGS_TIMEOUT": 4, "STREAM_CLOSED": 5, "FRAME_SIZE_ERROR": 6, "REFUSED_STREAM": 7,
         "CANCEL": 8, "COMPRESSION_ERROR": 9, "CONNECT_ERROR": 10, "ENHANCE_YOUR_CALM": 11,
         "INADEQUATE_SECURITY": 12, "HTTP_1_1_REQUIRED": 13}
NAMES = {0: "DATA", 1: "HEADERS", 2: "PRIORITY", 3: "RST_STREAM", 4: "SETTINGS", 5: "PUSH_PROMISE",
         6: "PING", 7: "GOAWAY", 8: "WINDOW_UPDATE", 9: "CONTINUATION"}


def frame(ftype, flags, stream, payload=b""):
    """One frame as bytes; `stream` may carry the reserved bit (0x80000000)."""
    return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", stream & 0xFFFFFFFF) + payload


def settings(*pairs):
    """A SETTINGS payload from (identifier, value) pairs."""
    return b"".join(struct.pack(">HI", ident, value) for ident, value in pairs)


def literal(name, value):
    """An HPACK literal field without indexing, no Huffman coding (RFC 7541 §6.2.2): the
    server's dynamic table is left as it is."""
    name, value = name.encode(), value.encode()
    return b"\x00" + hpack_int(len(name), 7) + name + hpack_int(len(value), 7) + value


def hpack_int(value, prefix, first=0):
    """An HPACK integer (RFC 7541 §5.1) with a `prefix`-bit prefix; `first` holds the bits above it."""
    limit = (1 << prefix) - 1
    if value < limit:
        return bytes([first | value])
    out = bytearray([first | limit])
    value -= limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    out.append(value)
    return bytes(out)


class Received:
    """One frame from the server, with what the cases look at."""

    def __init__(self, parsed, length):
        self.type = parsed.type
        self.name = NAMES.get(parsed.type, "TYPE_%s" % parsed.type)
        self.flags = set(parsed.flags)
        self.stream = parsed.stream_id
        self.length = length
        self.data = getattr(parsed, "data", b"")
        self.code = getattr(parsed, "error_code", None)
        self.last_stream = getattr(parsed, "last_stream_id", None)
        self.opaque = getattr(parsed, "opaque_data", None)
        self.settings = getattr(parsed, "settings", {})
        self.headers = None  # set once the header block is complete and decoded

    def has(self, flag):
        return flag in self.flags

    def describe(self):
        if self.type == GOAWAY:
            return "GOAWAY(%s, last %s)" % (error_name(self.code), self.last_stream)
        if self.type == RST_STREAM:
            return "RST_STREAM(%s, %s)" % (self.stream, error_name(self.code))
        if self.type == PING:
            return "PING(%s%s)" % ("ACK " if self.has("ACK") else "", bytes(self.opaque or b"").hex())
        if self.type == SETTINGS:
            return "SETTINGS(ACK)" if self.has("ACK") else "SETTINGS"
        parts = [str(self.stream)]
        if self.type == DATA:
            parts.append("%d bytes" % len(self.data))
        if self.type == HEADERS and self.headers:
            status = dict(self.headers).get(":status")
            if status:
                parts.append(":status %s" % status)
        if self.has("END_STREAM"):
            parts.append("END_STREAM")
        return "%s(%s)" % (self.name, ", ".join(parts))


class Peer:
    """One client connection: raw frames out, every frame in (h2wire's FrameReader), header
    blocks decoded with hpack so the server's dynamic table is followed."""

    def __init__(self, target):
        self.target = target
        self.timeout = float(target.get("timeout", 3))
        self.authority = target.get("authority") or "%s:%s" % (target.get("host", "127.0.0.1"), target["port"])
        self.scheme = "https" if target.get("tls") else "http"
        self.sock, self.alpn = client_socket(target, self.timeout)
        self.reader = FrameReader()
        self.decoder = hpack.Decoder()
        self.encoder = hpack.Encoder()
        self.queue = []
        self.seen = []
        self.closed = False
        self.raw = bytearray()
        self.block = None
        self.server_settings = {}

    # ------------------------------------------------------------------ output
    def send(self, *chunks):
        """Writes the chunks in one write; a server that has closed already is no error here."""
        try:
            self.sock.sendall(b"".join(chunks))
        except OSError as error:
            self.seen.append("send failed (%s)" % error.__class__.__name__)

    def request_fields(self, method="GET", path="/64", extra=()):
        """The four request pseudo-headers and `extra` fields, as (name, value) pairs."""
        return [(":method", method), (":scheme", self.scheme), (":path", path), (":authority", self.authority)] + list(extra)

    def block_of(self, fields):
        """A header block of literals (no indexing, no Huffman)."""
        return b"".join(literal(name, value) for name, value in fields)

    def headers(self, stream, fields=None, end_stream=True, end_headers=True, pad=None, priority=None, block=None):
        """A HEADERS frame; `fields` default to a GET of /64; `pad` is a pad length (PADDED),
        `priority` a (dependency, weight) pair (PRIORITY flag)."""
        if block is None:
            block = self.block_of(fields if fields is not None else self.request_fields())
        flags = (END_STREAM if end_stream else 0) | (END_HEADERS if end_headers else 0)
        payload = block
        if priority is not None:
            flags |= PRIORITY_FLAG
            payload = struct.pack(">IB", priority[0], priority[1]) + payload
        if pad is not None:
            flags |= PADDED
            payload = bytes([pad]) + payload + b"\x00" * pad
        return frame(HEADERS, flags, stream, payload)

    def post(self, stream, length=None, extra=()):
        """HEADERS of a POST to /echo without END_STREAM (the stream stays open)."""
        fields = list(extra)
        if length is not None:
            fields.append(("content-length", str(length)))
        return self.headers(stream, self.request_fields("POST", "/echo", fields), end_stream=False)

    # ------------------------------------------------------------------ input
    def read(self, deadline):
        """The next frame from the server, or None once the deadline passed or the server closed."""
        while not self.queue:
            if self.closed:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.sock.settimeout(remaining)
            try:
                data = self.sock.recv(65536)
            except (socket.timeout, TimeoutError):
                return None
            except OSError as error:
                self.seen.append("read failed (%s)" % error.__class__.__name__)
                data = b""
            if not data:
                self.closed = True
                return None
            if len(self.raw) < 64:
                self.raw += data[:64 - len(self.raw)]
            for parsed, length in self.reader.feed(data):
                item = Received(parsed, length)
                self.follow_header_blocks(item)
                self.queue.append(item)
                self.seen.append(item.describe())
        return self.queue.pop(0)

    def follow_header_blocks(self, item):
        """Decodes complete header blocks (HEADERS, CONTINUATION) in order."""
        if item.type == HEADERS:
            self.block = (item, bytes(item.data))
        elif item.type == CONTINUATION and self.block:
            self.block = (self.block[0], self.block[1] + bytes(item.data))
        else:
            return
        if item.has("END_HEADERS"):
            first, block = self.block
            self.block = None
            try:
                first.headers = [(n.decode(), v.decode()) if isinstance(n, bytes) else (n, v)
                                 for n, v in self.decoder.decode(block)]
            except Exception as error:  # a block we cannot decode is reported, not fatal here
                first.headers = [("x-undecodable", str(error))]

    def handshake(self, values=()):
        """Preface and SETTINGS (`values`), then waits for the server's SETTINGS (acknowledged)
        and the acknowledgement of ours."""
        self.send(PREFACE, frame(SETTINGS, 0, 0, settings(*values)))
        deadline = time.monotonic() + self.timeout
        remote = local = False
        while not (remote and local):
            item = self.read(deadline)
            if item is None:
                raise HandshakeFailed("handshake: " + ("closed" if self.closed else "timed out") + ": " + " ".join(self.seen))
            if item.type != SETTINGS:
                continue
            if item.has("ACK"):
                local = True
            else:
                remote = True
                self.server_settings.update(item.settings)
                self.send(frame(SETTINGS, ACK, 0))
        self.seen = []

    def wait(self, until, what):
        """Reads frames until `until(frame)` holds (they stay readable for the verdict)."""
        deadline = time.monotonic() + self.timeout
        kept = []
        try:
            while True:
                item = self.read(deadline)
                if item is None:
                    raise CaseSetupFailed("waiting for %s: %s" % (what, "closed" if self.closed else "timed out"))
                kept.append(item)
                if until(item):
                    return item
        finally:
            self.queue[:0] = kept

    def wait_end(self, stream):
        """Waits until the response on `stream` has ended."""
        self.wait(lambda f: f.stream == stream and f.type in (DATA, HEADERS) and f.has("END_STREAM"),
                  "the end of stream %d" % stream)
        self.queue = []

    def wait_data(self, stream, total):
        """Waits until `total` DATA bytes arrived on `stream`."""
        got = [0]

        def enough(f):
            if f.type == DATA and f.stream == stream:
                got[0] += len(f.data)
            return got[0] >= total
        self.wait(enough, "%d DATA bytes on stream %d" % (total, stream))
        self.queue = []

    def not_http2(self):
        """The first line of an HTTP/1 answer, when that is what the server sent."""
        if not bytes(self.raw).startswith(b"HTTP/"):
            return None
        return "received %r" % bytes(self.raw).split(b"\r\n", 1)[0].decode("latin-1")

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class HandshakeFailed(Exception):
    pass


class CaseSetupFailed(Exception):
    pass


def run_case(target, case):
    """Runs one case on a new connection; its report entry."""
    start = time.monotonic()
    entry = {"id": case.id, "section": case.section, "name": case.name}
    peer = None
    try:
        peer = Peer(target)
        # A case whose outcome depends on the listener names it through a function of the peer.
        expect = case.expect if hasattr(case.expect, "verdict") else case.expect(peer)
        entry["expected"] = expect.describe()
        if case.handshake is not None:
            peer.handshake(case.handshake)
        case.run(peer)
        passed, note = expect.verdict(peer)
        entry["passed"] = passed
        entry["actual"] = "; ".join(filter(None, [" ".join(peer.seen[-14:]), note, peer.not_http2()]))
    except (HandshakeFailed, CaseSetupFailed, OSError) as error:
        entry.setdefault("expected", "?")
        entry["passed"] = False
        entry["actual"] = "%s: %s" % (error.__class__.__name__, error)
    finally:
        if peer:
            peer.close()
    entry["ms"] = round((time.monotonic() - start) * 1000, 1)
    return entry


def main(argv):
    import h2conformance_cases
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    text = argv[1]
    if os.path.exists(text):
        with open(text) as handle:
            text = handle.read()
    try:
        target = json.loads(text)
    except ValueError as error:
        print("bad target: %s" % error, file=sys.stderr)
        return 2
    only = []
    if "--only" in argv:
        only = argv[argv.index("--only") + 1].split(",")
    cases = [c for c in h2conformance_cases.CASES if not only or any(c.id == p or c.section == p or c.id.startswith(p + "/") for p in only)]
    if "--list" in argv:
        for c in cases:
            print("%-10s %s" % (c.id, c.name))
        return 0
    start = time.monotonic()
    budget = float(target.get("budget", 120))
    results = []
    for c in cases:
        if time.monotonic() - start > budget:
            # Failing cases each wait their timeout: past the budget the rest are not run, so
            # a broken server still gets a report in bounded time.
            results.append({"id": c.id, "section": c.section, "name": c.name, "expected": "?", "passed": False,
                            "actual": "not run: the run's budget of %g s was spent" % budget, "ms": 0})
            continue
        results.append(run_case(target, c))
    report = {"listener": "tls" if target.get("tls") else "h2c",
              "passed": sum(1 for r in results if r["passed"]),
              "failed": sum(1 for r in results if not r["passed"]),
              "elapsed_ms": round((time.monotonic() - start) * 1000, 1), "cases": results}
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
