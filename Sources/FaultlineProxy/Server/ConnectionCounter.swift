import Synchronization

/// Open client connections across all loops, for the connection limit and for draining.
final class ConnectionCounter: Sendable {
    private let open = Atomic<Int>(0)
    /// Numbers handed out so far (the journal's `connection`).
    private let serial = Atomic<Int>(0)
    /// The most connections admitted whatever the configured limit (what the descriptor
    /// limit allows, see `DescriptorBudget`).
    let ceiling: Int

    init(ceiling: Int = Int.max) {
        self.ceiling = max(1, ceiling)
    }

    /// Counts one more connection unless that would pass `limit` (or the ceiling).
    func admit(limit: Int) -> Bool {
        if open.add(1, ordering: .relaxed).newValue > min(limit, ceiling) {
            open.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Counts a connection that closed.
    func release() {
        open.subtract(1, ordering: .relaxed)
    }

    /// A number for a new client connection: 1, 2, … per process.
    func nextNumber() -> Int {
        serial.add(1, ordering: .relaxed).newValue
    }

    /// Connections open now.
    var value: Int { open.load(ordering: .relaxed) }
}
