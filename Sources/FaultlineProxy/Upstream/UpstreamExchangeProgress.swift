/// How far the exchange an upstream connection carries has come: plain data, kept by the
/// connection's lifecycle while it serves and after it closed (a retry decision reads it).
struct UpstreamExchangeProgress {
    /// Whether the connection is new or came from the pool.
    enum Lease {
        /// Made for this exchange.
        case fresh
        /// Served an earlier exchange (a failure before any response byte may be retried).
        case pooled
    }

    /// How far the request has been written.
    enum Request {
        /// Bytes of the request are still to come from the client.
        case sending
        /// The client's request ended and all of it was handed to the socket.
        case sent
    }

    /// How far the response has been read.
    enum Response {
        /// No byte of a final response yet (interim responses may have come).
        case awaitingHead
        /// An interim (1xx) head arrived; its end comes next, then the final head.
        case interim
        /// The final head arrived (`keepAlive`: it allows another request); the message is
        /// not complete.
        case receiving(keepAlive: Bool)
        /// The response is complete; `keepAlive` when the upstream allows another request
        /// and nothing followed it.
        case complete(keepAlive: Bool)
    }

    /// The socket's byte count when the exchange began: equal afterwards means the upstream
    /// cannot have received any byte of this request.
    let bytesSentBefore: UInt64
    let lease: Lease
    var request = Request.sending
    var response = Response.awaitingHead

    init(bytesSentBefore: UInt64, lease: Lease) {
        self.bytesSentBefore = bytesSentBefore
        self.lease = lease
    }

    /// Whether any byte of a final response arrived.
    var sawResponseBytes: Bool {
        switch response {
        case .awaitingHead, .interim: false
        case .receiving, .complete: true
        }
    }

    /// The one shape after which the connection may carry another exchange: the request
    /// written to its end and a complete response that allows another.
    var endedCleanly: Bool {
        guard case .sent = request, case .complete(keepAlive: true) = response else { return false }
        return true
    }
}
