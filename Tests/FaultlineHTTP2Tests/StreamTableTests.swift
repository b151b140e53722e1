import Testing
import FaultlineHTTP2
import FaultlineTestSupport

/// The stream table answers as a dictionary would, whatever order streams open and close in.
@Suite("HTTP/2 stream table")
struct StreamTableTests {
    @Test func newestStreamsAppendAndLookupsFindEachOne() {
        var table = HTTP2StreamTable<String>()
        for id in stride(from: Int32(1), through: 199, by: 2) { table[id] = "s\(id)" }
        #expect(table.count == 100)
        #expect(table[1] == "s1" && table[99] == "s99" && table[199] == "s199")
        #expect(table[2] == nil && table[201] == nil && table[0] == nil)
        #expect(table.removeValue(forKey: 51) == "s51")
        #expect(table[51] == nil && table.count == 99)
        #expect(table.ids.first == 1 && table.ids.last == 199 && table.ids == table.ids.sorted())
        table[7] = nil
        table[8] = nil
        #expect(table.count == 98 && table[9] == "s9")
        table.removeAll()
        #expect(table.isEmpty && table[1] == nil)
    }

    @Test(arguments: [UInt64(1), 2, 3, 0xFA17_11E5])
    func randomOpensAndClosesMatchADictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var table = HTTP2StreamTable<Int>()
        var reference: [Int32: Int] = [:]
        for step in 0..<5_000 {
            let id = Int32.random(in: 0..<300, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                #expect(table.removeValue(forKey: id) == reference.removeValue(forKey: id), "seed \(seed) step \(step)")
            case 1:
                table[id] = nil
                reference[id] = nil
            default:
                table[id] = step
                reference[id] = step
            }
            let probe = Int32.random(in: 0..<300, using: &random)
            #expect(table[probe] == reference[probe], "seed \(seed) step \(step) id \(probe)")
        }
        #expect(table.ids == reference.keys.sorted(), "seed \(seed)")
        #expect(table.values == reference.keys.sorted().compactMap { reference[$0] }, "seed \(seed)")
    }
}
