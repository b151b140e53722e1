/// Limit the transfer rate of the exchange; 0 leaves that direction unlimited (at least
/// one rate is above 0 when loaded).
public struct ThrottleFault: Sendable, Equatable {
    /// Response bytes per second toward the client; 0 = unlimited.
    public let downBytesPerSecond: Int
    /// Request bytes per second toward the upstream; 0 = unlimited.
    public let upBytesPerSecond: Int
    /// Bytes written per timer tick.
    public let chunkBytes: Int

    /// Creates a throttle.
    public init(downBytesPerSecond: Int, upBytesPerSecond: Int = 0, chunkBytes: Int = 1024) {
        self.downBytesPerSecond = downBytesPerSecond
        self.upBytesPerSecond = upBytesPerSecond
        self.chunkBytes = chunkBytes
    }
}
