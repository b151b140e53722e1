/// Client-side timeouts, in milliseconds.
public struct ClientTimeouts: Sendable, Equatable {
    /// Time allowed to receive a complete request head.
    public let headerMs: Int
    /// How long a keep-alive connection may sit idle between requests.
    public let idleMs: Int
    /// Grace period for in-flight exchanges after SIGTERM.
    public let drainMs: Int

    /// Creates client timeouts; the defaults are those of the config format.
    public init(headerMs: Int = 10000, idleMs: Int = 60000, drainMs: Int = 10000) {
        self.headerMs = headerMs
        self.idleMs = idleMs
        self.drainMs = drainMs
    }
}
