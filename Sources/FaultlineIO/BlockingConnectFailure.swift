/// Why `BlockingIO.connect` found no connection: the name did not resolve, or every address
/// refused or timed out. Callers phrase it their own way.
public enum BlockingConnectFailure: Error, Sendable {
    /// One address tried.
    public struct Attempt: Sendable {
        /// The numeric address, `127.0.0.1:9901` or `[::1]:9901`.
        public let address: String
        /// The errno of the failed `socket` or `connect`.
        public let code: Int32
        /// Whether the connect timed out (Linux applies `SO_SNDTIMEO` to it).
        public let timedOut: Bool
        /// Whether nothing listened there (ECONNREFUSED).
        public let refused: Bool
        /// The system's text for `code`.
        public var reason: String { IOError("", code: code).reason }
    }

    /// getaddrinfo failed; its text.
    case resolve(String)
    /// Every address failed, in the order tried.
    case connect([Attempt])
}
