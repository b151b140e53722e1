import Dispatch
import FaultlineHTTP
import FaultlineIO
import Foundation

/// `GET /exchanges/stream`: Server-Sent Events carrying exchange summaries to a dashboard.
/// A timer on the admin loop wakes it every `tickMs`; each wake copies at most `batchLimit`
/// new records from the feed (evenly sampled when more arrived) and encodes them on the
/// stream queue, off the loop, as one `exchanges` event. While the client has more than
/// `highWater` bytes unread nothing is read from the feed: the ring moves on and the next
/// event says how many were skipped. So a slow browser costs at most `highWater` bytes
/// and the proxy's loops never see it. Lives on the admin loop.
final class AdminLiveStream {
    static let tickMs = 200
    static let batchLimit = 200
    static let highWater = 256 * 1024
    /// A comment line this often (in ticks) keeps proxies and the browser from timing out.
    static let keepaliveTicks = 75
    /// A client over `highWater` for this many ticks in a row (30 s) is disconnected, so a
    /// tab that stopped reading does not hold one of the admin API's connections for ever
    /// (the page reconnects by itself when it reads again).
    static let stalledTicksLimit = 150

    private enum Phase {
        /// Waiting for the next tick.
        case waiting(TimerID)
        /// A batch is being encoded on the queue.
        case encoding
        case stopped
    }

    private let socket: StreamSocket
    private let feed: LiveFeed
    private let queue: DispatchQueue
    private let cache: LiveSummaryCache
    private var cursor: Int
    private var phase = Phase.stopped
    private var quietTicks = 0
    private var stalledTicks = 0

    /// Streams records after `after` (the newest the page already has).
    init(socket: StreamSocket, feed: LiveFeed, queue: DispatchQueue, cache: LiveSummaryCache, after: Int) {
        self.socket = socket
        self.feed = feed
        self.queue = queue
        self.cache = cache
        cursor = max(0, after)
    }

    deinit {
        if case .stopped = phase { return }
        feed.watch(false)
    }

    /// Writes the response head and starts the ticks.
    func start(headers: [(StaticString, String)]) {
        feed.watch(true)
        var out: [UInt8] = []
        HTTP1Encoder.appendStatusLine(status: 200, reason: [], into: &out)
        HTTP1Encoder.appendField("Content-Type", "text/event-stream".utf8, into: &out)
        for (name, value) in headers { HTTP1Encoder.appendField(name, value.utf8, into: &out) }
        // The body ends when the connection does.
        HTTP1Encoder.appendField("Connection", "close".utf8, into: &out)
        out.append(contentsOf: "\r\n: faultline live exchanges\n\n".utf8)
        _ = socket.write(out)
        arm()
    }

    /// Stops the ticks; the connection closes the socket.
    func stop() {
        switch phase {
        case .stopped: return
        case .waiting(let timer): socket.loop.cancel(timer)
        case .encoding: break
        }
        phase = .stopped
        feed.watch(false)
    }

    private func arm() {
        phase = .waiting(socket.loop.schedule(afterMilliseconds: Self.tickMs) { [weak self] in self?.tick() })
    }

    private func tick() {
        guard case .waiting = phase, !socket.isClosed else { return }
        // The client is not reading: leave the feed alone until it does.
        guard socket.pendingWriteBytes <= Self.highWater else {
            stalledTicks += 1
            if stalledTicks >= Self.stalledTicksLimit {
                stop()
                socket.close()
                return
            }
            arm()
            return
        }
        stalledTicks = 0
        phase = .encoding
        let feed = self.feed
        let cache = self.cache
        let cursor = self.cursor
        let loop = socket.loop
        let reference = AdminLiveStreamReference(self)
        queue.async {
            let batch = feed.records(after: cursor, limit: Self.batchLimit)
            let event = batch.records.isEmpty && batch.skipped == 0 ? nil : Self.event(batch, cache: cache)
            loop.execute { reference.stream?.deliver(event, last: batch.last) }
        }
    }

    private func deliver(_ event: [UInt8]?, last: Int) {
        guard case .encoding = phase, !socket.isClosed else { return }
        cursor = last
        if let event {
            quietTicks = 0
            _ = socket.write(event)
        } else {
            quietTicks += 1
            if quietTicks >= Self.keepaliveTicks {
                quietTicks = 0
                _ = socket.write(Array(": keepalive\n\n".utf8))
            }
        }
        arm()
    }

    /// One SSE event: `event: exchanges`, `data: {"exchanges": [...], "skipped": N, "newest": SEQ}`.
    /// JSON has no raw newline outside strings, and the encoder escapes those inside: one data line.
    private static func event(_ batch: (records: [LiveRecord], skipped: Int, last: Int), cache: LiveSummaryCache) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var out = Array("event: exchanges\ndata: {\"exchanges\":[".utf8)
        for (index, record) in batch.records.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: cache.json(for: record, encoder: encoder))
        }
        out.append(contentsOf: "],\"skipped\":\(batch.skipped),\"newest\":\(batch.last)}\n\n".utf8)
        return out
    }
}

/// Lets the stream queue hand a batch back without keeping the stream alive: created and
/// read on the admin loop only.
private final class AdminLiveStreamReference: @unchecked Sendable {
    weak var stream: AdminLiveStream?

    init(_ stream: AdminLiveStream) {
        self.stream = stream
    }
}

extension AdminLiveStream {
    /// The stream's admin path.
    static let path = "/exchanges/stream"

    /// `after=SEQ` from the query (the newest record the page already has), else 0.
    static func cursor(query: String) -> Int {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "after", parts[1].count <= 18, let value = Int(parts[1]), value >= 0 { return value }
        }
        return 0
    }
}
