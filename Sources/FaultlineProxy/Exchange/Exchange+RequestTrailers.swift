import FaultlineHTTP

extension Exchange {
    /// Keeps the request's trailers for the upstream, over either protocol: what a trailer
    /// section may carry, without the session header, which is never forwarded wherever it
    /// appears (the head's is dropped when the exchange starts).
    func keepRequestTrailers(_ fields: HTTPHeaders) {
        requestTrailers = fields.forwardableTrailers(dropping: [Session.header])
    }
}
