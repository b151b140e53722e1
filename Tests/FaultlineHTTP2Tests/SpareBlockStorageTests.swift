import Testing
import FaultlineHTTP
@testable import FaultlineHTTP2

/// The collector refills the storage of blocks it made earlier: only storage nothing else
/// holds, so a block (or the request head made from it) never sees its bytes change.
@Suite("HTTP/2 spare block storage")
struct SpareBlockStorageTests {
    /// Collects one request block the way a session does.
    private static func block(_ collector: inout HTTP2HeaderBlockCollector, path: String,
                              fields: [(String, String)] = []) -> HTTP2HeaderBlock {
        collector.begin()
        let pseudo = [(":method", "GET"), (":scheme", "https"), (":authority", "example.test"), (":path", path)]
        for (name, value) in pseudo + fields {
            Array(name.utf8).withUnsafeBytes { name in
                Array(value.utf8).withUnsafeBytes { value in collector.add(name: name, value: value, sizeLimit: 65536) }
            }
        }
        return collector.makeBlock(kind: .request, endsStream: true)
    }

    @Test func blocksAndHeadsStillHeldKeepTheirBytesWhileLaterBlocksAreMade() throws {
        var collector = HTTP2HeaderBlockCollector()
        let held = Self.block(&collector, path: "/held", fields: [("x-held", "1")])
        let heldHead = try held.requestHead()
        var later: [HTTP2HeaderBlock] = []
        for index in 0..<(3 * HTTP2SpareBlockStorage.slotCount) {
            let block = Self.block(&collector, path: "/later/\(index)", fields: [("x-later", "\(index)")])
            if index % 2 == 0 { later.append(block) }   // half of them are held too
        }
        #expect(held.path == Array("/held".utf8) && held.method == Array("GET".utf8))
        #expect(held.fields.pairs.map(\.name) == ["host", "x-held"] && held.fields.first("x-held") == "1")
        #expect(heldHead.targetString == "/held" && heldHead.headers.first("x-held") == "1")
        for (position, block) in later.enumerated() {
            #expect(block.path == Array("/later/\(position * 2)".utf8))
            #expect(block.fields.first("x-later") == "\(position * 2)")
        }
    }

    @Test func storageNothingElseHoldsIsRefilledInPlace() throws {
        var collector = HTTP2HeaderBlockCollector()
        let longValue = String(repeating: "v", count: 1000)
        let longPath = "/" + String(repeating: "p", count: 500)
        let fieldsAddress: UInt
        let pathAddress: UInt
        do {
            // Made and dropped with its head, as when a stream's exchange is over.
            let first = Self.block(&collector, path: longPath, fields: [("x-long", longValue)])
            let head = try first.requestHead()
            fieldsAddress = Self.address(of: head.headers.bytes)
            pathAddress = Self.address(of: head.target)
        }
        var blocks: [HTTP2HeaderBlock] = []
        for index in 0..<HTTP2SpareBlockStorage.slotCount {
            blocks.append(Self.block(&collector, path: "/\(index)"))
        }
        // The block after `slotCount` more is written into the first block's storage: the same
        // memory, as large as the first block needed. New storage would be as large as its own
        // bytes; storage copied while still shared would be elsewhere.
        let refilled = try #require(blocks.last)
        #expect(Self.address(of: refilled.fields.bytes) == fieldsAddress)
        #expect(refilled.fields.bytes.capacity >= longValue.utf8.count)
        let path = try #require(refilled.path)
        #expect(Self.address(of: path) == pathAddress && path.capacity >= longPath.utf8.count)
        #expect(path == Array("/\(HTTP2SpareBlockStorage.slotCount - 1)".utf8))
        #expect(refilled.fields.pairs.map(\.name) == ["host"])
        // The others were new: each exactly as large as its block.
        #expect(blocks.dropLast().allSatisfy { $0.fields.bytes.capacity < longValue.utf8.count })
    }

    private static func address(of bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test func largeStorageIsNotKept() {
        var collector = HTTP2HeaderBlockCollector()
        _ = Self.block(&collector, path: "/small")
        let small = collector.spareBytes
        #expect(small > 0 && small < 512)
        _ = Self.block(&collector, path: "/", fields: [("x-large", String(repeating: "v", count: HTTP2SpareBlockStorage.keptLimit))])
        #expect(collector.spareBytes == small)
    }

    /// An idle connection keeps at most `keptBudget` for its next blocks, however large the
    /// blocks it was sent (each under `keptLimit`).
    @Test func allSlotsTogetherKeepAtMostTheBudget() {
        var collector = HTTP2HeaderBlockCollector()
        let value = String(repeating: "v", count: HTTP2SpareBlockStorage.keptLimit / 2)
        for index in 0..<(2 * HTTP2SpareBlockStorage.slotCount) {
            _ = Self.block(&collector, path: "/\(index)", fields: [("x-half", value)])
            #expect(collector.spareBytes <= HTTP2SpareBlockStorage.keptBudget)
        }
        #expect(collector.spareBytes > HTTP2SpareBlockStorage.keptBudget / 2)
    }
}
