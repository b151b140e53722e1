import Testing
@testable import FaultlineIO

@Suite("Interface addresses")
struct InterfaceAddressesTests {
    @Test func everyAddressIsANonLoopbackLiteralOfANamedInterface() {
        let entries = InterfaceAddresses.nonLoopback()
        for entry in entries {
            #expect(!entry.interface.isEmpty)
            #expect(SocketAddress(ip: entry.ip, port: 1)?.isIPv6 == entry.isIPv6, "\(entry)")
            #expect(!entry.ip.hasPrefix("127.") && entry.ip != "::1", "\(entry)")
            #expect(!entry.ip.lowercased().hasPrefix("fe80"), "\(entry)")
        }
        // IPv4 first.
        let firstV6 = entries.firstIndex { $0.isIPv6 } ?? entries.count
        let ordered = entries[firstV6...].allSatisfy { $0.isIPv6 }
        #expect(ordered, "\(entries)")
    }
}
