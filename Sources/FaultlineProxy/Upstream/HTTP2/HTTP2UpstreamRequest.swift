import FaultlineHTTP
import FaultlineHTTP2

/// The request head an HTTP/2 upstream receives, made from the HTTP/1.1 head the exchange
/// would send an HTTP/1 upstream (`Exchange.upstreamHead`), so both protocols get the same
/// Host policy, forwarding fields, Via and request id: `:method`, `:scheme` (the upstream's),
/// `:authority` from that Host, `:path`, then the fields lowercased without the
/// connection-specific ones (RFC 9113 §8.2.2; TE only as `trailers`).
enum HTTP2UpstreamRequest {
    /// The HTTP/2 fields for `head` (HTTP/1.1 bytes up to and including the blank line).
    static func fields(fromHTTP1Head head: [UInt8], scheme: String) -> HTTPHeaders? {
        // The head was built within the client limits plus a few fields of Faultline's own.
        let decoder = HTTP1Decoder(kind: .request, limits: HTTP1DecoderLimits(
            maxTargetBytes: head.count, maxHeaderBytes: head.count, maxHeaderCount: head.count / 4 + 1))
        let status = head.withUnsafeBytes { decoder.feed($0) }
        if case .failed = status { return nil }
        for event in decoder.events {
            if case .head(let parsed) = event { return parsed.http2RequestFields(scheme: scheme) }
        }
        return nil
    }
}
