import FaultlineHTTP
import FaultlineIO
@testable import FaultlineDemoOrigin
#if canImport(Glibc)
import Glibc
#endif

/// A blocking loopback client whose every receive times out, so a test cannot hang.
final class DemoOriginTestClient {
    let fd: Int32
    private var buffered: [UInt8] = []

    init(port: UInt16, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DemoOriginTestError("socket: \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // Every stored property is set: a throw from here runs deinit, which closes `fd`
        // (closing it here too would close whatever descriptor took its number meanwhile).
        guard result == 0 else { throw DemoOriginTestError("connect: \(errno)") }
    }

    deinit { close(fd) }

    /// Sends all of `bytes` from any thread (blocking, bounded by the send timeout).
    @discardableResult
    static func sendAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    func send(_ bytes: [UInt8]) throws {
        guard DemoOriginTestClient.sendAll(fd: fd, bytes) else { throw DemoOriginTestError("send failed: \(errno)") }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a GET (or `method`) request with optional extra header lines.
    func request(_ method: String = "GET", _ target: String, headers: String = "", body: [UInt8] = []) throws {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: origin.test\r\n\(headers)"
        if !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
        try send(Array((text + "\r\n").utf8) + body)
    }

    /// One receive: what arrived, or empty at end of stream. Throws on timeout or error.
    func receiveSome() throws -> [UInt8] {
        if !buffered.isEmpty {
            defer { buffered = [] }
            return buffered
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw DemoOriginTestError("recv failed or timed out: errno \(errno)") }
        return Array(chunk[0..<count])
    }

    /// Exactly `count` bytes.
    func receive(exactly count: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count {
            let piece = try receiveSome()
            if piece.isEmpty { throw DemoOriginTestError("closed after \(out.count) of \(count) bytes") }
            out += piece
        }
        if out.count > count { buffered = Array(out[count...]) + buffered }
        return Array(out.prefix(count))
    }

    /// Everything until the server closes.
    func receiveUntilClosed() throws -> [UInt8] {
        var out: [UInt8] = []
        while true {
            let piece = try receiveSome()
            if piece.isEmpty { return out }
            out += piece
        }
    }

    /// Reads one response (a 100 Continue counts as one); leftover bytes stay for the next.
    func readResponse(toHead: Bool = false) throws -> DemoOriginTestResponse {
        let decoder = HTTP1Decoder(kind: .response)
        decoder.responseHasNoBody = toHead
        var response = DemoOriginTestResponse()
        var pending = buffered
        buffered = []
        while true {
            if pending.isEmpty {
                pending = try receiveSome()
                if pending.isEmpty {
                    let status = decoder.finish()
                    collect(decoder, from: [], into: &response)
                    if case .messageComplete = status { return response }
                    throw DemoOriginTestError("closed before the response was complete (\(status))")
                }
            }
            let status = pending.withUnsafeBytes { decoder.feed($0) }
            collect(decoder, from: pending, into: &response)
            switch status {
            case .needMore:
                pending = []
            case .messageComplete(let consumed), .upgraded(let consumed):
                buffered = Array(pending[consumed...])
                return response
            case .failed(let error):
                throw DemoOriginTestError("bad response: \(error)")
            }
        }
    }

    private func collect(_ decoder: HTTP1Decoder, from buffer: [UInt8], into response: inout DemoOriginTestResponse) {
        for event in decoder.events {
            switch event {
            case .head:
                let head = decoder.head
                response.status = head.status
                response.headers = head.headers
                response.chunked = head.isChunked
                response.contentLength = head.contentLength
            case .body(let range):
                response.body += buffer[range]
            case .trailers, .end:
                break
            }
        }
    }

    /// Shuts the sending side (FIN), keeping the receiving side open.
    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }
}
