import Foundation

/// The lines a child process writes, each stamped with its arrival time; filled by a
/// reader thread, read by tests.
public final class OutputLog: @unchecked Sendable {
    /// One line and when it arrived.
    public struct Line: Sendable {
        /// The line without its terminator.
        public let text: String
        /// When its last byte arrived.
        public let time: ContinuousClock.Instant
    }

    struct State {
        var lines: [Line] = []
        var partial: [UInt8] = []
        var finished = false
        /// The descriptor the reader thread reads, and whether it is between reads (all it
        /// read so far is appended): see `settle()`.
        var source: Int32?
        var idle = false
    }

    // An NSLock (a pthread mutex) rather than `Mutex`, so ThreadSanitizer sees the locking.
    private let lock = NSLock()
    private var storage = State()

    func withState<T>(_ body: (inout State) -> T) -> T {
        lock.withLock { body(&storage) }
    }

    /// An empty log.
    public init() {}

    /// Appends raw bytes, splitting them into lines.
    public func append(_ bytes: some Sequence<UInt8>) {
        let now = ContinuousClock.now
        withState { state in
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    var text = String(decoding: state.partial, as: UTF8.self)
                    if text.hasSuffix("\r") { text.removeLast() }
                    state.lines.append(Line(text: text, time: now))
                    state.partial.removeAll(keepingCapacity: true)
                } else {
                    state.partial.append(byte)
                }
            }
        }
    }

    /// Marks end of output (the pipe closed); a last unterminated line is kept.
    public func finish() {
        let now = ContinuousClock.now
        withState { state in
            if !state.partial.isEmpty {
                state.lines.append(Line(text: String(decoding: state.partial, as: UTF8.self), time: now))
                state.partial.removeAll()
            }
            state.finished = true
        }
    }

    /// The complete lines so far.
    public var lines: [Line] { withState { $0.lines } }
    /// The complete lines so far, joined by newlines.
    public var text: String { lines.map(\.text).joined(separator: "\n") }
    /// Whether the writer closed its end.
    public var isFinished: Bool { withState { $0.finished } }

    /// Waits for a line (after the first `skipping` lines) that satisfies `predicate`.
    @discardableResult
    public func waitForLine(_ what: String, after skipping: Int = 0, timeout: Duration = .seconds(30),
                     where predicate: @escaping (String) -> Bool) async throws -> Line {
        try await Deadline.poll("\(what); output so far:\n\(text)", timeout: timeout) {
            lines.dropFirst(skipping).first { predicate($0.text) }
        }
    }

    /// Waits for a line that contains `fragment`.
    @discardableResult
    public func waitForLine(containing fragment: String, after skipping: Int = 0,
                     timeout: Duration = .seconds(30)) async throws -> Line {
        try await waitForLine("a line containing \"\(fragment)\"", after: skipping, timeout: timeout) {
            $0.contains(fragment)
        }
    }
}
