import FaultlineHTTP
import FaultlineHTTP2
import FaultlineConfig
import FaultlineLog

/// What the fault kinds mean on an HTTP/2 stream (docs/config.md, "Faults on HTTP/2 streams"): each acts on this
/// stream only; the connection and its other streams go on.
///
/// - `reset`: RST_STREAM with the fault's `error_code` (INTERNAL_ERROR by default), after
///   `after_bytes` of body when given.
/// - `rst_stream`: RST_STREAM with its `error_code` (REFUSED_STREAM by default) on the request
///   head, before the upstream is contacted.
/// - `goaway`: graceful, a GOAWAY notice then the final GOAWAY naming the last stream processed
///   (this one included, which completes), the connection closing when its streams end;
///   immediate, GOAWAY with its `error_code` and the connection closes at once.
/// - `close`: the stream ends without a response, RST_STREAM CANCEL; cut mid-body, END_STREAM
///   short of the declared length (as `truncate`).
/// - `truncate`: END_STREAM before the body is complete (short of Content-Length).
/// - `hang`, `throttle`, `delay`, `status`, `rewrite`: as on HTTP/1, on this stream alone.
/// - `corrupt` (reply): a response head with a `:status` that is not three digits, which the
///   client must treat as malformed (RFC 9113 §8.1.1); (chunked): a 200 with part of a JSON
///   body, then RST_STREAM PROTOCOL_ERROR, since HTTP/2 has no chunk framing to break.
extension HTTP2Stream {
    /// A status fault's response on this stream.
    func writeFaultResponse(_ status: StatusFault, keepAlive: Bool, exchange: Exchange) {
        guard response == .notStarted else { return }
        let body: [UInt8]
        switch status.body {
        case .empty: body = []
        case .text(let text): body = Array(text.utf8)
        case .file(let path): body = exchange.snapshot.faultBodies[path] ?? []
        }
        let bodiless = status.code < 200 || status.code == 204 || status.code == 304
        let isHead = exchange.machine.setup.isHeadRequest
        let contentType = status.contentType ?? "text/plain; charset=utf-8"
        var fields = HTTPHeaders()
        fields.add(name: ":status", value: String(status.code))
        if !bodiless {
            fields.add(name: "content-type", value: contentType)
            fields.add(name: "content-length", value: String(body.count))
        }
        for header in status.headers { fields.add(name: header.name.lowercased(), value: header.value) }
        if let marker = exchange.machine.setup.faultMarker { fields.add(name: "x-faultline-fault", value: marker) }
        if let id = trace?.visibleRequestID { fields.add(name: "x-request-id", value: id) }
        traceLocalResponse(status: status.code, contentType: bodiless ? nil : contentType,
                           headers: status.headers.map { ($0.name, $0.value) }, body: bodiless || isHead ? [] : body)
        submit(fields, body: bodiless || isHead || body.isEmpty ? nil : body)
    }

    /// `corrupt` (reply): a head no HTTP/2 client accepts, on this stream only.
    func writeGarbage() {
        guard response == .notStarted else { return }
        var fields = HTTPHeaders()
        fields.add(name: ":status", value: "x0x")
        fields.add(name: "content-type", value: "application/octet-stream")
        trace?.status = 0
        submit(fields, body: nil)
    }

    /// `corrupt` (chunked): a 200 whose JSON body breaks off with a stream error.
    func writeBadChunkFraming(exchange: Exchange) {
        guard response == .notStarted else { return }
        var fields = HTTPHeaders()
        fields.add(name: ":status", value: "200")
        fields.add(name: "content-type", value: "application/json")
        if let marker = exchange.machine.setup.faultMarker { fields.add(name: "x-faultline-fault", value: marker) }
        trace?.status = 200
        do {
            try session.submitResponse(streamID: id, fields: fields, endStream: false)
        } catch {
            return
        }
        // The reset waits until the head and the body's start are framed (`outboundDrained`);
        // the record notes it now, since the exchange ends before.
        response = .cutting(.protocolError)
        session.sendBody(streamID: id, Array("{\"ok\":".utf8))
        trace?.noteHTTP2Error(LogHTTP2Error(code: HTTP2ErrorCode.protocolError.rawValue, frame: .rstStream, sender: .faultline))
        connection.scheduleFlush()
    }

    /// A graceful `goaway` fault: the whole connection drains (this stream completes).
    func sendGracefulGoAway(exchange: Exchange) {
        connection.drain()
    }

    /// The exchange was cut short: `graceful` ends the stream as it stands (a truncated body,
    /// or no response at all), `now` cancels it, `reset` is the reset fault's RST_STREAM,
    /// `refuseStream` an `rst_stream` fault's, `goAway` an immediate `goaway` fault's GOAWAY.
    func closeClient(_ how: ClientClose) {
        switch (how, response) {
        case (.graceful, .streaming):
            response = .ended
            session.finishBody(streamID: id)
            connection.scheduleFlush()
        case (.graceful, .notStarted), (.now, .notStarted), (.now, .streaming):
            reset(.cancel)
        case (.reset, .notStarted), (.reset, .streaming):
            reset(exchange?.machine.resetErrorCode ?? .internalError)
        case (.refuseStream(let code), .notStarted), (.refuseStream(let code), .streaming):
            reset(code)
        case (.goAway(let code), .notStarted), (.goAway(let code), .streaming):
            trace?.noteHTTP2Error(LogHTTP2Error(code: code.rawValue, frame: .goaway, sender: .faultline))
            endExchange()
            connection.goAwayNow(code)
            return
        case (_, .ended), (_, .reset), (_, .cutting):
            break
        }
        endExchange()
    }
}
