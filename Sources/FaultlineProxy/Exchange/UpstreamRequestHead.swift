import FaultlineHTTP

/// The request head an upstream receives, built once when the exchange starts
/// (`RequestHeadWriter`, one set of rules) in the form its leg sends, and kept for a retry:
/// HTTP/1 bytes for an HTTP/1 upstream, HTTP/2 fields for an HTTP/2 one. Nothing is printed
/// as HTTP/1 and parsed back on the way to an HTTP/2 upstream.
enum UpstreamRequestHead {
    /// No upstream: the request was refused before routing found one.
    case none
    /// The head as HTTP/1.1 bytes, up to and including the blank line.
    case http1([UInt8])
    /// The head as an HTTP/2 field list, pseudo-header fields first.
    case http2(HTTPHeaders)
}
