import FaultlineIO
import FaultlineTLS

/// The hand-over to HTTP/2: a TLS client that negotiated `h2` by ALPN, or a client of an h2c
/// listener that opens with the HTTP/2 connection preface. The socket, its place in the
/// loop's connections and the bytes already read go to an `HTTP2Connection`.
extension DownstreamConnection: ClientConnection {
    /// The client connection preface of RFC 9113 §3.4.
    static let http2Preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// Whether the TLS handshake chose HTTP/2.
    var negotiatedHTTP2: Bool {
        (socket.transformer as? TLSSession)?.negotiatedALPN == "h2"
    }

    /// The preface's first line, `PRI * HTTP/2.0`: no HTTP/1 request starts with it.
    static let http2PrefaceLine = http2Preface.prefix(14)

    /// Whether the first bytes of an h2c listener's connection are HTTP/2's: (the start of)
    /// the preface, its first line followed by something else, or a complete first line that
    /// is no HTTP/1 request line (it does not end in ` HTTP/1.0` or ` HTTP/1.1`). nghttp2
    /// checks the preface, and an invalid one is a connection error (GOAWAY PROTOCOL_ERROR,
    /// RFC 9113 §3.4). An HTTP/1 request line, or a first read without a line end, is HTTP/1's,
    /// a 400 when the rest is not a request (docs/config.md, `h2c`).
    func opensAsHTTP2(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4 else { return false }
        if bytes.starts(with: Self.http2PrefaceLine) { return true }
        let count = min(bytes.count, Self.http2Preface.count)
        if bytes.prefix(count).elementsEqual(Self.http2Preface.prefix(count)) { return true }
        return Self.firstLineIsNotHTTP1(bytes)
    }

    /// The longest first line looked at: a request line the HTTP/1 side would take fits.
    static let firstLineScanLimit = 8192

    /// Whether `bytes` hold a whole first line (CRLF-terminated) that is no HTTP/1 request line.
    static func firstLineIsNotHTTP1(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let scanned = bytes.prefix(firstLineScanLimit)
        guard let lineFeed = scanned.firstIndex(of: 10), lineFeed > 0, scanned[lineFeed - 1] == 13 else { return false }
        let version = scanned[..<(lineFeed - 1)].suffix(9)
        return !version.elementsEqual(" HTTP/1.1".utf8) && !version.elementsEqual(" HTTP/1.0".utf8)
    }

    /// Hands the socket over; this connection is done without closing it.
    func handOverToHTTP2(initial bytes: UnsafeRawBufferPointer?) {
        deadline.disarm()
        phase = .closed
        do {
            let http2 = try HTTP2Connection(socket: socket, context: context, clientIP: clientIP, clientPort: clientPort,
                                            scheme: scheme, number: number, initial: bytes, interception: interception)
            context.connectionUpgraded(from: self, to: http2)
        } catch {
            socket.close()
            context.connectionClosed(self)
        }
    }
}
