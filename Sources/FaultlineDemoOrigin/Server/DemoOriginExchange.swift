/// One request and its response, from the request head until the response is fully written.
struct DemoOriginExchange {
    /// The request.
    let request: DemoOriginRequest
    /// What it gets.
    let route: DemoOriginRoute
    /// Whether the whole request (body included) has arrived.
    var requestEnded = false
    /// Whether response bytes (beyond 100 Continue) have been written.
    var responseStarted = false
    /// Whether the connection closes once the response is written.
    var closeAfter: Bool
    /// Whether the response body uses chunked coding.
    var chunked = false
    /// Request body bytes seen.
    var bodyBytes: UInt64 = 0
    /// The request body's running SHA-256 (`/echo` only).
    var digest: DemoOriginDigest?

    init(request: DemoOriginRequest, route: DemoOriginRoute) {
        self.request = request
        self.route = route
        closeAfter = !request.head.keepAlive
    }
}
