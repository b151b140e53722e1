/// The top-level `journal` section: the global request journal (`GET /requests` on the
/// admin API), a bounded record of every exchange, session or not.
public struct JournalConfig: Sendable, Equatable {
    /// Default `capacity`.
    public static let defaultCapacity = 1000

    /// Most entries kept; older ones are dropped. 0 turns the global journal off.
    public let capacity: Int

    /// Creates the section; by default the last 1,000 exchanges.
    public init(capacity: Int = JournalConfig.defaultCapacity) {
        self.capacity = capacity
    }
}
