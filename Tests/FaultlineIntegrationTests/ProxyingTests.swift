import Foundation
import Testing
import FaultlineTestSupport

/// Plain proxying through Faultline to the demo origin: methods, keep-alive, pipelining, routing.
@Suite(.timeLimit(.minutes(1)))
struct ProxyingTests {
    @Test func methodsThroughCurl() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let body = BytePattern.random(5000)
        let directory = try TemporaryDirectory()
        let file = try directory.write("body.bin", Data(body))
        for method in ["GET", "POST", "PUT", "DELETE"] {
            var arguments = ["-X", method, stack.url("/echo?m=\(method)")]
            if method != "GET" { arguments += ["--data-binary", "@\(file)", "-H", "Content-Type: application/octet-stream"] }
            let result = try await Curl.run(arguments)
            #expect(result.exitCode == 0, "\(method): \(result.stderr)")
            let echo = try JSONObject.parse(result.stdout)
            #expect(echo["method"] as? String == method)
            #expect(echo["path"] as? String == "/echo")
            if method != "GET" {
                #expect(echo["body_bytes"] as? Int == body.count, "\(method): \(echo)")
                #expect(echo["body_sha256"] as? String == SHA256.hex(body), "\(method)")
            }
        }
    }

    @Test func methodsThroughURLSession() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let client = HTTPClient()
        let body = BytePattern.random(3000, seed: 7)
        for method in ["GET", "POST", "PUT", "DELETE"] {
            let response = try await client.send(stack.url("/echo?x=1"), method: method,
                                                 body: method == "GET" ? nil : Data(body),
                                                 headers: ["Content-Type": "application/octet-stream"])
            #expect(response.status == 200, "\(method)")
            let echo = try JSONObject.parse(response.body)
            #expect(echo["method"] as? String == method)
            #expect(echo["query"] as? String == "x=1")
            if method != "GET" {
                #expect(echo["body_sha256"] as? String == SHA256.hex(body), "\(method)")
            }
        }
        let json = try await client.send(stack.url("/json"))
        #expect(json.status == 200)
        #expect(json.header("Content-Type") == "application/json")
        #expect(try JSONObject.parse(json.body)["slideshow"] != nil)
        let missing = try await client.send(stack.url("/status/503"))
        #expect(missing.status == 503)
    }

    @Test func keepAliveReusesTheClientConnection() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let result = try await Curl.run(["-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null",
                                         "-w", "%{http_code} %{num_connects}\n",
                                         stack.url("/64"), stack.url("/json"), stack.url("/users?q=a")])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.text == "200 1\n200 0\n200 0\n")
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            // One write: a slow request first, so answering out of order would show.
            try client.send("GET /delay/300 HTTP/1.1\r\nHost: a\r\n\r\n"
                            + "GET /64 HTTP/1.1\r\nHost: a\r\n\r\n"
                            + "GET /status/201 HTTP/1.1\r\nHost: a\r\n\r\n")
            return client.readResponses(3, timeout: .seconds(5))
        }
        #expect(reply.responses.map(\.status) == [200, 200, 201])
        guard reply.responses.count == 3 else { return }
        #expect(reply.responses[1].text.contains("sixty-four bytes"))
        #expect(reply.responses[2].text.contains("201"))
    }

    @Test func pipelinedRequestsWithBodiesAreAnsweredInOrder() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let count = 30
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            let requests = (0..<count).map { index in
                let body = "body-\(index)"
                return "POST /echo?i=\(index) HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            }
            try client.send(requests.joined())
            return client.readResponses(count, timeout: .seconds(10))
        }
        #expect(reply.responses.count == count)
        for (index, response) in reply.responses.enumerated() {
            let echo = try JSONObject.parse(response.body)
            #expect(echo["query"] as? String == "i=\(index)")
            #expect(echo["body_sha256"] as? String == SHA256.hex(Array("body-\(index)".utf8)))
        }
    }

    @Test func unmatchedRequestGets404() async throws {
        let stack = try await ProxyStack.demo { port in
            var config = ProxyConfig.single(port: port)
            config.routes = [["name": "only-json", "match": ["path": "/json"], "upstream": "o"]]
            return config
        }
        defer { stack.stop() }
        let hit = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", stack.url("/json")])
        #expect(hit.text == "200")
        let miss = try await Curl.run(["-w", "\n%{http_code}", stack.url("/64")])
        #expect(miss.text.hasSuffix("\n404"), "\(miss.text)")
    }

    @Test func oneRouteSetupFromTheCommandLine() async throws {
        let origin = try await OriginProcess.demo()
        let proxy = try await FaultlineProcess.run(["--listen", "127.0.0.1:0", "--upstream", origin.url])
        defer { proxy.kill(); origin.kill() }
        let result = try await Curl.run([proxy.url("/64")])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.text.contains("sixty-four bytes"))
    }
}
