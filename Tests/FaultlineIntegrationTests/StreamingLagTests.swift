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
        let end = ContinuousClock.now + .seconds(30)
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

    /// The origin writes the first event, then nothing for `gap` seconds: the event must
    /// reach the client before the next one is written. A proxy that holds an event back
    /// until more bytes come shows a lag of `gap` here; a loaded machine only adds
    /// milliseconds, so the bound is an event (the next write), not a measured latency,
    /// which belongs in bench/.
    static func check(_ path: String) async throws {
        let gap = 20.0
        let origin = try await OriginProcess.timedEvents()
        let stack = try await ProxyStack.start(origin: origin)
        defer { stack.stop() }
        let result = try await Blocking.run { try Self.eventLags(port: stack.port, path: "\(path)?n=2&gap=\(Int(gap))", events: 1) }
        #expect(result.head.lowercased().contains("transfer-encoding: chunked"), "\(result.head)")
        #expect(result.lags.count == 1, "events received: \(result.lags)")
        let lag = result.lags.first ?? .infinity
        #expect(lag < gap, "the first event arrived \(Int(lag * 1000)) ms after it was written, not before the next one")
    }

    @Test func chunkedEventsArriveWithoutLag() async throws {
        try await Self.check("/sse-chunked")
    }

    @Test func closeDelimitedEventsArriveWithoutLag() async throws {
        try await Self.check("/sse-close")
    }
}
