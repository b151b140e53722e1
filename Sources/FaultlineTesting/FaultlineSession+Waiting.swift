extension FaultlineSession {
    /// Waits until at least `count` of the session's journal entries match `filter`, then
    /// returns every match; when `timeout` passes first, returns what there is (so the
    /// test's expectation shows the shortfall). The proxy journals an exchange when it
    /// ends, which can be a moment after the client got its response: use this rather
    /// than `requests`/`count` right after the client's last request.
    public func waitForRequests(_ count: Int, matching filter: RequestFilter = RequestFilter(),
                                timeout: Duration = .seconds(10)) async throws -> [RecordedRequest] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let found = try await requests(matching: filter)
            if found.count >= count || clock.now >= deadline { return found }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `waitForRequests(_:matching:timeout:)` for requests with this path (and method).
    public func waitForRequests(_ count: Int, path: String?, method: String? = nil,
                                timeout: Duration = .seconds(10)) async throws -> [RecordedRequest] {
        try await waitForRequests(count, matching: RequestFilter(path: path, method: method), timeout: timeout)
    }
}
