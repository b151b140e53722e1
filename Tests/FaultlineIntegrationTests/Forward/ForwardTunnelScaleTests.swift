import Foundation
import Testing
import FaultlineTestSupport

/// Five thousand CONNECT tunnels opened and held at once (the hostile case): the
/// `forward.max_tunnels` bound holds, the one over it is refused with a 503, plain requests
/// and the admin API are still served, and once the tunnels close the proxy's descriptor
/// count comes back near where it started. Its own suite with a generous limit: opening
/// 10,000 sockets (client and upstream side) takes a while on a busy 2-core machine.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct ForwardTunnelScaleTests {
    static let tunnels = 5000

    /// Open descriptors of process `pid` (`/proc/PID/fd`).
    static func descriptors(_ pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    @Test func fiveThousandHeldTunnelsAreBoundedAndTheirDescriptorsAreReturned() async throws {
        let forward = try await ForwardStack.start(forward: ["pass_through": ["127.0.0.1"], "max_tunnels": Self.tunnels])
        defer { forward.stop() }
        let pid = forward.proxy.child.pid
        // One tunnel first, so that lazily opened descriptors (pools, timers) are counted in the start.
        let warm = try await forward.curl(["-p", "http://127.0.0.1:\(forward.origin.port)/json"])
        #expect(warm.status == 200, "\(warm.result.text) \(warm.result.stderr)")
        let start = try Self.descriptors(pid)
        let request = "CONNECT 127.0.0.1:\(forward.origin.port) HTTP/1.1\r\n\r\n"
        let held = try await Blocking.run { () -> [RawClient] in
            var clients: [RawClient] = []
            clients.reserveCapacity(Self.tunnels)
            for _ in 0..<Self.tunnels {
                let client = try RawClient(port: forward.proxy.port, readTimeout: .seconds(60))
                try client.send(request)
                clients.append(client)
            }
            return clients
        }
        let established = try await Blocking.run {
            held.filter { String(decoding: $0.read(until: "\r\n\r\n", timeout: .seconds(30)), as: UTF8.self).hasPrefix("HTTP/1.1 200") }.count
        }
        #expect(established == Self.tunnels)
        // Client and upstream side of each tunnel are open in the proxy.
        let busy = try Self.descriptors(pid)
        #expect(busy >= start + 2 * Self.tunnels, "descriptors: \(start) at start, \(busy) with the tunnels held")
        let over = try RawClient(port: forward.proxy.port, readTimeout: .seconds(30))
        try over.send(request)
        let refused = String(decoding: over.readUntilClose(timeout: .seconds(30)).bytes, as: UTF8.self)
        #expect(refused.hasPrefix("HTTP/1.1 503") && refused.contains("max_tunnels"), "\(refused)")
        let plain = try await forward.curl(["http://127.0.0.1:\(forward.origin.port)/json"], maxTime: 30)
        #expect(plain.status == 200, "\(plain.result.text) \(plain.result.stderr)")
        let health = try await Curl.run([forward.adminURL + "/health"], maxTime: 30)
        #expect(health.exitCode == 0, "\(health.stderr)")
        for client in held { client.close() }
        // Every tunnel's two descriptors are closed (a few may stay for pooled or idle state).
        let end = try await Deadline.poll("descriptors back near \(start)", timeout: .seconds(60), interval: .milliseconds(200)) { () -> Int? in
            let now = try Self.descriptors(pid)
            return now <= start + 8 ? now : nil
        }
        #expect(end <= start + 8, "descriptors: \(start) at start, \(end) after the tunnels closed")
        // And the places are free again.
        let again = try await forward.curl(["-p", "http://127.0.0.1:\(forward.origin.port)/again"])
        #expect(again.status != nil && again.status != 503, "\(again.result.text) \(again.result.stderr)")
    }
}
