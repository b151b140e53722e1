import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension OutputLog {
    /// Appends everything `reader` yields, on a thread of its own, until end of file; then
    /// finishes the log and closes the reader.
    public func startReading(_ reader: FileHandle) {
        let fd = reader.fileDescriptor
        withState {
            $0.source = fd
            $0.idle = true
        }
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                // Waits for bytes without taking them, so that `settle()` can tell "between reads,
                // nothing pending" from "read, not yet appended" (`idle` is false from before
                // the read until the bytes are lines).
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, -1)
                if polled < 0 && errno == EINTR { continue }
                withState { $0.idle = false }
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    append(buffer[0..<count])
                    withState { $0.idle = true }
                } else if count < 0 && errno == EINTR {
                    withState { $0.idle = true }
                } else {
                    break
                }
            }
            finish()
            withState { $0.source = nil }
            try? reader.close()
        }.start()
    }

    /// Waits until every byte the writer wrote before this call is in `lines` (blocking, at
    /// most `timeout`): the reader thread waits for more with nothing left in the pipe, or the
    /// writer closed. A test that saw an effect of a line the child printed before it (a
    /// response the origin sent after logging the request) reads the log after this: a reader
    /// thread a loaded machine runs late would otherwise miss the line.
    public func settle(timeout: Duration = .seconds(30)) {
        _ = try? Deadline.pollBlocking("the output reader to catch up", timeout: timeout) { () -> Void? in
            withState { state -> Void? in
                guard !state.finished, let fd = state.source else { return () }
                guard state.idle else { return nil }
                var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                return poll(&pending, 1, 0) == 0 ? () : nil
            }
        }
    }

    /// `lines` once the log is settled (`settle()`): what a child printed before an effect the
    /// test already saw.
    public var settledLines: [Line] {
        settle()
        return lines
    }
}
