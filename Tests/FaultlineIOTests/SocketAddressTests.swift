import Testing
@testable import FaultlineIO
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

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

    /// The accepted peer's text is formatted without inet_ntop; it must read exactly as
    /// inet_ntop's: every octet width, the extremes, and seeded random addresses.
    @Test(arguments: [UInt64(7), 0x5EED])
    func ipv4TextMatchesInetNtop(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var values: [UInt32] = [0, 0xFFFF_FFFF, 0x7F00_0001, 0x0A00_0001, 0xC0A8_64C8, 0x0909_6363, 0x6400_0A09]
        for _ in 0..<2000 { values.append(UInt32.random(in: 0...UInt32.max, using: &random)) }
        for value in values {
            let address = in_addr(s_addr: value.bigEndian)
            var raw = address
            var buffer = [CChar](repeating: 0, count: 16)
            _ = inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count))
            let expected = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            #expect(SocketAddress.ipv4Text(address) == expected, "seed \(seed), address \(expected)")
        }
    }
}
