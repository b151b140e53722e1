import FaultlineTestSupport
import Synchronization

/// Values appended from any thread (a loop, a reader thread) and read by the test.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    /// Appends `value`.
    func append(_ value: Value) { values.withLock { $0.append(value) } }

    /// Everything appended so far, in order.
    var all: [Value] { values.withLock { $0 } }

    /// Waits (blocking, bounded) until `condition` holds for the values.
    @discardableResult
    func wait(_ what: String, timeout: Duration = .seconds(10), until condition: ([Value]) -> Bool) throws -> [Value] {
        try Deadline.pollBlocking("\(what); have \(all.count) values", timeout: timeout) {
            let current = all
            return condition(current) ? current : nil
        }
    }
}
