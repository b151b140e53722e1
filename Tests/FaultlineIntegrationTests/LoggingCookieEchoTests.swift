import Foundation
import Testing
import FaultlineTestSupport

/// Cookie headers echoed in free text: an origin that echoes the request as text
/// (`/echo-text`: `Cookie: lang=en; connect.sid=…; SID=…`, one line, sent so over HTTP/1.1
/// and as three crumbs over HTTP/2, which the proxy joins into that line) and a text body quoting `cookie:` and `set-cookie:` lines with several
/// crumbs and attributes. Every crumb is a secret: none may reach the log file or the HAR,
/// while the lines around them stay.
@Suite(.timeLimit(.minutes(2)))
struct LoggingCookieEchoTests {
    @Test func everyCookieCrumbInEchoedTextIsRedactedToTheEndOfTheLine() async throws {
        var canaries = Canaries()
        var secrets: [String: String] = [:]
        for name in CanaryOrigin.responseSecretNames { secrets[name] = canaries.make("resp-\(name)") }
        let origin = try await CanaryOrigin.start(secrets: secrets)
        defer { origin.kill() }
        var config = LoggingConfig.root(
            upstreams: ["o": LoggingConfig.httpUpstream(port: origin.port)], routes: [LoggingConfig.route("all", upstream: "o")],
            log: ["destination": "file", "path": "traffic.log", "headers": true, "bodies": true])
        config["listeners"] = [TLSProxyConfig.plainListener, ["address": "127.0.0.1:0", "h2c": true]]
        let proxy = try await TLSProxy.start(config)
        defer { proxy.kill() }

        let header = "Cookie: lang=\(canaries.make("header-lang")); connect.sid=\(canaries.make("header-connect-sid")); "
            + "SID=\(canaries.make("header-sid"))"
        let text = "note: visible-before\n"
            + "cookie: lang=\(canaries.make("text-lang")); connect.sid=\(canaries.make("text-connect-sid")); SID=\(canaries.make("text-sid"))\n"
            + "set-cookie: sid=\(canaries.make("set-sid")); Path=/; Domain=example.com; HttpOnly, "
            + "theme=\(canaries.make("set-joined")); SameSite=Lax\r\n"
            + "Set-Cookie: id=\(canaries.make("set-id")); Expires=Wed, 21 Oct 2037 07:28:00 GMT; Secure; "
            + "other=\(canaries.make("set-attribute"))\n"
            + "X-Original-Cookie: a=\(canaries.make("original-a")); b=\(canaries.make("original-b"))\n"
            + "note: visible-after\n"
        for (id, path) in [("cookie-echo-text", "/echo-text/c"), ("cookie-echo-json", "/echo/c")] {
            let reply = try await Curl.run(["-s", "-H", "X-Request-ID: \(id)", "-H", header, "-H", "Content-Type: text/plain",
                                            "--data-binary", text, proxy.url(path)])
            #expect(reply.exitCode == 0 && reply.text.contains("visible-after"), "\(id): \(reply.text.prefix(300))")
        }
        // Over HTTP/2 each crumb is a field of its own; the proxy joins them into one line for
        // the HTTP/1.1 origin (RFC 9113 §8.2.3), which echoes that line.
        let crumbs = ["lang=\(canaries.make("h2-lang"))", "connect.sid=\(canaries.make("h2-connect-sid"))", "SID=\(canaries.make("h2-sid"))"]
        let h2 = ["nghttp", "--timeout=10", "-H", "x-request-id: cookie-echo-h2"] + crumbs.flatMap { ["-H", "cookie: \($0)"] }
            + ["http://127.0.0.1:\(proxy.ports[1])/echo-text/h2"]
        let h2Reply = try await Blocking.run { try Command.run(h2, timeout: .seconds(20)) }
        #expect(h2Reply.output.contains("url: "), "\(h2Reply.output) \(h2Reply.error)")
        let records = try await LogFile.waitForExchanges(["cookie-echo-text", "cookie-echo-json", "cookie-echo-h2"]) {
            LogFile.records(proxy.directory.path("traffic.log"))
        }
        let har = try await proxy.har()

        let missing = canaries.values.filter { !$0.key.hasPrefix("resp-") && !origin.received.contains($0.value) }.map(\.key)
        #expect(missing.isEmpty, "the origin never received \(missing.sorted())")
        func expectNoLeak(_ text: String, _ place: String) {
            let leaks = canaries.leaks(in: text)
            #expect(leaks.purposes.isEmpty && leaks.lines.isEmpty,
                    "secrets leaked into \(place): \(leaks.purposes)\n\(leaks.lines.joined(separator: "\n"))")
        }
        expectNoLeak(LogFile.text(proxy.directory.path("traffic.log")), "the log file")
        expectNoLeak(har.text, "the HAR document")
        expectNoLeak(proxy.output.text, "the process's output")

        // The lines around the cookies, and the cookie names in the headers, are still there.
        let echoed = records.exchange("cookie-echo-text")?["faultline.response.body"] as? String ?? ""
        #expect(echoed.contains("note: visible-before") && echoed.contains("note: visible-after"), "\(echoed)")
        #expect(echoed.contains("Cookie: [REDACTED]\n"), "\(echoed)")
        let h2Echo = records.exchange("cookie-echo-h2")?["faultline.response.body"] as? String ?? ""
        #expect(h2Echo.contains("cookie: [REDACTED]\n"), "\(h2Echo)")
        let requestCookie = records.exchange("cookie-echo-text")?["http.request.header.cookie"]
        #expect("\(requestCookie ?? "")".contains("connect.sid=[REDACTED]"), "\(String(describing: requestCookie))")
    }
}
