extension FaultlineSession {
    /// Waits until at least `count` of the session's journal entries match `filter`, then
    /// returns every match. The proxy journals an exchange when it ends, which can be a
    /// moment after the client got its response: use this rather than `requests`/`count`
    /// right after the client's last request. When `timeout` passes first it throws
    /// `FaultlineError.requestsShort`, which also counts the matching requests that arrived
    /// outside every session (the usual cause: a client not given the session's header,
    /// `configure(_:)` or `apply(to:)`).
    public func waitForRequests(_ count: Int, matching filter: RequestFilter = RequestFilter(),
                                timeout: Duration = .seconds(10)) async throws -> [RecordedRequest] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let found = try await requests(matching: filter)
            if found.count >= count { return found }
            if clock.now >= deadline {
                let global = try await admin.expectSuccess("GET", ["requests"], query: filter.queryItems)
                let outside = try admin.decode(JournalAnswer.self, global).requests.filter { $0.session == nil }.count
                throw FaultlineError.requestsShort(session: id, wanted: count, inSession: found.count,
                                                   outsideSessions: outside, waited: timeout)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `waitForRequests(_:matching:timeout:)` for requests with this path (and method).
    public func waitForRequests(_ count: Int, path: String?, method: String? = nil,
                                timeout: Duration = .seconds(10)) async throws -> [RecordedRequest] {
        try await waitForRequests(count, matching: RequestFilter(path: path, method: method), timeout: timeout)
    }
}
