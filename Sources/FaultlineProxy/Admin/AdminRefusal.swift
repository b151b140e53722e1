import FaultlineConfig

/// Why the admin API refuses a request: an HTTP status, a message and, when one field is
/// to blame, its path (e.g. `rule.faults[0].status.code`).
struct AdminRefusal: Error, Sendable {
    let status: Int
    let message: String
    let field: String?
    /// Every problem when a rule failed validation (the first is also `message`).
    let errors: [ConfigError]

    init(_ status: Int, _ message: String, field: String? = nil, errors: [ConfigError] = []) {
        self.status = status
        self.message = message
        self.field = field
        self.errors = errors
    }

    /// A 400 for a rule that failed validation, naming the first field to blame.
    init(invalid: ConfigErrors) {
        let first = invalid.errors.first
        let more = invalid.errors.count > 1 ? " (and \(invalid.errors.count - 1) more problem(s))" : ""
        self.init(400, (first?.description ?? "invalid rule") + more,
                  field: first.map(\.path).flatMap { $0.isEmpty ? nil : $0 }, errors: invalid.errors)
    }

    /// `{"error": message, "field": path, "errors": [{"field", "message"}]}`.
    var response: AdminResponse {
        let problems = errors.map { AdminBody.Problem(field: $0.path, message: $0.message) }
        return .json(status, AdminBody.Refusal(error: message, field: field, errors: problems.isEmpty ? nil : problems))
    }
}
