import FaultlineHTTP
import FaultlineHTTP2
import FaultlineTestSupport

/// An HTTP/2 client (prior knowledge) on a harness connection, driving a client-role
/// `HTTP2Session`: one request at a time, everything the proxy said about its stream.
final class H2HarnessClient {
    /// What the proxy did with one stream.
    struct Outcome: CustomStringConvertible {
        var status: Int?
        var fields: [String: String] = [:]
        var body: [UInt8] = []
        var ended = false
        /// RST_STREAM from the proxy.
        var resetReceived: HTTP2ErrorCode?
        /// RST_STREAM from this client (it found the response malformed).
        var resetSent: HTTP2ErrorCode?
        var goAway: (lastStreamID: Int32, code: HTTP2ErrorCode)?
        var connectionClosed = false

        var description: String {
            "status \(status.map(String.init) ?? "none"), \(body.count) body bytes, ended \(ended), "
                + "reset received \(resetReceived?.description ?? "none"), sent \(resetSent?.description ?? "none"), "
                + "goaway \(goAway.map { "\($0.code) last \($0.lastStreamID)" } ?? "none"), closed \(connectionClosed)"
        }
    }

    let raw: RawClient
    let session: HTTP2Session

    init(_ raw: RawClient) throws {
        self.raw = raw
        session = try HTTP2Session(role: .client)
    }

    /// GET `path`; reads until the stream is over (ended, reset either way, refused by a
    /// GOAWAY, or the connection closed) or `timeout` passes.
    func get(_ path: String, timeout: Duration = .seconds(10)) throws -> Outcome {
        var fields = HTTPHeaders()
        fields.add(name: ":method", value: "GET")
        fields.add(name: ":scheme", value: "http")
        fields.add(name: ":authority", value: "api.example")
        fields.add(name: ":path", value: path)
        let id = try session.submitRequest(fields: fields, endStream: true)
        try flush()
        var outcome = Outcome()
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            switch raw.readSome() {
            case .bytes(let bytes):
                for event in session.receive(bytes) { note(event, on: id, into: &outcome) }
                // Acknowledgements (and a reset of a malformed response) go back; the proxy
                // may have closed already, after a GOAWAY.
                if (try? flush()) == nil { outcome.connectionClosed = true }
                for event in session.takeEvents() { note(event, on: id, into: &outcome) }
            case .closed, .reset:
                outcome.connectionClosed = true
                return outcome
            case .timedOut:
                break
            }
            if outcome.ended || outcome.resetReceived != nil || outcome.resetSent != nil { return outcome }
            if let goAway = outcome.goAway, goAway.lastStreamID < id || goAway.code != .noError { return outcome }
        }
        return outcome
    }

    private func note(_ event: HTTP2Event, on id: Int32, into outcome: inout Outcome) {
        switch event {
        case .headers(let stream, let block) where stream == id:
            if let status = block.status, status >= 200 || outcome.status == nil { outcome.status = status }
            for (name, value) in block.fields.pairs { outcome.fields[name] = value }
            if block.endsStream { outcome.ended = true }
        case .data(let stream, let bytes) where stream == id:
            outcome.body += bytes
            session.consume(streamID: stream, count: bytes.count)
        case .endStream(let stream) where stream == id:
            outcome.ended = true
        case .resetReceived(let stream, let code) where stream == id:
            outcome.resetReceived = code
        case .resetSent(let stream, let code) where stream == id:
            outcome.resetSent = code
        case .goAwayReceived(let last, let code, _):
            outcome.goAway = (last, code)
        default:
            break
        }
    }

    private func flush() throws {
        var out: [UInt8] = []
        session.send(into: &out)
        if !out.isEmpty { try raw.send(out) }
    }
}
