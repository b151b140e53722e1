import FaultlineHTTP
import FaultlineRules

/// Per-request state of one proxied exchange; the route and snapshot it started on stay fixed
/// for its whole life, whatever reloads happen meanwhile.
final class Exchange {
    let snapshot: ConfigSnapshot
    let route: CompiledRoute
    let request: HTTPHead
    let requestFraming: BodyFraming
    let isHeadRequest: Bool
    let upgradeRequested: Bool
    /// The head sent upstream, kept so a request that met a stale pooled connection can be retried.
    let upstreamHead: [UInt8]

    var upstream: UpstreamConnection?
    var requestComplete = false
    var requestBodyBytes: UInt64 = 0
    var requestChunkOpen = false
    var requestTrailers = HTTPHeaders()
    var retried = false

    var responseHeadSent = false
    var responseFraming = BodyFraming.none
    var responseChunkOpen = false
    var responseTrailers = HTTPHeaders()
    var clientKeepAlive = true

    init(snapshot: ConfigSnapshot, route: CompiledRoute, request: HTTPHead, requestFraming: BodyFraming,
         upstreamHead: [UInt8]) {
        self.snapshot = snapshot
        self.route = route
        self.request = request
        self.requestFraming = requestFraming
        self.isHeadRequest = request.method == "HEAD"
        self.upgradeRequested = request.isUpgrade
        self.upstreamHead = upstreamHead
    }

    /// Whether a failed attempt can be sent again on a fresh connection: nothing of the
    /// response arrived and no body byte was streamed that cannot be replayed.
    var canRetry: Bool {
        !retried && !responseHeadSent && requestBodyBytes == 0
    }
}
