/// Why a certificate, key or certificate request could not be read, written or made. The
/// message names the file (when there is one) and what was found in it.
public struct CertificateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line, starting with the file path when a file is involved.
    public let message: String

    /// Creates an error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String {
        message
    }
}
