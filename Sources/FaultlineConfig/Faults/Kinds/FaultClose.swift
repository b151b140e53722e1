/// Close the client connection (FIN).
public struct CloseFault: Sendable, Equatable {
    /// Response bytes sent first; 0 closes before any response (an empty reply).
    public let afterBytes: Int

    /// Creates a close fault.
    public init(afterBytes: Int = 0) {
        self.afterBytes = afterBytes
    }
}
