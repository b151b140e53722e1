#if canImport(Glibc)
import Glibc
#endif

/// Blocking TCP connect with a timeout, trying every address of a name in turn.
enum TLSSocketConnector {
    /// A connected socket and its numeric "address:port".
    static func connect(host: String, port: UInt16, timeoutMs: Int) throws(TLSProbeError) -> (Int32, String) {
        let bare = TLSClientContext.bareHost(host)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(bare, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let why = gai_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            throw .resolve("cannot resolve \(bare): \(why)")
        }
        defer { freeaddrinfo(first) }
        var failures: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            let address = numeric(info.pointee.ai_addr, info.pointee.ai_addrlen, port: port)
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { failures.append("\(address): \(TLSFileReader.errnoText(errno))"); continue }
            // Linux applies SO_SNDTIMEO to connect().
            TLSBlockingConnection.setTimeouts(fd, milliseconds: timeoutMs)
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                return (fd, address)
            }
            let code = errno
            close(fd)
            let why = code == EINPROGRESS || code == EAGAIN ? "timed out after \(timeoutMs) ms" : TLSFileReader.errnoText(code)
            failures.append("\(address): \(why)")
        }
        throw .connect("cannot connect to \(bare):\(port): " + failures.joined(separator: "; "))
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
