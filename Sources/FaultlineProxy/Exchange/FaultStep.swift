/// A timed step of a fault.
enum FaultStep: Equatable {
    /// A request delay ended: contact the upstream.
    case contactUpstream
    /// A hang with a duration ended.
    case endHang(reset: Bool)
    /// A response cut with a reset: its bytes had their moment to leave.
    case resetAfterCut
}
