#!/usr/bin/python3
"""tls_front: terminates TLS on an ephemeral loopback port and relays the bytes to a
cleartext server (the demo origin), so that its WebSocket and SSE endpoints can be reached
over HTTPS.

usage: tls_front.py CHAIN KEY TARGET_PORT

Prints `tls front listening on 127.0.0.1:PORT` when ready, then `conn N open` after each
handshake and `conn N closed` when both directions ended.
"""
import sys

sys.dont_write_bytecode = True

import socket
import ssl
import threading

LOCK = threading.Lock()


def log(line):
    with LOCK:
        print(line, flush=True)


def pump(source, sink, done):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    try:
        sink.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    done.release()


def serve(conn_id, client, context, target_port):
    try:
        tls = context.wrap_socket(client, server_side=True)
    except (ssl.SSLError, OSError) as error:
        log("conn %d handshake-failed %s" % (conn_id, error))
        client.close()
        return
    log("conn %d open" % conn_id)
    upstream = socket.create_connection(("127.0.0.1", target_port))
    done = threading.Semaphore(0)
    threading.Thread(target=pump, args=(tls, upstream, done), daemon=True).start()
    threading.Thread(target=pump, args=(upstream, tls, done), daemon=True).start()
    done.acquire()
    done.acquire()
    tls.close()
    upstream.close()
    log("conn %d closed" % conn_id)


def main():
    chain, key, target_port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(chain, key)
    context.set_alpn_protocols(["http/1.1"])
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    log("tls front listening on 127.0.0.1:%d" % listener.getsockname()[1])
    counter = 0
    while True:
        client, _ = listener.accept()
        counter += 1
        threading.Thread(target=serve, args=(counter, client, context, target_port), daemon=True).start()


main()
