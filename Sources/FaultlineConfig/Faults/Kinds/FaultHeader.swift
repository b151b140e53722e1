/// One header field a fault adds to a response; the name is a valid HTTP token and the
/// value holds no control characters (checked at load).
public struct FaultHeader: Sendable, Equatable {
    /// Field name as written in the config.
    public let name: String
    /// Field value.
    public let value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
