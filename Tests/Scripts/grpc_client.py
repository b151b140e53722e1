#!/usr/bin/python3
"""grpc_client: a gRPC-style unary call over HTTP/2 through a forward proxy's CONNECT.

usage: grpc_client.py PROXY_PORT HOST PORT CA_FILE [STATUS]

CONNECTs to HOST:PORT through the proxy on 127.0.0.1:PORT, opens TLS (SNI HOST, trusting
CA_FILE only, ALPN h2 only), sends `POST /grpc?status=STATUS` with content-type
application/grpc, te: trailers and one length-prefixed message, and prints one JSON object:
{"alpn", "status", "content_type", "messages", "trailers", "ended"}; exits 1 on an error.
"""
import sys

sys.dont_write_bytecode = True

import json
import socket
import ssl
import struct

import h2.config
import h2.connection
import h2.events


def main():
    proxy_port, host, port, ca_file = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    status = sys.argv[5] if len(sys.argv) > 5 else "0"
    raw = socket.create_connection(("127.0.0.1", proxy_port), timeout=20)
    raw.sendall(("CONNECT %s:%d HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (host, port, host, port)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = raw.recv(1)
        if not chunk:
            print(json.dumps({"error": "closed after CONNECT"}), flush=True)
            sys.exit(1)
        head += chunk
    if not head.startswith(b"HTTP/1.1 200"):
        print(json.dumps({"error": "CONNECT answered " + head.decode("latin-1").split("\r\n")[0]}), flush=True)
        sys.exit(1)
    context = ssl.create_default_context(cafile=ca_file)
    context.set_alpn_protocols(["h2"])
    sock = context.wrap_socket(raw, server_hostname=host)
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    message = b"ping through the proxy"
    stream = conn.get_next_available_stream_id()
    conn.send_headers(stream, [(":method", "POST"), (":scheme", "https"), (":authority", "%s:%d" % (host, port)),
                               (":path", "/grpc?status=" + status), ("content-type", "application/grpc"),
                               ("te", "trailers")])
    conn.send_data(stream, b"\x00" + struct.pack("!I", len(message)) + message, end_stream=True)
    sock.sendall(conn.data_to_send())
    result = {"alpn": sock.selected_alpn_protocol(), "status": None, "content_type": None, "messages": [],
              "trailers": {}, "ended": False}
    body = b""
    while not result["ended"]:
        data = sock.recv(65536)
        if not data:
            break
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                headers = dict(event.headers)
                result["status"] = int(headers.get(":status", "0"))
                result["content_type"] = headers.get("content-type")
            elif isinstance(event, h2.events.DataReceived):
                body += event.data
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.TrailersReceived):
                result["trailers"] = dict(event.headers)
            elif isinstance(event, h2.events.StreamEnded):
                result["ended"] = True
            elif isinstance(event, h2.events.StreamReset):
                result["reset"] = event.error_code
                result["ended"] = True
        sock.sendall(conn.data_to_send())
    while len(body) >= 5:
        length = struct.unpack("!I", body[1:5])[0]
        result["messages"].append(body[5:5 + length].decode("latin-1"))
        body = body[5 + length:]
    print(json.dumps(result), flush=True)


main()
