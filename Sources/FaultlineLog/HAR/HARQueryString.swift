/// HAR's `request.queryString`: the record's (already redacted) query split into
/// parameters, names and values percent-decoded as viewers show them.
enum HARQueryString {
    /// The parameters of `query` in order; `a&b=` gives `a` and `b` with empty values.
    static func parameters(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        var parameters: [(name: String, value: String)] = []
        for piece in query.utf8.split(separator: UInt8(ascii: "&")) {
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            let name = piece[..<(equals ?? piece.endIndex)]
            let value = equals.map { piece[piece.index(after: $0)...] } ?? piece[piece.endIndex...]
            parameters.append((decode(name), decode(value)))
        }
        return parameters
    }

    private static func decode(_ part: Substring.UTF8View.SubSequence) -> String {
        String(decoding: PercentDecoding.decode(ArraySlice(part)), as: UTF8.self)
    }
}
