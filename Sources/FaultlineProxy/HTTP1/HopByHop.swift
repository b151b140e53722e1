import FaultlineHTTP

/// Which header fields stop at this hop (RFC 9110 §7.6.1): the fixed set plus those a message
/// names in its own Connection header.
///
/// A Connection list never removes Content-Length, Transfer-Encoding or Host: the head
/// writers compute framing and target themselves, and a message that names them is refused
/// by the decoder (`HTTPHeadViolation.connectionNamesFramingField`). Ignoring the tokens here
/// as well means no head, however it was built, loses its framing to a Connection token.
struct HopByHop {
    private var named: [[UInt8]] = []
    /// `Connection: close`: a field called `Close` is hop-by-hop too. A flag rather than an
    /// entry in `named`, so the common `Connection: close` allocates nothing.
    private var namesClose = false

    /// Reads the Connection header(s) of `headers`.
    init(_ headers: HTTPHeaders) {
        guard headers.namesSeen.contains(.connection) else { return }
        headers.forEachField { _, name, value in
            guard ASCII.equalsIgnoringCase(name, "connection") else { return true }
            ASCII.forEachListElement(value) { element in
                // Names dropped anyway (`Connection: keep-alive`) are not kept: the common
                // request then allocates nothing here.
                if Self.isFramingOrTarget(element) || Self.isAlwaysHopByHop(element) { return }
                if ASCII.equalsIgnoringCase(element, "close") {
                    namesClose = true
                    return
                }
                named.append(element.map(ASCII.lower))
            }
            return true
        }
    }

    /// Fields a Connection token may not remove.
    static func isFramingOrTarget(_ name: UnsafeRawBufferPointer) -> Bool {
        ASCII.equalsIgnoringCase(name, "content-length") || ASCII.equalsIgnoringCase(name, "transfer-encoding")
            || ASCII.equalsIgnoringCase(name, "host")
    }

    /// Whether field `name` must not be forwarded.
    func drops(_ name: UnsafeRawBufferPointer) -> Bool {
        if Self.isAlwaysHopByHop(name) { return true }
        if namesClose && ASCII.equalsIgnoringCase(name, "close") { return true }
        for candidate in named where candidate.count == name.count {
            let equal = candidate.withUnsafeBytes { ASCII.equalsIgnoringCase(name, $0) }
            if equal { return true }
        }
        return false
    }

    private static func isAlwaysHopByHop(_ name: UnsafeRawBufferPointer) -> Bool {
        switch name.count {
        case 2: ASCII.equalsIgnoringCase(name, "te")
        case 7: ASCII.equalsIgnoringCase(name, "trailer") || ASCII.equalsIgnoringCase(name, "upgrade")
        case 10: ASCII.equalsIgnoringCase(name, "connection") || ASCII.equalsIgnoringCase(name, "keep-alive")
        case 16: ASCII.equalsIgnoringCase(name, "proxy-connection")
        case 17: ASCII.equalsIgnoringCase(name, "transfer-encoding")
        case 18: ASCII.equalsIgnoringCase(name, "proxy-authenticate")
        default: false
        }
    }
}
