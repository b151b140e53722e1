import FaultlineHTTP
@testable import FaultlineHTTP2

/// A client session and a server session wired to each other in memory; `pump` moves bytes
/// both ways until neither has anything to write, collecting each side's events.
final class SessionPair {
    let client: HTTP2Session
    let server: HTTP2Session
    private(set) var clientEvents: [HTTP2Event] = []
    private(set) var serverEvents: [HTTP2Event] = []

    init(client clientSettings: HTTP2Settings = HTTP2Settings(), server serverSettings: HTTP2Settings = HTTP2Settings()) throws {
        client = try HTTP2Session(role: .client, settings: clientSettings)
        server = try HTTP2Session(role: .server, settings: serverSettings)
    }

    /// Moves bytes until both sides are quiet.
    func pump() {
        for _ in 0..<1000 {
            var toServer: [UInt8] = []
            client.send(into: &toServer)
            clientEvents += client.takeEvents()
            if !toServer.isEmpty { serverEvents += server.receive(toServer) }
            var toClient: [UInt8] = []
            server.send(into: &toClient)
            serverEvents += server.takeEvents()
            if !toClient.isEmpty { clientEvents += client.receive(toClient) }
            if toServer.isEmpty && toClient.isEmpty { return }
        }
    }

    /// Sends raw bytes to the server as if from a client (hostile frames).
    func rawToServer(_ bytes: [UInt8]) {
        serverEvents += server.receive(bytes)
    }

    /// Forgets the events seen so far.
    func clearEvents() {
        clientEvents = []
        serverEvents = []
    }

    /// A request field list with the usual pseudo-header fields and `extra` regular fields.
    static func request(method: String = "GET", path: String = "/", authority: String = "example.test",
                        _ extra: [(String, String)] = []) -> HTTPHeaders {
        var fields = HTTPHeaders()
        fields.add(name: ":method", value: method)
        fields.add(name: ":scheme", value: "https")
        fields.add(name: ":authority", value: authority)
        fields.add(name: ":path", value: path)
        for (name, value) in extra { fields.add(name: name, value: value) }
        return fields
    }

    /// Fields given in full, in order (for malformed blocks).
    static func fields(_ list: [(String, String)]) -> HTTPHeaders {
        var fields = HTTPHeaders()
        for (name, value) in list { fields.add(name: name, value: value) }
        return fields
    }
}

extension [HTTP2Event] {
    /// The header blocks of one stream.
    func blocks(_ streamID: Int32) -> [HTTP2HeaderBlock] {
        compactMap { if case .headers(streamID, let block) = $0 { block } else { nil } }
    }

    /// Every body byte of one stream, concatenated.
    func body(_ streamID: Int32) -> [UInt8] {
        flatMap { event -> [UInt8] in if case .data(streamID, let bytes) = event { bytes } else { [] } }
    }

    /// The error code a stream closed with, if it closed.
    func closeCode(_ streamID: Int32) -> HTTP2ErrorCode? {
        for case .streamClosed(streamID, let code) in self { return code }
        return nil
    }

    /// Whether END_STREAM arrived on a stream.
    func ended(_ streamID: Int32) -> Bool {
        contains { if case .endStream(streamID) = $0 { true } else { false } }
    }

    /// The GOAWAY received, if any.
    var goAway: (lastStreamID: Int32, errorCode: HTTP2ErrorCode)? {
        for case .goAwayReceived(let last, let code, _) in self { return (last, code) }
        return nil
    }
}
