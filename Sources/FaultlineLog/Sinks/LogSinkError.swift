#if canImport(Glibc)
import Glibc
#endif

/// Why a sink could not be created or reopened; the message names the path and the
/// system's reason, e.g. `cannot open log file "/var/log/f.jsonl": Permission denied`.
public struct LogSinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path concerned, if any.
    public let path: String?
    /// The errno value, or 0 when not a system error.
    public let code: Int32
    /// The whole message.
    public let message: String

    /// Creates an error from what was attempted and an errno value.
    init(_ what: String, path: String?, code: Int32) {
        self.path = path
        self.code = code
        let reason = String(cString: strerror(code))
        self.message = path.map { "\(what) \"\($0)\": \(reason)" } ?? "\(what): \(reason)"
    }

    /// The message.
    public var description: String { message }
}
