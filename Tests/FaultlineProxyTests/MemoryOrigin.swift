import FaultlineIO
import FaultlineHTTP
import FaultlineHTTP2
import FaultlineMemoryIO

/// An origin on the in-memory network, keep-alive: HTTP/1.1, or HTTP/2 with prior knowledge
/// (`h2c`, a server-role `HTTP2Session`). A target ending in `/bytes/N`
/// answers N bytes of `x`, anything else `{"ok":true}`, both with Content-Length. It keeps
/// every connection it accepted, so tests see the pool's choices (how many, which closed).
final class MemoryOrigin {
    /// Every accepted connection's origin end, oldest first.
    private(set) var accepted: [MemoryEndpoint] = []
    /// Request targets in arrival order.
    private(set) var targets: [String] = []
    /// While set, requests are read but not answered (a slow origin).
    var holding = false
    private var held: [(MemoryEndpoint, String)] = []

    /// Connections accepted so far.
    var connections: Int { accepted.count }
    /// Accepted connections the proxy has not ended.
    var openConnections: Int { accepted.filter { !$0.isClosed && $0.peerEnd == .open }.count }

    init(network: MemoryNetwork, address: SocketAddress, h2c: Bool) {
        network.listen(at: address) { [unowned self] end in
            accepted.append(end)
            if h2c { serveHTTP2(end) } else { serveHTTP1(end) }
        }
    }

    /// Answers the requests `holding` kept back.
    func release() {
        holding = false
        let waiting = held
        held = []
        for (end, target) in waiting { end.send(Self.response(for: target)) }
    }

    static func body(for target: String) -> [UInt8] {
        if let marker = target.range(of: "/bytes/"), let count = Int(target[marker.upperBound...]),
           (0...1_000_000).contains(count) {
            return [UInt8](repeating: UInt8(ascii: "x"), count: count)
        }
        return Array(#"{"ok":true}"#.utf8)
    }

    static func response(for target: String) -> [UInt8] {
        let body = body(for: target)
        return Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    private func serveHTTP1(_ end: MemoryEndpoint) {
        var buffered: [UInt8] = []
        end.onActivity { [unowned self] end in
            buffered += end.receive()
            while let headEnd = buffered.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: buffered[..<headEnd.lowerBound], as: UTF8.self)
                buffered.removeSubrange(..<headEnd.upperBound)
                let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
                targets.append(target)
                if holding { held.append((end, target)) } else { end.send(Self.response(for: target)) }
            }
            // A proxy that ended its side gets the origin's close, as a server would send.
            if end.peerEnd != .open { end.close() }
        }
    }

    private func serveHTTP2(_ end: MemoryEndpoint) {
        guard let session = try? HTTP2Session(role: .server) else { return }
        var paths: [Int32: String] = [:]
        end.onActivity { [unowned self] end in
            for event in session.receive(end.receive()) {
                switch event {
                case .headers(let id, let block):
                    paths[id] = block.path.map { String(decoding: $0, as: UTF8.self) } ?? "/"
                case .endStream(let id):
                    let target = paths[id] ?? "/"
                    targets.append(target)
                    let body = Self.body(for: target)
                    var fields = HTTPHeaders()
                    fields.add(name: ":status", value: "200")
                    fields.add(name: "content-type", value: "application/octet-stream")
                    fields.add(name: "content-length", value: String(body.count))
                    guard (try? session.submitResponse(streamID: id, fields: fields, endStream: false)) != nil else { continue }
                    session.sendBody(streamID: id, body)
                    session.finishBody(streamID: id)
                case .data(let id, let bytes):
                    session.consume(streamID: id, count: bytes.count)
                default:
                    break
                }
            }
            var out: [UInt8] = []
            session.send(into: &out)
            if !out.isEmpty { end.send(out) }
            if end.peerEnd != .open { end.close() }
        }
    }
}
