/// The exchange an upstream leg serves: one protocol for an HTTP/1 connection and an HTTP/2
/// stream alike, taking the leg and what it says. Calls happen on the loop.
protocol UpstreamLegOwner: AnyObject {
    /// `leg` reports `event`, handed over (a response head moves on into the exchange
    /// instead of being copied).
    func upstream(_ leg: UpstreamLeg, reported event: consuming UpstreamLegEvent)
}
