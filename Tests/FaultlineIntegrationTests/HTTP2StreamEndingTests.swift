import Foundation
import Testing
import FaultlineTestSupport

/// How HTTP/2 streams end, at the frame level through the real binary: a client's
/// RST_STREAM stops the upstream exchange and only that one, a client's GOAWAY lets the
/// streams it opened finish, and trailers cross between HTTP/2 and an HTTP/1 origin.
// One test at a time: its Python clients, floods and megabyte transfers would otherwise all
// load the machine at once, beside the timing-sensitive tests of the rest of the suite.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HTTP2StreamEndingTests {
    @Test func aClientCancelMidResponseStopsTheUpstreamAndOtherStreamsGoOn() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        let report = try await stack.probe([
            ["do": "request", "label": "drip", "path": "/drip"],
            ["do": "request", "label": "beside", "path": "/slowread?ms=600"],
            ["do": "wait", "for": "data", "stream": "drip"],
            ["do": "rst", "stream": "drip", "code": 8],
            ["do": "request", "label": "after", "path": "/bytes/1000"],
            ["do": "wait", "for": "end", "stream": "after"],
            ["do": "wait", "for": "end", "stream": "beside"],
        ])
        #expect(report.stream(labelled: "drip")?.resetSent?.name == "CANCEL" && report.stream(labelled: "drip")?.ended == false)
        #expect(report.stream(labelled: "beside")?.status == 200 && report.stream(labelled: "beside")?.body == "ok", "\(report)")
        #expect(report.stream(labelled: "after")?.bodyBytes == 1000 && report.goaway == nil, "\(report)")
        // The origin sees its connection for /drip closed; the record says the client gave up.
        try await Deadline.poll("the origin's /drip connection closed", timeout: .seconds(5)) {
            stack.origin.closedByPeer >= 1 ? () : nil
        }
        let record = try await Deadline.poll("the /drip record", timeout: .seconds(5)) {
            stack.records.first { $0["url.path"] as? String == "/drip" }
        }
        #expect(record["error.type"] as? String == "client_closed", "\(record)")
        #expect(record["http2.error_code"] as? String == "CANCEL" && record["http2.error_sender"] as? String == "client", "\(record)")
        #expect(stack.origin.requests(to: "/bytes/1000").count == 1 && stack.origin.requests(to: "/slowread").count == 1)
    }

    @Test func aClientGoAwayLetsTheStreamsItOpenedFinish() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        // After its own GOAWAY the h2 package refuses every frame, so the frame log is read.
        let report = try await stack.probeFrames([
            ["do": "request", "label": "a", "path": "/slowread?ms=500"],
            ["do": "request", "label": "b", "path": "/bytes/10000"],
            ["do": "goaway", "code": 0],
            ["do": "sleep", "seconds": 1.5],
        ], ["final_wait": false])
        for stream in [1, 3] {
            let frames = HTTP2ConformanceStack.frames(report, stream: stream)
            #expect(frames.contains { $0["name"] as? String == "HEADERS" }, "stream \(stream): \(frames)")
            #expect(frames.contains { ($0["flags"] as? [String])?.contains("END_STREAM") == true }, "stream \(stream): \(frames)")
            #expect(!frames.contains { $0["name"] as? String == "RSTSTREAM" }, "stream \(stream): \(frames)")
        }
        let data = HTTP2ConformanceStack.frames(report, stream: 3).filter { $0["name"] as? String == "DATA" }
        #expect(data.reduce(0) { $0 + ($1["length"] as? Int ?? 0) } == 10000)
        #expect(stack.origin.requests(to: "/slowread").count == 1 && stack.origin.requests(to: "/bytes/10000").count == 1)
        #expect(try await stack.freshConnectionServes())
    }

    @Test func requestTrailersReachTheOriginChunkedAndResponseTrailersReachTheClient() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        let report = try await stack.probe([
            ["do": "request", "label": "up", "method": "POST", "path": "/upload", "extra": [["te", "trailers"]],
             "body": "abc", "trailers": [["x-sum", "3"]]],
            ["do": "request", "label": "down", "path": "/trailers"],
        ])
        #expect(report.stream(labelled: "up")?.status == 200, "\(report)")
        let down = try #require(report.stream(labelled: "down"))
        #expect(down.status == 200 && down.body == "hello" && down.ended, "\(report)")
        #expect(down.trailers == [["x-checksum", "abc123"]], "\(String(describing: down.trailers))")

        let upload = try #require(stack.origin.requests(to: "/upload").first)
        let headers = upload["headers"] as? [[String]] ?? []
        #expect(upload["body_bytes"] as? Int == 3 && (upload["trailers"] as? [[String]])?.first?.last == "3", "\(upload)")
        #expect((upload["trailers"] as? [[String]])?.first?.first?.lowercased() == "x-sum", "\(upload)")
        #expect(headers.contains { $0.first?.lowercased() == "transfer-encoding" && $0.last == "chunked" }, "\(headers)")
        // TE is hop-by-hop in HTTP/1.1: if it is passed on at all, only as `trailers`.
        #expect(headers.filter { $0.first?.lowercased() == "te" }.allSatisfy { $0.last == "trailers" }, "\(headers)")
    }
}
