import FaultlineHTTP
import FaultlineHTTP2
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
///   body, then RST_STREAM PROTOCOL_ERROR, since HTTP/2 has no chunk framing to break
///   (both described once as `OwnResponse`, encoded by `writeOwnResponse`).
extension HTTP2Stream {
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
