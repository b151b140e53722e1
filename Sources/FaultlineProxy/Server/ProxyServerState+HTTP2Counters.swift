/// What the HTTP/2 connection code reports for `GET /stats`; callable from any loop.
extension ProxyServerState {
    /// An HTTP/2 client connection was accepted (its connection preface read).
    func http2ConnectionAccepted() {
        http2Counters.connectionAccepted()
    }

    /// A client opened a stream.
    func http2StreamOpened() {
        http2Counters.streamOpened()
    }

    /// A client stream was reset: by Faultline (RST_STREAM sent) when `sentByProxy`, else by
    /// the client (RST_STREAM received).
    func http2StreamReset(sentByProxy: Bool) {
        http2Counters.streamReset(sentByProxy: sentByProxy)
    }

    /// Faultline sent a GOAWAY to a client.
    func http2GoAwaySent() {
        http2Counters.goawaySent()
    }
}
