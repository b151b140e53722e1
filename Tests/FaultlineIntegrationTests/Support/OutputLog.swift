import Foundation
import Synchronization

/// The lines a child process writes, each stamped with its arrival time; filled by a
/// reader thread, read by tests.
final class OutputLog: Sendable {
    struct Line: Sendable {
        let text: String
        let time: ContinuousClock.Instant
    }

    private struct State {
        var lines: [Line] = []
        var partial: [UInt8] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// Appends raw bytes, splitting them into lines.
    func append(_ bytes: some Sequence<UInt8>) {
        let now = ContinuousClock.now
        state.withLock { state in
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
    func finish() {
        let now = ContinuousClock.now
        state.withLock { state in
            if !state.partial.isEmpty {
                state.lines.append(Line(text: String(decoding: state.partial, as: UTF8.self), time: now))
                state.partial.removeAll()
            }
            state.finished = true
        }
    }

    var lines: [Line] { state.withLock { $0.lines } }
    var text: String { lines.map(\.text).joined(separator: "\n") }
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Waits for a line (after the first `skipping` lines) that satisfies `predicate`.
    @discardableResult
    func waitForLine(_ what: String, after skipping: Int = 0, timeout: Duration = .seconds(10),
                     where predicate: @escaping (String) -> Bool) async throws -> Line {
        try await Deadline.poll("\(what); output so far:\n\(text)", timeout: timeout) {
            lines.dropFirst(skipping).first { predicate($0.text) }
        }
    }

    /// Waits for a line that contains `fragment`.
    @discardableResult
    func waitForLine(containing fragment: String, after skipping: Int = 0,
                     timeout: Duration = .seconds(10)) async throws -> Line {
        try await waitForLine("a line containing \"\(fragment)\"", after: skipping, timeout: timeout) {
            $0.contains(fragment)
        }
    }
}
