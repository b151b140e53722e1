extension Redactor {
    /// Redacts a URL or request target: userinfo (`https://user:pass@host` becomes
    /// `https://[REDACTED]@host`), sensitive query parameters and sensitive fragment
    /// parameters (OAuth's `#access_token=…`); the values of the other parameters go
    /// through the free-text rules. `field` prefixes the redacted-field names.
    public func redactURL(_ url: String, field: String = "request.url") -> Redacted {
        let bytes = Array(url.utf8)
        var edits = RedactionEdits(bytes[...])
        redactURL(bytes.indices, field: field, depth: 0, &edits)
        return edits.changed ? Redacted(text: String(decoding: edits.result(), as: UTF8.self), redactedFields: edits.fields)
            : Redacted(text: url)
    }

    /// Redacts the URL in `range` of `edits.input` (absolute or relative).
    func redactURL(_ range: Range<Int>, field: String, depth: Int, _ edits: inout RedactionEdits) {
        if let authority = Self.authorityStart(edits.input[range]) {
            redactURLTail(authority: authority, end: range.upperBound, field: field, queryField: field + ".", depth: depth, &edits)
        } else {
            redactQueryAndFragment(from: range.lowerBound, end: range.upperBound, field: field + ".", depth: depth, &edits)
        }
    }

    /// Redacts a URL from its authority (just after `scheme://`) to `end`: userinfo as
    /// `<field>.userinfo`, parameters as `<queryField>query.<name>` and
    /// `<queryField>fragment.<name>`.
    func redactURLTail(authority: Int, end: Int, field: String, queryField: String, depth: Int, _ edits: inout RedactionEdits) {
        let bytes = edits.input
        let authorityEnd = bytes[authority..<end].firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        } ?? end
        if let at = bytes[authority..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) {
            edits.redact(authority..<at, field: field + ".userinfo")
        }
        redactQueryAndFragment(from: authorityEnd, end: end, field: queryField, depth: depth, &edits)
    }

    /// The query (after `?`) and fragment (after `#`) of the path starting at `start`.
    private func redactQueryAndFragment(from start: Int, end: Int, field: String, depth: Int, _ edits: inout RedactionEdits) {
        let bytes = edits.input
        guard let mark = bytes[start..<end].firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else {
            return
        }
        let fragment = bytes[mark..<end].firstIndex(of: UInt8(ascii: "#")) ?? end
        if bytes[mark] == UInt8(ascii: "?") {
            redactPairs((mark + 1)..<fragment, form: false, field: field + "query.", depth: depth, &edits)
        }
        if fragment < end {
            redactPairs((fragment + 1)..<end, form: false, field: field + "fragment.", depth: depth, &edits)
        }
    }

    /// The index just after `scheme://`, when `bytes` starts with a scheme.
    static func authorityStart(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            let isSchemeByte = ByteSearch.isNameByte(byte) || byte == UInt8(ascii: "+")
            if byte == UInt8(ascii: ":") { break }
            if !isSchemeByte { return nil }
            index += 1
        }
        guard index > bytes.startIndex,
              bytes[index...].starts(with: [UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "/")]) else {
            return nil
        }
        return index + 3
    }
}
