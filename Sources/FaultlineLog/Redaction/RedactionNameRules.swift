/// One kind of name (query parameter, body field, free-text name) and how it is judged:
/// a name is sensitive when one of its parts is an exact name or contains a substring of
/// the header rule, unless that part is kept. Parts come from `RedactionName.forEachPart`,
/// so `auth_token`, `newPassword`, `token[]`, `user[password]` and `token%00` (decoded to
/// `token` and a NUL) are all judged by their meaningful part.
struct RedactionNameRules: Sendable {
    /// Normalised exact names.
    let exact: Set<String>
    /// Normalised names never redacted (by exact name or substring).
    let kept: Set<String>
    /// Normalised substrings.
    let substrings: [[UInt8]]

    /// Whether `name` (already percent-decoded or JSON-unescaped) is sensitive.
    func matches(_ name: some Collection<UInt8>) -> Bool {
        var sensitive = false
        RedactionName.forEachPart(of: name) { part in
            guard !sensitive else { return }
            // Short names become small strings, stored inline: no allocation.
            let normalized = String(decoding: part, as: UTF8.self)
            if kept.contains(normalized) { return }
            if exact.contains(normalized) || substrings.contains(where: { ByteSearch.contains(part, $0) }) { sensitive = true }
        }
        return sensitive
    }
}
