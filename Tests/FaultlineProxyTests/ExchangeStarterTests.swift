import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineHTTP
import FaultlineConfig

/// How a request starts, decided without sockets: refusals, routing, the fault plan and the
/// head sent upstream, on a snapshot built by the config loader from JSON.
@Suite("Exchange starter")
struct ExchangeStarterTests {
    /// Two upstreams (one rewriting Host), a body limit, header-driven faults, and routes
    /// whose order matters: the fault routes come before the host routes.
    static let configJSON = #"""
    {"listeners": [{"address": "127.0.0.1:0"}],
     "upstreams": {"api": {"url": "http://127.0.0.1:8081"},
                   "site": {"url": "http://127.0.0.1:8082", "host_header": "upstream"}},
     "routes": [
       {"name": "down", "match": {"path_prefix": "/down"}, "upstream": "api",
        "faults": [{"name": "outage", "status": {"code": 503, "body": "gone"}}]},
       {"name": "slow", "match": {"path_prefix": "/slow"}, "upstream": "api",
        "faults": [{"name": "lag", "delay": {"ms": 250}}, {"name": "cut", "reset": {"after_bytes": 10}}]},
       {"name": "api", "match": {"host": "api.example", "methods": ["GET", "POST"]}, "upstream": "api"},
       {"name": "site", "match": {"host": "*.site.example"}, "upstream": "site"}
     ],
     "limits": {"max_request_body_bytes": 1000},
     "fault_headers": {"enabled": true},
     "log": {"off": true}}
    """#

    static func snapshot() throws -> ConfigSnapshot {
        let config = try ConfigLoader.parse(Data(configJSON.utf8), file: nil, checkFiles: false)
        return try ConfigSnapshot(config: config, generation: 1)
    }

    static func head(_ text: String) throws -> HTTPHead {
        let decoder = HTTP1Decoder(kind: .request)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { decoder.feed($0) }
        for event in decoder.events {
            if event == .head { return decoder.head }
        }
        throw HeadMissing(text: text)
    }

    struct HeadMissing: Error {
        let text: String
    }

    static func start(_ request: String, scheme: StaticString = "http") throws -> Exchange {
        let starter = ExchangeStarter(snapshot: try snapshot(), clientIP: "192.0.2.7", scheme: scheme)
        return starter.start(try head(request), trace: nil, mayKeepAlive: true)
    }

    // MARK: Refusals

    /// A request Faultline answers itself, and what it answers.
    struct Refusal: CustomTestStringConvertible, Sendable {
        let label: String
        let request: String
        let status: Int
        let error: ExchangeError
        let message: String
        let keepsAlive: Bool

        var testDescription: String { label }
    }

    /// CONNECT counts as an upgrade (the connection would become a tunnel), so its
    /// connection closes after the refusal.
    static let refusals: [Refusal] = [
        Refusal(label: "CONNECT", request: "CONNECT api.example:443 HTTP/1.1\r\nHost: api.example:443\r\n\r\n",
                status: 405, error: .methodNotAllowed,
                message: "CONNECT is not supported: Faultline is a reverse proxy", keepsAlive: false),
        Refusal(label: "HTTP/1.1 without Host", request: "GET / HTTP/1.1\r\n\r\n",
                status: 400, error: .badRequest,
                message: "bad request: HTTP/1.1 request without a Host header", keepsAlive: false),
        Refusal(label: "two Hosts", request: "GET / HTTP/1.1\r\nHost: api.example\r\nHost: other.example\r\n\r\n",
                status: 400, error: .badRequest, message: "bad request: more than one Host header", keepsAlive: false),
        Refusal(label: "declared body over the limit",
                request: "POST /upload HTTP/1.1\r\nHost: api.example\r\nContent-Length: 1001\r\n\r\n",
                status: 413, error: .bodyTooLarge,
                message: "request body of 1001 bytes exceeds the limit of 1000 bytes", keepsAlive: true),
        Refusal(label: "no route for the host", request: "GET /x?q=1 HTTP/1.1\r\nHost: nowhere.example\r\n\r\n",
                status: 404, error: .noRoute, message: "no route matches GET /x", keepsAlive: true),
        Refusal(label: "no route for the method", request: "DELETE /x HTTP/1.1\r\nHost: api.example\r\n\r\n",
                status: 404, error: .noRoute, message: "no route matches DELETE /x", keepsAlive: true),
        Refusal(label: "HTTP/1.0 without Host matches no host route", request: "GET /x HTTP/1.0\r\n\r\n",
                status: 404, error: .noRoute, message: "no route matches GET /x", keepsAlive: false),
    ]

    @Test(arguments: refusals)
    func refusalIsAnsweredLocally(_ refusal: Refusal) throws {
        let exchange = try Self.start(refusal.request)
        #expect(exchange.route == nil)
        #expect(exchange.upstreamHead.isNone)
        #expect(exchange.machine.plan.isEmpty)
        guard case .refuse(let status, let message) = exchange.machine.setup.start else {
            Issue.record("expected a refusal, got \(exchange.machine.setup.start)")
            return
        }
        #expect(status == refusal.status)
        #expect(message == refusal.message)
        #expect(exchange.machine.setup.clientKeepAlive == refusal.keepsAlive)
        var machine = exchange.machine
        _ = machine.requestHeadReceived()
        let actions = machine.requestEnded().all
        #expect(actions.contains(.noteError(refusal.error)))
        #expect(actions.contains(.writeLocalResponse))
        #expect(actions.contains(.finish(keepAlive: refusal.keepsAlive)))
        #expect(machine.failure == ExchangeFailure(error: refusal.error, message: refusal.message))
        guard case .local(let response) = machine.answer else {
            Issue.record("expected a local answer, got \(String(describing: machine.answer))")
            return
        }
        #expect(response.status == refusal.status)
    }

    /// A declared body at the limit is not refused; no limit at all is not either.
    @Test func bodyAtTheLimitIsRouted() throws {
        let exchange = try Self.start("POST /upload HTTP/1.1\r\nHost: api.example\r\nContent-Length: 1000\r\n\r\n")
        #expect(exchange.route?.name == "api")
        #expect(exchange.machine.setup.maxRequestBodyBytes == 1000)
        #expect(exchange.machine.setup.requestFraming == .contentLength(1000))
    }

    // MARK: Routing and faults

    /// A routed request: which route and upstream, the fault plan, the setup it starts with.
    struct Routed: CustomTestStringConvertible, Sendable {
        let label: String
        let request: String
        let route: String
        let upstream: String
        let faults: [String]
        var terminal: FaultPlan.Terminal?
        var requestDelayMs = 0
        var cutAfterBytes: Int?

        var testDescription: String { label }
    }

    static let routed: [Routed] = [
        Routed(label: "host route", request: "GET /users HTTP/1.1\r\nHost: API.example:8080\r\n\r\n",
               route: "api", upstream: "api", faults: []),
        Routed(label: "wildcard host route", request: "GET / HTTP/1.1\r\nHost: a.b.site.example\r\n\r\n",
               route: "site", upstream: "site", faults: []),
        Routed(label: "earlier route wins, status fault", request: "GET /down/now HTTP/1.1\r\nHost: api.example\r\n\r\n",
               route: "down", upstream: "api", faults: ["down/outage"],
               terminal: .status(StatusFault(code: 503, body: .text("gone")))),
        Routed(label: "delay and cut compose", request: "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n",
               route: "slow", upstream: "api", faults: ["slow/lag", "slow/cut"], requestDelayMs: 250, cutAfterBytes: 10),
        Routed(label: "fault headers ask for a delay and a status",
               request: "GET / HTTP/1.1\r\nHost: api.example\r\nX-Faultline-Delay-Ms: 40\r\nX-Faultline-Status: 418\r\n\r\n",
               route: "api", upstream: "api", faults: ["header/delay", "header/status"],
               terminal: .status(StatusFault(code: 418, body: .text("fault injected by x-faultline-status\n"))),
               requestDelayMs: 40),
        Routed(label: "out-of-range fault header is ignored",
               request: "GET / HTTP/1.1\r\nHost: api.example\r\nX-Faultline-Status: 99\r\n\r\n",
               route: "api", upstream: "api", faults: []),
    ]

    @Test(arguments: routed)
    func routedRequestCarriesItsPlan(_ expected: Routed) throws {
        let exchange = try Self.start(expected.request)
        let route = try #require(exchange.route)
        #expect(route.name == expected.route)
        #expect(route.upstream.name == expected.upstream)
        let machine = exchange.machine
        guard case .proxy = machine.setup.start else {
            Issue.record("expected a proxied start, got \(machine.setup.start)")
            return
        }
        #expect(machine.setup.upstreamName == expected.upstream)
        #expect(machine.plan.names == expected.faults)
        #expect(machine.plan.terminal == expected.terminal)
        #expect(machine.plan.requestDelayMs == expected.requestDelayMs)
        #expect(machine.plan.cutAfterBytes == expected.cutAfterBytes)
        #expect(machine.setup.faultMarker == (expected.faults.isEmpty ? nil : expected.faults.joined(separator: ", ")))
        #expect(!exchange.upstreamHead.isNone)
    }

    /// The route's upstream timeouts and the client's idle timeout reach the machine's setup.
    @Test func setupTakesTheTimeoutsOfRouteAndClient() throws {
        let snapshot = try Self.snapshot()
        let exchange = try Self.start("GET / HTTP/1.1\r\nHost: api.example\r\n\r\n")
        let upstream = try #require(exchange.route?.upstream)
        let timeouts = exchange.machine.setup.timeouts
        #expect(timeouts.connectMs == upstream.timeouts.connectMs)
        #expect(timeouts.responseMs == upstream.timeouts.responseMs)
        #expect(timeouts.tunnelIdleMs == upstream.timeouts.tunnelIdleMs)
        #expect(timeouts.clientIdleMs == snapshot.config.clientTimeouts.idleMs)
    }

    /// The log record learns the route, the upstream and the faults; the upstream head
    /// carries the record's request ID in place of the client's.
    @Test func traceRecordsTheDecision() throws {
        let snapshot = try Self.snapshot()
        let request = try Self.head("GET /slow HTTP/1.1\r\nHost: api.example\r\nX-Request-ID: client-chosen\r\n\r\n")
        let trace = ExchangeTrace(start: 0, requestID: "4f9c2a7e1b3d5a60", request: request, scheme: "http", log: snapshot.log)
        let exchange = ExchangeStarter(snapshot: snapshot, clientIP: "192.0.2.7", scheme: "http")
            .start(request, trace: trace, mayKeepAlive: false)
        #expect(trace.route == "slow")
        #expect(trace.upstream == "api")
        #expect(trace.faults == ["slow/lag", "slow/cut"])
        let head = String(decoding: exchange.upstreamHead.http1Bytes, as: UTF8.self)
        #expect(head.contains("\r\nX-Request-ID: 4f9c2a7e1b3d5a60\r\n"))
        #expect(!head.contains("client-chosen"))
    }

    /// A refused request never names a route or upstream in its record.
    @Test func refusalLeavesTheTraceUnrouted() throws {
        let snapshot = try Self.snapshot()
        let request = try Self.head("GET / HTTP/1.1\r\nHost: nowhere.example\r\n\r\n")
        let trace = ExchangeTrace(start: 0, requestID: "r", request: request, scheme: "http", log: snapshot.log)
        _ = ExchangeStarter(snapshot: snapshot, clientIP: "192.0.2.7", scheme: "http").start(request, trace: trace, mayKeepAlive: true)
        #expect(trace.route == nil)
        #expect(trace.upstream == nil)
        #expect(trace.faults.isEmpty)
    }
}
