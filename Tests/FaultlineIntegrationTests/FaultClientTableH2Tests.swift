import Foundation
import Testing
import FaultlineTestSupport

/// The fault → client table over HTTP/2, proven through the real binary: for each fault kind,
/// what curl `--http2`, nghttp and URLSession (FoundationNetworking over libcurl, trusting the
/// test CA through a private trust store) report when they speak h2 to the TLS listener, how
/// many requests each sent (libcurl retries a refused stream), and the proxy's record of
/// each request (`network.protocol.version` "2", its stream id, its HTTP/2 error code).
/// The rows run one at a time: each starts five processes, and the runner is shared.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct FaultClientTableH2Tests {
    @Test(arguments: H2FaultTable.cases)
    func clientsReportTheFaultOverHTTP2(_ row: H2FaultCase) async throws {
        let stack = try await H2FaultStack.start(routes: [
            #"{"name": "\#(row.route)", "upstream": "o", "faults": [\#(row.fault)]}"#,
        ])
        defer { stack.stop() }
        let separator = row.path.contains("?") ? "&" : "?"
        func url(_ client: String) -> String { stack.url(row.path + separator + "client=" + client) }
        // The three clients at once, each on connections of its own.
        async let curlResult = H2FaultClients.curl(url("curl"), root: stack.rootPath, maxTime: row.timeout)
        async let nghttpResult = H2FaultClients.nghttp(url("nghttp"), timeout: row.timeout)
        async let sessionResult = H2FaultClients.urlSession(url("urlsession"), root: stack.rootPath, timeout: row.timeout)
        let curl = try await curlResult
        let nghttp = try await nghttpResult
        let session = try await sessionResult
        print("FAULT-TABLE-H2 \(row.label) | \(curl) | \(nghttp) | URLSession \(session)")

        #expect(curl.exitCode == row.curlExit, "\(curl)")
        #expect(row.curlMessage.isEmpty ? curl.message.isEmpty : curl.message.contains(row.curlMessage), "\(curl)")
        // The exit code and message above are curl's verdict either way; the head is checked
        // whenever curl kept it (see `curlHeadMayBeLost`).
        let headSeen = !(row.curlHeadMayBeLost && curl.httpCode == 0)
        if headSeen {
            #expect(curl.httpCode == row.curlStatus, "\(curl)")
            if row.curlStatus != 0 { #expect(curl.httpVersion == "2", "\(curl)") }
            if let marker = row.marker { #expect(curl.marker == marker, "\(curl)") }
        }
        if let bytes = row.curlBytes { #expect(curl.bytes == bytes, "\(curl)") }
        if let seconds = row.seconds { #expect(seconds.contains(curl.seconds), "\(curl)") }
        #expect(curl.connects == row.attempts.curl, "each attempt on a new connection: \(curl)")

        #expect(nghttp.status == 0, "\(nghttp) \(nghttp.output)")
        #expect(nghttp.summary == row.nghttp, "\(nghttp)\n\(nghttp.output)")

        switch row.session {
        case let .response(status, bytes):
            #expect(session.status == status && session.bodyBytes == bytes && session.errorCode == nil, "\(session)")
            if let marker = row.marker { #expect(session.headers?["x-faultline-fault"] == marker, "\(session)") }
            if let field = row.field { #expect(session.headers?[field.name] == field.value, "\(session)") }
        case let .error(code, message):
            #expect(session.errorCode == code, "\(session)")
            #expect(session.errorDescription?.contains(message) == true, "\(session)")
        }

        // The proxy's records: every request of every client was HTTP/2, with its stream id and
        // the HTTP/2 error code the fault sent; as many requests as each client made.
        let expected = [("curl", row.attempts.curl), ("nghttp", row.attempts.nghttp), ("urlsession", row.attempts.session)]
        let records = try await Deadline.poll("exchange records of every client", timeout: .seconds(10)) { () -> [String: [[String: Any]]]? in
            let found = Dictionary(uniqueKeysWithValues: expected.map { ($0.0, stack.exchanges(of: $0.0)) })
            return expected.allSatisfy { (found[$0.0]?.count ?? 0) >= $0.1 } ? found : nil
        }
        for (client, count) in expected {
            let mine = records[client] ?? []
            #expect(mine.count == count, "\(client): \(mine.count) requests, expected \(count)")
            for record in mine {
                #expect(record["network.protocol.version"] as? String == "2", "\(client): \(record)")
                #expect((record["http2.stream_id"] as? Int ?? 0) > 0, "\(client): \(record)")
                #expect(record["http2.error_code"] as? String == row.recordError?.code, "\(client): \(record)")
                #expect(record["http2.error_frame"] as? String == row.recordError?.frame, "\(client): \(record)")
                if row.recordError != nil { #expect(record["http2.error_sender"] as? String == "faultline", "\(client): \(record)") }
            }
        }
    }

    /// The HTTP/2 table in docs/fault-table.md is exactly the one rendered from the cases.
    @Test func theDocumentedTableIsTheTested() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("docs/fault-table.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let begin = "<!-- h2-fault-table:begin (rendered from FaultClientTableH2Tests) -->\n"
        let end = "<!-- h2-fault-table:end -->"
        let rendered = H2FaultTable.markdown
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else {
            Issue.record("docs/fault-table.md lacks the markers \(begin) … \(end); the table is:\n\(rendered)")
            return
        }
        let documented = String(text[start.upperBound..<stop.lowerBound])
        #expect(documented == rendered, "docs/fault-table.md's HTTP/2 table differs from the tests; it should read:\n\(rendered)")
    }

    /// After a graceful GOAWAY curl opens a new connection for its next request; on a route
    /// without the fault it reuses the first.
    @Test func curlOpensANewConnectionAfterAGracefulGoAway() async throws {
        let stack = try await H2FaultStack.start(routes: [
            #"{"name": "drain", "match": {"path_prefix": "/bytes/"}, "upstream": "o", "faults": [{"goaway": {}}]}"#,
        ])
        defer { stack.stop() }
        let format = ["--http2", "--cacert", stack.rootPath, "-o", "/dev/null", "-o", "/dev/null",
                      "-w", "%{http_version} %{http_code} %{num_connects}\\n"]
        let drained = try await Curl.run(format + [stack.url("/bytes/10"), stack.url("/bytes/10")])
        #expect(drained.exitCode == 0 && drained.text == "2 200 1\n2 200 1\n", "\(drained.text) \(drained.stderr)")
        let plain = try await Curl.run(format + [stack.url("/json"), stack.url("/json")])
        #expect(plain.exitCode == 0 && plain.text == "2 200 1\n2 200 0\n", "\(plain.text) \(plain.stderr)")
    }
}
