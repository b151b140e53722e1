import Foundation
import Testing
import FaultlineTestSupport

/// Host names forward-proxy clients ask for are looked up off the event loop: a lookup the
/// DNS server holds (`HeldDNS`) leaves the loop serving everyone else, and the request waits
/// for it with its body, then goes on. A name that does not exist is a 502 that says so, kept
/// for a few seconds; a name that turns out to be Faultline itself is refused after the lookup.
/// One worker, so that a lookup on the loop would stall the other client's request.
@Suite(.timeLimit(.minutes(2)))
struct ForwardLookupTests {
    @Test func aHeldLookupLeavesTheLoopServingOtherClientsThenTheRequestGoesOn() async throws {
        let dns = try await HeldDNS.start()
        let stack = try await ForwardStack.start(["--workers", "1"], launcher: dns.launcher)
        defer { stack.stop() }
        let port = stack.origin.port
        // A POST whose body must wait with it: the origin echoes what it received.
        async let held = stack.curl(["--data-binary", "sent-while-the-lookup-was-held", "http://slow.held.test:\(port)/echo"], maxTime: 60)
        try await dns.waitForQuery("slow.held.test")

        let other = try await stack.curl(["http://127.0.0.1:\(port)/headers"], maxTime: 20)
        #expect(other.status == 200, "a client of the same loop waited for another's lookup: \(other.result.text) \(other.result.stderr)")

        try dns.release()
        let answer = try await held
        #expect(answer.status == 200, "\(answer.result.text) \(answer.result.stderr)")
        // The origin answers with the digest of the body it received: all of it, once.
        let body = Array("sent-while-the-lookup-was-held".utf8)
        #expect(answer.result.text.contains("\"body_bytes\": \(body.count), \"body_sha256\": \"\(SHA256.hex(body))\""),
                "\(answer.result.text)")
    }

    @Test func aHeldLookupForATunnelLeavesTheLoopServingThenTheTunnelOpens() async throws {
        let dns = try await HeldDNS.start()
        let stack = try await ForwardStack.start(forward: ["pass_through": ["*.held.test"]], extra: ["workers": 1],
                                                 launcher: dns.launcher)
        defer { stack.stop() }
        let port = stack.origin.port
        // `-p`: CONNECT slow.held.test:PORT, then plain HTTP through the tunnel.
        async let tunnelled = stack.curl(["-p", "http://tunnel.held.test:\(port)/headers"], maxTime: 60)
        try await dns.waitForQuery("tunnel.held.test")

        let other = try await stack.curl(["http://127.0.0.1:\(port)/headers"], maxTime: 20)
        #expect(other.status == 200, "a client of the same loop waited for a tunnel's lookup: \(other.result.text) \(other.result.stderr)")

        try dns.release()
        let answer = try await tunnelled
        #expect(answer.status == 200 && answer.result.text.contains("tunnel.held.test:\(port)"),
                "\(answer.result.text) \(answer.result.stderr)")
    }

    @Test func aNameThatDoesNotExistIsA502ThatSaysSoAndIsNotAskedAgainAtOnce() async throws {
        let dns = try await HeldDNS.start()
        let stack = try await ForwardStack.start(forward: ["pass_through": ["*.missing.test"]], extra: ["workers": 1],
                                                 launcher: dns.launcher)
        defer { stack.stop() }
        for _ in 0..<2 {
            let answer = try await stack.curl(["http://nowhere.missing.test:\(stack.origin.port)/"])
            #expect(answer.status == 502, "\(answer.result.text)")
            #expect(answer.result.text.contains("resolve nowhere.missing.test: Name or service not known"), "\(answer.result.text)")
        }
        // The second request met the kept failure: one lookup in all.
        #expect(dns.queries("nowhere.missing.test") == 1, "A queries: \(dns.queries("nowhere.missing.test"))")
        // A CONNECT to a pass-through host that does not exist: 502 instead of the 200.
        let tunnel = try await stack.curl(["-p", "http://gone.missing.test:\(stack.origin.port)/"])
        #expect(tunnel.result.stderr.contains("CONNECT tunnel failed, response 502"), "\(tunnel.result.text) \(tunnel.result.stderr)")
    }

    @Test func aNameThatTurnsOutToBeFaultlineItselfIsRefusedAfterTheLookup() async throws {
        let dns = try await HeldDNS.start()
        try dns.release()
        let stack = try await ForwardStack.start(forward: ["pass_through": ["*.held.test"]], extra: ["workers": 1],
                                                 launcher: dns.launcher)
        defer { stack.stop() }
        let request = try await stack.curl(["http://me.held.test:\(stack.adminPort)/health"])
        #expect(request.status == 403 && request.result.text.contains("is Faultline itself"), "\(request.result.text)")
        let tunnel = try await stack.curl(["-p", "http://loop.held.test:\(stack.proxy.port)/"])
        #expect(tunnel.result.stderr.contains("CONNECT tunnel failed, response 403"), "\(tunnel.result.text) \(tunnel.result.stderr)")
    }
}
