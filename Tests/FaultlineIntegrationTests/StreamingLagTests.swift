import Foundation
import Testing
import FaultlineTestSupport

/// Everything read from the upstream is written to the client at once: an event stream
/// reaches the client as each event is written, not when the next one arrives.
@Suite(.timeLimit(.minutes(1)))
struct StreamingLagTests {
    /// Reads a chunked response and returns, per event, how long after the origin wrote it
    /// the client had it. An event counts as received only when its chunk is complete,
    /// closing CRLF included, as a client that decodes whole chunks sees it.
    static func eventLags(port: Int, path: String, events: Int) throws -> (lags: [Double], head: String) {
        let client = try RawClient(port: port, readTimeout: .milliseconds(200))
        try client.send("GET \(path) HTTP/1.1\r\nHost: a\r\nAccept: text/event-stream\r\n\r\n")
        var buffer: [UInt8] = []
        var head = ""
        var cursor = 0
        var lags: [Double] = []
        let end = ContinuousClock.now + .seconds(8)
        while lags.count < events && ContinuousClock.now < end {
            switch client.readSome() {
            case .bytes(let bytes): buffer += bytes
            case .timedOut: continue
            case .closed, .reset: return (lags, head)
            }
            let now = Date().timeIntervalSince1970
            if head.isEmpty {
                guard let headEnd = buffer.firstRange(of: Array("\r\n\r\n".utf8)) else { continue }
                head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
                cursor = headEnd.upperBound
            }
            // Whole chunks only: size line, data, CRLF.
            while let lineEnd = buffer[cursor...].firstRange(of: Array("\r\n".utf8)),
                  let size = Int(String(decoding: buffer[cursor..<lineEnd.lowerBound], as: UTF8.self), radix: 16),
                  buffer.count >= lineEnd.upperBound + size + 2 {
                let data = String(decoding: buffer[lineEnd.upperBound..<lineEnd.upperBound + size], as: UTF8.self)
                cursor = lineEnd.upperBound + size + 2
                for line in data.split(separator: "\n") where line.hasPrefix("data: ") {
                    if let sent = Double(line.dropFirst(6)) { lags.append(now - sent) }
                }
                if size == 0 { return (lags, head) }
            }
        }
        return (lags, head)
    }

    static func check(_ path: String) async throws {
        let origin = try await OriginProcess.timedEvents()
        let stack = try await ProxyStack.start(origin: origin)
        defer { stack.stop() }
        let result = try await Blocking.run { try Self.eventLags(port: stack.port, path: path, events: 6) }
        #expect(result.head.lowercased().contains("transfer-encoding: chunked"), "\(result.head)")
        #expect(result.lags.count == 6, "events received: \(result.lags)")
        let worst = result.lags.max() ?? .infinity
        let mean = result.lags.isEmpty ? .infinity : result.lags.reduce(0, +) / Double(result.lags.count)
        print("SSE lag through the proxy (\(path)): mean \(String(format: "%.2f", mean * 1000)) ms, "
              + "max \(String(format: "%.2f", worst * 1000)) ms over \(result.lags.count) events")
        // The origin writes an event every 300 ms: a proxy that holds one back until the
        // next arrives shows ~300 ms here.
        #expect(worst < 0.1, "per-event lag \(result.lags.map { Int($0 * 1000) }) ms")
    }

    @Test func chunkedEventsArriveWithoutLag() async throws {
        try await Self.check("/sse-chunked?n=6")
    }

    @Test func closeDelimitedEventsArriveWithoutLag() async throws {
        try await Self.check("/sse-close?n=6")
    }
}
