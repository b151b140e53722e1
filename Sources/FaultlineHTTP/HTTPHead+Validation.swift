extension HTTPHead {
    /// Checks what llhttp leaves to the application in a request head: field names, the
    /// Connection list, Transfer-Encoding on HTTP/1.0, every Host value and the authority of
    /// an absolute-form target; and the target's bytes, which llhttp checks in HTTP/1 but an
    /// HTTP/2 `:path` reaches only here. The decoder calls it before it hands a head out,
    /// `HTTP2HeaderBlock.requestHead()` before a stream's request starts. `hostsChecked`: the
    /// caller has already parsed a value every Host field equals (HTTP/2's `:authority`; an
    /// authority's validity does not depend on letter case), so they are not parsed again.
    public func validateRequest(hostsChecked: Bool = false) throws(HTTPHeadViolation) {
        if let byte = target.first(where: { !Self.isTargetByte($0) }) { throw .invalidTargetByte(byte) }
        try validateFields()
        if !hostsChecked && headers.namesSeen.contains(.host) {
            var hostsValid = true
            headers.forEachField { _, name, value in
                if ASCII.equalsIgnoringCase(name, "host") && HTTPAuthority(value) == nil { hostsValid = false }
                return hostsValid
            }
            if !hostsValid { throw .invalidHost }
        }
        if let authority = absoluteFormAuthority {
            // Userinfo is stripped before anything is forwarded or logged; the rest must be an authority.
            let host = authority.lastIndex(of: UInt8(ascii: "@")).map { authority[($0 + 1)...] } ?? authority
            if HTTPAuthority(host) == nil { throw .invalidTargetAuthority }
        }
    }

    /// Checks a response head: field names, the Connection list, Transfer-Encoding on
    /// HTTP/1.0, the status range, framing fields on statuses that have no body, and the
    /// Upgrade field a 101 must carry.
    public func validateResponse() throws(HTTPHeadViolation) {
        guard (100...599).contains(status) else { throw .invalidStatus(status) }
        try validateFields()
        // Only a bodiless status needs the framing fields looked up (most responses are not).
        if status < 200 || status == 204 || status == 304 {
            let chunked = headers.firstIndex(of: "transfer-encoding") != nil
            if chunked || (status != 304 && headers.firstIndex(of: "content-length") != nil) {
                throw .framingOnBodilessStatus(status)
            }
        }
        // RFC 9110 §15.2.2: a 101 names the protocol it switches to; without it the client
        // cannot know what the tunnel carries.
        if status == 101 && headers.firstIndex(of: "upgrade") == nil { throw .switchWithoutUpgrade }
    }

    /// What requests and responses share. Each pass runs only when its field is present
    /// (`HTTPHeaders.namesSeen`): most heads have no Connection or Transfer-Encoding field.
    private func validateFields() throws(HTTPHeadViolation) {
        let seen = headers.namesSeen
        let transferEncodingIn10 = versionMajor == 1 && versionMinor == 0 && seen.contains(.transferEncoding)
        if !seen.isDisjoint(with: [.empty, .connection]) || transferEncodingIn10 { try validateFieldNames() }
        if seen.contains(.transferEncoding) { try validateTransferCodings() }
    }

    /// Empty names, a Connection list naming a framing or target field, Transfer-Encoding in
    /// HTTP/1.0: the first found, in field order.
    private func validateFieldNames() throws(HTTPHeadViolation) {
        var violation: HTTPHeadViolation?
        headers.forEachField { _, name, value in
            if name.isEmpty {
                violation = .emptyFieldName
            } else if ASCII.equalsIgnoringCase(name, "connection") {
                ASCII.forEachListElement(value) { token in
                    guard violation == nil else { return }
                    if ASCII.equalsIgnoringCase(token, "content-length") {
                        violation = .connectionNamesFramingField("content-length")
                    } else if ASCII.equalsIgnoringCase(token, "transfer-encoding") {
                        violation = .connectionNamesFramingField("transfer-encoding")
                    } else if ASCII.equalsIgnoringCase(token, "host") {
                        violation = .connectionNamesFramingField("host")
                    }
                }
            } else if versionMajor == 1 && versionMinor == 0 && ASCII.equalsIgnoringCase(name, "transfer-encoding") {
                violation = .transferEncodingInHTTP10
            }
            return violation == nil
        }
        if let violation { throw violation }
    }

    /// `chunked` may appear once, as the last coding of all Transfer-Encoding fields together.
    private func validateTransferCodings() throws(HTTPHeadViolation) {
        var codings = 0
        var chunkedAt: [Int] = []
        var malformed = false
        headers.forEachField { _, name, value in
            guard ASCII.equalsIgnoringCase(name, "transfer-encoding") else { return true }
            ASCII.forEachListElement(value) { coding in
                if ASCII.equalsIgnoringCase(coding, "chunked") { chunkedAt.append(codings) }
                if !Self.startsWithCodingName(coding) { malformed = true }
                codings += 1
            }
            return true
        }
        // A response whose codings do not end in chunked is read until close and forwarded
        // with the codings listed again: a name with a space inside (`c hunked`) would reach
        // the client, and one that drops the space reads chunked twice.
        if malformed { throw .invalidTransferCoding }
        if chunkedAt.count > 1 || (chunkedAt.count == 1 && chunkedAt[0] != codings - 1) { throw .chunkedNotFinal }
        // The list ends in chunked here, but the parser did not frame the body as chunked
        // (llhttp reads `chunked,` as not ending in chunked): one framing, whoever reads it.
        if chunkedAt.count == 1 && !isChunked { throw .chunkedNotFinal }
    }

    /// Whether a list element of Transfer-Encoding is `token *( OWS ";" OWS parameter )`
    /// as far as its name goes: a token up to the first `;` (or the end), then only OWS.
    private static func startsWithCodingName(_ coding: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < coding.count && ASCII.isTokenByte(coding[index]) { index += 1 }
        guard index > 0 else { return false }
        while index < coding.count && ASCII.isWhitespace(coding[index]) { index += 1 }
        return index == coding.count || coding[index] == UInt8(ascii: ";")
    }

    /// The authority of an absolute-form target (`http://authority/...`), userinfo included;
    /// nil for any other form.
    var absoluteFormAuthority: ArraySlice<UInt8>? {
        guard let colon = target.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              target[colon...].starts(with: "://".utf8),
              target[..<colon].allSatisfy({ HTTPHead.isSchemeByte($0) }) else { return nil }
        let start = colon + 3
        let end = target[start...].firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        } ?? target.endIndex
        return target[start..<end]
    }

    /// A byte a request target may hold: visible ASCII, 0x21-0x7E, what llhttp's strict mode
    /// takes in an HTTP/1 request line (RFC 3986 characters, plus the few that clients send
    /// unencoded: `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`). Control bytes, space, DEL
    /// and 0x80-0xFF (raw UTF-8 included: it must be percent-encoded) are refused. nghttp2's
    /// `:path` check lets 0x80-0xFF through, so HTTP/2 would forward what HTTP/1 refuses.
    @inline(__always)
    public static func isTargetByte(_ byte: UInt8) -> Bool {
        byte >= 0x21 && byte <= 0x7E
    }

    /// ALPHA / DIGIT / "+" / "-" / "." (RFC 3986 §3.1).
    static func isSchemeByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
