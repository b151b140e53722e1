import Foundation

/// What `h2probe.py` saw on its connection: per stream what came back, GOAWAY, whether the
/// peer closed, the frames by type, and the waits that ran out.
public struct H2ProbeReport: Decodable, Sendable {
    /// What one stream received (a stream the probe opened, or one the peer named in a frame).
    public struct Stream: Decodable, Sendable {
        /// The final response's `:status`, nil when none came.
        public let status: Int?
        /// The final response's fields, `:status` first, in wire order.
        public let headers: [[String]]?
        /// The trailer fields, nil when none came.
        public let trailers: [[String]]?
        /// Bytes of DATA received.
        public let bodyBytes: Int
        /// Lowercase hex SHA-256 of the body, nil when no DATA came.
        public let bodySha256: String?
        /// The body's first `body_limit` bytes (default 8192) as UTF-8, invalid bytes replaced.
        public let body: String?
        /// Whether the peer ended the stream (END_STREAM).
        public let ended: Bool
        /// The RST_STREAM the peer sent on it, if any.
        public let reset: Reset?
        /// The RST_STREAM the probe sent on it (`rst` and `rapid_reset` actions).
        public let resetSent: Reset?
        /// CONTINUATION frames the probe wrote on it before the peer closed (`continuation_flood`).
        public let continuationFramesSent: Int?
        /// The label the scenario gave the stream.
        public let label: String?
        /// Milliseconds from the start of the run: stream opened, response headers, first DATA, end.
        public let openedMs: Double?
        /// See `openedMs`.
        public let headersMs: Double?
        /// See `openedMs`.
        public let firstDataMs: Double?
        /// See `openedMs`.
        public let endMs: Double?

        /// The first value of the response field `name` (lowercase, as HTTP/2 sends it).
        public func header(_ name: String) -> String? {
            headers?.first { $0.first == name }?.last
        }

        /// The first value of the trailer field `name`.
        public func trailer(_ name: String) -> String? {
            trailers?.first { $0.first == name }?.last
        }
    }

    /// An RST_STREAM or GOAWAY error code, with its RFC 9113 name.
    public struct Reset: Decodable, Sendable {
        /// The error code.
        public let code: Int
        /// Its name (`CANCEL`, `REFUSED_STREAM`, …) or the number as text.
        public let name: String
    }

    /// The GOAWAY the peer sent.
    public struct GoAway: Decodable, Sendable {
        /// The highest stream id the peer says it processed.
        public let lastStreamId: Int
        /// The error code.
        public let code: Int
        /// Its name.
        public let name: String
        /// The debug data, as UTF-8.
        public let debug: String
    }

    /// A wait of the scenario that ran out.
    public struct Timeout: Decodable, Sendable {
        /// What was awaited.
        public let waitingFor: String
        /// When it gave up, ms from the start.
        public let atMs: Double
    }

    /// Whether the TCP (and TLS) connection was made.
    public let connected: Bool
    /// The ALPN protocol negotiated over TLS, nil for h2c or when none was.
    public let alpn: String?
    /// Why the run stopped early (no h2 by ALPN, a socket error), nil when it did not.
    public let error: String?
    /// What the client's h2 state machine refused in the peer's frames, if anything.
    public let h2Error: String?
    /// Streams by id (as text).
    public let streams: [String: Stream]
    /// The peer's GOAWAY, if one came.
    public let goaway: GoAway?
    /// Whether the peer closed the connection.
    public let closed: Bool
    /// The SETTINGS values the peer sent, by name (`MAX_CONCURRENT_STREAMS`, …).
    public let peerSettings: [String: Int]
    /// PING acknowledgements received.
    public let pingsAcked: Int
    /// SETTINGS acknowledgements received.
    public let settingsAcked: Int
    /// Frames received, by type name (`DATA`, `HEADERS`, `RSTSTREAM`, `GOAWAY`, …).
    public let frames: [String: Int]
    /// The waits that ran out.
    public let timeouts: [Timeout]
    /// The ids of the streams the probe opened, in order.
    public let streamIds: [Int]?
    /// Milliseconds the run took.
    public let elapsedMs: Double

    /// Stream `id`, if anything happened on it.
    public func stream(_ id: Int) -> Stream? { streams[String(id)] }

    /// The stream the scenario labelled `label`.
    public func stream(labelled label: String) -> Stream? {
        streams.values.first { $0.label == label }
    }
}
