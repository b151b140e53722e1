extension Redactor {
    /// Redacts a URL or request target: userinfo (`https://user:pass@host` becomes
    /// `https://[REDACTED]@host`), sensitive query parameters and sensitive fragment
    /// parameters (OAuth's `#access_token=…`). `field` prefixes the redacted-field names.
    public func redactURL(_ url: String, field: String = "request.url") -> Redacted {
        let bytes = Array(url.utf8)
        var out: [UInt8] = []
        var fields: [String] = []
        redactURL(bytes[...], field: field, &out, &fields)
        return fields.isEmpty ? Redacted(text: url) : Redacted(text: String(decoding: out, as: UTF8.self), redactedFields: fields)
    }

    /// Appends the redacted form of the URL in `bytes` to `out`.
    func redactURL(_ bytes: ArraySlice<UInt8>, field: String, _ out: inout [UInt8], _ fields: inout [String]) {
        var index = bytes.startIndex
        if let authority = Self.authorityStart(bytes) {
            out.append(contentsOf: bytes[..<authority])
            let end = bytes[authority...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                ?? bytes.endIndex
            if let at = bytes[authority..<end].lastIndex(of: UInt8(ascii: "@")) {
                out.append(contentsOf: ByteSearch.placeholder)
                fields.append(field + ".userinfo")
                index = at
            } else {
                index = authority
            }
        }
        let queryMark = bytes[index...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        out.append(contentsOf: bytes[index..<queryMark])
        guard queryMark < bytes.endIndex else { return }
        let fragmentMark = bytes[queryMark...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        if bytes[queryMark] == UInt8(ascii: "?") {
            out.append(UInt8(ascii: "?"))
            _ = redactPairs(bytes[(queryMark + 1)..<fragmentMark], names: queryNames, field: field + ".query.", &out, &fields)
        }
        if fragmentMark < bytes.endIndex {
            out.append(UInt8(ascii: "#"))
            _ = redactPairs(bytes[(fragmentMark + 1)...], names: queryNames, field: field + ".fragment.", &out, &fields)
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
