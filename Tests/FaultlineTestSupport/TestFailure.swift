/// An error thrown by test support and test setup, with a message that says what was
/// awaited or what went wrong.
public struct TestFailure: Error, CustomStringConvertible, Sendable {
    /// The message.
    public let description: String

    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}
