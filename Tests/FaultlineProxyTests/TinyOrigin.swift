import Foundation
import Synchronization
import FaultlineTestSupport
import FaultlineHTTP
import FaultlineHTTP2
#if canImport(Glibc)
import Glibc
#endif

/// An origin on loopback for the host harness, one thread per connection, keep-alive:
/// HTTP/1.1, or HTTP/2 with prior knowledge (`h2c`, a server-role `HTTP2Session`). A target
/// ending in `/bytes/N` answers N bytes of `x`, anything else `{"ok":true}`, both with
/// Content-Length. It counts the connections it accepted (the pool's reuse shows there).
final class TinyOrigin: @unchecked Sendable {
    let port: Int
    let h2c: Bool
    private let listener: Int32
    private let accepted = Atomic<Int>(0)

    /// Connections accepted so far.
    var connections: Int { accepted.load(ordering: .acquiring) }

    init(h2c: Bool = false) throws {
        self.h2c = h2c
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        guard listener >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = RawClient.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw TestFailure("bind/listen failed: errno \(errno)") }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: local.sin_port))
        let thread = Thread { [self] in self.acceptLoop() }
        thread.start()
    }

    /// Stops accepting (connections in progress end with their clients).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            accepted.add(1, ordering: .releasing)
            let thread = h2c ? Thread { Self.serveHTTP2(fd) } : Thread { Self.serve(fd) }
            thread.start()
        }
    }

    /// The body a target asks for.
    private static func body(for target: String) -> [UInt8] {
        if let marker = target.range(of: "/bytes/"), let count = Int(target[marker.upperBound...]),
           (0...1_000_000).contains(count) {
            return [UInt8](repeating: UInt8(ascii: "x"), count: count)
        }
        return Array(#"{"ok":true}"#.utf8)
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func serveHTTP2(_ fd: Int32) {
        defer { Glibc.close(fd) }
        guard let session = try? HTTP2Session(role: .server) else { return }
        var paths: [Int32: String] = [:]
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            var out: [UInt8] = []
            session.send(into: &out)
            if !out.isEmpty && !sendAll(fd, out) { return }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            for event in session.receive(Array(chunk[0..<count])) {
                switch event {
                case .headers(let id, let block):
                    paths[id] = block.path.map { String(decoding: $0, as: UTF8.self) } ?? "/"
                case .endStream(let id):
                    let body = Self.body(for: paths[id] ?? "/")
                    var fields = HTTPHeaders()
                    fields.add(name: ":status", value: "200")
                    fields.add(name: "content-type", value: "application/octet-stream")
                    fields.add(name: "content-length", value: String(body.count))
                    guard (try? session.submitResponse(streamID: id, fields: fields, endStream: false)) != nil else { continue }
                    session.sendBody(streamID: id, body)
                    session.finishBody(streamID: id)
                case .data(let id, let bytes):
                    session.consume(streamID: id, count: bytes.count)
                case .connectionError:
                    return
                default:
                    break
                }
            }
        }
    }

    private static func serve(_ fd: Int32) {
        defer { Glibc.close(fd) }
        var buffered: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            guard let end = buffered.firstRange(of: Array("\r\n\r\n".utf8)) else {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                buffered += chunk[0..<count]
                continue
            }
            let head = String(decoding: buffered[..<end.lowerBound], as: UTF8.self)
            buffered.removeSubrange(..<end.upperBound)
            let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let body = Self.body(for: target)
            let response = Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            guard sendAll(fd, response) else { return }
        }
    }
}
