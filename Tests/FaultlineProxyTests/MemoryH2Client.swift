import FaultlineHTTP
import FaultlineHTTP2
import FaultlineMemoryIO

/// An HTTP/2 client (prior knowledge) on a client end of the in-memory network, driving a
/// client-role `HTTP2Session`: one request at a time, everything the proxy said about its
/// stream.
final class MemoryH2Client {
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

    let end: MemoryEndpoint
    let harness: MemoryHarness
    let session: HTTP2Session

    init(_ harness: MemoryHarness) throws {
        self.harness = harness
        end = harness.connect(h2c: true)
        session = try HTTP2Session(role: .client)
    }

    /// GET `path`; runs the network (and loop time, up to `limitMilliseconds`) until the
    /// stream is over: ended, reset either way, refused by a GOAWAY, or the connection ended.
    func get(_ path: String, limitMilliseconds: Int = 60_000) throws -> Outcome {
        let id = try submit(path)
        var outcomes = [id: Outcome()]
        harness.settle(limitMilliseconds: limitMilliseconds) {
            take(into: &outcomes)
            return outcomes[id].map { Self.isOver($0, id: id) } ?? true
        }
        return outcomes[id] ?? Outcome()
    }

    /// Opens a stream for `GET path` (sent on the next `take` or run); returns its id.
    func submit(_ path: String) throws -> Int32 {
        var fields = HTTPHeaders()
        fields.add(name: ":method", value: "GET")
        fields.add(name: ":scheme", value: "http")
        fields.add(name: ":authority", value: "api.example")
        fields.add(name: ":path", value: path)
        let id = try session.submitRequest(fields: fields, endStream: true)
        flush()
        return id
    }

    /// Reads what arrived into the outcomes of the streams in `outcomes` and sends what the
    /// session owes (acknowledgements, window updates, its resets of malformed responses).
    func take(into outcomes: inout [Int32: Outcome]) {
        let bytes = end.receive()
        if !bytes.isEmpty {
            for event in session.receive(bytes) { note(event, into: &outcomes) }
            flush()
            for event in session.takeEvents() { note(event, into: &outcomes) }
        }
        if end.peerEnd != .open {
            for id in outcomes.keys { outcomes[id]?.connectionClosed = true }
        }
    }

    /// Whether stream `id`, whose outcome so far is `outcome`, is over one way or another
    /// (a GOAWAY whose last stream id is below it refused it).
    static func isOver(_ outcome: Outcome, id: Int32) -> Bool {
        if outcome.ended || outcome.resetReceived != nil || outcome.resetSent != nil || outcome.connectionClosed { return true }
        return outcome.goAway.map { $0.lastStreamID < id || $0.code != .noError } ?? false
    }

    private func note(_ event: HTTP2Event, into outcomes: inout [Int32: Outcome]) {
        switch event {
        case .headers(let stream, let block):
            if let status = block.status, status >= 200 || outcomes[stream]?.status == nil { outcomes[stream]?.status = status }
            for (name, value) in block.fields.pairs { outcomes[stream]?.fields[name] = value }
            if block.endsStream { outcomes[stream]?.ended = true }
        case .data(let stream, let bytes):
            outcomes[stream]?.body += bytes
            session.consume(streamID: stream, count: bytes.count)
        case .endStream(let stream):
            outcomes[stream]?.ended = true
        case .resetReceived(let stream, let code):
            outcomes[stream]?.resetReceived = code
        case .resetSent(let stream, let code):
            outcomes[stream]?.resetSent = code
        case .goAwayReceived(let last, let code, _):
            for id in outcomes.keys { outcomes[id]?.goAway = (last, code) }
        default:
            break
        }
    }

    private func flush() {
        var out: [UInt8] = []
        session.send(into: &out)
        if !out.isEmpty { end.send(out) }
    }
}
