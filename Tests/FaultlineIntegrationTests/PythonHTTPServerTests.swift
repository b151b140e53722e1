import Foundation
import Testing
import FaultlineTestSupport

/// Faultline in front of an origin not written here: Python's `http.server`, which answers
/// HTTP/1.0 with close-delimited bodies.
@Suite(.timeLimit(.minutes(1)))
struct PythonHTTPServerTests {
    static let blob = BytePattern.random(200_000)

    func stack() async throws -> ProxyStack {
        let origin = try await OriginProcess.pythonHTTPServer(files: [
            "hello.txt": Data("hello from python\n".utf8),
            "blob.bin": Data(Self.blob),
        ])
        return try await ProxyStack.start(origin: origin)
    }

    @Test func servesFilesToCurlWithChecksums() async throws {
        let stack = try await stack()
        defer { stack.stop() }
        let small = try await Curl.run([stack.url("/hello.txt")])
        #expect(small.exitCode == 0, "\(small.stderr)")
        #expect(small.text == "hello from python\n")
        let blob = try await Curl.run([stack.url("/blob.bin")])
        #expect(blob.exitCode == 0, "\(blob.stderr)")
        #expect(blob.stdout.count == Self.blob.count)
        #expect(SHA256.hex(blob.stdout) == SHA256.hex(Self.blob))
    }

    @Test func servesFilesToURLSession() async throws {
        let stack = try await stack()
        defer { stack.stop() }
        let client = HTTPClient()
        let response = try await client.send(stack.url("/blob.bin"))
        #expect(response.status == 200)
        #expect(SHA256.hex([UInt8](response.body)) == SHA256.hex(Self.blob))
        let missing = try await client.send(stack.url("/missing.txt"))
        #expect(missing.status == 404)
    }

    @Test func keepsTheClientConnectionAliveAcrossAnHTTP10Origin() async throws {
        let stack = try await stack()
        defer { stack.stop() }
        let result = try await Curl.run(["-o", "/dev/null", "-o", "/dev/null", "-w", "%{http_code} %{num_connects}\n",
                                         stack.url("/hello.txt"), stack.url("/blob.bin")])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.text == "200 1\n200 0\n")
    }

    @Test func headHasNoBody() async throws {
        let stack = try await stack()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send("HEAD /blob.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return client.readUntilClose()
        }
        #expect(reply.closed)
        let text = String(decoding: reply.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
        #expect(text.lowercased().contains("content-length: 200000"), "\(text)")
        #expect(text.hasSuffix("\r\n\r\n"), "HEAD response carried a body: \(text)")
    }
}
