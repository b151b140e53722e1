import Foundation
import Testing
import FaultlineTestSupport

/// Request and response bodies in every framing, checked end to end with SHA-256.
@Suite(.timeLimit(.minutes(1)))
struct BodyTests {
    static let mebibyte = 1 << 20

    @Test func chunkedUploadArrivesWhole() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let body = BytePattern.random(300_000, seed: 11)
        let directory = try TemporaryDirectory()
        let file = try directory.write("body.bin", Data(body))
        let result = try await Curl.run(["-H", "Transfer-Encoding: chunked", "-H", "Content-Type: application/octet-stream",
                                         "--data-binary", "@\(file)", stack.url("/echo")])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let echo = try JSONObject.parse(result.stdout)
        #expect(echo["body_bytes"] as? Int == body.count)
        #expect(echo["body_sha256"] as? String == SHA256.hex(body))
    }

    @Test func chunkedDownloadArrivesWhole() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let count = 200_003
        let result = try await Curl.run(["-D", "/dev/stderr", stack.url("/bytes/\(count)?chunked=1")])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.lowercased().contains("transfer-encoding: chunked"), "\(result.stderr)")
        #expect(result.stdout.count == count)
        #expect(SHA256.hex(result.stdout) == SHA256.hex(BytePattern.modulo251(count)))
    }

    @Test func oneMebibyteUploadThroughURLSession() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let body = BytePattern.random(Self.mebibyte, seed: 3)
        let response = try await HTTPClient().send(stack.url("/echo"), method: "POST", body: Data(body),
                                                   headers: ["Content-Type": "application/octet-stream"])
        #expect(response.status == 200)
        let echo = try JSONObject.parse(response.body)
        #expect(echo["body_bytes"] as? Int == body.count)
        #expect(echo["body_sha256"] as? String == SHA256.hex(body))
    }

    @Test func oneMebibyteDownloadThroughCurlAndURLSession() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let expected = SHA256.hex(BytePattern.modulo251(Self.mebibyte))
        let curl = try await Curl.run([stack.url("/bytes/\(Self.mebibyte)")])
        #expect(curl.exitCode == 0, "\(curl.stderr)")
        #expect(curl.stdout.count == Self.mebibyte)
        #expect(SHA256.hex(curl.stdout) == expected)
        let session = try await HTTPClient().send(stack.url("/bytes/\(Self.mebibyte)"))
        #expect(session.status == 200)
        #expect(SHA256.hex([UInt8](session.body)) == expected)
    }

    @Test func rawEchoStreamsTheBodyBack() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let body = BytePattern.random(Self.mebibyte, seed: 5)
        let directory = try TemporaryDirectory()
        let file = try directory.write("body.bin", Data(body))
        let result = try await Curl.run(["--data-binary", "@\(file)", "-H", "Content-Type: application/octet-stream",
                                         stack.url("/echo?raw=1")])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.count == body.count)
        #expect(SHA256.hex(result.stdout) == SHA256.hex(body))
    }

    @Test func closeDelimitedUpstreamResponseReachesAnHTTP11ClientComplete() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        let count = 300_000
        let result = try await Curl.run(["--http1.1", stack.url("/close-delimited?n=\(count)")])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.count == count)
        #expect(SHA256.hex(result.stdout) == SHA256.hex(BytePattern.modulo251(count)))
        // The demo origin's close-delimited form too.
        let demo = try await ProxyStack.demo()
        defer { demo.stop() }
        let bytes = try await Curl.run(["--http1.1", demo.url("/bytes/\(count)?close=1")])
        #expect(bytes.exitCode == 0, "\(bytes.stderr)")
        #expect(SHA256.hex(bytes.stdout) == SHA256.hex(BytePattern.modulo251(count)))
    }

    @Test func headHasNoBodyAndTheConnectionStaysUsable() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send("HEAD /bytes/1000 HTTP/1.1\r\nHost: a\r\n\r\n")
            let head = client.read(until: "\r\n\r\n")
            try client.send("GET /64 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            let rest = client.readUntilClose()
            return (head, rest.bytes)
        }
        let head = String(decoding: reply.0, as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
        #expect(head.lowercased().contains("content-length: 1000"), "\(head)")
        #expect(head.hasSuffix("\r\n\r\n"), "bytes after the HEAD response head: \(head)")
        let next = HTTPResponseParser.parse(reply.1, closed: true)
        #expect(next.first?.status == 200, "\(String(decoding: reply.1, as: UTF8.self))")
        #expect(next.first?.text.contains("sixty-four bytes") == true)
    }

    @Test func expect100ContinueGetsTheInterimResponse() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n"
                            + "Connection: close\r\n\r\n")
            let interim = client.read(until: "\r\n\r\n", timeout: .seconds(3))
            try client.send("hello")
            return (interim, client.readUntilClose())
        }
        let interim = String(decoding: reply.0, as: UTF8.self)
        #expect(interim.hasPrefix("HTTP/1.1 100"), "no 100 Continue before the body: \(interim)")
        let final = HTTPResponseParser.parse(reply.0 + reply.1.bytes, closed: true).last
        #expect(final?.status == 200)
        #expect(final.map { $0.text.contains(SHA256.hex(Array("hello".utf8))) } == true)
    }

    @Test func curlLargeUploadWithExpect100Continue() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let body = BytePattern.random(Self.mebibyte, seed: 9)
        let directory = try TemporaryDirectory()
        let file = try directory.write("body.bin", Data(body))
        // A long expect timeout and curl's trace: the interim response is seen in the trace
        // (curl only prints it when it arrives), whatever the machine's load.
        let result = try await Curl.run(["-v", "-H", "Expect: 100-continue", "--expect100-timeout", "30",
                                         "-H", "Content-Type: application/octet-stream",
                                         "--data-binary", "@\(file)", stack.url("/echo")], maxTime: 60)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try JSONObject.parse(result.stdout)["body_sha256"] as? String == SHA256.hex(body))
        let trace = result.stderr.split(whereSeparator: \.isNewline)
        #expect(trace.contains { $0.hasPrefix("< HTTP/1.1 100") }, "curl saw no 100 Continue:\n\(result.stderr)")
        #expect(!result.stderr.contains("Done waiting for 100-continue"), "curl gave up waiting:\n\(result.stderr)")
    }

    /// The issue's streaming bound: a 1 GiB download and a 1 GiB upload pass through while the
    /// proxy's peak RSS (VmHWM) stays under 64 MiB.
    @Test func oneGibibyteBothWaysWithBoundedMemory() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let gibibyte = 1 << 30
        let download = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code} %{size_download}",
                                           stack.url("/bytes/\(gibibyte)")], maxTime: 60)
        #expect(download.exitCode == 0, "\(download.stderr)")
        #expect(download.text == "200 \(gibibyte)")
        let upload = try ChildProcess(executable: "/bin/sh", arguments: ["-c",
            "head -c \(gibibyte) /dev/zero | \(TestPaths.curl) -sS --max-time 60 -T - "
            + "-H 'Content-Type: application/octet-stream' \(stack.url("/echo"))"])
        #expect(try await upload.waitForExit(timeout: .seconds(70)) == 0, "\(upload.output.text)")
        try await Deadline.poll("upload output", timeout: .seconds(5)) { upload.output.isFinished ? () : nil }
        let echo = try JSONObject.parse(Array(upload.output.text.utf8))
        #expect(echo["body_bytes"] as? Int == gibibyte)
        // sha256 of 1 GiB of zero bytes.
        #expect(echo["body_sha256"] as? String == "49bc20df15e412a64472421e13fe86ff1c5165e18b2afccf160d4dc19fe68a14")
        let peak = ProcessMemory.kibibytes("VmHWM", of: stack.proxy.child.pid) ?? Int.max
        #expect(peak < 64 * 1024, "proxy peak RSS \(peak) kB")
    }
}
