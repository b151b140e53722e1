/// What one client of the differential test saw: every byte it received and how its
/// connection ended.
struct DifferentialTranscript: Sendable {
    /// How the connection ended.
    enum End: Sendable, Equatable {
        /// Every expected response arrived; the client then closed.
        case complete
        /// The proxy closed the connection (FIN).
        case closedByPeer
        /// The proxy reset the connection, or a write failed.
        case reset
        /// The client closed it on purpose (gave up mid-body or mid-response).
        case closedByClient
        /// Neither a response nor a close arrived for the stall timeout.
        case stalled
        /// The bytes received stopped parsing as HTTP/1.1.
        case garbage
    }

    var received: [UInt8] = []
    var end: End = .complete
    /// How many requests were written completely.
    var sentComplete = 0
    /// Why a write failed, if one did.
    var sendError: String?
}
