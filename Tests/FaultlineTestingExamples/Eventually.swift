/// Nothing arrived within the time `eventually` allows.
struct EventuallyTimedOut: Error, CustomStringConvertible {
    let timeout: Duration
    var description: String { "nothing arrived within \(timeout)" }
}

/// Polls `probe` until it returns a value, for what the proxy records only after the client
/// has moved on (an exchange the client abandoned ends when the proxy notices).
func eventually<T>(timeout: Duration = .seconds(10), _ probe: () async throws -> T?) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try await probe() { return value }
        guard ContinuousClock.now < deadline else { throw EventuallyTimedOut(timeout: timeout) }
        try await Task.sleep(for: .milliseconds(50))
    }
}
