import Testing
@testable import FaultlineLog

/// The redactor's common header names are found whatever their case, and only they: the
/// comparison reads eight bytes at a time, so every byte of every name is changed in turn.
@Suite("Verbatim header names")
struct VerbatimHeaderNamesTests {
    private let redactor = Redactor()

    private func found(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { redactor.verbatimHeaderName(bytes: $0) }
    }

    @Test func everyCommonNameIsFoundInAnyCaseAndNoOneByteChangeOfItIs() {
        for spelling in Redactor.commonHeaderSpellings {
            let lower = Array(spelling.utf8)
            guard found(lower) == spelling else { continue }
            let upper = lower.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
            #expect(found(upper) == spelling, "\(spelling) in capitals")
            let mixed = lower.enumerated().map { $0.offset % 2 == 0 ? upper[$0.offset] : $0.element }
            #expect(found(mixed) == spelling, "\(spelling) in mixed case")
            for position in lower.indices {
                for byte in UInt8.min...UInt8.max where byte != lower[position] && byte != upper[position] {
                    var changed = lower
                    changed[position] = byte
                    #expect(found(changed) == nil, "\(spelling) with 0x\(String(byte, radix: 16)) at \(position)")
                }
            }
        }
    }

    /// Every common name the default rules leave alone is found; the ones they redact or
    /// rewrite (none of these) would take the full path.
    @Test func theDefaultRulesFindEveryPlainCommonName() {
        let plain = ["host", "user-agent", "accept", "accept-encoding", "content-type", "content-length", "server",
                     "date", "connection", "etag", "last-modified", "via", "x-forwarded-for", "te", "x-request-id",
                     "strict-transport-security", "x-content-type-options", "accept-ranges", "keep-alive"]
        for name in plain {
            #expect(found(Array(name.utf8)) == name, "\(name)")
            #expect(found(Array(name.uppercased().utf8)) == name, "\(name) in capitals")
        }
        // Same length and end bytes as a common name, but not one.
        #expect(found(Array("hast".utf8)) == nil)
        #expect(found(Array("content-tape".utf8)) == nil)
        #expect(found(Array("authorization".utf8)) == nil)
        #expect(found(Array("cookie".utf8)) == nil)
    }

    @Test func aLongerOrShorterNameIsNotFound() {
        #expect(found(Array("content-types".utf8)) == nil)
        #expect(found(Array("content-typ".utf8)) == nil)
        #expect(found(Array("x-forwarded-for".utf8)) == "x-forwarded-for")
        #expect(found([]) == nil)
    }
}
