import Testing
import FaultlineIO

@Suite("Socket address")
struct SocketAddressTests {
    @Test(arguments: [
        ("127.0.0.1", 8080, false, "127.0.0.1:8080"),
        ("0.0.0.0", 0, false, "0.0.0.0:0"),
        ("::1", 443, true, "[::1]:443"),
        ("2001:db8::1", 65535, true, "[2001:db8::1]:65535"),
        ("::ffff:127.0.0.1", 1, true, "[::ffff:127.0.0.1]:1"),
    ])
    func numericLiteralsParse(ip: String, port: Int, isIPv6: Bool, description: String) throws {
        let address = try #require(SocketAddress(ip: ip, port: UInt16(port)))
        #expect(address.ip == ip)
        #expect(address.port == UInt16(port))
        #expect(address.isIPv6 == isIPv6)
        #expect(address.description == description)
    }

    @Test(arguments: ["", "localhost", "127.0.0", "127.0.0.256", "1.2.3.4.5", "[::1]", "::1::2", "example.com", " 127.0.0.1"])
    func anythingButANumericLiteralIsRefused(text: String) {
        #expect(SocketAddress(ip: text, port: 80) == nil)
    }

    @Test func resolvingALiteralNeedsNoLookupAndAcceptsBrackets() throws {
        #expect(try SocketAddress.resolve(host: "127.0.0.1", port: 9) == SocketAddress(ip: "127.0.0.1", port: 9))
        #expect(try SocketAddress.resolve(host: "[::1]", port: 9) == SocketAddress(ip: "::1", port: 9))
    }

    @Test func localhostResolvesToALoopbackAddress() throws {
        let address = try SocketAddress.resolve(host: "localhost", port: 8081)
        #expect(address.ip == "127.0.0.1" || address.ip == "::1")
        #expect(address.port == 8081)
    }

    @Test func equalAddressesHashAlike() throws {
        let a = try #require(SocketAddress(ip: "127.0.0.2", port: 80))
        let b = try #require(SocketAddress(ip: "127.0.0.2", port: 80))
        let c = try #require(SocketAddress(ip: "127.0.0.2", port: 81))
        #expect(a == b)
        #expect(Set([a, b, c]).count == 2)
    }
}
