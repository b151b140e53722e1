/// Send the response head unchanged (declared length kept), then only the first
/// `keepBytes` of the body, then close.
public struct TruncateFault: Sendable, Equatable {
    /// Body bytes sent before the connection closes.
    public let keepBytes: Int

    /// Creates a truncate fault.
    public init(keepBytes: Int) {
        self.keepBytes = keepBytes
    }
}
