import FaultlineHTTP
import FaultlineIO

extension DemoOriginConnection {
    /// Writes per turn before yielding the loop to other connections, when the kernel keeps
    /// taking everything (a fast reader would otherwise monopolise the thread).
    private static let writesPerTurn = 16

    /// `/bytes/{n}`.
    func startPattern(count: UInt64, framing: DemoOriginFraming) {
        guard startStreaming(contentType: "application/octet-stream", framing: framing) else { return }
        producer = .pattern(sent: 0, total: count, chunked: framing == .chunked)
        pump()
    }

    /// `/stream/{n}`: one JSON line per chunk (close-delimited for HTTP/1.0 clients).
    func startLines(count: Int) {
        let http10 = exchange?.request.isHTTP10 ?? false
        guard startStreaming(contentType: "application/x-ndjson", framing: http10 ? .untilClose : .chunked) else { return }
        producer = .lines(next: 0, count: count, chunked: !http10)
        pump()
    }

    /// Continues the body in progress while output stays below the high-water mark; called
    /// when the body starts, when the socket drains and after yielding.
    func pump() {
        guard !isFinished, timer == nil else { return }
        switch producer {
        case .idle:
            return
        case let .pattern(sent, total, chunked):
            pumpPattern(sent: sent, total: total, chunked: chunked)
        case let .lines(next, count, chunked):
            pumpLines(next: next, count: count, chunked: chunked)
        }
    }

    private func pumpPattern(sent: UInt64, total: UInt64, chunked: Bool) {
        var sent = sent
        var writes = 0
        while sent < total && !isFinished && socket.pendingWriteBytes <= DemoOriginConnection.highWater {
            guard writes < DemoOriginConnection.writesPerTurn else { return yield(.pattern(sent: sent, total: total, chunked: chunked)) }
            let count = Int(min(UInt64(DemoOriginPattern.blockSize), total - sent))
            DemoOriginPattern.withBlock(offset: sent, count: count) { block in
                if chunked { writeChunk(block) } else { socket.write(block) }
            }
            sent += UInt64(count)
            writes += 1
        }
        guard !isFinished else { return }
        producer = .pattern(sent: sent, total: total, chunked: chunked)
        if sent == total { endBody(chunked: chunked) }
    }

    private func pumpLines(next: Int, count: Int, chunked: Bool) {
        var next = next
        var writes = 0
        while next < count && !isFinished && socket.pendingWriteBytes <= DemoOriginConnection.highWater {
            guard writes < DemoOriginConnection.writesPerTurn else { return yield(.lines(next: next, count: count, chunked: chunked)) }
            var out: [UInt8] = []
            out.reserveCapacity(DemoOriginPattern.blockSize + 256)
            while next < count && out.count < DemoOriginPattern.blockSize {
                let line = Array("{\"id\": \(next), \"message\": \"line \(next + 1) of \(count)\"}\n".utf8)
                if chunked { HTTP1Encoder.appendChunkHeader(size: line.count, into: &out) }
                out.append(contentsOf: line)
                if chunked { out.append(contentsOf: HTTP1Encoder.chunkEnd) }
                next += 1
            }
            socket.write(out)
            writes += 1
        }
        guard !isFinished else { return }
        producer = .lines(next: next, count: count, chunked: chunked)
        if next == count { endBody(chunked: chunked) }
    }

    /// Remembers where the body stands and continues on a later loop turn.
    private func yield(_ state: DemoOriginProducer) {
        producer = state
        timer = socket.loop.schedule(afterMilliseconds: 0) { [weak self] in
            self?.timer = nil
            self?.pump()
        }
    }

    private func endBody(chunked: Bool) {
        if chunked { socket.write(HTTP1Encoder.lastChunk) }
        finishResponse()
    }

    /// `/sse/{n}`: event `first` at once, then one per interval on absolute deadlines so
    /// that spacing does not drift with loop latency.
    func startEvents(count: Int, first: Int, intervalMilliseconds: Int) {
        let http10 = exchange?.request.isHTTP10 ?? false
        guard startStreaming(contentType: "text/event-stream", framing: http10 ? .untilClose : .chunked,
                             extra: [("Cache-Control", "no-cache")]) else { return }
        guard first < count else { return endBody(chunked: !http10) }
        // Deadlines count from a virtual start `first` intervals back, so event k is always due
        // k intervals after it, whether the stream began at 0 or resumed.
        let interval = UInt64(intervalMilliseconds) * 1_000_000
        let start = socket.loop.now &- UInt64(first) &* interval
        sendEvent(first, of: count, start: start, interval: interval, chunked: !http10)
    }

    private func sendEvent(_ index: Int, of count: Int, start: UInt64, interval: UInt64, chunked: Bool) {
        timer = nil
        let event = Array("id: \(index)\ndata: {\"n\": \(index)}\n\n".utf8)
        if chunked {
            event.withUnsafeBytes { writeChunk($0) }
        } else {
            socket.write(event)
        }
        guard !isFinished else { return }
        if index + 1 == count { return endBody(chunked: chunked) }
        let deadline = start &+ UInt64(index + 1) &* interval
        timer = socket.loop.schedule(atNanoseconds: deadline) { [weak self] in
            self?.sendEvent(index + 1, of: count, start: start, interval: interval, chunked: chunked)
        }
    }
}
