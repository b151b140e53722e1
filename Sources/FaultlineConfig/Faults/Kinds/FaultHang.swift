/// Accept the request and say nothing, then end the connection.
public struct HangFault: Sendable, Equatable {
    /// How the connection ends after the hang.
    public enum Ending: String, Sendable, Equatable, CaseIterable {
        /// FIN.
        case close
        /// RST (SO_LINGER 0).
        case reset
    }

    /// How long to hang; nil hangs until the client gives up.
    public let ms: Int?
    /// What happens when `ms` elapses.
    public let then: Ending

    /// Creates a hang fault.
    public init(ms: Int? = nil, then: Ending = .close) {
        self.ms = ms
        self.then = then
    }
}
