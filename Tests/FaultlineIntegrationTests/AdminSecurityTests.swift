import Foundation
import Synchronization
import Testing
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The admin API against a hostile web page, a hostile local client and hostile rule files:
/// JSON-only mutations (CSRF), the Host check (DNS rebinding), a token off loopback, rule
/// files confined to the config directory, a connection cap and timeouts, and rule
/// compiles that never stall the proxy's event loop.
@Suite("Admin security", .timeLimit(.minutes(3)))
struct AdminSecurityTests {
    private static let teapotRule = #"{"name": "teapot", "match": {"path": "/teapot"}, "upstream": "demo", "faults": [{"status": 418}]}"#

    @Test func mutationsAcceptOnlyJSON() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        // What a cross-site form or a "simple" fetch can send without a CORS preflight.
        for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", nil] {
            let answer = try stack.raw("POST", "/rules", contentType: type, body: Self.teapotRule)
            #expect(answer.status == 415, "Content-Type \(type ?? "none")")
            #expect(answer.header("content-type") == "application/json")
            #expect((try? JSONObject.parse(answer.body))?["error"] as? String != nil, "\(answer.text)")
        }
        #expect(try stack.raw("POST", "/rules/users/disable", contentType: nil).status == 415)
        #expect(try stack.raw("POST", "/rules/reset", contentType: "text/plain").status == 415)
        #expect(try stack.raw("PUT", "/rules/users", contentType: "text/plain", body: Self.teapotRule).status == 415)
        #expect(try stack.raw("PATCH", "/rules/users", contentType: "text/plain", body: "{}").status == 415)
        #expect(try stack.raw("DELETE", "/rules/users", contentType: "text/plain", body: "x").status == 415)
        #expect(try await stack.ruleNames() == ["users", "all"])
        #expect(try await stack.rules().first?["enabled"] as? Bool == true)
        // JSON with parameters is JSON; a DELETE without a body needs no Content-Type
        // (a cross-site form cannot send DELETE, and a cross-site fetch of it is preflighted).
        #expect(try stack.raw("POST", "/rules", contentType: "Application/JSON; charset=utf-8", body: Self.teapotRule).status == 201)
        #expect(try stack.raw("POST", "/rules/users/disable", contentType: "application/json").status == 200)
        #expect(try stack.raw("DELETE", "/rules/teapot", contentType: nil).status == 204)
        #expect(try await stack.ruleNames() == ["users", "all"])
    }

    @Test func hostMustNameTheAdminListener() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        let port = stack.adminPort
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LocalHost:\(port)", "[::1]:\(port)"] {
            #expect(try stack.raw("GET", "/har", host: host).status == 200, "Host: \(host)")
        }
        // A rebound name, the right name on another port, no port (80 implied), no Host.
        for host in ["evil.example:\(port)", "evil.example", "localhost:\(port == 65535 ? 1 : port + 1)", "127.0.0.1",
                     "127.0.0.1.evil.example:\(port)", "localhost.:\(port)"] {
            let answer = try stack.raw("GET", "/har", host: host)
            #expect(answer.status == 421, "Host: \(host)")
            #expect((try? JSONObject.parse(answer.body))?["error"] as? String != nil, "\(answer.text)")
        }
        #expect(try stack.raw("GET", "/health", host: .some(nil), version: "HTTP/1.0").status == 421)
        #expect(try stack.raw("POST", "/rules", host: "evil.example:\(port)", body: Self.teapotRule).status == 421)
        #expect(try await stack.ruleNames() == ["users", "all"])
    }

    @Test func aTokenIsRequiredOffLoopback() async throws {
        let directory = try TemporaryDirectory()
        for address in ["0.0.0.0:0", "[::]:0", "192.0.2.1:0"] {
            let path = try directory.write("open.json", Self.minimalConfig(admin: ["address": address]))
            let checked = try await FaultlineProcess.command(["check-config", path])
            #expect(checked.status == 3, "\(address): \(checked.output)")
            #expect(checked.output.contains("admin.token"), "\(checked.output)")
            let run = try await FaultlineProcess.command(["run", "--config", path])
            #expect(run.status == 3, "\(address): \(run.output)")
            #expect(run.output.contains("admin.token"), "\(run.output)")
        }
        for admin: [String: Any] in [["address": "0.0.0.0:0", "token": "s3cret"], ["address": "127.0.0.2:0"],
                                     ["address": "localhost:0"], ["address": "[::1]:0"]] {
            let path = try directory.write("fine.json", Self.minimalConfig(admin: admin))
            let checked = try await FaultlineProcess.command(["check-config", path])
            #expect(checked.status == 0, "\(admin): \(checked.output)")
        }
    }

    @Test func ruleFilesAreConfinedRegularAndSmall() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        let directory = stack.directory
        try directory.write("teapot.txt", "short and stout")
        try directory.write("big.bin", Data(count: 2 << 20))
        try FileManager.default.createDirectory(atPath: directory.path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.path("passwd-link"), withDestinationPath: "/etc/passwd")
        #expect(mkfifo(directory.path("pipe"), 0o600) == 0)
        let refused: [(file: String, reason: String)] = [
            ("/etc/passwd", "config directory"),
            ("../../etc/passwd", "config directory"),
            ("passwd-link", "config directory"),
            ("/dev/zero", "config directory"),
            ("sub", "regular file"),
            ("pipe", "regular file"),
            ("big.bin", "larger than"),
            ("missing.txt", "No such file"),
        ]
        for (file, reason) in refused {
            let body = #"{"name": "leak", "match": {"path": "/leak"}, "upstream": "demo", "faults": [{"status": {"code": 200, "body_file": "\#(file)"}}]}"#
            let answer = try await stack.admin("POST", "/rules", body: body)
            #expect(answer.status == 400, "\(file): \(answer.json)")
            #expect(answer.json["field"] as? String == "rule.faults[0].status.body_file", "\(file): \(answer.json)")
            #expect((answer.json["error"] as? String)?.contains(reason) == true, "\(file): \(answer.json)")
        }
        #expect(try await stack.ruleNames() == ["users", "all"])
        #expect(try await stack.admin("GET", "/health").status == 200)
        // Inside the directory: relative or absolute, the file is served.
        for file in ["teapot.txt", directory.path("teapot.txt")] {
            let body = #"{"name": "tea", "match": {"path": "/tea"}, "upstream": "demo", "faults": [{"status": {"code": 418, "body_file": "\#(file)"}}]}"#
            #expect(try await stack.admin("POST", "/rules", body: body).status == 201, "\(file)")
            let result = try await Curl.run([stack.proxy.url("/tea")])
            #expect(result.text == "short and stout")
            #expect(try await stack.admin("DELETE", "/rules/tea").status == 204)
        }
        // Accepted while inside, then swapped for a link out: the next compile re-checks the
        // file it opens and refuses; the bytes already served stay.
        let body = #"{"name": "tea", "match": {"path": "/tea"}, "upstream": "demo", "faults": [{"status": {"code": 418, "body_file": "teapot.txt"}}]}"#
        #expect(try await stack.admin("POST", "/rules", body: body).status == 201)
        try FileManager.default.removeItem(atPath: directory.path("teapot.txt"))
        try FileManager.default.createSymbolicLink(atPath: directory.path("teapot.txt"), withDestinationPath: "/etc/passwd")
        let next = try await stack.admin("POST", "/rules", body: Self.teapotRule)
        #expect(next.status == 400, "\(next.json)")
        #expect((next.json["error"] as? String)?.contains("config directory") == true, "\(next.json)")
        #expect(try await Curl.run([stack.proxy.url("/tea")]).text == "short and stout")
    }

    @Test func configFileBodiesAreRegularAndSmall() async throws {
        let directory = try TemporaryDirectory()
        #expect(mkfifo(directory.path("pipe"), 0o600) == 0)
        try directory.write("big.bin", Data(count: 2 << 20))
        for (file, reason) in [("pipe", "regular file"), ("/dev/zero", "regular file"), ("big.bin", "larger than")] {
            let route: [String: Any] = ["name": "r", "upstream": "demo",
                                        "faults": [["status": ["code": 200, "body_file": file]]]]
            let path = try directory.write("body.json", Self.minimalConfig(admin: nil, routes: [route]))
            // A FIFO opened for reading without O_NONBLOCK waits for a writer forever: the
            // deadline only tells such a hang from an answer, so it is generous (a start of the
            // debug binary took over 10 s with both cores busy).
            let checked = try await FaultlineProcess.command(["check-config", path], timeout: .seconds(45))
            #expect(checked.status == 3, "\(file): \(checked.output)")
            #expect(checked.output.contains("body_file") && checked.output.contains(reason), "\(file): \(checked.output)")
        }
    }

    @Test func adminConnectionsAreCapped() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        let port = stack.adminPort
        let outcome = try await Blocking.run { () throws -> (extraServed: Bool, servedAfterClose: Bool) in
            var held: [RawClient] = []
            for _ in 0..<64 {
                let client = try RawClient(port: port)
                try client.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                guard client.readResponses(1).responses.first?.status == 200 else { throw TestFailure("admin connection \(held.count) not served") }
                held.append(client)
            }
            let extra = try RawClient(port: port, readTimeout: .milliseconds(200))
            try? extra.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            let extraServed = extra.readResponses(1, timeout: .seconds(3)).responses.first?.status == 200
            held.removeLast().close()
            // The freed place is taken once the server has seen the close: poll for it.
            let end = ContinuousClock.now + .seconds(5)
            var servedAfterClose = false
            while !servedAfterClose && ContinuousClock.now < end {
                guard let client = try? RawClient(port: port, readTimeout: .milliseconds(200)) else { continue }
                try? client.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                servedAfterClose = client.readResponses(1, timeout: .milliseconds(500)).responses.first?.status == 200
            }
            held.forEach { $0.close() }
            return (extraServed, servedAfterClose)
        }
        #expect(!outcome.extraServed, "a 65th admin connection was served")
        #expect(outcome.servedAfterClose)
    }

    /// Thousands of pipelined requests refused on the loop (wrong Host) are answered one
    /// after another, in order, with the output bounded by the client's reading; the
    /// process neither recurses nor buffers without limit.
    @Test func aPipelinedFloodOfRefusalsIsAnsweredInOrder() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        let port = stack.adminPort
        let count = 20_000
        let answered = try await Blocking.run { () throws -> Int in
            let client = try RawClient(port: port, readTimeout: .seconds(10))
            let request = Array("GET /health HTTP/1.1\r\nHost: evil.example:\(port)\r\n\r\n".utf8)
            let flood = Array(repeating: request, count: count).flatMap { $0 }
            let sent = DispatchSemaphore(value: 0)
            let sender = Thread {
                try? client.send(flood)
                sent.signal()
            }
            sender.start()
            let marker = Array("HTTP/1.1 421 ".utf8)
            var seen = 0
            var tail: [UInt8] = []
            let end = ContinuousClock.now + .seconds(60)
            while seen < count && ContinuousClock.now < end {
                guard case .bytes(let bytes) = client.readSome() else { break }
                // Count markers in the new bytes plus the tail a marker may straddle.
                let window = tail + bytes
                var index = 0
                while index + marker.count <= window.count {
                    if window[index] == marker[0] && window[index..<index + marker.count].elementsEqual(marker) {
                        seen += 1
                        index += marker.count
                    } else {
                        index += 1
                    }
                }
                tail = Array(window.suffix(marker.count - 1))
            }
            // The sender must be done before the descriptor closes, or a send still looping
            // writes to whatever reuses the number: ending the sending side makes it fail now.
            client.shutdownWrite()
            _ = sent.wait(timeout: .now() + 30)
            client.close()
            return seen
        }
        #expect(answered == count)
        #expect(try await stack.admin("GET", "/health").status == 200)
    }

    @Test func adminConnectionsTimeOut() async throws {
        let stack = try await AdminStack.start(extra: ["timeouts_ms": ["client_header": 300, "client_idle": 600]])
        defer { stack.stop() }
        let port = stack.adminPort
        let closes = try await Blocking.run { () throws -> [(what: String, closed: Bool, seconds: Double)] in
            var results: [(String, Bool, Double)] = []
            let clock = ContinuousClock()
            let silent = try RawClient(port: port, readTimeout: .milliseconds(100))
            var start = clock.now
            var read = silent.readUntilClose(timeout: .seconds(5))
            results.append(("silent", read.closed, Self.seconds(clock.now - start)))
            let partial = try RawClient(port: port, readTimeout: .milliseconds(100))
            try partial.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
            start = clock.now
            read = partial.readUntilClose(timeout: .seconds(5))
            results.append(("partial head", read.closed, Self.seconds(clock.now - start)))
            let idle = try RawClient(port: port, readTimeout: .milliseconds(100))
            try idle.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            guard idle.readResponses(1).responses.first?.status == 200 else { throw TestFailure("keep-alive request not served") }
            start = clock.now
            read = idle.readUntilClose(timeout: .seconds(5))
            results.append(("idle keep-alive", read.closed, Self.seconds(clock.now - start)))
            return results
        }
        for result in closes {
            #expect(result.closed, "\(result.what): still open after 5 s")
            #expect(result.seconds < 3, "\(result.what): closed after \(result.seconds) s")
        }
    }

    /// A rule change compiles a snapshot of thousands of routes (hundreds of milliseconds);
    /// requests on the same (single) event loop must keep flowing meanwhile.
    @Test func ruleCompilesDoNotStallTheEventLoop() async throws {
        var routes: [[String: Any]] = (0..<4000).map { ["name": "r\($0)", "match": ["path": "/p/\($0)"], "upstream": "demo", "faults": [["delay": 1]]] }
        routes.append(["name": "all", "upstream": "demo", "faults": [["status": ["code": 200, "body": "ok"]]]])
        let stack = try await AdminStack.start(routes: routes)
        defer { stack.stop() }
        let proxyPort = stack.proxy.port
        let adminPort = stack.adminPort
        let measured = try await Blocking.run { () throws -> (compile: Double, worstRequest: Double, requests: Int) in
            let clock = ContinuousClock()
            let finished = DoneFlag()
            let adminThread = Thread {
                defer { finished.set() }
                guard let client = try? RawClient(port: adminPort, readTimeout: .seconds(30)) else { return }
                let body = #"{"name": "x", "match": {"path": "/x"}, "upstream": "demo"}"#
                try? client.send("POST /rules HTTP/1.1\r\nHost: 127.0.0.1:\(adminPort)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                _ = client.readResponses(1, timeout: .seconds(30))
            }
            let client = try RawClient(port: proxyPort, readTimeout: .seconds(30))
            let start = clock.now
            adminThread.start()
            var worst = Duration.zero
            var requests = 0
            while !finished.isSet {
                let sent = clock.now
                try client.send("GET /anything HTTP/1.1\r\nHost: a\r\n\r\n")
                let read = client.readResponses(1, timeout: .seconds(30))
                guard read.responses.first?.status == 200 else {
                    throw TestFailure("proxy request \(requests) failed: \(read.responses.map(\.status)), closed: \(read.closed)")
                }
                worst = max(worst, clock.now - sent)
                requests += 1
            }
            return (Self.seconds(clock.now - start), Self.seconds(worst), requests)
        }
        // The measurement only means something if the compile took a while.
        #expect(measured.compile > 0.3, "the compile took \(measured.compile) s: too short to tell")
        #expect(measured.worstRequest < measured.compile / 2,
                "a request waited \(measured.worstRequest) s while the compile took \(measured.compile) s (\(measured.requests) requests)")
        #expect(try await stack.ruleNames().first == "x")
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A config with one listener, upstream `demo` on a closed port, and `admin` if given.
    static func minimalConfig(admin: [String: Any]?, routes: [[String: Any]] = [["name": "all", "upstream": "demo"]]) -> String {
        var root: [String: Any] = [
            "workers": 1,
            "listeners": [["address": "127.0.0.1:0"]],
            "upstreams": ["demo": ["url": "http://127.0.0.1:9"]],
            "routes": routes,
        ]
        if let admin { root["admin"] = admin }
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Set once by one thread, read by another.
private final class DoneFlag: Sendable {
    private let done = Atomic<Bool>(false)
    func set() { done.store(true, ordering: .releasing) }
    var isSet: Bool { done.load(ordering: .acquiring) }
}

extension AdminStack {
    /// One admin request with exact headers on a fresh connection: `host` nil sends none,
    /// `contentType` nil sends none; the token is added when the stack has one.
    func raw(_ method: String, _ path: String, host: String?? = .none, contentType: String? = "application/json",
             body: String = "", version: String = "HTTP/1.1") throws -> ParsedResponse {
        let client = try RawClient(port: adminPort)
        defer { client.close() }
        var head = "\(method) \(path) \(version)\r\n"
        if let host = host ?? "127.0.0.1:\(adminPort)" { head += "Host: \(host)\r\n" }
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.utf8.count)\r\n" }
        try client.send(head + "Connection: close\r\n\r\n" + body)
        guard let response = client.readResponses(1).responses.first else {
            throw TestFailure("no admin answer to \(method) \(path)")
        }
        return response
    }
}
