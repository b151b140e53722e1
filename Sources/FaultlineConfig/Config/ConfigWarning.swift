/// Something in a valid configuration that deserves attention, such as a pin set without
/// a backup; the proxy starts anyway and `check-config` prints it.
public struct ConfigWarning: CustomStringConvertible, Sendable, Equatable {
    /// Field path such as `upstreams.staging.pins.sha256`.
    public let path: String
    /// What is risky and why.
    public let message: String

    /// Creates a warning for the field at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or just the message when the path is empty.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
