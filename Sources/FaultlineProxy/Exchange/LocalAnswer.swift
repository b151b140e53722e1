import FaultlineConfig

/// A response Faultline wrote itself instead of relaying the upstream's.
enum LocalAnswer: Equatable {
    /// A refusal or a gateway error.
    case local(LocalResponse)
    /// A status fault's response; `keepAlive` when the connection may carry another request.
    case fault(StatusFault, keepAlive: Bool)
}
