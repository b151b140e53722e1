import Foundation

/// One exchange as the proxy's journal recorded it (headers and bodies are never
/// journaled; secret query parameters arrive redacted).
public struct RecordedRequest: Sendable, Decodable, Equatable {
    /// 1, 2, … per journal, in the order exchanges started.
    public let seq: Int
    /// The session id, or nil outside a session.
    public let session: String?
    /// The request method.
    public let method: String
    /// The path, without the query.
    public let path: String
    /// The query, redacted as in the logs; nil when there is none.
    public let query: String?
    /// The rule or route that took the request.
    public let route: String?
    /// The upstream it went to.
    public let upstream: String?
    /// The status the client got; nil when it got no response (reset, hang, close).
    public let status: Int?
    /// The faults that fired, as log records name them (`rule/fault`), `[]` when none.
    public let faults: [String]
    /// 1-based index of this request on its client connection.
    public let attempt: Int
    /// A per-process client connection number: equal numbers mean one connection.
    public let connection: Int
    /// When the exchange started, since the session was created (the global journal: since
    /// the proxy started). Exact to the microsecond, so gaps between attempts can be checked.
    public let start: Duration
    /// How long the exchange took; nil when unknown.
    public let duration: Duration?
    /// Time to the first response byte; nil when none was sent.
    public let firstByte: Duration?
    /// The log record's error type (`upstream_reset`, `client_closed`, …), or nil.
    public let error: String?
    /// The HTTP version the client spoke (`"1.1"`, `"2"`).
    public let protocolVersion: String?
    /// True when the request named a session the proxy did not know (it then ran outside
    /// any session).
    public let sessionUnknown: Bool
    /// Wall-clock time of the start, as the proxy printed it (ISO 8601, UTC).
    public let time: String?

    private enum CodingKeys: String, CodingKey {
        case seq, session, method, path, query, route, upstream, status, faults, attempt, connection, error, time
        case startMs = "start_ms", durationMs = "duration_ms", firstByteMs = "first_byte_ms"
        case protocolVersion = "protocol", sessionUnknown = "session_unknown"
    }

    /// Decodes a journal entry of the admin API.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seq = try container.decode(Int.self, forKey: .seq)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        method = try container.decode(String.self, forKey: .method)
        path = try container.decode(String.self, forKey: .path)
        query = try container.decodeIfPresent(String.self, forKey: .query)
        route = try container.decodeIfPresent(String.self, forKey: .route)
        upstream = try container.decodeIfPresent(String.self, forKey: .upstream)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        faults = try container.decodeIfPresent([String].self, forKey: .faults) ?? []
        attempt = try container.decodeIfPresent(Int.self, forKey: .attempt) ?? 1
        connection = try container.decodeIfPresent(Int.self, forKey: .connection) ?? 0
        start = .fractionalMilliseconds(try container.decode(Double.self, forKey: .startMs))
        duration = try container.decodeIfPresent(Double.self, forKey: .durationMs).map(Duration.fractionalMilliseconds)
        firstByte = try container.decodeIfPresent(Double.self, forKey: .firstByteMs).map(Duration.fractionalMilliseconds)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        protocolVersion = try container.decodeIfPresent(String.self, forKey: .protocolVersion)
        sessionUnknown = try container.decodeIfPresent(Bool.self, forKey: .sessionUnknown) ?? false
        time = try container.decodeIfPresent(String.self, forKey: .time)
    }
}
