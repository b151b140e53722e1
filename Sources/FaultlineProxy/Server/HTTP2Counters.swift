import Synchronization

/// Process-wide HTTP/2 counters for `GET /stats`: client-side connections and streams, and
/// the RST_STREAM and GOAWAY frames that ended them. Every loop counts into the same
/// atomics (relaxed: each is a tally read on its own, never a condition for another).
/// They run for the life of the process; `POST /rules/reset` resets fault counters only.
final class HTTP2Counters: Sendable {
    /// The counts at one moment.
    struct Counts: Equatable, Encodable {
        /// HTTP/2 client connections accepted (ALPN `h2` or prior-knowledge h2c).
        var connectionsAccepted = 0
        /// Streams clients opened.
        var streamsOpened = 0
        /// Streams Faultline reset (RST_STREAM sent to the client).
        var streamsResetByFaultline = 0
        /// Streams the client reset (RST_STREAM received from it).
        var streamsResetByClient = 0
        /// GOAWAY frames Faultline sent to clients.
        var goawaysSent = 0

        enum CodingKeys: String, CodingKey {
            case connectionsAccepted = "connections_accepted"
            case streamsOpened = "streams_opened"
            case streamsResetByFaultline = "streams_reset_by_faultline"
            case streamsResetByClient = "streams_reset_by_client"
            case goawaysSent = "goaways_sent"
        }
    }

    private let connections = Atomic<Int>(0)
    private let streams = Atomic<Int>(0)
    private let resetsSent = Atomic<Int>(0)
    private let resetsReceived = Atomic<Int>(0)
    private let goaways = Atomic<Int>(0)

    /// Counts an HTTP/2 client connection, once its preface is accepted.
    func connectionAccepted() {
        connections.add(1, ordering: .relaxed)
    }

    /// Counts a stream a client opened (its request HEADERS).
    func streamOpened() {
        streams.add(1, ordering: .relaxed)
    }

    /// Counts an RST_STREAM: sent by Faultline when `sentByProxy`, else received from the client.
    func streamReset(sentByProxy: Bool) {
        if sentByProxy {
            resetsSent.add(1, ordering: .relaxed)
        } else {
            resetsReceived.add(1, ordering: .relaxed)
        }
    }

    /// Counts a GOAWAY sent to a client (graceful or immediate).
    func goawaySent() {
        goaways.add(1, ordering: .relaxed)
    }

    /// The counts now. Each is read on its own, so a count taken while traffic flows may
    /// be a frame behind another.
    var counts: Counts {
        Counts(connectionsAccepted: connections.load(ordering: .relaxed), streamsOpened: streams.load(ordering: .relaxed),
               streamsResetByFaultline: resetsSent.load(ordering: .relaxed),
               streamsResetByClient: resetsReceived.load(ordering: .relaxed), goawaysSent: goaways.load(ordering: .relaxed))
    }
}
