import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session on the proxy: its rules apply only to requests that carry its header
/// (`configure(_:)`, `apply(to:)`) or come from its `clients`, with their own counters,
/// seeded randomness and journal. Made by `Faultline.session { }` (ended on exit) or
/// `Faultline.startSession()` (end it with `end()`).
public final class FaultlineSession: Sendable {
    /// The session id the proxy chose (`[a-z0-9]{16,32}`).
    public let id: String
    /// The name given at creation.
    public let name: String
    /// The seed of the session's randomness, as the proxy reported it (to replay a run).
    public let seed: UInt64?
    /// The header that puts a request in a session; its value is the session id.
    public static let headerName = "X-Faultline-Session"
    /// Where the proxy listens (for `configure(_:proxy:)`).
    public let proxyURL: URL

    let admin: AdminClient
    private let lifecycle = Locked(Lifecycle.active(rulesAdded: 0))

    private enum Lifecycle {
        case active(rulesAdded: Int)
        case ended
    }

    init(id: String, name: String, seed: UInt64?, proxyURL: URL, admin: AdminClient) {
        self.id = id
        self.name = name
        self.seed = seed
        self.proxyURL = proxyURL
        self.admin = admin
    }

    /// Adds a rule to the session; without a name it gets `rule-N` (unique in this
    /// session). Returns the name. Without `upstream(_:)`, matched requests go where they
    /// would go anyway. The newest rule is matched first (as with the proxy's `POST /rules`),
    /// so a later rule can override an earlier one on the same path. Throws `refused` with
    /// the proxy's field path when the rule is invalid.
    @discardableResult
    public func add(_ rule: Rule) async throws -> String {
        let number = try lifecycle.withLock { state -> Int in
            guard case .active(let added) = state else { throw FaultlineError.sessionEnded(id: id) }
            state = .active(rulesAdded: added + 1)
            return added + 1
        }
        let named = rule.withName(orElse: "rule-\(number)")
        try await call("POST", ["rules"], body: named.json)
        return named.name ?? ""
    }

    /// Removes the session's rule of that name.
    public func remove(rule name: String) async throws {
        try await call("DELETE", ["rules", name], sessionGoneOn404: false)
    }

    /// Ends the session on the proxy (`DELETE /sessions/{id}`); its rules and journal go.
    /// Ending an ended (or expired) session does nothing.
    public func end() async throws {
        let wasActive = lifecycle.withLock { state -> Bool in
            defer { state = .ended }
            if case .active = state { return true }
            return false
        }
        guard wasActive else { return }
        let answer = try await admin.send("DELETE", ["sessions", id])
        guard (200...299).contains(answer.status) || answer.status == 404 else { throw AdminClient.refusal(answer) }
    }

    /// The session's journal entries that match `filter`, oldest first.
    public func requests(matching filter: RequestFilter = RequestFilter()) async throws -> [RecordedRequest] {
        let answer = try await call("GET", ["requests"], query: filter.queryItems)
        return try admin.decode(JournalAnswer.self, answer).requests
    }

    /// How many of the session's requests match (a nil argument matches anything).
    public func count(path: String? = nil, method: String? = nil, route: String? = nil,
                      status: Int? = nil) async throws -> Int {
        try await requests(matching: RequestFilter(path: path, method: method, route: route, status: status)).count
    }

    /// Time between the starts of consecutive matching requests (n requests → n-1 gaps),
    /// to check a client's backoff or its respect of Retry-After. Ordered by start: the journal
    /// numbers entries as exchanges end, which for overlapping requests is another order.
    public func gaps(path: String? = nil, method: String? = nil) async throws -> [Duration] {
        let entries = try await requests(matching: RequestFilter(path: path, method: method)).sorted { $0.start < $1.start }
        return zip(entries, entries.dropFirst()).map { $1.start - $0.start }
    }

    /// Restarts the counters, sequences, random streams and windows of the session's rules,
    /// and clears its journal.
    public func resetCounters() async throws {
        try await call("POST", ["reset"])
    }

    /// One admin call under `/sessions/{id}/…`; a 404 there means the session is gone.
    @discardableResult
    private func call(_ method: String, _ path: [String], query: [URLQueryItem] = [], body: JSONValue? = nil,
                      sessionGoneOn404: Bool = true) async throws -> AdminClient.Answer {
        if lifecycle.withLock({ if case .ended = $0 { return true } else { return false } }) {
            throw FaultlineError.sessionEnded(id: id)
        }
        let answer = try await admin.send(method, ["sessions", id] + path, query: query, body: body)
        if (200...299).contains(answer.status) { return answer }
        // The proxy's 404 for an unknown session names its id; any other 404 (an unknown
        // rule) is a refusal like the others.
        if answer.status == 404 && sessionGoneOn404 && answer.text.contains(id) { throw FaultlineError.sessionEnded(id: id) }
        throw AdminClient.refusal(answer)
    }
}

/// `{"requests": [...], "dropped": N}` of the journal endpoints.
struct JournalAnswer: Decodable {
    let requests: [RecordedRequest]
    let dropped: Int?
}
