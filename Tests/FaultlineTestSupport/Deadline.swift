import Foundation

/// Polls a condition until it holds or a time limit passes: tests never sleep a fixed time
/// to wait for something, they poll for it with a bound.
public enum Deadline {
    /// Returns the first non-nil value of `probe`, polling every `interval`, or throws after `timeout`.
    public static func poll<T>(_ what: @autoclosure () -> String, timeout: Duration,
                               interval: Duration = .milliseconds(20),
                               _ probe: () throws -> T?) async throws -> T {
        let clock = ContinuousClock()
        let end = clock.now + timeout
        while true {
            if let value = try probe() { return value }
            if clock.now >= end { throw TestFailure("timed out after \(timeout) waiting for \(what())") }
            try await Task.sleep(for: interval)
        }
    }

    /// Polls `probe` without suspending (for code on a plain thread), every `interval`,
    /// until it returns a value; throws after `timeout`.
    @discardableResult
    public static func pollBlocking<T>(_ what: @autoclosure () -> String, timeout: Duration,
                                       interval: Duration = .milliseconds(5),
                                       _ probe: () throws -> T?) throws -> T {
        let clock = ContinuousClock()
        let end = clock.now + timeout
        while true {
            if let value = try probe() { return value }
            if clock.now >= end { throw TestFailure("timed out after \(timeout) waiting for \(what())") }
            Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
        }
    }
}
