/// Which journal entries a query wants (`?route=R&path=P&method=M&status=S&limit=N`).
struct JournalFilter: Sendable, Equatable {
    var route: String?
    /// Exact, or a prefix when it ends in `*`.
    var path: String?
    var method: String?
    var status: Int?
    /// The newest `limit` matches only.
    var limit: Int?

    /// Whether `entry` passes every condition given.
    func matches(_ entry: JournalEntry) -> Bool {
        if let route, entry.route != route { return false }
        if let method, entry.method?.uppercased() != method.uppercased() { return false }
        if let status, entry.status != status { return false }
        if let path {
            guard let entryPath = entry.path else { return false }
            if path.hasSuffix("*") {
                if !entryPath.hasPrefix(path.dropLast()) { return false }
            } else if entryPath != path {
                return false
            }
        }
        return true
    }
}
