import Foundation
import Testing
import FaultlineTestSupport

/// The fault → client table rows of the kinds that have an HTTP/2 meaning, as HTTP/1
/// clients see them through the real binary (same runner as `FaultClientTableTests`).
@Suite(.timeLimit(.minutes(1)))
struct FaultClientTableHTTP2KindsTests {
    static let cases: [FaultClientCase] = [
        FaultClientCase(
            label: "rst_stream (on the request head)", route: "rst",
            fault: #"{"rst_stream": {"error_code": "REFUSED_STREAM"}}"#, path: "/json",
            curlExit: [56], curlStatus: 0, curlBytes: 0...0,
            session: [.error(.networkConnectionLost)]),
        FaultClientCase(
            label: "reset with an error_code (ignored on HTTP/1)", route: "resetcode",
            fault: #"{"reset": {"error_code": "ENHANCE_YOUR_CALM"}}"#, path: "/json",
            curlExit: [56], curlStatus: 0, curlBytes: 0...0,
            session: [.error(.networkConnectionLost)]),
        FaultClientCase(
            label: "goaway immediate", route: "goaway",
            fault: #"{"goaway": {"mode": "immediate", "error_code": "ENHANCE_YOUR_CALM"}}"#, path: "/json",
            curlExit: [52], curlStatus: 0, curlBytes: 0...0,
            session: [.error(.badServerResponse)]),
        FaultClientCase(
            label: "goaway graceful", route: "drain",
            fault: #"{"goaway": {}}"#, path: "/bytes/1000",
            curlExit: [0], curlStatus: 200, curlBytes: 1000...1000,
            session: [.response(status: 200, bytes: 1000)], marker: "drain/goaway"),
    ]

    @Test(arguments: FaultClientTableHTTP2KindsTests.cases)
    func clientsReportTheFault(_ fault: FaultClientCase) async throws {
        try await FaultClientTableTests().clientsReportTheFault(fault)
    }

    /// A graceful goaway answers with `Connection: close` and closes after the response:
    /// curl's second request on the same command line needs a new connection, while on a
    /// route without the fault it reuses the first one.
    @Test func gracefulGoAwayClosesTheConnectionAfterTheResponse() async throws {
        let stack = try await FaultStack.start(routes: [
            FaultStack.Route(name: "drain", match: #"{"path_prefix": "/bytes/"}"#, faults: #"[{"goaway": {}}]"#),
            FaultStack.Route(name: "plain"),
        ])
        defer { stack.stop() }
        let format = ["-o", "/dev/null", "-D", "-", "-w", "CONNECTS %{num_connects}\\n"]
        let drained = try await Curl.run(format + [stack.url("/bytes/10"), stack.url("/bytes/10")])
        #expect(drained.exitCode == 0, "\(drained.stderr)")
        let drainedText = String(decoding: drained.stdout, as: UTF8.self)
        #expect(drainedText.components(separatedBy: "CONNECTS 1").count == 3, "\(drainedText)")
        #expect(drainedText.lowercased().components(separatedBy: "connection: close").count == 3, "\(drainedText)")
        let plain = try await Curl.run(format + [stack.url("/json"), stack.url("/json")])
        let plainText = String(decoding: plain.stdout, as: UTF8.self)
        #expect(plain.exitCode == 0, "\(plain.stderr)")
        #expect(plainText.contains("CONNECTS 1") && plainText.contains("CONNECTS 0"), "\(plainText)")
        #expect(!plainText.lowercased().contains("connection: close"), "\(plainText)")
    }
}
