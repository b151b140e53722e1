import Foundation
import Testing
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Operator events: a TLS failure, pin report or warning is written to
/// standard error by the event loop that saw it. When stderr is a pipe nobody reads (a
/// service manager that stalled, a `2>&1 | less` left paused), the loop must not block on
/// it: the proxy keeps serving, and the events are dropped and counted instead.
@Suite(.timeLimit(.minutes(2)))
struct OperatorEventStallTests {
    @Test func aStalledStderrDoesNotBlockTheEventLoop() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await OriginProcess.scripted()
        defer { origin.kill() }
        let plainPort = try FreePort.available(), tlsPort = try FreePort.available()
        var config = TLSProxyConfig.root(
            listeners: [["address": "127.0.0.1:\(plainPort)"],
                        ["address": "127.0.0.1:\(tlsPort)", "tls": ["certificate": chain.path("chain.pem"), "key": chain.path("leaf.key")]]],
            upstreams: ["o": LoggingConfig.httpUpstream(port: origin.port)], workers: 1, admin: false)
        config["log"] = ["off": true]
        config["har"] = ["enabled": false]
        let directory = try TemporaryDirectory()
        let path = try directory.write("faultline.json", TLSProxyConfig.json(config))

        // stderr: a pipe whose read end stays open and is never read, so it fills after 64 KiB.
        let process = try ChildProcess(executable: TestPaths.faultline, arguments: ["run", "--config", path],
                                       standardOutput: .discard, standardError: .unreadPipe)
        defer { process.kill() }
        let url = "http://127.0.0.1:\(plainPort)/headers"
        let ready = ContinuousClock.now + .seconds(15)
        while (try? await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", url], maxTime: 2))?.text != "200" {
            guard ContinuousClock.now < ready else { throw TestFailure("the proxy never served \(url)") }
            try await Task.sleep(for: .milliseconds(50))
        }

        // Plain HTTP on the TLS listener: one "client TLS handshake failed" event per
        // connection, about 200 KiB of lines in all, far more than the pipe holds.
        // Connects never wait long: once a blocked loop stops accepting, the backlog fills.
        try await Blocking.run {
            let deadline = ContinuousClock.now + .seconds(10)
            for _ in 0..<2500 where ContinuousClock.now < deadline {
                Self.sendAndClose(port: tlsPort, "GET /\(String(repeating: "x", count: 40)) HTTP/1.1\r\nHost: a\r\n\r\n")
            }
        }
        let started = ContinuousClock.now
        let reply = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", url], maxTime: 10)
        #expect(reply.text == "200", "the proxy stopped serving once stderr was full: \(reply.text) \(reply.stderr)")
        #expect(ContinuousClock.now - started < .seconds(8))
        #expect(process.isRunning)
    }

    /// Connects without blocking for more than 200 ms, sends `text` if connected, closes.
    private static func sendAndClose(port: Int, _ text: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var address = RawClient.loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 {
            guard errno == EINPROGRESS else { return }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, 200) == 1 else { return }
        }
        var bytes = Array(text.utf8)
        _ = send(fd, &bytes, bytes.count, Int32(MSG_NOSIGNAL))
    }
}
