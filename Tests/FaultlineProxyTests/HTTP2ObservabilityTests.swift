import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineConfig
import FaultlineHTTP
import FaultlineLog
import FaultlineTestSupport

/// What the HTTP/2 side reports for observability: the exchange trace's protocol, stream
/// and error code in its record, and the counters `GET /stats` shows.
@Suite("HTTP/2 observability")
struct HTTP2ObservabilityTests {
    private static func snapshot() throws -> ConfigSnapshot {
        try ConfigSnapshot(config: ProxyConfig(listeners: [], upstreams: [UpstreamConfig(name: "demo", host: "127.0.0.1")],
                                               routes: [RouteConfig(name: "all", upstream: "demo")], log: LogConfig(off: true)),
                           generation: 1)
    }

    private static func head(minor: Int) -> HTTPHead {
        var head = HTTPHead()
        head.method = "GET"
        head.target = Array("/a".utf8)
        head.versionMinor = minor
        head.headers.add(name: "Host", value: "app.example")
        return head
    }

    private func record(_ trace: ExchangeTrace, _ log: TrafficLog) -> LogRecord {
        trace.record(policy: log.policy, client: (ip: "127.0.0.1", port: 5000), now: trace.start + 1_000_000)
    }

    @Test func http1TraceTakesItsVersionFromTheHeadAndHasNoHTTP2Fields() throws {
        let log = try Self.snapshot().log
        for (minor, version) in [(1, "1.1"), (0, "1.0")] {
            let trace = ExchangeTrace(start: 1, requestID: "r", request: Self.head(minor: minor), scheme: "http", log: log)
            #expect(trace.clientProtocol?.rawValue == version)
            let made = record(trace, log)
            #expect(made.protocolVersion == version && made.http2StreamID == nil && made.http2Error == nil)
            let line = String(decoding: JSONLineEncoder.encode(made), as: UTF8.self)
            #expect(!line.contains("http2."), "\(line)")
        }
        let unparsed = ExchangeTrace(start: 1, requestID: "r", request: nil, scheme: "http", log: log)
        #expect(unparsed.clientProtocol == nil && record(unparsed, log).protocolVersion == nil)
    }

    @Test func http2TraceRecordsItsStreamAndTheFirstErrorCode() throws {
        let log = try Self.snapshot().log
        // The HTTP/2 side hands over a head translated to HTTP/1.1; the version is its own.
        let trace = ExchangeTrace(start: 1, requestID: "r", request: Self.head(minor: 1), scheme: "https", log: log,
                                  clientProtocol: .http2)
        trace.http2StreamID = 5
        trace.noteHTTP2Error(LogHTTP2Error(code: 8, frame: .rstStream, sender: .client))
        trace.noteHTTP2Error(LogHTTP2Error(code: 0, frame: .goaway, sender: .faultline))
        let made = record(trace, log)
        #expect(made.protocolVersion == "2" && made.http2StreamID == 5)
        #expect(made.http2Error == LogHTTP2Error(code: 8, frame: .rstStream, sender: .client))
        let object = try JSONObject.parse(JSONLineEncoder.encode(made))
        #expect(object["network.protocol.version"] as? String == "2" && object["http2.stream_id"] as? Int == 5)
        #expect(object["http2.error_code"] as? String == "CANCEL" && object["http2.error_sender"] as? String == "client")
        let stream = ExchangeTrace(start: 1, requestID: "s", request: nil, scheme: "https", log: log, clientProtocol: .http2)
        #expect(record(stream, log).protocolVersion == "2", "a refused h2 request with no head is still HTTP/2")
    }

    @Test func countersCountFromEveryThread() {
        let counters = HTTP2Counters()
        #expect(counters.counts == HTTP2Counters.Counts())
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<1000 {
                counters.streamOpened()
                counters.streamReset(sentByProxy: index % 2 == 0)
                if index % 10 == 0 { counters.goawaySent() }
            }
            if worker < 3 { counters.connectionAccepted() }
        }
        #expect(counters.counts == HTTP2Counters.Counts(connectionsAccepted: 3, streamsOpened: 8000, streamsResetByFaultline: 4000,
                                                        streamsResetByClient: 4000, goawaysSent: 800))
    }

    private func stats(_ state: ProxyServerState) throws -> [String: Any] {
        let request = AdminRequest(method: "GET", path: "/stats", query: "", headers: HTTPHeaders(), body: [])
        let response = AdminRouter(server: state).respond(to: request)
        #expect(response.status == 200)
        return try JSONObject.parse(response.body)
    }

    @Test func statsShowTheHTTP2CountersTheStateIsTold() throws {
        let state = ProxyServerState(snapshot: try Self.snapshot(), events: { _ in })
        let zeros: [String: Int] = ["connections_accepted": 0, "streams_opened": 0, "streams_reset_by_faultline": 0,
                                    "streams_reset_by_client": 0, "goaways_sent": 0]
        #expect(try stats(state)["http2"] as? [String: Int] == zeros)
        state.http2ConnectionAccepted()
        state.http2StreamOpened()
        state.http2StreamOpened()
        state.http2StreamReset(sentByProxy: true)
        state.http2StreamReset(sentByProxy: false)
        state.http2StreamReset(sentByProxy: false)
        state.http2GoAwaySent()
        let counted = try stats(state)
        #expect(counted["http2"] as? [String: Int] == ["connections_accepted": 1, "streams_opened": 2, "streams_reset_by_faultline": 1,
                                                       "streams_reset_by_client": 2, "goaways_sent": 1])
        // Resetting the fault counters leaves the traffic counters alone.
        _ = AdminRouter(server: state).respond(to: AdminRequest(method: "POST", path: "/rules/reset", query: "",
                                                                headers: HTTPHeaders(), body: []))
        #expect((try stats(state)["http2"] as? [String: Int])?["streams_opened"] == 2)
    }
}
