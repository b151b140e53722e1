/// Why a TLS context could not be built; the text names the file and what is wrong with it.
public struct TLSConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file at fault, when one is.
    public let file: String?
    /// A sentence a user can act on, e.g. "key proxy-key.pem does not match certificate proxy.pem".
    public let description: String

    init(file: String?, _ description: String) {
        self.file = file
        self.description = description
    }
}
