/// Which answer an exchange waits to give once its request has been read (its details are
/// fixed inputs: `ExchangeSetup.start` for a refusal, `FaultPlan.terminal` for a fault).
enum PendingAnswer: Equatable {
    /// Faultline refuses the request (no route, bad Host, body too large, CONNECT).
    case refusal
    /// A fault replaces the exchange.
    case fault
}
