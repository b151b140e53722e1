import FaultlineHTTP
import FaultlineHTTP2
import FaultlineLog

/// The client side of the stream's exchange, written as HTTP/2 frames on this stream.
extension HTTP2Stream: ExchangeClient {
    func writeInterimHead(_ head: HTTPHead, exchange: Exchange) {
        // 101 has no meaning in HTTP/2 (RFC 9113 §8.6); other 1xx pass on.
        guard head.status != 101, response == .notStarted else { return }
        try? session.submitInformational(streamID: id, fields: head.http2ResponseFields())
        connection.scheduleFlush()
    }

    func writeResponseHead(_ head: HTTPHead, shape: ResponseHeadShape, exchange: Exchange) {
        guard response == .notStarted else { return }
        traceResponse(head)
        let marker = shape.marked ? exchange.machine.setup.faultMarker : nil
        let room = HTTP2ResponseFields.room(for: head, marker: marker)
        let endStream = shape.framing == .none
        do {
            try session.submitResponse(streamID: id, byteCapacity: room.bytes, fieldCapacity: room.fields, endStream: endStream) {
                HTTP2ResponseFields.write(head, framing: shape.framing, marker: marker, viaBytes: room.viaBytes, into: &$0)
            }
        } catch {
            response = .reset
            return
        }
        response = endStream ? .ended : .streaming
        connection.scheduleFlush()
    }

    /// A pacer hands its bytes to this stream (`writePaced`).
    var pacedSink: PacedSink { self }

    func forwardResponseBody(_ bytes: UnsafeRawBufferPointer, part: ResponseBodyPart, exchange: Exchange) {
        guard response == .streaming else { return }
        let body = UnsafeRawBufferPointer(rebasing: bytes[..<min(part.count, bytes.count)])
        guard !body.isEmpty else { return }
        traceResponseBody(body)
        if part.corruptFirstByte {
            // A body that no JSON parser accepts, with its declared length intact.
            var corrupted = Array(body)
            corrupted[0] = UInt8(ascii: "<")
            corrupted.withUnsafeBytes { emit($0, pacer: exchange.pacer) }
        } else {
            emit(body, pacer: exchange.pacer)
        }
    }

    /// Without a pacer the body ends now; with one, `finishExchange` ends it once the pacer
    /// has handed over every byte (the machine waits for that before it finishes).
    func endResponseBody(chunked: Bool, exchange: Exchange) {
        guard exchange.pacer == nil else { return }
        endResponse(trailers: exchange.responseTrailers)
    }

    func writeOwnResponse(_ response: OwnResponse, exchange: Exchange?) {
        guard self.response == .notStarted else { return }
        noteOwnResponse(response)
        let fields = OwnResponseHTTP2.fields(of: response)
        switch response.ending {
        case .complete:
            submit(fields, body: OwnResponseHTTP2.body(of: response))
        case .garbage:
            trace?.status = 0
            submit(fields, body: nil)
        case .brokenFraming:
            do {
                try session.submitResponse(streamID: id, fields: fields, endStream: false)
            } catch {
                return
            }
            // The reset waits until the head and the body's start are framed (`outboundDrained`);
            // the record notes it now, since the exchange ends before.
            self.response = .cutting(.protocolError)
            session.sendBody(streamID: id, response.body)
            trace?.noteHTTP2Error(LogHTTP2Error(code: HTTP2ErrorCode.protocolError.rawValue, frame: .rstStream, sender: .faultline))
            connection.scheduleFlush()
        }
    }

    /// An exchange cannot become a tunnel on HTTP/2; should one try, the stream is cancelled.
    func startTunnel(exchange: Exchange) {
        closeClient(.now)
    }

    /// The exchange ended: the response ends (if it has not) and its record is written. A
    /// request body the client is still sending is read and dropped: an RST_STREAM NO_ERROR
    /// would overtake response DATA still queued and lose it.
    func finishExchange(keepAlive: Bool) {
        if response == .streaming { endResponse(trailers: exchange?.responseTrailers ?? HTTPHeaders()) }
        endExchange()
    }

    /// Queues a response head and, unless `body` is nil, leaves the stream open for body bytes
    /// (`body` itself goes first).
    func submit(_ fields: HTTPHeaders, body: [UInt8]?) {
        do {
            try session.submitResponse(streamID: id, fields: fields, endStream: body == nil)
        } catch {
            response = .reset
            return
        }
        response = body == nil ? .ended : .streaming
        if let body, !body.isEmpty {
            session.sendBody(streamID: id, body)
            endResponse(trailers: HTTPHeaders())
        }
        connection.scheduleFlush()
    }

    /// END_STREAM, with the trailers HTTP/2 may carry.
    func endResponse(trailers: HTTPHeaders) {
        guard response == .streaming else { return }
        response = .ended
        // Most responses have no trailers: no translation then.
        let forwarded = trailers.count > 0 ? HTTPHead.http2Trailers(trailers.forwardableTrailers) : HTTPHeaders()
        session.finishBody(streamID: id, trailers: forwarded.count > 0 ? forwarded : nil)
        connection.scheduleFlush()
    }

    /// Response bytes to the stream's queue, through the pacer when a fault shapes them.
    private func emit(_ bytes: UnsafeRawBufferPointer, pacer: ResponsePacer?) {
        if let pacer {
            pacer.emit(bytes)
        } else {
            writePaced(bytes)
        }
    }
}

/// The stream as the place a pacer releases bytes to.
extension HTTP2Stream: PacedSink {
    func writePaced(_ bytes: UnsafeRawBufferPointer) {
        guard response == .streaming else { return }
        session.sendBody(streamID: id, bytes)
        connection.scheduleFlush()
    }

    var isSinkClosed: Bool { response == .reset || connection.phase.isClosed }
}
