/// What one curl invocation produced.
public struct CurlResult: Sendable {
    /// curl's exit code (0 success, 18 partial file, 28 timeout, 52 empty reply, 56 receive error...).
    public let exitCode: Int32
    /// What it wrote to stdout.
    public let stdout: [UInt8]
    /// What it wrote to stderr.
    public let stderr: String

    /// A result made of its parts.
    public init(exitCode: Int32, stdout: [UInt8], stderr: String) {
        self.exitCode = exitCode
        self.stdout = stdout
        self.stderr = stderr
    }

    /// stdout as UTF-8 text.
    public var text: String { String(decoding: stdout, as: UTF8.self) }
}
