#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The state shared by a `LogSink` and its writer thread. Callers only take the mutex
/// to append bytes; the writer swaps the whole buffer out and writes it with blocking
/// `write(2)` outside the lock, so a stuck destination stalls only the writer.
final class LogSinkCore: Sendable {
    let queue = Mutex(SinkQueue())
    let wake = SinkSemaphore()
    let maxRecords: Int
    let maxBytes: Int
    /// Records dropped because the queue was full or the sink closed.
    let dropped = Atomic<Int>(0)
    /// Records handed to `write(2)` (written or failed), for `flush`.
    let completed = Atomic<Int>(0)
    /// Batches whose write failed (EPIPE, ENOSPC…); their records are lost.
    let failedWrites = Atomic<Int>(0)
    /// The errno of the last failed write.
    let lastWriteError = Atomic<Int32>(0)
    /// Set when the writer thread has exited.
    let finished = Atomic<Bool>(false)

    init(maxRecords: Int, maxBytes: Int) {
        self.maxRecords = max(1, maxRecords)
        self.maxBytes = max(1, maxBytes)
    }

    /// Queues `line` unless the queue is full; never blocks on I/O.
    func enqueue(_ line: [UInt8]) -> Bool {
        let (accepted, wasEmpty) = queue.withLock { state -> (Bool, Bool) in
            guard !state.stopping, state.records < maxRecords, state.pending.count + line.count <= maxBytes else {
                return (false, false)
            }
            let wasEmpty = state.records == 0
            state.pending.append(contentsOf: line)
            state.records += 1
            state.accepted += 1
            return (true, wasEmpty)
        }
        if !accepted {
            dropped.add(1, ordering: .relaxed)
        } else if wasEmpty {
            wake.post()
        }
        return accepted
    }

    /// The writer thread's loop; `fd` is the first descriptor, closed at exit when `owned`.
    func run(fd initial: Int32, owned: Bool) {
        var fd = initial
        var spare: [UInt8] = []
        while true {
            wake.wait()
            var count = 0
            var replacement: Int32?
            let stopping = queue.withLock { state in
                swap(&state.pending, &spare)
                count = state.records
                state.records = 0
                replacement = state.replacement
                state.replacement = nil
                return state.stopping
            }
            if let replacement {
                if owned { close(fd) }
                fd = replacement
            }
            if !spare.isEmpty { writeAll(fd, spare) }
            spare.removeAll(keepingCapacity: spare.capacity <= 1 << 20)
            completed.add(count, ordering: .releasing)
            if stopping {
                if owned { close(fd) }
                finished.store(true, ordering: .releasing)
                return
            }
        }
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let result = write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if result > 0 {
                    offset += result
                } else if result < 0, errno == EINTR {
                    continue
                } else {
                    failedWrites.add(1, ordering: .relaxed)
                    lastWriteError.store(result < 0 ? errno : EIO, ordering: .relaxed)
                    return
                }
            }
        }
    }
}
