/// What a finished command printed, and how it ended.
public struct CommandResult: Sendable {
    /// The exit status (the signal number when it was killed).
    public let status: Int32
    /// What it wrote to stdout (with `Command.shell`, stderr too).
    public let output: String
    /// What it wrote to stderr.
    public let error: String

    /// A result made of its parts.
    public init(status: Int32, output: String, error: String) {
        self.status = status
        self.output = output
        self.error = error
    }
}
