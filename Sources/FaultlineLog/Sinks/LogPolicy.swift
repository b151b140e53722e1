/// Everything a record needs to be built safely: the redaction rules and the capture
/// options. Built once from configuration, shared by every event loop: a class, so that
/// handing it to each record built costs one retain instead of one per field.
public final class LogPolicy: Sendable {
    /// The redaction rules.
    public let redactor: Redactor
    /// What is captured and the size caps.
    public let options: LogOptions

    /// Creates a policy.
    public init(redactor: Redactor = Redactor(), options: LogOptions = LogOptions()) {
        self.redactor = redactor
        self.options = options
    }
}
