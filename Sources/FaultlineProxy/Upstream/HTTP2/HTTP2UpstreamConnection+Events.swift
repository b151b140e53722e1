import FaultlineHTTP
import FaultlineHTTP2

/// What the session reports, turned into stream owners' events and the connection's own
/// stage changes.
extension HTTP2UpstreamConnection {
    /// Handles the session's events in order, moving each out of the array (which the session
    /// empties and reuses next) rather than copying a response's header block.
    func handle(_ events: inout [HTTP2Event]) {
        for index in events.indices {
            guard !isClosed else { return }
            switch exchange(&events[index], with: .movedOut) {
            case .headers(let id, let block):
                headers(block, on: id)
            case .refused(let id, let refusal):
                failStream(id, .malformed(refusal.description), reset: .protocolError)
            case .data(let id, let bytes):
                data(bytes, on: id)
            case .endStream(let id):
                guard let stream = streams.removeValue(forKey: id), let owner = stream.end() else { continue }
                owner.upstream(.http2(stream), reported: .finished)
            case .resetReceived(let id, let code):
                let unprocessed = code == .refusedStream && streams[id]?.sawResponseHead == false
                failStream(id, unprocessed ? .notProcessed(code, frame: .rstStream) : .streamReset(code), reset: nil)
            case .streamClosed(let id, let code):
                streamClosed(id, code: code)
            case .goAwayReceived(let lastStreamID, let code, _):
                goAway(lastStreamID: lastStreamID, code: code)
            case .settings:
                settingsArrived()
            case .resetSent, .goAwaySent:
                break
            case .outboundDrained(let id):
                if let stream = streams[id] { stream.owner?.upstream(.http2(stream), reported: .drained) }
            case .connectionError(let failure):
                // nghttp2 queued a GOAWAY; it leaves with what is ready, then the socket closes.
                var output: [UInt8] = []
                session.send(into: &output)
                if !output.isEmpty { socket.write(output) }
                close(failing: .http2(failure.message))
            }
        }
    }

    /// The peer's SETTINGS: the first ones make the connection ready for streams.
    private func settingsArrived() {
        guard case .awaitingSettings(let pin) = lifecycle else {
            scheduleFlush()
            return
        }
        lifecycle = .ready(pin: pin)
        for stream in waiting { stream.owner?.upstream(.http2(stream), reported: .connected) }
        scheduleFlush()
    }

    private func headers(_ block: HTTP2HeaderBlock, on id: Int32) {
        guard let stream = streams[id], let owner = stream.owner else { return }
        switch block.kind {
        case .informational, .response:
            let head: HTTPHead
            do {
                head = try block.responseHead()
            } catch {
                failStream(id, .malformed(error.description), reset: .protocolError)
                return
            }
            if block.kind == .response { stream.noteResponseHead() }
            owner.upstream(.http2(stream), reported: .willDeliver)
            owner.upstream(.http2(stream), reported: .head(head))
            owner.upstream(.http2(stream), reported: .didDeliver)
        case .trailers:
            owner.upstream(.http2(stream), reported: .trailers(block.fields))
        case .request:
            failStream(id, .malformed("a request head on a response stream"), reset: .protocolError)
        }
    }

    private func data(_ bytes: [UInt8], on id: Int32) {
        guard let stream = streams[id], let owner = stream.owner else { return }
        owner.upstream(.http2(stream), reported: .willDeliver)
        bytes.withUnsafeBytes { owner.upstream(.http2(stream), reported: .body($0)) }
        owner.upstream(.http2(stream), reported: .didDeliver)
        stream.delivered(bytes.count)
    }

    /// nghttp2 closed a stream. One that ended or failed was forgotten already; one still
    /// here was closed by nghttp2 itself (a malformed response, or refused by GOAWAY).
    private func streamClosed(_ id: Int32, code: HTTP2ErrorCode) {
        if streams[id] != nil {
            let failure: UpstreamFailure = code == .refusedStream ? .notProcessed(code, frame: .rstStream)
                : code == .noError ? .closedEarly : .malformed("the stream was closed with \(code)")
            failStream(id, failure, reset: nil)
        }
        if case .ready = lifecycle, !waiting.isEmpty { scheduleFlush() }
        forgetClosed()
    }

    /// GOAWAY: streams above `lastStreamID` were not processed (their exchanges may retry on
    /// another connection), those at or below it go on; nothing new opens here.
    private func goAway(lastStreamID: Int32, code: HTTP2ErrorCode) {
        lifecycle = .goingAway(lastStreamID: lastStreamID, pin: lifecycle.pin)
        for id in streams.ids where id > lastStreamID {
            failStream(id, .notProcessed(code, frame: .goaway), reset: nil)
        }
        registry.rehome(waitingOf: self)
        forgetClosed()
    }

    /// Ends stream `id` with `failure`, resetting it with `reset` when the peer did not.
    private func failStream(_ id: Int32, _ failure: UpstreamFailure, reset: HTTP2ErrorCode?) {
        guard let stream = streams.removeValue(forKey: id) else { return }
        if let reset { session.resetStream(streamID: id, errorCode: reset) }
        stream.end()?.upstream(.http2(stream), reported: .failed(failure))
    }

    /// A stream left: the connection may now be idle, or done going away.
    private func forgetClosed() {
        noteIfIdle()
    }
}
