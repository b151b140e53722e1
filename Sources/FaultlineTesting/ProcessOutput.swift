import Foundation

// Launching needs Foundation's Process (Linux, macOS); iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
/// Everything a child prints on stdout and stderr (one pipe), read as it becomes readable
/// until the child closes it, so the child never blocks on a full pipe. Keeps the last
/// 64 KiB for error messages.
final class ProcessOutput: Sendable {
    private static let keptBytes = 64 * 1024
    private let text = Locked("")
    private let closed = Locked(false)

    /// Starts reading `handle` until end of file. The read happens only once the pipe is
    /// readable, so it never waits inside `read(2)`: a blocked read that a signal interrupts
    /// fails with EINTR, which Foundation's `availableData` turns into a crash of the test
    /// process (a run under `stress-ng` once died that way).
    func startReading(_ handle: FileHandle) {
        handle.readabilityHandler = { [self] handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                closed.withLock { $0 = true }
                return
            }
            let chunk = String(decoding: data, as: UTF8.self)
            text.withLock { text in
                text += chunk
                if text.utf8.count > Self.keptBytes {
                    text = String(text.suffix(Self.keptBytes / 2))
                }
            }
        }
    }

    /// What was printed so far.
    var snapshot: String { text.withLock { $0 } }

    /// True once the child closed its end (it exited, or closed its output).
    var isClosed: Bool { closed.withLock { $0 } }

    /// The address of the first complete line that starts with `prefix`
    /// (`faultline: listening on ` → `127.0.0.1:PORT`).
    func address(after prefix: String) -> String? {
        let lines = snapshot.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
    }
}
#endif
