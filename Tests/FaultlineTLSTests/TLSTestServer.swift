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
    private let process: Process

    init(_ arguments: [String]) throws {
        for _ in 0..<5 {
            let port = try FreePort.available()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-quiet"] + arguments
            process.standardInput = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline, !FreePort.isListening(port) { usleep(20_000) }
            if process.isRunning, FreePort.isListening(port) {
                self.port = UInt16(port)
                self.process = process
                return
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()  // most likely EADDRINUSE: try another port
        }
        throw TestFailure("openssl s_server did not start")
    }

    func stop() {
        // s_server does not always stop on SIGTERM while a connection is open.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
