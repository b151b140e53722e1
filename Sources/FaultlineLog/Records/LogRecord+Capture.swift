public import FaultlineHTTP

extension LogRecord {
    /// Sets path and query from a request target: origin form (`/p?q`) or absolute form
    /// (`http://user:pass@host:8080/p?q`, which also sets scheme, host and port, never
    /// the userinfo). The query is redacted, and a path with `=` in it (`;jsessionid=…`)
    /// goes through the free-text rules; both are capped.
    public mutating func setTarget(_ target: String, policy: LogPolicy) {
        setTarget(bytes: Array(target.utf8), policy: policy)
    }

    /// `setTarget(_:policy:)` for a target as received, in bytes.
    public mutating func setTarget(bytes target: [UInt8], policy: LogPolicy) {
        var bytes = target[...]
        if let authority = Redactor.authorityStart(bytes) {
            scheme = String(decoding: bytes[..<(authority - 3)], as: UTF8.self).lowercased()
            let end = bytes[authority...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                ?? bytes.endIndex
            var hostStart = authority
            if let at = bytes[authority..<end].lastIndex(of: UInt8(ascii: "@")) {
                hostStart = at + 1
                redacted.append("request.url.userinfo")
            }
            bytes[hostStart..<end].withUnsafeBytes { setAuthority($0) }
            bytes = bytes[end...]
        }
        let fragment = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let mark = bytes[..<fragment].firstIndex(of: UInt8(ascii: "?"))
        let pathBytes = bytes[..<(mark ?? fragment)]
        path = capped(pathBytes, limit: policy.options.urlMaxBytes)
        // Path parameters can carry a session (`/app;jsessionid=…`): a path with `=` goes
        // through the free-text rules.
        if let text = path, pathBytes.contains(UInt8(ascii: "=")) {
            let result = policy.redactor.redact(text: text, field: "request.path")
            path = result.text
            redacted += result.redactedFields
        }
        guard let mark else { return }
        let (kept, omitted) = Truncation.cap(bytes[(mark + 1)..<fragment], limit: policy.options.urlMaxBytes)
        let result = policy.redactor.redactQuery(String(decoding: kept, as: UTF8.self), direction: .request)
        query = omitted > 0 ? result.text + Truncation.marker(omitted) : result.text
        redacted += result.redactedFields
    }

    /// Sets host and port from a Host header value; anything up to an `@` (userinfo, which
    /// a Host header must not carry) is dropped, not logged.
    public mutating func setHostHeader(_ value: String) {
        var value = value
        value.withUTF8 { setHostHeader(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// `setHostHeader(_:)` for the value as received, in bytes: no String or array is made.
    public mutating func setHostHeader(bytes value: UnsafeRawBufferPointer) {
        var start = 0
        if let at = value.lastIndex(of: UInt8(ascii: "@")) {
            start = at + 1
            redacted.append("request.host.userinfo")
        }
        setAuthority(UnsafeRawBufferPointer(rebasing: value[start..<min(value.count, start + 255)]))
    }

    /// Adds the fields of a message's head of `direction`, as `addHeader` would one by one.
    /// When the redactor logs every one of them as it is, none of `direction` is held yet and
    /// they are within the per-message cap, they are kept as one copy of their bytes
    /// (`LogHeaderLines`) and become the same fields only when read.
    public mutating func addHeaders(_ headers: HTTPHeaders, direction: LogDirection, policy: LogPolicy) {
        guard policy.options.headers, headers.count > 0 else { return }
        if headerCount(direction) == 0, headers.count <= policy.options.maxHeaders,
           let lines = LogHeaderLines(verbatim: headers, policy: policy),
           keepHeaderLines(lines, direction: direction) {
            return
        }
        reserveHeaders(headers.count, direction: direction, policy: policy)
        headers.forEachField { _, name, value in
            addHeader(name: name, value: value, direction: direction, policy: policy)
            return true
        }
    }

    /// Makes room for `count` more headers of `direction` (at most the policy's cap), so that
    /// adding a message's headers one by one does not grow the list several times.
    public mutating func reserveHeaders(_ count: Int, direction: LogDirection, policy: LogPolicy) {
        guard policy.options.headers, count > 0 else { return }
        let capacity = min(headerCount(direction) + count, policy.options.maxHeaders)
        if direction == .request {
            requestHeaders.reserveCapacity(capacity)
        } else {
            responseHeaders.reserveCapacity(capacity)
        }
    }

    /// Adds one header of `direction` when the policy logs headers: value capped, then
    /// redacted. Past the per-message cap the header is only counted.
    public mutating func addHeader(name: String, value: String, direction: LogDirection, policy: LogPolicy) {
        guard policy.options.headers else { return }
        add(header: name, verbatimName: policy.redactor.verbatimHeaderName(name), value: value, direction: direction,
            policy: policy)
    }

    /// `addHeader(name:value:direction:policy:)` for a field given as its bytes (a head's
    /// own storage): a common name that is logged as it is takes its lowercase spelling from
    /// the redactor's table, so only the value becomes a new String.
    public mutating func addHeader(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, direction: LogDirection,
                                   policy: LogPolicy) {
        guard policy.options.headers else { return }
        add(header: String(decoding: name, as: UTF8.self), verbatimName: policy.redactor.verbatimHeaderName(bytes: name),
            value: String(decoding: value, as: UTF8.self), direction: direction, policy: policy)
    }

    /// Adds a header whose name the redactor logs as it is when `verbatimName` (its lowercase
    /// spelling) is given; `name` is made only when the header takes the redaction path.
    @inline(__always)
    private mutating func add(header name: @autoclosure () -> String, verbatimName: String?, value: String,
                              direction: LogDirection, policy: LogPolicy) {
        guard headerCount(direction) < policy.options.maxHeaders else {
            omittedHeaders += 1
            return
        }
        let fits = value.utf8.count <= policy.options.headerValueMaxBytes
        if fits, let verbatimName {
            let field = LogField(name: verbatimName, value: value)
            if direction == .request { requestHeaders.append(field) } else { responseHeaders.append(field) }
            return
        }
        let name = name()
        let (kept, omitted) = fits ? ([], 0) : Truncation.cap(value.utf8, limit: policy.options.headerValueMaxBytes)
        let result = policy.redactor.redactHeader(
            name: name, value: fits ? value : String(decoding: kept, as: UTF8.self), direction: direction)
        let text = omitted > 0 ? result.text + Truncation.marker(omitted) : result.text
        let field = LogField(name: RedactionName.lower(name), value: text)
        if direction == .request { requestHeaders.append(field) } else { responseHeaders.append(field) }
        redacted += result.redactedFields
    }

    /// Adds a body of `direction` when the policy logs bodies of its content type:
    /// `prefix` is what was captured (any length), `totalSize` the body's full size when
    /// known. Capped first, then redacted, then marked when cut.
    /// `typeChecked` skips the content-type test when the caller already made it (once per
    /// message is enough).
    public mutating func setBody(
        _ prefix: some Collection<UInt8>, totalSize: Int? = nil, contentType: String?,
        direction: LogDirection, policy: LogPolicy, typeChecked: Bool = false
    ) {
        guard policy.options.bodies, typeChecked || policy.options.bodyTypePatterns.matches(contentType) else { return }
        let (kept, omitted) = Truncation.cap(prefix, limit: policy.options.bodyMaxBytes, total: totalSize)
        let result = policy.redactor.redactBody(kept, contentType: contentType, direction: direction)
        let text = omitted > 0 ? result.text + Truncation.marker(omitted) : result.text
        if direction == .request { requestBody = text } else { responseBody = text }
        redacted += result.redactedFields
    }

    /// Sets `error.type` and the redacted, capped error text.
    public mutating func setError(type: String, message: String, policy: LogPolicy) {
        errorType = type
        error = redactedText(message, field: "error", policy)
    }

    /// Sets the redacted, capped event text (pin, fault, TLS and error records).
    public mutating func setMessage(_ text: String, policy: LogPolicy) {
        message = redactedText(text, field: "message", policy)
    }

    /// Sets an extra string attribute (e.g. `tls.protocol.version`); its value goes through
    /// text redaction and the header value cap. Keys are unique in a record: setting a key
    /// again replaces its value, and a key the record writes itself (`kind`, `url.path`,
    /// `http.request.header.…`) is refused, so no JSON line ever repeats a key.
    public mutating func addAttribute(_ key: String, _ value: String, policy: LogPolicy) {
        setAttribute(key, .string(redactedText(value, field: key, policy)))
    }

    /// Sets an extra string attribute whose value is a JSON document (e.g. a pin report's
    /// extra members): redacted as a JSON body is (`Redactor.redact(json:field:)`), so a
    /// sensitive member goes whole whatever its type, then capped like a string attribute.
    public mutating func addAttribute(_ key: String, json value: String, policy: LogPolicy) {
        let result = policy.redactor.redact(json: value, field: key)
        redacted += result.redactedFields
        let (kept, omitted) = Truncation.cap(result.text.utf8, limit: policy.options.headerValueMaxBytes)
        let text = omitted > 0 ? String(decoding: kept, as: UTF8.self) + Truncation.marker(omitted) : result.text
        setAttribute(key, .string(text))
    }

    /// Sets an extra attribute holding an array of strings (e.g. `faultline.pin.matched`),
    /// each redacted and capped like a string attribute.
    public mutating func addAttribute(_ key: String, strings values: [String], policy: LogPolicy) {
        setAttribute(key, .strings(values.map { redactedText($0, field: key, policy) }))
    }

    /// Sets an extra attribute holding an array of objects (e.g. `faultline.pin.chain`, one
    /// object per certificate); values redacted and capped, a key repeated within an
    /// object keeps its first value.
    public mutating func addAttribute(_ key: String, objects: [[(name: String, value: String)]], policy: LogPolicy) {
        let redacted = objects.map { object -> [LogField] in
            var fields: [LogField] = []
            for member in object where !fields.contains(where: { $0.name == member.name }) {
                fields.append(LogField(name: member.name, value: redactedText(member.value, field: "\(key).\(member.name)", policy)))
            }
            return fields
        }
        setAttribute(key, .objects(redacted))
    }

    private mutating func setAttribute(_ key: String, _ value: LogAttribute.Value) {
        guard !JSONLineEncoder.isRecordKey(key) else { return }
        let attribute = LogAttribute(name: key, value: value)
        if let index = attributes.firstIndex(where: { $0.name == key }) {
            attributes[index] = attribute
        } else {
            attributes.append(attribute)
        }
    }

    private mutating func redactedText(_ text: String, field: String, _ policy: LogPolicy) -> String {
        let (kept, omitted) = Truncation.cap(text.utf8, limit: policy.options.headerValueMaxBytes)
        let result = policy.redactor.redact(text: String(decoding: kept, as: UTF8.self), field: field)
        redacted += result.redactedFields
        return omitted > 0 ? result.text + Truncation.marker(omitted) : result.text
    }

    private func capped(_ bytes: ArraySlice<UInt8>, limit: Int) -> String {
        let (kept, omitted) = Truncation.cap(bytes, limit: limit)
        let text = String(decoding: kept, as: UTF8.self)
        return omitted > 0 ? text + Truncation.marker(omitted) : text
    }

    /// A port as a peer wrote it: 1–5 ASCII digits, 1–65535, or nothing (no sign, no Int
    /// overflow; the decoder refuses other ports, this keeps the log safe on its own).
    static func port<Digits: Collection<UInt8>>(_ digits: Digits) -> UInt16? {
        guard !digits.isEmpty, digits.count <= 5 else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt32(byte - UInt8(ascii: "0"))
        }
        return value >= 1 && value <= UInt32(UInt16.max) ? UInt16(value) : nil
    }

    /// Host and port from `authority`, read from the end: the port follows the last colon
    /// unless a `]` does (an IPv6 literal with no port). A byte loop, not the generic
    /// collection methods over a slice, which cost several hundred instructions per exchange.
    private mutating func setAuthority(_ authority: UnsafeRawBufferPointer) {
        var hostEnd = authority.count
        var index = authority.count
        while index > 0 {
            index -= 1
            let byte = authority[index]
            if byte == UInt8(ascii: "]") { break }
            if byte == UInt8(ascii: ":") {
                hostEnd = index
                serverPort = Self.port(UnsafeRawBufferPointer(rebasing: authority[(index + 1)...])).map(Int.init)
                break
            }
        }
        let name = UnsafeRawBufferPointer(rebasing: authority[..<hostEnd])
        host = name.contains(where: { $0 >= 65 && $0 <= 90 }) ? RedactionName.lower(name) : String(decoding: name, as: UTF8.self)
    }
}
