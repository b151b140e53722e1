/// A response Faultline writes itself (a refusal or a gateway error), whatever protocol
/// carries it to the client.
struct LocalResponse: Equatable {
    /// The status code.
    var status: Int
    /// The plain-text (or JSON) body without its final newline.
    var message: String
    /// The body's media type.
    var contentType = "text/plain; charset=utf-8"
    /// Whether the client connection may carry another request afterwards.
    var keepAlive: Bool
    /// False for a HEAD request: the head only.
    var includeBody = true
    /// A forward proxy's 407: the answer names the scheme it wants (`Proxy-Authenticate`).
    var asksProxyCredentials = false

    /// What the log record notes for it (statuses below 400 note nothing).
    var error: ExchangeError? { status >= 400 ? ExchangeError(localStatus: status) : nil }
}
