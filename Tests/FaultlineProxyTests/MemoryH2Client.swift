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
        var fields = HTTPHeaders()
        fields.add(name: ":method", value: "GET")
        fields.add(name: ":scheme", value: "http")
        fields.add(name: ":authority", value: "api.example")
        fields.add(name: ":path", value: path)
        let id = try session.submitRequest(fields: fields, endStream: true)
        flush()
        var outcome = Outcome()
        harness.settle(limitMilliseconds: limitMilliseconds) {
            let bytes = end.receive()
            if !bytes.isEmpty {
                for event in session.receive(bytes) { note(event, on: id, into: &outcome) }
                flush()
                for event in session.takeEvents() { note(event, on: id, into: &outcome) }
            }
            if end.peerEnd != .open { outcome.connectionClosed = true }
            if outcome.ended || outcome.resetReceived != nil || outcome.resetSent != nil || outcome.connectionClosed { return true }
            if let goAway = outcome.goAway, goAway.lastStreamID < id || goAway.code != .noError { return true }
            return false
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

    private func flush() {
        var out: [UInt8] = []
        session.send(into: &out)
        if !out.isEmpty { end.send(out) }
    }
}
