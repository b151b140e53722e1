/// Every problem found in one configuration; the loader reports them all at once so a
/// user fixes a file in one pass instead of one error per run.
public struct ConfigErrors: Error, CustomStringConvertible, Sendable, Equatable {
    /// The problems, in the order the loader met them.
    public let errors: [ConfigError]
    /// The file the configuration came from, if any.
    public let file: String?

    /// Creates a set of errors, optionally attributed to `file`.
    public init(errors: [ConfigError], file: String?) {
        self.errors = errors
        self.file = file
    }

    /// One error per line, each prefixed by the file when there is one.
    public var description: String {
        let prefix = file.map { "\($0): " } ?? ""
        return errors.map { prefix + $0.description }.joined(separator: "\n")
    }
}
