/// Make the response unparseable for the client.
public struct CorruptFault: Sendable, Equatable {
    /// How the response is broken.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// A JSON body that does not parse.
        case malformedJSON = "malformed_json"
        /// Bytes that are not HTTP, then close.
        case garbageThenClose = "garbage_then_close"
        /// A chunked body with a broken chunk size line.
        case badChunkFraming = "bad_chunk_framing"
    }

    /// How the response is broken.
    public let mode: Mode

    /// Creates a corrupt fault.
    public init(mode: Mode) {
        self.mode = mode
    }
}
