import Foundation

/// The request journals: `GET /requests` and `GET /sessions/{id}/requests`.
extension AdminRouter {
    /// The keys a journal query accepts.
    static let journalFilterKeys = ["route", "path", "method", "status", "limit"]

    /// `journal`'s entries that `query` selects, or a 400 naming the bad parameter.
    func journal(_ journal: RequestJournal, query: String) -> AdminResponse {
        switch Self.journalFilter(query) {
        case .success(let filter):
            let (entries, dropped) = journal.entries(matching: filter)
            return .json(200, AdminBody.Journal(requests: entries, dropped: dropped))
        case .failure(let refusal):
            return refusal.response
        }
    }

    /// Parses `route=R&path=P&method=M&status=S&limit=N` (percent-decoded, `+` as a space).
    static func journalFilter(_ query: String) -> Result<JournalFilter, AdminRefusal> {
        var filter = JournalFilter()
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(parts[0])
            let value = parts.count > 1 ? decode(parts[1]) : ""
            switch key {
            case "route": filter.route = value
            case "path": filter.path = value
            case "method": filter.method = value
            case "status":
                guard let status = Int(value), (100...999).contains(status) else {
                    return .failure(AdminRefusal(400, "status: expected an HTTP status code 100...999, got \(JSONText.quoted(value))",
                                                 field: "status"))
                }
                filter.status = status
            case "limit":
                guard let limit = Int(value), limit >= 1 else {
                    return .failure(AdminRefusal(400, "limit: expected an integer >= 1, got \(JSONText.quoted(value))", field: "limit"))
                }
                filter.limit = limit
            default:
                return .failure(AdminRefusal(400, "\(key): unknown filter (known: \(journalFilterKeys.joined(separator: ", ")))",
                                             field: key))
            }
        }
        return .success(filter)
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
