/// The requests one client sends on one connection, one at a time (each after the previous
/// response) or pipelined (all written without waiting).
struct DifferentialSequence: Sendable {
    let name: String
    var requests: [DifferentialRequest]
    var pipelined: Bool
    /// Every request must get a response (no closed connection as an excuse).
    var mustAnswerAll = false
    /// At most this many responses may arrive (requests after `Connection: close`).
    var answerLimit: Int?
}
