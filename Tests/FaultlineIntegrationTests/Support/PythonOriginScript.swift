/// A small origin written in Python, whose behaviour is chosen by the request path. It logs
/// every connection event to stdout (`conn N open`, `conn N request GET /p HTTP/1.1`,
/// `conn N closed-by-peer`, `conn N error ...`) so tests can see what the proxy did upstream.
///
/// - `/headers` (and any other path): 200 JSON `{"method", "target", "headers": [[name, value]...],
///   "trailers": [[name, value]...], "body_bytes"}`; with `?then=close` the origin closes the
///   connection right after the response without announcing it (no `Connection: close`)
/// - `/trailers`: a chunked response with the trailer `X-Checksum: abc123`
/// - `/early-hints`: a 103 interim response, then 200 `final`
/// - `/garbage`: bytes that are not HTTP, then close
/// - `/both-lengths`, `/bad-length`: a response with both Content-Length and chunked, or an invalid length
/// - `/hang`: never answers; logs when the peer closes
/// - `/midbody`: `Content-Length: 100000`, 1000 bytes, then close
/// - `/midchunk`: chunked, one 1000-byte chunk, then close without the last chunk
/// - `/close-delimited?n=N`: N bytes (byte i = i % 251), no length, end marked by close
/// - `/slow?ms=M`: answers `slow done` after M milliseconds
/// - `/hop-fields`: 200 `hello` with two Via fields, `Connection: keep-alive, X-Hop`, the X-Hop
///   and Keep-Alive fields it names, and `X-Long` (3,000 bytes of `v`)
/// - `/drip`: a chunked response that sends a chunk every 100 ms until the peer goes away
enum PythonOriginScript {
    static let source = PythonOriginPrelude.source + #"""
from urllib.parse import urlsplit, parse_qs

def pattern(count):
    block = bytes(i % 251 for i in range(251))
    whole = block * (count // 251 + 1)
    return whole[:count]

def handle(sock, n):
    conn = Conn(sock, n)
    while True:
        request_line = conn.line().decode("latin-1")
        headers = [[name.strip(), value] for name, value in fields(conn)]
        log("conn %d request %s" % (n, request_line))
        method, target, _ = request_line.split(" ", 2)
        lower = {k.lower(): v for k, v in headers}
        body, trailers = read_body(conn, lower)
        trailers = [[name.strip(), value] for name, value in trailers]
        url = urlsplit(target)
        query = parse_qs(url.query)
        path = url.path
        if path == "/garbage":
            sock.sendall(b"SSH-2.0-NotHTTP \x00\x01\x02 garbage\r\n\r\n")
            sock.close()
            log("conn %d closed-by-origin" % n)
            return
        if path == "/both-lengths":
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            continue
        if path == "/hop-fields":
            sock.sendall(b"HTTP/1.1 200 OK\r\nVia: 1.0 cache-a\r\nContent-Type: text/plain\r\n"
                         b"Connection: keep-alive, X-Hop\r\nX-Hop: secret\r\nKeep-Alive: timeout=5\r\n"
                         b"via: 1.1 cache-b\r\nX-Long: " + b"v" * 3000 + b"\r\nContent-Length: 5\r\n\r\nhello")
            continue
        if path == "/bad-length":
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\nhello")
            continue
        if path == "/hang":
            conn.wait_close()
        if path == "/midbody":
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n" + b"x" * 1000)
            time.sleep(0.1)
            sock.close()
            log("conn %d closed-by-origin" % n)
            return
        if path == "/midchunk":
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n3e8\r\n" + b"x" * 1000 + b"\r\n")
            time.sleep(0.1)
            sock.close()
            log("conn %d closed-by-origin" % n)
            return
        if path == "/close-delimited":
            count = int(query.get("n", ["300000"])[0])
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n")
            sock.sendall(pattern(count))
            sock.close()
            log("conn %d closed-by-origin" % n)
            return
        if path == "/drip":
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
            sock.settimeout(0.1)
            try:
                while True:
                    sock.sendall(b"5\r\ndrip\n\r\n")
                    try:
                        if not sock.recv(65536):
                            raise Closed()
                    except socket.timeout:
                        pass
            except (Closed, OSError):
                log("conn %d closed-by-peer" % n)
                return
        if path == "/trailers":
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n"
                         b"5\r\nhello\r\n0\r\nX-Checksum: abc123\r\n\r\n")
            continue
        if path == "/early-hints":
            sock.sendall(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")
            time.sleep(0.05)
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nfinal")
            continue
        if path == "/slow":
            time.sleep(int(query.get("ms", ["1000"])[0]) / 1000.0)
            payload = b"slow done"
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(payload) + payload)
            continue
        payload = json.dumps({"method": method, "target": target, "headers": headers, "trailers": trailers, "body_bytes": len(body)}).encode()
        close = "close" in lower.get("connection", "").lower()
        sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%s\r\n" % (len(payload), b"Connection: close\r\n" if close else b"") + payload)
        if close or query.get("then") == ["close"]:
            sock.close()
            log("conn %d closed-by-origin" % n)
            return

serve(handle)
"""#
}
