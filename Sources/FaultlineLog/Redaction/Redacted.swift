/// The result of a redaction: the safe text and what was taken out of it.
public struct Redacted: Sendable, Equatable {
    /// The text with every sensitive value replaced by `[REDACTED]`.
    public var text: String
    /// What was redacted, e.g. `request.header.authorization`, `request.query.token`,
    /// `request.body.password`; empty when nothing was.
    public var redactedFields: [String]

    /// Creates a result.
    public init(text: String, redactedFields: [String] = []) {
        self.text = text
        self.redactedFields = redactedFields
    }
}
