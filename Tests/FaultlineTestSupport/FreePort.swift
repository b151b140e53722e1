#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports for tests.
public enum FreePort {
    /// A port that nothing listens on. Its socket stays bound (never listening) for the life
    /// of the test process: a closed port could be handed to another test running in
    /// parallel, while a bound one cannot, and a connection to it is still refused.
    public static func closed() throws -> Int {
        try bindLoopback().port
    }

    /// A free port for a server the test is about to start (released at once; the server
    /// binds it right after, and retries with another if someone took it).
    public static func available() throws -> Int {
        let (fd, port) = try bindLoopback()
        close(fd)
        return port
    }

    /// A blocking socket listening on 127.0.0.1 at an ephemeral port, and that port; the
    /// caller closes the descriptor.
    public static func listening(backlog: Int32 = 8) throws -> (fd: Int32, port: Int) {
        let (fd, port) = try bindLoopback()
        guard listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw TestFailure("listen() failed: errno \(code)")
        }
        return (fd, port)
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func isListening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = RawClient.loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func bindLoopback() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        var address = RawClient.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw TestFailure("bind() failed: errno \(code)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
