import Foundation
import Testing
import FaultlineTestSupport

/// secrets that the name lists alone miss. An origin that echoes the
/// request (as httpbin does) puts the request's credential headers under JSON keys, its URL
/// (query secrets) inside a JSON string, its JSON body inside a JSON string, and parameter
/// names such as `auth_token`, `jwt`, `newPassword`, `token[]` or `token%00` everywhere.
/// With the default configuration (JSON lines on a pipe or in a file, HAR capture with
/// bodies on) and with headers and bodies logged too, no canary may reach a log line, the
/// HAR or the process's output, while the origin received every one of them.
@Suite(.timeLimit(.minutes(2)))
struct LoggingEchoCanaryTests {
    /// Parameter and field names that only the substring rules, the extra names or the name
    /// normalisation (brackets, NUL, case) catch.
    static let oddNames = ["auth_token", "session_token", "jwt", "secret", "new_password", "newPassword", "otp",
                           "private_key", "passcode"]

    @Test(arguments: ["default-stdout", "default-file", "full-file"])
    func echoedSecretsReachNoLogNoHARAndNoOutput(setup: String) async throws {
        var canaries = Canaries()
        var secrets: [String: String] = [:]
        for name in CanaryOrigin.responseSecretNames { secrets[name] = canaries.make("resp-\(name)") }
        let origin = try await CanaryOrigin.start(secrets: secrets)
        defer { origin.kill() }
        var log: [String: Any] = [:]
        if setup.hasSuffix("file") { log = ["destination": "file", "path": "traffic.log"] }
        if setup.hasPrefix("full") { log["headers"] = true; log["bodies"] = true }
        let proxy = try await TLSProxy.start(LoggingConfig.root(
            upstreams: ["o": LoggingConfig.httpUpstream(port: origin.port)], routes: [LoggingConfig.route("all", upstream: "o")],
            log: log))
        defer { proxy.kill() }

        // The request's secrets: credential headers, the query (odd names included) and three bodies.
        let cookie = canaries.make("cookie-session"), apiKey = canaries.make("x-api-key"), bearer = canaries.make("bearer")
        let basic = Data("alice:\(canaries.make("proxy-basic"))".utf8).base64EncodedString()
        canaries.addDerived("proxy-basic-base64", basic)
        let headers = ["Cookie: session=\(cookie)", "X-Api-Key: \(apiKey)", "Proxy-Authorization: Basic \(basic)",
                       "Authorization: Bearer \(bearer)"]
        var query = "q=visible-q&access_token=\(canaries.make("q-access-token"))"
        for name in Self.oddNames { query += "&\(name)=\(canaries.make("q-\(name)"))" }
        query += "&token[]=\(canaries.make("q-token-brackets"))&token%00=\(canaries.make("q-token-nul"))"
        query += "&Token%5B0%5D=\(canaries.make("q-token-encoded-brackets"))&page=visible-page"

        var fields = #""user": "alice-visible""#
        for name in Self.oddNames { fields += #", "\#(name)": "\#(canaries.make("json-\(name)"))""# }
        fields += #", "token[]": "\#(canaries.make("json-token-brackets"))""#
        fields += #", "callback": "https://app.example/cb?access_token=\#(canaries.make("json-url-token"))&state=visible-state""#
        fields += #", "data": "{\"password\": \"\#(canaries.make("json-embedded-password"))\", \"note\": \"visible-note\"}""#
        fields += #", "auth": "Bearer \#(canaries.make("json-string-bearer"))""#
        let json = "{" + fields + "}"
        var form = "user=bob-visible"
        for name in Self.oddNames { form += "&\(name)=\(canaries.make("form-\(name)"))" }
        form += "&token%5B%5D=\(canaries.make("form-token-brackets"))&token%00=\(canaries.make("form-token-nul"))"
        form += "&next=" + "https://app.example/x?access_token=\(canaries.make("form-url-token"))"
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let text = "note: visible-text\njwt=\(canaries.make("text-jwt"))\ntoken[]=\(canaries.make("text-token-brackets"))\n"
            + "see https://app.example/t?otp=\(canaries.make("text-url-otp"))&x=1\n"
            + #"{"newPassword": "\#(canaries.make("text-json-password"))"}"# + "\n"
            // A quote is legal in userinfo (RFC 3986 sub-delims) though it ends a URL in prose.
            + "clone https://deploy:\(canaries.make("text-userinfo-a"))'\(canaries.make("text-userinfo-b"))@git.example/r\n"

        let exchanges: [(id: String, path: String, body: String?, type: String?)] = [
            ("echo-get", "/echo/get?" + query, nil, nil),
            ("echo-json", "/echo/json?" + query, json, "application/json"),
            ("echo-form", "/echo/form?" + query, form, "application/x-www-form-urlencoded"),
            ("echo-text", "/echo-text?" + query, text, "text/plain"),
            ("echo-text-json", "/echo-text/json", json, "application/json"),
        ]
        for exchange in exchanges {
            var arguments = ["-s", "-g", "-H", "X-Request-ID: \(exchange.id)"]
            for header in headers { arguments += ["-H", header] }
            if let body = exchange.body, let type = exchange.type {
                arguments += ["--data-binary", body, "-H", "Content-Type: \(type)"]
            }
            let reply = try await Curl.run(arguments + [proxy.url(exchange.path)])
            #expect(reply.exitCode == 0 && reply.text.contains("visible"), "\(exchange.id): \(reply.text.prefix(300))")
        }
        let ids = exchanges.map(\.id)
        let records = try await LogFile.waitForExchanges(ids) { () -> [[String: Any]] in
            setup.hasSuffix("file") ? LogFile.records(proxy.directory.path("traffic.log")) : LogFile.records(in: proxy.output)
        }
        let har = try await proxy.har()

        // The test proves something: every secret reached the origin, and came back in its echo.
        let received = origin.received
        // Sent encoded (base64, percent-encoding): the origin's raw view cannot show them verbatim.
        let encoded: Set<String> = ["proxy-basic", "form-url-token"]
        let missing = canaries.values.filter { !$0.key.hasPrefix("resp-") && !encoded.contains($0.key) && !received.contains($0.value) }
            .map(\.key)
        #expect(missing.isEmpty, "the origin never received \(missing.sorted())")

        func expectNoLeak(_ text: String, _ place: String) {
            let leaks = canaries.leaks(in: text)
            #expect(leaks.purposes.isEmpty && leaks.lines.isEmpty,
                    "secrets leaked into \(place) (\(setup)): \(leaks.purposes)\n\(leaks.lines.joined(separator: "\n"))")
        }
        if setup.hasSuffix("file") { expectNoLeak(LogFile.text(proxy.directory.path("traffic.log")), "the log file") }
        expectNoLeak(proxy.output.text, "the process's stdout and stderr")
        for entry in HARValidator.entries(har.object) {
            let data = try JSONSerialization.data(withJSONObject: entry)
            expectNoLeak(String(decoding: data, as: UTF8.self), "HAR entry \(entry["_requestId"] ?? "?")")
        }
        expectNoLeak(har.text, "the HAR document")

        // Redaction is not "log nothing": the neighbours are still there.
        let echoGet = records.exchange("echo-get")
        let loggedQuery = echoGet?["url.query"] as? String ?? ""
        #expect(loggedQuery.hasPrefix("q=visible-q&") && loggedQuery.hasSuffix("&page=visible-page"), "url.query: \(loggedQuery)")
        let entries = HARValidator.entries(har.object)
        let jsonEntry = entries.first { $0["_requestId"] as? String == "echo-json" }
        let content = ((jsonEntry?["response"] as? [String: Any])?["content"] as? [String: Any])?["text"] as? String ?? ""
        for neighbour in ["alice-visible", "visible-state", "visible-note", "visible-page", "\"Cookie\": \"[REDACTED]\""] {
            #expect(content.contains(neighbour), "the echoed JSON lost \(neighbour): \(content.prefix(2000))")
        }
    }
}
