import Foundation
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
        (listener, port) = try TLSTestSockets.listen()
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

/// Loopback sockets on ephemeral ports.
enum TLSTestSockets {
    /// A listening socket on 127.0.0.1 and its port.
    static func listen() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TLSTestCommandError(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 8) == 0 else {
            close(fd)
            throw TLSTestCommandError(description: "bind/listen failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// A port that was free a moment ago (the caller retries if someone takes it).
    static func freePort() throws -> UInt16 {
        let (fd, port) = try listen()
        close(fd)
        return port
    }

    /// Whether something accepts TCP connections on 127.0.0.1:port.
    static func isListening(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

/// `openssl s_server` on a free loopback port, stopped on `stop()`.
final class TLSTestOpenSSLServer {
    let port: UInt16
    private let process: Process

    init(_ arguments: [String]) throws {
        for _ in 0..<5 {
            let port = try TLSTestSockets.freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-quiet"] + arguments
            process.standardInput = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline, !TLSTestSockets.isListening(port) { usleep(20_000) }
            if process.isRunning, TLSTestSockets.isListening(port) {
                self.port = port
                self.process = process
                return
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()  // most likely EADDRINUSE: try another port
        }
        throw TLSTestCommandError(description: "openssl s_server did not start")
    }

    func stop() {
        // s_server does not always stop on SIGTERM while a connection is open.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
