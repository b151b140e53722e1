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
    /// How many earlier requests in the same journal (the session's) had this one's method,
    /// path and query: 0 for a first try, 1 for the client's first retry, 2 for its second.
    /// Counted among the entries the journal still holds (`journal.capacity`).
    public let retry: Int
    /// 1-based index of this request on its client connection (HTTP/2: in stream order): a
    /// client that retries on a new connection starts again at 1, so this is no retry count.
    public let connectionRequest: Int
    /// The former name of `connectionRequest`.
    @available(*, deprecated, renamed: "connectionRequest", message: "it counts requests on one connection; retries are `retry`")
    public var attempt: Int { connectionRequest }
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
    /// The scenario phase the request met; nil when no scenario ran for it.
    public let scenario: ScenarioMark?

    private enum CodingKeys: String, CodingKey {
        case seq, session, method, path, query, route, upstream, status, faults, retry, connection, error, time, scenario
        case connectionRequest = "connection_request"
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
        retry = try container.decodeIfPresent(Int.self, forKey: .retry) ?? 0
        connectionRequest = try container.decodeIfPresent(Int.self, forKey: .connectionRequest) ?? 1
        connection = try container.decodeIfPresent(Int.self, forKey: .connection) ?? 0
        start = .fractionalMilliseconds(try container.decode(Double.self, forKey: .startMs))
        duration = try container.decodeIfPresent(Double.self, forKey: .durationMs).map(Duration.fractionalMilliseconds)
        firstByte = try container.decodeIfPresent(Double.self, forKey: .firstByteMs).map(Duration.fractionalMilliseconds)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        protocolVersion = try container.decodeIfPresent(String.self, forKey: .protocolVersion)
        sessionUnknown = try container.decodeIfPresent(Bool.self, forKey: .sessionUnknown) ?? false
        time = try container.decodeIfPresent(String.self, forKey: .time)
        scenario = try container.decodeIfPresent(ScenarioMark.self, forKey: .scenario)
    }
}
