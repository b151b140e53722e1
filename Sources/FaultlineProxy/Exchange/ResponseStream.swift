/// The response being relayed.
struct ResponseStream: Equatable {
    /// How the body is delimited towards the client.
    var framing: BodyFraming
    /// Whether the client connection may carry another request after this response.
    var keepAlive: Bool
    /// Whether a pacer shapes the bytes (first-byte delay, throttle).
    var paced: Bool
    /// Body bytes passed to the client so far (for cut and truncate faults).
    var bodyBytesOut = 0
}
