import Testing
@testable import FaultlineProxy

/// The loop's forward pools: one destination per scheme, host, port and trust file, kept
/// while used; past the bound the least recently used goes, and a connection made for a
/// dropped destination finds no pool to return to.
@Suite struct ForwardPoolsTests {
    static func key(_ host: String, port: UInt16 = 80, tls: Bool = false) -> ForwardPools.Key {
        ForwardPools.Key(host: host, port: port, tls: tls, caFile: nil)
    }

    struct NoTrust: Error {}

    @Test func theSameHostGetsTheSameDestinationAndAnotherPortOrSchemeAnother() throws {
        let pools = ForwardPools()
        let first = try #require(pools.destination(Self.key("a.test")) { throw NoTrust() })
        let again = try #require(pools.destination(Self.key("a.test")) { throw NoTrust() })
        #expect(first === again)
        let otherPort = try #require(pools.destination(Self.key("a.test", port: 8080)) { throw NoTrust() })
        #expect(otherPort !== first)
        #expect(pools.pool(returning: Self.key("a.test"), madeWith: nil) === first.pool)
        // A TLS destination whose trust cannot be loaded is refused, never made plaintext.
        #expect(pools.destination(Self.key("a.test", port: 443, tls: true)) { throw NoTrust() } == nil)
        #expect(pools.count == 2)
    }

    @Test func pastTheBoundTheLeastRecentlyUsedDestinationIsDropped() throws {
        let pools = ForwardPools(capacity: 3)
        for host in ["a", "b", "c"] { _ = pools.destination(Self.key(host)) { throw NoTrust() } }
        // "a" used again: "b" is now the least recently used.
        _ = pools.destination(Self.key("a")) { throw NoTrust() }
        _ = pools.destination(Self.key("d")) { throw NoTrust() }
        #expect(pools.count == 3)
        #expect(pools.pool(returning: Self.key("b"), madeWith: nil) == nil, "b was dropped")
        for host in ["a", "c", "d"] {
            #expect(pools.pool(returning: Self.key(host), madeWith: nil) != nil, "\(host) kept")
        }
        pools.closeAll()
        #expect(pools.count == 0)
    }
}
