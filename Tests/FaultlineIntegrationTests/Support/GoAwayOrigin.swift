import Foundation
import FaultlineTestSupport

/// An h2c origin that answers the first stream of each connection (`200`, body `conn N`)
/// and answers any later stream with GOAWAY (last stream id 1, NO_ERROR) instead, leaving it
/// unprocessed; `/cut` gets a 200 head, `hello` and RST_STREAM INTERNAL_ERROR on any stream.
/// Logs `conn N stream S request PATH` and `conn N goaway S`.
final class GoAwayOrigin: Sendable {
    let process: PythonScriptProcess

    var port: Int { process.port }
    var output: OutputLog { process.output }
    var requests: [String] { output.settledLines.map(\.text).filter { $0.contains(" request ") } }

    private init(process: PythonScriptProcess) {
        self.process = process
    }

    static func start() async throws -> GoAwayOrigin {
        GoAwayOrigin(process: try await PythonScriptProcess.start("goaway_origin.py", source: source,
                                                                  marker: "goaway origin listening on "))
    }

    func kill() { process.kill() }

    private static let source = #"""
    import socket, sys, threading
    import h2.config, h2.connection, h2.events
    LOCK = threading.Lock()

    def log(line):
        # One write per line under a lock: threads must not interleave their lines.
        with LOCK:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    log("goaway origin listening on 127.0.0.1:%d" % listener.getsockname()[1])

    def serve(sock, number):
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        conn.initiate_connection()
        sock.sendall(conn.data_to_send())
        while True:
            data = sock.recv(65536)
            if not data:
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.RequestReceived):
                    path = dict(event.headers).get(":path")
                    log("conn %d stream %d request %s" % (number, event.stream_id, path))
                    if path == "/cut":
                        conn.send_headers(event.stream_id, [(":status", "200"), ("content-type", "text/plain")])
                        conn.send_data(event.stream_id, b"hello")
                        conn.reset_stream(event.stream_id, 2)
                    elif event.stream_id == 1:
                        body = ("conn %d" % number).encode()
                        conn.send_headers(1, [(":status", "200"), ("content-length", str(len(body)))])
                        conn.send_data(1, body, end_stream=True)
                    else:
                        conn.close_connection(last_stream_id=1)
                        log("conn %d goaway %d" % (number, event.stream_id))
            sock.sendall(conn.data_to_send())
        log("conn %d closed" % number)
        sock.close()

    number = 0
    while True:
        sock, _ = listener.accept()
        number += 1
        threading.Thread(target=serve, args=(sock, number), daemon=True).start()
    """#
}
