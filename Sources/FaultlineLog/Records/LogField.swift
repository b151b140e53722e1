/// A name and an already redacted value: a header of a logged message, or an extra
/// attribute of a pin, fault or TLS record.
public struct LogField: Sendable, Equatable {
    /// Lowercase header name, or attribute key.
    public let name: String
    /// The value as it may be logged.
    public let value: String
}
