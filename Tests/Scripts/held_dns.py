#!/usr/bin/env python3
"""A DNS server for the forward-proxy tests, on UDP port 53 of a loopback address.

A and AAAA queries for names under `held.test` are answered (A: 127.0.0.1, AAAA: no
record) only once the file given by --release exists: a lookup that takes as long as the
test wants, with no clock involved. Names under `missing.test` get NXDOMAIN at once; any
other name gets SERVFAIL. Prints `dns listening on IP:53` when ready and `query NAME TYPE`
for each query as it arrives, so a test waits for the lookup to have started.
"""
import argparse
import os
import socket
import struct
import sys
import threading
import time

A, AAAA = 1, 28
NOERROR, SERVFAIL, NXDOMAIN = 0, 2, 3


def question(packet):
    """The question's name (lower case, no trailing dot), its type, and where it ends."""
    labels, offset = [], 12
    while True:
        length = packet[offset]
        offset += 1
        if length == 0:
            break
        labels.append(packet[offset:offset + length].decode("ascii", "replace").lower())
        offset += length
    qtype, _qclass = struct.unpack(">HH", packet[offset:offset + 4])
    return ".".join(labels), qtype, offset + 4


def answer(packet, end, rcode, address=None):
    (ident,) = struct.unpack(">H", packet[:2])
    recursion_desired = packet[2] & 0x01
    flags = 0x8000 | (recursion_desired << 8) | 0x0080 | rcode
    header = struct.pack(">HHHHHH", ident, flags, 1, 1 if address else 0, 0, 0)
    reply = header + packet[12:end]
    if address:
        # A pointer to the question's name, IN A, TTL 5 s, 4 bytes.
        reply += b"\xc0\x0c" + struct.pack(">HHIH", A, 1, 5, 4) + socket.inet_aton(address)
    return reply


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", required=True, help="a loopback IP; the port is 53")
    parser.add_argument("--release", required=True, help="held answers go out once this file exists")
    options = parser.parse_args()
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind((options.listen, 53))
    print(f"dns listening on {options.listen}:53", flush=True)
    lock = threading.Lock()

    def send(reply, client):
        with lock:
            server.sendto(reply, client)

    def release_later(reply, client):
        while not os.path.exists(options.release):
            time.sleep(0.01)
        send(reply, client)

    while True:
        packet, client = server.recvfrom(4096)
        try:
            name, qtype, end = question(packet)
        except (IndexError, struct.error):
            continue
        print(f"query {name} {qtype}", flush=True)
        if name == "held.test" or name.endswith(".held.test"):
            reply = answer(packet, end, NOERROR, "127.0.0.1" if qtype == A else None)
            threading.Thread(target=release_later, args=(reply, client), daemon=True).start()
        elif name == "missing.test" or name.endswith(".missing.test"):
            send(answer(packet, end, NXDOMAIN), client)
        else:
            send(answer(packet, end, SERVFAIL), client)


if __name__ == "__main__":
    sys.exit(main())
