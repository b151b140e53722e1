/// One problem found in a configuration, located by the path of the offending field.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Field path such as `routes[2].match.methods[0]`; empty for whole-document problems.
    public let path: String
    /// What was expected and what was found.
    public let message: String

    /// Creates an error for the field at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or just the message when the path is empty.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
