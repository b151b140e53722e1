#if canImport(Glibc)
import Glibc
#endif
import FaultlineSync
import Synchronization

/// The state shared by a `LogSink` and its writer thread. Callers only take the mutex
/// to append bytes; the writer swaps the whole buffer out and writes it with blocking
/// `write(2)` outside the lock, so a stuck destination stalls only the writer.
final class LogSinkCore: Sendable {
    let queue = TracedMutex(SinkQueue())
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

    /// How long the writer lets lines gather after a write.
    static let batchMicroseconds: UInt32 = 5_000

    init(maxRecords: Int, maxBytes: Int) {
        self.maxRecords = max(1, maxRecords)
        self.maxBytes = max(1, maxBytes)
    }

    /// Queues `line` unless the queue is full; never blocks on I/O.
    func enqueue(_ line: UnsafeRawBufferPointer) -> Bool {
        let (accepted, wakeWriter) = queue.withLock { state -> (Bool, Bool) in
            guard !state.stopping, state.records < maxRecords, state.pending.count + line.count <= maxBytes else {
                return (false, false)
            }
            // Only a sleeping writer is woken; a busy one finds the line on its next pass,
            // so a record costs a mutex and a copy, not a futex wake.
            let wake = state.writerWaiting
            state.writerWaiting = false
            state.pending.append(contentsOf: line)
            state.records += 1
            state.accepted += 1
            return (true, wake)
        }
        if !accepted {
            dropped.add(1, ordering: .relaxed)
        } else if wakeWriter {
            wake.post()
        }
        return accepted
    }

    /// The writer thread's loop; `fd` is the first descriptor, closed at exit when `owned`.
    func run(fd initial: Int32, owned: Bool) {
        var fd = initial
        var spare: [UInt8] = []
        while true {
            var count = 0
            var replacement: Int32?
            let (stopping, idle) = queue.withLock { state -> (Bool, Bool) in
                swap(&state.pending, &spare)
                count = state.records
                state.records = 0
                replacement = state.replacement
                state.replacement = nil
                let idle = count == 0 && replacement == nil && !state.stopping
                if idle { state.writerWaiting = true }
                return (state.stopping, idle)
            }
            if idle {
                wake.wait()
                continue
            }
            if let replacement {
                if owned { Glibc.close(fd) }
                fd = replacement
            }
            if !spare.isEmpty { writeAll(fd, spare) }
            spare.removeAll(keepingCapacity: spare.capacity <= 1 << 20)
            completed.add(count, ordering: .releasing)
            if stopping {
                if owned { Glibc.close(fd) }
                finished.store(true, ordering: .releasing)
                return
            }
            // Let lines gather: under load the writer makes one write(2) per interval
            // instead of one per record (and the callers never wake it).
            usleep(Self.batchMicroseconds)
        }
    }

    /// Waits until every record accepted before the call was handed to `write(2)`, or
    /// `timeout` seconds passed; false on timeout (a stalled destination).
    func flush(timeout: Double) -> Bool {
        let target = queue.withLock { $0.accepted }
        return Self.poll(timeout: timeout) { completed.load(ordering: .acquiring) >= target }
    }

    /// Stops accepting records, lets the writer drain the queue and exit (closing an owned
    /// descriptor), and waits up to `timeout` seconds for it; false on timeout.
    func close(timeout: Double) -> Bool {
        queue.withLock { $0.stopping = true }
        wake.post()
        return Self.poll(timeout: timeout) { finished.load(ordering: .acquiring) }
    }

    private static func poll(timeout: Double, _ done: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        while !done() {
            if ContinuousClock.now >= deadline { return false }
            usleep(1000)
        }
        return true
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
