import Foundation
import Testing
import FaultlineTestSupport

/// Opt-in per-request faults by header (`fault_headers`): a request asks for a status or a
/// delay; the headers never reach the upstream; without the opt-in they do nothing.
@Suite(.timeLimit(.minutes(1)))
struct FaultHeaderControlTests {
    @Test func requestHeadersAskForStatusAndDelayAndAreStripped() async throws {
        let stack = try await FaultStack.single("all", faults: "[]", topLevel: #""fault_headers": {"enabled": true}"#)
        defer { stack.stop() }
        let status = try await FaultCurl.get(stack.url("/json"), extra: ["-H", "x-faultline-status: 429"])
        #expect(status.exitCode == 0 && status.httpCode == 429, "\(status)")
        #expect(!status.faultHeader.isEmpty, "a header-requested fault should be marked too: \(status)")
        let session = try await FaultSession.get(stack.url("/json"), headers: ["x-faultline-status": "503"])
        #expect(session.outcome == .response(status: 503, bytes: session.body.count), "\(session.outcome)")

        let baseline = try await FaultCurl.get(stack.url("/json"))
        let delayed = try await FaultCurl.get(stack.url("/json"), extra: ["-H", "x-faultline-delay-ms: 250"])
        #expect(delayed.exitCode == 0 && delayed.httpCode == 200, "\(delayed)")
        // Absolute: a loaded runner can only make the delayed answer later, never earlier.
        #expect(delayed.timeStartTransfer >= 0.250, "baseline \(baseline); delayed \(delayed)")
        #expect(delayed.timeStartTransfer < 1.0, "\(delayed)")

        // The delay header is honoured and stripped: the origin never sees it.
        let echoed = try await FaultCurl.get(stack.url("/headers"), extra: ["-H", "x-faultline-delay-ms: 1", "-H", "X-Other: kept"])
        #expect(echoed.httpCode == 200, "\(echoed)")
        let lower = echoed.text.lowercased()
        #expect(!lower.contains("x-faultline-delay-ms"), "forwarded upstream: \(echoed.text)")
        #expect(lower.contains("x-other"), "the origin's /headers should list other headers: \(echoed.text)")
    }

    @Test func faultHeadersAreIgnoredUnlessEnabled() async throws {
        let stack = try await FaultStack.single("all", faults: "[]")
        defer { stack.stop() }
        let result = try await FaultCurl.get(stack.url("/json"), extra: ["-H", "x-faultline-status: 429", "-H", "x-faultline-delay-ms: 2000"])
        #expect(result.exitCode == 0 && result.httpCode == 200, "\(result)")
        #expect(result.timeTotal < 1.5, "\(result)")
        #expect(result.faultHeader.isEmpty, "\(result)")
    }
}
