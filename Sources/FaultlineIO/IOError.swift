private import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which operation, and the errno it gave.
public struct IOError: Error, Sendable, CustomStringConvertible {
    /// What was being done, e.g. "connect to 127.0.0.1:8081".
    public let operation: String
    /// The errno value.
    public let code: Int32
    /// A reason that says more than errno can (a TLS verification failure), shown instead of it.
    public let detail: String?

    /// Creates an error from an operation name and errno.
    public init(_ operation: String, code: Int32, detail: String? = nil) {
        self.operation = operation
        self.code = code
        self.detail = detail
    }

    /// A secure channel (TLS) failure with the transformer's reason.
    public static func secureChannel(_ reason: String, peer: SocketAddress?) -> IOError {
        IOError("TLS with \(peer?.description ?? "peer")", code: EPROTO, detail: reason)
    }

    /// Creates an error from the current errno.
    public static func last(_ operation: String) -> IOError {
        IOError(operation, code: cl_errno())
    }

    /// "connect to 127.0.0.1:8081: Connection refused".
    public var description: String {
        "\(operation): \(reason)"
    }

    /// The reason alone: the detail, or the system's text for `code` ("Connection refused").
    public var reason: String {
        detail ?? String(cString: strerror(code))
    }

    /// Whether a blocking call gave up at its timeout (EAGAIN/EWOULDBLOCK after `SO_RCVTIMEO`).
    public var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }

    /// Whether a secure channel (TLS) refused the peer: a protocol or verification failure,
    /// as opposed to the peer simply going away.
    public var isSecureChannelFailure: Bool { code == EPROTO && detail != nil }

    /// Whether this is ETIMEDOUT.
    public var isTimeout: Bool { code == ETIMEDOUT }
}
