import FaultlineLog

/// One exchange as a request journal keeps it: what a test asks about afterwards (which
/// requests arrived, in which order and how far apart, what they got). Built from the
/// exchange's redacted log record, so it carries no secret the log would not.
struct JournalEntry: Sendable, Encodable {
    /// 1, 2, … per journal; set when appended.
    var seq = 0
    /// The session the exchange ran in; nil outside sessions.
    var session: String?
    /// Wall-clock start.
    var time: LogTimestamp
    /// Monotonic start (ns); `start_ms` is measured from the journal's origin.
    var startNs: UInt64
    /// Milliseconds from the journal's origin to the start; set when appended.
    var startMs = 0.0
    let method: String?
    let path: String?
    let query: String?
    /// The hash of method, path and query, made once: the journal looks the request up
    /// twice per exchange (its own count, and the count of the entry it pushes out).
    let requestHash: Int
    var route: String?
    var upstream: String?
    var status: Int?
    var faults: [String]
    /// 1-based index of the request on its client connection (HTTP/2: in stream order).
    var connectionRequest: Int
    /// How many earlier entries still in the same journal have this one's method, path and
    /// query: 0 for a first try, 1 for the client's first retry, …; set when appended.
    var retry = 0
    var connection: Int
    var clientProtocol: String?
    var durationMs: Double?
    var firstByteMs: Double?
    var error: String?
    var sessionUnknown: Bool
    /// The scenario phase the request met (`ExchangeTrace.scenarioPhase`); nil when none ran.
    var scenario: ScenarioPhaseMark?

    /// A scenario and the phase of it a request met.
    struct ScenarioPhaseMark: Sendable, Encodable {
        let name: String
        /// 0-based index in the scenario's phases.
        let phase: Int
        let phaseName: String?
        /// Times the scenario had looped back to its first phase.
        let cycle: Int

        private enum CodingKeys: String, CodingKey {
            case name, phase, cycle
            case phaseName = "phase_name"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(phase, forKey: .phase)
            try container.encode(phaseName, forKey: .phaseName)
            try container.encode(cycle, forKey: .cycle)
        }
    }

    /// The entry for the exchange `record` describes.
    init(record: LogRecord, startNs: UInt64, session: String?, sessionUnknown: Bool, connectionRequest: Int, connection: Int,
         scenario: ScenarioPhaseMark? = nil) {
        self.session = session
        time = record.time
        self.startNs = startNs
        method = record.method
        path = record.path
        query = record.query
        var hasher = Hasher()
        hasher.combine(method)
        hasher.combine(path)
        hasher.combine(query)
        requestHash = hasher.finalize()
        route = record.route
        upstream = record.upstream
        status = record.statusCode
        faults = record.faults
        self.connectionRequest = connectionRequest
        self.connection = connection
        clientProtocol = record.protocolVersion
        durationMs = record.totalMs
        firstByteMs = record.firstByteMs
        error = record.errorType
        self.sessionUnknown = sessionUnknown
        self.scenario = scenario
    }

    private enum CodingKeys: String, CodingKey {
        case seq, session, time, method, path, query, route, upstream, status, faults, retry, connection, error
        case connectionRequest = "connection_request"
        case startMs = "start_ms", clientProtocol = "protocol", durationMs = "duration_ms", firstByteMs = "first_byte_ms"
        case sessionUnknown = "session_unknown"
        case scenario
    }

    /// Every key is present, null when unknown, so clients decode one shape.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(session, forKey: .session)
        try container.encode(time.rfc3339, forKey: .time)
        try container.encode(startMs, forKey: .startMs)
        try container.encode(method, forKey: .method)
        try container.encode(path, forKey: .path)
        try container.encode(query, forKey: .query)
        try container.encode(route, forKey: .route)
        try container.encode(upstream, forKey: .upstream)
        try container.encode(status, forKey: .status)
        try container.encode(faults, forKey: .faults)
        try container.encode(retry, forKey: .retry)
        try container.encode(connectionRequest, forKey: .connectionRequest)
        try container.encode(connection, forKey: .connection)
        try container.encode(clientProtocol, forKey: .clientProtocol)
        try container.encode(durationMs, forKey: .durationMs)
        try container.encode(firstByteMs, forKey: .firstByteMs)
        try container.encode(error, forKey: .error)
        try container.encode(sessionUnknown, forKey: .sessionUnknown)
        try container.encode(scenario, forKey: .scenario)
    }
}

extension JournalEntry {
    /// What makes two entries the same request for `retry`: method, path and (redacted) query.
    /// Hashed by the entry's `requestHash`: the strings are read again only to tell apart
    /// two requests whose hashes collide.
    struct RequestKey: Hashable {
        let method: String?
        let path: String?
        let query: String?
        let hash: Int

        static func == (left: RequestKey, right: RequestKey) -> Bool {
            left.hash == right.hash && left.method == right.method && left.path == right.path && left.query == right.query
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }
    }

    var requestKey: RequestKey { RequestKey(method: method, path: path, query: query, hash: requestHash) }
}
