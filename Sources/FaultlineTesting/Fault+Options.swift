extension Fault {
    /// The body modes of a `corrupt` fault.
    public enum CorruptMode: String, Sendable, CaseIterable {
        /// The body's first byte is replaced: a JSON parse error.
        case malformedJSON = "malformed_json"
        /// Bytes that are not HTTP, then the connection closes.
        case garbageThenClose = "garbage_then_close"
        /// Broken chunked framing (HTTP/2: a 200 with a partial body, then RST_STREAM).
        case badChunkFraming = "bad_chunk_framing"
    }

    /// When a `delay` applies.
    public enum DelayPhase: String, Sendable, CaseIterable {
        /// Before the upstream is contacted (the default).
        case request
        /// Before the first response byte.
        case firstByte = "first_byte"
    }

    /// How a `hang` with a duration ends.
    public enum HangEnding: String, Sendable, CaseIterable {
        /// The connection is closed (the default).
        case close
        /// The connection is reset.
        case reset
    }

    /// The built-in bad networks of the `profile` fault.
    public enum NetworkProfile: String, Sendable, CaseIterable {
        /// 780 kbit/s down, 330 kbit/s up, 100 ms latency each way.
        case threeG = "3g"
        /// 1 Mbit/s both ways, 500 ms each way, 10 % of requests lost.
        case veryBad = "very-bad"
        /// Nothing gets through: requests hang until the client gives up.
        case totalLoss = "100-loss"
    }

    /// An HTTP/2 error code (RFC 9113 section 7) for `reset`, `rstStream` and `goAway`:
    /// a registered name, or any number.
    public struct ErrorCode: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        let json: JSONValue

        /// A code by name, in any case (`"REFUSED_STREAM"`).
        public init(stringLiteral name: String) { json = .string(name) }
        /// A code by number (0...4294967295).
        public init(integerLiteral number: Int) { json = .int(number) }

        /// NO_ERROR (0x0).
        public static let noError: ErrorCode = "NO_ERROR"
        /// PROTOCOL_ERROR (0x1).
        public static let protocolError: ErrorCode = "PROTOCOL_ERROR"
        /// INTERNAL_ERROR (0x2).
        public static let internalError: ErrorCode = "INTERNAL_ERROR"
        /// FLOW_CONTROL_ERROR (0x3).
        public static let flowControlError: ErrorCode = "FLOW_CONTROL_ERROR"
        /// REFUSED_STREAM (0x7): the client may retry safely.
        public static let refusedStream: ErrorCode = "REFUSED_STREAM"
        /// CANCEL (0x8).
        public static let cancel: ErrorCode = "CANCEL"
        /// ENHANCE_YOUR_CALM (0xb).
        public static let enhanceYourCalm: ErrorCode = "ENHANCE_YOUR_CALM"
        /// HTTP_1_1_REQUIRED (0xd).
        public static let http11Required: ErrorCode = "HTTP_1_1_REQUIRED"
    }
}
