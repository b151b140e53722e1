import Foundation
import FaultlineHTTP
import FaultlineHTTP2
import FaultlineIO
import FaultlineConfig
import Testing
@testable import FaultlineProxy

/// The HTTP/2 upstream leg's pure parts: the head an HTTP/2 upstream receives, and how the
/// machine treats a stream the upstream reset or did not process.
@Suite("Upstream HTTP/2 leg")
struct UpstreamHTTP2LegTests {
    private func started(configure: (inout ExchangeSetup) -> Void = { _ in }) -> ExchangeMachine {
        var setup = MachineFixture.setup(.proxy)
        configure(&setup)
        var machine = ExchangeMachine(setup: setup)
        _ = machine.requestHeadReceived()
        _ = machine.upstreamAttached(connecting: false)
        return machine
    }

    private static func pairs(_ headers: HTTPHeaders) -> [[String]] {
        (0..<headers.count).map { index in
            headers.withField(index) { [String(decoding: $0, as: UTF8.self), String(decoding: $1, as: UTF8.self)] }
        }
    }

    /// The head an HTTP/2 upstream gets is built as fields from the client's head, with the
    /// same rules as the HTTP/1 head (Host policy, forwarding fields, Via), never printed as
    /// HTTP/1 and parsed back: pseudo-header fields first, names lowercased, the
    /// connection-specific fields (framing included) left out, `TE: trailers` kept last.
    @Test func theUpstreamHeadIsBuiltAsHTTP2Fields() throws {
        let json = #"""
        {"listeners": [{"address": "127.0.0.1:0"}],
         "upstreams": {"api": {"url": "http://127.0.0.1:8081", "protocol": "h2c"}},
         "routes": [{"name": "api", "match": {"path_prefix": "/"}, "upstream": "api"}],
         "log": {"off": true}}
        """#
        let config = try ConfigLoader.parse(Data(json.utf8), file: nil, checkFiles: false)
        let starter = ExchangeStarter(snapshot: try ConfigSnapshot(config: config, generation: 1), clientIP: "192.0.2.7",
                                      scheme: "https")
        let head = try ExchangeStarterTests.head("POST /a?b=1 HTTP/1.1\r\nAccept: */*\r\nTE: trailers\r\n"
                                                 + "Host: api.example:8443\r\nConnection: te\r\nTransfer-Encoding: chunked\r\n\r\n")
        let exchange = starter.start(head, trace: nil, mayKeepAlive: true)
        guard case .http2(let fields) = exchange.upstreamHead else {
            Issue.record("not an HTTP/2 head: \(exchange.upstreamHead)")
            return
        }
        #expect(Self.pairs(fields) == [
            [":method", "POST"], [":scheme", "http"], [":authority", "api.example:8443"], [":path", "/a?b=1"],
            ["accept", "*/*"], ["x-forwarded-for", "192.0.2.7"], ["x-forwarded-proto", "https"],
            ["x-forwarded-host", "api.example:8443"], ["via", "1.1 faultline"], ["te", "trailers"],
        ])
    }

    @Test func aRefusedStreamIsRetriedOnceWhateverTheMethod() {
        var machine = started { $0.isIdempotent = false }
        _ = machine.requestEnded()
        let refused = UpstreamFailure.notProcessed(.refusedStream, frame: .rstStream)
        let facts = UpstreamAttemptFacts(reused: true, sawResponseBytes: false, sentNothing: false, replayable: true)
        #expect(machine.willRetry(after: refused, attempt: facts))
        #expect(machine.upstreamFailed(refused, attempt: facts).all == [.connectUpstream(fresh: true, requestComplete: true)])
        _ = machine.upstreamAttached(connecting: false)
        #expect(!machine.willRetry(after: refused, attempt: facts))
        #expect(machine.upstreamFailed(refused, attempt: facts).all.contains(.writeLocalResponse))
        #expect(machine.failure?.error == .upstreamReset)
    }

    @Test func aResetIsNeverRetriedAndEndsWith502() {
        var machine = started()
        _ = machine.requestEnded()
        let reset = UpstreamFailure.streamReset(.internalError)
        let facts = UpstreamAttemptFacts(reused: true, sawResponseBytes: false, sentNothing: true, replayable: true)
        #expect(!machine.willRetry(after: reset, attempt: facts))
        _ = machine.upstreamFailed(reset, attempt: facts)
        #expect(machine.answer == .local(LocalResponse(status: 502, message: "upstream reset the HTTP/2 stream (INTERNAL_ERROR)",
                                                        keepAlive: true)))
    }

    @Test func anUnprocessedStreamAfterTheResponseStartedIsNotRetried() {
        let machine = started()
        let goaway = UpstreamFailure.notProcessed(.noError, frame: .goaway)
        let facts = UpstreamAttemptFacts(reused: true, sawResponseBytes: true, sentNothing: false, replayable: true)
        #expect(!machine.willRetry(after: goaway, attempt: facts))
        let tooLarge = UpstreamAttemptFacts(reused: true, sawResponseBytes: false, sentNothing: false, replayable: false)
        #expect(!machine.willRetry(after: goaway, attempt: tooLarge), "a body too large to replay is not sent again")
    }

    @Test func failureTextsNameTheProtocolProblem() {
        #expect(UpstreamFailure.alpnRefused(selected: "http/1.1").message
            == "upstream did not select HTTP/2 by ALPN (it selected \"http/1.1\")")
        #expect(UpstreamFailure.alpnRefused(selected: nil).error == .upstreamProtocol)
        #expect(UpstreamFailure.notProcessed(.refusedStream, frame: .goaway).message
            == "upstream did not process the HTTP/2 stream (GOAWAY REFUSED_STREAM)")
    }
}
