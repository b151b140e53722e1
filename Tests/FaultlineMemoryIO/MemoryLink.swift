/// The shared state of one in-memory connection: a flow each way. Side 0 connected (or is
/// the test's client), side 1 accepted.
final class MemoryLink {
    var flows = [MemoryFlow(), MemoryFlow()]
    /// How many unread bytes a flow holds before the writer's `write` takes no more (the
    /// peer's receive buffer); reading makes room again.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }
}
