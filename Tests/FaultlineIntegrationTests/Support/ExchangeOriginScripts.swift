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
    static let counting = PythonOriginScript.listenerPreamble + #"""
log("origin listening on 127.0.0.1:%d" % server.getsockname()[1])

class Closed(Exception):
    pass

def handle(sock, n):
    buf = b""
    drop_next = False
    log("conn %d open" % n)
    try:
        while True:
            while b"\r\n\r\n" not in buf:
                data = sock.recv(65536)
                if not data:
                    raise Closed()
                buf += data
            head, _, buf = buf.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, target = (lines[0].split(" ") + ["", ""])[:2]
            if not drop_next:
                log("conn %d head %s %s" % (n, method, target))
            if drop_next:
                log("conn %d dropped %s %s" % (n, method, target))
                sock.close()
                return
            length = 0
            chunked = False
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
                if name.strip().lower() == "transfer-encoding" and "chunked" in value.lower():
                    chunked = True
            body = b""
            if chunked:
                while True:
                    while b"\r\n" not in buf:
                        data = sock.recv(65536)
                        if not data:
                            raise Closed()
                        buf += data
                    size_line, _, buf = buf.partition(b"\r\n")
                    size = int(size_line.split(b";")[0], 16)
                    while len(buf) < size + 2:
                        data = sock.recv(65536)
                        if not data:
                            raise Closed()
                        buf += data
                    body += buf[:size]
                    buf = buf[size + 2:]
                    if size == 0:
                        break
            else:
                while len(buf) < length:
                    data = sock.recv(65536)
                    if not data:
                        raise Closed()
                    buf += data
                body, buf = buf[:length], buf[length:]
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
    except Closed:
        log("conn %d closed-by-peer" % n)
    except OSError as error:
        log("conn %d error %s" % (n, error))
    finally:
        try:
            sock.close()
        except OSError:
            pass

count = 0
while True:
    sock, _ = server.accept()
    count += 1
    threading.Thread(target=handle, args=(sock, count), daemon=True).start()
"""#

    /// Server-sent events, one every 300 ms, each carrying the wall-clock time it was
    /// written (`data: 1733050000.123456`). `/sse-chunked` frames them as chunks,
    /// `/sse-close` writes them raw with the end marked by close. `?n=N` events (default 6).
    static let timedEvents = PythonOriginScript.listenerPreamble + #"""
log("origin listening on 127.0.0.1:%d" % server.getsockname()[1])

def handle(sock):
    try:
        buf = b""
        while b"\r\n\r\n" not in buf:
            data = sock.recv(65536)
            if not data:
                return
            buf += data
        target = buf.split(b"\r\n")[0].split(b" ")[1].decode()
        count = int(target.split("n=")[1]) if "n=" in target else 6
        chunked = target.startswith("/sse-chunked")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if chunked:
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n")
        else:
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n")
        for i in range(count):
            time.sleep(0.3)
            event = b"id: %d\ndata: %.6f\n\n" % (i, time.time())
            sock.sendall(b"%x\r\n%s\r\n" % (len(event), event) if chunked else event)
        time.sleep(0.3)
        if chunked:
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass
    finally:
        sock.close()

while True:
    sock, _ = server.accept()
    threading.Thread(target=handle, args=(sock,), daemon=True).start()
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
        output.lines.map(\.text).filter { $0.contains(" request \(method) \(target) ") }
    }
}
