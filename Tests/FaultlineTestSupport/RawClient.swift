import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP client for exact bytes: malformed requests, pipelining, WebSocket frames.
/// Every read is bounded by SO_RCVTIMEO. Use it inside `Blocking.run`, from one task at a time.
public final class RawClient: @unchecked Sendable {
    private var fd: Int32

    /// Connects to 127.0.0.1:`port`; every read waits at most `readTimeout`.
    public init(port: Int, readTimeout: Duration = .seconds(5)) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        var address = RawClient.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            // The object is whole once `fd` is set, so `deinit` runs after this throw: mark
            // the descriptor closed, or it closes the number again (maybe another test's by then).
            Glibc.close(fd)
            fd = -1
            throw TestFailure("connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
        let seconds = readTimeout.components.seconds
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(readTimeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Wraps a connected descriptor (one end of a `SocketPair`, made blocking); every read
    /// waits at most `readTimeout`. The client closes it.
    public init(fd: Int32, readTimeout: Duration = .seconds(5)) {
        self.fd = fd
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        let seconds = readTimeout.components.seconds
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(readTimeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The local port of the connection (its source port), 0 if it cannot be read.
    public var localPort: Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let read = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return read == 0 ? Int(UInt16(bigEndian: address.sin_port)) : 0
    }

    /// 127.0.0.1:`port` as a C address.
    public static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Writes all of `bytes` in as few writes as the kernel allows.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw TestFailure("send failed: errno \(errno)")
            }
            offset += written
        }
    }

    /// Writes `text` as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// What one read saw.
    public enum ReadResult {
        /// Bytes arrived.
        case bytes([UInt8])
        /// The peer closed (EOF).
        case closed
        /// Nothing arrived within the read timeout.
        case timedOut
        /// The connection was reset.
        case reset
    }

    /// One read: some bytes, EOF, a timeout (SO_RCVTIMEO), or a reset.
    public func readSome() -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(Array(buffer[0..<count])) }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .timedOut
            default: return .reset
            }
        }
    }

    /// Reads until the peer closes (or resets) or `timeout` passes; reports which.
    public func readUntilClose(timeout: Duration = .seconds(5)) -> (bytes: [UInt8], closed: Bool) {
        let end = ContinuousClock.now + timeout
        var received: [UInt8] = []
        while ContinuousClock.now < end {
            switch readSome() {
            case .bytes(let bytes): received += bytes
            case .closed, .reset: return (received, true)
            case .timedOut: continue
            }
        }
        return (received, false)
    }

    /// Reads until `count` complete responses have arrived (see `HTTPResponseParser`),
    /// the peer closes, or `timeout` passes.
    public func readResponses(_ count: Int, timeout: Duration = .seconds(5), headRequests: Int = 0) -> (responses: [ParsedResponse], closed: Bool) {
        let end = ContinuousClock.now + timeout
        var received: [UInt8] = []
        while ContinuousClock.now < end {
            let parsed = HTTPResponseParser.parse(received)
            if parsed.count >= count { return (parsed, false) }
            switch readSome() {
            case .bytes(let bytes): received += bytes
            case .closed, .reset: return (HTTPResponseParser.parse(received), true)
            case .timedOut: continue
            }
        }
        return (HTTPResponseParser.parse(received), false)
    }

    /// Reads until `marker` appears in what was received, or `timeout` passes.
    public func read(until marker: String, timeout: Duration = .seconds(5)) -> [UInt8] {
        let end = ContinuousClock.now + timeout
        let needle = Array(marker.utf8)
        var received: [UInt8] = []
        while ContinuousClock.now < end {
            if received.firstRange(of: needle) != nil { return received }
            switch readSome() {
            case .bytes(let bytes): received += bytes
            case .closed, .reset: return received
            case .timedOut: continue
            }
        }
        return received
    }

    /// Ends the sending side (a FIN) and keeps reading: the peer sees the client stop.
    public func shutdownWrite() {
        if fd >= 0 { _ = shutdown(fd, Int32(SHUT_WR)) }
    }

    /// Closes the connection; harmless when already closed.
    public func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { close() }
}
