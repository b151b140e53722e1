import FaultlineHTTP

/// RFC 9110 `token` syntax, the grammar of method names.
enum HTTPToken {
    /// Whether `text` is a non-empty run of tchar.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(ASCII.isTokenByte)
    }
}
