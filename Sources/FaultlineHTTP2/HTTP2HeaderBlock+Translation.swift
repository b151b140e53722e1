public import FaultlineHTTP

extension HTTP2HeaderBlock {
    /// The request as an HTTP/1.1 head for an HTTP/1 upstream (RFC 9113 §8.3): the target from
    /// `:path`, Host from `:authority` (a Host field that disagrees is refused, one that agrees
    /// is folded into it), cookie crumbs joined with "; " into one field where the first was,
    /// Content-Length as declared and chunked framing for a body of unknown length.
    public func requestHead() throws(HTTP2MessageViolation) -> HTTPHead {
        guard kind == .request else { throw .notAHead }
        guard let methodRange = pseudo.method else { throw .missingPseudoHeader(":method") }
        var head = HTTPHead()
        head.method = String(decoding: pseudoBytes[methodRange], as: UTF8.self)
        if head.method == "CONNECT" {
            guard let authority = pseudo.authority else { throw .missingPseudoHeader(":authority") }
            head.target = Array(pseudoBytes[authority])
        } else {
            guard pseudo.path != nil else { throw .missingPseudoHeader(":path") }
            let absolute = pathBytes.first == UInt8(ascii: "/")
            let asterisk = pathBytes.count == 1 && pathBytes.first == UInt8(ascii: "*") && head.method == "OPTIONS"
            guard absolute || asterisk else { throw .invalidPath }
            // The block's array itself: once the block is gone, the head holds it (with the
            // session's spare storage, which refills it only when nothing else does).
            head.target = pathBytes
        }
        // The fields come back from the closure rather than being set in it: a head the
        // closure captured would be copied on its way out of this function.
        let translated: Result<HTTPHeaders, HTTP2MessageViolation> = pseudoBytes.withUnsafeBytes { pseudoRaw in
            let authority = pseudo.authority.map { UnsafeRawBufferPointer(rebasing: pseudoRaw[$0]) }
            let survey = surveyFields(authority: authority)
            if let authority {
                guard HTTPAuthority(authority) != nil else { return .failure(.invalidAuthority) }
                guard survey.hostsAgree else { return .failure(.hostConflictsWithAuthority) }
            }
            if survey.cookies <= 1 && (authority == nil || (hostFromAuthority && survey.hosts == 1)) {
                // The Host field (from :authority, or the client's without one) is already where it
                // belongs, and there is no cookie to join: the head takes the fields as they are.
                return .success(self.fields)
            }
            // The Host line from :authority, then the fields: a kept line is as long as it was,
            // and joined cookie crumbs are shorter than their lines.
            return .success(HTTPHeaders(byteCapacity: self.fields.bytes.count + (authority?.count ?? 0) + 8,
                                        fieldCapacity: self.fields.count + 1) { writer in
                if let authority { writer.add(name: HTTPHead.raw("host"), value: authority) }
                writeRegularFields(into: &writer, dropHost: authority != nil)
            })
        }
        head.headers = try translated.get()
        if let index = head.headers.firstIndex(of: "content-length") {
            head.contentLength = UInt64(head.headers.value(at: index))
        }
        head.isChunked = !endsStream && head.contentLength == nil
        do {
            // With :authority, every Host field is it or equals it (checked above), and it parsed.
            try head.validateRequest(hostsChecked: pseudo.authority != nil)
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

    /// One pass over the fields: how many Host and Cookie fields there are, and whether every
    /// Host field names the same authority as `:authority` (case-insensitively; the one made
    /// from it does by construction).
    private func surveyFields(authority: UnsafeRawBufferPointer?) -> (hosts: Int, cookies: Int, hostsAgree: Bool) {
        var hosts = 0
        var cookies = 0
        var agree = true
        fields.forEachField { index, name, value in
            if name.count == 4, ASCII.equalsIgnoringCase(name, "host") {
                hosts += 1
                if let authority, !(index == 0 && hostFromAuthority) { agree = agree && ASCII.equalsIgnoringCase(value, authority) }
            } else if name.count == 6, ASCII.equalsIgnoringCase(name, "cookie") {
                cookies += 1
            }
            return true
        }
        return (hosts, cookies, agree)
    }

    /// The regular fields in order, cookie crumbs joined where the first one was (RFC 9113
    /// §8.2.3); with `dropHost`, without Host fields (the one from `:authority` is written first).
    private func writeRegularFields(into writer: inout HTTPFieldsWriter, dropHost: Bool) {
        var cookieBytes = 0
        fields.forEachField { _, name, value in
            if name.count == 6, ASCII.equalsIgnoringCase(name, "cookie") { cookieBytes += value.count + 2 }
            return true
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: cookieBytes) { cookie in
            var cookieCount = 0
            fields.forEachField { _, name, value in
                guard name.count == 6, ASCII.equalsIgnoringCase(name, "cookie") else { return true }
                if cookieCount > 0 {
                    cookie[cookieCount] = UInt8(ascii: ";")
                    cookie[cookieCount + 1] = UInt8(ascii: " ")
                    cookieCount += 2
                }
                for byte in value {
                    cookie[cookieCount] = byte
                    cookieCount += 1
                }
                return true
            }
            var cookieWritten = false
            fields.forEachField { _, name, value in
                if dropHost && name.count == 4 && ASCII.equalsIgnoringCase(name, "host") { return true }
                if name.count == 6 && ASCII.equalsIgnoringCase(name, "cookie") {
                    if !cookieWritten {
                        writer.add(name: name, value: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(cookie)[..<cookieCount]))
                    }
                    cookieWritten = true
                    return true
                }
                writer.add(name: name, value: value)
                return true
            }
        }
    }
}
