#if canImport(Glibc)
import Glibc
#endif

/// Two connected Unix stream sockets, for driving socket code without a network.
public struct SocketPair: Sendable {
    /// One end.
    public let first: Int32
    /// The other end.
    public let second: Int32

    /// A new pair, close-on-exec; non-blocking ends when `nonBlocking` (what an event loop
    /// needs), blocking otherwise.
    public init(nonBlocking: Bool = true) throws {
        var fds: [Int32] = [-1, -1]
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
            throw TestFailure("socketpair() failed: errno \(errno)")
        }
        first = fds[0]
        second = fds[1]
    }

    /// Shrinks both send and receive buffers of `fd` to about `bytes`, so that a test
    /// fills them with little data.
    public static func shrinkBuffers(_ fd: Int32, to bytes: Int32) {
        var size = bytes
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
}
