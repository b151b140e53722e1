/// How the adapter frames the final response head for the client.
struct ResponseHeadShape: Equatable {
    var framing: BodyFraming
    var keepAlive: Bool
    /// A 101 answering an upgrade.
    var upgrade = false
    /// Whether the head carries `X-Faultline-Fault` (its value is `ExchangeSetup.faultMarker`).
    var marked = false
}
