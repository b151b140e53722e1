public import FaultlineHTTP

extension HTTP2HeaderBlock {
    /// The request as an HTTP/1.1 head for an HTTP/1 upstream (RFC 9113 §8.3): the target from
    /// `:path`, Host from `:authority` (a Host field that disagrees is refused, one that agrees
    /// is folded into it), cookie crumbs joined with "; " into one field where the first was,
    /// Content-Length as declared and chunked framing for a body of unknown length.
    public func requestHead() throws(HTTP2MessageViolation) -> HTTPHead {
        guard kind == .request else { throw .notAHead }
        guard let method else { throw .missingPseudoHeader(":method") }
        var head = HTTPHead()
        head.method = String(decoding: method, as: UTF8.self)
        if head.method == "CONNECT" {
            guard let authority else { throw .missingPseudoHeader(":authority") }
            head.target = authority
        } else {
            guard let path else { throw .missingPseudoHeader(":path") }
            let absolute = path.first == UInt8(ascii: "/")
            let asterisk = path == [UInt8(ascii: "*")] && head.method == "OPTIONS"
            guard absolute || asterisk else { throw .invalidPath }
            head.target = path
        }
        head.headers.reserveCapacity(bytes: fields.bytes.count + (authority?.count ?? 0) + 8, fields: fields.count + 1)
        if let authority {
            guard HTTPAuthority(authority) != nil else { throw .invalidAuthority }
            try checkHostAgrees(with: authority)
            authority.withUnsafeBytes { head.headers.add(name: HTTPHead.raw("host"), value: $0) }
        }
        appendRegularFields(to: &head, dropHost: authority != nil)
        if let index = head.headers.firstIndex(of: "content-length") {
            head.contentLength = UInt64(head.headers.value(at: index))
        }
        head.isChunked = !endsStream && head.contentLength == nil
        do {
            try head.validateRequest()
        } catch {
            throw .head(error)
        }
        return head
    }

    /// The response as an HTTP/1.1 head (client role, for an HTTP/1 client): `:status` and the
    /// fields as they are; chunked framing for a body of unknown length.
    public func responseHead() throws(HTTP2MessageViolation) -> HTTPHead {
        guard kind == .response || kind == .informational else { throw .notAHead }
        guard let status else { throw .missingPseudoHeader(":status") }
        var head = HTTPHead()
        head.status = status
        head.headers = fields
        if let index = fields.firstIndex(of: "content-length") {
            head.contentLength = UInt64(fields.value(at: index))
        }
        head.isChunked = !endsStream && head.contentLength == nil && kind == .response
        return head
    }

    /// Every Host field must name the same authority as `:authority` (case-insensitively).
    private func checkHostAgrees(with authority: [UInt8]) throws(HTTP2MessageViolation) {
        for index in 0..<fields.count {
            let agrees = fields.withField(index) { name, value in
                guard name.count == 4, ASCII.equalsIgnoringCase(name, "host") else { return true }
                return authority.withUnsafeBytes { ASCII.equalsIgnoringCase(value, $0) }
            }
            if !agrees { throw .hostConflictsWithAuthority }
        }
    }

    /// The regular fields in order, cookie crumbs joined where the first one was (RFC 9113 §8.2.3).
    private func appendRegularFields(to head: inout HTTPHead, dropHost: Bool) {
        var cookie: [UInt8] = []
        for index in 0..<fields.count {
            fields.withField(index) { name, value in
                guard name.count == 6, ASCII.equalsIgnoringCase(name, "cookie") else { return }
                if !cookie.isEmpty { cookie.append(contentsOf: "; ".utf8) }
                cookie.append(contentsOf: value)
            }
        }
        var cookieWritten = false
        for index in 0..<fields.count {
            fields.withField(index) { name, value in
                if dropHost && name.count == 4 && ASCII.equalsIgnoringCase(name, "host") { return }
                if name.count == 6 && ASCII.equalsIgnoringCase(name, "cookie") {
                    if !cookieWritten { cookie.withUnsafeBytes { head.headers.add(name: name, value: $0) } }
                    cookieWritten = true
                    return
                }
                head.headers.add(name: name, value: value)
            }
        }
    }
}
