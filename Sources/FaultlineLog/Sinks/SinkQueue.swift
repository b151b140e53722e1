/// The sink's pending lines, guarded by the sink's mutex: encoded lines back to back in
/// one buffer (one `write` per batch), bounded by a record count and a byte size.
struct SinkQueue {
    /// Encoded lines waiting for the writer.
    var pending: [UInt8] = []
    /// Number of records in `pending`.
    var records = 0
    /// Records accepted since the sink started (for `flush`).
    var accepted = 0
    /// A descriptor from `reopen()` for the writer to switch to.
    var replacement: Int32?
    /// Set by the writer when it sleeps on the semaphore: the next record wakes it.
    var writerWaiting = false
    /// Set by `close()`: the writer drains what is pending and exits.
    var stopping = false
}
