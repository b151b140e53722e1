import Testing
@testable import FaultlineProxy

@Suite("Admin Host check")
struct AdminHostCheckTests {
    @Test func loopbackNamesAndTheConfiguredAddressWithThePort() {
        let check = AdminHostCheck(configuredHost: "127.0.0.1", port: 9901)
        for host in ["127.0.0.1:9901", "localhost:9901", "LOCALHOST:9901", "[::1]:9901"] {
            #expect(check.allows(host), "\(host)")
        }
        for host in [nil, "", "evil.example:9901", "localhost", "localhost:9902", "localhost:99010", "localhost:+9901",
                     "[::1]", "[::1]x:9901", "[::1:9901", "localhost:9901:1", "10.0.0.1:9901", "[::]:9901"] {
            #expect(!check.allows(host), "\(host ?? "nil")")
        }
    }

    @Test func portEightyMayBeImplied() {
        let check = AdminHostCheck(configuredHost: "::1", port: 80)
        #expect(check.allows("[::1]"))
        #expect(check.allows("localhost"))
        #expect(check.allows("[::1]:80"))
    }

    @Test func aWildcardBindAcceptsIPLiteralsButNoOtherNames() {
        let check = AdminHostCheck(configuredHost: "0.0.0.0", port: 9901)
        #expect(check.allows("192.168.1.5:9901"))
        #expect(check.allows("[fe80::1]:9901"))
        #expect(check.allows("localhost:9901"))
        #expect(!check.allows("my-laptop.local:9901"))
        #expect(!check.allows("192.168.1.5:9902"))
    }
}
