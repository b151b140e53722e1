/// A delay: a fixed or sampled wait, before the upstream is contacted or before the
/// first response byte reaches the client.
public struct DelayFault: Sendable, Equatable {
    /// How the delay in milliseconds is chosen for each request.
    public enum Distribution: Sendable, Equatable {
        /// Always `ms`.
        case fixed(ms: Int)
        /// Uniform over `minMs...maxMs` (inclusive).
        case uniform(minMs: Int, maxMs: Int)
        /// Log-normal with this median and shape, clamped to `maxMs`: most requests near
        /// the median, a long tail like real networks.
        case lognormal(medianMs: Int, sigma: Double, maxMs: Int)
    }

    /// Where in the exchange the delay is inserted.
    public enum Phase: String, Sendable, Equatable, CaseIterable {
        /// Before the upstream is contacted.
        case request
        /// Before the first response byte reaches the client.
        case firstByte = "first_byte"
    }

    /// How the delay is chosen.
    public let distribution: Distribution
    /// Where it is inserted.
    public let phase: Phase

    /// Creates a delay.
    public init(_ distribution: Distribution, phase: Phase = .request) {
        self.distribution = distribution
        self.phase = phase
    }
}
