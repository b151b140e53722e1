import Testing
import FaultlineHTTP
import FaultlineTestSupport
@testable import FaultlineLog

/// `LogRecord.addHeaders` keeps a head whose headers are all logged as they are as one copy of
/// their bytes; whatever it keeps, a reader sees what adding the headers one by one stores.
@Suite("Header lines kept until read")
struct LogHeaderLinesTests {
    private static let verbatimNames = ["Content-Type", "HOST", "etag", "Date", "X-Forwarded-For", "accept", "Server", "Via"]
    private static let otherNames = ["Authorization", "Cookie", "X-Api-Key", "X-Custom", "Location", "Set-Cookie", "X-Trace"]
    private static let values: [[UInt8]] = [
        Array("text/plain".utf8), Array("".utf8), Array("Bearer SECRET-TOKEN-1".utf8), Array("session=SECRET-COOKIE-2".utf8),
        Array("https://user:SECRET-PW-3@example.test/?token=SECRET-4".utf8), Array("caf\u{e9}".utf8), [0x61, 0xFF, 0x62],
        Array(repeating: UInt8(ascii: "v"), count: 40), Array("token=SECRET-5".utf8),
    ]

    @Test func aHeadAddedWholeReadsAsItsHeadersAddedOneByOne() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        for round in 0..<600 {
            var headers = HTTPHeaders()
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                let pool = Int.random(in: 0..<5, using: &random) == 0 ? Self.otherNames : Self.verbatimNames
                let name = pool[Int.random(in: 0..<pool.count, using: &random)]
                let value = Int.random(in: 0..<3, using: &random) == 0
                    ? Self.values[Int.random(in: 0..<Self.values.count, using: &random)] : Array("v\(round)".utf8)
                headers.add(name: Array(name.utf8), value: value)
            }
            let policy = LogPolicy(options: LogOptions(
                headers: true, headerValueMaxBytes: [16, 4096].randomElement(using: &random) ?? 16,
                maxHeaders: [3, 100].randomElement(using: &random) ?? 3))
            let direction: LogDirection = Bool.random(using: &random) ? .request : .response
            let time = LogTimestamp.now()
            var whole = LogRecord(kind: .exchange, time: time)
            whole.addHeaders(headers, direction: direction, policy: policy)
            var oneByOne = LogRecord(kind: .exchange, time: time)
            headers.forEachField { _, name, value in
                oneByOne.addHeader(name: name, value: value, direction: direction, policy: policy)
                return true
            }
            let context = "seed \(seed), round \(round)"
            #expect(whole.requestHeaders == oneByOne.requestHeaders, "\(context)")
            #expect(whole.responseHeaders == oneByOne.responseHeaders, "\(context)")
            #expect(whole.omittedHeaders == oneByOne.omittedHeaders, "\(context)")
            #expect(whole.redacted == oneByOne.redacted, "\(context)")
            #expect(whole.headerCount(direction) == oneByOne.headerCount(direction), "\(context)")
            #expect(HARCapture.estimatedBytes(whole) == HARCapture.estimatedBytes(oneByOne), "\(context)")
            #expect(String(decoding: JSONLineEncoder.encode(whole), as: UTF8.self)
                == String(decoding: JSONLineEncoder.encode(oneByOne), as: UTF8.self), "\(context)")
        }
    }

    @Test func commonHeadersAreKeptAsLinesAndNamesLowercased() throws {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain")
        headers.add(name: "ETag", value: "\"abc\"")
        headers.add(name: "Date", value: "")
        var record = LogRecord(kind: .exchange)
        record.addHeaders(headers, direction: .response, policy: LogPolicy(options: LogOptions(headers: true)))
        #expect(record.storage.fields.responseHeaderLines.count == 3)
        #expect(record.storage.fields.responseHeaders.isEmpty)
        #expect(record.responseHeaders.map(\.name) == ["content-type", "etag", "date"])
        #expect(record.responseHeaders.map(\.value) == ["text/plain", "\"abc\"", ""])
    }

    @Test func aSensitiveHeaderKeepsTheWholeHeadOnTheRedactingPath() throws {
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "*/*")
        headers.add(name: "Authorization", value: "Bearer SECRET-AUTH")
        var record = LogRecord(kind: .exchange)
        record.addHeaders(headers, direction: .request, policy: LogPolicy(options: LogOptions(headers: true)))
        #expect(record.storage.fields.requestHeaderLines.isEmpty)
        #expect(record.requestHeaders.map(\.value) == ["*/*", "Bearer [REDACTED]"])
        #expect(!String(decoding: JSONLineEncoder.encode(record), as: UTF8.self).contains("SECRET"))
    }

    @Test func aHeaderAddedAfterKeptLinesFollowsThem() throws {
        var headers = HTTPHeaders()
        headers.add(name: "Server", value: "origin")
        let policy = LogPolicy(options: LogOptions(headers: true))
        var record = LogRecord(kind: .exchange)
        record.addHeaders(headers, direction: .response, policy: policy)
        let shared = record
        record.addHeader(name: "Retry-After", value: "5", direction: .response, policy: policy)
        #expect(record.responseHeaders.map(\.name) == ["server", "retry-after"])
        #expect(record.storage.fields.responseHeaderLines.isEmpty)
        // The copy taken before still reads its own header alone (copy on write).
        #expect(shared.responseHeaders.map(\.name) == ["server"])
    }
}
