extension Redactor {
    /// Redacts the values of sensitive `name=value` pairs of a query string (without the
    /// `?`); names are kept. Fields are listed as `<direction>.query.<name>`.
    public func redactQuery(_ query: String, direction: LogDirection = .request) -> Redacted {
        var out: [UInt8] = []
        var fields: [String] = []
        let bytes = Array(query.utf8)
        let changed = redactPairs(bytes[...], names: queryNames, field: "\(direction.rawValue).query.", &out, &fields)
        return changed ? Redacted(text: String(decoding: out, as: UTF8.self), redactedFields: fields) : Redacted(text: query)
    }

    /// Copies `&`-separated pairs to `out`, replacing the value of every pair whose
    /// percent-decoded name is in `names`. Returns whether anything was replaced.
    func redactPairs(
        _ bytes: ArraySlice<UInt8>, names: Set<String>, field prefix: String,
        _ out: inout [UInt8], _ fields: inout [String]
    ) -> Bool {
        var changed = false
        var start = bytes.startIndex
        out.reserveCapacity(out.count + bytes.count)
        while start <= bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            let pair = bytes[start..<end]
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                let name = PercentDecoding.decode(pair[..<equals])
                if Self.matches(name, names) {
                    out.append(contentsOf: pair[...equals])
                    out.append(contentsOf: ByteSearch.placeholder)
                    fields.append(prefix + RedactionName.lower(name))
                    changed = true
                } else {
                    out.append(contentsOf: pair)
                }
            } else {
                out.append(contentsOf: pair)
            }
            if end == bytes.endIndex { break }
            out.append(UInt8(ascii: "&"))
            start = end + 1
        }
        return changed
    }

    /// Whether a decoded parameter name is sensitive: itself, or the last bracketed part
    /// of a nested name as Rails and PHP forms write them (`user[password]`, `a[b][token]`).
    static func matches(_ name: [UInt8], _ names: Set<String>) -> Bool {
        if names.contains(RedactionName.normalize(name)) { return true }
        guard name.last == UInt8(ascii: "]"), let open = name.lastIndex(of: UInt8(ascii: "[")) else { return false }
        return names.contains(RedactionName.normalize(name[(open + 1)..<(name.count - 1)]))
    }
}
