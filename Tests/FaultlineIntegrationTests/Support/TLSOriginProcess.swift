import Foundation
import FaultlineTestSupport

/// An HTTPS origin in a child process, serving a certificate chain on an ephemeral loopback
/// port: Python's `http.server` wrapped by `ssl.SSLContext.wrap_socket`, or `openssl s_server -www`.
///
/// The Python origin logs every event as a line on stdout:
/// `conn N tcp` (accepted), `conn N open TLSv1.3 full|resumed` (handshake done), `conn N handshake-failed …`,
/// `conn N request GET /path HTTP/1.1`, `conn N closed`. Every request gets 200 JSON
/// `{"conn": N, "path": "/path", "tls": "TLSv1.3"}`.
final class TLSOriginProcess: Sendable {
    let child: ChildProcess
    let port: Int
    private let directory: TemporaryDirectory

    var output: OutputLog { child.output }

    private init(child: ChildProcess, port: Int, directory: TemporaryDirectory) {
        self.child = child
        self.port = port
        self.directory = directory
    }

    /// The Python origin serving `chain` (leaf first, then intermediates) with `key`.
    static func python(chain: String, key: String) async throws -> TLSOriginProcess {
        let process = try await PythonScriptProcess.start("tls_origin.py", source: pythonSource, marker: "tls origin listening on ") { _ in
            [chain, key]
        }
        return TLSOriginProcess(child: process.child, port: process.port, directory: process.directory)
    }

    /// `openssl s_server -www` serving `certificate` with `key`, sending `chain` (extra certificates) after it.
    static func openSSL(certificate: String, key: String, chain: String) async throws -> TLSOriginProcess {
        let directory = try TemporaryDirectory()
        let port = try FreePort.available()
        let child = try ChildProcess(executable: "/usr/bin/openssl",
                                     arguments: ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key,
                                                 "-cert_chain", chain, "-www", "-naccept", "50"],
                                     directory: directory.url)
        try await child.output.waitForLine(containing: "ACCEPT", timeout: .seconds(10))
        return TLSOriginProcess(child: child, port: port, directory: directory)
    }

    /// Lines `conn N request …` logged so far (Python origin).
    var requests: [String] { output.settledLines.map(\.text).filter { $0.contains(" request ") } }
    /// Completed TLS handshakes (`conn N open …`) so far (Python origin).
    var handshakes: [String] { output.settledLines.map(\.text).filter { $0.hasPrefix("conn ") && $0.contains(" open ") } }
    /// Handshakes that resumed an earlier session (Python origin).
    var resumedHandshakes: [String] { handshakes.filter { $0.hasSuffix(" resumed") } }
    /// Accepted TCP connections (`conn N tcp`) so far (Python origin).
    var connections: [String] { output.settledLines.map(\.text).filter { $0.hasPrefix("conn ") && $0.hasSuffix(" tcp") } }

    func kill() { child.kill() }

    static let pythonSource = PythonOriginPrelude.log + #"""
import http.server, ssl

chain, key = sys.argv[1], sys.argv[2]
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(chain, key)
counter = [0]

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        with lock:
            counter[0] += 1
            self.conn_id = counter[0]
        log("conn %d tcp" % self.conn_id)
        self.request.settimeout(30)
        try:
            self.request.do_handshake()
        except (ssl.SSLError, OSError) as error:
            log("conn %d handshake-failed %s" % (self.conn_id, error))
            raise
        log("conn %d open %s %s" % (self.conn_id, self.request.version(), "resumed" if self.request.session_reused else "full"))
        super().setup()

    def answer(self):
        log("conn %d request %s" % (self.conn_id, self.requestline))
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        body = json.dumps({"conn": self.conn_id, "path": self.path, "tls": self.request.version()}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = answer
    do_POST = answer
    do_HEAD = answer

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass
        log("conn %d closed" % self.conn_id)

    def log_message(self, *args):
        pass

class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def get_request(self):
        sock, address = self.socket.accept()
        return context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False), address

    def handle_error(self, request, client_address):
        pass

server = Server(("127.0.0.1", 0), Handler)
log("tls origin listening on 127.0.0.1:%d" % server.server_address[1])
server.serve_forever()
"""#
}
