import FaultlineHTTP2

extension ConfigSnapshot {
    /// The HTTP/2 settings client connections announce and enforce. The defaults until the
    /// configuration carries an `http2` block.
    var http2Settings: HTTP2Settings {
        HTTP2Settings()
    }
}
