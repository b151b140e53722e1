import Foundation
import FaultlineTestSupport

/// The HTTP/1.1 origin of the HTTP/2 conformance tests, in a child process: it logs every
/// request head as soon as it has read it (`conn N head {"method", "target"}`) and every
/// whole request as one JSON line (`conn N request {"method", "target", "headers",
/// "trailers", "body_bytes", "body_sha256"}`), so a test can say exactly what reached it and
/// what did not, and `conn N closed-by-peer` when the proxy drops an upstream connection.
///
/// - `/bytes/N`: N bytes of `x` with Content-Length
/// - `/drip`: a chunked response, a chunk every 50 ms until the peer goes away
/// - `/trailers`: a chunked `hello` with the trailer `X-Checksum: abc123`
/// - `/slowread?ms=M`: reads nothing of the body for M ms after the head, then all of it
/// - anything else: 200 `ok`
final class ConformanceOrigin: Sendable {
    private let process: PythonScriptProcess

    var port: Int { process.port }
    var output: OutputLog { process.output }

    private init(process: PythonScriptProcess) { self.process = process }

    static func start() async throws -> ConformanceOrigin {
        ConformanceOrigin(process: try await PythonScriptProcess.start("conformance-origin.py", source: script))
    }

    /// The requests logged so far, decoded. The origin logs a request before it answers, so
    /// after a response this includes its request (the log is settled first).
    var requests: [[String: Any]] {
        output.settledLines.compactMap { line -> [String: Any]? in
            guard let range = line.text.range(of: " request ") else { return nil }
            let json = Data(line.text[range.upperBound...].utf8)
            return (try? JSONSerialization.jsonObject(with: json)) as? [String: Any]
        }
    }

    /// The request heads logged so far (`method`, `target`), including those of requests
    /// whose body never came whole.
    var heads: [[String: Any]] {
        output.settledLines.compactMap { line -> [String: Any]? in
            guard let range = line.text.range(of: " head ") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.text[range.upperBound...].utf8))) as? [String: Any]
        }
    }

    /// The logged heads whose target starts with `prefix`.
    func heads(to prefix: String) -> [[String: Any]] {
        heads.filter { ($0["target"] as? String)?.hasPrefix(prefix) == true }
    }

    /// The logged requests whose target starts with `prefix`.
    func requests(to prefix: String) -> [[String: Any]] {
        requests.filter { ($0["target"] as? String)?.hasPrefix(prefix) == true }
    }

    /// How many upstream connections the proxy closed while the origin still served them.
    var closedByPeer: Int { output.settledLines.filter { $0.text.hasSuffix("closed-by-peer") }.count }

    func kill() { process.kill() }

    private static let script = PythonOriginPrelude.source + #"""
import hashlib
from urllib.parse import urlsplit, parse_qs

def handle(sock, n):
    conn = Conn(sock, n)
    while True:
        method, target, _ = conn.line().decode("latin-1").split(" ", 2)
        headers = fields(conn)
        log("conn %d head %s" % (n, json.dumps({"method": method, "target": target})))
        lower = {k.lower(): v for k, v in headers}
        url = urlsplit(target)
        if url.path == "/slowread":
            time.sleep(int(parse_qs(url.query).get("ms", ["1000"])[0]) / 1000.0)
        body, trailers = read_body(conn, lower)
        log("conn %d request %s" % (n, json.dumps({"method": method, "target": target, "headers": headers,
            "trailers": trailers, "body_bytes": len(body), "body_sha256": hashlib.sha256(body).hexdigest()})))
        if url.path.startswith("/bytes/"):
            count = int(url.path[len("/bytes/"):])
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n" % count)
            sock.sendall(b"x" * count)
        elif url.path == "/drip":
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
            try:
                while True:
                    sock.sendall(b"5\r\ndrip\n\r\n")
                    time.sleep(0.05)
            except OSError:
                raise Closed()
        elif url.path == "/trailers":
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n"
                         b"5\r\nhello\r\n0\r\nX-Checksum: abc123\r\n\r\n")
        else:
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")

serve(handle, errors=(OSError, ValueError))
"""#
}
