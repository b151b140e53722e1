#if canImport(Glibc)
import Glibc
#endif
import FaultlineSync
import Synchronization

/// Operator events (listening, TLS failures, pin reports and warnings, reload errors) on
/// standard error without ever blocking the thread that reports them, which is often an
/// event loop: lines go to a bounded queue drained by a writer thread, as the log sink's
/// records do. At most `ratePerSecond` lines a second are accepted on average (bursts of
/// `burst`); a line refused by the rate or by a full queue (stderr stalled) is dropped and
/// counted, and the next line written first says how many were dropped.
public final class OperatorEventQueue: Sendable {
    private struct Bucket {
        var tokens: Double
        var last: ContinuousClock.Instant
        /// Dropped since the last notice.
        var unreported = 0
    }

    private let core: LogSinkCore
    private let bucket: TracedMutex<Bucket>
    private let ratePerSecond: Double
    private let burst: Double
    private let dropped = Atomic<Int>(0)

    /// A queue writing to `fd` (not closed: standard error by default), holding at most
    /// `maxLines` lines or `maxBytes` bytes. Throws when the writer thread cannot start.
    public init(fd: Int32 = STDERR_FILENO, ratePerSecond: Int = 20, burst: Int = 100,
                maxLines: Int = 1000, maxBytes: Int = 1 << 20) throws(LogSinkError) {
        let core = LogSinkCore(maxRecords: maxLines, maxBytes: maxBytes)
        self.core = core
        self.ratePerSecond = Double(max(1, ratePerSecond))
        self.burst = Double(max(1, burst))
        bucket = TracedMutex(Bucket(tokens: Double(max(1, burst)), last: .now))
        try WriterThread.start { core.run(fd: fd, owned: false) }
    }

    deinit {
        core.queue.withLock { $0.stopping = true }
        core.wake.post()
    }

    /// Queues `line` (a newline is added); false when it was dropped.
    @discardableResult
    public func write(_ line: String) -> Bool {
        let now = ContinuousClock.now
        let (accepted, unreported) = bucket.withLock { state -> (Bool, Int) in
            let elapsed = state.last.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            state.tokens = min(burst, state.tokens + max(0, seconds) * ratePerSecond)
            state.last = now
            guard state.tokens >= 1 else {
                state.unreported += 1
                return (false, 0)
            }
            state.tokens -= 1
            defer { state.unreported = 0 }
            return (true, state.unreported)
        }
        guard accepted else {
            dropped.add(1, ordering: .relaxed)
            return false
        }
        // Lines the full queue refused count too (the core counts them).
        let missed = unreported + core.dropped.exchange(0, ordering: .relaxed)
        var bytes: [UInt8] = []
        if missed > 0 {
            bytes.append(contentsOf: "faultline: \(missed) operator event(s) dropped (more than \(Int(ratePerSecond)) a second, or standard error is not being read)\n".utf8)
        }
        bytes.append(contentsOf: line.utf8)
        bytes.append(10)
        guard bytes.withUnsafeBytes({ core.enqueue($0) }) else {
            // Not written: the notice's count waits for the next line.
            bucket.withLock { $0.unreported += missed }
            dropped.add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Lines dropped so far (rate or full queue).
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Waits until every line queued before the call has been handed to `write(2)`, or
    /// `timeout` seconds have passed; false on timeout (a stalled stderr).
    @discardableResult
    public func flush(timeout: Double) -> Bool {
        core.flush(timeout: timeout)
    }

    /// Stops the writer thread once what is queued was handed to `write(2)` (later lines are
    /// dropped) and waits up to `timeout` seconds for it; false on timeout. The descriptor is
    /// not closed, and only after this returns true may its owner close it: a writer still
    /// running would write into whatever file reuses the number.
    @discardableResult
    public func close(timeout: Double) -> Bool {
        core.close(timeout: timeout)
    }
}
