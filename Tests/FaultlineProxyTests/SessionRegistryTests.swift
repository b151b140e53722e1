import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineConfig

/// The registry: limits, claimed addresses, idle expiry and the sweeps.
@Suite("Session registry")
struct SessionRegistryTests {
    private static let second: UInt64 = 1_000_000_000

    @Test func limitsAndClaimedAddresses() throws {
        let config = ProxyConfig(listeners: [], upstreams: [], routes: [], sessions: SessionsConfig(max: 2))
        let registry = SessionRegistry()
        let first = try registry.create(SessionRequest(clients: ["10.0.0.1"]), config: config, now: 1)
        #expect(first.id.range(of: "^[a-z0-9]{16,32}$", options: .regularExpression) != nil)
        #expect(first.seed < 1 << 53)
        #expect(throws: SessionRefusal.self) { try registry.create(SessionRequest(clients: ["10.0.0.1"]), config: config, now: 1) }
        _ = try registry.create(SessionRequest(), config: config, now: 1)
        #expect(throws: SessionRefusal.self) { try registry.create(SessionRequest(), config: config, now: 1) }
        #expect(registry.session(client: "10.0.0.1", now: 2) === first)
        #expect(registry.remove(id: first.id, now: 2))
        #expect(!registry.remove(id: first.id, now: 2))
        #expect(registry.session(client: "10.0.0.1", now: 2) == nil)
    }

    @Test func idleSessionsExpireAndUseRenewsThem() throws {
        let config = ProxyConfig(listeners: [], upstreams: [], routes: [])
        let registry = SessionRegistry()
        let kept = try registry.create(SessionRequest(ttlSeconds: 2), config: config, now: 0)
        let dropped = try registry.create(SessionRequest(ttlSeconds: 2, clients: ["::1"]), config: config, now: 0)
        #expect(registry.session(id: kept.id, now: 2 * Self.second) === kept)
        #expect(registry.approximateCount == 2)
        // The periodic sweep frees the abandoned one without anybody asking for it.
        registry.sweepIfDue(now: 3 * Self.second)
        #expect(registry.approximateCount == 1)
        #expect(registry.session(client: "::1", now: 3 * Self.second) == nil)
        #expect(registry.session(id: dropped.id, now: 3 * Self.second) == nil)
        #expect(registry.session(id: kept.id, now: 3 * Self.second) === kept)
        #expect(registry.all(now: 6 * Self.second).isEmpty)
    }
}
