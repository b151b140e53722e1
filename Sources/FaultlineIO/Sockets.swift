private import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Thin, non-blocking socket system calls for the connection classes above.
public enum Sockets {
    /// `SOCK_STREAM` as an `Int32`. Spelled here, in a file that imports CLinux: in a
    /// whole-module (release) build the C enum behind it is attributed to CLinux, whose
    /// <sys/socket.h> is read first, and a file importing only Glibc cannot see it.
    static let streamType = Int32(SOCK_STREAM.rawValue)

    /// Result of a non-blocking read.
    public enum ReadResult {
        /// This many bytes arrived.
        case bytes(Int)
        /// Nothing to read now.
        case wouldBlock
        /// The peer closed its side.
        case endOfFile
        /// The read failed.
        case failed(IOError)
    }

    /// Seconds a deferred-accept listener keeps a silent connection from `accept` (Linux turns
    /// it into one SYN-ACK retransmission, about a second): a client that has sent nothing by
    /// then is accepted when it answers the retransmission, and served as any other.
    static let deferAcceptSeconds: Int32 = 1

    /// A listening TCP socket bound to `address`, non-blocking, with SO_REUSEPORT so that each
    /// event loop can own one. With `deferAccept`, a connection reaches `accept` with its first
    /// bytes (TCP_DEFER_ACCEPT, nginx's `deferred`, HAProxy's `defer-accept`): the loop is woken
    /// once per connection, the request already readable, instead of once for the handshake and
    /// again for the request; on loopback the client's core pays for each of those wake-ups.
    public static func listen(on address: SocketAddress, reusePort: Bool, deferAccept: Bool = false,
                              backlog: Int32 = 1024) throws(IOError) -> Int32 {
        let fd = cl_socket_nonblocking(address.isIPv6 ? AF_INET6 : AF_INET, streamType)
        guard fd >= 0 else { throw IOError.last("socket") }
        _ = cl_set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        if reusePort { _ = cl_set_int_option(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
        // Accepted sockets inherit it on Linux: no setsockopt per connection.
        _ = cl_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let error = IOError.last("bind \(address)")
            close(fd)
            throw error
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let error = IOError.last("listen \(address)")
            close(fd)
            throw error
        }
        // Accepted sockets start with delayed acknowledgements, as HAProxy's
        // `tcp-smart-accept` has them: the client's first request is acknowledged by the
        // response rather than by a bare ACK of its own, a packet fewer per new connection
        // for both kernels to handle. After listen(), which resets the acknowledgement state.
        _ = cl_set_int_option(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, 0)
        if deferAccept { _ = cl_set_int_option(fd, Int32(IPPROTO_TCP), TCP_DEFER_ACCEPT, deferAcceptSeconds) }
        return fd
    }

    /// `count` listening sockets on one address, one per event loop, sharing the port through
    /// SO_REUSEPORT; returns them with the address actually bound (the real port for port 0).
    ///
    /// A fixed port is first bound once without SO_REUSEPORT: otherwise a second process of the
    /// same user could silently share the port and take half the connections. `deferAccept` as
    /// for `listen(on:reusePort:deferAccept:backlog:)`.
    public static func listenGroup(on address: SocketAddress, count: Int,
                                   deferAccept: Bool = false) throws(IOError) -> (fds: [Int32], bound: SocketAddress) {
        if address.port != 0 {
            close(try listen(on: address, reusePort: false))
        }
        let first = try listen(on: address, reusePort: true, deferAccept: deferAccept)
        guard let bound = localAddress(of: first) else {
            let error = IOError.last("getsockname")
            close(first)
            throw error
        }
        var fds = [first]
        for _ in 1..<max(1, count) {
            do {
                fds.append(try listen(on: bound, reusePort: true, deferAccept: deferAccept))
            } catch {
                fds.forEach(close)
                throw error
            }
        }
        return (fds, bound)
    }

    /// Starts a non-blocking connect; returns the descriptor (connection may be in progress).
    public static func connect(to address: SocketAddress) throws(IOError) -> Int32 {
        let fd = cl_socket_nonblocking(address.isIPv6 ? AF_INET6 : AF_INET, streamType)
        guard fd >= 0 else { throw IOError.last("socket") }
        let result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        if result != 0 && cl_errno() != EINPROGRESS {
            let error = IOError.last("connect to \(address)")
            close(fd)
            throw error
        }
        _ = cl_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        return fd
    }

    /// Accepts one pending connection, non-blocking; nil when none is waiting. TCP_NODELAY
    /// comes from the listening socket (`listen(on:reusePort:)`).
    public static func accept(_ listener: Int32) throws(IOError) -> (fd: Int32, peer: SocketAddress?)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { cl_accept4(listener, $0, &length) }
        }
        if fd < 0 {
            let code = cl_errno()
            if code == EAGAIN || code == EWOULDBLOCK || code == ECONNABORTED || code == EINTR { return nil }
            throw IOError("accept", code: code)
        }
        return (fd, withUnsafePointer(to: &storage) { SocketAddress.from($0) })
    }

    /// The address a socket is bound to (to learn an ephemeral port).
    public static func localAddress(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        return withUnsafePointer(to: &storage) { SocketAddress.from($0) }
    }

    /// Reads into `buffer` without blocking. `recv`, not `read`: on a socket `read` also
    /// passes the file layer's permission and notification hooks, twice per proxied request.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let count = Glibc.recv(fd, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfFile }
            let code = cl_errno()
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            return .failed(IOError("read", code: code))
        }
    }

    /// Writes as much of `bytes` as the socket takes now; returns the count written (0 if full).
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, IOError> {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .success(0) }
        while true {
            let count = cl_send_nosignal(fd, base, bytes.count)
            if count >= 0 { return .success(Int(count)) }
            let code = cl_errno()
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .success(0) }
            return .failed(IOError("write", code: code))
        }
    }

    /// Writes two buffers with one system call.
    public static func write(_ fd: Int32, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Result<Int, IOError> {
        var vectors = (iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
                       iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count))
        while true {
            let count = withUnsafePointer(to: &vectors) { pointer in
                pointer.withMemoryRebound(to: iovec.self, capacity: 2) { cl_writev(fd, $0, 2) }
            }
            if count >= 0 { return .success(count) }
            let code = cl_errno()
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .success(0) }
            return .failed(IOError("write", code: code))
        }
    }

    /// The pending error of a socket (after a non-blocking connect), 0 if none.
    public static func pendingError(_ fd: Int32) -> Int32 {
        cl_socket_error(fd)
    }

    /// Bytes received and not yet read, or -1 if unknown.
    public static func readableBytes(_ fd: Int32) -> Int {
        Int(cl_readable_bytes(fd))
    }

    /// Shuts the write side (FIN) after everything queued is sent.
    public static func shutdownWrite(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Arranges for `close` to send RST instead of FIN.
    public static func setResetOnClose(_ fd: Int32) {
        _ = cl_set_linger_zero(fd)
    }

    /// Closes a descriptor.
    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}

extension Result where Failure == IOError {
    /// Shorthand used by `Sockets`.
    static func failed(_ error: IOError) -> Result { .failure(error) }
}
