import Foundation
import FaultlineTestSupport
@testable import FaultlineTLS
#if canImport(Glibc)
import Glibc
#endif

/// A one-connection blocking HTTPS server driven by a `TLSServerContext`, for real clients
/// (curl, openssl s_client): answers one request with "hello" and records what happened.
final class TLSTestServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let context: TLSServerContext
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failureText: String?
    private var alpnText: String?

    init(context: TLSServerContext) throws {
        self.context = context
        let (fd, port) = try FreePort.listening()
        listener = fd
        self.port = UInt16(port)
        DispatchQueue.global().async { self.serveOne() }
    }

    /// Waits for the connection to end; returns the server-side failure, if any.
    func finish() -> (failure: String?, alpn: String?) {
        _ = finished.wait(timeout: .now() + 20)
        close(listener)
        return lock.withLock { (failureText, alpnText) }
    }

    private func serveOne() {
        defer { finished.signal() }
        TLSBlockingConnection.setTimeouts(listener, milliseconds: 15_000)
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { record("accept failed"); return }
        let connection = TLSBlockingConnection(fd: fd, session: context.makeSession(), timeoutMs: 10_000)
        defer { connection.close() }
        do {
            try connection.handshake()
            lock.withLock { alpnText = connection.session.negotiatedALPN }
            while !String(decoding: connection.plaintext, as: UTF8.self).contains("\r\n\r\n") {
                guard try connection.read() else { break }
            }
            try connection.write(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".utf8))
        } catch {
            record(error.description)
        }
    }

    private func record(_ text: String) { lock.withLock { failureText = text } }
}

/// `openssl s_server` on a free loopback port, stopped on `stop()`.
final class TLSTestOpenSSLServer {
    let port: UInt16
    private let process: ChildProcess

    init(_ arguments: [String]) throws {
        for _ in 0..<5 {
            let port = try FreePort.available()
            // stdin held open: s_server reads commands from it and would act on end of input.
            let process = try ChildProcess(executable: "/usr/bin/openssl",
                                           arguments: ["s_server", "-accept", "127.0.0.1:\(port)", "-quiet"] + arguments,
                                           standardOutput: .discard, standardError: .discard, holdStandardInput: true)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline, !FreePort.isListening(port) { usleep(20_000) }
            if process.isRunning, FreePort.isListening(port) {
                self.port = UInt16(port)
                self.process = process
                return
            }
            // Most likely EADDRINUSE: try another port (dropping the child kills it).
        }
        throw TestFailure("openssl s_server did not start")
    }

    func stop() {
        // s_server does not always stop on SIGTERM while a connection is open.
        process.kill()
    }
}
