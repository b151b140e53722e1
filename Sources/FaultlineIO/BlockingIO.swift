private import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Blocking descriptor I/O for command-line tools and probes, never for an event loop:
/// a TCP connect with a timeout trying every address of a name, whole writes, reading to the
/// end, files created for output. The event loop's sockets are `Sockets` and `StreamSocket`.
public enum BlockingIO {
    /// Standard output's descriptor.
    public static let standardOutput: Int32 = 1
    /// Standard error's descriptor.
    public static let standardError: Int32 = 2

    /// Connects to `host` (a name, an IP literal, or one in brackets) and `port`, trying each
    /// address in turn; sends and receives on the socket then time out after `timeoutMs`.
    /// Returns the descriptor and the numeric address it reached.
    public static func connect(host: String, port: UInt16, timeoutMs: Int) throws(BlockingConnectFailure) -> (fd: Int32, address: String) {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(bare, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .resolve(gai_strerror(status).map { String(cString: $0) } ?? "error \(status)")
        }
        defer { freeaddrinfo(first) }
        var attempts: [BlockingConnectFailure.Attempt] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            let address = numeric(info.pointee.ai_addr, info.pointee.ai_addrlen, port: port)
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                attempts.append(.init(address: address, code: cl_errno(), timedOut: false, refused: false))
                continue
            }
            // Linux applies SO_SNDTIMEO to connect().
            setTimeouts(fd, milliseconds: timeoutMs)
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return (fd, address) }
            let code = cl_errno()
            _ = Glibc.close(fd)
            attempts.append(.init(address: address, code: code, timedOut: code == EINPROGRESS || code == EAGAIN,
                                  refused: code == ECONNREFUSED))
        }
        throw .connect(attempts)
    }

    /// Sets the receive and send timeouts of a blocking socket (at least 1 ms).
    public static func setTimeouts(_ fd: Int32, milliseconds: Int) {
        let milliseconds = max(milliseconds, 1)
        var value = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `bytes` to a socket (no SIGPIPE) or, with `socket` false, to a file or
    /// a standard stream.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, socket: Bool = false) throws(IOError) {
        let code = write(fd, bytes, socket: socket)
        if code != 0 { throw IOError("write", code: code) }
    }

    /// `writeAll` for bytes in an array.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], socket: Bool = false) throws(IOError) {
        let code = bytes.withUnsafeBytes { write(fd, $0, socket: socket) }
        if code != 0 { throw IOError("write", code: code) }
    }

    /// Writes all of `bytes`; 0, or the errno of the write that failed.
    private static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, socket: Bool) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return 0 }
            let written = socket ? Int(cl_send_nosignal(fd, base + offset, bytes.count - offset))
                                 : Glibc.write(fd, base + offset, bytes.count - offset)
            if written < 0 && cl_errno() == EINTR { continue }
            if written < 0 { return cl_errno() }
            if written == 0 { return EIO }
            offset += written
        }
        return 0
    }

    /// Reads until the peer closes; a receive timeout throws an error whose `wouldBlock` is true.
    public static func readToEnd(_ fd: Int32) throws(IOError) -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return data
            } else if cl_errno() != EINTR {
                throw IOError.last("read")
            }
        }
    }

    /// Creates (or truncates) the file at `path` for writing, with `permissions` when new.
    public static func create(path: String, permissions: UInt32) throws(IOError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(permissions))
        guard fd >= 0 else { throw IOError.last("open") }
        return fd
    }

    /// Closes `fd`, reporting a failure (a file's last write can fail only here).
    public static func close(_ fd: Int32) throws(IOError) {
        if Glibc.close(fd) != 0 { throw IOError.last("close") }
    }

    private static func numeric(_ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t, port: UInt16) -> String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard let address, getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else {
            return "?:\(port)"
        }
        let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.contains(":") ? "[\(text)]:\(port)" : "\(text):\(port)"
    }
}
