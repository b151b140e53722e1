import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineConfig

/// How a request starts in a session, without sockets: the session's rules first, their own
/// counters, the global route's upstream for a rule without one, the header never forwarded.
@Suite("Session starter")
struct SessionStarterTests {
    private struct Setup {
        let snapshot: ConfigSnapshot
        let sessions = SessionRegistry()
        let session: Session

        init(clients: [String] = []) throws {
            snapshot = try ExchangeStarterTests.snapshot()
            session = try sessions.create(SessionRequest(clients: clients), config: snapshot.config, now: 1)
            let down = try ConfigLoader.parseSessionRule(
                Data(#"{"name": "mine", "match": {"path_prefix": "/down"}, "faults": [{"status": 418, "when": {"first_n": 1}}]}"#.utf8),
                upstreams: snapshot.config.upstreams, baseDirectory: nil).rule
            let site = try ConfigLoader.parseSessionRule(
                Data(#"{"name": "to-site", "match": {"path": "/site"}, "upstream": "site"}"#.utf8),
                upstreams: snapshot.config.upstreams, baseDirectory: nil).rule
            session.changeRules(config: snapshot.config) { $0 = [down, site] }
        }

        func start(_ request: String, clientIP: String = "192.0.2.7") throws -> Exchange {
            let starter = ExchangeStarter(snapshot: snapshot, clientIP: clientIP, scheme: "http", sessions: sessions, now: 2)
            return starter.start(try ExchangeStarterTests.head(request), trace: nil, mayKeepAlive: true)
        }
    }

    @Test func sessionRulesComeFirstWithTheirOwnCounters() throws {
        let setup = try Setup()
        let header = "X-Faultline-Session: \(setup.session.id)\r\n"
        let first = try setup.start("GET /down/x HTTP/1.1\r\nHost: api.example\r\n\(header)\r\n")
        #expect(first.route?.name == "mine")
        // No upstream of its own: the global route's ("down" goes to "api").
        #expect(first.route?.upstream.name == "api")
        #expect(first.machine.plan.names == ["mine/status"])
        let second = try setup.start("GET /down/x HTTP/1.1\r\nHost: api.example\r\n\(header)\r\n")
        #expect(second.machine.plan.isEmpty)
        // Outside the session the global route and its faults apply, as before.
        let plain = try setup.start("GET /down/x HTTP/1.1\r\nHost: api.example\r\n\r\n")
        #expect(plain.route?.name == "down")
        #expect(plain.machine.plan.names == ["down/outage"])
        let site = try setup.start("GET /site HTTP/1.1\r\nHost: api.example\r\n\(header)\r\n")
        #expect(site.route?.upstream.name == "site")
        #expect(setup.session.requests.load(ordering: .relaxed) == 3)
    }

    @Test func theHeaderIsNeverForwarded() throws {
        let setup = try Setup()
        for id in [setup.session.id, "unknownunknown00"] {
            let exchange = try setup.start("GET /any HTTP/1.1\r\nHost: api.example\r\nx-faultline-session:  \(id) \r\n\r\n")
            let head = String(decoding: exchange.upstreamHead.http1Bytes, as: UTF8.self).lowercased()
            #expect(!head.contains("x-faultline-session"))
            #expect(exchange.route?.name == "api")
        }
    }

    @Test func aClaimedClientAddressNeedsNoHeader() throws {
        let setup = try Setup(clients: ["0:0:0:0:0:0:0:1"])
        #expect(setup.session.clients == ["::1"])
        #expect(try setup.start("GET /down HTTP/1.1\r\nHost: api.example\r\n\r\n", clientIP: "::1").route?.name == "mine")
        #expect(try setup.start("GET /down HTTP/1.1\r\nHost: api.example\r\n\r\n").route?.name == "down")
    }
}
