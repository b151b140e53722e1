import Foundation
import FaultlineTestSupport

/// A TLS listener that selects ALPN `h2` and only counts what it receives: after each
/// handshake it logs `conn N open h2`, then `conn N received COUNT` when the peer closes,
/// COUNT being every application byte that arrived (0 when nothing was sent).
final class ByteCountingTLSOrigin: Sendable {
    let process: PythonScriptProcess

    var port: Int { process.port }
    var output: OutputLog { process.output }

    private init(process: PythonScriptProcess) {
        self.process = process
    }

    static func start(chain: String, key: String) async throws -> ByteCountingTLSOrigin {
        let process = try await PythonScriptProcess.start("counting_origin.py", source: source,
                                                          marker: "counting origin listening on ") { _ in [chain, key] }
        return ByteCountingTLSOrigin(process: process)
    }

    func kill() { process.kill() }

    private static let source = #"""
    import socket, ssl, sys, threading
    LOCK = threading.Lock()

    def log(line):
        # One write per line under a lock: threads must not interleave their lines.
        with LOCK:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    chain, key = sys.argv[1], sys.argv[2]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(chain, key)
    context.set_alpn_protocols(["h2"])
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    log("counting origin listening on 127.0.0.1:%d" % listener.getsockname()[1])

    def serve(sock, number):
        try:
            tls = context.wrap_socket(sock, server_side=True)
        except (OSError, ValueError) as error:
            log("conn %d handshake-failed %s" % (number, error))
            return
        log("conn %d open %s" % (number, tls.selected_alpn_protocol()))
        count = 0
        try:
            while True:
                data = tls.recv(65536)
                if not data:
                    break
                count += len(data)
        except OSError:
            pass
        log("conn %d received %d" % (number, count))

    number = 0
    while True:
        sock, _ = listener.accept()
        number += 1
        threading.Thread(target=serve, args=(sock, number), daemon=True).start()
    """#
}
