import Foundation

// Launching is for Linux and macOS; iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
/// Everything a child prints on stdout and stderr (one pipe), read as it becomes readable
/// until the child closes it, so the child never blocks on a full pipe. Keeps the last
/// 64 KiB for error messages.
final class ProcessOutput: Sendable {
    private static let keptBytes = 64 * 1024
    private let text = Locked("")
    private let closed = Locked(false)

    /// Reads `fd` on a thread of its own until end of file, then closes it. Plain read(2)
    /// with EINTR retried: Foundation's `availableData` traps on an interrupted read (a run
    /// under `stress-ng` once died that way), and its readability handler is not called at
    /// end of file.
    func startReading(_ fd: Int32) {
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let chunk = String(decoding: buffer[0..<count], as: UTF8.self)
                text.withLock { text in
                    text += chunk
                    if text.utf8.count > Self.keptBytes {
                        text = String(text.suffix(Self.keptBytes / 2))
                    }
                }
            }
            close(fd)
            closed.withLock { $0 = true }
        }.start()
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
