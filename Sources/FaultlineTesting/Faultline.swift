import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Faultline proxy driven from a test: launched for the test (`launch`) or already
/// running (`connect`). Rules go into sessions (`session { }`), so tests running in
/// parallel against one proxy do not see each other's faults, counters or journal.
///
/// ```swift
/// let faultline = try await Faultline.launch()
/// try await faultline.session { session in
///     try await session.add(.path("/users").fault(.status(503, retryAfter: 1).sequence([503, 503, .pass])))
///     let configuration = URLSessionConfiguration.ephemeral
///     session.configure(configuration)
///     // … run the client against faultline.proxyURL …
///     #expect(try await session.count(path: "/users") == 3)
/// }
/// ```
public final class Faultline: Sendable {
    /// Where the proxy listens for traffic (`http://127.0.0.1:PORT` when launched).
    public let proxyURL: URL
    /// The admin API's base URL.
    public let adminURL: URL
    /// The upstream a launched proxy forwards to (the demo origin's URL without `upstream:`);
    /// nil for `connect`.
    public let upstreamURL: URL?
    /// The proxy's log (JSON Lines) of a launched proxy, until `stop()`.
    public var logFile: URL? { processes.map { $0.directory.appendingPathComponent("faultline.log") } }

    let admin: AdminClient
    private let processes: LaunchedProcesses?
    private let globalRules = Locked(0)

    init(proxyURL: URL, adminURL: URL, upstreamURL: URL?, token: String?, processes: LaunchedProcesses?) {
        self.proxyURL = proxyURL
        self.adminURL = adminURL
        self.upstreamURL = upstreamURL
        self.admin = AdminClient(base: adminURL, token: token)
        self.processes = processes
    }

    deinit {
        processes?.stop()
    }

    /// A proxy already running: its admin API (`http://127.0.0.1:9090`), its listener, and
    /// the admin bearer token when it has one. `stop()` and deinit leave it running.
    public static func connect(admin: URL, proxy: URL, token: String? = nil) -> Faultline {
        Faultline(proxyURL: proxy, adminURL: admin, upstreamURL: nil, token: token, processes: nil)
    }

    /// The launched proxy's process id (nil for `connect`, and after `stop()`).
    public var pid: Int32? { processes?.proxyPID }

    /// The launched demo origin's process id (nil when an upstream was given, and after `stop()`).
    public var demoOriginPID: Int32? { processes?.originPID }

    /// Terminates a launched proxy and its demo origin (SIGTERM, SIGKILL after 3 s) and
    /// removes their temporary directory; also done on deinit. Does nothing for `connect`.
    /// Children still running when the test process exits (a test abandoned at its time
    /// limit) are killed by an exit handler; only a test process killed by a signal can
    /// leave them behind.
    public func stop() {
        processes?.stop()
    }

    /// Runs `body` in a new session and ends the session afterwards, also when `body`
    /// throws (then `body`'s error is rethrown). `ttl`: the session expires after this long
    /// without use (whole seconds, 1 s...24 h; default 600 s); `seed`: its randomness, for
    /// a replay; `clients`: IP addresses whose requests belong to it without the header.
    public func session<T: Sendable>(_ name: String = "", ttl: Duration? = nil, seed: UInt64? = nil,
                                     clients: [String] = [],
                                     _ body: (FaultlineSession) async throws -> T) async throws -> T {
        let session = try await startSession(name, ttl: ttl, seed: seed, clients: clients)
        let result: T
        do {
            result = try await body(session)
        } catch {
            // A task of its own: the body may have thrown because this task was cancelled,
            // and a cancelled task's requests fail at once.
            try? await Task { try await session.end() }.value
            throw error
        }
        try await Task { try await session.end() }.value
        return result
    }

    /// Creates a session (`POST /sessions`); end it with `end()`.
    public func startSession(_ name: String = "", ttl: Duration? = nil, seed: UInt64? = nil,
                             clients: [String] = []) async throws -> FaultlineSession {
        var fields: [String: JSONValue] = [:]
        if !name.isEmpty { fields["name"] = .string(name) }
        if let ttl { fields["ttl_s"] = .int(ttl.wholeSecondsRoundedUp) }
        if let seed { fields["seed"] = .unsigned(seed) }
        if !clients.isEmpty { fields["clients"] = .array(clients.map { .string($0) }) }
        let answer = try await admin.expectSuccess("POST", ["sessions"], body: .object(fields))
        let created = try admin.decode(CreatedSession.self, answer)
        return FaultlineSession(id: created.id, name: created.name ?? name, seed: created.seed,
                                proxyURL: proxyURL, admin: admin)
    }

    /// The global journal (every exchange, in a session or not), oldest first.
    public func requests(matching filter: RequestFilter = RequestFilter()) async throws -> [RecordedRequest] {
        let answer = try await admin.expectSuccess("GET", ["requests"], query: filter.queryItems)
        return try admin.decode(JournalAnswer.self, answer).requests
    }

    /// The Prometheus text exposition of `GET /metrics`.
    public func metrics() async throws -> String {
        try await admin.expectSuccess("GET", ["metrics"]).text
    }

    /// `GET /health` answered 200 (the proxy is up and its admin API reachable).
    public func health() async throws {
        try await admin.expectSuccess("GET", ["health"])
    }

    /// Adds a global rule (`POST /rules`, ahead of every other rule): it applies to every
    /// request, in a session or not. Prefer sessions in tests. Without a name it gets
    /// `global-rule-N`; without an upstream, a launched proxy's `"default"`.
    @discardableResult
    public func add(_ rule: Rule) async throws -> String {
        let number = globalRules.withLock { count in
            count += 1
            return count
        }
        var sent = rule.withName(orElse: "global-rule-\(number)")
        if sent.upstreamName == nil && processes != nil { sent = sent.upstream("default") }
        sent.position = "start"
        try await admin.expectSuccess("POST", ["rules"], body: sent.json)
        return sent.name ?? ""
    }

    /// Removes a global rule (`DELETE /rules/{name}`).
    public func remove(rule name: String) async throws {
        try await admin.expectSuccess("DELETE", ["rules", name])
    }
}

/// The fields of `POST /sessions`' answer this library uses.
struct CreatedSession: Decodable {
    let id: String
    let name: String?
    let seed: UInt64?
}
