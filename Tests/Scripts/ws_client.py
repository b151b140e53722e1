#!/usr/bin/python3
"""ws_client: a WebSocket client through a forward proxy's CONNECT tunnel, over TLS.

usage: ws_client.py PROXY_PORT HOST PORT CA_FILE

CONNECTs to HOST:PORT through the proxy on 127.0.0.1:PROXY_PORT, opens TLS (SNI HOST,
trusting CA_FILE only, ALPN http/1.1), upgrades `GET /ws`, sends a text, a binary and a
larger text frame (masked, as a client must), checks each echo, then closes with 1000 and
waits for the server's close and end of stream. Prints one line per step
(`connect 200`, `upgrade 101 accept-ok`, `echo N ok`, `close 1000`, `eof`); exits 1 with
the reason on any mismatch.
"""
import sys

sys.dont_write_bytecode = True

import base64
import hashlib
import os
import socket
import ssl
import struct


def fail(reason):
    print("error " + reason, flush=True)
    sys.exit(1)


def read_head(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(1)
        if not chunk:
            fail("closed before the end of a head: %r" % data)
        data += chunk
    return data.decode("latin-1")


def recv_exact(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            fail("closed mid-frame after %d of %d bytes" % (len(data), count))
        data += chunk
    return data


def send_frame(sock, opcode, payload):
    header = bytes([0x80 | opcode])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    elif len(payload) < 65536:
        header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    else:
        header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
    mask = os.urandom(4)
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def read_frame(sock):
    first, second = recv_exact(sock, 2)
    if second & 0x80:
        fail("the server masked a frame")
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", recv_exact(sock, 2))[0]
    elif length == 127:
        length = struct.unpack("!Q", recv_exact(sock, 8))[0]
    return first & 0x0F, recv_exact(sock, length)


def main():
    proxy_port, host, port, ca_file = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    raw = socket.create_connection(("127.0.0.1", proxy_port), timeout=20)
    raw.sendall(("CONNECT %s:%d HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (host, port, host, port)).encode())
    head = read_head(raw)
    if not head.startswith("HTTP/1.1 200"):
        fail("CONNECT answered " + head.split("\r\n")[0])
    print("connect 200", flush=True)
    context = ssl.create_default_context(cafile=ca_file)
    context.set_alpn_protocols(["http/1.1"])
    sock = context.wrap_socket(raw, server_hostname=host)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET /ws HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (host, port, key)).encode())
    head = read_head(sock)
    expected = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
    if not head.startswith("HTTP/1.1 101"):
        fail("upgrade answered " + head.split("\r\n")[0])
    if ("sec-websocket-accept: " + expected.lower()) not in head.lower():
        fail("wrong or missing Sec-WebSocket-Accept: " + head)
    print("upgrade 101 accept-ok", flush=True)
    messages = [(0x1, b"hello through the proxy"), (0x2, bytes(i % 251 for i in range(300))),
                (0x1, b"x" * 5000)]
    for index, (opcode, payload) in enumerate(messages):
        send_frame(sock, opcode, payload)
        got_opcode, got = read_frame(sock)
        if (got_opcode, got) != (opcode, payload):
            fail("echo %d: opcode %d, %d bytes" % (index, got_opcode, len(got)))
        print("echo %d ok" % index, flush=True)
    send_frame(sock, 0x8, struct.pack("!H", 1000))
    opcode, payload = read_frame(sock)
    if opcode != 0x8 or len(payload) < 2:
        fail("expected a close frame, got opcode %d" % opcode)
    print("close %d" % struct.unpack("!H", payload[:2])[0], flush=True)
    try:
        rest = sock.recv(1)
    except ssl.SSLError as error:
        fail("no clean end after close: %s" % error)
    if rest:
        fail("bytes after the close frame: %r" % rest)
    print("eof", flush=True)


main()
