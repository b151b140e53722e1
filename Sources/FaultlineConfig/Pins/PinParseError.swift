/// Why a pasted pin was refused; the message says what was found and how to fix it.
public struct PinParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line, without a field path (callers add theirs).
    public let message: String

    /// Creates an error with `message`.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String {
        message
    }
}
