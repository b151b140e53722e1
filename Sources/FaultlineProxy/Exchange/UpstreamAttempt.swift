/// One try at getting the response from the upstream.
struct UpstreamAttempt: Equatable {
    /// 1 for the first try, 2 for the one retry a stale pooled connection allows.
    var number = 1
    /// How far the connection is.
    var link = Link.attaching

    /// The upstream connection's progress.
    enum Link: Equatable {
        /// The adapter is taking one from the pool or opening one.
        case attaching
        /// The TCP (and TLS) handshake is under way.
        case connecting
        /// Connected: the request goes out.
        case connected
    }
}
