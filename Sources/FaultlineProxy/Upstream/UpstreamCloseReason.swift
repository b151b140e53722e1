/// Why an upstream connection closed.
enum UpstreamCloseReason {
    /// The proxy closed it: its exchange ended without leaving it reusable, or the pool
    /// dropped it (expired, full, reconfigured, found dead or talking while idle).
    case byProxy
    /// The upstream closed it after a complete response (a close-delimited body, or
    /// `Connection: close`).
    case byUpstream
    /// It failed; its owner, if it had one, was told why.
    case failed(UpstreamFailure)
}
