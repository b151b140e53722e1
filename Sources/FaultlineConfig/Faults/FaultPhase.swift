/// When, in one exchange, a fault acts. Faults of one route apply in phase order, and
/// within a phase in the order of `FaultKind.compositionRank`; ties keep declaration order.
public enum FaultPhase: Int, Sendable, Equatable, Comparable, CaseIterable {
    /// Before the upstream is contacted: hang, profile, delay (request), status without
    /// upstream, reset/close before the response, throttle with an upload rate.
    case request
    /// When the upstream's response head arrives: status with upstream, rewrite.
    case responseHead
    /// Before the first response byte reaches the client: delay (first_byte).
    case firstByte
    /// While the body flows: throttle (download only), truncate, corrupt, reset/close after N bytes.
    case body

    /// Phases compare in the order they occur in an exchange.
    public static func < (lhs: FaultPhase, rhs: FaultPhase) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
