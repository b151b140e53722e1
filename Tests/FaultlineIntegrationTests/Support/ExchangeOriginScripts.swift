/// Python origins for the exchange-safety tests (pool reuse, retries, pipelining, streaming).
enum ExchangeOriginScripts {
    /// An origin that logs every request head as it arrives (`conn N head METHOD TARGET`),
    /// every request it parses whole (`conn N request METHOD TARGET body=B`),
    /// every connection it drops (`conn N dropped METHOD TARGET`) and every close
    /// (`conn N closed-by-peer`), and answers `200 ok METHOD TARGET` with keep-alive.
    ///
    /// - `/once`: answers, then drops the connection when the next request head arrives,
    ///   without answering it (a keep-alive timeout that races with reuse)
    /// - `/bye`: answers, then closes at once without `Connection: close`
    /// - `/close-after-read`: reads the request, then closes without answering
    static let counting = PythonOriginPrelude.source + #"""
def handle(sock, n):
    conn = Conn(sock, n)
    drop_next = False
    while True:
        request_line = conn.line().decode("latin-1")
        lower = {name.strip().lower(): value for name, value in fields(conn)}
        method, target = (request_line.split(" ") + ["", ""])[:2]
        if drop_next:
            log("conn %d dropped %s %s" % (n, method, target))
            sock.close()
            return
        log("conn %d head %s %s" % (n, method, target))
        body, _ = read_body(conn, lower)
        log("conn %d request %s %s body=%s" % (n, method, target, body.decode("latin-1")))
        if target == "/close-after-read":
            sock.close()
            log("conn %d closed-by-origin" % n)
            return
        payload = ("ok %s %s" % (method, target)).encode()
        sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(payload) + payload)
        if target == "/bye":
            sock.close()
            log("conn %d closed-by-origin" % n)
            return
        if target == "/once":
            drop_next = True

serve(handle)
"""#

    /// Server-sent events, one every 300 ms (`gap=S` seconds instead), each carrying the
    /// wall-clock time it was written (`data: 1733050000.123456`). `/sse-chunked` frames them
    /// as chunks, `/sse-close` writes them raw with the end marked by close. `?n=N` events
    /// (default 6).
    static let timedEvents = PythonOriginPrelude.source + #"""
def handle(sock, n):
    target = Conn(sock, n).until(b"\r\n\r\n").split(b"\r\n")[0].split(b" ")[1].decode()
    query = dict(part.split("=", 1) for part in target.partition("?")[2].split("&") if "=" in part)
    count = int(query.get("n", "6"))
    gap = float(query.get("gap", "0.3"))
    chunked = target.startswith("/sse-chunked")
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if chunked:
        sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n")
    else:
        sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n")
    for i in range(count):
        time.sleep(0.3 if i == 0 else gap)
        event = b"id: %d\ndata: %.6f\n\n" % (i, time.time())
        sock.sendall(b"%x\r\n%s\r\n" % (len(event), event) if chunked else event)
    time.sleep(0.3)
    if chunked:
        sock.sendall(b"0\r\n\r\n")

serve(handle, quiet=True)
"""#
}

extension OriginProcess {
    /// `ExchangeOriginScripts.counting`.
    static func counting() async throws -> OriginProcess {
        try await python(ExchangeOriginScripts.counting)
    }

    /// `ExchangeOriginScripts.timedEvents`.
    static func timedEvents() async throws -> OriginProcess {
        try await python(ExchangeOriginScripts.timedEvents)
    }

    /// The request lines the counting origin logged for `method target`.
    func requests(_ method: String, _ target: String) -> [String] {
        output.settledLines.map(\.text).filter { $0.contains(" request \(method) \(target) ") }
    }
}
