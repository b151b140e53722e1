/// Server names to SSL_CTX (one per configured certificate), matched case-insensitively,
/// exact names before `*.example.com` wildcards (which cover exactly one label).
struct TLSServerNameTable {
    private var exact: [String: OpaquePointer] = [:]
    private var wildcard: [String: OpaquePointer] = [:]

    var contexts: [OpaquePointer] { Array(exact.values) + Array(wildcard.values) }

    /// Adds a pattern; the caller keeps ownership of `context`.
    mutating func add(_ pattern: String, _ context: OpaquePointer) {
        let name = Self.normalize(pattern)
        if name.hasPrefix("*.") {
            wildcard[String(name.dropFirst(2))] = context
        } else {
            exact[name] = context
        }
    }

    func context(for serverName: String) -> OpaquePointer? {
        let name = Self.normalize(serverName)
        if let context = exact[name] { return context }
        guard let dot = name.firstIndex(of: ".") else { return nil }
        return wildcard[String(name[name.index(after: dot)...])]
    }

    static func normalize(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }
}
