import Foundation
import Testing
import FaultlineTestSupport

/// The project's own HTTP/2 conformance suite (`Tests/Scripts/h2conformance.py`: one or more
/// cases per h2spec section, RFC 9113 §3.4-§8 and RFC 7541, each with h2spec's expected
/// outcome) against both kinds of HTTP/2 listener of the real binary, TLS with ALPN h2 and a
/// plain listener with h2c, the demo origin behind them. A failing case is reported by
/// listener, section, name, what was expected and what came.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct HTTP2ConformanceSuiteTests {
    /// The sections every run must hold cases of.
    static let sections = ["3.5", "4.1", "4.2", "4.3", "5.1", "5.1.1", "5.1.2", "5.3.1", "5.4.1", "5.5",
                           "6.1", "6.2", "6.3", "6.4", "6.5", "6.5.2", "6.5.3", "6.7", "6.8", "6.9", "6.9.1", "6.9.2",
                           "6.10", "7", "8.1", "8.1.2", "8.1.2.1", "8.1.2.2", "8.1.2.3", "8.1.2.6", "8.2",
                           "hpack/2.3.3", "hpack/4.2", "hpack/5.2", "hpack/6.1", "hpack/6.3"]

    /// Both listeners' reports, run side by side (each case on its own connection). A passing
    /// case never waits out its timeout, so it can be generous for a loaded machine; the
    /// budget bounds a run where many cases fail.
    static func run(_ stack: HTTP2Stack, only: [String] = []) async throws -> [H2Conformance.Report] {
        let bounds: [String: Any] = ["timeout": 5, "budget": 60]
        let tls = H2ConformanceTarget(value: H2Probe.target(port: stack.proxy.ports[1], caFile: stack.chain.path("root.pem"))
            .merging(bounds) { $1 })
        let h2c = H2ConformanceTarget(value: H2Probe.target(port: stack.proxy.ports[0]).merging(bounds) { $1 })
        async let overTLS = Blocking.run { try H2Conformance.run(target: tls.value, only: only) }
        async let overH2C = Blocking.run { try H2Conformance.run(target: h2c.value, only: only) }
        return try await [overTLS, overH2C]
    }

    @Test func everyCasePassesOnTheTLSAndTheH2CListener() async throws {
        let stack = try await HTTP2Stack.start()
        for report in try await Self.run(stack) {
            for failure in report.cases where !failure.passed {
                Issue.record(Comment(rawValue: failure.failure(on: report.listener)))
            }
            let missing = Self.sections.filter { report.cases(in: $0).isEmpty }
            #expect(missing.isEmpty, "[\(report.listener)] sections without a case: \(missing)")
            #expect(report.cases.count >= 100 && report.failed == 0, "[\(report.listener)] \(report.passed) passed, \(report.failed) failed")
        }
        // Nothing the suite sent made the proxy stop serving.
        let after = try await stack.tool(["curl", "-s", "--http2-prior-knowledge", stack.h2c("/64")])
        #expect(after.output.count == 64, "\(after.output) \(after.error)")
    }

    /// RFC 9113 §5.1.1: a HEADERS frame on a stream id below one the client has used, and
    /// never opened, is a connection error PROTOCOL_ERROR; nghttp2 alone ignored it (the
    /// proxy answered stream 5 and sent no GOAWAY). Trailers on a lower stream that is
    /// still open remain fine.
    @Test func aHeadersFrameOnASkippedStreamIdIsAConnectionErrorOnBothListeners() async throws {
        let stack = try await HTTP2Stack.start()
        for report in try await Self.run(stack, only: ["5.1.1"]) {
            #expect(report.cases.count == 4)
            for outcome in report.cases {
                #expect(outcome.passed, Comment(rawValue: outcome.failure(on: report.listener)))
            }
            #expect(report.outcome("5.1.1/2")?.actual.contains("GOAWAY(PROTOCOL_ERROR, last 5)") == true, "\(report.cases)")
        }
    }

    /// What a listener that speaks both HTTP/1 and h2c does with its first bytes: the preface
    /// is HTTP/2; the preface's first line with anything else after it, or a first line that
    /// is no HTTP/1 request line (`INVALID CONNECTION PREFACE`, h2spec 3.5/2), is an invalid
    /// HTTP/2 preface (GOAWAY PROTOCOL_ERROR; it got an HTTP/1 400 before, which h2spec's
    /// frame reader cannot read); a malformed request with an HTTP/1 request line still gets
    /// HTTP/1's readable 400. Over TLS, ALPN h2 made every such opener HTTP/2: GOAWAY.
    @Test func anOpenerThatIsNotThePrefaceOnEachListener() async throws {
        let stack = try await HTTP2Stack.start()
        for report in try await Self.run(stack, only: ["3.5"]) {
            for outcome in report.cases {
                #expect(outcome.passed, Comment(rawValue: outcome.failure(on: report.listener)))
            }
            #expect(report.outcome("3.5/2")?.actual.contains("GOAWAY(PROTOCOL_ERROR") == true, "[\(report.listener)] \(report.cases)")
            #expect(report.outcome("3.5/3")?.actual.contains("GOAWAY(PROTOCOL_ERROR") == true, "\(report.cases)")
        }
        let port = stack.proxy.ports[0]
        let reply = try await Blocking.run {
            let client = try RawClient(port: port)
            try client.send("GET /a b c HTTP/1.1\r\nHost: a\r\n\r\n")
            return client.readUntilClose(timeout: .seconds(10))
        }
        #expect(String(decoding: reply.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400 "), "\(String(decoding: reply.bytes, as: UTF8.self))")
    }
}
