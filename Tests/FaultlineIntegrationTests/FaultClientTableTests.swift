import Foundation
import Synchronization
import Testing
import FaultlineTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One row of the fault → client table: a fault on a catch-all route, the request made
/// through it, and what curl and URLSession must report.
struct FaultClientCase: Sendable, CustomTestStringConvertible {
    /// The label in `docs/fault-table.md`.
    let label: String
    /// Route name; the `X-Faultline-Fault` marker is `route/kind`.
    let route: String
    /// The fault object (or array) as JSON text.
    let fault: String
    let path: String
    /// Client timeout in seconds (curl `-m`, URLRequest `timeoutInterval`).
    var clientTimeout: Int = 5
    /// curl exit codes accepted.
    let curlExit: Set<Int32>
    /// `%{http_code}` expected (0 when no head arrived).
    let curlStatus: Int
    /// Body bytes curl must have received, when checked.
    var curlBytes: ClosedRange<Int>? = nil
    /// curl's `time_total`, when checked.
    var seconds: ClosedRange<Double>? = nil
    /// What URLSession must report (any of them).
    let session: [FaultSessionOutcome]
    /// `X-Faultline-Fault` expected on the response head (nil: no head arrives).
    var marker: String? = nil
    /// Requests per client, for `sequence` (statuses expected in order; both clients).
    var statuses: [Int]? = nil
    /// Further checks on the curl and URLSession results.
    var check: @Sendable (FaultCurlResult, FaultSessionResult) -> Void = { _, _ in }

    var testDescription: String { label }
}

/// Rows observed in this run, printed as the Markdown table of `docs/fault-table.md`.
enum FaultTableRows {
    static let rows = Mutex<[String: String]>([:])

    static func record(_ label: String, curl: FaultCurlResult, session: FaultSessionResult) {
        let curlText = curl.exitCode == 0
            ? "exit 0, HTTP \(curl.httpCode), \(curl.sizeDownload) bytes"
            : "exit \(curl.exitCode) \"\(curl.message)\"" + (curl.httpCode != 0 ? ", HTTP \(curl.httpCode)" : "") + ", \(curl.sizeDownload) body bytes"
        let row = "| \(label) | \(curlText) | \(session.outcome) |"
        rows.withLock { $0[label] = row }
        print("FAULT-TABLE-ROW \(row)  <!-- curl \(curl.timeTotal) s, URLSession \(String(format: "%.3f", session.seconds)) s -->")
    }
}

/// The fault → client table, proven through the real binary: for each fault kind, curl's
/// exit code, status and bytes, and the error (or status) URLSession raises on Linux.
@Suite(.timeLimit(.minutes(1)))
struct FaultClientTableTests {
    static let cases: [FaultClientCase] = [
        FaultClientCase(
            label: "status 503 + Retry-After + HTML body", route: "st503",
            fault: #"{"status": {"code": 503, "headers": {"Retry-After": "5"}, "body": "<html>down</html>", "content_type": "text/html"}}"#,
            path: "/json", curlExit: [0], curlStatus: 503, curlBytes: 17...17,
            session: [.response(status: 503, bytes: 17)], marker: "st503/status",
            check: { curl, session in
                #expect(curl.text == "<html>down</html>")
                #expect(session.header("Retry-After") == "5", "\(session.headers)")
                #expect(session.header("Content-Type")?.hasPrefix("text/html") == true, "\(session.headers)")
                #expect(String(decoding: session.body, as: UTF8.self) == "<html>down</html>")
            }),
        FaultClientCase(
            label: "status 500 with an HTML page", route: "st500",
            fault: #"{"status": {"code": 500, "body": "<html><body><h1>Internal Server Error</h1></body></html>", "content_type": "text/html"}}"#,
            path: "/json", curlExit: [0], curlStatus: 500, curlBytes: 56...56,
            session: [.response(status: 500, bytes: 56)], marker: "st500/status",
            check: { curl, _ in #expect(curl.text.hasPrefix("<html>")) }),
        FaultClientCase(
            label: "status 429", route: "st429",
            fault: #"{"status": {"code": 429, "headers": {"Retry-After": "1"}}}"#,
            path: "/json", curlExit: [0], curlStatus: 429,
            session: [.response(status: 429, bytes: 0)], marker: "st429/status",
            check: { _, session in #expect(session.header("Retry-After") == "1", "\(session.headers)") }),
        FaultClientCase(
            label: "status sequence [503, 503, pass]", route: "seq",
            fault: #"{"status": 503, "when": {"sequence": [503, 503, "pass", 503, 503, "pass"]}}"#,
            path: "/json", curlExit: [0], curlStatus: 200,
            session: [.response(status: 200, bytes: 0)], statuses: [503, 503, 200]),
        FaultClientCase(
            label: "reset (before the response)", route: "reset",
            fault: #"{"reset": {}}"#, path: "/json",
            curlExit: [56], curlStatus: 0, curlBytes: 0...0,
            session: [.error(.networkConnectionLost)]),
        FaultClientCase(
            label: "reset after 1000 bytes", route: "reset1k",
            fault: #"{"reset": {"after_bytes": 1000}}"#, path: "/bytes/5000",
            curlExit: [56], curlStatus: 200, curlBytes: 0...1000,
            session: [.error(.networkConnectionLost)], marker: "reset1k/reset"),
        FaultClientCase(
            label: "close (empty reply)", route: "close",
            fault: #"{"close": {}}"#, path: "/json",
            curlExit: [52], curlStatus: 0, curlBytes: 0...0,
            session: [.error(.badServerResponse)]),
        FaultClientCase(
            label: "close after 1000 bytes", route: "close1k",
            fault: #"{"close": {"after_bytes": 1000}}"#, path: "/bytes/5000",
            curlExit: [18], curlStatus: 200, curlBytes: 1000...1000,
            session: [.error(.unknown)], marker: "close1k/close"),
        FaultClientCase(
            label: "hang (until the client gives up)", route: "hang",
            fault: #"{"hang": {}}"#, path: "/json", clientTimeout: 2,
            curlExit: [28], curlStatus: 0, curlBytes: 0...0, seconds: 1.9...20,
            session: [.error(.timedOut)],
            check: { _, session in #expect((1.9...20).contains(session.seconds), "URLSession gave up after \(session.seconds) s") }),
        FaultClientCase(
            label: "hang 300 ms then reset", route: "hangreset",
            fault: #"{"hang": {"ms": 300, "then": "reset"}}"#, path: "/json",
            curlExit: [56], curlStatus: 0, curlBytes: 0...0, seconds: 0.29...1.5,
            session: [.error(.networkConnectionLost)]),
        FaultClientCase(
            label: "hang 300 ms then close", route: "hangclose",
            fault: #"{"hang": {"ms": 300, "then": "close"}}"#, path: "/json",
            curlExit: [52], curlStatus: 0, curlBytes: 0...0, seconds: 0.29...1.5,
            session: [.error(.badServerResponse)]),
        FaultClientCase(
            label: "delay 200 ms", route: "delay",
            fault: #"{"delay": 200}"#, path: "/json",
            curlExit: [0], curlStatus: 200, seconds: 0.195...1.5,
            session: [.response(status: 200, bytes: 0)], marker: "delay/delay",
            check: { _, session in #expect(session.seconds >= 0.195, "URLSession answered after \(session.seconds) s") }),
        FaultClientCase(
            label: "delay 300 ms before the first byte", route: "delayfb",
            fault: #"{"delay": {"ms": 300, "phase": "first_byte"}}"#, path: "/json",
            curlExit: [0], curlStatus: 200, seconds: 0.295...1.5,
            session: [.response(status: 200, bytes: 0)], marker: "delayfb/delay",
            check: { curl, session in
                #expect(curl.timeStartTransfer >= 0.295, "\(curl)")
                #expect(session.seconds >= 0.295, "URLSession answered after \(session.seconds) s")
            }),
        FaultClientCase(
            label: "delay uniform 100...200 ms", route: "uniform",
            fault: #"{"delay": {"uniform": {"min_ms": 100, "max_ms": 200}}}"#, path: "/json",
            curlExit: [0], curlStatus: 200, seconds: 0.095...1.2,
            session: [.response(status: 200, bytes: 0)], marker: "uniform/delay"),
        FaultClientCase(
            label: "delay lognormal median 50 ms, max 150 ms", route: "lognormal",
            fault: #"{"delay": {"lognormal": {"median_ms": 50, "sigma": 0.5, "max_ms": 150}}}"#, path: "/json",
            curlExit: [0], curlStatus: 200, seconds: 0.0...1.15,
            session: [.response(status: 200, bytes: 0)], marker: "lognormal/delay"),
        FaultClientCase(
            label: "throttle 100 KB/s, 200 KB body", route: "throttle",
            fault: #"{"throttle": {"down_bytes_per_second": 100000}}"#, path: "/bytes/200000",
            curlExit: [0], curlStatus: 200, curlBytes: 200_000...200_000, seconds: 1.8...2.6,
            session: [.response(status: 200, bytes: 200_000)], marker: "throttle/throttle",
            check: { _, session in #expect(session.seconds >= 1.8, "URLSession finished after \(session.seconds) s") }),
        FaultClientCase(
            label: "truncate to 100 bytes (Content-Length)", route: "truncate",
            fault: #"{"truncate": {"keep_bytes": 100}}"#, path: "/bytes/5000",
            curlExit: [18], curlStatus: 200, curlBytes: 100...100,
            session: [.error(.unknown)], marker: "truncate/truncate"),
        FaultClientCase(
            label: "truncate to 100 bytes (chunked)", route: "truncchunk",
            fault: #"{"truncate": {"keep_bytes": 100}}"#, path: "/bytes/5000?chunked=1",
            curlExit: [18], curlStatus: 200, curlBytes: 100...100,
            session: [.error(.unknown)], marker: "truncchunk/truncate"),
        FaultClientCase(
            label: "corrupt malformed_json", route: "badjson",
            fault: #"{"corrupt": {"mode": "malformed_json"}}"#, path: "/json",
            curlExit: [0], curlStatus: 200,
            session: [.response(status: 200, bytes: 0)], marker: "badjson/corrupt",
            check: { curl, session in
                #expect(curl.text.hasPrefix("<"), "\(curl.text.prefix(100))")
                #expect(session.body.first == UInt8(ascii: "<"))
                #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: String].self, from: session.body) }
            }),
        FaultClientCase(
            label: "corrupt garbage_then_close", route: "garbage",
            fault: #"{"corrupt": {"mode": "garbage_then_close"}}"#, path: "/json",
            curlExit: [1, 8], curlStatus: 0,
            session: [.error(.unsupportedURL)]),
        FaultClientCase(
            label: "corrupt bad_chunk_framing", route: "badchunk",
            fault: #"{"corrupt": {"mode": "bad_chunk_framing"}}"#, path: "/bytes/5000",
            curlExit: [56], curlStatus: 200,
            session: [.error(.unknown)], marker: "badchunk/corrupt"),
        FaultClientCase(
            label: "rewrite status 500, add/remove headers", route: "rewrite",
            fault: #"{"rewrite": {"status": 500, "add_headers": {"X-Rewritten": "yes"}, "remove_headers": ["Server"]}}"#,
            path: "/json", curlExit: [0], curlStatus: 500,
            session: [.response(status: 500, bytes: 0)], marker: "rewrite/rewrite",
            check: { _, session in
                #expect(session.header("X-Rewritten") == "yes", "\(session.headers)")
                #expect(session.header("Server") == nil, "\(session.headers)")
            }),
        FaultClientCase(
            label: "profile 3g, 50 KB body", route: "p3g",
            fault: #"{"profile": "3g"}"#, path: "/bytes/50000",
            curlExit: [0], curlStatus: 200, curlBytes: 50_000...50_000, seconds: 0.6...1.6,
            session: [.response(status: 200, bytes: 50_000)], marker: "p3g/profile"),
        FaultClientCase(
            label: "profile 100-loss", route: "loss",
            fault: #"{"profile": "100-loss"}"#, path: "/json", clientTimeout: 2,
            curlExit: [28], curlStatus: 0, curlBytes: 0...0, seconds: 1.9...20,
            session: [.error(.timedOut)],
            check: { _, session in #expect((1.9...20).contains(session.seconds), "URLSession gave up after \(session.seconds) s") }),
    ]

    @Test(arguments: FaultClientTableTests.cases)
    func clientsReportTheFault(_ fault: FaultClientCase) async throws {
        let stack = try await FaultStack.single(fault.route, faults: fault.fault)
        defer { stack.stop() }
        let url = stack.url(fault.path)
        let requests = fault.statuses?.count ?? 1

        var curls: [FaultCurlResult] = []
        var sessions: [FaultSessionResult] = []
        if requests == 1 {
            // Both clients at once (each on its own connection): a hang costs its timeout once.
            async let curl = FaultCurl.get(url, maxTime: fault.clientTimeout)
            async let session = FaultSession.get(url, timeout: TimeInterval(fault.clientTimeout))
            curls = [try await curl]
            sessions = [try await session]
        } else {
            // A sequence is consumed in request order: curl's requests first, then URLSession's.
            for _ in 0..<requests { curls.append(try await FaultCurl.get(url, maxTime: fault.clientTimeout)) }
            for _ in 0..<requests { sessions.append(try await FaultSession.get(url, timeout: TimeInterval(fault.clientTimeout))) }
        }

        if let statuses = fault.statuses {
            #expect(curls.map(\.httpCode) == statuses, "\(curls)")
            let sessionStatuses = sessions.map { result -> Int in
                if case let .response(status, _) = result.outcome { return status } else { return -1 }
            }
            #expect(sessionStatuses == statuses, "\(sessions.map(\.outcome))")
            #expect(curls.map { !$0.faultHeader.isEmpty } == statuses.map { $0 != 200 }, "\(curls)")
        }
        let curl = curls.last!
        let session = sessions.last!
        FaultTableRows.record(fault.label, curl: curl, session: session)

        #expect(fault.curlExit.contains(curl.exitCode), "\(curl)")
        #expect(curl.httpCode == fault.curlStatus, "\(curl)")
        if let bytes = fault.curlBytes { #expect(bytes.contains(curl.sizeDownload), "\(curl)") }
        if let seconds = fault.seconds { #expect(seconds.contains(curl.timeTotal), "\(curl)") }
        if let marker = fault.marker { #expect(curl.faultHeader == marker, "\(curl)") }
        if fault.statuses == nil, let marker = fault.marker, case .response = session.outcome {
            #expect(session.header("X-Faultline-Fault") == marker, "\(session.headers)")
        }
        // Statuses are compared; a body size of 0 in the expectation means "not checked".
        let matches = fault.session.contains { expected in
            switch (expected, session.outcome) {
            case let (.response(status, bytes), .response(actualStatus, actualBytes)):
                return status == actualStatus && (bytes == 0 || bytes == actualBytes)
            default:
                return expected == session.outcome
            }
        }
        #expect(matches, "URLSession reported \(session.outcome); expected one of \(fault.session)")
        fault.check(curl, session)
    }
}
