import FaultlineConfig

/// What the faults that fired on a CONNECT ask of its tunnel: the connection-level part of a
/// `FaultPlan` (a status answers the CONNECT instead of 200; reset, close and hang end it
/// before any byte; a delay comes before the connect; a throttle paces each direction).
struct TunnelPlan {
    /// How the tunnel ends before it opens, if a fault says so.
    enum Refusal {
        case status(Int)
        case reset
        case close
        case hang(HangFault)
    }

    var refusal: Refusal?
    var connectDelayMs = 0
    var upBytesPerSecond = 0
    var downBytesPerSecond = 0
    /// `route/fault` names of what fired.
    var names: [String] = []

    init() {}

    init(_ plan: FaultPlan) {
        names = plan.names
        connectDelayMs = plan.requestDelayMs + plan.firstByteDelayMs
        upBytesPerSecond = plan.upBytesPerSecond
        downBytesPerSecond = plan.downBytesPerSecond
        switch plan.terminal {
        case .status(let status)?: refusal = .status(status.code)
        case .reset?, .refuseStream?: refusal = .reset
        case .close?, .goAway?, .garbage?, .badChunkFraming?: refusal = .close
        case .hang(let hang)?: refusal = .hang(hang)
        case nil: refusal = nil
        }
    }
}
