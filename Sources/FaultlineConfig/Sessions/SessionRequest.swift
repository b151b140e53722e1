/// The body of `POST /sessions` on the admin API, validated (see `ConfigLoader.parseSessionRequest`).
public struct SessionRequest: Sendable, Equatable {
    /// Free text naming the session in listings.
    public let name: String
    /// Idle time-to-live in seconds.
    public let ttlSeconds: Int
    /// The seed of the session's fault randomness; nil lets the proxy pick one.
    public let seed: UInt64?
    /// Client addresses (IP literals) whose requests without a session header belong to the session.
    public let clients: [String]

    /// Creates a request.
    public init(name: String = "", ttlSeconds: Int = SessionsConfig.defaultTTLSeconds, seed: UInt64? = nil,
                clients: [String] = []) {
        self.name = name
        self.ttlSeconds = ttlSeconds
        self.seed = seed
        self.clients = clients
    }
}
