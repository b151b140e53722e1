import FaultlineIO

/// Response bytes on their way to a client when faults shape them: held back during a
/// first-byte delay, then paced at a byte rate. Timers on the loop do the waiting, so a slow
/// response never blocks other exchanges. Exchanges without such faults never create one.
final class ResponsePacer {
    private let sink: PacedSink
    private let loop: EventLoop
    private let bytesPerSecond: Int
    private let chunkBytes: Int
    private var holding: Bool
    private var queue: [UInt8] = []
    /// Bytes of `queue` already written.
    private var sent = 0
    /// Bytes written since pacing started, for the rate.
    private var paced = 0
    private var paceStart: UInt64 = 0
    private var timer: TimerID?
    private var upstreamPaused = false

    /// Called when the queue is long enough that the upstream should stop sending (true) or
    /// short enough that it may go on (false).
    var backpressure: ((Bool) -> Void)?
    /// Called once everything emitted has been handed to the socket, after `finish`.
    private var whenDrained: (() -> Void)?

    private static let highWater = 256 * 1024
    private static let lowWater = 64 * 1024

    init(sink: PacedSink, loop: EventLoop, bytesPerSecond: Int, chunkBytes: Int, holdMilliseconds: Int) {
        self.sink = sink
        self.loop = loop
        self.bytesPerSecond = max(0, bytesPerSecond)
        self.chunkBytes = max(1, chunkBytes)
        holding = holdMilliseconds > 0
        if holding {
            timer = loop.schedule(afterMilliseconds: holdMilliseconds) { [weak self] in
                self?.timer = nil
                self?.releaseHold()
            }
        }
    }

    deinit {
        if let timer { loop.cancel(timer) }
    }

    /// Whether every byte emitted so far has reached the socket.
    var isDrained: Bool { queue.count == sent }

    /// Queues bytes for the client.
    func emit(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        if !holding && bytesPerSecond == 0 && isDrained {
            sink.writePaced(bytes)
            return
        }
        if isDrained && bytesPerSecond > 0 && paceStart != 0 {
            // No credit for the time the queue sat empty: pacing resumes from now.
            paceStart = loop.now &- nanoseconds(toPace: paced)
        }
        queue.append(contentsOf: bytes)
        if queue.count - sent > Self.highWater && !upstreamPaused {
            upstreamPaused = true
            backpressure?(true)
        }
        if !holding && timer == nil { pump() }
    }

    /// Runs `body` once everything emitted has been written to the socket.
    func finish(_ body: @escaping () -> Void) {
        if isDrained && !holding {
            body()
        } else {
            whenDrained = body
        }
    }

    /// Stops pacing (the exchange was aborted).
    func cancel() {
        if let timer { loop.cancel(timer) }
        timer = nil
        whenDrained = nil
        backpressure = nil
    }

    /// The bytes the rate allows after `elapsed` nanoseconds, saturating: a rate taken from a
    /// rule times a long transfer must not overflow (a trap would end every connection).
    private func bytesAllowed(after elapsed: UInt64) -> Int {
        let product = UInt64(bytesPerSecond).multipliedFullWidth(by: elapsed)
        guard product.high < 1_000_000_000 else { return Int.max }
        let quotient = UInt64(1_000_000_000).dividingFullWidth(product).quotient
        return quotient > UInt64(Int.max) ? Int.max : Int(quotient)
    }

    /// The nanoseconds the rate needs for `bytes`, saturating like `bytesAllowed(after:)`.
    private func nanoseconds(toPace bytes: Int) -> UInt64 {
        let rate = UInt64(bytesPerSecond)
        let product = UInt64(max(0, bytes)).multipliedFullWidth(by: 1_000_000_000)
        guard product.high < rate else { return UInt64.max }
        return rate.dividingFullWidth(product).quotient
    }

    private func releaseHold() {
        holding = false
        pump()
    }

    private func pump() {
        guard !sink.isSinkClosed else { return }
        if bytesPerSecond == 0 {
            writeQueued(upTo: queue.count)
        } else {
            if paceStart == 0 { paceStart = loop.now }
            // What the rate allows by now, counted from the start so rounding never drifts.
            let elapsed = loop.now &- paceStart
            let allowed = bytesAllowed(after: elapsed) - paced
            var writable = max(0, min(allowed, queue.count - sent))
            if writable < queue.count - sent { writable = (writable / chunkBytes) * chunkBytes }
            if writable > 0 { writeQueued(upTo: sent + writable) }
            if !isDrained {
                let nextBoundary = nanoseconds(toPace: paced + chunkBytes)
                let (deadline, overflow) = paceStart.addingReportingOverflow(nextBoundary)
                timer = loop.schedule(atNanoseconds: overflow ? UInt64.max : max(deadline, loop.now &+ 1_000_000)) { [weak self] in
                    self?.timer = nil
                    self?.pump()
                }
                return
            }
        }
        if isDrained {
            queue.removeAll(keepingCapacity: true)
            sent = 0
            if let whenDrained {
                self.whenDrained = nil
                whenDrained()
            }
        }
    }

    private func writeQueued(upTo end: Int) {
        guard end > sent else { return }
        queue.withUnsafeBytes { raw in
            sink.writePaced(UnsafeRawBufferPointer(rebasing: raw[sent..<end]))
        }
        paced += end - sent
        sent = end
        if upstreamPaused && queue.count - sent < Self.lowWater {
            upstreamPaused = false
            backpressure?(false)
        }
    }
}
