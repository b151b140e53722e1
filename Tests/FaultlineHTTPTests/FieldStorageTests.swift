import Testing
import FaultlineHTTP

/// Field sections past the room the decoder starts with (more fields, longer values), split
/// anywhere, with trailers after a chunked body, and fields added whole: every name and value
/// comes out as sent, in order, in the wire form `Name: value\r\n`.
@Suite struct FieldStorageTests {
    /// 40 fields, some values long, one with trailing whitespace the decoder trims.
    static let fields: [(String, String)] = (0..<40).map { index in
        ("X-Field-\(index)", index % 7 == 0 ? String(repeating: "v\(index)", count: 150) : "value \(index)")
    }

    static var request: [UInt8] {
        var text = "POST /upload HTTP/1.1\r\nHost: example.test\r\nTransfer-Encoding: chunked\r\n"
        for (name, value) in fields { text += "\(name): \(value)  \r\n" }
        text += "\r\n5\r\nhello\r\n0\r\nX-Checksum: abc\r\nX-Late:   tail value \t\r\n\r\n"
        return Array(text.utf8)
    }

    @Test(arguments: [[], [1], [37, 500, 1_000, 2_999], Array(stride(from: 3, to: 4_000, by: 97))])
    func aLargeSectionComesOutWholeHoweverItIsSplit(cuts: [Int]) {
        let whole = Self.request
        let transcript = decode(whole, kind: .request, cuts: cuts)
        #expect(transcript.failure == nil)
        let expected = ["host=example.test", "transfer-encoding=chunked"] + Self.fields.map { "\($0.0.lowercased())=\($0.1)" }
        let head = transcript.heads.first ?? ""
        let listed = head.split(separator: "[", maxSplits: 1).last.map { String($0.dropLast()) } ?? ""
        #expect(listed.split(separator: ";").map { $0.lowercased() } == expected.map { $0.lowercased() })
        #expect(transcript.bodies == [Array("hello".utf8)])
        #expect(transcript.trailers == [["X-Checksum=abc", "X-Late=tail value"]])
        #expect(transcript.ends == 1)
    }

    @Test func fieldsAddedWholeKeepTheirWireForm() {
        var headers = HTTPHeaders()
        let long = String(repeating: "L", count: 3_000)
        for (name, value) in [("Content-Type", "text/plain"), ("X-Long", long), ("Empty", "")] {
            Array(name.utf8).withUnsafeBytes { name in
                Array(value.utf8).withUnsafeBytes { value in headers.add(name: name, value: value, lowercasingName: true) }
            }
        }
        #expect(headers.pairs.map(\.name) == ["content-type", "x-long", "empty"])
        #expect(headers.pairs.map(\.value) == ["text/plain", long, ""])
        #expect(headers.bytes == Array("content-type: text/plain\r\nx-long: \(long)\r\nempty: \r\n".utf8))
        #expect(headers.first("x-long")?.count == 3_000)
    }
}

/// Field sections written in one pass into storage sized up front.
@Suite("HTTP fields writer")
struct FieldsWriterTests {
    private static func raw(_ text: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    @Test func writesLinesDecimalsAndLowercasedNamesInTheWireForm() {
        let headers = HTTPHeaders(byteCapacity: 200, fieldCapacity: 6) { writer in
            writer.add(name: Self.raw("X-Mixed-Case"), value: Self.raw("Keep As Is"), lowercasingName: true)
            writer.add(name: Self.raw("zero"), decimal: 0)
            writer.add(name: Self.raw("ten"), decimal: 10)
            writer.add(name: Self.raw("max"), decimal: .max)
            writer.add(name: "empty", value: "")
        }
        #expect(String(decoding: headers.bytes, as: UTF8.self)
            == "x-mixed-case: Keep As Is\r\nzero: 0\r\nten: 10\r\nmax: 18446744073709551615\r\nempty: \r\n")
        #expect(headers.pairs.map(\.value) == ["Keep As Is", "0", "10", "18446744073709551615", ""])
        #expect(headers.first("x-mixed-case") == "Keep As Is")
    }

    @Test func aSectionThatFillsItsRoomExactlyIsWhole() {
        // "a: b\r\n" is six bytes: three lines fill eighteen.
        let headers = HTTPHeaders(byteCapacity: 18, fieldCapacity: 3) { writer in
            for _ in 0..<3 { writer.add(name: "a", value: "b") }
        }
        #expect(headers.count == 3 && headers.bytes.count == 18)
        var grown = headers
        grown.add(name: "c", value: "d")
        #expect(grown.pairs.map(\.name) == ["a", "a", "a", "c"] && headers.count == 3)
    }
}

/// `HTTPHeaders.namesSeen` lets checks skip a pass over the fields when its field is absent;
/// it must follow every way fields are set, or a check would be skipped wrongly.
@Suite struct NamesSeenTests {
    /// What the set must be: worked out from the pairs.
    private func expected(_ headers: HTTPHeaders) -> HTTPHeaders.NamesSeen {
        var seen: HTTPHeaders.NamesSeen = []
        for (name, _) in headers.pairs {
            switch name.lowercased() {
            case "": seen.insert(.empty)
            case "host": seen.insert(.host)
            case "connection": seen.insert(.connection)
            case "transfer-encoding": seen.insert(.transferEncoding)
            default: break
            }
        }
        return seen
    }

    @Test func everyWayOfSettingFieldsKeepsTheSet() {
        var headers = HTTPHeaders()
        #expect(headers.namesSeen == [])
        headers.add(name: "X-A", value: "1")
        #expect(headers.namesSeen == [])
        headers.add(name: "HOST", value: "h")
        #expect(headers.namesSeen == [.host])
        "Connection".utf8.withContiguousStorageIfAvailable { name in
            headers.add(name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(start: nil, count: 0),
                        lowercasingName: true)
        }
        #expect(headers.namesSeen == [.host, .connection])
        headers.add(name: "", value: "x")
        #expect(headers.namesSeen == expected(headers))
        headers.removeAll(keepingCapacity: true)
        #expect(headers.namesSeen == [])
        let built = HTTPHeaders(byteCapacity: 64, fieldCapacity: 2) { writer in
            writer.add(name: "transfer-encoding", value: "chunked")
            writer.add(name: "x-b", value: "2")
        }
        #expect(built.namesSeen == [.transferEncoding])
    }

    @Test func decodedHeadsCarryTheSet() {
        let input = "GET / HTTP/1.1\r\nX-A: 1\r\nhOsT: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nConnection: x\r\n\r\n"
        let decoder = HTTP1Decoder(kind: .request)
        _ = Array(input.utf8).withUnsafeBytes { decoder.feed($0) }
        var heads = 0
        for event in decoder.events {
            switch event {
            case .head:
                let head = decoder.head
                heads += 1
                #expect(head.headers.namesSeen == [.host, .transferEncoding])
                #expect(head.headers.namesSeen == expected(head.headers))
            case .trailers:
                #expect(decoder.trailers.namesSeen == [.connection])
            case .body, .end:
                break
            }
        }
        #expect(heads == 1)
    }
}
