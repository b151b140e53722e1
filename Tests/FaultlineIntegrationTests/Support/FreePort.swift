#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports for tests.
enum FreePort {
    /// A port that nothing listens on. Its socket stays bound (never listening) for the life
    /// of the test process: a closed port could be handed to another test running in
    /// parallel, while a bound one cannot, and a connection to it is still refused.
    static func closed() throws -> Int {
        try bindLoopback().port
    }

    /// A free port for a server the test is about to start (released at once; the server
    /// binds it right after).
    static func available() throws -> Int {
        let (fd, port) = try bindLoopback()
        close(fd)
        return port
    }

    private static func bindLoopback() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var address = RawClient.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            throw TestFailure("bind() failed")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
