internal import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which operation, and the errno it gave.
public struct IOError: Error, Sendable, CustomStringConvertible {
    /// What was being done, e.g. "connect to 127.0.0.1:8081".
    public let operation: String
    /// The errno value.
    public let code: Int32

    /// Creates an error from an operation name and errno.
    public init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// Creates an error from the current errno.
    public static func last(_ operation: String) -> IOError {
        IOError(operation, code: cl_errno())
    }

    /// "connect to 127.0.0.1:8081: Connection refused".
    public var description: String {
        "\(operation): \(String(cString: strerror(code)))"
    }

    /// Whether this is ETIMEDOUT.
    public var isTimeout: Bool { code == ETIMEDOUT }
}
