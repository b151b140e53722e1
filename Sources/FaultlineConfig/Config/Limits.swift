/// Size and count limits that protect the proxy from oversized or abusive input.
public struct Limits: Sendable, Equatable {
    /// Longest accepted request line, in bytes.
    public let maxRequestLineBytes: Int
    /// Largest accepted request head (all header lines), in bytes.
    public let maxHeaderBytes: Int
    /// Most header fields accepted in one request.
    public let maxHeaderCount: Int
    /// Largest accepted request body in bytes; 0 means unlimited.
    public let maxRequestBodyBytes: Int
    /// Most concurrent client connections per process.
    public let maxConnections: Int
    /// Largest request body read before routing for a rule's `json` conditions; a larger
    /// body streams as usual and meets no such condition. 0 reads none.
    public let maxMatchBodyBytes: Int
    /// Whether `max_connections` was written in the file. The default yields quietly to
    /// what the descriptor limit allows (like HAProxy's maxconn derived from `ulimit -n`);
    /// a value the operator chose is reported when it does not fit.
    public let maxConnectionsIsExplicit: Bool

    /// Creates limits; the defaults are those of the config format.
    public init(
        maxRequestLineBytes: Int = 8192,
        maxHeaderBytes: Int = 65536,
        maxHeaderCount: Int = 100,
        maxRequestBodyBytes: Int = 0,
        maxConnections: Int = 10000,
        maxConnectionsIsExplicit: Bool = false,
        maxMatchBodyBytes: Int = 65536
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.maxConnections = maxConnections
        self.maxConnectionsIsExplicit = maxConnectionsIsExplicit
        self.maxMatchBodyBytes = maxMatchBodyBytes
    }
}

extension Limits {
    /// The most `max_match_body_bytes` may be (16 MiB): each request that a `json` rule
    /// reads holds that much in memory until it is routed.
    public static let matchBodyCeiling = 16 * 1024 * 1024
}
