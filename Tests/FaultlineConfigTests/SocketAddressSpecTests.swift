import Testing
@testable import FaultlineConfig

@Suite("Addresses and literals")
struct SocketAddressSpecTests {
    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", UInt16(8080), "127.0.0.1:8080"),
        ("0.0.0.0:0", "0.0.0.0", UInt16(0), "0.0.0.0:0"),
        ("localhost:9901", "127.0.0.1", UInt16(9901), "127.0.0.1:9901"),
        ("[::1]:65535", "::1", UInt16(65535), "[::1]:65535"),
        ("[::]:80", "::", UInt16(80), "[::]:80"),
        ("[2001:db8::1]:443", "2001:db8::1", UInt16(443), "[2001:db8::1]:443"),
        ("[::ffff:10.0.0.1]:1", "::ffff:10.0.0.1", UInt16(1), "[::ffff:10.0.0.1]:1"),
    ])
    func parses(text: String, host: String, port: UInt16, description: String) throws {
        let address = try SocketAddressSpec(parsing: text)
        #expect(address.host == host)
        #expect(address.port == port)
        #expect(address.description == description)
    }

    @Test(arguments: ["", ":80", "8080", "127.0.0.1", "256.0.0.1:80", "01.2.3.4:80", "1.2.3:80",
                      "127.0.0.1:-1", "127.0.0.1:+80", "[::1]", "[1:2:3:4:5:6:7:8:9]:80", "[1::2::3]:80", "host:80",
                      "[::1]:123456"])
    func rejects(text: String) {
        #expect(throws: ConfigError.self) { try SocketAddressSpec(parsing: text) }
    }

    @Test func ipv6Literals() {
        for good in ["::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "fe80::1:2", "::ffff:1.2.3.4", "1:2:3:4:5:6:1.2.3.4"] {
            #expect(IPLiteral.isIPv6(good), "\(good)")
        }
        for bad in ["", ":", "1", ":::", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::", "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3", "1:2"] {
            #expect(!IPLiteral.isIPv6(bad), "\(bad)")
        }
    }

    @Test func editDistanceSuggestions() {
        #expect(EditDistance.between("kitten", "sitting") == 3)
        #expect(EditDistance.suggestion(for: "upstream", among: ConfigKeys.topLevel) == "upstreams")
        #expect(EditDistance.suggestion(for: "xyz", among: ConfigKeys.topLevel) == nil)
    }
}
