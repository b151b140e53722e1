import FaultlineHTTP
import FaultlineHTTP2

/// The session's events, handed to the streams they concern.
extension HTTP2Connection {
    /// Dispatches `events` in order, moving each out of the array (which the session empties
    /// and reuses next): a copy would retain and release each buffer of a header block. The
    /// frames written are counted even once the connection has closed: each RST_STREAM and
    /// GOAWAY that left counts once, whoever queued it.
    func handle(_ events: inout [HTTP2Event]) {
        for index in events.indices {
            let event = exchange(&events[index], with: .movedOut)
            switch event {
            case .resetSent:
                context.state.http2StreamReset(sentByProxy: true)
            case .goAwaySent:
                context.state.http2GoAwaySent()
            default:
                break
            }
            guard !phase.isClosed else { continue }
            switch event {
            case .headers(let streamID, let block):
                headers(block, on: streamID)
            case .refused(let streamID, let refusal):
                refuse(streamID, refusal)
            case .data(let streamID, let bytes):
                if let stream = streams[streamID] {
                    stream.requestBodyReceived(bytes)
                } else {
                    session.consume(streamID: streamID, count: bytes.count)
                }
            case .endStream(let streamID):
                streams[streamID]?.requestEnded()
            case .resetReceived(let streamID, let code):
                streams[streamID]?.clientReset(code)
            case .streamClosed(let streamID, let code):
                if let stream = streams[streamID] {
                    stream.streamClosed(code)
                    streamFinished(streamID)
                }
            case .outboundDrained(let streamID):
                streams[streamID]?.outboundDrained()
            case .connectionError, .goAwayReceived, .settings, .resetSent, .goAwaySent:
                // On a connection error nghttp2 has queued its GOAWAY; `flush` writes it and
                // closes once it is done.
                break
            }
        }
    }

    /// A header block arrived: a new request, or a request's trailers.
    private func headers(_ block: HTTP2HeaderBlock, on streamID: Int32) {
        switch block.kind {
        case .request:
            let stream = HTTP2Stream(id: streamID, connection: self)
            streams[streamID] = stream
            context.state.http2StreamOpened()
            deadline.disarm()
            stream.begin(block)
        case .trailers:
            streams[streamID]?.requestTrailersReceived(block.fields)
        case .response, .informational:
            // A client never sends responses; nghttp2 has refused them already.
            break
        }
    }

    /// A header block Faultline refused: 431 for an oversized header list (on a running
    /// exchange, its trailers, the stream decides).
    private func refuse(_ streamID: Int32, _ refusal: HTTP2Refusal) {
        if let stream = streams[streamID] {
            // Trailers: the request is already on its way upstream.
            stream.requestTrailersRefused(refusal)
            return
        }
        var fields = HTTPHeaders()
        fields.add(name: ":status", value: "431")
        fields.add(name: "content-type", value: "text/plain; charset=utf-8")
        fields.add(name: "server", value: "faultline")
        do {
            try session.submitResponse(streamID: streamID, fields: fields, endStream: true)
        } catch {
            session.resetStream(streamID: streamID, errorCode: .refusedStream)
        }
    }
}
