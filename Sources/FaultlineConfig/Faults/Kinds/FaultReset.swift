/// Reset the client connection (RST, via SO_LINGER 0).
public struct ResetFault: Sendable, Equatable {
    /// Response bytes sent first; 0 resets before any response.
    public let afterBytes: Int

    /// Creates a reset fault.
    public init(afterBytes: Int = 0) {
        self.afterBytes = afterBytes
    }
}
