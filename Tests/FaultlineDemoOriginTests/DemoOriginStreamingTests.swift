import Dispatch
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FaultlineDemoOrigin

/// The `/bytes` pattern: byte i is i % 251.
private func demoPattern(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8($0 % 251) }
}

@Suite("Demo origin streaming", .timeLimit(.minutes(1)))
struct DemoOriginStreamingTests {
    @Test(arguments: ["", "?chunked=1", "?close=1"])
    func oneMebibyteOfPattern(query: String) throws {
        let count = 1 << 20
        let client = try DemoOriginFixture.client()
        try client.request("GET", "/bytes/\(count)\(query)")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/octet-stream")
        #expect(response.body.count == count)
        #expect(response.body == demoPattern(count))
        switch query {
        case "?chunked=1": #expect(response.chunked && response.contentLength == nil)
        case "?close=1": #expect(!response.chunked && response.contentLength == nil && response.header("connection") == "close")
        default: #expect(response.contentLength == UInt64(count))
        }
        if query == "?close=1" {
            #expect(try client.receiveUntilClosed().isEmpty)
        } else {
            try client.request("GET", "/bytes/0")
            let empty = try client.readResponse()
            #expect(empty.status == 200 && empty.body.isEmpty)
        }
    }

    @Test func slowReaderIsFedWithBackpressure() throws {
        // 64 MiB read slowly at first: the origin must wait for the socket rather than fail or
        // buffer; the test checks that every byte arrives in pattern order.
        let count = 64 << 20
        let client = try DemoOriginFixture.client()
        try client.request("GET", "/bytes/\(count)")
        usleep(200_000)
        let response = try client.readResponse()
        #expect(response.body.count == count)
        var mismatch = false
        for index in stride(from: 0, to: count, by: 4093) where response.body[index] != UInt8(index % 251) {
            mismatch = true
        }
        #expect(!mismatch)
    }

    @Test func streamSendsOneJSONLinePerChunk() throws {
        let client = try DemoOriginFixture.client()
        try client.request("GET", "/stream/5")
        let response = try client.readResponse()
        #expect(response.chunked)
        let lines = response.text.split(separator: "\n")
        #expect(lines.count == 5)
        let ids = try lines.map { line -> Int in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["id"] as? Int ?? -1
        }
        #expect(ids == [0, 1, 2, 3, 4])
        let many = try demoGet("/stream/20000")
        #expect(many.text.split(separator: "\n").count == 20000)
    }

    @Test func serverSentEventsArriveOnePerInterval() throws {
        let client = try DemoOriginFixture.client()
        try client.request("GET", "/sse/5?interval_ms=100")
        var received: [UInt8] = []
        var arrivals: [ContinuousClock.Instant] = []
        var seen = 0
        while !String(decoding: received, as: UTF8.self).hasSuffix("0\r\n\r\n") {
            let piece = try client.receiveSome()
            if piece.isEmpty { break }
            received += piece
            let events = String(decoding: received, as: UTF8.self).components(separatedBy: "data: ").count - 1
            while seen < events {
                arrivals.append(.now)
                seen += 1
            }
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.contains("Content-Type: text/event-stream"))
        #expect(text.contains("id: 4\ndata: {\"n\": 4}\n\n"))
        #expect(arrivals.count == 5)
        // Events are due on fixed deadlines, so one late wake-up shortens the next gap: judge
        // the spread and that they came separately, not each gap (robust on a loaded machine).
        if let first = arrivals.first, let last = arrivals.last {
            let spread = last - first
            #expect(spread > .milliseconds(300) && spread < .seconds(3), "spread \(spread)")
        }
        var separate = 1
        for index in 1..<arrivals.count where arrivals[index] - arrivals[index - 1] > .milliseconds(20) {
            separate += 1
        }
        #expect(separate >= 4, "events arrived in \(separate) separate reads")
    }

    @Test(arguments: [true, false])
    func rawEchoOfOneMebibyte(chunked: Bool) throws {
        let body = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let client = try DemoOriginFixture.client()
        var head = "POST /echo?raw=1 HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-test\r\n"
        var payload = body
        if chunked {
            head += "Transfer-Encoding: chunked\r\n\r\n"
            payload = []
            for start in stride(from: 0, to: body.count, by: 100_000) {
                let piece = body[start..<min(start + 100_000, body.count)]
                payload += Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8)
            }
            payload += Array("0\r\n\r\n".utf8)
        } else {
            head += "Content-Length: \(body.count)\r\n\r\n"
        }
        // Send from another thread while this one reads: the echo streams both ways, so a
        // client that only reads after sending everything could deadlock against backpressure.
        let fd = client.fd
        let wire = Array(head.utf8) + payload
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            DemoOriginTestClient.sendAll(fd: fd, wire)
            done.signal()
        }
        // The client owns `fd`: it must outlive the sender on every path, or its deinit closes
        // a descriptor the sender still writes to, which another test may reuse meanwhile.
        var sent = DispatchTimeoutResult.timedOut
        defer {
            if sent != .success { _ = done.wait(timeout: .now() + 30) }
            withExtendedLifetime(client) {}
        }
        let response = try client.readResponse()
        sent = done.wait(timeout: .now() + 10)
        #expect(sent == .success)
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/x-test")
        #expect(response.chunked == chunked)
        #expect(response.body.count == body.count)
        #expect(response.body == body)
    }

    @Test func echoHashesALargeBodyIncrementally() throws {
        let body = [UInt8](repeating: 0x61, count: 3 << 20)
        let client = try DemoOriginFixture.client()
        try client.request("POST", "/echo", body: body)
        let echo = try demoJSON(try client.readResponse())
        #expect(echo["body_bytes"] as? Int == body.count)
        let digest = DemoOriginDigest()
        body.withUnsafeBytes { digest.update($0) }
        #expect(echo["body_sha256"] as? String == digest.finishHex())
    }
}
