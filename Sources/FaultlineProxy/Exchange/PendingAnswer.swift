/// An answer decided before the upstream is contacted.
enum PendingAnswer: Equatable {
    /// Faultline refuses the request (no route, bad Host, body too large, CONNECT).
    case refusal(status: Int, message: String)
    /// A fault replaces the exchange.
    case fault(FaultPlan.Terminal)
}
