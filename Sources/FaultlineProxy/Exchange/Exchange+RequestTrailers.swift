import FaultlineHTTP

extension Exchange {
    /// Keeps the request's trailers for the upstream, over either protocol: what a trailer
    /// section may carry, without the session header and, when fault control headers are
    /// on, without those either: none is ever forwarded wherever it appears (the head's are
    /// dropped when the exchange starts).
    func keepRequestTrailers(_ fields: HTTPHeaders) {
        let controls = snapshot.config.faultHeaders
        let dropped = controls.enabled ? [Session.header, controls.delayHeader, controls.statusHeader] : [Session.header]
        requestTrailers = fields.forwardableTrailers(dropping: dropped)
    }
}
