#!/usr/bin/python3
"""h2origin: an HTTP/2 origin for tests, cleartext prior knowledge (h2c) or TLS with ALPN h2.

usage: h2origin.py [--listen HOST:PORT] [--cert CERT --key KEY] [--max-concurrent-streams N]
                   [--initial-window N]

Prints `h2 origin listening on HOST:PORT` when ready, then one line per event
(`conn N open h2c|h2`, `conn N stream S request GET /path`, `conn N stream S reset CODE`,
`conn N goaway CODE`, `conn N closed`). Endpoints, chosen by path (query in parentheses):

  /echo (any other path)  200 JSON {"method", "path", "authority", "scheme", "headers",
                          "trailers", "body_bytes", "body_sha256"} once the request ended
  /bytes/N                N bytes, byte i = i % 251, with content-length
  /grpc                   gRPC-style unary: each length-prefixed message of the request echoed
                          in one DATA frame, content-type application/grpc, then trailers
                          grpc-status (status, default 0) and grpc-message (message, "OK")
  /slow                   (chunks=K, ms=M, size=B) K chunks of B bytes, M ms apart
  /trailers               body "hello", trailers x-checksum: abc123
  /status/N               status N, empty body
  /rst                    (code=N) RST_STREAM with code N (default 2, INTERNAL_ERROR)
  /goaway                 (code=N) GOAWAY with code N after the response headers

Flow control is respected both ways: response DATA waits for the client's windows, and
request DATA is acknowledged as it is read.
"""
import sys

# The tools run from the source tree: no __pycache__ beside them.
sys.dont_write_bytecode = True

import argparse
import hashlib
import json
import select
import socket
import threading
import time
from urllib.parse import parse_qs, urlsplit

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import h2.settings

from h2wire import server_context

LOCK = threading.Lock()


def log(line):
    with LOCK:
        print(line, flush=True)


def pattern(count):
    block = bytes(i % 251 for i in range(251))
    return (block * (count // 251 + 1))[:count]


def grpc_messages(body):
    """The messages of a gRPC body: 1-byte flag, 4-byte big-endian length, payload."""
    messages, offset = [], 0
    while offset + 5 <= len(body):
        length = int.from_bytes(body[offset + 1:offset + 5], "big")
        messages.append(body[offset:offset + 5 + length])
        offset += 5 + length
    return messages


class Stream:
    def __init__(self, headers):
        self.headers = headers
        self.body = bytearray()
        self.trailers = []
        self.out = []          # queued ("data", bytes, end) / ("headers", fields, end) / ("wait", t)


class Connection:
    def __init__(self, sock, number, args, protocol):
        self.sock, self.number, self.args = sock, number, args
        self.streams = {}
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(
            client_side=False, header_encoding="utf-8", validate_inbound_headers=False,
            normalize_inbound_headers=False))
        self.protocol = protocol

    def run(self):
        log("conn %d open %s" % (self.number, self.protocol))
        self.conn.initiate_connection()
        self.conn.update_settings({h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: self.args.max_concurrent_streams,
                                   h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: self.args.initial_window})
        self.send()
        try:
            while True:
                timeout = self.next_wakeup()
                ready = select.select([self.sock], [], [], timeout)[0] or getattr(self.sock, "pending", lambda: 0)()
                if ready:
                    data = self.sock.recv(65536)
                    if not data:
                        break
                    for event in self.conn.receive_data(data):
                        self.handle(event)
                self.progress()
                self.send()
        except (OSError, h2.exceptions.H2Error) as error:
            log("conn %d error %s: %s" % (self.number, type(error).__name__, error))
        log("conn %d closed" % self.number)
        try:
            self.sock.close()
        except OSError:
            pass

    def send(self):
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def next_wakeup(self):
        waits = [item[1] for s in self.streams.values() for item in s.out[:1] if item[0] == "wait"]
        blocked = any(s.out for s in self.streams.values())
        if waits:
            return max(0.0, min(waits) - time.monotonic())
        return 0.5 if blocked else 5.0

    def handle(self, event):
        n = self.number
        if isinstance(event, h2.events.RequestReceived):
            self.streams[event.stream_id] = Stream([[k, v] for k, v in event.headers])
            fields = dict(event.headers)
            log("conn %d stream %d request %s %s" % (n, event.stream_id, fields.get(":method"), fields.get(":path")))
        elif isinstance(event, h2.events.DataReceived):
            self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            if event.stream_id in self.streams:
                self.streams[event.stream_id].body += event.data
        elif isinstance(event, h2.events.TrailersReceived):
            if event.stream_id in self.streams:
                self.streams[event.stream_id].trailers = [[k, v] for k, v in event.headers]
        elif isinstance(event, h2.events.StreamEnded):
            if event.stream_id in self.streams:
                self.respond(event.stream_id, self.streams[event.stream_id])
        elif isinstance(event, h2.events.StreamReset):
            log("conn %d stream %d reset %d" % (n, event.stream_id, event.error_code))
            self.streams.pop(event.stream_id, None)
        elif isinstance(event, h2.events.ConnectionTerminated):
            log("conn %d goaway %d last %s" % (n, event.error_code, event.last_stream_id))

    def respond(self, sid, stream):
        fields = dict(stream.headers)
        url = urlsplit(fields.get(":path", "/"))
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        path, out = url.path, stream.out
        if path.startswith("/bytes/"):
            size = int(path[len("/bytes/"):] or 0)
            out += [("headers", [(":status", "200"), ("content-length", str(size))], size == 0),
                    ("data", pattern(size), True)] if size else [("headers", [(":status", "200"), ("content-length", "0")], True)]
        elif path == "/grpc":
            messages = grpc_messages(bytes(stream.body))
            out.append(("headers", [(":status", "200"), ("content-type", "application/grpc")], False))
            out += [("data", m, False) for m in messages]
            out.append(("headers", [("grpc-status", query.get("status", "0")),
                                    ("grpc-message", query.get("message", "OK"))], True))
        elif path == "/slow":
            chunks, size = int(query.get("chunks", 5)), int(query.get("size", 10))
            out.append(("headers", [(":status", "200"), ("content-type", "application/octet-stream")], False))
            for i in range(chunks):
                out += [("wait", time.monotonic() + (i + 1) * int(query.get("ms", 100)) / 1000.0),
                        ("data", b"s" * size, i == chunks - 1)]
            if chunks == 0:
                out.append(("data", b"", True))
        elif path == "/trailers":
            out += [("headers", [(":status", "200"), ("content-type", "text/plain")], False),
                    ("data", b"hello", False), ("headers", [("x-checksum", "abc123")], True)]
        elif path.startswith("/status/"):
            out.append(("headers", [(":status", path[len("/status/"):])], True))
        elif path == "/rst":
            out.append(("rst", int(query.get("code", 2))))
        elif path == "/goaway":
            out += [("headers", [(":status", "200")], False), ("goaway", int(query.get("code", 0)))]
        else:
            body = json.dumps({"method": fields.get(":method"), "path": fields.get(":path"),
                               "authority": fields.get(":authority"), "scheme": fields.get(":scheme"),
                               "headers": stream.headers, "trailers": stream.trailers,
                               "body_bytes": len(stream.body),
                               "body_sha256": hashlib.sha256(stream.body).hexdigest()}).encode()
            out += [("headers", [(":status", "200"), ("content-type", "application/json"),
                                 ("content-length", str(len(body)))], False), ("data", body, True)]

    def progress(self):
        """Sends what each stream has queued, as far as its windows and timers allow."""
        for sid, stream in list(self.streams.items()):
            while stream.out:
                kind = stream.out[0][0]
                if kind == "wait":
                    if time.monotonic() < stream.out[0][1]:
                        break
                elif kind == "headers":
                    self.conn.send_headers(sid, stream.out[0][1], end_stream=stream.out[0][2])
                elif kind == "rst":
                    self.conn.reset_stream(sid, stream.out[0][1])
                elif kind == "goaway":
                    self.conn.close_connection(stream.out[0][1], last_stream_id=sid)
                elif kind == "data":
                    _, data, end = stream.out[0]
                    window = min(self.conn.local_flow_control_window(sid), self.conn.max_outbound_frame_size)
                    if data and window <= 0:
                        break
                    chunk, rest = data[:window], data[window:]
                    self.conn.send_data(sid, chunk, end_stream=end and not rest)
                    if rest:
                        stream.out[0] = ("data", rest, end)
                        continue
                stream.out.pop(0)
            state = self.conn.streams.get(sid)
            if not stream.out and (state is None or state.closed):
                self.streams.pop(sid, None)


def serve(args):
    host, _, port = args.listen.rpartition(":")
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, int(port)))
    listener.listen(128)
    context = server_context(args.cert, args.key) if args.cert else None
    log("h2 origin listening on %s:%d" % (host, listener.getsockname()[1]))
    number = 0
    while True:
        sock, _ = listener.accept()
        number += 1
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=start, args=(sock, number, args, context), daemon=True).start()


def start(sock, number, args, context):
    protocol = "h2c"
    if context is not None:
        try:
            sock.settimeout(10)
            sock = context.wrap_socket(sock, server_side=True)
            sock.settimeout(None)
        except (OSError, ValueError) as error:
            log("conn %d handshake-failed %s" % (number, error))
            sock.close()
            return
        protocol = sock.selected_alpn_protocol()
        if protocol != "h2":
            log("conn %d refused: ALPN %s" % (number, protocol))
            sock.close()
            return
    Connection(sock, number, args, protocol).run()


def main():
    parser = argparse.ArgumentParser(description="HTTP/2 test origin")
    parser.add_argument("--listen", default="127.0.0.1:0")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--max-concurrent-streams", type=int, default=100)
    parser.add_argument("--initial-window", type=int, default=65535)
    args = parser.parse_args()
    if bool(args.cert) != bool(args.key):
        parser.error("--cert and --key go together")
    serve(args)


if __name__ == "__main__":
    sys.exit(main())
