/// The bodies of the session and journal endpoints.
extension AdminBody {
    /// `GET /sessions`.
    struct Scenarios: Encodable {
        let scenarios: [ScenarioJSON]
    }

    struct Sessions: Encodable {
        let sessions: [SessionJSON]
    }

    /// `GET /sessions/{id}/rules`.
    struct SessionRules: Encodable {
        let rules: [RuleJSON]
    }

    /// `GET /requests` and `GET /sessions/{id}/requests`.
    struct Journal: Encodable {
        let requests: [JournalEntry]
        let dropped: Int
    }
}
