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

    @Test func aLongerOrShorterNameIsNotFound() {
        #expect(found(Array("content-types".utf8)) == nil)
        #expect(found(Array("content-typ".utf8)) == nil)
        #expect(found(Array("x-forwarded-for".utf8)) == "x-forwarded-for")
        #expect(found([]) == nil)
    }
}
